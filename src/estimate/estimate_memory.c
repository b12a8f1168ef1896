/*
 * estimate_memory.c - memory per device of a training or inference plan
 * (weights, gradients, optimizer, activations, KV cache, LoRA, overhead),
 * the smallest total memory a workload needs, and the step's traffic over
 * the optimizer and gradient state (--offload, gradient accumulation)
 * (docs/estimation.md).
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "estimate_internal.h"
#include "serve_engines.h"

/* ================================================================ */
/* Memory plans                                                      */
/* ================================================================ */

/* A CPU-only host also holds the runtime that runs the model: the
 * framework for training, the serving engine's for inference (triton and
 * the LLM engines are PyTorch processes, tf-serving TensorFlow; a JAX
 * model served through Triton's Python backend runs JAX). No CPU engine
 * runs ONNX Runtime here, so none is charged for it (docs/estimation.md
 * 7, "Host-RAM floor per runtime"). */
void ecf_est_cpu_runtime(devinfo *d, const ecf_model *m,
                         const ecf_workload *w)
{
    int fw = w->framework;

    if (!d->cpu)
        return;
    if (!ecf_task_is_training(w->task))
        fw = ecf_serve_engine_pick(m, w, SERVE_DEV_OTHER) == ECF_ENGINE_TF_SERVING
                 ? ECF_FW_TENSORFLOW
             : w->framework == ECF_FW_JAX ? ECF_FW_JAX
                                          : ECF_FW_PYTORCH;
    if (fw == ECF_FW_JAX) {
        d->runtime_gib = CPU_RUNTIME_JAX_GIB;
        d->runtime = "JAX";
    } else if (fw == ECF_FW_PYTORCH) {
        d->runtime_gib = CPU_RUNTIME_PYTORCH_GIB;
        d->runtime = "PyTorch";
    } else if (fw == ECF_FW_TENSORFLOW) {
        d->runtime_gib = CPU_RUNTIME_TENSORFLOW_GIB;
        d->runtime = "TensorFlow";
    }
    /* below RUNTIME_OVERHEAD_GIB nothing fits: the plans charge it */
    d->mem_gib -= d->runtime_gib;
    if (d->mem_gib < 0)
        d->mem_gib = 0;
}


static void sum_memory(ecf_memory *mem, double avail)
{
    double parts = mem->weights_gib + mem->gradients_gib + mem->optimizer_gib +
                   mem->activations_gib + mem->kv_cache_gib + mem->lora_gib;
    mem->overhead_gib = RUNTIME_OVERHEAD_GIB + FRAGMENTATION * parts;
    mem->total_per_device_gib = parts + mem->overhead_gib;
    mem->available_per_device_gib = avail;
}

/* torch.amp autocast over fp32 weights (--master-weights amp; docs/
 * estimation.md 4.1). The fp32 weights are the master copy (ADAM_MASTER_
 * BYTES) and their gradients are fp32 (AMP_GRAD_BYTES); autocast caches the
 * 16-bit cast of each weight until the autocast region exits (ATen
 * autocast_mode.cpp, cached_cast; torch.autocast `cache_enabled`), which
 * is the 2-byte weights term: 2 + 4 + 4 + 8 = 18 bytes/param with AdamW,
 * Hugging Face's "model memory anatomy" figure. softmax runs in fp32
 * under autocast (torch.amp op reference, "CUDA Ops that can autocast to
 * float32"): where the scores are materialised, the saved softmax output
 * is 4 bytes a score instead of 2, and the probabilities x V matmul saves
 * its own 16-bit cast of the dropout output (2); with the 1-byte dropout
 * mask 7 bytes a score instead of Korthikanti's 5: AMP_SCORE_EXTRA. */
#define AMP_GRAD_BYTES  4.0
#define AMP_SCORE_EXTRA 2.0

static bool train_amp(const ecf_workload *w, double wb)
{
    return wb == 2.0 && w->master_weights == ECF_MASTER_AMP;
}

/* Gradient bytes per parameter: as the weights, fp32 under torch.amp, or
 * none with pure bf16 + 8-bit Adam, which torchtune runs with the
 * optimizer step in the backward pass (each gradient is applied and freed
 * as it is produced). */
double train_grad_bytes(const ecf_workload *w, double wb)
{
    if (wb == 2.0 && w->master_weights == ECF_MASTER_NONE &&
        w->optimizer_8bit)
        return 0;
    if (train_amp(w, wb))
        return AMP_GRAD_BYTES;
    return wb;
}

/* Optimizer bytes per parameter (docs/estimation.md 4.1): Adam m and v
 * (fp32, 8-bit, or bf16 in pure bf16 training) plus the fp32 master copy
 * of mixed precision. */
double train_opt_bytes(const ecf_workload *w, double wb)
{
    double states = w->optimizer_8bit ? ADAM8_STATE_BYTES : ADAM_STATE_BYTES;
    if (wb == 4.0)
        return states;
    if (w->master_weights == ECF_MASTER_NONE)
        return w->optimizer_8bit ? ADAM8_STATE_BYTES : ADAM_BF16_STATE_BYTES;
    return ADAM_MASTER_BYTES + states;
}

/* --offload optimizer (docs/estimation.md 4.1, "Optimizer offload"). The
 * states leave the device with the step that reads them: DeepSpeed
 * ZeRO-Offload keeps the fp32 master, m and v in host RAM, streams each
 * 16-bit gradient bucket to the host as the backward pass produces it and
 * runs CPU-Adam there on an fp32 copy of the gradient partition (Ren et
 * al. 2021, "ZeRO-Offload", sec. 4.1; DeepSpeed's memory.rst charges
 * ZeRO-2 with offload_optimizer=cpu 2 x params per GPU: the weights
 * alone). Host bytes per parameter: the optimizer's, plus the gradient in
 * fp32 where an fp32 master is kept (the precision the host step reads),
 * else in its own precision (none when the step runs in the backward
 * pass). LoRA moves the adapters' Adam m and v (LORA_ADAM_BYTES of
 * LORA_BYTES_PER_PARAM). */
#define LORA_ADAM_BYTES 8.0

/* The stacks that offload (DeepSpeed, FSDP, bitsandbytes) are CUDA ones;
 * a CPU plan's states are in host memory already. */
static bool offloaded(const ecf_workload *w, const devinfo *d)
{
    return w->offload == ECF_OFFLOAD_OPTIMIZER && !d->cpu &&
           d->gen != GEN_NEURON;
}

static double offload_host_bytes(const ecf_workload *w, double wb)
{
    double g = train_grad_bytes(w, wb);
    if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
        return LORA_ADAM_BYTES;
    if (g > 0 && (wb == 4.0 || w->master_weights != ECF_MASTER_NONE))
        g = 4.0;
    return train_opt_bytes(w, wb) + g;
}

/* Seconds --offload optimizer adds to a training step (docs/estimation.md
 * 8, "Optimizer offload time"): the host-side Adam step reads and writes
 * every state byte it holds once, at this device's share of the host's
 * sustained DRAM bandwidth (all devices step at once), and the updated
 * 16-bit weights return over PCIe (LINK_PCIE_GBYTES_S). The gradients'
 * trip to the host overlaps the backward pass (ZeRO-Offload sec. 4.1);
 * the update and the weights' return do not (without its optional
 * one-step delayed update). 0 without offload. */
double offload_step_s(const ecf_memory *mem,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d)
{
    double wb = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0;
    double bytes = mem->host_offload_gib * GIB, params, host_bw;
    bool lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;

    if (bytes <= 0 || d->host_gbytes_s <= 0)
        return 0;
    params = bytes / offload_host_bytes(w, wb);
    host_bw = d->host_gbytes_s * 1e9 / (d->count > 0 ? d->count : 1);
    return 2.0 * bytes / host_bw +
           params * (lora ? 4.0 : wb) / (LINK_PCIE_GBYTES_S * 1e9);
}

/* Bytes of the LM head's logits at the loss for `tokens` tokens
 * (LOGIT_FP32_BYTES, docs/estimation.md 4.1), vocabulary-parallel over
 * tp ranks (Megatron shards the head and its cross-entropy). */
static double train_logit_bytes(const ecf_model *m,
                                const ecf_workload *w,
                                double tokens,
                                double act_scale,
                                int tp)
{
    double extra = w->cross_entropy == ECF_CE_CHUNKED
                       ? LOGIT_FP32_BYTES / LOSS_CHUNKS
                   : w->cross_entropy == ECF_CE_FUSED ? 2.0 * act_scale
                                                      : LOGIT_FP32_BYTES;
    if (!is_llm(m))
        return 0;
    return tokens * m->vocab * (2.0 * act_scale + extra) / tp;
}

/* Memory per device for a training plan. `total_devices` = dp x tp. */
void train_memory(ecf_memory *mem,
                         const ecf_model *m,
                         const ecf_workload *w,
                         ecf_precision p,
                         const plan *pl,
                         const devinfo *d)
{
    double P = m->params, shard = 1, grad_shard, opt_shard, wb, act_scale;
    int n = pl->tp * pl->dp * pl->pp;

    memset(mem, 0, sizeof(*mem));
    wb = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0;
    act_scale = wb / 2.0;
    if (pl->par == ECF_PAR_FSDP || pl->par == ECF_PAR_TP_FSDP)
        shard = n;
    else if (pl->par == ECF_PAR_TP || pl->par == ECF_PAR_TP_DP)
        shard = pl->tp;
    else if (pl->par == ECF_PAR_TP_PP || pl->par == ECF_PAR_NXD)
        shard = (double)pl->tp * pl->pp;
    /* Megatron's distributed optimizer (ZeRO-1) shards the optimizer
     * states of each stage over its data-parallel replicas too, as NeuronX
     * Distributed's ZeRO-1 optimizer (NeuronZero1Optimizer) does. */
    opt_shard = pl->par == ECF_PAR_TP_PP || pl->par == ECF_PAR_NXD
                    ? shard * pl->dp
                    : shard;
    grad_shard = shard;
    /* ZeRO-1 partitions the optimizer states over the data-parallel
     * ranks, ZeRO-2 the gradients too; the weights stay replicated
     * (Rajbhandari et al. 2020, sec. 5: P_os, P_os+g). */
    if (pl->par == ECF_PAR_ZERO1 || pl->par == ECF_PAR_ZERO2)
        opt_shard = n;
    if (pl->par == ECF_PAR_ZERO2)
        grad_shard = n;
    if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA) {
        double base = w->task == ECF_TASK_QLORA
                          ? ecf_estimate_weight_bytes(ECF_PREC_INT4)
                          : wb;
        mem->weights_gib = P * base / shard / GIB;
        mem->lora_gib =
            lora_params(m, w->lora_rank) * LORA_BYTES_PER_PARAM / shard / GIB;
        if (offloaded(w, d)) {
            mem->host_offload_gib = mem->lora_gib * LORA_ADAM_BYTES /
                                    LORA_BYTES_PER_PARAM;
            mem->lora_gib -= mem->host_offload_gib;
        }
    } else {
        mem->weights_gib = P * wb / shard / GIB;
        mem->gradients_gib = P * train_grad_bytes(w, wb) / grad_shard / GIB;
        mem->optimizer_gib = P * train_opt_bytes(w, wb) / opt_shard / GIB;
        if (offloaded(w, d)) {
            mem->host_offload_gib =
                P * offload_host_bytes(w, wb) / opt_shard / GIB;
            mem->gradients_gib = 0;
            mem->optimizer_gib = 0;
        }
    }
    if (ecf_model_kind_is_transformer(m->kind)) {
        /* fp32 softmax under autocast, where the scores are materialised
         * (the encoders of tf_act_bytes); one layer's under recomputation */
        double amp_scores =
            train_amp(w, wb) && stores_scores(m, w, d)
                ? AMP_SCORE_EXTRA * m->heads * (double)w->seq_len *
                      w->seq_len / pl->tp * (pl->ckpt ? 1 : m->layers)
                : 0;
        mem->activations_gib =
            pl->batch *
            (tf_act_bytes(m, w->seq_len, pl->ckpt, act_scale, pl->tp,
                          stores_scores(m, w, d)) +
             amp_scores +
             train_logit_bytes(m, w, w->seq_len, act_scale, pl->tp)) /
            GIB;
    } else if (m->kind == ECF_KIND_DIFFUSION)
        /* from the UNet's shape, or the diffusion transformer's derived
         * act_mib_per_sample (docs/estimation.md 4.3, "Diffusion
         * training") */
        mem->activations_gib = pl->batch *
                               diff_train_act_bytes(m, w, 2.0 * act_scale) *
                               (pl->ckpt ? CNN_CKPT_KEEP : 1.0) / GIB;
    else
        mem->activations_gib = pl->batch * m->act_mib_per_sample * act_scale *
                               (pl->ckpt ? CNN_CKPT_KEEP : 1.0) / 1024.0;
    sum_memory(mem, d->mem_gib);
}

/* vLLM's pool (docs/estimation.md 4.4, "KV capacity"): since v0.6.4 the
 * profiler (vllm/utils.py memory_profiling) sizes the KV cache as
 * gpu_memory_utilization x total less the weights, the profile run's
 * torch peak and the non-torch memory added *after* the baseline that
 * Worker.init_device measures once the CUDA context exists, so the
 * context lives in the 1 - utilisation margin, not in the pool's budget.
 * The profile run prefills max_num_batched_tokens split over max_num_seqs
 * dummy sequences (vLLM EngineArgs default 256), and the sampler holds
 * each one's last-token logits in fp32. */
#define VLLM_PROFILE_SEQS 256.0

/* Overhead and KV capacity of a serving plan (docs/estimation.md 4.4).
 * The caching allocator's slack (FRAGMENTATION) is charged on what is
 * allocated and freed as requests come and go: the per-step workspace,
 * and a KV cache that grows by concatenation (HF, Triton, TF Serving).
 * Weights are allocated once at load, and a paged engine's KV pool is one
 * preallocated block (vLLM, TGI, TensorRT-LLM); neither fragments. The KV
 * capacity is the tokens the rest of the serving fit leaves room for,
 * beside the largest workspace `ws_max_gib` (a full prefill chunk) and
 * the part `ctx_gib` of the runtime context the engine's pool budget
 * holds (all of it, except vLLM's: VLLM_PROFILE_SEQS). */
static void serve_sum_memory(ecf_memory *mem,
                             const ecf_model *m,
                             const ecf_workload *w,
                             const plan *pl,
                             double kv_elem,
                             int kv_split,
                             bool paged,
                             double ws_max_gib,
                             double ctx_gib,
                             double avail)
{
    double transient = mem->activations_gib + (paged ? 0 : mem->kv_cache_gib);
    double h = w->headroom_set ? w->headroom_pct / 100.0 : SERVE_HEADROOM;
    double per_tok, room;

    mem->overhead_gib = RUNTIME_OVERHEAD_GIB + FRAGMENTATION * transient;
    mem->total_per_device_gib = mem->weights_gib + mem->activations_gib +
                                mem->kv_cache_gib + mem->lora_gib +
                                mem->overhead_gib;
    mem->available_per_device_gib = avail;
    if (!is_llm(m))
        return;
    /* the pool is sized beside the largest workspace the engine will use
     * (vLLM profiles a full max_num_batched_tokens step) */
    per_tok = kv_bytes_per_token(m, kv_elem) / kv_split / pl->pp / GIB *
              (paged ? 1.0 : 1.0 + FRAGMENTATION);
    /* local-attention layers keep only their window: a token of this
     * workload's context costs its share of the whole-context bytes */
    {
        double full = (double)w->input_tokens + w->output_tokens;
        if (full > 0)
            per_tok *= ecf_model_kv_context(m, full) / full;
    }
    room = avail / (1.0 + h) -
           (mem->weights_gib + mem->lora_gib + ctx_gib +
            ws_max_gib * (1.0 + FRAGMENTATION));
    mem->kv_capacity_tokens = room > 0 && per_tok > 0 ? room / per_tok : 0;
}

/* Memory per device for an inference plan (tp devices per replica, pp
 * nodes per replica). */
void infer_memory(ecf_memory *mem,
                         const ecf_model *m,
                         const ecf_workload *w,
                         ecf_precision p,
                         const plan *pl,
                         const devinfo *d)
{
    double wb = d->wo_weight_bytes > 0 ? d->wo_weight_bytes
                                       : ecf_estimate_weight_bytes(p);
    /* the serving engine (LLMs); --kv-cache-dtype's auto is its choice */
    int eid = is_llm(m) ? ecf_serve_engine_pick(m, w, (serve_dev)serve_dev_of(d))
                        : 0;
    const serve_engine *llm_eng = is_llm(m) ? ecf_serve_engine_get(eid) : NULL;
    double kv_elem = kv_bytes_per_elem_row(w, p, llm_eng);
    double split = (double)pl->tp * pl->pp;
    double act_elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;
    /* an MLA latent is not split by heads: each TP rank holds all of it */
    int kv_split = m->kv_dim_per_layer > 0 ? 1
                   : pl->tp < m->kv_heads  ? pl->tp
                                           : m->kv_heads;

    bool paged = false;
    double ws_max = 0, ctx = RUNTIME_OVERHEAD_GIB;

    memset(mem, 0, sizeof(*mem));
    if (llm_eng)
        mem->kv_cache_dtype = kv_dtype_resolve_row(w, p, llm_eng);
    if (kv_split < 1)
        kv_split = 1;
    mem->weights_gib = m->params * wb / split / GIB;
    if (is_llm(m)) {
        const serve_engine *eng = llm_eng;
        bool vllm = eid == ECF_ENGINE_VLLM;
        paged = eng->paged_kv;
        /* paged KV: the average request holds its prompt and half its
         * output; a contiguous cache holds the whole context, and so
         * does the batch an engine admits itself when its admission
         * reserves it (kv_reserve_full: TensorRT-LLM's GUARANTEED_NO_EVICT,
         * TGI's token budget; an explicit --batch-size is the requests
         * measured in flight) */
        bool reserve = eng->kv_reserve_full && !w->batch_explicit;
        double held = (double)w->input_tokens +
                      w->output_tokens *
                          (eng->paged_kv && !reserve ? 0.5 : 1.0);
        mem->kv_cache_gib = kv_bytes_per_token(m, kv_elem) *
                            ecf_model_kv_context(m, held) * pl->batch /
                            kv_split / pl->pp / GIB;
        /* prefill workspace: hidden states and MLP intermediates of one
         * layer for the tokens prefilled in one engine step (the engine's
         * chunk, shared by all requests; the whole batch's prompts when
         * the engine does not chunk), plus last-token fp32 logits */
        int chunk = eng->chunk_tokens;
        double pf_tokens = pl->batch * (double)w->input_tokens;
        double per_pf_tok = (4.0 * m->hidden + 2.0 * m->intermediate / pl->tp) *
                            2.0 * act_elem / GIB;
        double logits = pl->batch * (double)m->vocab * 4.0 / GIB;
        if (chunk > 0 && pf_tokens > chunk)
            pf_tokens = chunk;
        mem->activations_gib = pf_tokens * per_pf_tok + logits;
        ws_max = (chunk > pf_tokens ? chunk : pf_tokens) * per_pf_tok + logits;
        if (vllm) {
            /* the pool is what vLLM's profiler leaves (VLLM_PROFILE_SEQS) */
            if (pl->batch < VLLM_PROFILE_SEQS)
                ws_max += (VLLM_PROFILE_SEQS - pl->batch) * (double)m->vocab *
                          4.0 / GIB;
            ctx = 0;
        }
    } else if (ecf_model_kind_is_transformer(m->kind)) {
        /* two layers' activations live at a time; the scores only where
         * the attention stores them (stores_scores) */
        mem->activations_gib =
            pl->batch * 2.0 *
            (w->seq_len * (double)m->hidden * ACT_BYTES_PER_SBH +
             (stores_scores(m, w, d) ? ACT_ATTN_SCORES * m->heads *
                                        (double)w->seq_len * w->seq_len
                                  : 0)) *
            act_elem / GIB;
    } else if (m->unet_levels > 0) {
        /* UNet diffusion: the larger of a denoising step and the VAE
         * decode, from the UNet's real shape (estimate_diffusion.c) */
        mem->activations_gib = ecf_estimate_unet_infer_act_gib(
            m, pl->batch, 2.0 * act_elem, w->naive_attention);
    } else {
        double mult = m->kind == ECF_KIND_DIFFUSION
                          ? (double)ecf_model_cfg_passes(m)
                          : 1.0; /* CFG */
        /* a few feature maps live at once: 10% of the training set */
        mem->activations_gib =
            pl->batch * mult * m->act_mib_per_sample * 0.1 * act_elem / 1024.0;
    }
    serve_sum_memory(mem, m, w, pl, kv_elem, kv_split, paged, ws_max, ctx,
                     d->mem_gib);
}

double ecf_estimate_model_state_gib(const ecf_model *m,
                                    const ecf_workload *w,
                                    ecf_parallelism par,
                                    int devices)
{
    ecf_memory mem;
    ecf_precision p = w->precision == ECF_PREC_AUTO ? ECF_PREC_BF16
                                                     : (ecf_precision)w->precision;
    plan pl = {par, 1, devices > 0 ? devices : 1, 1, false, 0};
    devinfo d;

    /* serving: the weights, split over the tensor-parallel devices */
    if (!ecf_task_is_training(w->task))
        return m->params * ecf_estimate_weight_bytes(p) / pl.dp / GIB;
    memset(&d, 0, sizeof(d));
    train_memory(&mem, m, w, p, &pl, &d);
    return mem.weights_gib + mem.gradients_gib + mem.optimizer_gib +
           mem.lora_gib;
}

double ecf_estimate_min_total_gib(const ecf_model *m, const ecf_workload *w)
{
    /* Most-sharded lower bound: weights + training state, + one sample's
     * checkpointed activations or one request's KV cache. */
    double total;
    if (ecf_task_is_training(w->task)) {
        if (w->task == ECF_TASK_QLORA)
            total = m->params * ecf_estimate_weight_bytes(ECF_PREC_INT4);
        else if (w->task == ECF_TASK_LORA)
            total = m->params * 2.0;
        else if (w->offload == ECF_OFFLOAD_OPTIMIZER)
            total = m->params * 2.0; /* the states are in host RAM */
        else
            total = m->params * (2.0 + train_grad_bytes(w, 2.0) +
                                 train_opt_bytes(w, 2.0));
    } else {
        ecf_precision p = (ecf_precision)(w->precision == ECF_PREC_AUTO
                                              ? ECF_PREC_BF16
                                              : w->precision);
        total = m->params * ecf_estimate_weight_bytes(p);
        if (is_llm(m))
            total += kv_bytes_per_token(
                         m, kv_bytes_per_elem_row(
                                w, p,
                                ecf_serve_engine_get(
                                    ecf_serve_engine_pick(m, w, SERVE_DEV_OTHER)))) *
                     ecf_model_kv_context(m, (double)w->input_tokens +
                                                 w->output_tokens);
    }
    return total / GIB;
}

/* The pass that adds each micro-batch's weight gradients into the
 * gradient buffer under --grad-accum / --global-batch (docs/estimation.md
 * 5.4, "Accumulation pass"): it reads the buffer and the new gradient and
 * writes the buffer, 3 x the gradient bytes on the device, on n - 1 of
 * the n micro-batches of an optimizer step ((n - 1) / n per micro-batch):
 * the other one only writes the buffer (PyTorch >= 2.0 zero_grad sets the
 * gradients to None, so the first backward assigns them; the DLE
 * TensorFlow BERT assigns the first micro-batch's gradients with
 * `assign`). Stacks that zero the buffer first (PyTorch 1.x zero_grad)
 * or re-read it at the update (Keras 3) move 1-2 gradient sizes more per
 * step, not counted (docs/estimation.md 5.4). Bytes per micro-batch:
 * - TensorFlow and JAX keep fp32 accumulator variables and add in a
 *   conditional branch, outside the fusions of the step (Keras 3's
 *   `_backend_increment_gradient_accumulators`; NVIDIA's DLE TensorFlow
 *   BERT `accum_vars[i].assign_add(grad)`): 3 x 4 bytes per parameter;
 *   tf.distribute mirrors every variable on each replica (no ZeRO or
 *   FSDP in TensorFlow), JAX shards them with the plan's gradients;
 * - eager PyTorch adds into param.grad in place (autograd's
 *   AccumulateGrad), in the gradients' dtype and sharding (the memory
 *   model's gradient bytes: whole under DDP and ZeRO-1, 1/n under ZeRO-2
 *   and FSDP); TP and PP plans stand for Megatron-style stacks, which
 *   fuse the add into the weight-gradient GEMM
 *   (`gradient_accumulation_fusion`, on by default in Megatron-LM), and
 * Neuron and the other accelerators run the step as one compiled graph
 * (XLA/neuronx-cc, whatever the front end): no pass of its own there. */
#define ACCUM_PASS_RW 3.0
#define ACCUM_VAR_BYTES 4.0

double accum_pass_bytes(const plan *pl,
                        const ecf_memory *mem,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        int n)
{
    bool lora = w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA;
    double params, shard = (double)pl->tp * pl->pp, bytes;
    bool sharded = pl->par == ECF_PAR_ZERO2 || pl->par == ECF_PAR_FSDP ||
                   pl->par == ECF_PAR_TP_FSDP;
    if (n < 2 || d->gen == GEN_NEURON || d->gen == GEN_OTHER)
        return 0;
    params = lora ? lora_params(m, w->lora_rank) : m->params;
    if (w->framework == ECF_FW_TENSORFLOW || w->framework == ECF_FW_JAX) {
        if (w->framework == ECF_FW_JAX && sharded)
            shard = (double)pl->tp * pl->dp * pl->pp;
        bytes = ACCUM_VAR_BYTES * params / shard;
    } else {
        if (pl->tp > 1 || pl->pp > 1)
            return 0;
        bytes = lora ? ACCUM_VAR_BYTES * params
                     : mem->gradients_gib * GIB;
    }
    return ACCUM_PASS_RW * bytes * (n - 1) / n;
}
