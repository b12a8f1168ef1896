/*
 * estimate_train_plans.c - the global batch every training plan keeps,
 * and the NeuronX Distributed layouts the plan search tries on Neuron
 * (docs/estimation.md 6, "Global batch", and 7, "AWS Neuron": training).
 *
 * Invariant: micro-batch x data-parallel replicas x micro-batches per
 * step = the user's global batch for every plan whose replica count
 * divides it (ecf_train_keep_batch), whatever its TP and PP degrees.
 */
#include "estimate_train.h"

#include <string.h>

long ecf_train_global_batch(const ecf_workload *w, const devinfo *d, int nodes)
{
    long n = (long)d->count * (nodes > 0 ? nodes : 1);
    if (w->global_batch > 0)
        return w->global_batch;
    /* a per-device batch on every device: plain data parallel's step */
    return (long)(w->batch_size > 0 ? w->batch_size : 1) * n *
           (w->grad_accum > 0 ? w->grad_accum : 1);
}

int ecf_train_keep_batch(long global, int dp, int batch, bool pinned)
{
    long per;
    (void)pinned; /* the global batch wins over a pinned micro-batch */
    if (global <= 0 || dp < 1 || global % dp != 0)
        return batch;
    per = global / dp;
    if (batch > per)
        batch = (int)per;
    while (batch > 1 && per % batch != 0)
        batch--;
    return batch < 1 ? 1 : batch;
}

int ecf_train_plan_accum(long global, const plan *pl)
{
    long per = (long)pl->batch * pl->dp;
    if (global <= 0 || per <= 0 || global / per < 1)
        return 1;
    return (int)(global / per);
}

/* ================================================================ */
/* NeuronX Distributed                                               */
/* ================================================================ */

bool ecf_train_nxd_layout_ok(const ecf_model *m,
                         const devinfo *d,
                         int nodes,
                         int tp,
                         int pp)
{
    int n = d->count * nodes, span = tp * pp;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    if (tp < 1 || pp < 1 || span > n || n % span != 0)
        return false;
    if (tp > d->count || d->count % tp != 0)
        return false; /* TP over the NeuronLink of one node */
    if (tp > 1 && (!tf || m->heads <= 0 || m->heads % tp != 0))
        return false;
    if (pp > 1 && (!tf || m->layers <= 0 || m->layers % pp != 0))
        return false;
    /* a pipeline lies inside one node or spans whole nodes */
    return span <= d->count ? d->count % span == 0 : span % d->count == 0;
}

/* The layouts in search order: TP 1, 2, 4 ... then the node's core count
 * when it is not a power of two; pipeline stages 1, 2, 4 ... */
static int next_tp(const devinfo *d, int tp)
{
    if (tp < d->count && tp * 2 > d->count)
        return d->count;
    return tp * 2;
}

/* The largest TP degree a layout of `m` can take in a node (0: none). */
static int max_tp(const ecf_model *m, const devinfo *d, int nodes)
{
    int tp, best = 0;
    for (tp = 1; tp <= d->count; tp = next_tp(d, tp))
        if (ecf_train_nxd_layout_ok(m, d, nodes, tp, 1))
            best = tp;
    return best;
}

/* The layouts tried: every TP degree without a pipeline, and pipeline
 * stages on top of the largest TP degree only, as NeuronX Distributed's
 * published layouts add stages once TP fills the node (Llama 2 70B and
 * Llama 3.1 70B: TP 32 x PP 8 or 4; Neuron performance pages, trn1
 * training_data_decoder.csv). Memory falls as TP and then PP grow, so
 * the leanest layout is among them. */
static bool nxd_tried(const ecf_model *m,
                      const devinfo *d,
                      int nodes,
                      int tp,
                      int pp,
                      int tp_top)
{
    return ecf_train_nxd_layout_ok(m, d, nodes, tp, pp) &&
           (pp == 1 || tp == tp_top);
}

bool ecf_train_nxd_lean(cand *x,
                    const ecf_model *m,
                    const ecf_workload *w,
                    ecf_precision p,
                    const devinfo *d,
                    int nodes)
{
    int n = d->count * nodes, tp, pp, top = max_tp(m, d, nodes);
    long global = ecf_train_global_batch(w, d, nodes);
    bool have = false;
    for (tp = 1; tp <= d->count; tp = next_tp(d, tp))
        for (pp = 1; tp * pp <= n; pp *= 2) {
            plan pl;
            ecf_memory mem;
            if (!nxd_tried(m, d, nodes, tp, pp, top))
                continue;
            pl = (plan){ECF_PAR_NXD,
                        tp,
                        n / (tp * pp),
                        pp,
                        w->activation_checkpointing != ECF_CKPT_OFF,
                        ecf_train_keep_batch(global, n / (tp * pp),
                                         w->batch_explicit ? w->batch_size
                                                           : 1,
                                         true)};
            train_memory(&mem, m, w, p, &pl, d);
            if (!have || mem.total_per_device_gib <
                             x->mem.total_per_device_gib) {
                x->pl = pl;
                x->mem = mem;
                have = true;
            }
        }
    return have && fits(&x->mem);
}

void ecf_train_search_nxd(cand *best,
                      bool *have,
                      bool *plain_fits,
                      ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d,
                      int nodes,
                      double peak,
                      long global,
                      int batch,
                      bool ckpt,
                      int tpn,
                      int ppn)
{
    int n = d->count * nodes, tp, pp, top = max_tp(m, d, nodes);
    bool lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;

    /* torch-neuronx data parallel: a full replica per NeuronCore (the
     * Neuron performance pages' encoder and vision rows, "[32xNC(DP)]") */
    if (tpn <= 1 && ppn <= 1) {
        cand x;
        x.pl = (plan){n > 1 ? ECF_PAR_DP : ECF_PAR_SINGLE, 1, n, 1, ckpt,
                      ecf_train_keep_batch(global, n, batch, w->batch_explicit)};
        ecf_train_eval_cand(&x, m, w, p, d, nodes, peak, !e->quiet);
        ecf_train_record_try(e, &x);
        if (!*have || ecf_train_cand_better(&x, best)) {
            *best = x;
            *have = true;
        }
        if (!ckpt && x.roomy)
            *plain_fits = true;
    }
    if (n < 2)
        return;
    for (tp = 1; tp <= d->count; tp = next_tp(d, tp))
        for (pp = 1; tp * pp <= n; pp *= 2) {
            cand x;
            int dp = n / (tp * pp);
            if ((tpn > 0 && tp != tpn) || (ppn > 0 && pp != ppn) ||
                (tpn == 0 && ppn == 0 && tp == 1 && pp == 1 &&
                 (lora || *plain_fits)) ||
                (tpn == 0 && ppn == 0 &&
                 !nxd_tried(m, d, nodes, tp, pp, top)) ||
                !ecf_train_nxd_layout_ok(m, d, nodes, tp, pp))
                continue;
            x.pl = (plan){ECF_PAR_NXD, tp, dp, pp, ckpt,
                          ecf_train_keep_batch(global, dp, batch,
                                           w->batch_explicit)};
            ecf_train_eval_cand(&x, m, w, p, d, nodes, peak, !e->quiet);
            ecf_train_record_try(e, &x);
            if (!*have || ecf_train_cand_better(&x, best)) {
                *best = x;
                *have = true;
            }
            /* ZeRO-1 with whole replicas fits without recomputation: a
             * smaller micro-batch cannot beat it */
            if (tp == 1 && pp == 1 && !ckpt && x.roomy)
                *plain_fits = true;
        }
}
