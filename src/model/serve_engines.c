/*
 * serve_engines.c - which serving engine a plan runs on, and its row of
 * the engines table: what one decode step costs the host, how close its
 * kernels get to the bandwidth roofline, how large its prefill chunk is.
 * The figures are data (data/engines.json, loaded by src/data/
 * engines_load.c); their sources are in docs/estimation.md 5.5.
 */
#include "serve_engines.h"

#include <stdlib.h>

#include "ec2fit/stacks.h"

int serve_engine_pick(const ecf_model *m, const ecf_workload *w, bool neuron)
{
    if (w->engine > ECF_ENGINE_AUTO && w->engine < ECF_ENGINE_COUNT)
        return w->engine;
    if (neuron)
        return ECF_ENGINE_NEURON;
    if (ecf_model_kind_is_llm(m->kind))
        return ECF_ENGINE_VLLM;
    if (w->framework == ECF_FW_TENSORFLOW)
        return ECF_ENGINE_TF_SERVING;
    return ECF_ENGINE_TRITON;
}

/* vLLM, TGI and Transformers keep the KV cache in the model's activation
 * dtype unless told otherwise (vLLM --kv-cache-dtype "auto": "will use
 * model data type"; TGI --kv-cache-dtype unset: the model's dtype; a
 * Transformers cache holds the attention's key/value tensors), so an
 * fp8-weight plan keeps a 16-bit cache there; the other engines' fp8
 * plans keep an fp8 cache. */
double serve_kv_elem_bytes(const serve_engine *eng, ecf_precision p)
{
    if (p != ECF_PREC_FP8)
        return 2.0;
    if (eng == serve_engine_get(ECF_ENGINE_VLLM) ||
        eng == serve_engine_get(ECF_ENGINE_TGI) ||
        eng == serve_engine_get(ECF_ENGINE_HF))
        return 2.0;
    return 1.0;
}

const serve_engine *serve_engine_get(int engine)
{
    const ecf_engines *t = ecf_engines_builtin();
    /* The embedded table is checked by the strict loader in the tests
     * (test_embedded_data, test_engines), so a build without a loadable
     * one is broken: stop rather than estimate with made-up figures. */
    if (!t)
        abort();
    return ecf_engines_get(t, engine);
}
