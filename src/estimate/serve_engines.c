/*
 * serve_engines.c - which serving engine a plan runs on, and its row of
 * the engines table: what one decode step costs the host, how close its
 * kernels get to the bandwidth roofline, how large its prefill chunk is.
 * The figures are data (data/engines.json, loaded by src/data/
 * engines_load.c); their sources are in docs/estimation.md 5.5.
 */
#include "serve_engines.h"

#include <math.h>
#include <stdlib.h>

#include "ec2fit/stacks.h"

int ecf_serve_engine_pick(const ecf_model *m, const ecf_workload *w,
                      serve_dev dev)
{
    if (w->engine > ECF_ENGINE_AUTO && w->engine < ECF_ENGINE_COUNT)
        return w->engine;
    if (dev == SERVE_DEV_NEURON)
        return ECF_ENGINE_NEURON;
    if (ecf_model_kind_is_llm(m->kind))
        return ECF_ENGINE_VLLM;
    if (w->framework == ECF_FW_TENSORFLOW)
        return ECF_ENGINE_TF_SERVING;
    if (dev == SERVE_DEV_NVIDIA &&
        ecf_engine_nvidia_default(m->kind, w->framework) != ECF_ENGINE_AUTO)
        return ecf_engine_nvidia_default(m->kind, w->framework);
    return ECF_ENGINE_TRITON;
}

const serve_engine *ecf_serve_engine_get(int engine)
{
    const ecf_engines *t = ecf_engines_builtin();
    /* The embedded table is checked by the strict loader in the tests
     * (test_embedded_data, test_engines), so a build without a loadable
     * one is broken: stop rather than estimate with made-up figures. */
    if (!t)
        abort();
    return ecf_engines_get(t, engine);
}

double ecf_serve_int4_weight_bytes(const ecf_model *m, const serve_engine *eng,
                               double rows, double bw)
{
    double h, q, kv, inter, attn_col, attn_row, mlp, n_mlp, col, row, rest;
    double row_b;
    if (eng->int4_col_gweights_s <= 0 || bw <= 0 || m->experts > 0 || m->layers <= 0 ||
        m->hidden <= 0 || m->intermediate <= 0 || m->heads <= 0 ||
        !ecf_model_kind_is_llm(m->kind))
        return 0;
    h = m->hidden;
    q = (double)m->heads * (m->head_dim > 0 ? m->head_dim : h / m->heads);
    kv = (double)(m->kv_heads > 0 ? m->kv_heads : m->heads) *
         (m->head_dim > 0 ? m->head_dim : h / m->heads);
    inter = m->intermediate;
    /* per layer: q/k/v (column) and o (row); the MLP's up (and gate, when
     * the parameter count holds a third matrix) are column, down is row */
    attn_col = h * (q + 2.0 * kv);
    attn_row = q * h;
    mlp = (m->params - (double)m->vocab * h * (m->tie_embeddings ? 1 : 2)) /
              m->layers -
          attn_col - attn_row;
    n_mlp = floor(mlp / (inter * h) + 0.5);
    if (n_mlp < 2)
        n_mlp = 2;
    if (n_mlp > 3)
        n_mlp = 3;
    col = m->layers * (attn_col + (n_mlp - 1) * inter * h);
    row = m->layers * (attn_row + inter * h);
    /* the rest is read at 2 bytes: norms and the LM head; an untied
     * input embedding is a lookup, not a read */
    rest = m->params - col - row -
           (m->tie_embeddings ? 0.0 : (double)m->vocab * h);
    if (rest < 0)
        rest = 0;
    row_b = rows < eng->int4_recons_rows
                ? eng->int4_row_bytes * (rows > 1 ? rows : 1)
                : eng->int4_recons_bytes;
    /* the column kernel's time, as the bytes `bw` would move in it */
    return col / (eng->int4_col_gweights_s * 1e9) * bw + row * row_b +
           rest * 2.0;
}
