/*
 * serve_engines.c - the serving engines' performance table: what one
 * decode step costs the host, how close each engine's kernels get to the
 * bandwidth roofline, and how large its prefill chunk is. Every figure
 * has its source in docs/estimation.md, "Serving engines".
 */
#include "serve_engines.h"

#include "ec2fit/stacks.h"

/* Indexed by ecf_engine. */
static const serve_engine engines[ECF_ENGINE_COUNT] = {
    /* name      step    layer   bw    int4  int8  gemm  chunk fwd    conv */
    [ECF_ENGINE_AUTO] = {"vllm", 0.5e-3, 0, 0.70, 0.50, 0.75, 1.0, 8192,
                         4e-3, 1.0, true},
    /* vLLM: CUDA graphs for decode, multi-step scheduling (v0.6 blog);
     * max_num_batched_tokens 8192 with chunked prefill (V1 default) */
    [ECF_ENGINE_VLLM] = {"vllm", 0.5e-3, 0, 0.70, 0.50, 0.75, 1.0, 8192,
                         4e-3, 1.0, true},
    /* TGI 1.x: eager PyTorch shards, two NCCL all-reduces per layer;
     * max_batch_prefill_tokens 4096 */
    [ECF_ENGINE_TGI] = {"tgi", 1.0e-3, 0.4e-3, 0.70, 0.50, 0.75, 1.0, 4096,
                        4e-3, 1.0, true},
    /* TensorRT-LLM: C++ runtime, in-flight batching, fused kernels;
     * max_num_tokens 8192 */
    [ECF_ENGINE_TRTLLM] = {"trtllm", 0.2e-3, 0, 0.70, 0.50, 0.75, 1.0, 8192,
                           1e-3, 1.0, true},
    /* HF transformers generate(): eager, one Python call per module */
    [ECF_ENGINE_HF] = {"hf", 2.0e-3, 0.9e-3, 0.70, 0.50, 0.75, 1.0, 0, 4e-3,
                       1.0, false},
    /* TF Serving: whole-graph session.run; the DLE batch-1 rows */
    [ECF_ENGINE_TF_SERVING] = {"tf-serving", 1.0e-3, 0, 0.70, 0.50, 0.75,
                               1.0, 0, 4e-3, 1.0, false},
    /* Triton (PyTorch/ONNX backends): the framework's dispatch */
    [ECF_ENGINE_TRITON] = {"triton", 1.0e-3, 0, 0.70, 0.50, 0.75, 1.0, 0,
                           4e-3, 1.0, false},
    /* Neuron (transformers-neuronx / NxD Inference): compiled graphs, no
     * eager dispatch; continuous batching with bucketing; per forward 0:
     * the NEFF runs end to end on one NeuronCore (docs/estimation.md 7) */
    [ECF_ENGINE_NEURON] = {"neuron", 0, 0, 0.70, 0.50, 1.0, 1.0, 8192, 0,
                           1.0, false},
};

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

const serve_engine *serve_engine_get(int engine)
{
    if (engine < 0 || engine >= ECF_ENGINE_COUNT)
        engine = ECF_ENGINE_AUTO;
    return &engines[engine];
}
