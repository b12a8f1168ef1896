/*
 * estimate_train.c - training: the sharding plan that fits, step time
 * from the compute / memory / communication / data rooflines, throughput
 * and the dataset's time (docs/estimation.md, "Training").
 */
#include "ec2fit/estimate.h"
#include "ec2fit/attn_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"
#include "estimate_train.h"

/* ================================================================ */
/* Training                                                          */
/* ================================================================ */

/* Forward FLOPs of one training sample. Packed, a sample is one of the
 * seq_len / mean_seq_len sequences of a row: its linear layers see its
 * mean_seq_len real tokens and its attention only itself (block-diagonal,
 * varlen kernels), docs/estimation.md 5.1. */
static double train_flops_sample(const ecf_model *m, const ecf_workload *w)
{
    if (m->kind == ECF_KIND_DIFFUSION || m->kind == ECF_KIND_CNN)
        return m->fwd_gflops_per_sample * 1e9;
    return fwd_flops_sample(m, w->packing ? w->mean_seq_len : w->seq_len);
}

/* The sequence one sample's attention spans: the row, or packed, the
 * sample itself (block-diagonal attention). */
static int sample_seq(const ecf_workload *w)
{
    return w->packing && w->mean_seq_len > 0 ? w->mean_seq_len : w->seq_len;
}

/* H100 SXM's 16-bit ridge, FLOPs per byte: 989.5 TFLOPS dense bf16 over
 * 3,350 GB/s (the catalog's figures); the part at which U_TRAIN and
 * U_HIDDEN_HALF were checked (docs/estimation.md 5.3). */
#define RIDGE_H100 (989.5e3 / 3350.0)

/* Transformer training efficiency u_train_gemm, for LLM decoders with
 * the width term's half-width scaled by the part's 16-bit FLOPS : bytes
 * ratio over the H100's: the width term is the bandwidth-bound
 * element-wise work between the GEMMs (norms, activations, residuals,
 * rotary, casts: bytes per token and layer in proportion to h, against
 * GEMM FLOPs in proportion to h^2), whose share of the step is (ridge /
 * h) x a constant (docs/estimation.md 5.3, "Width term by part").
 * peak16 = the part's bf16/fp16 TFLOPS. Encoders and other
 * accelerators keep U_HIDDEN_HALF; Neuron has no width term (NEURON_MFU). */
static double u_train_tf(const ecf_model *m,
                         const devinfo *d,
                         ecf_precision p,
                         double peak16)
{
    double u = u_train_gemm(d, p, m->hidden), h = m->hidden, half;
    if (!is_llm(m) || d->cpu || !tensor_precision(p) || d->gen == GEN_OLD ||
        d->gen == GEN_NEURON || d->gen == GEN_OTHER || h < 1 ||
        peak16 <= 0 || d->bw_gbytes_s <= 0)
        return u;
    half = U_HIDDEN_HALF * peak16 * 1e3 / d->bw_gbytes_s / RIDGE_H100;
    return u * (h + U_HIDDEN_HALF) / (h + half);
}

/* The 16-bit peak of a part running precision p at `peak` TFLOPS: fp8
 * is twice it on every part with both in the catalog (H100/H200 1979 /
 * 989.5, L40S 733 / 362, L4 242.5 / 121, B200 4500 / 2250), tf32 half
 * of it (156 / 312 on A100, 494.5 / 989.5 on H100). */
static double peak_16bit(const devinfo *d, ecf_precision p, double peak)
{
    if (d->gen == GEN_NEURON || d->gen == GEN_OTHER)
        return peak;
    if (p == ECF_PREC_FP8)
        return 0.5 * peak;
    if (p == ECF_PREC_TF32)
        return 2.0 * peak;
    return peak;
}

/* The attention-core share of train_flops_sample (QK^T and PV, 4 x L x s
 * x heads x head_dim per token, halved causal): the part that runs in
 * the attention kernel, not in the linear layers (docs/estimation.md 5.3,
 * "Attention core"). 0 where the zoo gives the FLOPs whole. */
static double train_attn_flops_sample(const ecf_model *m,
                                      const ecf_workload *w)
{
    double s = sample_seq(w), a;
    if (!ecf_model_kind_is_transformer(m->kind) || m->kind == ECF_KIND_VIT ||
        m->kind == ECF_KIND_SPEECH || m->kind == ECF_KIND_DIFFUSION || s <= 0)
        return 0;
    a = 4.0 * m->layers * s * m->heads * m->head_dim * s;
    return is_llm(m) ? 0.5 * a : a;
}

/* Seconds per FLOP of one training sample's forward-equivalent work
 * (FLOPs / rate), with the attention core at its own rate: under fp8 the
 * Transformer Engine runs only the linear layers (te.Linear,
 * LayerNormLinear, LayerNormMLP) in fp8 and the dot-product attention in
 * bf16, so on NVIDIA parts the attention core runs at the bf16 peak
 * (the catalog's fp8 figure / 2 on every part that has one) and bf16
 * efficiency (docs/estimation.md 5.3, "Attention core"). With a named
 * attention kernel (--attention flash2|cudnn|flash3) on Hopper, in 16-bit
 * or fp8 training, the core runs at that kernel's measured forward +
 * backward rate at the sample's sequence instead (5.3, "Attention
 * kernel"; ec2fit/attn_kernels.h). */
static double train_compute_s_sample(const ecf_model *m,
                                     const ecf_workload *w,
                                     ecf_precision p,
                                     const devinfo *d,
                                     double peak,
                                     double u)
{
    double f = train_flops_sample(m, w), fa = 0, ek = 0;
    if (peak <= 0 || u <= 0)
        return 0;
    if (d->gen == GEN_HOPPER && !d->cpu &&
        (p == ECF_PREC_BF16 || p == ECF_PREC_FP16 || p == ECF_PREC_FP8))
        ek = ecf_attn_kernel_hopper_eff(w->attn_kernel, sample_seq(w));
    if (ek > 0 || (p == ECF_PREC_FP8 && !d->cpu && d->gen != GEN_NEURON &&
                   d->gen != GEN_OTHER))
        fa = train_attn_flops_sample(m, w);
    if (fa <= 0)
        return f / (peak * 1e12 * u);
    {
        double ua = ek;
        if (ua <= 0)
            ua = u_train_tf(m, d, ECF_PREC_BF16, peak_16bit(d, p, peak));
        return (f - fa) / (peak * 1e12 * u) +
               fa / (peak_16bit(d, p, peak) * 1e12 * ua);
    }
}

/* Element-wise traffic of one training sample of a convnet or a
 * diffusion model, bytes (docs/estimation.md 5.4): a convnet's passes
 * over its saved activations (cnn_train_traffic, by how the step is
 * compiled); a diffusion model's saved activations from its shape
 * (diff_train_act_bytes), each byte accessed DIFF_TRAIN_ACCESSES times. */
static double train_act_traffic(const ecf_model *m, const ecf_workload *w,
                                ecf_precision p)
{
    double elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;
    if (m->kind == ECF_KIND_DIFFUSION)
        return diff_train_act_bytes(m, w, 2.0 * elem) * DIFF_TRAIN_ACCESSES;
    return m->act_mib_per_sample * elem * 1048576.0 * cnn_train_traffic(w);
}

/* QLoRA's 4-bit weights: the layers' linear weights; the input embedding
 * and an untied LM head stay 16-bit (torchtune, PEFT). */
static double nf4_params(const ecf_model *m)
{
    double n = m->params - (double)m->vocab * m->hidden *
                               (is_llm(m) && !m->tie_embeddings ? 2.0 : 1.0);
    return n > 0 ? n : m->params;
}

/* Samples per row of seq_len tokens: 1, or seq_len / mean_seq_len packed
 * (the packing leaves no padding: Krell et al. 2021). */
static double samples_per_row(const ecf_workload *w)
{
    return w->packing && w->mean_seq_len > 0
               ? (double)w->seq_len / w->mean_seq_len
               : 1.0;
}

static bool is_zero12(ecf_parallelism par)
{
    return par == ECF_PAR_ZERO1 || par == ECF_PAR_ZERO2;
}

/* What ZeRO-1/2 keep whole on every device: the weights, and under
 * ZeRO-1 the gradients, GiB. */
static double zero_fixed_gib(const ecf_model *m,
                             const ecf_workload *w,
                             ecf_precision p,
                             ecf_parallelism par)
{
    double wb = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0;
    return m->params *
           (wb + (par == ECF_PAR_ZERO1 ? train_grad_bytes(w, wb) : 0)) / GIB;
}

/* Data-parallel communication left exposed by a plan (docs/estimation.md
 * 6, "Overlap"): each collective hides behind the pass that issues it, up
 * to COMM_OVERLAP of that pass. Data parallelism all-reduces gradients in
 * buckets during the backward pass (PyTorch DDP); ZeRO-1/2 and the
 * pipeline's distributed optimizer are counted the same way (DeepSpeed
 * gathers the updated weights in the optimizer step, after the backward).
 * FSDP (ZeRO-3) gathers each layer's weights where it is used: the
 * forward's all-gather is prefetched under the forward pass and the
 * backward's all-gather and reduce-scatter under the backward (PyTorch
 * FSDP forward/backward prefetch; NeMo "Communication Overlap": DP
 * communication "chunked by the granularity of a Transformer layer ...
 * exposes only one DP communication chunk"). So one of FSDP's three
 * transfers (of two with adapters, whose reduce-scatter carries only the
 * adapters' gradients) hides behind the forward, 1 of the step's `mult`
 * forward-equivalents (recomputation runs inside the backward).
 * `window_s` = the compute the traffic can hide behind. */
static double dp_exposed_s(double comm,
                           ecf_parallelism par,
                           double mult,
                           bool lora,
                           double window_s)
{
    double fwd_share = 0, cf, cb, fwd, bwd, x = 0;
    if (comm <= 0)
        return 0;
    if (par == ECF_PAR_FSDP || par == ECF_PAR_TP_FSDP)
        fwd_share = lora ? 0.5 : 1.0 / 3.0;
    cf = comm * fwd_share;
    cb = comm - cf;
    fwd = window_s / mult;
    bwd = window_s - fwd;
    if (cf > COMM_OVERLAP * fwd)
        x += cf - COMM_OVERLAP * fwd;
    if (cb > COMM_OVERLAP * bwd)
        x += cb - COMM_OVERLAP * bwd;
    return x;
}

/* Micro-batches per optimizer step of a plan without a pipeline when the
 * user set the step (--grad-accum N or --global-batch G;
 * docs/estimation.md 5.4): the plan's count that keeps the global batch
 * (c->accum, Megatron-LM's num_microbatches = G / (micro-batch x
 * replicas)), after which the optimizer traffic follows the backward
 * pass. 0 when neither is given (the traffic taken as amortised);
 * pipelines keep their count in c->micro. */
static int accum_n(const ecf_workload *w, const cand *c)
{
    if (c->pl.pp != 1)
        return 0;
    return w->grad_accum > 0 || w->global_batch > 0 ? c->accum : 0;
}

/* Pipeline schedule of a tp+pp plan (docs/estimation.md 6, "Pipeline"):
 * 1F1B leaves p - 1 idle micro-batch slots per step, (p - 1) / m of the
 * work; the interleaved 1F1B schedule (Narayanan et al. 2021, sec. 2.2.2;
 * Megatron-core / NeMo `virtual_pipeline_model_parallel_size`, pinned by
 * --virtual-stages v) gives each device v chunks of L / (p v) layers,
 * cutting the bubble to (p - 1) / (v m) at v times the point-to-point
 * sends and 1 + (p - 1) / (p v) times the first stage's activations in
 * flight (Megatron-LM megatron/training/theoretical_memory_usage.py,
 * interleaved_schedule_memory_penalty). Sets c->vp (1: plain 1F1B, also
 * when v does not divide L / p) and adds the activations. */
static void pp_schedule(cand *c, const ecf_model *m, const ecf_workload *w)
{
    int p = c->pl.pp, v = w->virtual_stages;
    double x;

    c->vp = 1;
    if (v < 2 || (m->layers / p) % v != 0)
        return;
    c->vp = v;
    x = c->mem.activations_gib * (p - 1) / ((double)p * v);
    c->mem.activations_gib += x;
    c->mem.overhead_gib += FRAGMENTATION * x;
    c->mem.total_per_device_gib += x * (1.0 + FRAGMENTATION);
}

/* Step time of one plan (docs/estimation.md, "Training step"): sets
 * every member of *c but c->pl, the caller's (so a candidate needs no
 * clearing first). */
void ecf_train_eval_cand(cand *c,
                      const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d,
                      int nodes,
                      double peak,
                      bool timed)
{
    const plan *pl = &c->pl;
    int n = pl->tp * pl->dp * pl->pp, accum;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    bool lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;
    double flops_sample, mem_bytes, comm_bytes, comm = 0, tp_comm = 0,
                                                p2p = 0, exposed, bubble = 1,
                                                act;

    train_memory(&c->mem, m, w, p, pl, d);
    c->vp = 1;
    if (pl->pp > 1)
        pp_schedule(c, m, w);
    c->fits = fits(&c->mem);
    c->roomy = c->mem.total_per_device_gib * (1.0 + TRAIN_HEADROOM) <=
               c->mem.available_per_device_gib;
    if (!c->fits && !timed) { /* ranked by memory only */
        c->micro = 0;
        c->accum = 1;
        c->mult = c->u = c->compute_s = c->memory_s = c->comm_s = 0;
        c->step_s = c->samples_per_step = c->flops_per_step = c->sps = 0;
        return;
    }
    /* micro-batches per optimizer step that keep the global batch; a
     * pipeline runs them as its m, else gradient accumulation */
    c->accum = ecf_train_plan_accum(ecf_train_global_batch(w, d, nodes), pl);
    accum = accum_n(w, c); /* given by the user, or 0 */
    c->micro = pl->pp > 1 ? c->accum : 1;
    /* FLOPs: forward + backward = 3x forward (6 x params x tokens for
     * transformers); recompute adds one forward (4x: +33%). LoRA skips
     * weight gradients: 2x forward (+1 with recompute). */
    if (lora)
        c->mult = pl->ckpt ? 3.0 : 2.0;
    else
        c->mult = pl->ckpt ? 4.0 : 3.0;
    flops_sample = train_flops_sample(m, w);
    c->samples_per_step =
        (double)pl->batch * pl->dp * c->micro * samples_per_row(w);
    c->flops_per_step = c->mult * flops_sample * c->samples_per_step;
    c->u = tf ? u_train_tf(m, d, p, peak_16bit(d, p, peak)) : u_conv_train(d, p);
    c->compute_s = c->mult * c->samples_per_step / n *
                   (tf ? train_compute_s_sample(m, w, p, d, peak, c->u)
                       : (peak > 0 ? flops_sample *
                                         conv_flops_factor(m, d, p) /
                                         (peak * 1e12 * c->u)
                                   : 0));
    /* QLoRA: each pass (forward, recomputed forward, input gradient) of
     * each micro-batch dequantises this device's NF4 layer weights (all of
     * them under FSDP, which gathers every layer) before its GEMMs. */
    if (w->task == ECF_TASK_QLORA && peak > 0)
        c->compute_s += c->mult * c->micro * nf4_params(m) / pl->tp / pl->pp *
                        NF4_DEQUANT_BYTES / (d->bw_gbytes_s * 1e9 * U_BW);
    /* Materialised attention scores (encoders): their element-wise
     * traffic runs between the GEMMs (docs/estimation.md 5.4). */
    if (tf && peak > 0)
        c->compute_s += c->samples_per_step / pl->dp / pl->tp / pl->pp *
                        attn_score_train_bytes(m, w, d, sample_seq(w), p, pl->ckpt) /
                        (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));

    /* Memory traffic: the optimizer step reads and writes every state byte
     * once; convnets add their element-wise passes over the activations
     * (all of them, even when checkpointed: the recomputed forward writes
     * them again, one pass in three more). */
    mem_bytes = (c->mem.weights_gib + c->mem.gradients_gib +
                 c->mem.optimizer_gib + c->mem.lora_gib) *
                GIB * 2.0;
    /* ZeRO-1/2: each rank steps only its 1/n of the parameters: reads its
     * gradient shard and states, writes its weight shard */
    if (is_zero12(pl->par)) {
        /* weights (and ZeRO-1's gradients) are held whole: 1/n of them;
         * ZeRO-2's gradients and the states are already the shard */
        double grads = pl->par == ECF_PAR_ZERO1 ? c->mem.gradients_gib / n
                                                : c->mem.gradients_gib;
        mem_bytes = (c->mem.weights_gib / n + grads + c->mem.optimizer_gib) *
                    GIB * 2.0;
    }
    /* --grad-accum N (or --global-batch): one optimizer step per N
     * micro-batches */
    if (accum > 0)
        mem_bytes /= accum;
    mem_bytes += accum_pass_bytes(pl, &c->mem, m, w, d, accum);
    if (!tf)
        mem_bytes += (double)pl->batch * train_act_traffic(m, w, p) *
                     (pl->ckpt ? 4.0 / 3.0 : 1.0);
    c->memory_s = mem_bytes / (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));

    /* Communication per step. Data-parallel traffic (gradient all-reduce,
     * or FSDP's all-gathers and reduce-scatter) overlaps the backward pass
     * up to COMM_OVERLAP; tensor-parallel all-reduces and pipeline sends
     * sit on the critical path. */
    comm_bytes = lora ? lora_params(m, w->lora_rank) * 4.0
                      : m->params * ((p == ECF_PREC_FP32 || p == ECF_PREC_TF32)
                                         ? 4.0
                                         : 2.0);
    if (pl->par == ECF_PAR_DP || pl->par == ECF_PAR_SINGLE) {
        comm = grad_sync_s(comm_bytes, d->count, nodes, d);
    } else if (is_zero12(pl->par)) {
        /* ZeRO-1/2: reduce-scatter of the gradients + all-gather of the
         * updated weights = one all-reduce's volume, as DP (Rajbhandari
         * et al. 2020, sec. 7.2.1), without FSDP's per-layer gathers. */
        comm = grad_sync_s(comm_bytes, d->count, nodes, d);
    } else if (pl->par == ECF_PAR_FSDP) {
        /* all-gather (forward) + all-gather (backward) + reduce-scatter:
         * 3 x (n-1)/n x bytes = 1.5 x an all-reduce of the weights. */
        double wbytes = m->params * 2.0;
        if (lora)
            wbytes = wbytes / 1.5 + comm_bytes;
        comm = 1.5 * grad_sync_s(wbytes, d->count, nodes, d);
    } else if (pl->par == ECF_PAR_TP_FSDP) {
        /* TP spans the node; FSDP runs across nodes on each TP shard. */
        double wbytes = m->params * 2.0 / pl->tp;
        if (lora)
            wbytes = wbytes / 1.5 + comm_bytes / pl->tp;
        comm = 1.5 * grad_sync_s(wbytes, 1, nodes, d);
    } else if (pl->par == ECF_PAR_TP_PP || pl->par == ECF_PAR_NXD) {
        /* Each stage's gradient shard is reduced over the dp replicas of
         * that stage, one per node (Megatron distributed optimizer:
         * reduce-scatter + all-gather = one all-reduce). */
        int span = pl->tp * pl->pp,
            per_node = span < d->count ? d->count / span : 1;
        comm = grad_sync_s(comm_bytes / span, per_node, pl->dp / per_node, d);
    }
    act = (double)pl->batch * w->seq_len * m->hidden * 2.0;
    if (pl->tp > 1) {
        /* Megatron TP: 4 all-reduces of b x s x h activations per layer
         * per micro-batch (2 forward, 2 backward), on this stage's layers. */
        tp_comm = 4.0 * m->layers / pl->pp * c->micro *
                  allreduce_s(act, pl->tp, d->link_gbytes_s, d->alpha_link,
                              LINK_EFFICIENCY);
    }
    if (pl->pp > 1) {
        /* A send forward and one backward per micro-batch slot, over the
         * node's network (TP ranks each send 1/tp: scatter-gather). */
        double slot =
            act / (d->net_gbytes_s * 1e9 * NET_EFFICIENCY) + d->alpha_net;
        /* a pipeline inside one node sends over the device links, each
         * TP rank its 1/tp of the activations */
        if (pl->tp * pl->pp <= d->count)
            slot = act / pl->tp / (d->link_gbytes_s * 1e9 * LINK_EFFICIENCY) +
                   d->alpha_link;
        bubble = 1.0 + (double)(pl->pp - 1) / ((double)c->vp * c->micro);
        p2p = 2.0 * ((double)c->vp * c->micro + pl->pp - 1) * slot;
    }
    exposed = dp_exposed_s(comm, pl->par, c->mult, lora,
                           c->compute_s / c->micro);
    c->compute_s *= bubble;
    exposed += tp_comm * bubble + p2p;
    c->comm_s = exposed;
    /* Convnets: element-wise traffic adds to convolution time; for
     * transformers the optimizer traffic is the only memory term and it
     * also runs after the backward pass. */
    c->step_s = tf && accum == 0
                    ? (c->compute_s > c->memory_s ? c->compute_s : c->memory_s)
                    : c->compute_s + c->memory_s;
    c->step_s += exposed;
    if (c->mem.host_offload_gib > 0) /* --offload optimizer */
        c->step_s += offload_step_s(&c->mem, w, p, d);
    c->sps = c->step_s > 0 ? c->samples_per_step / c->step_s : 0;
}

/* Better of two evaluated candidates: fits with headroom, then fits, then
 * throughput. Candidates come simplest first (larger batch, no recompute,
 * DP before FSDP before TP before PP); a later one must be faster by more
 * than PLAN_TIE, below which the estimate cannot tell them apart and the
 * simpler plan is the one to run. */
bool ecf_train_cand_better(const cand *a, const cand *b)
{
    if (a->roomy != b->roomy)
        return a->roomy;
    if (a->fits != b->fits)
        return a->fits;
    if (!a->fits)
        return a->mem.total_per_device_gib < b->mem.total_per_device_gib;
    return a->sps > b->sps * (1.0 + PLAN_TIE);
}

/* Tensor-parallel degree inside a node: the device count, halved until it
 * divides the heads; 0 when TP does not apply. */
static int tp_in_node(const ecf_model *m, const devinfo *d)
{
    int tp = d->count;
    if (!ecf_model_kind_is_transformer(m->kind) || d->count < 2 || d->cpu)
        return 0;
    while (tp > 1 && m->heads % tp != 0)
        tp /= 2;
    return tp >= 2 ? tp : 0;
}

void ecf_train_record_try(ecf_estimate *e, const cand *c)
{
    ecf_train_try *t;
    if (e->quiet || e->n_tried >= ECF_EST_MAX_TRIED)
        return;
    t = &e->tried[e->n_tried++];
    t->parallelism = c->pl.par;
    t->tp = c->pl.tp;
    t->dp = c->pl.dp;
    t->pp = c->pl.pp;
    t->microbatches = c->micro;
    t->vp = c->vp;
    t->batch = c->pl.batch;
    t->checkpointing = c->pl.ckpt;
    t->fits = c->roomy;
    /* a plan that does not fit runs no step: no time to show */
    t->step_time_s = c->fits ? c->step_s : 0;
    t->samples_per_s = c->fits ? c->sps : 0;
    t->mem_gib = c->mem.total_per_device_gib;
}

/* An upper bound on any plan's samples/s: every plan does at least the
 * forward + backward FLOPs of each sample at the same utilisation, and a
 * convnet also streams its activations (recomputation and sharding only
 * add). A plan within PLAN_TIE of it cannot be beaten. */
static double sps_ceiling(const ecf_model *m,
                          const ecf_workload *w,
                          ecf_precision p,
                          const devinfo *d,
                          int n,
                          double peak,
                          bool ckpt)
{
    bool lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    double u = tf ? u_train_tf(m, d, p, peak_16bit(d, p, peak)) : u_conv_train(d, p),
           t;
    double mult = lora ? (ckpt ? 3.0 : 2.0) : (ckpt ? 4.0 : 3.0);
    if (peak <= 0 || u <= 0)
        return 0;
    t = mult * train_compute_s_sample(m, w, p, d, peak, u);
    if (!tf)
        t *= conv_flops_factor(m, d, p); /* Winograd (CUDA-core fp32) */
    if (tf)
        t += attn_score_train_bytes(m, w, d, sample_seq(w), p, ckpt) /
             (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));
    if (!tf)
        t += train_act_traffic(m, w, p) * (ckpt ? 4.0 / 3.0 : 1.0) /
             (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));
    return t > 0 ? n / t : 0;
}

/* The leanest plan: x->pl is the FSDP (1 node 1 device: DP) attempt the
 * search reports when nothing fits; x->mem is that of TP in the node +
 * FSDP when TP applies on more than one device, else of x->pl. It is one
 * of the search's candidates, so the search finds a plan that fits
 * exactly when it does. Returns whether it fits. */
static bool lean_plan(cand *x,
                      const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d,
                      int nodes)
{
    int n = d->count * nodes, tp = tp_in_node(m, d);
    if (d->gen == GEN_NEURON)
        return ecf_train_nxd_lean(x, m, w, p, d, nodes);
    x->pl = (plan){n > 1 ? ECF_PAR_FSDP : ECF_PAR_DP,
                   1,
                   n,
                   1,
                   w->activation_checkpointing != ECF_CKPT_OFF,
                   w->batch_explicit ? w->batch_size : 1};
    long global = ecf_train_global_batch(w, d, nodes);
    x->pl.batch = ecf_train_keep_batch(global, n, x->pl.batch, true);
    if (tp && n > 1) {
        plan lean = x->pl;
        lean.par = ECF_PAR_TP_FSDP;
        lean.tp = tp;
        lean.dp = n / tp;
        lean.batch = ecf_train_keep_batch(global, lean.dp,
                                      w->batch_explicit ? w->batch_size : 1,
                                      true);
        train_memory(&x->mem, m, w, p, &lean, d);
    } else {
        train_memory(&x->mem, m, w, p, &x->pl, d);
    }
    return fits(&x->mem);
}

bool train_lean_fits(const ecf_model *m,
                     const ecf_workload *w,
                     const devinfo *d,
                     int nodes,
                     ecf_precision p)
{
    cand x; /* lean_plan sets what it reads: the plan and memory */
    return lean_plan(&x, m, w, p, d, nodes);
}

/* The plan search (docs/estimation.md, "Plan search"): for each
 * micro-batch (the given one, then halved while not pinned), each
 * checkpointing choice and each sharding that applies (DP, ZeRO-1/2, FSDP,
 * TP in the node + FSDP across, TP in the node + PP across nodes), evaluate
 * the step time and keep the highest throughput that fits with headroom. A
 * smaller batch cannot beat a larger one that already fits with replicated
 * weights (DP, ZeRO-1/2) without recomputation (per-sample work is the
 * same, per-step costs amortise worse), so the descent stops there. */
static void search_train(cand *best,
                         ecf_estimate *e,
                         const ecf_model *m,
                         const ecf_workload *w,
                         ecf_precision p,
                         const devinfo *d,
                         int nodes,
                         double peak,
                         bool pinned)
{
    int n = d->count * nodes, batch = w->batch_size, tp = tp_in_node(m, d);
    int tpn = pinned ? w->tensor_parallel : 0,
        ppn = pinned ? w->pipeline_parallel : 0;
    bool have = false,
         lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;
    int c, pp, t;
    long global = ecf_train_global_batch(w, d, nodes);
    double ceiling = sps_ceiling(m, w, p, d, n, peak, false);
    double ckpt_ceiling = -1; /* computed when first needed */

    memset(best, 0, sizeof(*best));
    /* When the leanest plan (TP in the node + FSDP, else FSDP; smallest
     * batch; recomputing unless told not to) does not fit, nothing does:
     * report the FSDP attempt, as the ladder before the search did. */
    {
        cand x; /* lean_plan, then eval_cand, set every member */
        if (!lean_plan(&x, m, w, p, d, nodes)) {
            ecf_train_eval_cand(&x, m, w, p, d, nodes, peak, true);
            if (n == 1)
                x.pl.par = ECF_PAR_SINGLE;
            ecf_train_record_try(e, &x);
            *best = x;
            return;
        }
    }
    for (;;) {
        bool plain_fits = false;
        for (c = 0; c < 2; c++) {
            bool ckpt = c == 1;
            ecf_parallelism pars[5] = {ECF_PAR_DP, ECF_PAR_ZERO1,
                                       ECF_PAR_ZERO2, ECF_PAR_FSDP,
                                       ECF_PAR_TP_FSDP};
            int i;
            if (w->activation_checkpointing == ECF_CKPT_ON && !ckpt)
                continue;
            if (w->activation_checkpointing == ECF_CKPT_OFF && ckpt)
                continue;
            /* recomputing at the same batch only ever costs time */
            if (ckpt && plain_fits)
                break;
            /* Quiet (no tried table): recomputation's plans all do the
             * extra forward, so their samples/s is at most the ceiling
             * with it; when the best so far is within PLAN_TIE of that
             * (with a margin for rounding), none of them can replace it. */
            if (ckpt && e->quiet && have && best->roomy) {
                if (ckpt_ceiling < 0)
                    ckpt_ceiling = sps_ceiling(m, w, p, d, n, peak, true);
                if (best->sps * (1.0 + PLAN_TIE) >=
                    ckpt_ceiling * (1.0 + 1e-9))
                    continue;
            }
            if (d->gen == GEN_NEURON) { /* NeuronX Distributed layouts */
                ecf_train_search_nxd(best, &have, &plain_fits, e, m, w, p, d,
                                 nodes, peak, global, batch, ckpt, tpn, ppn);
                continue;
            }
            for (i = 0; i < 5; i++) {
                cand x;
                int xtp = 1, xdp = n;
                if (n == 1 && pars[i] != ECF_PAR_DP)
                    continue;
                /* ZeRO-1/2 shard what a full fine-tune or pre-training
                 * holds per parameter; adapters' states are too small to
                 * matter. When the gradients are not kept (optimizer in
                 * the backward pass) ZeRO-2 is ZeRO-1. */
                if (is_zero12(pars[i]) && (lora || plain_fits))
                    continue;
                if (pars[i] == ECF_PAR_ZERO2 &&
                    train_grad_bytes(w, 2.0) == 0)
                    continue;
                /* replicated weights (ZeRO-1: and gradients) that alone
                 * exceed the device fit at no batch */
                if (is_zero12(pars[i]) &&
                    zero_fixed_gib(m, w, p, pars[i]) > d->mem_gib)
                    continue;
                if (pars[i] == ECF_PAR_TP_FSDP) {
                    int t2 = tpn ? tpn : tp;
                    if (!tp || t2 < 2 || m->heads % t2 != 0 ||
                        d->count % t2 != 0)
                        continue;
                    xtp = t2;
                    xdp = n / t2;
                } else if (tpn > 1) {
                    continue; /* pinned TP */
                }
                if (ppn > 1)
                    continue; /* pinned pipeline */
                /* eval_cand sets every other member: no clearing */
                x.pl = (plan){pars[i], xtp, xdp, 1, ckpt,
                              ecf_train_keep_batch(global, xdp, batch,
                                               w->batch_explicit)};
                ecf_train_eval_cand(&x, m, w, p, d, nodes, peak, !e->quiet);
                if (n == 1)
                    x.pl.par = ECF_PAR_SINGLE;
                ecf_train_record_try(e, &x);
                if (!have || ecf_train_cand_better(&x, best)) {
                    *best = x;
                    have = true;
                }
                /* a replicated-weights plan (DP, ZeRO-1/2) that fits
                 * without recomputation: a smaller batch cannot beat it */
                if ((i == 0 || is_zero12(pars[i])) && !ckpt && x.roomy)
                    plain_fits = true;
                if (best->roomy && e->quiet &&
                    best->sps * (1.0 + PLAN_TIE) >= ceiling)
                    return; /* nothing can beat it */
            }
            /* Megatron layout: TP inside each node, pipeline stages
             * across nodes, replicas of the pipeline over the rest; a
             * pinned layout (--tensor-parallel, --pipeline-parallel) may
             * also put several stages in a node or one pipeline in part
             * of a node. */
            t = tpn ? tpn : tp;
            if (tp && m->heads % t == 0)
                for (pp = ppn ? ppn : 2; pp * t <= n && pp <= m->layers;
                     pp = ppn ? n + 1 : pp * 2) {
                    cand x;
                    int span = pp * t; /* devices of one pipeline */
                    if (pp < 2 || m->layers % pp != 0 || n % span != 0 ||
                        (span % d->count != 0 && d->count % span != 0) ||
                        (!tpn && !ppn && nodes % pp != 0))
                        continue;
                    x.pl = (plan){ECF_PAR_TP_PP, t, n / span, pp, ckpt,
                                  ecf_train_keep_batch(global, n / span, batch,
                                                   w->batch_explicit)};
                    ecf_train_eval_cand(&x, m, w, p, d, nodes, peak, !e->quiet);
                    ecf_train_record_try(e, &x);
                    if (!have || ecf_train_cand_better(&x, best)) {
                        *best = x;
                        have = true;
                    }
                }
        }
        if (w->batch_explicit || batch <= 1 || plain_fits)
            break;
        batch /= 2;
    }
}

void run_train(ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      int nodes,
                      ecf_precision p,
                      double peak)
{
    cand best;
    plan pl;
    bool pinned;
    long global = ecf_train_global_batch(w, d, nodes);

    bool tf = ecf_model_kind_is_transformer(m->kind);

    e->n_tried = 0;
    pinned = w->tensor_parallel > 0 || w->pipeline_parallel > 0;
    search_train(&best, e, m, w, p, d, nodes, peak, pinned);
    /* a pinned layout this node count or model cannot take: the search's
     * own plan, when one fits */
    if (pinned && !best.fits) {
        cand own;
        int n_tried = e->n_tried;
        search_train(&own, e, m, w, p, d, nodes, peak, false);
        if (own.fits) {
            best = own;
            pinned = false;
            warn(e, "pinned layout (tensor parallel %d, pipeline stages "
                    "%d; 0 = not given): no such plan fits on %d x %d "
                    "devices; the search chose its own",
                 w->tensor_parallel, w->pipeline_parallel, nodes, d->count);
        } else {
            e->n_tried = n_tried;
        }
    }
    pl = best.pl;
    e->plan_pinned = pinned;
    e->memory = best.mem;
    e->fits = best.fits;
    e->parallelism = pl.par;
    e->tp_degree = pl.tp;
    e->dp_degree = pl.dp;
    e->pp_degree = pl.pp;
    e->activation_checkpointing = pl.ckpt;
    e->batch_size = pl.batch;
    e->grad_accum_steps = best.accum > 0 ? best.accum : 1;
    e->global_batch = pl.batch * pl.dp * e->grad_accum_steps;
    if (pl.batch != w->batch_size && w->batch_explicit)
        warn(e, "batch lowered from %d to %d per device: %d replicas x %d "
                "micro-batches keep the global batch %ld",
             w->batch_size, pl.batch, pl.dp, best.accum, global);
    else if (pl.batch != w->batch_size)
        warn(e, "batch lowered from %d to %d per device: fits with %.0f%% "
                "headroom and is the fastest plan",
             w->batch_size, pl.batch, TRAIN_HEADROOM * 100.0);
    e->samples_per_step = best.samples_per_step;
    e->flops_per_step = best.flops_per_step;
    e->utilization = best.u;
    e->compute_s = best.compute_s;
    e->memory_s = best.memory_s;
    e->comm_s = best.comm_s;
    e->step_time_s = best.step_s;
    e->bottleneck =
        e->compute_s >= e->memory_s ? ECF_BN_COMPUTE : ECF_BN_MEMORY_BW;
    if (best.comm_s > 0.25 * e->step_time_s)
        e->bottleneck = ECF_BN_COMMUNICATION;
    e->samples_per_s =
        e->step_time_s > 0 ? e->samples_per_step / e->step_time_s : 0;
    e->tokens_per_s =
        tf && m->kind != ECF_KIND_VIT
            ? e->samples_per_s * (w->packing ? w->mean_seq_len : w->seq_len)
            : 0;
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
           best.mult, best.u * 100.0, peak);
    /* Neuron: the first run's graph compile is a start-up term
     * (ecf_startup_apply) */
    if (w->task == ECF_TASK_QLORA)
        assume(e, "QLoRA: the NF4 weights dequantised to bf16 before every "
                  "GEMM pass, %.2f bytes per weight at %.0f%% of the memory "
                  "bandwidth", NF4_DEQUANT_BYTES, U_BW * 100.0);
    if (!ecf_model_kind_is_transformer(m->kind) &&
        cnn_train_traffic(w) != CNN_TRAIN_TRAFFIC)
        assume(e,
               "%s: %.1f element-wise passes over the saved activations "
               "(eager kernels: %.0f)",
               w->fused_conv_bn ? "fused conv-BatchNorm-ReLU kernels"
                                : "XLA-compiled step",
               cnn_train_traffic(w), CNN_TRAIN_TRAFFIC);
    if (w->packing)
        assume(e,
               "packed: %.1f samples of %d tokens per %d-token row, attention "
               "per sample (varlen)",
               samples_per_row(w), w->mean_seq_len, w->seq_len);
    if (w->cross_entropy == ECF_CE_CHUNKED || w->cross_entropy == ECF_CE_FUSED)
        assume(e, "%s cross-entropy: the LM head's logits held in 16-bit, "
                  "%s",
               w->cross_entropy == ECF_CE_CHUNKED ? "chunked" : "fused",
               w->cross_entropy == ECF_CE_CHUNKED
                   ? "one chunk in 8 upcast to fp32 at a time"
                   : "no fp32 copy");
    if (w->grad_accum > 0 && accum_n(w, &best) > 0)
        assume(e, "gradient accumulation: one optimizer step per %d "
                  "micro-batches; its memory pass follows the backward",
               accum_n(w, &best));
    /* the user's global batch, kept by every plan (docs/estimation.md
     * 6, "Global batch") */
    if (e->global_batch != global)
        warn(e, "global batch %ld not kept: %d replicas do not divide it; "
                "the plan runs %d per optimizer step",
             global, pl.dp, e->global_batch);
    else if (w->global_batch > 0 || w->grad_accum > 0 || best.accum > 1)
        assume(e,
               "global batch %d: %d micro-batch(es) of %d per replica x %d "
               "replica(s) per optimizer step",
               e->global_batch, best.accum, pl.batch, pl.dp);
    if (pl.pp > 1 && best.vp > 1)
        assume(e,
               "pipeline: %d stages x %d micro-batches per step, interleaved "
               "1F1B with %d chunks of %d layer(s) per device, bubble %.0f%%",
               pl.pp, best.micro, best.vp, m->layers / (pl.pp * best.vp),
               100.0 * (pl.pp - 1) /
                   ((double)best.vp * best.micro + pl.pp - 1));
    else if (pl.pp > 1)
        assume(e,
               "pipeline: %d stages x %d micro-batches per step (1F1B), "
               "bubble %.0f%%",
               pl.pp, best.micro,
               100.0 * (pl.pp - 1) / (best.micro + pl.pp - 1));
    if (w->task == ECF_TASK_TRAIN || w->task == ECF_TASK_FINETUNE)
        assume(e, "Adam, %s: %.0f bytes/param for weights+grads+optimizer",
               w->master_weights == ECF_MASTER_NONE &&
                       !(p == ECF_PREC_FP32 || p == ECF_PREC_TF32)
                   ? (w->optimizer_8bit ? "pure bf16, 8-bit states stepped "
                                          "in the backward pass"
                                        : "pure bf16, bf16 states")
                   : (w->optimizer_8bit ? "8-bit states" : "mixed precision"),
               (p == ECF_PREC_FP32 || p == ECF_PREC_TF32 ? 4.0 : 2.0) +
                   train_grad_bytes(w, (p == ECF_PREC_FP32 ||
                                        p == ECF_PREC_TF32) ? 4.0 : 2.0) +
                   train_opt_bytes(w, (p == ECF_PREC_FP32 ||
                                       p == ECF_PREC_TF32) ? 4.0 : 2.0));
    else
        assume(e, "LoRA rank %d on all linear layers: %.1fM adapter params",
               w->lora_rank, lora_params(m, w->lora_rank) / 1e6);
}
