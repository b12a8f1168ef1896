/*
 * estimate_workload.c - task names and workload resolution: defaults and
 * cross-checks of a workload against its model (LoRA on a CNN, int4
 * training, a sequence beyond the context) before anything is estimated.
 */
#include "ec2fit/estimate.h"
#include "ec2fit/attn_kernels.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/engines.h"
#include "ec2fit/stacks.h"
#include "estimate_internal.h"

/* ================================================================ */
/* Names                                                             */
/* ================================================================ */

const char *ecf_parallelism_name(ecf_parallelism p)
{
    static const char *const names[ECF_PAR_COUNT] = {
        "single", "dp",      "fsdp",  "tp",    "tp+dp",
        "tp+pp",  "tp+fsdp", "zero-1", "zero-2", "nxd"};
    return (unsigned)p < ECF_PAR_COUNT ? names[p] : "unknown";
}

const char *ecf_strategy_label(char *buf, size_t n, ecf_parallelism p,
                               int tp, int pp)
{
    if (p == ECF_PAR_NXD)
        snprintf(buf, n, "nxd tp%d pp%d zero1", tp, pp);
    else
        snprintf(buf, n, "%s", ecf_parallelism_name(p));
    return buf;
}

const char *ecf_bottleneck_name(ecf_bottleneck b)
{
    static const char *const names[ECF_BN_COUNT] = {
        "compute", "memory-bandwidth", "communication",
        "data",    "host-memory",      "device-memory"};
    return (unsigned)b < ECF_BN_COUNT ? names[b] : "unknown";
}

const char *ecf_kv_dtype_name(int kv)
{
    static const char *const names[] = {"auto", "bf16", "fp16", "fp8",
                                        "fp32"};
    return kv >= ECF_KV_AUTO && kv <= ECF_KV_FP32 ? names[kv] : "unknown";
}

int ecf_kv_dtype_parse(const char *s)
{
    if (strcmp(s, "auto") == 0)
        return ECF_KV_AUTO;
    if (strcmp(s, "bf16") == 0)
        return ECF_KV_BF16;
    if (strcmp(s, "fp16") == 0)
        return ECF_KV_FP16;
    if (strcmp(s, "fp8") == 0 || strcmp(s, "fp8_e4m3") == 0 ||
        strcmp(s, "fp8_e5m2") == 0)
        return ECF_KV_FP8;
    return -1;
}

/* auto: the engine's default (docs/estimation.md 4.3, "KV cache
 * precision", with each engine's source) */
static const ecf_engine_perf *engine_row(int engine)
{
    const ecf_engines *t = ecf_engines_builtin();
    return engine > ECF_ENGINE_AUTO && t ? ecf_engines_get(t, engine) : NULL;
}

int ecf_kv_dtype_resolve(const ecf_workload *w, int precision, int engine)
{
    return kv_dtype_resolve_row(w, precision, engine_row(engine));
}

double ecf_kv_bytes_per_elem(const ecf_workload *w, int precision,
                             int engine)
{
    return kv_bytes_per_elem_row(w, precision, engine_row(engine));
}

/* ================================================================ */
/* Workload resolution                                               */
/* ================================================================ */

/* --grad-accum and --global-batch, counts per optimizer step: at least 1
 * when given (0 = not given), and only for a training task. */
static int per_step_count(int v,
                          const char *flag,
                          const char *what,
                          bool training,
                          ecf_task task,
                          ecf_err *err)
{
    if (v < 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be at least 1", flag);
    if (v > 0 && !training)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: counts %s per optimizer step of a training "
                           "run; --task %s has none",
                           flag, what, ecf_task_name(task));
    return 0;
}

/* The attention follows from the stack the user names (docs/estimation.md
 * 5.3, "Default attention"): with no version, a current release (PyTorch
 * 2 SDPA, transformers' "sdpa" classes: no stored scores). PyTorch before
 * 2.0 has no torch.nn.functional.scaled_dot_product_attention (added in
 * 2.0, PyTorch 2.0 release notes), so its models compute matmul, softmax
 * and matmul as ops and store the scores; Hugging Face transformers made
 * SDPA the default of its decoder classes in 4.36 (release v4.36.0,
 * huggingface/transformers#28005) and of BERT, RoBERTa, DistilBERT, ViT
 * and Whisper in 4.41 (BERT: huggingface/transformers#28802), eager
 * before. --attention overrides, except sdpa on a PyTorch that has none.
 * A version where the attention is not modelled is refused: it would
 * change nothing. */
static int attention_from_stack(ecf_workload *w,
                                const ecf_model *m,
                                bool training,
                                ecf_err *err)
{
    bool old_torch = w->framework_version > 0 && w->framework_version < 200;
    bool unet = m->unet_levels >= 1;
    bool old_hf = w->transformers_version > 0 &&
                  w->transformers_version < (is_llm(m) ? 436 : 441);
    int v = w->transformers_version ? w->transformers_version
                                    : w->framework_version;
    const char *lib = w->transformers_version ? "transformers" : "pytorch";

    if (!w->framework_version && !w->transformers_version)
        return 0;
    if (!ecf_model_kind_is_transformer(m->kind) && !unet)
        return ecf_err_set(err, ECF_EINVAL,
                           "--framework %s@%d.%d: the version sets the "
                           "attention kernel, which is not modelled for %s "
                           "(%s); drop @VERSION",
                           lib, v / 100, v % 100, m->name,
                           ecf_model_kind_name(m->kind));
    if (unet && w->transformers_version)
        return ecf_err_set(err, ECF_EINVAL,
                           "--framework transformers@%d.%d: %s runs on "
                           "diffusers, not transformers; name the PyTorch "
                           "version (pytorch@1.13)",
                           v / 100, v % 100, m->name);
    if (is_llm(m) && !training)
        return ecf_err_set(err, ECF_EINVAL,
                           "--framework %s@%d.%d: the LLM serving engines run "
                           "their own fused attention whatever the framework "
                           "version; drop @VERSION for --task %s",
                           lib, v / 100, v % 100, ecf_task_name(w->task));
    if (w->attention_set && !w->naive_attention &&
        w->attn_kernel == ECF_ATTN_AUTO && old_torch)
        return ecf_err_set(err, ECF_EINVAL,
                           "--attention sdpa: PyTorch %d.%d has no "
                           "scaled_dot_product_attention (added in 2.0)",
                           w->framework_version / 100,
                           w->framework_version % 100);
    if (!w->attention_set && (old_torch || (old_hf && !unet)))
        w->naive_attention = true;
    return 0;
}

int ecf_workload_resolve(ecf_workload *w, const ecf_model *m, ecf_err *err)
{
    bool training;

    if (w->resolved)
        return 0;
    if ((unsigned)w->task >= ECF_TASK_COUNT)
        return ecf_err_set(err, ECF_EINVAL, "--task: unknown task");
    training = ecf_task_is_training(w->task);
    if ((w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA) &&
        !(ecf_model_kind_is_transformer(m->kind) ||
          m->kind == ECF_KIND_DIFFUSION))
        return ecf_err_set(err, ECF_EINVAL,
                           "--task: %s needs a transformer or diffusion "
                           "model; %s is a %s",
                           ecf_task_name(w->task), m->name,
                           ecf_model_kind_name(m->kind));
    if (w->precision != ECF_PREC_AUTO &&
        (w->precision < 0 || w->precision >= ECF_PREC_COUNT))
        return ecf_err_set(err, ECF_EINVAL, "--precision: unknown precision");
    if ((unsigned)w->storage >= ECF_STORAGE_COUNT)
        return ecf_err_set(err, ECF_EINVAL, "--storage: unknown storage");
    if (w->storage_mbytes_s > 0 && w->storage != ECF_STORAGE_GP3 &&
        w->storage != ECF_STORAGE_FSX)
        return ecf_err_set(err, ECF_EINVAL,
                           "--storage-throughput: only with --storage gp3 "
                           "or fsx");
    if (w->storage == ECF_STORAGE_GP3 && w->storage_mbytes_s > 0 &&
        (w->storage_mbytes_s < 125 || w->storage_mbytes_s > 1000))
        return ecf_err_set(err, ECF_EINVAL,
                           "--storage-throughput: a gp3 volume provisions "
                           "125 to 1000 MB/s, got %g",
                           w->storage_mbytes_s);
    w->precision_explicit = w->precision != ECF_PREC_AUTO;
    if (w->precision == ECF_PREC_AUTO)
        w->precision = ECF_PREC_BF16;
    if (training &&
        (w->precision == ECF_PREC_INT8 || w->precision == ECF_PREC_INT4)) {
        if (w->task == ECF_TASK_QLORA && w->precision == ECF_PREC_INT4)
            w->precision = ECF_PREC_BF16; /* 4-bit base, bf16 compute */
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--precision: %s is for inference (use --task "
                               "qlora for 4-bit fine-tuning)",
                               ecf_precision_name((ecf_precision)w->precision));
    }
    if (w->task == ECF_TASK_QLORA &&
        (w->precision == ECF_PREC_FP32 || w->precision == ECF_PREC_TF32))
        return ecf_err_set(err, ECF_EINVAL,
                           "--precision: qlora computes in bf16 or fp16, "
                           "not %s",
                           ecf_precision_name((ecf_precision)w->precision));
    if (w->batch_size < 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--batch-size: must be at least 1, got %d",
                           w->batch_size);
    w->batch_explicit = w->batch_size > 0;
    if (!w->batch_explicit)
        w->batch_size = w->task == ECF_TASK_INFER ? 1 : m->default_batch;
    if (w->seq_len < 0 || w->input_tokens < 0 || w->output_tokens < 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be at least 1",
                           w->seq_len < 0        ? "--seq-len"
                           : w->input_tokens < 0 ? "--input-tokens"
                                                 : "--output-tokens");
    if (!ecf_model_kind_is_transformer(m->kind)) {
        if (w->seq_len > 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--seq-len: %s is a %s and has no sequence "
                               "length",
                               m->name, ecf_model_kind_name(m->kind));
    } else if (w->seq_len == 0) {
        w->seq_len = m->default_seq_len;
    }
    if (m->kind == ECF_KIND_VIT && w->seq_len != m->default_seq_len)
        return ecf_err_set(err, ECF_EINVAL,
                           "--seq-len: %s has a fixed %d tokens per image",
                           m->name, m->default_seq_len);
    if (m->max_context > 0 && w->seq_len > m->max_context)
        return ecf_err_set(err, ECF_EINVAL,
                           "--seq-len: %d exceeds %s's maximum context of %d",
                           w->seq_len, m->name, m->max_context);
    if (w->mean_seq_len < 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--mean-seq-len: must be at least 1");
    if (w->packing || w->mean_seq_len > 0) {
        if (!w->packing)
            return ecf_err_set(err, ECF_EINVAL,
                               "--mean-seq-len: is the mean sample length "
                               "for --packing; add --packing");
        if (!training)
            return ecf_err_set(err, ECF_EINVAL,
                               "--packing: applies to training, not --task %s",
                               ecf_task_name(w->task));
        if (!ecf_model_kind_is_transformer(m->kind) ||
            m->kind == ECF_KIND_VIT || m->kind == ECF_KIND_SPEECH)
            return ecf_err_set(err, ECF_EINVAL,
                               "--packing: packs text sequences, not %s "
                               "(%s)",
                               m->name, ecf_model_kind_name(m->kind));
        if (w->mean_seq_len == 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--packing: give the mean sample length with "
                               "--mean-seq-len N");
        if (w->mean_seq_len > w->seq_len)
            return ecf_err_set(err, ECF_EINVAL,
                               "--mean-seq-len: %d exceeds the packed row "
                               "length --seq-len %d",
                               w->mean_seq_len, w->seq_len);
    }
    {
        int rc = per_step_count(w->grad_accum, "--grad-accum",
                                "micro-batches", training, w->task, err);
        if (rc == 0)
            rc = per_step_count(w->global_batch, "--global-batch", "samples",
                                training, w->task, err);
        if (rc < 0)
            return rc;
    }
    /* both: N micro-batches of b samples on each replica make the global
     * batch, so it must be a whole multiple of N (and of N x b when the
     * micro-batch is given) */
    if (w->global_batch > 0 && w->grad_accum > 0 &&
        (w->global_batch % w->grad_accum != 0 ||
         (w->batch_explicit &&
          w->global_batch % ((long)w->grad_accum * w->batch_size) != 0)))
        return ecf_err_set(err, ECF_EINVAL,
                           "--global-batch %d and --grad-accum %d disagree: "
                           "the global batch is --grad-accum x batch x "
                           "data-parallel replicas",
                           w->global_batch, w->grad_accum);
    if (w->offload < ECF_OFFLOAD_NONE || w->offload > ECF_OFFLOAD_OPTIMIZER)
        return ecf_err_set(err, ECF_EINVAL,
                           "--offload: expected none or optimizer");
    if (w->offload != ECF_OFFLOAD_NONE && !training)
        return ecf_err_set(err, ECF_EINVAL,
                           "--offload: moves the optimizer of a training run "
                           "to host RAM; --task %s has none",
                           ecf_task_name(w->task));
    if (w->kv_cache_dtype < ECF_KV_AUTO || w->kv_cache_dtype > ECF_KV_FP8)
        return ecf_err_set(err, ECF_EINVAL, "--kv-cache-dtype: expected "
                           "auto, bf16, fp16 or fp8");
    if (w->kv_cache_dtype != ECF_KV_AUTO && training)
        return ecf_err_set(err, ECF_EINVAL,
                           "--kv-cache-dtype: applies to serving (--task "
                           "infer or batch), not --task %s",
                           ecf_task_name(w->task));
    if (w->kv_cache_dtype != ECF_KV_AUTO && !is_llm(m))
        return ecf_err_set(err, ECF_EINVAL,
                           "--kv-cache-dtype: only decoder language models "
                           "keep a KV cache, not %s (%s)",
                           m->name, ecf_model_kind_name(m->kind));
    if (w->cross_entropy < ECF_CE_FULL || w->cross_entropy > ECF_CE_FUSED)
        return ecf_err_set(err, ECF_EINVAL,
                           "--cross-entropy: expected full, chunked or fused");
    if (w->cross_entropy != ECF_CE_FULL && !training)
        return ecf_err_set(err, ECF_EINVAL,
                           "--cross-entropy: applies to training, not "
                           "--task %s",
                           ecf_task_name(w->task));
    if (w->cross_entropy != ECF_CE_FULL && !is_llm(m))
        return ecf_err_set(err, ECF_EINVAL,
                           "--cross-entropy: the LM-head loss is modelled "
                           "for decoder language models, not %s (%s)",
                           m->name, ecf_model_kind_name(m->kind));
    /* --data-loader dali, --attention eager, --conv-kernels fused: each
     * changes one term, for the models and tasks that have it */
    if (w->gpu_decode && !((m->kind == ECF_KIND_CNN ||
                            m->kind == ECF_KIND_VIT) &&
                           w->task != ECF_TASK_INFER))
        return ecf_err_set(err, ECF_EINVAL,
                           m->kind == ECF_KIND_CNN || m->kind == ECF_KIND_VIT
                               ? "--data-loader: the JPEG-decode limit is "
                                 "modelled for training and --task batch, "
                                 "not --task %s"
                               : "--data-loader: the JPEG-decode limit is "
                                 "modelled for image models (cnn, vit), "
                                 "not %s",
                           m->kind == ECF_KIND_CNN || m->kind == ECF_KIND_VIT
                               ? ecf_task_name(w->task)
                               : m->name);
    if (attention_from_stack(w, m, training, err) < 0)
        return ECF_EINVAL;
    /* --attention eager: stored score matrices, for every transformer and
     * the UNet diffusion models (docs/estimation.md 5.3, "Attention
     * kernel"); the diffusion transformers' activations are counted per
     * block without a score term */
    if (w->naive_attention && !ecf_model_kind_is_transformer(m->kind) &&
        m->unet_levels < 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "--attention: eager attention memory is "
                           "modelled for transformers and UNet diffusion "
                           "models (stable-diffusion-1.5, sdxl), not %s (%s)",
                           m->name, ecf_model_kind_name(m->kind));
    if (w->naive_attention && is_llm(m) && !training)
        return ecf_err_set(err, ECF_EINVAL,
                           "--attention: eager attention memory is "
                           "modelled for decoder training, not --task %s "
                           "(the serving engines run fused attention)",
                           ecf_task_name(w->task));
    /* --attention flash2|cudnn|flash3: the attention core of decoder and
     * encoder training, whose FLOPs ec2fit separates from the linear
     * layers' (docs/estimation.md 5.3, "Attention kernel") */
    if (w->attn_kernel != ECF_ATTN_AUTO &&
        !((is_llm(m) || m->kind == ECF_KIND_ENCODER) && training))
        return ecf_err_set(err, ECF_EINVAL,
                           is_llm(m) || m->kind == ECF_KIND_ENCODER
                               ? "--attention %s: the attention kernel is "
                                 "modelled for training, not --task %s"
                               : "--attention %s: the attention kernel is "
                                 "modelled for decoder language models and "
                                 "encoders (their attention FLOPs are "
                                 "counted apart), not %s",
                           ecf_attn_kernel_name(w->attn_kernel),
                           is_llm(m) || m->kind == ECF_KIND_ENCODER
                               ? ecf_task_name(w->task)
                               : m->name);
    if (w->fused_conv_bn && !(m->kind == ECF_KIND_CNN && training))
        return ecf_err_set(err, ECF_EINVAL,
                           m->kind == ECF_KIND_CNN
                               ? "--conv-kernels: fused kernels are modelled "
                                 "for training, not --task %s"
                               : "--conv-kernels: fused kernels are modelled "
                                 "for convnets (cnn), not %s",
                           m->kind == ECF_KIND_CNN ? ecf_task_name(w->task)
                                                   : m->name);
    if (is_llm(m) && !training) {
        if (w->input_tokens == 0)
            w->input_tokens = DEFAULT_INPUT_TOKENS;
        if (w->output_tokens == 0)
            w->output_tokens = DEFAULT_OUTPUT_TOKENS;
        if (m->max_context > 0 &&
            (double)w->input_tokens + w->output_tokens > m->max_context)
            return ecf_err_set(err, ECF_EINVAL,
                               "--input-tokens: %d + --output-tokens %d "
                               "exceed %s's maximum context of %d",
                               w->input_tokens, w->output_tokens, m->name,
                               m->max_context);
    } else if (m->kind == ECF_KIND_SPEECH && w->output_tokens == 0) {
        w->output_tokens = SPEECH_OUTPUT_TOKENS;
    }
    if (w->lora_rank < 0)
        return ecf_err_set(err, ECF_EINVAL, "--lora-rank: must be at least 1");
    if (w->lora_rank == 0)
        w->lora_rank = LORA_DEFAULT_RANK;
    if (w->epochs < 0 || !isfinite(w->epochs))
        return ecf_err_set(err, ECF_EINVAL, "--epochs: must be positive");
    if (w->epochs == 0)
        w->epochs = 1;
    if (w->bytes_per_sample <= 0)
        w->bytes_per_sample = ecf_model_kind_is_transformer(m->kind) &&
                                      m->kind != ECF_KIND_VIT &&
                                      m->kind != ECF_KIND_SPEECH
                                  ? 4.0 * (w->packing ? w->mean_seq_len
                                                      : w->seq_len)
                                  : m->input_bytes_per_sample;
    if (w->dataset_amount < 0 || !isfinite(w->dataset_amount))
        return ecf_err_set(err, ECF_EINVAL, "--dataset: must be positive");
    w->dataset_samples = 0;
    if (w->dataset_amount > 0) {
        ecf_dataset_unit u = w->dataset_unit;
        double tokens_per_sample =
            is_llm(m) && !training ? (double)w->input_tokens + w->output_tokens
                                   : (double)(w->packing ? w->mean_seq_len
                                              : w->seq_len > 0 ? w->seq_len
                                                               : 1);
        if (u == ECF_DATASET_ITEMS || u == ECF_DATASET_NONE)
            u = is_llm(m) ? ECF_DATASET_TOKENS : ECF_DATASET_SAMPLES;
        if (u == ECF_DATASET_TOKENS && !ecf_model_kind_is_transformer(m->kind))
            return ecf_err_set(err, ECF_EINVAL,
                               "--dataset: %s is a %s; give samples or "
                               "bytes, not tokens",
                               m->name, ecf_model_kind_name(m->kind));
        if (u == ECF_DATASET_TOKENS)
            w->dataset_samples = w->dataset_amount / tokens_per_sample;
        else if (u == ECF_DATASET_BYTES)
            w->dataset_samples = w->dataset_amount / w->bytes_per_sample;
        else
            w->dataset_samples = w->dataset_amount;
        w->dataset_unit = u;
    }
    /* GPU groups are powers of two; Neuron groups are NeuronCore counts
     * (24 on inf2.48xlarge, 12 on inf2.24xlarge): even numbers. */
    if (w->tensor_parallel < 0 || w->tensor_parallel > 1024 ||
        ((w->tensor_parallel & (w->tensor_parallel - 1)) != 0 &&
         w->tensor_parallel % 2 != 0))
        return ecf_err_set(err, ECF_EINVAL,
                           "--tensor-parallel: expected a power of two or "
                           "an even NeuronCore count from 1 to 1024, got %d",
                           w->tensor_parallel);
    if (w->tensor_parallel > 0 && !ecf_task_is_training(w->task) &&
        w->task != ECF_TASK_INFER)
        return ecf_err_set(err, ECF_EINVAL,
                           "--tensor-parallel: only for --task infer and "
                           "training (batch jobs choose their sharding)");
    if (w->pipeline_parallel < 0 || w->pipeline_parallel > 1024 ||
        (w->pipeline_parallel > 0 && !ecf_task_is_training(w->task)))
        return ecf_err_set(err, ECF_EINVAL,
                           "--pipeline-parallel: 1 to 1024 pipeline stages, "
                           "training only, got %d",
                           w->pipeline_parallel);
    /* the Megatron layout gives each stage an equal share of the blocks
     * (estimate_train.c): a count no model plan can use was dropped with
     * a warning only --output json showed */
    if (w->pipeline_parallel >= 2 && m->layers > 0 &&
        m->layers % w->pipeline_parallel != 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--pipeline-parallel %d: %s has %d layers, which "
                           "do not split into %d equal stages",
                           w->pipeline_parallel, m->name, m->layers,
                           w->pipeline_parallel);
    if (w->virtual_stages < 0 || w->virtual_stages > 1024 ||
        (w->virtual_stages > 1 && w->pipeline_parallel < 2))
        return ecf_err_set(err, ECF_EINVAL,
                           "--virtual-stages: model chunks per pipeline "
                           "device, 1 to 1024, with --pipeline-parallel 2 or "
                           "more, got %d",
                           w->virtual_stages);
    if (w->latency_target_ms < 0 || w->qps < 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be positive",
                           w->qps < 0 ? "--qps" : "--latency-ms");
    w->resolved = true;
    return 0;
}
