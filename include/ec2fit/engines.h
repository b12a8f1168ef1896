/**
 * ec2fit/engines.h - the serving engines' performance table: the data of
 * data/engines.json (embedded at build time; schema and sources in
 * docs/estimation.md 5.5), one row per --engine, loaded and validated
 * strictly into plain structs.
 *
 * Ownership: ecf_engines is opaque; a row borrows from it and lives until
 * ecf_engines_free(). ecf_engines_builtin() returns the embedded table,
 * loaded once per process and never freed.
 */
#ifndef EC2FIT_ENGINES_H
#define EC2FIT_ENGINES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_ENGINES_SCHEMA_VERSION 1
#define ECF_ENGINES_MAX_BYTES (256u * 1024u)
#define ECF_ENGINE_NAME_LEN 16

/** One engine's figures (field names as in the JSON file). */
typedef struct {
    char name[ECF_ENGINE_NAME_LEN]; /* "vllm", ... (ecf_engine_name) */
    double step_s;           /* host_step_s: fixed host time per decode
                                step (scheduler, sampling, detokenise) */
    double layer_dispatch_s; /* eager kernel launches per layer per decode
                                step; 0 when the step replays a CUDA graph
                                or a compiled Neuron graph */
    double op_dispatch_s;    /* non-LLM forward, eager engines: host time
                                per launched kernel; 0 = compiled graph
                                (fwd_overhead_s applies instead) */
    double bw_eff;           /* achieved / peak HBM bandwidth in decode */
    double int4_bw_eff;      /* weight-only int4 decode: fraction of the
                                bandwidth roofline its kernels reach */
    double int8_bw_eff;      /* weight-only int8 decode, same */
    /* The engine's own int4 (GPTQ) kernels, when documented (0 = not
     * described: int4_bw_eff applies). Column-parallel projections
     * (q/k/v, gate/up) run at int4_col_gweights_s billion weights per
     * second per device, flat in the rows (a kernel bound by its own
     * issue rate, not by memory); row-parallel ones (o, down) read
     * int4_row_bytes per weight per row below int4_recons_rows rows, and
     * int4_recons_bytes (dequantise to fp16, then a 16-bit GEMM) from
     * there on, at bw_eff. docs/estimation.md 5.5, "Weight-only kernels". */
    double int4_col_gweights_s;
    double int4_row_bytes;
    int int4_recons_rows;
    double int4_recons_bytes;
    /* Host time per column-parallel int4 kernel call beyond the launch
     * layer_dispatch_s already counts (a Python-launched, autotuned
     * Triton kernel against a torch op), two calls per layer (fused
     * q/k/v, fused gate/up); 0 = none. docs/estimation.md 5.5. */
    double int4_col_launch_s;
    double gemm_factor;      /* prefill / encoder GEMM efficiency vs U_INFER */
    int chunk_tokens;        /* prefill_chunk_tokens: prefill tokens per
                                engine step; 0 = the whole batch at once */
    double fwd_overhead_s;   /* non-LLM: dispatch per forward call, s */
    double conv_factor;      /* non-LLM: compute efficiency vs the eager
                                framework (TensorRT fusion) */
    bool paged_kv;           /* KV cache in blocks allocated as tokens
                                arrive (PagedAttention) */
    bool prefill_fused;      /* LLM: a joining request's prompt runs inside
                                the decode step (chunked prefill, in-flight
                                batching), costing its FLOPs only; false:
                                the engine runs it as a forward pass of its
                                own (TGI 1.x Prefill call, HF generate) */
    bool kv_reserve_full;    /* LLM, paged KV: admission reserves a
                                request's prompt + its whole max output
                                (TensorRT-LLM GUARANTEED_NO_EVICT, TGI 1.x
                                token budget); false: blocks as tokens
                                arrive, preempting when they run out
                                (vLLM). A contiguous cache always holds
                                the whole context. */
    bool fp8_kv_auto;        /* --kv-cache-dtype auto over fp8 weights
                                gives an fp8 KV cache (trtllm-bench's
                                mapping for FP8 checkpoints); false: the
                                activations' 16-bit type (vLLM, TGI, ...) */
    bool fused_graph;        /* non-LLM: a graph compiler's engine
                                (TensorRT): BatchNorm folded into the
                                convolution, activation and residual add
                                in its epilogue, attention in one fused
                                kernel, int8 tensors between int8 layers;
                                docs/estimation.md 5.5 "Compiled graphs" */
    bool fp8_weight_only;    /* LLM: --precision fp8 on a GPU without
                                fp8 math (Turing, Ampere) serves the fp8
                                checkpoint as weight-only W8A16 (vLLM's
                                FP8 Marlin): 1 byte per weight read,
                                16-bit math; false: the plan runs as the
                                16-bit type. docs/estimation.md 5.5 */
    int max_batch;           /* max_batch_requests: the engine's default
                                limit on requests in flight; 0 = none
                                documented (the estimator's own cap) */
} ecf_engine_perf;

typedef struct ecf_engines ecf_engines;

/** Parses and validates an engines document. Strict: an unknown key, a
 *  missing field, a number out of its range, an engine listed twice or
 *  not an --engine name, or a required engine missing is ECF_EPARSE with
 *  one line naming the file, the engine and the field, e.g.
 *  "engines.json: engines[3] (hf): bw_eff: 1.5 is outside [0.01, 1]". */
int ecf_engines_load_buffer(ecf_engines **out, const char *data, size_t len,
                            const char *name, ecf_err *err);
/** The engines embedded at build time (data/engines.json). */
int ecf_engines_embedded(ecf_engines **out, ecf_err *err);
void ecf_engines_free(ecf_engines *e);
/** The row of `engine` (an ecf_engine; ECF_ENGINE_AUTO and out-of-range
 *  values give vLLM's). Never NULL. */
const ecf_engine_perf *ecf_engines_get(const ecf_engines *e, int engine);
/** The embedded table, loaded on first use (thread-safe) and kept for the
 *  process; NULL only in a build without it (the tests hold the embedded
 *  file to the strict loader, so a shipped build always has it). */
const ecf_engines *ecf_engines_builtin(void);

#ifdef __cplusplus
}
#endif

#endif
