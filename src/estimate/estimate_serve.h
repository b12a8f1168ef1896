/*
 * estimate_serve.h - what the two halves of the inference estimator share
 * (estimate_serve.c: LLMs, batches, targets; estimate_serve_other.c: the
 * forward of every other model): one request's times at a batch, and the
 * GEMM efficiency of an inference pass at M tokens per GEMM.
 */
#ifndef ECF_ESTIMATE_SERVE_H
#define ECF_ESTIMATE_SERVE_H

#include "estimate_internal.h"
#include "serve_engines.h"

typedef struct {
    double ttft_s, per_token_s, latency_s; /* one request at batch b */
    double prefill_s; /* the request's own prefill, no queueing */
    double burst_s;   /* LLM: b prompts arriving together, all prefilled:
                         the last one's first token */
    double comm_s;
    bool mem_bound;
    /* the step's terms, for --explain (ecf_serve_terms) */
    double weight_bytes, kv_bytes, bw, mem_s, compute_s, host_s;
    /* LLM decode: the norms every tensor-parallel rank repeats, bytes per
     * step and stage beyond its share (ecf_est_tp_replicated_bytes) */
    double rep_bytes;
    double interleave_s, join_s;
    /* decode: the pipeline hops of one step, (pp - 1) x (latency + the
     * step's hidden states at the inter-node link) */
    double hop_s;
    /* LLM decode: the GEMM and attention rooflines of one stage */
    double gemm_s, attn_s;
    bool gemm_mem_bound, attn_mem_bound;
} infer_times;

/* Inference GEMM efficiency at M tokens per GEMM (docs/estimation.md 5.3,
 * "Compute efficiency by M"); estimate_serve_other.c. */
double ecf_serve_u_infer(const devinfo *d, ecf_precision p, double h, double M);

/* Host time to launch one forward's kernels on an eager engine, or -1
 * when the engine's per-forward figure applies instead. */
double ecf_serve_eager_dispatch_s(const ecf_model *m, const devinfo *d,
                              const serve_engine *eng);

/* One batch of a model other than an LLM: latency (and a speech model's
 * per-token time) at pl->batch; *u_out the compute efficiency used. */
void ecf_serve_other_times(infer_times *t,
                       const ecf_model *m,
                       const ecf_workload *w,
                       const devinfo *d,
                       ecf_precision p,
                       double peak,
                       const plan *pl,
                       const serve_engine *eng,
                       double *u_out);

#endif
