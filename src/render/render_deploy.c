/*
 * render_deploy.c - names and per-instance figures shared by
 * render_ecs.c and render_cloudwatch.c. The resource names are a fixed
 * scheme ("ec2fit-<model>-asg", ...) that docs/deploy.md creates the
 * resources with; a user with other names rewrites them with jq.
 */
#include "render_deploy.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "ec2fit/region_name.h"

/* "meta-llama/Llama-3.1-8B" from a zoo source that cites
 * "huggingface.co/meta-llama/Llama-3.1-8B;" (models.json). */
static bool hf_repo(char *out, size_t n, const char *source)
{
    const char *p = strstr(source, "huggingface.co/");
    size_t len = 0;
    int slashes = 0;
    if (!p)
        return false;
    p += strlen("huggingface.co/");
    while (p[len] && p[len] != ';' && p[len] != ' ' && p[len] != ',' &&
           p[len] != ')') {
        if (p[len] == '/' && ++slashes > 1)
            break;
        len++;
    }
    if (slashes != 1 || len == 0 || len >= n)
        return false;
    memcpy(out, p, len);
    out[len] = '\0';
    return true;
}

void ecf_deploy_names_init(rd_names *out, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    size_t i, j = 0;
    int nodes = p->nodes > 0 ? p->nodes : 1;

    memset(out, 0, sizeof(*out));
    j = (size_t)snprintf(out->base, sizeof(out->base), "ec2fit-");
    for (i = 0; v->model->name[i] && j + 1 < 64; i++) {
        unsigned char c = (unsigned char)v->model->name[i];
        out->base[j++] = isalnum(c) ? (char)tolower(c) : '-';
    }
    out->base[j] = '\0';
    snprintf(out->asg, sizeof(out->asg), "%s-asg", out->base);
    snprintf(out->queue, sizeof(out->queue), "%s-requests", out->base);
    snprintf(out->capacity_provider, sizeof(out->capacity_provider), "%s-cp",
             out->base);
    if (!hf_repo(out->model_id, sizeof(out->model_id), v->model->source))
        snprintf(out->model_id, sizeof(out->model_id), "%s", v->model->name);
    out->llm = ecf_model_kind_is_llm(v->model->kind);
    out->per_instance_qps = p->capacity_qps / nodes;
    out->target_fraction = out->per_instance_qps > 0
                               ? r->asg_target_qps_per_instance /
                                     out->per_instance_qps
                               : 0;
    out->expected_fraction =
        v->w->qps > 0 && p->capacity_qps > 0 ? v->w->qps / p->capacity_qps
                                             : 0;
    out->tensor_parallel = p->devices_per_node > 0 ? p->devices_per_node : 1;
    if (ecf_images_stack(p->inst) == ECF_STACK_NEURON)
        /* the estimator's cores per chip, logical on Trainium2 (LNC=2) */
        out->tensor_parallel *= ecf_estimate_neuron_cores(p->inst);
    /* the engine the estimate used (--engine, else the platform's
     * default); the plans keep no estimate, so rank 1's is re-run */
    out->engine = out->llm ? "vllm" : "triton";
    {
        ecf_estimate *e = ecf_xmalloc(sizeof(*e));
        if (ecf_estimate_run_quiet(e, v->model, &r->workload, p->inst,
                                   p->nodes_per_group > 0
                                       ? p->nodes_per_group
                                       : 1,
                                   NULL) == 0 &&
            e->engine)
            out->engine = e->engine;
        free(e);
    }
    /* a compiled graph (TensorRT) is served by Triton's TensorRT backend:
     * the container is Triton's, its model repository holds the plans */
    if (strcmp(out->engine, "tensorrt") == 0)
        out->engine = "triton";
}

void ecf_deploy_placement_init(rd_placement *out, const rr_view *v,
                       const ecf_plan *p)
{
    char parent[64];
    memset(out, 0, sizeof(*out));
    out->multi_node =
        ecf_task_is_training(v->rec->workload.task) && p->nodes > 1;
    if (out->multi_node && p->inst->efa && p->inst->efa_interfaces > 0) {
        out->efa_interfaces = p->inst->efa_interfaces;
        out->cluster_placement = true;
    }
    if (ecf_region_parent(parent, sizeof(parent), p->region)) {
        /* AWS names a Local Zone "<zone group><letter>" (the group
         * us-west-2-lax-1 holds us-west-2-lax-1a) and a Wavelength Zone
         * like its group, without a letter (us-east-1-wl1-bos-wlz-1): the
         * first zone of the group (docs/terraform.md "Placement"). */
        if (strstr(p->region, "-wl"))
            snprintf(out->zone, sizeof(out->zone), "%s", p->region);
        else
            snprintf(out->zone, sizeof(out->zone), "%sa", p->region);
    }
    out->single_az = out->cluster_placement || out->zone[0];
}
