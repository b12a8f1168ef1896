/* library_example.c - rank 1 for training ResNet-50, with libec2fit:
 *   cc library_example.c $(pkg-config --cflags --libs ec2fit) */
#include <ec2fit/ec2fit.h>
#include <stdio.h>

int main(void)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_catalog *cat = NULL;
    ecf_zoo *zoo = NULL;
    ecf_stacks *stacks = NULL; /* which plans have a software stack */
    ecf_rules rules;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *rec = NULL;
    const ecf_model *m = NULL;
    int rc = 1;

    w.task = ECF_TASK_TRAIN;
    o.regions[o.n_regions++] = "us-east-1";
    if (ecf_catalog_load_embedded(&cat, &err) == 0 &&
        ecf_zoo_embedded(&zoo, &err) == 0 && ecf_rules_embedded(&rules, &err) == 0 &&
        ecf_stacks_embedded(&stacks, &err) == 0 && (o.stacks = stacks) &&
        (m = ecf_zoo_find(zoo, "resnet50")) && ecf_workload_resolve(&w, m, &err) == 0 &&
        ecf_recommend_run(&rec, cat, m, &w, &rules, &o, &err) == 0 && rec->n_plans > 0) {
        const ecf_plan *p = &rec->plans[0]; /* ranked best first */
        printf("rank 1: %s x%d %s $%.4f/h\n", p->inst->type, p->nodes,
               p->spot ? "spot" : "on-demand", p->hourly_usd);
        rc = 0;
    } else {
        fprintf(stderr, "library_example: %s\n", err.msg[0] ? err.msg : "no plan");
    }
    ecf_recommendation_free(rec);
    ecf_stacks_free(stacks);
    ecf_zoo_free(zoo);
    ecf_catalog_free(cat);
    return rc;
}
