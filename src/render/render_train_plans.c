/*
 * render_train_plans.c - `recommend --explain` for a training job: the
 * plans the estimator's search tried for the rank-1 type (strategy,
 * micro-batch, recomputation, memory, step time, throughput) and why the
 * chosen one won (docs/estimation.md, "Plan search").
 */
#include "recommend_render.h"

#include <stdio.h>
#include <string.h>

#include "recommend_render_internal.h"

static void strategy(char *buf, size_t n, const ecf_train_try *t)
{
    const char *name = ecf_parallelism_name(t->parallelism);
    if (t->pp > 1)
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

/* One sentence on why the chosen strategy won. */
static const char *why(const ecf_estimate *e)
{
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
    case ECF_PAR_TP_PP:
        return "tensor parallel stays on the node's fast links and "
               "pipeline stages send only activations across nodes, so "
               "the gradient traffic over the network is a 1/(tp x pp) "
               "shard; the bubble is the price";
    default:
        return "fastest plan that fits";
    }
}

void rr_print_train_plans(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p;
    ecf_estimate e;
    ecf_err err;
    int i;

    if (r->serving || r->n_plans == 0)
        return;
    p = &r->plans[0];
    if (ecf_estimate_run(&e, v->model, &r->workload, p->inst, p->nodes,
                         &err) != 0 ||
        e.n_tried == 0)
        return;
    fprintf(f, "\nTraining plans tried for %s x %d (fastest that fits with "
               "headroom wins; * = chosen):\n",
            p->inst->type, p->nodes);
    fprintf(f, "  %-26s %6s %5s %5s %9s %10s %12s\n", "STRATEGY", "BATCH",
            "RECMP", "FITS", "GiB/DEV", "STEP_s", "SAMPLES/s");
    for (i = 0; i < e.n_tried; i++) {
        const ecf_train_try *t = &e.tried[i];
        char s[64];
        strategy(s, sizeof(s), t);
        fprintf(f, "%c %-26s %6d %5s %5s %9.1f %10.3f %12.1f\n",
                is_chosen(t, &e) ? '*' : ' ', s, t->batch,
                t->checkpointing ? "yes" : "no", t->fits ? "yes" : "no",
                t->mem_gib, t->step_time_s, t->samples_per_s);
    }
    fprintf(f, "Chosen: %s%s, batch %d%s: %s.\n",
            ecf_parallelism_name(e.parallelism),
            e.tp_degree > 1 ? " (tensor parallel in the node)" : " (no TP)",
            e.batch_size,
            e.activation_checkpointing ? ", recomputing activations" : "",
            why(&e));
}
