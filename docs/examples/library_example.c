/* library_example.c - rank 1 for training ResNet-50, with libec2fit:
 *   cc library_example.c $(pkg-config --cflags --libs ec2fit) */
#include <ec2fit/ec2fit.h>
#include <stdio.h>

int main(void)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    ecf_zoo *zoo = NULL;
    ecf_rules rules;
    ecf_model model;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *rec = NULL;
    const ecf_model *m;
    int rc = 1;

    if (ecf_catalog_load_embedded(&cat, &err) || ecf_zoo_embedded(&zoo, &err) ||
        ecf_rules_embedded(&rules, &err))
        goto out;
    if (!(m = ecf_zoo_find(zoo, "resnet50")))
        goto out;
    model = *m;
    w.task = ECF_TASK_TRAIN;
    o.regions[o.n_regions++] = "us-east-1";
    if (ecf_workload_resolve(&w, &model, &err) ||
        ecf_recommend_run(&rec, cat, &model, &w, &rules, &o, &err))
        goto out;
    if (rec->n_plans > 0)
        printf("rank 1: %s x%d %s $%.4f/h\n", rec->plans[0].inst->type,
               rec->plans[0].nodes, rec->plans[0].spot ? "spot" : "on-demand",
               rec->plans[0].hourly_usd);
    rc = rec->n_plans > 0 ? 0 : 3;
out:
    if (rc == 1)
        fprintf(stderr, "library_example: %s\n", err.msg[0] ? err.msg : "no model");
    ecf_recommendation_free(rec);
    ecf_zoo_free(zoo);
    ecf_catalog_free(cat);
    return rc;
}
