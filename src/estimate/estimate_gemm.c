/*
 * estimate_gemm.c - per-GEMM roofline terms of transformer inference: the
 * activation traffic of the layer stack's GEMMs per token, which with the
 * weights gives each GEMM's arithmetic intensity at M tokens
 * (docs/estimation.md 5.3, "Tokens per GEMM"), and the measured fraction
 * of peak a GEMM of M tokens reaches ("Compute efficiency by M").
 */
#include "estimate_gemm.h"

/* Measured GEMM throughput by tokens per GEMM (M), as a fraction of the
 * H100 SXM's dense 16-bit peak (989.5 TFLOPS): vLLM
 * benchmarks/kernels/bench_fp8_gemm.py on Llama-3.1-8B's QKV projection
 * (N 6,144, K 4,096), torch bf16 (cuBLAS), vllm-project/vllm PR #19627
 * (2025-06-13): 647 / 652 / 706 TFLOPS at M = 512 / 1,024 / 2,048. Only
 * the compute-bound points: at M = 128 and 256 (309, 541 TFLOPS) the
 * GEMM moves its weights at 76% and 70% of the HBM bandwidth, the
 * weights' roofline the caller charges, so its compute rate there is not
 * measured and the first compute-bound point is held below; linear in M
 * between the points, flat above the last. fp8 keeps U_FP8 over this (docs/estimation.md 5.3). */
static const double gemm_m[] = {512, 1024, 2048};
static const double gemm_eff[] = {0.6539, 0.6589, 0.7135};
#define GEMM_M_POINTS (sizeof(gemm_m) / sizeof(gemm_m[0]))

double ecf_est_gemm_eff_tokens(double M)
{
    size_t i;
    if (M <= gemm_m[0])
        return gemm_eff[0];
    for (i = 1; i < GEMM_M_POINTS; i++)
        if (M <= gemm_m[i])
            return gemm_eff[i - 1] + (M - gemm_m[i - 1]) /
                                         (gemm_m[i] - gemm_m[i - 1]) *
                                         (gemm_eff[i] - gemm_eff[i - 1]);
    return gemm_eff[GEMM_M_POINTS - 1];
}

double ecf_est_gemm_act_bytes_per_token(const ecf_model *m, int tp,
                                        double elem)
{
    double h = m->hidden, q = (double)m->heads * m->head_dim,
           kv = (double)m->kv_heads * m->head_dim, I = m->intermediate;
    double t = tp > 1 ? tp : 1, attn, mlp, k = 1.0;
    bool gated = m->kind == ECF_KIND_DECODER || m->kind == ECF_KIND_MOE;

    if (m->layers <= 0 || h <= 0 || !ecf_model_kind_is_transformer(m->kind) ||
        m->kind == ECF_KIND_DIFFUSION)
        return 0;
    if (q <= 0)
        q = h;
    if (kv <= 0)
        kv = q;
    if (I <= 0)
        I = 4.0 * h;
    /* QKV: read h, write (q + 2 kv) / tp; out: read q / tp, write h */
    attn = h + (q + 2.0 * kv) / t + q / t + h;
    /* gated MLP: up and gate read h, write 2 I / tp; down reads I / tp,
     * writes h. GELU MLP: one up projection. A MoE token runs k experts. */
    mlp = gated ? h + 2.0 * I / t + I / t + h : h + I / t + I / t + h;
    if (m->experts > 0 && m->experts_per_tok > 0)
        k = m->experts_per_tok;
    return (attn + k * mlp) * m->layers * elem;
}

/* vLLM's Llama layer (vllm-project/vllm@0035bdf2
 * vllm/model_executor/models/llama.py): input_layernorm and
 * post_attention_layernorm are RMSNorm(config.hidden_size) on every rank,
 * called with the residual (the fused_add_rms_norm kernel reads input and
 * residual and writes both back: 4 h elements per token), while the
 * activation and the rotary embedding run on the rank's own columns and
 * heads. Tensor parallelism leaves "the layer-norms as well as the
 * dropouts after attention and MLP blocks intact and as a result, they
 * are replicated across the tensor parallel group" (Korthikanti et al.,
 * "Reducing Activation Recomputation in Large Transformer Models", 2022,
 * section 4.2.2); serving engines run no sequence parallelism to split
 * them. */
double ecf_est_tp_replicated_bytes(const ecf_model *m, int tp, double elem)
{
    if (tp <= 1 || m->layers <= 0 || m->hidden <= 0 ||
        !ecf_model_kind_is_transformer(m->kind) ||
        m->kind == ECF_KIND_DIFFUSION)
        return 0;
    return m->layers * 2.0 * 4.0 * m->hidden * elem * (1.0 - 1.0 / tp);
}
