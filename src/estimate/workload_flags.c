/*
 * workload_flags.c - the model and workload flags shared by `estimate`,
 * `recommend` and the batch engine's fields (see workload_flags.h for the
 * calling pattern; the help text is the CLI's, cli_workload_help.c).
 *
 * Parsing is strict and happens flag by flag so that an error names the
 * flag the user typed; cross-flag checks (LoRA on a CNN, int4 training,
 * sequence beyond the context) are ecf_workload_resolve's, once the model
 * is known.
 */
#include "workload_flags.h"

#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "ec2fit/attn_kernels.h"
#include "ec2fit/buf.h"
#include "ec2fit/stacks.h"
#include "ec2fit/units.h"

/* --resolution WxH or N (N x N); the side limits are
 * ecf_model_diffusion_scale's, checked once the model is known. */
static int parse_resolution(cli_workload *wl, const char *arg, ecf_err *err)
{
    size_t a = strspn(arg, "0123456789"), b = 0;
    long w = 0, h = 0;

    if (a > 0 && a <= 6 && (arg[a] == 'x' || arg[a] == 'X'))
        b = strspn(arg + a + 1, "0123456789");
    if (a > 0 && a <= 6 && (arg[a] == '\0' || (b > 0 && b <= 6 &&
                                                arg[a + 1 + b] == '\0'))) {
        w = strtol(arg, NULL, 10);
        h = arg[a] ? strtol(arg + a + 1, NULL, 10) : w;
    }
    if (w < 1 || h < 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "--resolution: expected WIDTHxHEIGHT or N pixels "
                           "(1024x768, 512), got '%s'",
                           arg);
    wl->res_w = (int)w;
    wl->res_h = (int)h;
    return 1;
}

/* A whole count from 1 to max ("1M"-style suffixes accepted, as
 * ecf_units_parse_count reads them): --grad-accum, --global-batch,
 * --mean-seq-len. Returns 0, or <0 with err set. */
static int whole_count(int *out,
                       const char *flag,
                       const char *arg,
                       double max,
                       const char *what,
                       const char *max_label,
                       ecf_err *err)
{
    double d;
    int rc = ecf_units_parse_count(&d, flag, arg, err);
    if (rc < 0)
        return rc;
    if (d < 1 || d > max || d != (int)d)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: expected a whole number of %s from 1 to %s, "
                           "got '%s'",
                           flag, what, max_label, arg);
    *out = (int)d;
    return 0;
}

int ecf_workload_option(cli_workload *wl, int c, const char *arg, ecf_err *err)
{
    ecf_workload *w = &wl->w;
    double d = 0;
    int v, rc;

    if (c < CLI_WL_BASE || c >= CLI_WL_END)
        return 0;
    switch (c) {
    case CLI_WL_MODEL:
        wl->model = arg;
        break;
    case CLI_WL_PARAMS:
        wl->params = arg;
        break;
    case CLI_WL_MODEL_CONFIG:
        wl->model_config = arg;
        break;
    case CLI_WL_TASK:
        v = ecf_task_parse(arg);
        if (v < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--task: expected train, finetune, lora, "
                               "qlora, infer or batch, got '%s'",
                               arg);
        w->task = (ecf_task)v;
        wl->task_set = true;
        break;
    case CLI_WL_PRECISION:
        v = ecf_precision_parse(arg);
        if (v < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--precision: expected fp32, tf32, fp16, "
                               "bf16, fp8, int8 or int4, got '%s'",
                               arg);
        w->precision = v;
        break;
    case CLI_WL_BATCH_SIZE:
        return ecf_parse_int(&w->batch_size, "--batch-size", arg, 1, 1000000,
                             err) < 0
                   ? ECF_EINVAL
                   : 1;
    case CLI_WL_SEQ_LEN:
        rc = ecf_units_parse_count(&d, "--seq-len", arg, err);
        if (rc < 0)
            return rc;
        if (d < 1 || d > 1e8 || d != (int)d)
            return ecf_err_set(err, ECF_EINVAL,
                               "--seq-len: expected a whole number of "
                               "tokens from 1 to 100M, got '%s'",
                               arg);
        w->seq_len = (int)d;
        break;
    case CLI_WL_INPUT_TOKENS:
    case CLI_WL_OUTPUT_TOKENS: {
        const char *flag =
            c == CLI_WL_INPUT_TOKENS ? "--input-tokens" : "--output-tokens";
        rc = ecf_units_parse_count(&d, flag, arg, err);
        if (rc < 0)
            return rc;
        if (d < 1 || d > 1e8 || d != (int)d)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: expected a whole number of tokens from 1 "
                               "to 100M, got '%s'",
                               flag, arg);
        if (c == CLI_WL_INPUT_TOKENS)
            w->input_tokens = (int)d;
        else
            w->output_tokens = (int)d;
        break;
    }
    case CLI_WL_DATASET:
        return ecf_units_parse_dataset(&w->dataset_amount, &w->dataset_unit,
                                       "--dataset", arg, err) < 0
                   ? ECF_EINVAL
                   : 1;
    case CLI_WL_EPOCHS:
        rc = ecf_parse_double(&d, "--epochs", arg, 0, 1e6, err);
        if (rc < 0)
            return rc;
        if (d <= 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--epochs: must be more than zero, got '%s'",
                               arg);
        w->epochs = d;
        break;
    case CLI_WL_CKPT:
        w->activation_checkpointing = ECF_CKPT_ON;
        break;
    case CLI_WL_NO_CKPT:
        w->activation_checkpointing = ECF_CKPT_OFF;
        break;
    case CLI_WL_OPTIM_8BIT:
        w->optimizer_8bit = true;
        break;
    case CLI_WL_MASTER_WEIGHTS:
        if (strcmp(arg, "fp32") == 0)
            w->master_weights = ECF_MASTER_FP32;
        else if (strcmp(arg, "none") == 0)
            w->master_weights = ECF_MASTER_NONE;
        else if (strcmp(arg, "amp") == 0)
            w->master_weights = ECF_MASTER_AMP;
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--master-weights: expected fp32, amp or "
                               "none, got '%s'",
                               arg);
        break;
    case CLI_WL_PACKING:
        w->packing = true;
        break;
    case CLI_WL_GRAD_ACCUM:
        rc = whole_count(&w->grad_accum, "--grad-accum", arg, 1e6,
                         "micro-batches", "1M", err);
        return rc < 0 ? rc : 1;
    case CLI_WL_GLOBAL_BATCH:
        rc = whole_count(&w->global_batch, "--global-batch", arg, 1e8,
                         "samples", "100M", err);
        return rc < 0 ? rc : 1;
    case CLI_WL_MEAN_SEQ_LEN:
        rc = whole_count(&w->mean_seq_len, "--mean-seq-len", arg, 1e8,
                         "tokens", "100M", err);
        return rc < 0 ? rc : 1;
    case CLI_WL_KV_CACHE_DTYPE:
        rc = ecf_kv_dtype_parse(arg);
        if (rc < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--kv-cache-dtype: expected auto, bf16, fp16 "
                               "or fp8, got '%s'",
                               arg);
        w->kv_cache_dtype = rc;
        break;
    case CLI_WL_CROSS_ENTROPY:
        if (strcmp(arg, "full") == 0)
            w->cross_entropy = ECF_CE_FULL;
        else if (strcmp(arg, "chunked") == 0)
            w->cross_entropy = ECF_CE_CHUNKED;
        else if (strcmp(arg, "fused") == 0)
            w->cross_entropy = ECF_CE_FUSED;
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--cross-entropy: expected full, chunked or "
                               "fused, got '%s'",
                               arg);
        break;
    case CLI_WL_OFFLOAD:
        if (strcmp(arg, "none") == 0)
            w->offload = ECF_OFFLOAD_NONE;
        else if (strcmp(arg, "optimizer") == 0)
            w->offload = ECF_OFFLOAD_OPTIMIZER;
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--offload: expected none or optimizer, got "
                               "'%s'",
                               arg);
        break;
    /* the three implementation choices the estimator models
     * (docs/estimation.md 5.4 and 8; checked against the model and task
     * by ecf_workload_resolve) */
    case CLI_WL_DATA_LOADER:
        if (strcmp(arg, "cpu") == 0)
            w->gpu_decode = false;
        else if (strcmp(arg, "dali") == 0)
            w->gpu_decode = true;
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--data-loader: expected cpu or dali, got "
                               "'%s'",
                               arg);
        break;
    case CLI_WL_ATTENTION:
        w->attention_set = true;
        if (strcmp(arg, "sdpa") == 0)
            w->naive_attention = false;
        else if (strcmp(arg, "eager") == 0)
            w->naive_attention = true;
        else if (ecf_attn_kernel_parse(arg) > ECF_ATTN_AUTO)
            w->attn_kernel = ecf_attn_kernel_parse(arg);
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--attention: expected sdpa, eager, flash2, "
                               "cudnn or flash3, got '%s'",
                               arg);
        break;
    case CLI_WL_CONV_KERNELS:
        if (strcmp(arg, "framework") == 0)
            w->fused_conv_bn = false;
        else if (strcmp(arg, "fused") == 0)
            w->fused_conv_bn = true;
        else
            return ecf_err_set(err, ECF_EINVAL,
                               "--conv-kernels: expected framework or fused, "
                               "got '%s'",
                               arg);
        break;
    case CLI_WL_LORA_RANK:
        return ecf_parse_int(&w->lora_rank, "--lora-rank", arg, 1, 4096, err) <
                       0
                   ? ECF_EINVAL
                   : 1;
    case CLI_WL_LATENCY_MS:
        rc = ecf_parse_double(&w->latency_target_ms, "--latency-ms", arg, 0.001,
                              1e9, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_TTFT_MS:
        rc = ecf_parse_double(&w->ttft_target_ms, "--ttft-ms", arg, 0.001, 1e9,
                              err);
        return rc < 0 ? rc : 1;
    case CLI_WL_TPOT_MS:
        rc = ecf_parse_double(&w->tpot_target_ms, "--tpot-ms", arg, 0.001, 1e9,
                              err);
        return rc < 0 ? rc : 1;
    case CLI_WL_QPS:
        rc = ecf_parse_double(&w->qps, "--qps", arg, 0.000001, 1e9, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_TENSOR_PARALLEL:
        rc = ecf_parse_int(&w->tensor_parallel, "--tensor-parallel", arg, 1,
                           1024, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_PIPELINE_PARALLEL:
        rc = ecf_parse_int(&w->pipeline_parallel, "--pipeline-parallel", arg,
                           1, 1024, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_VIRTUAL_STAGES:
        rc = ecf_parse_int(&w->virtual_stages, "--virtual-stages", arg, 1,
                           1024, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_STEPS:
        rc = ecf_parse_int(&wl->steps, "--steps", arg, 1, 10000, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_RESOLUTION:
        return parse_resolution(wl, arg, err);
    case CLI_WL_FRAMEWORK: {
        int fw = 0, version = 0;
        bool hf = false;
        if (ecf_framework_spec_parse(&fw, &version, &hf, arg) < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--framework: expected pytorch, tensorflow, "
                               "jax or transformers, optionally with "
                               "@VERSION (pytorch@1.13), got '%s'",
                               arg);
        if (version > 0 && fw != ECF_FW_PYTORCH)
            return ecf_err_set(err, ECF_EINVAL,
                               "--framework %s: a version is modelled for "
                               "pytorch and transformers only (the attention "
                               "of %s does not change with it); drop "
                               "@VERSION",
                               arg, ecf_framework_name(fw));
        w->framework = fw;
        /* transformers@V names the library on PyTorch; a PyTorch version
         * given by another --framework stays */
        if (hf)
            w->transformers_version = version;
        else
            w->framework_version = version;
        wl->framework_set = true;
        return 1;
    }
    case CLI_WL_ENGINE: {
        int e = ecf_engine_parse(arg);
        if (e < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--engine: expected vllm, tgi, trtllm, hf, "
                               "tf-serving, triton, neuron, tensorrt or "
                               "auto, got '%s'",
                               arg);
        w->engine = e;
        return 1;
    }
    case CLI_WL_STORAGE: {
        int st = ecf_storage_parse(arg);
        if (st < 0)
            return ecf_err_set(err, ECF_EINVAL,
                               "--storage: expected auto, s3, gp3, fsx, efs "
                               "or nvme, got '%s'",
                               arg);
        w->storage = st;
        return 1;
    }
    case CLI_WL_STORAGE_THROUGHPUT:
        rc = ecf_parse_double(&w->storage_mbytes_s, "--storage-throughput",
                              arg, 1, 1e7, err);
        return rc < 0 ? rc : 1;
    case CLI_WL_STARTUP:
        d = 0;
        rc = strcmp(arg, "0") == 0
                 ? 0
                 : ecf_units_parse_duration(&d, "--startup", arg, err);
        if (rc < 0)
            return rc;
        if (d < 0 || d > 24)
            return ecf_err_set(err, ECF_EINVAL,
                               "--startup: expected 0 to 24h, got '%s'", arg);
        w->startup_set = true;
        w->startup_s = d * 3600.0;
        return 1;
    case CLI_WL_SAMPLE_BYTES:
        rc = ecf_units_parse_dataset(&d, &(ecf_dataset_unit){0},
                                     "--sample-bytes", arg, err);
        if (rc < 0)
            return rc;
        w->bytes_per_sample = d;
        break;
    default:
        return 0;
    }
    return 1;
}

/* Finds `name` in `shared`, or in the embedded zoo loaded for this call
 * when `shared` is NULL, suggesting close names. */
static int find_model(ecf_model *out, const ecf_zoo *shared, const char *name,
                      ecf_err *err)
{
    ecf_zoo *zoo = NULL;
    const ecf_zoo *z = shared;
    const ecf_model *m;
    const char *sugg[1];
    size_t k;
    int rc;

    if (!z) {
        rc = ecf_zoo_embedded(&zoo, err);
        if (rc < 0)
            return rc;
        z = zoo;
    }
    m = ecf_zoo_find(z, name);
    if (m) {
        *out = *m;
        ecf_zoo_free(zoo);
        return 0;
    }
    k = ecf_zoo_suggest(sugg, 1, z, name);
    if (k == 0)
        rc = ecf_err_set(err, ECF_ENOTFOUND,
                         "unknown model '%s' (see 'ec2fit models', or use "
                         "--params or --model-config)",
                         name);
    else
        rc =
            ecf_err_set(err, ECF_ENOTFOUND,
                        "unknown model '%s' (did you mean %s?)", name, sugg[0]);
    ecf_zoo_free(zoo);
    return rc;
}

/* Flags the serving model would otherwise ignore (docs/stacks.md,
 * "Refused combinations"): every LLM serving engine modelled (vLLM, TGI,
 * TensorRT-LLM, Hugging Face, Neuron) runs a PyTorch checkpoint, so a
 * TensorFlow or JAX framework for an LLM's serving has no plan to change;
 * TF Serving has no LLM runtime (no continuous batching or paged KV
 * cache); vLLM, TGI and TensorRT-LLM serve only LLMs. */
static int check_serving_stack(const cli_workload *wl, const ecf_model *m,
                               ecf_err *err)
{
    bool llm = ecf_model_kind_is_llm(m->kind);
    int e = wl->w.engine;
    if (wl->w.task != ECF_TASK_INFER && wl->w.task != ECF_TASK_BATCH)
        return 0;
    if (llm && wl->framework_set && wl->w.framework != ECF_FW_PYTORCH)
        return ecf_err_set(err, ECF_EINVAL,
                           "--framework %s: no %s serving stack is modelled "
                           "for an LLM (%s): its engines (vllm, tgi, trtllm, "
                           "hf, neuron) run PyTorch checkpoints; drop "
                           "--framework or use --framework pytorch",
                           ecf_framework_name(wl->w.framework),
                           ecf_framework_name(wl->w.framework), m->name);
    if (llm && e == ECF_ENGINE_TF_SERVING)
        return ecf_err_set(err, ECF_EINVAL,
                           "--engine tf-serving: TensorFlow Serving has no "
                           "LLM runtime (continuous batching, paged KV "
                           "cache) for %s; use vllm, tgi, trtllm, hf or "
                           "neuron",
                           m->name);
    if (llm && e == ECF_ENGINE_TENSORRT)
        return ecf_err_set(err, ECF_EINVAL,
                           "--engine tensorrt: a compiled graph of fixed "
                           "shapes has no LLM runtime (in-flight batching, "
                           "paged KV cache) for %s; use trtllm, vllm, tgi, "
                           "hf or neuron",
                           m->name);
    if (!llm && (e == ECF_ENGINE_VLLM || e == ECF_ENGINE_TGI ||
                 e == ECF_ENGINE_TRTLLM))
        return ecf_err_set(err, ECF_EINVAL,
                           "--engine %s: serves LLMs only, and %s is a %s "
                           "model; use tensorrt, triton, tf-serving, hf or "
                           "neuron",
                           ecf_engine_name(e), m->name,
                           ecf_model_kind_name(m->kind));
    return 0;
}

/* A flag the task has no use for is refused, not silently dropped (issue
 * 24: "every flag either changes the plan or is refused with a reason"):
 * a training run has no requests, and a serving or offline pass has no
 * optimizer, backward pass or adapter. Checked only once --task is given
 * (its default, infer, is not a choice the user made). */
static int check_task_flags(const cli_workload *wl, ecf_err *err)
{
    const ecf_workload *w = &wl->w;
    const char *task = ecf_task_name(w->task);
    const char *flag = NULL;

    if (!wl->task_set)
        return 0;
    if (ecf_task_is_training(w->task)) {
        flag = w->qps > 0                 ? "--qps"
               : w->latency_target_ms > 0 ? "--latency-ms"
               : w->ttft_target_ms > 0    ? "--ttft-ms"
               : w->tpot_target_ms > 0    ? "--tpot-ms"
               : w->input_tokens > 0      ? "--input-tokens"
               : w->output_tokens > 0     ? "--output-tokens"
                                          : NULL;
        if (flag)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: a serving flag (--task infer or batch); "
                               "--task %s serves no requests",
                               flag, task);
    } else {
        flag = w->optimizer_8bit ? "--optimizer-8bit"
               : w->activation_checkpointing == ECF_CKPT_ON
                   ? "--activation-checkpointing"
               : w->activation_checkpointing == ECF_CKPT_OFF
                   ? "--no-activation-checkpointing"
               : w->master_weights != ECF_MASTER_FP32 ? "--master-weights"
                                                      : NULL;
        if (flag)
            return ecf_err_set(err, ECF_EINVAL,
                               "%s: applies to training, not --task %s",
                               flag, task);
    }
    if (w->lora_rank > 0 && w->task != ECF_TASK_LORA &&
        w->task != ECF_TASK_QLORA)
        return ecf_err_set(err, ECF_EINVAL,
                           "--lora-rank: applies to --task lora or qlora, "
                           "not %s",
                           task);
    return 0;
}

int ecf_workload_finish(cli_workload *wl,
                        ecf_model *model_out,
                        bool need_task,
                        ecf_err *err)
{
    return ecf_workload_finish_zoo(wl, model_out, need_task, NULL, err);
}

int ecf_workload_finish_zoo(cli_workload *wl,
                            ecf_model *model_out,
                            bool need_task,
                            const ecf_zoo *zoo,
                            ecf_err *err)
{
    int given =
        (wl->model != NULL) + (wl->params != NULL) + (wl->model_config != NULL);
    int rc = 0;

    if (given == 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "missing model: give --model NAME, --params N or "
                           "--model-config FILE");
    if (given > 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "give only one of --model, --params and "
                           "--model-config");
    if (need_task && !wl->task_set)
        return ecf_err_set(err, ECF_EINVAL,
                           "missing --task (train, finetune, lora, qlora, "
                           "infer or batch)");
    if (!wl->framework_set && wl->default_framework >= 0)
        wl->w.framework = wl->default_framework;
    /* offline jobs (--task batch) run on a serving engine too: vLLM's
     * offline LLM class, trtllm-bench, Triton's perf_analyzer */
    if (wl->w.engine != 0 && wl->w.task != ECF_TASK_INFER &&
        wl->w.task != ECF_TASK_BATCH)
        return ecf_err_set(err, ECF_EINVAL,
                           "--engine: a serving engine is for --task infer "
                           "or batch, not %s",
                           ecf_task_name(wl->w.task));
    rc = check_task_flags(wl, err);
    if (rc < 0)
        return rc;
    if (wl->model) {
        rc = find_model(model_out, zoo, wl->model, err);
    } else if (wl->params) {
        double p = 0;
        rc = ecf_units_parse_count(&p, "--params", wl->params, err);
        if (rc == 0)
            rc = ecf_model_from_params(model_out, p, err);
    } else {
        ecf_buf buf = ECF_BUF_INIT;
        const char *base = strrchr(wl->model_config, '/');
        rc = ecf_buf_read_file(&buf, wl->model_config, ECF_HF_CONFIG_MAX_BYTES,
                               err);
        if (rc == 0) {
            rc = ecf_model_from_hf_config(model_out, buf.data, buf.len,
                                          wl->model_config, err);
            /* a short display name: the file's folder or base name */
            if (rc == 0 && base && base[1])
                snprintf(model_out->name, sizeof(model_out->name), "%s",
                         base + 1);
        }
        ecf_buf_dispose(&buf);
        if (rc < 0)
            ecf_err_prefix(err, "--model-config");
    }
    if (rc == 0)
        rc = check_serving_stack(wl, model_out, err);
    /* A decoder LLM's online serving is sized by the prompt and answer
     * lengths; --seq-len (a training/encoder sample) would be ignored. */
    if (rc == 0 && wl->w.seq_len > 0 && wl->w.task == ECF_TASK_INFER &&
        ecf_model_kind_is_llm(model_out->kind))
        rc = ecf_err_set(err, ECF_EINVAL,
                         "--seq-len: %s serving is sized by --input-tokens "
                         "and --output-tokens; --seq-len has no effect with "
                         "--task infer",
                         model_out->name);
    if (rc == 0)
        rc = ecf_model_diffusion_scale(model_out, wl->steps, wl->res_w,
                                       wl->res_h, err);
    if (rc < 0)
        return rc;
    return ecf_workload_resolve(&wl->w, model_out, err);
}
