/*
 * estimate_train.c - training: the sharding plan that fits, step time
 * from the compute / memory / communication / data rooflines, throughput
 * and the dataset's time (docs/estimation.md, "Training").
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"

/* ================================================================ */
/* Training                                                          */
/* ================================================================ */

static int pick_train_plan(plan *out,
                           ecf_memory *mem,
                           const ecf_model *m,
                           const ecf_workload *w,
                           ecf_precision p,
                           const devinfo *d,
                           int nodes)
{
    /* Ladder, cheapest first: replicate (DP); shard weights, grads and
     * optimizer (FSDP); then recompute activations; then tensor parallel
     * inside the node. Without an explicit batch, halve it last. */
    int n = d->count * nodes;
    int batch = w->batch_size;
    const ecf_parallelism pars[] = {ECF_PAR_DP, ECF_PAR_FSDP, ECF_PAR_TP_FSDP};
    size_t i;
    int c;

    for (;;) {
        for (c = 0; c < 2; c++) {
            bool ckpt = c == 1;
            if (w->activation_checkpointing == ECF_CKPT_ON && !ckpt)
                continue;
            if (w->activation_checkpointing == ECF_CKPT_OFF && ckpt)
                continue;
            for (i = 0; i < sizeof(pars) / sizeof(pars[0]); i++) {
                plan pl = {pars[i], 1, n, 1, ckpt, batch};
                if (n == 1 && pars[i] != ECF_PAR_DP)
                    continue;
                if (pars[i] == ECF_PAR_TP_FSDP) {
                    if (!ecf_model_kind_is_transformer(m->kind) || d->count < 2)
                        continue;
                    pl.tp = d->count;
                    while (pl.tp > 1 && m->heads % pl.tp != 0)
                        pl.tp /= 2;
                    if (pl.tp < 2)
                        continue;
                    pl.dp = n / pl.tp;
                }
                train_memory(mem, m, w, p, &pl, d);
                if (fits(mem)) {
                    if (n == 1)
                        pl.par = ECF_PAR_SINGLE;
                    *out = pl;
                    return 1;
                }
            }
        }
        if (w->batch_explicit || batch <= 1)
            break;
        batch /= 2;
    }
    /* Nothing fits: report the most sharded attempt at the given batch. */
    {
        plan pl = {n > 1 ? ECF_PAR_FSDP : ECF_PAR_SINGLE,       1, n, 1,
                   w->activation_checkpointing != ECF_CKPT_OFF, 1};
        if (w->batch_explicit)
            pl.batch = w->batch_size;
        train_memory(mem, m, w, p, &pl, d);
        *out = pl;
    }
    return 0;
}

void run_train(ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      int nodes,
                      ecf_precision p,
                      double peak)
{
    plan pl;
    double flops_sample, mult, u, comm_bytes, comm, tp_comm, exposed, mem_bytes;
    int n = d->count * nodes;
    bool tf = ecf_model_kind_is_transformer(m->kind);

    e->fits = pick_train_plan(&pl, &e->memory, m, w, p, d, nodes) == 1;
    e->parallelism = pl.par;
    e->tp_degree = pl.tp;
    e->dp_degree = pl.dp;
    e->pp_degree = 1;
    e->activation_checkpointing = pl.ckpt;
    e->batch_size = pl.batch;
    if (pl.batch != w->batch_size)
        warn(e, "batch lowered from %d to %d per device to fit memory",
             w->batch_size, pl.batch);

    /* FLOPs: forward + backward = 3x forward (6 x params x tokens for
     * transformers); recompute adds a forward (8x). LoRA skips weight
     * gradients: 2x forward (+1 with recompute). */
    if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
        mult = pl.ckpt ? 3.0 : 2.0;
    else
        mult = pl.ckpt ? 4.0 : 3.0;
    flops_sample = fwd_flops_sample(m, w->seq_len);
    if (m->kind == ECF_KIND_DIFFUSION || m->kind == ECF_KIND_CNN)
        flops_sample = m->fwd_gflops_per_sample * 1e9;
    e->samples_per_step = (double)pl.batch * pl.dp;
    e->flops_per_step = mult * flops_sample * e->samples_per_step;

    if (tf)
        u = u_gemm(d, p, U_TRAIN, m->hidden);
    else
        u = u_conv(d, p);
    if (w->task == ECF_TASK_QLORA)
        u *= U_QLORA;
    e->utilization = u;
    e->compute_s = peak > 0 ? e->flops_per_step / n / (peak * 1e12 * u) : 0;

    /* Memory traffic: CNN activations (roofline against bandwidth), plus
     * the optimizer step reading and writing every state byte once. */
    mem_bytes = (e->memory.weights_gib + e->memory.gradients_gib +
                 e->memory.optimizer_gib + e->memory.lora_gib) *
                GIB * 2.0;
    if (!tf)
        mem_bytes += e->memory.activations_gib * GIB * CNN_TRAIN_TRAFFIC;
    e->memory_s = mem_bytes / (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));

    /* Communication per step. */
    comm_bytes =
        (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            ? lora_params(m, w->lora_rank) * 4.0
            : m->params *
                  ((p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0);
    /* Data-parallel traffic (gradient all-reduce, or FSDP's all-gathers
     * and reduce-scatter) overlaps the backward pass up to COMM_OVERLAP;
     * tensor-parallel all-reduces sit on the critical path. */
    comm = 0;
    tp_comm = 0;
    if (pl.par == ECF_PAR_DP || pl.par == ECF_PAR_SINGLE) {
        comm = grad_sync_s(comm_bytes, d->count, nodes, d);
    } else if (pl.par == ECF_PAR_FSDP) {
        /* all-gather (forward) + all-gather (backward) + reduce-scatter:
         * 3 x (n-1)/n x bytes = 1.5 x an all-reduce of the weights. */
        double wbytes = m->params * 2.0;
        if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            wbytes = wbytes / 1.5 + comm_bytes;
        comm = 1.5 * grad_sync_s(wbytes, d->count, nodes, d);
    } else if (pl.par == ECF_PAR_TP_FSDP) {
        /* TP spans the node; FSDP runs across nodes on each TP shard. */
        double wbytes = m->params * 2.0 / pl.tp;
        if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            wbytes = wbytes / 1.5 + comm_bytes / pl.tp;
        comm = 1.5 * grad_sync_s(wbytes, 1, nodes, d);
    }
    if (pl.tp > 1) {
        /* Megatron TP: 4 all-reduces of b x s x h activations per layer
         * per step (2 forward, 2 backward). */
        double act = (double)pl.batch * w->seq_len * m->hidden * 2.0;
        tp_comm = 4.0 * m->layers *
                  allreduce_s(act, pl.tp, d->link_gbytes_s, d->alpha_link,
                              LINK_EFFICIENCY);
    }
    exposed = comm - COMM_OVERLAP * (2.0 / 3.0) * e->compute_s;
    if (exposed < 0)
        exposed = 0;
    exposed += tp_comm;
    e->comm_s = exposed;

    /* Convnets: element-wise traffic adds to convolution time; for
     * transformers the optimizer traffic is the only memory term and it
     * also runs after the backward pass. */
    e->step_time_s =
        tf ? (e->compute_s > e->memory_s ? e->compute_s : e->memory_s)
           : e->compute_s + e->memory_s;
    e->step_time_s += exposed;
    e->bottleneck =
        e->compute_s >= e->memory_s ? ECF_BN_COMPUTE : ECF_BN_MEMORY_BW;
    if (exposed > 0.25 * e->step_time_s)
        e->bottleneck = ECF_BN_COMMUNICATION;
    e->samples_per_s =
        e->step_time_s > 0 ? e->samples_per_step / e->step_time_s : 0;
    e->tokens_per_s =
        tf && m->kind != ECF_KIND_VIT ? e->samples_per_s * w->seq_len : 0;
    if (is_llm(m) || m->kind == ECF_KIND_ENCODER) {
        e->throughput = is_llm(m) ? e->tokens_per_s : e->samples_per_s;
        e->throughput_unit = is_llm(m) ? "tokens/s" : "samples/s";
    } else {
        e->throughput = e->samples_per_s;
        e->throughput_unit = is_vision(m) ? "images/s" : "samples/s";
    }
    if (w->dataset_samples > 0 && e->samples_per_s > 0) {
        e->time_samples_per_s = e->samples_per_s;
        e->time_hours =
            w->dataset_samples * w->epochs / e->samples_per_s / 3600.0;
    }
    assume(e,
           "%s training: %.0fx forward FLOPs per sample, %.0f%% of %.0f "
           "TFLOPS peak",
           w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA ? "adapter"
                                                                 : "full",
           mult, u * 100.0, peak);
    if (w->task == ECF_TASK_TRAIN || w->task == ECF_TASK_FINETUNE)
        assume(e, "Adam, %s: %.0f bytes/param for weights+grads+optimizer",
               w->optimizer_8bit ? "8-bit states" : "mixed precision",
               (p == ECF_PREC_FP32 || p == ECF_PREC_TF32)
                   ? (w->optimizer_8bit ? 10.0 : 16.0)
                   : (w->optimizer_8bit ? 10.0 : 16.0));
    else
        assume(e, "LoRA rank %d on all linear layers: %.1fM adapter params",
               w->lora_rank, lora_params(m, w->lora_rank) / 1e6);
}
