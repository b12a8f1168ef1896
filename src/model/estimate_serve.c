/*
 * estimate_serve.c - inference: LLM prefill and decode times, other
 * models' batch times, the batch that fits, online serving's batch for a
 * latency target, and throughput (docs/estimation.md, "Inference").
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"

/* ================================================================ */
/* Inference                                                         */
/* ================================================================ */

typedef struct {
    double ttft_s, per_token_s, latency_s; /* one batch */
    double comm_s;
    bool mem_bound;
} infer_times;

static void llm_times(infer_times *t,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      ecf_precision p,
                      ecf_precision ran,
                      double peak,
                      const plan *pl,
                      double *u_out)
{
    double wb = ecf_estimate_weight_bytes(p);
    double kv_elem = p == ECF_PREC_FP8 ? 1.0 : 2.0;
    double split = (double)pl->tp * pl->pp;
    double b = pl->batch, s_in = w->input_tokens, s_out = w->output_tokens;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW);
    double u_pf, u_dec, flops, bytes, compute, memt, frac_experts = 1.0;
    double weights_dev, dense_params, expert_params, comm_layer;
    double ctx_avg = s_in + s_out / 2.0;

    (void)ran;
    /* Prefill: 2 x params x prompt tokens, GEMM-bound; weights are read
     * once. */
    u_pf = u_gemm(d, p, U_INFER, m->hidden);
    flops = b * fwd_flops_sample(m, (int)s_in);
    compute = peak > 0 ? flops / split / (peak * 1e12 * u_pf) : 0;
    weights_dev = m->params * wb / split;
    memt = weights_dev / bw;
    comm_layer = 2.0 * m->layers *
                 allreduce_s(b * s_in * m->hidden * 2.0, pl->tp,
                             d->link_gbytes_s, d->alpha_link, LINK_EFFICIENCY);
    t->ttft_s = (compute > memt ? compute : memt) + comm_layer;
    if (pl->pp > 1)
        t->ttft_s +=
            (pl->pp - 1) * (d->alpha_net + b * s_in * m->hidden * 2.0 /
                                               (d->net_gbytes_s * 1e9));
    /* Decode step: read the weights touched this step (MoE: the experts
     * any of the b tokens routes to) and the KV cache; FLOPs are
     * 2 x active params per token. A roofline: the slower of the two. */
    if (m->experts > 0) {
        double k = m->experts_per_tok, E = m->experts;
        frac_experts = 1.0 - pow(1.0 - k / E, b);
        dense_params = m->params - (m->params - m->active_params) * E / (E - k);
        if (dense_params < 0)
            dense_params = m->active_params * 0.2;
        expert_params = m->params - dense_params;
        weights_dev =
            (dense_params + expert_params * frac_experts) * wb / split;
    }
    /* an MLA latent is read whole by every TP rank (see infer_memory) */
    bytes = weights_dev +
            kv_bytes_per_token(m, kv_elem) * ctx_avg * b /
                (m->kv_dim_per_layer > 0 ? (double)pl->pp : split);
    u_dec = u_gemm(d, p, U_INFER, m->hidden);
    flops = b * (2.0 * matmul_params(m) +
                 4.0 * m->layers * ctx_avg * m->heads * m->head_dim);
    compute = peak > 0 ? flops / split / (peak * 1e12 * u_dec) : 0;
    memt = bytes / bw;
    t->mem_bound = memt >= compute;
    comm_layer = 2.0 * m->layers *
                 allreduce_s(b * m->hidden * 2.0, pl->tp, d->link_gbytes_s,
                             d->alpha_link, LINK_EFFICIENCY);
    t->per_token_s = (memt > compute ? memt : compute) + comm_layer;
    if (pl->pp > 1)
        t->per_token_s += (pl->pp - 1) * d->alpha_net;
    t->comm_s = comm_layer;
    t->latency_s = t->ttft_s + s_out * t->per_token_s;
    *u_out = u_pf; /* GEMM efficiency; decode is a bandwidth roofline */
}

static void other_times(infer_times *t,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        double peak,
                        const plan *pl,
                        double *u_out)
{
    double b = pl->batch, flops, bytes, compute, memt, u;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW);
    double wb = ecf_estimate_weight_bytes(p);
    double act_elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;

    memset(t, 0, sizeof(*t));
    flops = b * fwd_flops_sample(m, w->seq_len);
    if (m->kind == ECF_KIND_DIFFUSION)
        flops *= (double)ecf_model_cfg_passes(m) *
                 m->diffusion_steps; /* classifier-free guidance */
    if (ecf_model_kind_is_transformer(m->kind))
        u = u_gemm(d, p, U_INFER, m->hidden);
    else
        u = u_conv(d, p);
    compute = peak > 0 ? flops / pl->tp / (peak * 1e12 * u) : 0;
    bytes = m->params * wb / pl->tp;
    if (!ecf_model_kind_is_transformer(m->kind))
        bytes +=
            b * m->act_mib_per_sample * 1048576.0 * act_elem *
            CNN_INFER_TRAFFIC *
            (m->kind == ECF_KIND_DIFFUSION
                 ? (double)ecf_model_cfg_passes(m) * m->diffusion_steps
                 : 1.0);
    memt = bytes / bw;
    t->mem_bound = memt > compute;
    /* convnets: add (see CNN_INFER_TRAFFIC); transformers: roofline */
    if (ecf_model_kind_is_transformer(m->kind))
        t->latency_s = compute > memt ? compute : memt;
    else
        t->latency_s = compute + memt;
    t->latency_s += FRAMEWORK_OVERHEAD_S;
    if (m->kind == ECF_KIND_SPEECH) {
        /* autoregressive text decoder: ~60% of the weights read per
         * generated token */
        t->per_token_s = m->params * wb * 0.6 / pl->tp / bw;
        t->latency_s += w->output_tokens * t->per_token_s;
    }
    *u_out = u;
}

/* Largest power-of-two batch <= cap whose plan fits. */
static int fill_batch(const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      plan *pl,
                      const devinfo *d,
                      int cap)
{
    ecf_memory mem;
    int b = 1, best = 0;
    while (b <= cap) {
        pl->batch = b;
        infer_memory(&mem, m, w, p, pl, d);
        if (!fits(&mem))
            break;
        best = b;
        b *= 2;
    }
    return best;
}

/* Times of one batch for either kind of model. */
static void serve_times(infer_times *t,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        ecf_precision ran,
                        double peak,
                        const plan *pl,
                        double *u)
{
    if (is_llm(m))
        llm_times(t, m, w, d, p, ran, peak, pl, u);
    else
        other_times(t, m, w, d, p, peak, pl, u);
}

/* Online serving: the batch (concurrent requests per replica) for `pl`.
 * With --latency-ms, the largest that meets it; without, the largest
 * within SERVE_KNEE_LATENCY x the batch-1 latency; an explicit
 * --batch-size is kept. Returns false when batch 1 does not fit. */
static bool serve_batch(plan *pl,
                        ecf_memory *mem_out,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        ecf_precision ran,
                        double peak)
{
    infer_times t;
    double u = 0, limit = 0;
    int b, best = 0;

    if (w->batch_explicit) {
        infer_memory(mem_out, m, w, p, pl, d);
        return fits(mem_out);
    }
    {
        ecf_memory mem;
        plan trial = *pl;
        int lo = 0, hi = 0;
        trial.batch = 1;
        infer_memory(&mem, m, w, p, &trial, d);
        *mem_out = mem;
        if (!fits(&mem)) {
            pl->batch = 1;
            return false;
        }
        serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
        limit = w->latency_target_ms > 0 ? w->latency_target_ms / 1e3
                                         : SERVE_KNEE_LATENCY * t.latency_s;
        /* Memory and latency only grow with the batch (KV cache, prefill,
         * decode reads), so "fits and meets the limit" holds up to one
         * largest power of two: binary-search the exponents 1..log2(MAX)
         * instead of walking them (the scorer runs this for every type). */
        for (b = MAX_AUTO_BATCH; b > 1; b /= 2)
            hi++;
        hi++; /* exclusive bound: exponents lo (passes) .. hi - 1 */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            trial.batch = 1 << mid;
            infer_memory(&mem, m, w, p, &trial, d);
            if (fits(&mem)) {
                serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
                if (t.latency_s <= limit) {
                    lo = mid;
                    *mem_out = mem;
                    continue;
                }
            }
            hi = mid;
        }
        best = 1 << lo;
    }
    pl->batch = best;
    return true;
}

void run_infer(ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      int nodes,
                      ecf_precision p,
                      ecf_precision ran,
                      double peak)
{
    plan pl = {ECF_PAR_SINGLE, 1, 1, 1, false, w->batch_size};
    infer_times t;
    double u = 0;
    int tp, replicas;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    bool found = false;

    /* One pass over the tensor-parallel group sizes (powers of two dividing
     * the heads and the device count) that hold the model.
     * - Online serving (infer): each group at its serving batch; keep the
     *   highest throughput among the groups that meet the latency target
     *   (the lowest latency when none does). Small models replicate.
     * - Offline batch jobs: LLMs fill memory with the batch and keep the
     *   highest throughput; other models take the smallest group that fits.
     * If a whole node cannot hold the model, the layers are pipelined
     * across nodes below. */
    {
        bool serving = w->task == ECF_TASK_INFER;
        double best_tput = -1, best_lat = 0;
        bool best_meets = false;
        plan best = pl;
        for (tp = 1; tp <= d->count; tp *= 2) {
            ecf_memory mem;
            plan trial = pl;
            double tput;
            bool meets = true, ok;
            if (tp > 1 && (!tf || m->heads % tp != 0 || d->count % tp != 0))
                continue;
            if (w->tensor_parallel > 0 && tp != w->tensor_parallel)
                continue;
            trial.tp = tp;
            if (serving) {
                ok = serve_batch(&trial, &mem, m, w, d, p, ran, peak);
            } else {
                infer_memory(&mem, m, w, p, &trial, d);
                ok = fits(&mem);
                if (ok && !w->batch_explicit && is_llm(m)) {
                    int b = fill_batch(m, w, p, &trial, d, MAX_AUTO_BATCH);
                    trial.batch = b > 0 ? b : 1;
                    infer_memory(&mem, m, w, p, &trial, d);
                }
            }
            if (!ok) {
                if (!found)
                    e->memory = mem;
                continue;
            }
            serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
            tput = t.latency_s > 0
                       ? (double)(d->count / tp) * trial.batch / t.latency_s
                       : 0;
            if (serving)
                meets = w->latency_target_ms <= 0 ||
                        t.latency_s * 1e3 <= w->latency_target_ms;
            if (!found || (meets && !best_meets) ||
                (meets == best_meets &&
                 (meets ? tput > best_tput : t.latency_s < best_lat))) {
                best_tput = tput;
                best_lat = t.latency_s;
                best_meets = meets;
                best = trial;
                e->memory = mem;
            }
            found = true;
            if (!serving && !is_llm(m))
                break; /* smallest group that fits */
        }
        pl = best;
    }
    if (!found && tf && nodes > 1) {
        pl.tp = d->count;
        while (pl.tp > 1 && (m->heads % pl.tp != 0))
            pl.tp /= 2;
        pl.pp = nodes;
        infer_memory(&e->memory, m, w, p, &pl, d);
        found = fits(&e->memory);
        if (found && w->task == ECF_TASK_BATCH && !w->batch_explicit &&
            is_llm(m)) {
            int b = fill_batch(m, w, p, &pl, d, MAX_AUTO_BATCH);
            pl.batch = b > 0 ? b : 1;
            infer_memory(&e->memory, m, w, p, &pl, d);
        }
    }
    e->fits = found;
    e->batch_size = pl.batch;
    e->tp_degree = pl.tp;
    e->pp_degree = pl.pp;
    replicas = pl.pp > 1 ? 1 : (d->count / pl.tp) * nodes;
    e->replicas = replicas;
    e->dp_degree = replicas;
    if (pl.pp > 1)
        e->parallelism = ECF_PAR_TP_PP;
    else if (pl.tp > 1 && replicas > 1)
        e->parallelism = ECF_PAR_TP_DP;
    else if (pl.tp > 1)
        e->parallelism = ECF_PAR_TP;
    else if (replicas > 1)
        e->parallelism = ECF_PAR_DP;
    else
        e->parallelism = ECF_PAR_SINGLE;

    /* Serving pipelined across nodes: its batch too. */
    if (w->task == ECF_TASK_INFER && found && pl.pp > 1) {
        ecf_memory mem;
        if (serve_batch(&pl, &mem, m, w, d, p, ran, peak))
            e->memory = mem;
    }
    e->batch_size = pl.batch;

    if (is_llm(m)) {
        llm_times(&t, m, w, d, p, ran, peak, &pl, &u);
        e->ttft_ms = t.ttft_s * 1e3;
        e->per_token_ms = t.per_token_s * 1e3;
        e->tokens_per_s =
            t.latency_s > 0
                ? replicas * pl.batch * (double)w->output_tokens / t.latency_s
                : 0;
        e->throughput = e->tokens_per_s;
        e->throughput_unit = "tokens/s";
        assume(e,
               "decode reads the weights and KV cache each step at %.0f%% of "
               "%.0f GB/s; prefill at %.0f%% of peak",
               U_BW * 100, d->bw_gbytes_s,
               u_gemm(d, p, U_INFER, m->hidden) * 100);
        assume(e, "%d input + %d output tokens per request, batch %d",
               w->input_tokens, w->output_tokens, pl.batch);
    } else {
        other_times(&t, m, w, d, p, peak, &pl, &u);
        e->per_token_ms = t.per_token_s * 1e3;
        e->throughput_unit = is_vision(m) ? "images/s" : "samples/s";
        assume(e,
               "%.0f ms framework dispatch per forward (eager PyTorch/TF, "
               "no TensorRT)",
               FRAMEWORK_OVERHEAD_S * 1e3);
    }
    e->latency_ms = t.latency_s * 1e3;
    e->step_time_s = t.latency_s;
    e->comm_s = t.comm_s;
    e->utilization = u;
    e->samples_per_step = (double)pl.batch * replicas;
    e->samples_per_s = t.latency_s > 0 ? replicas * pl.batch / t.latency_s : 0;
    if (!is_llm(m))
        e->throughput = e->samples_per_s;
    e->max_qps_per_replica = t.latency_s > 0 ? pl.batch / t.latency_s : 0;
    e->bottleneck = t.mem_bound ? ECF_BN_MEMORY_BW : ECF_BN_COMPUTE;
    if (t.comm_s > 0.25 * (t.per_token_s > 0 ? t.per_token_s : t.latency_s))
        e->bottleneck = ECF_BN_COMMUNICATION;
    if (w->dataset_samples > 0 && e->samples_per_s > 0) {
        e->time_samples_per_s = e->samples_per_s;
        e->time_hours =
            w->dataset_samples * w->epochs / e->samples_per_s / 3600.0;
    }
    if (w->latency_target_ms > 0 && e->latency_ms > w->latency_target_ms)
        warn(e, "latency %.0f ms exceeds the %.0f ms target", e->latency_ms,
             w->latency_target_ms);
    if (w->qps > 0 && e->max_qps_per_replica * replicas < w->qps)
        warn(e, "sustains %.2f requests/s per node set, below --qps %.2f",
             e->max_qps_per_replica * replicas, w->qps);
}
