/*
 * serve_engines.h - the serving engines' performance table (internal to
 * src/model): per-step overheads, kernel efficiencies and prefill chunk
 * per --engine, and the engine a plan uses when none is given. Sources in
 * docs/estimation.md, "Serving engines".
 */
#ifndef EC2FIT_MODEL_SERVE_ENGINES_H
#define EC2FIT_MODEL_SERVE_ENGINES_H

#include <stdbool.h>

#include "ec2fit/estimate.h"

typedef struct {
    const char *name;
    double step_s;           /* fixed host time per decode step (scheduler,
                                sampling, detokenise), s */
    double layer_dispatch_s; /* eager kernel launches per layer per step,
                                s; 0 when the step replays a CUDA graph or
                                a compiled Neuron graph */
    double bw_eff;           /* achieved / peak HBM bandwidth in decode */
    double int4_bw_eff;      /* weight-only int4 decode: fraction of the
                                bandwidth roofline its kernels reach */
    double int8_bw_eff;      /* weight-only int8 decode, same */
    double gemm_factor;      /* prefill / encoder GEMM efficiency vs U_INFER */
    int chunk_tokens;        /* prefill tokens per engine step (chunked
                                prefill / max batched tokens) */
    double fwd_overhead_s;   /* non-LLM: dispatch per forward call, s */
    double conv_factor;      /* non-LLM: compute efficiency vs the eager
                                framework (TensorRT fusion) */
    bool paged_kv;           /* KV cache in blocks allocated as tokens
                                arrive (PagedAttention): in steady state a
                                request holds its prompt + half its output */
    bool prefill_fused;      /* LLM: a joining request's prompt runs inside
                                the decode step (chunked prefill, in-flight
                                batching), costing its FLOPs only; false:
                                the engine runs it as a forward pass of its
                                own (TGI 1.x Prefill call, HF generate) */
} serve_engine;

/* The engine a plan on device generation `neuron` uses: w->engine when
 * set, else Neuron on Inferentia/Trainium, vLLM for LLMs, TF Serving for
 * --framework tensorflow, Triton otherwise (ecf_stacks_engine's order). */
int serve_engine_pick(const ecf_model *m, const ecf_workload *w, bool neuron);
/* The table row of `engine` (an ecf_engine); never NULL. */
const serve_engine *serve_engine_get(int engine);

#endif
