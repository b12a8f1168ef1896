/*
 * estimate_gemm.c - per-GEMM roofline terms of transformer inference: the
 * activation traffic of the layer stack's GEMMs per token, which with the
 * weights gives each GEMM's arithmetic intensity at M tokens
 * (docs/estimation.md 5.3, "Tokens per GEMM").
 */
#include "estimate_gemm.h"

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
