/*
 * render_train_plans.c - `--explain` for a training job (recommend's rank
 * 1, estimate's plan): the plans the estimator's search tried (strategy,
 * micro-batch, recomputation, memory, step time, throughput) and why the
 * chosen one won (docs/estimation.md, "Plan search"); text and JSON.
 */
#include "recommend_render.h"

#include <stdio.h>
#include <string.h>

#include "recommend_render_internal.h"
#include "render_common.h"
#include "render_explain.h"

static void strategy(char *buf, size_t n, const ecf_train_try *t)
{
    const char *name = ecf_parallelism_name(t->parallelism);
    if (t->parallelism == ECF_PAR_NXD) {
        char nx[48];
        ecf_strategy_label(nx, sizeof(nx), t->parallelism, t->tp, t->pp);
        if (t->pp > 1)
            snprintf(buf, n, "%s dp%d x%d mb", nx, t->dp, t->microbatches);
        else
            snprintf(buf, n, "%s dp%d", nx, t->dp);
    } else if (t->pp > 1 && t->vp > 1)
        snprintf(buf, n, "%s tp%d pp%d dp%d x%d mb v%d", name, t->tp, t->pp,
                 t->dp, t->microbatches, t->vp);
    else if (t->pp > 1)
        snprintf(buf, n, "%s tp%d pp%d dp%d x%d mb", name, t->tp, t->pp,
                 t->dp, t->microbatches);
    else if (t->tp > 1)
        snprintf(buf, n, "%s tp%d dp%d", name, t->tp, t->dp);
    else
        snprintf(buf, n, "%s %d", name, t->dp);
}

static bool is_chosen(const ecf_train_try *t, const ecf_estimate *e)
{
    return t->parallelism == e->parallelism && t->tp == e->tp_degree &&
           t->pp == e->pp_degree && t->batch == e->batch_size &&
           t->checkpointing == e->activation_checkpointing;
}

const char *ecf_rr_chosen_reason(const ecf_estimate *e)
{
    if (!e->fits)
        return "no plan fits; the one shown needs the least memory per "
               "device";
    if (e->plan_pinned)
        return "the layout pinned by --tensor-parallel / "
               "--pipeline-parallel, the fastest of its micro-batch and "
               "recomputation choices that fits";
    switch (e->parallelism) {
    case ECF_PAR_SINGLE:
    case ECF_PAR_DP:
        return "weights, gradients, optimizer and the batch's activations "
               "fit on each device with headroom, so replicas need only the "
               "gradient all-reduce, which overlaps the backward pass; "
               "sharding or tensor parallelism would add communication";
    case ECF_PAR_ZERO1:
        return "a full replica does not fit, its weights and gradients do "
               "with the optimizer states sharded (ZeRO-1), which keeps data "
               "parallel's all-reduce volume, without FSDP's per-layer "
               "weight all-gathers";
    case ECF_PAR_ZERO2:
        return "a full replica does not fit, its weights do with gradients "
               "and optimizer states sharded (ZeRO-2), which keeps data "
               "parallel's all-reduce volume, without FSDP's per-layer "
               "weight all-gathers";
    case ECF_PAR_FSDP:
        return "a full replica does not fit (or fits only a smaller batch); "
               "sharding weights, gradients and optimizer costs all-gathers "
               "that mostly overlap compute";
    case ECF_PAR_TP_FSDP:
        return "the per-layer tensor-parallel all-reduces inside the node "
               "cost less than what sharding alone leaves (smaller batch, "
               "recomputation or exposed all-gathers across nodes)";
    case ECF_PAR_NXD:
        return "NeuronX Distributed, the Neuron SDK's training library: "
               "tensor parallel over the node's NeuronCores, pipeline "
               "stages and ZeRO-1 optimizer sharding over the replicas "
               "(FSDP is not a Neuron training strategy); this layout is "
               "the fastest that fits each NeuronCore's memory";
    case ECF_PAR_TP_PP:
        return "tensor parallel stays on the node's fast links and "
               "pipeline stages send only activations across nodes, so "
               "the gradient traffic over the network is a 1/(tp x pp) "
               "shard; the bubble is the price";
    default:
        return "fastest plan that fits";
    }
}

void ecf_rr_print_plans_tried(FILE *f, const ecf_estimate *e, const char *type,
                          int nodes)
{
    char lbl[48];
    int i;

    if (e->n_tried == 0)
        return;
    fprintf(f, "\nTraining plans tried for %s x %d (fastest that fits with "
               "headroom wins; * = chosen):\n",
            type, nodes);
    fprintf(f, "  %-26s %6s %5s %5s %9s %10s %12s\n", "STRATEGY", "BATCH",
            "RECMP", "FITS", "GiB/DEV", "STEP_s", "SAMPLES/s");
    for (i = 0; i < e->n_tried; i++) {
        const ecf_train_try *t = &e->tried[i];
        char s[64];
        strategy(s, sizeof(s), t);
        if (t->step_time_s > 0)
            fprintf(f, "%c %-26s %6d %5s %5s %9.1f %10.3f %12.1f\n",
                    is_chosen(t, e) ? '*' : ' ', s, t->batch,
                    t->checkpointing ? "yes" : "no", t->fits ? "yes" : "no",
                    t->mem_gib, t->step_time_s, t->samples_per_s);
        else /* does not fit: no step runs, no time */
            fprintf(f, "%c %-26s %6d %5s %5s %9.1f %10s %12s\n",
                    is_chosen(t, e) ? '*' : ' ', s, t->batch,
                    t->checkpointing ? "yes" : "no", "no", t->mem_gib, "-",
                    "-");
    }
    fprintf(f, "Chosen: %s%s, batch %d%s: %s.\n",
            ecf_strategy_label(lbl, sizeof(lbl), e->parallelism,
                               e->tp_degree, e->pp_degree),
            e->tp_degree > 1 ? " (tensor parallel in the node)" : " (no TP)",
            e->batch_size,
            e->activation_checkpointing ? ", recomputing activations" : "",
            ecf_rr_chosen_reason(e));
    if (e->compile_s > 0) /* docs/estimation.md 7, "Graph compilation" */
        fprintf(f, "First run: +%.0f min compiling the step's graphs "
                   "(neuron_parallel_compile), included in the time; cached "
                   "runs skip it.\n",
                e->compile_s / 60);
}

static void json_plans_tried(cJSON *o, const ecf_estimate *e)
{
    cJSON *arr = cJSON_AddArrayToObject(o, "plans_tried");
    int i;

    for (i = 0; i < e->n_tried; i++) {
        const ecf_train_try *t = &e->tried[i];
        cJSON *x = cJSON_CreateObject();
        cJSON_AddStringToObject(x, "strategy",
                                ecf_parallelism_name(t->parallelism));
        cJSON_AddNumberToObject(x, "tp", t->tp);
        cJSON_AddNumberToObject(x, "pp", t->pp);
        cJSON_AddNumberToObject(x, "dp", t->dp);
        cJSON_AddNumberToObject(x, "micro_batches", t->microbatches);
        cJSON_AddNumberToObject(x, "virtual_stages", t->vp > 1 ? t->vp : 1);
        cJSON_AddNumberToObject(x, "batch", t->batch);
        cJSON_AddBoolToObject(x, "recompute", t->checkpointing);
        cJSON_AddBoolToObject(x, "fits", t->fits);
        ecf_render_json_add_num(x, "gib_per_device", t->mem_gib, 3);
        if (t->step_time_s > 0) {
            ecf_render_json_add_num(x, "step_s", t->step_time_s, 6);
            ecf_render_json_add_num(x, "samples_per_s", t->samples_per_s, 3);
        } else { /* does not fit: no time */
            cJSON_AddNullToObject(x, "step_s");
            cJSON_AddNullToObject(x, "samples_per_s");
        }
        cJSON_AddBoolToObject(x, "chosen", is_chosen(t, e));
        cJSON_AddItemToArray(arr, x);
    }
    cJSON_AddStringToObject(o, "chosen_reason", ecf_rr_chosen_reason(e));
}

void ecf_rr_json_explain(cJSON *o, const ecf_estimate *e)
{
    if (e->n_tried > 0)
        json_plans_tried(o, e);
    else if (e->serve.set)
        ecf_rr_json_serve_terms(o, e);
}

/* recommend --explain: the plan behind rank 1, re-estimated with its
 * notes (the scorer's estimates are quiet). */
void ecf_rr_print_train_plans(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p;
    ecf_estimate e;
    ecf_err err;
    int nodes;

    if (r->n_plans == 0)
        return;
    p = &r->plans[0];
    /* one replica's estimate (a serving fleet is copies of it; a job's
     * replica is the whole plan) */
    nodes = p->nodes_per_group;
    if (ecf_estimate_run(&e, v->model, &r->workload, p->inst, nodes,
                         &err) != 0)
        return;
    /* each prints nothing when the estimate is not its kind */
    ecf_rr_print_plans_tried(f, &e, p->inst->type, nodes);
    ecf_rr_print_serve_terms(f, &e, p->inst->type, nodes);
}
