/*
 * estimate_serve.c - inference: LLM prefill and decode times, the batch
 * that fits, online serving's batch for a latency target, and throughput
 * (docs/estimation.md, "Inference"); the forward of every other model is
 * in estimate_serve_other.c.
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/stacks.h"
#include "estimate_internal.h"
#include "estimate_gemm.h"
#include "estimate_neuron.h"
#include "estimate_serve.h"
#include "serve_engines.h"

/* Time of one decode step (or one prompt's prefill) on one pipeline stage:
 * the slower of the bytes it reads and the FLOPs it runs (a roofline). */
static double roofline(double bytes, double bw, double flops, double rate,
                       bool *mem_bound)
{
    double memt = bytes / bw, compute = rate > 0 ? flops / rate : 0;
    if (mem_bound)
        *mem_bound = memt >= compute;
    return memt > compute ? memt : compute;
}

/* An engine's own int4 kernels (ecf_serve_int4_weight_bytes, docs/
 * estimation.md 5.5 "Weight-only kernels"): what the weights cost per
 * device depends on the rows of the pass, so wk gets the prompt's prefill
 * (s_in rows), the b-prompt burst (b x s_in) and the decode step (b).
 * False, wk untouched, when the engine or the model has no description. */
static bool int4_kernel_bytes(const ecf_model *m, const serve_engine *eng,
                              double b, double s_in, double split, double bw,
                              double wk[3])
{
    double step = ecf_serve_int4_weight_bytes(m, eng, b, bw);
    if (step <= 0)
        return false;
    wk[0] = ecf_serve_int4_weight_bytes(m, eng, s_in, bw) / split;
    wk[1] = ecf_serve_int4_weight_bytes(m, eng, b * s_in, bw) / split;
    wk[2] = step / split;
    return true;
}


/* LLM serving with continuous batching (docs/estimation.md, "LLM
 * serving"): `pl->batch` requests in flight per replica; each decode step
 * reads the weights the batch touches and every request's KV cache; the
 * prompts of arriving requests are prefilled in chunks between the decode
 * steps. TTFT is the request's own prefill plus the wait for its step and
 * for the prefills queued ahead of it; TPOT is one decode step stretched
 * by the interleaved prefills, plus the engine's host time. Pipeline
 * stages run in sequence for one token and add a network hop each. */
static void llm_times(infer_times *t,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      ecf_precision p,
                      double peak,
                      const plan *pl,
                      const serve_engine *eng,
                      double *u_out)
{
    double wb = d->wo_weight_bytes > 0 ? d->wo_weight_bytes
                                       : ecf_estimate_weight_bytes(p);
    /* --kv-cache-dtype, auto resolved by this engine */
    double kv_elem = kv_bytes_per_elem_row(w, p, eng);
    double split = (double)pl->tp * pl->pp, pp = pl->pp;
    double b = pl->batch, s_in = w->input_tokens, s_out = w->output_tokens;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : eng->bw_eff);
    double wq = 1.0; /* weight-only quantised kernels vs the roofline */
    double u_pf, rate_pf, rate_burst, rate_dec, weights_dev, kv_dev, comm_pf,
        comm_dec, m_pf, m_burst, m_step;
    double pf_stage, dec_stage, host, iter, lambda, rho, wait, dec_flops;
    double ctx_avg = s_in + s_out / 2.0, act_tok, pf_tok, rep_tok;
    /* the prompt as the prefill runs it (Neuron: padded to its bucket) */
    double s_pf = ecf_est_neuron_prompt_tokens(d, s_in, s_out);
    double act_elem = p == ECF_PREC_FP8 ? 1.0 : p == ECF_PREC_FP32 ? 4.0 : 2.0;
    double wk[3]; /* weights per device: prefill, burst, step */
    double read_params; /* parameters a forward reads whole */
    bool int4_kernel = false;

    memset(t, 0, sizeof(*t));
    if (!d->cpu && p == ECF_PREC_INT4)
        wq = eng->int4_bw_eff;
    else if (!d->cpu && p == ECF_PREC_INT8)
        wq = eng->int8_bw_eff;
    /* Tokens per GEMM (M, 5.3 "Compute efficiency by M"): a prompt's
     * prefill runs its tokens, up to the engine's chunk; the b-prompt
     * burst all of theirs, likewise; a decode step its b tokens plus, on
     * an engine that fuses arriving prompts into the step, their (b - 1)
     * / s_out x s_in prompt tokens (pf_tok). */
    pf_tok = eng->prefill_fused && s_out > 0 ? (b - 1) / s_out * s_pf : 0;
    m_pf = s_pf;
    m_burst = b * s_pf;
    if (eng->chunk_tokens > 0 && m_pf > eng->chunk_tokens)
        m_pf = eng->chunk_tokens;
    if (eng->chunk_tokens > 0 && m_burst > eng->chunk_tokens)
        m_burst = eng->chunk_tokens;
    m_step = b + pf_tok;
    u_pf = ecf_serve_u_infer(d, p, m->hidden, m_pf) * eng->gemm_factor;
    rate_pf = peak * 1e12 * u_pf;
    rate_burst = peak * 1e12 * ecf_serve_u_infer(d, p, m->hidden, m_burst) *
                 eng->gemm_factor;
    rate_dec = peak * 1e12 * ecf_serve_u_infer(d, p, m->hidden, m_step) *
               eng->gemm_factor;
    /* an untied input embedding is a lookup of the tokens' rows, not a
     * read of the table; a tied one is read whole as the LM head */
    read_params = m->params -
                  (m->tie_embeddings ? 0.0 : (double)m->vocab * m->hidden);
    if (read_params <= 0)
        read_params = m->params;
    weights_dev = read_params * wb / split / wq;
    wk[0] = wk[1] = weights_dev;
    if (!d->cpu && p == ECF_PREC_INT4 && eng->int4_col_gweights_s > 0)
        int4_kernel = int4_kernel_bytes(m, eng, b, s_pf, split, bw, wk);

    /* One prompt on one stage: 2 x params x prompt tokens against the
     * stage's weights, read once, plus the prompt's activations through
     * every GEMM (A and C at M = prompt tokens: the per-GEMM roofline,
     * docs/estimation.md 5.3 "Tokens per GEMM"). */
    act_tok = d->cpu ? 0
                     : ecf_est_gemm_act_bytes_per_token(m, pl->tp, act_elem) /
                           pp;
    /* the norms and residual adds no rank splits: the share of their
     * bytes a split would have saved, per token and stage, read at the
     * step's bandwidth after the GEMMs (ecf_est_tp_replicated_bytes) */
    rep_tok = d->cpu ? 0
                     : ecf_est_tp_replicated_bytes(m, pl->tp, act_elem) / pp /
                           bw;
    pf_stage = roofline(wk[0] + s_pf * act_tok, bw,
                        fwd_flops_sample(m, (int)s_pf) / split, rate_pf, NULL) +
               s_pf * rep_tok;
    comm_pf = 2.0 * m->layers *
              serve_allreduce_s(d, s_pf * m->hidden * 2.0, pl->tp);
    t->prefill_s = pp * pf_stage + comm_pf;
    if (pl->pp > 1)
        t->prefill_s += (pp - 1) * (d->alpha_net + s_pf * m->hidden * 2.0 /
                                                       (d->net_gbytes_s * 1e9));
    /* b prompts at once (a closed loop's first round): one roofline over
     * all their tokens; the last of them waits for the whole of it */
    t->burst_s = pp * (roofline(wk[1] + b * s_pf * act_tok, bw,
                                b * fwd_flops_sample(m, (int)s_pf) / split,
                                rate_burst, NULL) +
                       b * s_pf * rep_tok) +
                 2.0 * m->layers *
                     serve_allreduce_s(d, b * s_pf * m->hidden * 2.0, pl->tp);

    /* Decode step at batch b: the weights touched this step (MoE: the
     * experts any of the b tokens routes to, E x (1 - (1 - k/E)^b) per
     * layer), and the KV cache of every request's actual context. */
    if (m->experts > 0) {
        double k = m->experts_per_tok, E = m->experts;
        double frac = 1.0 - pow(1.0 - k / E, b);
        double dense = read_params -
                       (m->params - m->active_params) * E / (E - k);
        if (dense < 0)
            dense = m->active_params * 0.2;
        weights_dev = (dense + (read_params - dense) * frac) * wb / split / wq;
    }
    if (int4_kernel)
        weights_dev = wk[2];
    /* an MLA latent is read whole by every TP rank (see infer_memory) */
    kv_dev = kv_bytes_per_token(m, kv_elem) * ecf_model_kv_context(m, ctx_avg) *
             b /
             (m->kv_dim_per_layer > 0 ? pp : split);
    /* Neuron hook (estimate_neuron.c): padded query heads and replicated
     * KV heads per core, the KV read over the decode bucket; 1 elsewhere */
    {
        double kv_pad, pad = ecf_est_neuron_pad_factor(m, d, pl->tp, &kv_pad);
        weights_dev *= 1.0 + (pad - 1.0) * m->params / read_params;
        kv_dev *= kv_pad * ecf_est_neuron_kv_bucket_factor(d, s_in, s_out);
    }
    dec_flops = b *
                (2.0 * matmul_params(m) +
                 4.0 * m->layers * ecf_model_kv_context(m, ctx_avg) *
                     m->heads * m->head_dim) /
                split;
    /* The step's GEMMs (weights read, 2 x params FLOPs per token) and
     * its attention (every request's KV read, 4 x layers x context x
     * heads x head_dim FLOPs) are separate kernels, one after the other
     * in every layer: each has its own roofline and their times add
     * (docs/estimation.md 5.4). */
    {
        bool mb_gemm, mb_attn;
        double gemm_flops = b * 2.0 * matmul_params(m) / split;
        t->gemm_s = roofline(weights_dev, bw, gemm_flops, rate_dec, &mb_gemm) +
                    (b + pf_tok) * rep_tok;
        t->attn_s = roofline(kv_dev, bw, dec_flops - gemm_flops, rate_dec,
                             &mb_attn);
        dec_stage = t->gemm_s + t->attn_s;
        t->gemm_mem_bound = mb_gemm;
        t->attn_mem_bound = mb_attn;
        t->mem_bound = mb_gemm || mb_attn;
    }
    t->weight_bytes = weights_dev;
    t->rep_bytes = (b + pf_tok) * rep_tok * bw;
    t->kv_bytes = kv_dev;
    t->bw = bw;
    t->mem_s = (weights_dev + t->rep_bytes + kv_dev) / bw;
    t->compute_s = rate_dec > 0 ? dec_flops / rate_dec : 0;
    /* The step's all-reduces carry every token it runs: the b decode
     * tokens and, on an engine that fuses arriving prompts into the step
     * (prefill_fused), their (b - 1) / s_out x s_in prompt tokens, which
     * go through the same two all-reduces per layer (one call each). */
    comm_dec = 2.0 * m->layers *
               serve_allreduce_s(d, (b + pf_tok) * m->hidden * 2.0, pl->tp);
    /* Host time per step: fixed, plus eager kernel launches per layer.
     * The launches run ahead of the GPU's kernels (the slower of the two
     * sets the pace). An all-reduce completes only when every rank has
     * reached it, so it synchronises the ranks' launch streams and nothing
     * else runs while it does: it adds to the slower of the two. Pipeline
     * stages run one after the other for a token, a network hop apart. */
    host = eng->layer_dispatch_s * m->layers;
    /* GPTQ on the engine's own kernels: each column-parallel projection
     * (fused q/k/v, fused gate/up) is a Python-launched, autotuned Triton
     * kernel, whose host time exceeds a torch op's launch by
     * int4_col_launch_s (docs/estimation.md 5.5, "Weight-only kernels") */
    if (int4_kernel)
        host += 2.0 * m->layers * eng->int4_col_launch_s;
    t->host_s = host;
    /* A hop carries the hidden states of every token the step runs (the
     * b decode tokens and the fused prompts' pf_tok), 2 bytes per element
     * as the prefill's hop above: at batch 256 on DeepSeek-V3 (h 7168)
     * 3.7 MB, 73 us at a p4de's 400 Gbps EFA, beside its 15 us latency. */
    t->hop_s = pl->pp > 1 ? (pp - 1) * (d->alpha_net +
                                         (b + pf_tok) * m->hidden * 2.0 /
                                             (d->net_gbytes_s * 1e9))
                          : 0;
    iter = (pp * dec_stage > host ? pp * dec_stage : host) + comm_dec +
           eng->step_s + t->hop_s;
    /* continuous batching: (b - 1) / s_out of the other requests start
     * per step. An engine that fuses their prompts into the decode step
     * (chunked prefill, in-flight batching) adds their FLOPs only: the
     * step reads the weights anyway. One that runs each admission as a
     * forward pass of its own (TGI 1.x's Prefill call) pauses the batch
     * for that whole pass: the prefill roofline with its all-reduces and
     * the host time of a step. */
    t->interleave_s = iter;
    if (s_out > 0 && eng->prefill_fused)
        iter += (b - 1) / s_out * pp *
                (rate_dec > 0 ? fwd_flops_sample(m, (int)s_pf) / split /
                                    rate_dec
                              : 0);
    else if (s_out > 0)
        iter += (b - 1) / s_out *
                (t->prefill_s + host + eng->step_s);
    t->interleave_s = iter - t->interleave_s;
    t->per_token_s = iter;
    /* TTFT: own prefill and the host time of the step that runs it (the
     * engine schedules it and samples the first token as in any step),
     * half a step's wait to join, and M/D/1 queueing on the prefill at
     * the arrival rate this batch sustains (Little's law: b requests per
     * request time). */
    t->latency_s = t->prefill_s + (s_out > 1 ? s_out - 1 : 0) * iter;
    lambda = t->latency_s > 0 ? b / t->latency_s : 0;
    rho = lambda * t->prefill_s;
    if (rho > 0.9)
        rho = 0.9;
    wait = b > 1 ? 0.5 * iter + rho / (2.0 * (1.0 - rho)) * t->prefill_s
                 : 0;
    t->ttft_s = t->prefill_s + eng->step_s + wait;
    t->join_s = b > 1 ? 0.5 * iter : 0;
    t->latency_s = t->ttft_s + (s_out > 1 ? s_out - 1 : 0) * iter;
    t->comm_s = comm_dec;
    *u_out = u_pf; /* GEMM efficiency; decode is a bandwidth roofline */
}


/* Offline (--task batch) LLM: the requests the engine holds in flight
 * when every request is queued at once. A continuous-batching engine
 * admits requests one at a time while its KV pool holds them, so the
 * batch is the largest whole number (not a power of two) whose plan
 * fits, up to the engine's max_batch_requests (else `cap`); each
 * request's KV is what the engine reserves for it (infer_memory: the
 * whole context under kv_reserve_full). docs/estimation.md 5.4. */
static int fill_batch(const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      plan *pl,
                      const devinfo *d,
                      const serve_engine *eng,
                      int cap)
{
    ecf_memory mem;
    int lo = 0, hi;
    if (eng->max_batch > 0)
        cap = eng->max_batch;
    hi = cap + 1; /* lo fits (0: nothing tried), hi does not */
    while (hi - lo > 1) {
        int mid = lo + (hi - lo) / 2;
        pl->batch = mid;
        infer_memory(&mem, m, w, p, pl, d);
        if (fits_serving(&mem, w))
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

/* Times of one batch for either kind of model. */
static void serve_times(infer_times *t,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        double peak,
                        const plan *pl,
                        const serve_engine *eng,
                        double *u)
{
    if (is_llm(m))
        llm_times(t, m, w, d, p, peak, pl, eng, u);
    else
        ecf_serve_other_times(t, m, w, d, p, peak, pl, eng, u);
}

/* The bounds a serving batch is chosen within (docs/estimation.md 5.4,
 * "Default service level"). LLMs: the tighter of each of --ttft-ms and
 * --tpot-ms and the default (ECF_SERVE_SLO_*), and --latency-ms if set.
 * Other models: --latency-ms, and without it `knee_s`; a target looser
 * than the knee keeps the knee. Every bound is the tighter of a flag and
 * the default, so a run with a target searches a subset of the batches a
 * run without it does, and a looser target a superset of a tighter one's:
 * leaving a target out, or loosening it, never costs more. */
typedef struct {
    double latency_s, ttft_s, tpot_s; /* HUGE_VAL: no bound */
} serve_slo;

static double tighter(double flag_ms, double dflt_s)
{
    return flag_ms > 0 && flag_ms / 1e3 < dflt_s ? flag_ms / 1e3 : dflt_s;
}

static void serve_slo_of(serve_slo *s, const ecf_model *m,
                         const ecf_workload *w, double knee_s)
{
    if (is_llm(m)) {
        s->ttft_s = tighter(w->ttft_target_ms, ECF_SERVE_SLO_TTFT_MS / 1e3);
        s->tpot_s = tighter(w->tpot_target_ms, ECF_SERVE_SLO_TPOT_MS / 1e3);
        s->latency_s = tighter(w->latency_target_ms, HUGE_VAL);
    } else {
        s->ttft_s = tighter(w->ttft_target_ms, HUGE_VAL);
        s->tpot_s = tighter(w->tpot_target_ms, HUGE_VAL);
        s->latency_s = tighter(w->latency_target_ms, knee_s);
    }
}

bool ecf_estimate_service_level(double *ttft_ms_out,
                                double *tpot_ms_out,
                                const ecf_model *m,
                                const ecf_workload *w)
{
    serve_slo s;
    *ttft_ms_out = *tpot_ms_out = 0;
    if (!m || !w || w->task != ECF_TASK_INFER || !is_llm(m))
        return false;
    serve_slo_of(&s, m, w, HUGE_VAL);
    *ttft_ms_out = s.ttft_s * 1e3;
    *tpot_ms_out = s.tpot_s * 1e3;
    return true;
}

/* Whether one batch's times meet every bound of `s`. */
static bool meets_slo(const infer_times *t, const serve_slo *s)
{
    return t->latency_s <= s->latency_s && t->ttft_s <= s->ttft_s &&
           t->per_token_s <= s->tpot_s;
}

/* The most requests one replica holds at once: the engine's admission
 * limit (docs/estimation.md 5.4): TensorRT-LLM's max_batch_size
 * (max_batch_requests in data/engines.json), TGI's
 * --max-concurrent-requests default 128, vLLM's max_num_seqs default
 * 256, which the other LLM engines take too; MAX_AUTO_BATCH for models
 * other than LLMs. */
static int serve_admit_limit(const ecf_model *m, const serve_engine *eng)
{
    if (!is_llm(m))
        return MAX_AUTO_BATCH;
    if (eng->max_batch > 0)
        return eng->max_batch;
    if (strcmp(eng->name, "tgi") == 0)
        return TGI_MAX_CONCURRENT_REQUESTS;
    return VLLM_MAX_NUM_SEQS;
}

/* The knee of a plan: SERVE_KNEE_LATENCY x a lone request's latency
 * (models other than LLMs only; HUGE_VAL for LLMs, which take the default
 * service level instead). */
static double serve_knee_s(const ecf_model *m, const ecf_workload *w,
                           const devinfo *d, ecf_precision p, double peak,
                           const plan *pl, const serve_engine *eng)
{
    infer_times t;
    plan one = *pl;
    double u = 0;
    if (is_llm(m))
        return HUGE_VAL;
    one.batch = 1;
    serve_times(&t, m, w, d, p, peak, &one, eng, &u);
    return SERVE_KNEE_LATENCY * t.latency_s;
}

/* Online serving: the batch (concurrent requests per replica) for `pl`,
 * one rule for `estimate` and `recommend`: among the batches 1, 2, 4, ...
 * up to the engine's admission limit (and the limit itself) that fit with
 * the memory-fit rule's headroom and meet the service level (serve_slo),
 * the one that serves the most requests per second per replica, i.e. the
 * cheapest per request (the smaller on a tie). Batch 1 when none meets
 * it. An explicit --batch-size is kept. Returns false when batch 1 does
 * not fit. Memory grows with the batch, so the walk stops at the first
 * batch that does not fit; TTFT, TPOT and latency grow with it too, so
 * it also stops at the first batch past 1 that misses the service level
 * (no larger batch can meet it). Requests per second need not peak at
 * the largest batch that meets the bounds, so every batch before that
 * is timed. */
static bool serve_batch(plan *pl,
                        ecf_memory *mem_out,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        double peak,
                        const serve_engine *eng)
{
    infer_times t;
    ecf_memory mem;
    plan trial = *pl;
    serve_slo slo;
    double u = 0, best = -1;
    int b, limit = serve_admit_limit(m, eng), best_b = 1;

    if (w->batch_explicit) {
        infer_memory(mem_out, m, w, p, pl, d);
        return fits_serving(mem_out, w);
    }
    trial.batch = 1;
    infer_memory(&mem, m, w, p, &trial, d);
    *mem_out = mem;
    if (!fits_serving(&mem, w)) {
        pl->batch = 1;
        return false;
    }
    serve_slo_of(&slo, m, w, serve_knee_s(m, w, d, p, peak, pl, eng));
    for (b = 1; b <= limit; b = b < limit && b * 2 > limit ? limit : b * 2) {
        double tput;
        trial.batch = b;
        if (b > 1) {
            infer_memory(&mem, m, w, p, &trial, d);
            if (!fits_serving(&mem, w))
                break;
        }
        serve_times(&t, m, w, d, p, peak, &trial, eng, &u);
        tput = t.latency_s > 0 ? b / t.latency_s : 0;
        if (!meets_slo(&t, &slo)) {
            if (b > 1)
                break; /* TTFT, TPOT and latency only grow with the batch */
            continue;  /* batch 1 misses: the plan keeps batch 1 anyway */
        }
        if (tput > best) {
            best = tput;
            best_b = b;
            *mem_out = mem;
        }
        if (b == limit)
            break;
    }
    pl->batch = best_b;
    return true;
}

/* --explain (not on the scorer's quiet path): the terms of the chosen
 * plan's step, and why its batch is what it is: the next power of two
 * either does not fit or misses a target (or the knee), by the same tests
 * serve_batch and fill_batch apply. */
static void explain_serve(ecf_estimate *e,
                          const infer_times *t,
                          const ecf_model *m,
                          const ecf_workload *w,
                          const devinfo *d,
                          ecf_precision p,
                          double peak,
                          const plan *pl,
                          const serve_engine *eng)
{
    ecf_serve_terms *x = &e->serve;
    infer_times nt;
    ecf_memory mem;
    plan next = *pl;
    double u = 0;
    double h = w->headroom_set ? w->headroom_pct / 100.0 : SERVE_HEADROOM;
    bool targets = w->latency_target_ms > 0 || w->ttft_target_ms > 0 ||
                   w->tpot_target_ms > 0;

    x->set = true;
    x->llm = is_llm(m);
    /* the order of ecf_serve_engine_pick */
    if (w->engine > ECF_ENGINE_AUTO)
        x->engine_why = "set by --engine";
    else if (d->gen == GEN_NEURON)
        x->engine_why = "the default on Inferentia and Trainium (Neuron SDK)";
    else if (x->llm)
        x->engine_why = "the default for LLMs";
    else if (w->framework == ECF_FW_TENSORFLOW)
        x->engine_why = "the default for --framework tensorflow";
    else if (eng == ecf_serve_engine_get(ECF_ENGINE_TENSORRT))
        x->engine_why = "the default for convnets, encoders, ViTs and "
                        "diffusion models on NVIDIA GPUs (a compiled graph)";
    else if (eng == ecf_serve_engine_get(ECF_ENGINE_HF) &&
             m->kind == ECF_KIND_SPEECH)
        x->engine_why = "the default for speech on NVIDIA GPUs "
                        "(openai-whisper and transformers decode eagerly)";
    else
        x->engine_why = "the default for models other than LLMs";
    if (x->llm) {
        x->step_host_ms = eng->step_s * 1e3;
        /* per layer as charged: with the int4 Triton calls' host time */
        x->layer_dispatch_ms = eng->layer_dispatch_s > 0 && m->layers > 0
                                   ? t->host_s / m->layers * 1e3
                                   : 0;
        x->dispatch_ms = t->host_s * 1e3;
    } else {
        x->fwd_overhead_ms = eng->fwd_overhead_s * 1e3;
    }
    /* the step's GEMM term reads the weights and, on a tensor-parallel
     * rank, moves the norms it repeats (ecf_est_tp_replicated_bytes) */
    x->weight_bytes = t->weight_bytes + t->rep_bytes;
    x->kv_bytes = t->kv_bytes;
    x->bw_gbytes_s = t->bw / 1e9;
    x->memory_ms = t->mem_s * 1e3;
    x->compute_ms = t->compute_s * 1e3;
    x->allreduce_ms = t->comm_s * 1e3;
    x->interleave_ms = t->interleave_s * 1e3;
    /* the terms llm_times adds for TPOT, over the pipeline stages */
    x->gemm_ms = t->gemm_s * pl->pp * 1e3;
    x->attn_ms = t->attn_s * pl->pp * 1e3;
    x->hop_ms = t->hop_s * 1e3;
    x->gemm_mem_bound = t->gemm_mem_bound;
    x->attn_mem_bound = t->attn_mem_bound;
    x->launch_bound = t->host_s > (t->gemm_s + t->attn_s) * pl->pp;
    x->prefill_ms = t->prefill_s * 1e3;
    x->join_ms = t->join_s * 1e3;
    x->queue_ms = (t->ttft_s - t->prefill_s - t->join_s) * 1e3;
    if (x->queue_ms < 0)
        x->queue_ms = 0;
    if (w->task == ECF_TASK_INFER && !w->batch_explicit) {
        serve_slo slo;
        double knee = serve_knee_s(m, w, d, p, peak, pl, eng);
        serve_slo_of(&slo, m, w, knee);
        if (!x->llm && (!targets || w->latency_target_ms <= 0 ||
                        knee * 1e3 < w->latency_target_ms))
            x->knee_ms = knee * 1e3;
        x->admit_limit = serve_admit_limit(m, eng);
        if (x->llm) {
            x->slo_ttft_ms = slo.ttft_s * 1e3;
            x->slo_tpot_ms = slo.tpot_s * 1e3;
        }
    }
    if (!e->fits) {
        x->limit = ECF_BATCH_LIMIT_MEMORY;
        x->next_batch = pl->batch;
        x->next_gib = e->memory.total_per_device_gib * (1.0 + h);
        return;
    }
    if (w->batch_explicit) {
        x->limit = ECF_BATCH_LIMIT_EXPLICIT;
        return;
    }
    if (w->task != ECF_TASK_INFER && !x->llm) {
        x->limit = ECF_BATCH_LIMIT_MODEL;
        return;
    }
    /* offline LLM jobs admit whole requests up to the engine's limit
     * (fill_batch); online serving doubles up to its admission limit */
    if (pl->batch >= (w->task != ECF_TASK_INFER
                          ? (eng->max_batch > 0 ? eng->max_batch
                                                : MAX_AUTO_BATCH)
                          : x->admit_limit)) {
        x->limit = ECF_BATCH_LIMIT_CAP;
        return;
    }
    next.batch = w->task != ECF_TASK_INFER ? pl->batch + 1 : pl->batch * 2;
    if (w->task == ECF_TASK_INFER && next.batch > x->admit_limit)
        next.batch = x->admit_limit;
    x->next_batch = next.batch;
    infer_memory(&mem, m, w, p, &next, d);
    x->next_gib = mem.total_per_device_gib * (1.0 + h);
    if (!fits_serving(&mem, w) || w->task != ECF_TASK_INFER) {
        x->limit = ECF_BATCH_LIMIT_MEMORY;
        return;
    }
    serve_times(&nt, m, w, d, p, peak, &next, eng, &u);
    if (w->latency_target_ms > 0 &&
        nt.latency_s * 1e3 > w->latency_target_ms) {
        x->limit = ECF_BATCH_LIMIT_LATENCY;
        x->target_ms = w->latency_target_ms;
        x->next_ms = nt.latency_s * 1e3;
    } else if (x->llm && nt.ttft_s * 1e3 > x->slo_ttft_ms) {
        x->limit = ECF_BATCH_LIMIT_TTFT;
        x->target_ms = x->slo_ttft_ms;
        x->slo_default = !(w->ttft_target_ms > 0 &&
                           w->ttft_target_ms <= ECF_SERVE_SLO_TTFT_MS);
        x->next_ms = nt.ttft_s * 1e3;
    } else if (x->llm && nt.per_token_s * 1e3 > x->slo_tpot_ms) {
        x->limit = ECF_BATCH_LIMIT_TPOT;
        x->target_ms = x->slo_tpot_ms;
        x->slo_default = !(w->tpot_target_ms > 0 &&
                           w->tpot_target_ms <= ECF_SERVE_SLO_TPOT_MS);
        x->next_ms = nt.per_token_s * 1e3;
    } else if (!x->llm && x->knee_ms > 0 &&
               nt.latency_s * 1e3 > x->knee_ms) {
        x->limit = ECF_BATCH_LIMIT_KNEE;
        x->next_ms = nt.latency_s * 1e3;
    } else {
        /* the next batch meets the bounds but serves fewer requests/s
         * (or a larger one past it does not fit or meet them) */
        x->limit = ECF_BATCH_LIMIT_THROUGHPUT;
        x->next_ms = nt.latency_s * 1e3;
    }
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
    int engine = ecf_serve_engine_pick(m, w, (serve_dev)serve_dev_of(d));
    const serve_engine *eng = ecf_serve_engine_get(engine);
    infer_times t;
    double u = 0;
    int tp, replicas;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    bool found = false;

    (void)ran;
    e->engine = eng->name;
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
        for (tp = 1; tp <= d->count; tp = serve_tp_next(d, tp)) {
            ecf_memory mem;
            plan trial = pl;
            double tput;
            bool meets = true, ok;
            if (tp > 1 && (!tf || !serve_tp_ok(m, d, tp)))
                continue;
            if (w->tensor_parallel > 0 && tp != w->tensor_parallel)
                continue;
            trial.tp = tp;
            if (serving) {
                ok = serve_batch(&trial, &mem, m, w, d, p, peak, eng);
            } else {
                infer_memory(&mem, m, w, p, &trial, d);
                ok = fits_serving(&mem, w);
                if (ok && !w->batch_explicit && is_llm(m)) {
                    int b = fill_batch(m, w, p, &trial, d, eng,
                                       MAX_AUTO_BATCH);
                    trial.batch = b > 0 ? b : 1;
                    infer_memory(&mem, m, w, p, &trial, d);
                }
            }
            if (!ok) {
                if (!found)
                    e->memory = mem;
                continue;
            }
            serve_times(&t, m, w, d, p, peak, &trial, eng, &u);
            tput = t.latency_s > 0
                       ? (double)(d->count / tp) * trial.batch / t.latency_s
                       : 0;
            if (serving) {
                /* the knee bounds a group's batch, not the choice
                 * between groups */
                serve_slo slo;
                serve_slo_of(&slo, m, w, HUGE_VAL);
                meets = meets_slo(&t, &slo);
            }
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
        while (pl.tp > 1 && !serve_tp_ok(m, d, pl.tp))
            pl.tp /= 2;
        pl.pp = nodes;
        infer_memory(&e->memory, m, w, p, &pl, d);
        found = fits_serving(&e->memory, w);
        if (found && w->task == ECF_TASK_BATCH && !w->batch_explicit &&
            is_llm(m)) {
            int b = fill_batch(m, w, p, &pl, d, eng, MAX_AUTO_BATCH);
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
        if (serve_batch(&pl, &mem, m, w, d, p, peak, eng))
            e->memory = mem;
    }
    e->batch_size = pl.batch;

    if (is_llm(m)) {
        llm_times(&t, m, w, d, p, peak, &pl, eng, &u);
        e->ttft_ms = t.ttft_s * 1e3;
        e->per_token_ms = t.per_token_s * 1e3;
        e->tokens_per_s =
            t.latency_s > 0
                ? replicas * pl.batch * (double)w->output_tokens / t.latency_s
                : 0;
        e->throughput = e->tokens_per_s;
        e->throughput_unit = "tokens/s";
        assume(e,
               "%s: continuous batching; decode reads the weights and KV "
               "cache each step at %.0f%% of %.0f GB/s, plus %.1f ms host "
               "time per step; prefill at %.0f%% of peak",
               eng->name, eng->bw_eff * 100, d->bw_gbytes_s,
               (eng->step_s + eng->layer_dispatch_s * m->layers) * 1e3,
               u * 100);
        if (!d->cpu && p == ECF_PREC_INT4 && eng->int4_col_gweights_s > 0 &&
            ecf_serve_int4_weight_bytes(m, eng, pl.batch, t.bw) > 0)
            assume(e,
                   "%s int4 kernels: q/k/v, gate/up %.0f G weights/s; "
                   "output, down %.2f B/weight per row below %d rows, "
                   "%.2f B from there (fp16 dequantise): %.1f GB per step "
                   "per device",
                   eng->name, eng->int4_col_gweights_s, eng->int4_row_bytes,
                   eng->int4_recons_rows, eng->int4_recons_bytes,
                   t.weight_bytes / 1e9);
        if (w->task == ECF_TASK_INFER && !w->batch_explicit) {
            serve_slo slo;
            serve_slo_of(&slo, m, w, HUGE_VAL);
            assume(e,
                   "service level: TTFT <= %g ms, TPOT <= %g ms (%s); the "
                   "batch serving the most requests/s within it, up to "
                   "%s's admission limit of %d",
                   slo.ttft_s * 1e3, slo.tpot_s * 1e3,
                   w->ttft_target_ms > 0 || w->tpot_target_ms > 0
                       ? "targets, within the default"
                       : "default: MLPerf Inference server scenario",
                   eng->name, serve_admit_limit(m, eng));
        }
        if (pl.batch > 1)
            assume(e,
                   "%d input + %d output tokens per request, %d in flight; "
                   "TTFT %.0f ms = own prefill %.0f ms + join %.0f ms + "
                   "queueing %.0f ms (%d arriving at once: the last waits "
                   "%.0f ms)",
                   w->input_tokens, w->output_tokens, pl.batch,
                   t.ttft_s * 1e3, t.prefill_s * 1e3, t.join_s * 1e3,
                   fmax(0, t.ttft_s - t.prefill_s - t.join_s) * 1e3,
                   pl.batch, t.burst_s * 1e3);
        else
            assume(e,
                   "%d input + %d output tokens per request, 1 in flight; "
                   "TTFT = own prefill %.0f ms",
                   w->input_tokens, w->output_tokens, t.prefill_s * 1e3);
    } else {
        ecf_serve_other_times(&t, m, w, d, p, peak, &pl, eng, &u);
        e->per_token_ms = t.per_token_s * 1e3;
        e->throughput_unit = is_vision(m) ? "images/s" : "samples/s";
        double host = ecf_serve_eager_dispatch_s(m, d, eng);
        if (host >= 0)
            assume(e,
                   "%s: eager, %.0f kernel launches per forward at %.1f us "
                   "each (%.1f ms of host time)",
                   eng->name, host / eng->op_dispatch_s,
                   eng->op_dispatch_s * 1e6, host * 1e3);
        else
            assume(e, "%s: %.0f ms dispatch per forward", eng->name,
                   eng->fwd_overhead_s * 1e3);
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
    if (d->burst_baseline > 0 && d->burst_usd_vcpu_h > 0) {
        /* Unlimited mode (t3/t3a/t4g's default): full speed at any load;
         * the plan pays the surplus above the baseline (the fleet's load
         * is known only to the plan search: ecf_recommend_cost_serving). */
        assume(e,
               "burstable CPU, unlimited mode: full speed; the load above "
               "the %.0f%% baseline per vCPU is billed at $%.2f per "
               "vCPU-hour",
               d->burst_baseline * 100, d->burst_usd_vcpu_h);
    } else if (d->burst_baseline > 0) {
        /* Standard mode (t1/t2): a request runs at full speed on burst
         * credits, but a sustained load gets the baseline share of the
         * vCPUs (docs/estimation.md, "Burstable CPUs"). */
        e->max_qps_per_replica *= d->burst_baseline;
        e->samples_per_s *= d->burst_baseline;
        if (!is_llm(m))
            e->throughput = e->samples_per_s;
        assume(e,
               "burstable CPU, standard mode: sustained capacity is the "
               "%.0f%% baseline per vCPU; latency is at full speed",
               d->burst_baseline * 100);
    }
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
    if (w->ttft_target_ms > 0 && e->ttft_ms > w->ttft_target_ms)
        warn(e, "time to first token %.0f ms exceeds the %.0f ms target",
             e->ttft_ms, w->ttft_target_ms);
    if (w->tpot_target_ms > 0 && e->per_token_ms > w->tpot_target_ms)
        warn(e, "%.1f ms per output token exceeds the %.1f ms target",
             e->per_token_ms, w->tpot_target_ms);
    if (w->qps > 0 && e->max_qps_per_replica * replicas < w->qps)
        warn(e, "sustains %.2f requests/s per node set, below --qps %.2f",
             e->max_qps_per_replica * replicas, w->qps);
    if (!e->quiet)
        explain_serve(e, &t, m, w, d, p, peak, &pl, eng);
}
