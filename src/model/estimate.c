/*
 * estimate.c - the analytical estimator (docs/estimation.md has every
 * formula with its source; the constants below are the same list).
 *
 * Pure: no I/O, no globals, no allocation. One call evaluates a workload on
 * one instance type x N nodes: it resolves the workload, describes the
 * devices (or the host, for CPU-only types), picks a sharding that fits,
 * then computes memory, step time (compute / memory / communication / data
 * rooflines), throughput, dataset time and serving latency.
 *
 * Invariants: every ecf_estimate field is written on success; warnings and
 * assumptions never overflow (extra notes are dropped, the last slot says
 * so); times are finite and non-negative.
 */
#include "ec2fit/estimate.h"

#include <math.h>
#include <stddef.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define GIB 1073741824.0

/* ================================================================ */
/* Constants (docs/estimation.md, "Constants")                       */
/* ================================================================ */

/* Mixed-precision Adam: 2 (bf16 weights) + 2 (grads) + 4 (fp32 master) +
 * 4 + 4 (Adam m, v) = 16 bytes/param (ZeRO paper, Rajbhandari et al. 2020,
 * section 3.1). 8-bit Adam (Dettmers et al. 2022) keeps m and v in 1 byte
 * each: 2 + 2 + 4 + 1 + 1 = 10. */
#define ADAM_MASTER_BYTES 4.0
#define ADAM_STATE_BYTES  8.0
#define ADAM8_STATE_BYTES 2.0
/* LoRA adapters train in fp32 with Adam: 4 + 4 + 8 bytes/param (PEFT). */
#define LORA_BYTES_PER_PARAM 16.0
#define LORA_DEFAULT_RANK    16
/* Quantised weights: int8 keeps one fp16 scale per 128 weights; int4
 * (GPTQ/AWQ/NF4-style) one fp16 scale and one fp16 zero per 128. */
#define QUANT_GROUP 128.0
/* CUDA context + cuBLAS/cuDNN workspaces: ~1.3 GB under nvidia-smi in the
 * calibration notes; allocator fragmentation adds ~5 % of the rest. */
#define RUNTIME_OVERHEAD_GIB 1.0
#define FRAGMENTATION        0.05
/* Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large
 * Transformer Models", eq. 2): 16-bit activations per layer =
 * s*b*h*(34 + 5*a*s/h) bytes without recomputation. FlashAttention never
 * materialises the a*s*s scores, so decoders drop the second term. */
#define ACT_BYTES_PER_SBH 34.0
#define ACT_ATTN_SCORES   5.0
/* CNN time = convolution FLOPs at U_CNN_TC + element-wise traffic at
 * U_BW, added (BN/ReLU kernels run between the convolutions, not under
 * them). Training traffic = 10 passes over the saved activations (forward
 * write, BN statistics and normalise reads, backward reads, gradient
 * writes and reads); inference = 2.5 passes over the feature maps. */
#define CNN_TRAIN_TRAFFIC 10.0
#define CNN_INFER_TRAFFIC 2.5
/* Checkpointing a CNN/diffusion net in sqrt(n) segments keeps ~1/4. */
#define CNN_CKPT_KEEP 0.25
/* Achieved fractions of datasheet peak (calibrated on many rows of
 * tests/fixtures/calibration.json; docs/estimation.md "Utilisation"). A
 * GEMM of width h reaches U x h / (h + U_HIDDEN_HALF) of peak. */
#define U_TRAIN       0.56   /* transformer training (BERT DLE, Megatron) */
#define U_INFER       0.60   /* prefill / encoder inference (TensorRT-LLM) */
#define U_HIDDEN_HALF 1024.0 /* width at which GEMMs reach half of U */
#define U_FP32        0.65   /* CUDA-core fp32 saturates at small sizes */
#define U_CNN_TC      0.55   /* convolutions on tensor cores (cuDNN) */
#define U_BW          0.70   /* achieved / peak HBM bandwidth (gpt-fast) */
#define U_FP8         0.85   /* fp8 gains ~1.7x, not 2x, over bf16 */
#define U_QLORA       0.75   /* NF4 dequantisation cost in QLoRA */
#define U_CPU         0.40   /* oneDNN GEMM on host cores */
#define U_NEURON      0.80   /* Neuron SDK vs NVIDIA stack (assumption) */
#define U_POWER_LIMITED                                                        \
    0.60 /* <= 75 W parts (T4, L4) cannot hold boost                           \
            clocks under sustained tensor load */
#define POWER_LIMITED_W 75.0
/* Eager-framework dispatch cost per forward call of a non-LLM model: the
 * batch-1 DLE rows (ResNet-50, BERT) all sit at 4-6 ms while their FLOPs
 * need < 0.5 ms. */
#define FRAMEWORK_OVERHEAD_S 0.004
/* Host CPU: 40 GFLOPS fp32 per vCPU (AVX-512 or 2x256-bit FMA at ~2.5
 * GHz, per hyperthread), x2 for bf16/fp16, x4 for int8 (VNNI); 1.5 GB/s
 * of sustained (STREAM-like) DRAM bandwidth per vCPU, e.g. ~290 GB/s for
 * a 192-vCPU two-socket host. */
#define CPU_GFLOPS_PER_VCPU   40.0
#define CPU_GBYTES_S_PER_VCPU 1.5
#define CPU_OS_RESERVE_GIB    4.0
/* Collective latency per ring hop (NCCL small-message): NVLink/NVSwitch,
 * PCIe, NeuronLink, EFA, plain TCP. */
#define ALPHA_NVLINK 2e-6
#define ALPHA_PCIE   10e-6
#define ALPHA_NEURON 5e-6
#define ALPHA_EFA    15e-6
#define ALPHA_TCP    50e-6
/* Default per-device link bandwidths when the catalog has 0 (GB/s). */
#define LINK_PCIE_GBYTES_S     16.0
#define LINK_NVLINK_GBYTES_S   150.0
#define LINK_NVSWITCH_GBYTES_S 300.0
#define LINK_NEURON_GBYTES_S   100.0
#define LINK_OTHER_GBYTES_S    50.0

/* Per interconnect: the bandwidth used when the catalog gives none, and
 * the per-message latency (alpha) of a collective step. */
static const struct {
    double gbytes_s;
    double alpha_s;
} link_defaults[] = {
    [ECF_LINK_NONE] = {LINK_PCIE_GBYTES_S, ALPHA_PCIE},
    [ECF_LINK_PCIE] = {LINK_PCIE_GBYTES_S, ALPHA_PCIE},
    [ECF_LINK_NVLINK] = {LINK_NVLINK_GBYTES_S, ALPHA_NVLINK},
    [ECF_LINK_NVSWITCH] = {LINK_NVSWITCH_GBYTES_S, ALPHA_NVLINK},
    [ECF_LINK_NEURONLINK] = {LINK_NEURON_GBYTES_S, ALPHA_NEURON},
    [ECF_LINK_OTHER] = {LINK_OTHER_GBYTES_S, ALPHA_PCIE},
};
#define LINK_EFFICIENCY        0.7 /* bus bandwidth / link bandwidth */
#define NET_EFFICIENCY         0.8
/* Fraction of gradient communication hidden behind the backward pass. */
#define COMM_OVERLAP 0.8
/* Input pipeline: JPEG decode + augmentation ~150 images/s per vCPU
 * (PIL-SIMD class); instance-store NVMe ~2 GB/s per TB (AWS NVMe specs). */
#define DECODE_IMAGES_PER_VCPU 150.0
#define NVME_GBYTES_S_PER_TB   2.0
#define HOST_RESERVE_GIB       8.0
#define HOST_PER_DEVICE_GIB    2.0
/* Serving defaults. */
#define DEFAULT_INPUT_TOKENS  512
#define DEFAULT_OUTPUT_TOKENS 256
#define SPEECH_OUTPUT_TOKENS  100
#define MAX_AUTO_BATCH        512
/* Online serving without --latency-ms batches requests (continuous
 * batching in vLLM/TGI, dynamic batching in Triton) up to the knee of the
 * roofline: the largest power-of-two batch whose latency stays within this
 * factor of a lone request's. Past the knee, throughput barely grows while
 * every request waits longer. */
#define SERVE_KNEE_LATENCY    2.0

/* ================================================================ */
/* Names                                                             */
/* ================================================================ */

static const char *const task_names[ECF_TASK_COUNT] = {
    "train", "finetune", "lora", "qlora", "infer", "batch"};

const char *ecf_task_name(ecf_task t)
{
    return (unsigned)t < ECF_TASK_COUNT ? task_names[t] : "unknown";
}

int ecf_task_parse(const char *s)
{
    int i;
    for (i = 0; i < ECF_TASK_COUNT; i++)
        if (strcmp(s, task_names[i]) == 0)
            return i;
    return -1;
}

bool ecf_task_is_training(ecf_task t)
{
    return t == ECF_TASK_TRAIN || t == ECF_TASK_FINETUNE ||
           t == ECF_TASK_LORA || t == ECF_TASK_QLORA;
}

const char *ecf_parallelism_name(ecf_parallelism p)
{
    static const char *const names[ECF_PAR_COUNT] = {
        "single", "dp", "fsdp", "tp", "tp+dp", "tp+pp", "tp+fsdp"};
    return (unsigned)p < ECF_PAR_COUNT ? names[p] : "unknown";
}

const char *ecf_bottleneck_name(ecf_bottleneck b)
{
    static const char *const names[ECF_BN_COUNT] = {
        "compute", "memory-bandwidth", "communication",
        "data",    "host-memory",      "device-memory"};
    return (unsigned)b < ECF_BN_COUNT ? names[b] : "unknown";
}

/* ================================================================ */
/* Workload resolution                                               */
/* ================================================================ */

static bool is_llm(const ecf_model *m)
{
    return ecf_model_kind_is_llm(m->kind);
}

static bool is_vision(const ecf_model *m)
{
    return m->kind == ECF_KIND_CNN || m->kind == ECF_KIND_VIT ||
           m->kind == ECF_KIND_DIFFUSION;
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
                                  ? 4.0 * w->seq_len
                                  : m->input_bytes_per_sample;
    if (w->dataset_amount < 0 || !isfinite(w->dataset_amount))
        return ecf_err_set(err, ECF_EINVAL, "--dataset: must be positive");
    w->dataset_samples = 0;
    if (w->dataset_amount > 0) {
        ecf_dataset_unit u = w->dataset_unit;
        double tokens_per_sample =
            is_llm(m) && !training ? (double)w->input_tokens + w->output_tokens
                                   : (double)(w->seq_len > 0 ? w->seq_len : 1);
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
    if (w->tensor_parallel < 0 || w->tensor_parallel > 1024 ||
        (w->tensor_parallel & (w->tensor_parallel - 1)) != 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "--tensor-parallel: expected a power of two from "
                           "1 to 1024, got %d",
                           w->tensor_parallel);
    if (w->tensor_parallel > 0 && w->task != ECF_TASK_INFER)
        return ecf_err_set(err, ECF_EINVAL,
                           "--tensor-parallel: only for --task infer (jobs "
                           "choose their sharding)");
    if (w->latency_target_ms < 0 || w->qps < 0)
        return ecf_err_set(err, ECF_EINVAL, "%s: must be positive",
                           w->qps < 0 ? "--qps" : "--latency-ms");
    w->resolved = true;
    return 0;
}

/* ================================================================ */
/* Devices                                                           */
/* ================================================================ */

typedef enum {
    GEN_CPU,
    GEN_OLD, /* kepler, maxwell, pascal: no tensor cores */
    GEN_VOLTA,
    GEN_TURING,
    GEN_AMPERE,
    GEN_ADA,
    GEN_HOPPER,
    GEN_BLACKWELL,
    GEN_NEURON,
    GEN_OTHER
} gen_class;

typedef struct {
    bool cpu;
    gen_class gen;
    const char *label;    /* accelerator name or "host CPU" */
    int count;            /* devices per node */
    double mem_gib;       /* usable per device */
    double bw_gbytes_s;   /* memory bandwidth per device */
    double link_gbytes_s; /* intra-node, per device */
    double alpha_link;    /* per-hop latency, s */
    double net_gbytes_s;  /* inter-node, per node */
    double alpha_net;
    bool power_limited; /* TDP <= POWER_LIMITED_W */
} devinfo;

static bool has_word(const char *s, const char *w)
{
    return s && strstr(s, w) != NULL;
}

static gen_class classify(const ecf_accel *a)
{
    const char *g = a->generation;
    if (a->kind == ECF_ACCEL_NEURON || has_word(g, "neuron"))
        return GEN_NEURON;
    if (a->kind == ECF_ACCEL_OTHER)
        return GEN_OTHER;
    if (has_word(g, "volta"))
        return GEN_VOLTA;
    if (has_word(g, "turing"))
        return GEN_TURING;
    if (has_word(g, "ampere"))
        return GEN_AMPERE;
    if (has_word(g, "ada"))
        return GEN_ADA;
    if (has_word(g, "hopper"))
        return GEN_HOPPER;
    if (has_word(g, "blackwell"))
        return GEN_BLACKWELL;
    if (has_word(g, "kepler") || has_word(g, "maxwell") ||
        has_word(g, "pascal"))
        return GEN_OLD;
    return GEN_OTHER;
}

static void describe(devinfo *d, const ecf_instance *inst)
{
    memset(d, 0, sizeof(*d));
    if (!inst->accel || inst->accel_count < 1) {
        d->cpu = true;
        d->gen = GEN_CPU;
        d->label = "host CPU";
        d->count = 1;
        d->mem_gib = inst->memory_gib - CPU_OS_RESERVE_GIB;
        if (d->mem_gib < 0.5)
            d->mem_gib = 0.5;
        d->bw_gbytes_s = inst->vcpu * CPU_GBYTES_S_PER_VCPU;
        d->link_gbytes_s = 0;
        d->alpha_link = 0;
    } else {
        const ecf_accel *a = inst->accel;
        d->gen = classify(a);
        d->label = a->name ? a->name : a->id;
        d->count = inst->accel_count;
        d->mem_gib = inst->accel_memory_gib > 0 ? inst->accel_memory_gib
                                                : a->memory_gb * 1e9 / GIB;
        d->bw_gbytes_s =
            a->memory_bw_gbytes_s > 0 ? a->memory_bw_gbytes_s : 300.0;
        d->power_limited = a->tdp_w > 0 && a->tdp_w <= POWER_LIMITED_W;
        d->link_gbytes_s = inst->link_gbytes_s;
        {
            /* PCIe (and a lone device) always take the PCIe figure: the
             * catalog publishes no PCIe bandwidth. */
            unsigned l = (unsigned)inst->link <= ECF_LINK_OTHER
                             ? (unsigned)inst->link
                             : (unsigned)ECF_LINK_PCIE;
            d->alpha_link = link_defaults[l].alpha_s;
            if (l == ECF_LINK_NONE || l == ECF_LINK_PCIE ||
                d->link_gbytes_s <= 0)
                d->link_gbytes_s = link_defaults[l].gbytes_s;
        }
    }
    if (inst->efa && inst->efa_gbps > 0) {
        d->net_gbytes_s = inst->efa_gbps / 8.0;
        d->alpha_net = ALPHA_EFA;
    } else {
        d->net_gbytes_s =
            (inst->network_gbps > 0 ? inst->network_gbps : 1.0) / 8.0;
        d->alpha_net = ALPHA_TCP;
    }
}

static double cpu_precision_factor(ecf_precision p)
{
    switch (p) {
    case ECF_PREC_FP16:
    case ECF_PREC_BF16:
    case ECF_PREC_FP8:
        return 2.0;
    case ECF_PREC_INT8:
    case ECF_PREC_INT4:
        return 4.0;
    default:
        return 1.0;
    }
}

double ecf_estimate_peak_tflops(const ecf_instance *inst,
                                ecf_precision p,
                                ecf_precision *ran_out)
{
    /* Fallback chains: what a framework actually runs when the hardware
     * lacks the requested format. */
    static const ecf_precision chain[ECF_PREC_COUNT][4] = {
        [ECF_PREC_FP32] = {ECF_PREC_FP32, ECF_PREC_FP32, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_TF32] = {ECF_PREC_TF32, ECF_PREC_FP32, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_FP16] = {ECF_PREC_FP16, ECF_PREC_BF16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_BF16] = {ECF_PREC_BF16, ECF_PREC_FP16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
        [ECF_PREC_FP8] = {ECF_PREC_FP8, ECF_PREC_BF16, ECF_PREC_FP16,
                          ECF_PREC_FP32},
        [ECF_PREC_INT8] = {ECF_PREC_INT8, ECF_PREC_FP16, ECF_PREC_BF16,
                           ECF_PREC_FP32},
        /* int4 is weight-only quantisation: compute in 16-bit */
        [ECF_PREC_INT4] = {ECF_PREC_FP16, ECF_PREC_BF16, ECF_PREC_FP32,
                           ECF_PREC_FP32},
    };
    size_t i;

    if ((unsigned)p >= ECF_PREC_COUNT)
        p = ECF_PREC_FP32;
    if (!inst->accel || inst->accel_count < 1) {
        if (ran_out)
            *ran_out = p == ECF_PREC_TF32 ? ECF_PREC_FP32 : p;
        return inst->vcpu * CPU_GFLOPS_PER_VCPU * cpu_precision_factor(p) /
               1000.0;
    }
    for (i = 0; i < 4; i++) {
        double t = inst->accel->tflops[chain[p][i]];
        if (t > 0) {
            if (ran_out)
                *ran_out = chain[p][i];
            return t;
        }
    }
    if (ran_out)
        *ran_out = p;
    return 0;
}

double ecf_estimate_weight_bytes(ecf_precision p)
{
    switch (p) {
    case ECF_PREC_FP32:
    case ECF_PREC_TF32:
        return 4.0;
    case ECF_PREC_FP8:
        return 1.0;
    case ECF_PREC_INT8:
        return 1.0 + 2.0 / QUANT_GROUP;
    case ECF_PREC_INT4:
        return 0.5 + 4.0 / QUANT_GROUP;
    case ECF_PREC_FP16:
    case ECF_PREC_BF16:
    default:
        return 2.0;
    }
}

/* ================================================================ */
/* Notes                                                             */
/* ================================================================ */

static void
note(char (*arr)[ECF_EST_NOTE_LEN], int *n, const char *fmt, va_list ap)
    ECF_PRINTF(3, 0);

static void
note(char (*arr)[ECF_EST_NOTE_LEN], int *n, const char *fmt, va_list ap)
{
    if (*n >= ECF_EST_MAX_NOTES)
        return;
    vsnprintf(arr[*n], ECF_EST_NOTE_LEN, fmt, ap);
    (*n)++;
}

static void warn(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);
static void warn(ecf_estimate *e, const char *fmt, ...)
{
    va_list ap;
    if (e->quiet)
        return;
    va_start(ap, fmt);
    note(e->warnings, &e->n_warnings, fmt, ap);
    va_end(ap);
}

static void assume(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);
static void assume(ecf_estimate *e, const char *fmt, ...)
{
    va_list ap;
    if (e->quiet)
        return;
    va_start(ap, fmt);
    note(e->assumptions, &e->n_assumptions, fmt, ap);
    va_end(ap);
}

/* ================================================================ */
/* Model arithmetic                                                  */
/* ================================================================ */

/* Parameters that take part in matrix multiplies per token: everything
 * but the input embedding lookup (and learned positions); the LM head is a
 * GEMM, so a tied embedding counts once. Encoders have no LM head at
 * fine-tune/inference time. */
static double matmul_params(const ecf_model *m)
{
    double emb = (double)m->vocab * m->hidden;
    double n = m->active_params;
    if (m->kind == ECF_KIND_ENCODER)
        n -= emb;
    else if (!m->tie_embeddings)
        n -= emb;
    return n > 0 ? n : m->active_params;
}

/* Forward FLOPs for one sample of `seq` tokens (2 FLOPs per MAC):
 * 2 x matmul params x tokens + attention scores and mixing, 4 x L x s x h
 * per token (halved for causal decoders that skip the masked half). */
static double fwd_flops_sample(const ecf_model *m, int seq)
{
    double attn;
    if (!ecf_model_kind_is_transformer(m->kind) || m->kind == ECF_KIND_VIT ||
        m->kind == ECF_KIND_SPEECH)
        return m->fwd_gflops_per_sample * 1e9;
    attn = 4.0 * m->layers * (double)seq * m->heads * m->head_dim;
    if (is_llm(m))
        attn *= 0.5;
    return (2.0 * matmul_params(m) + attn) * seq;
}

/* LoRA adapter parameters: rank r on q, k, v, o and every MLP matrix
 * (PEFT "all-linear"); r x (d_in + d_out) each. */
static double lora_params(const ecf_model *m, int r)
{
    double h = m->hidden, q = (double)m->heads * m->head_dim,
           kv = (double)m->kv_heads * m->head_dim, I = m->intermediate;
    double per_layer, mlp;
    if (m->kind == ECF_KIND_DIFFUSION || m->layers == 0)
        return m->params * r * 2e-4; /* attention-only UNet LoRA, ~0.08%
                                        of weights at r = 4 */
    mlp = (m->kind == ECF_KIND_DECODER || m->kind == ECF_KIND_MOE ? 3.0 : 2.0) *
          (h + I);
    if (m->experts > 0)
        mlp *= m->experts;
    per_layer = (h + q) + 2.0 * (h + kv) + (q + h) + mlp;
    return r * per_layer * m->layers;
}

/* Training activations per sample per device, bytes, for transformers. */
static double
tf_act_bytes(const ecf_model *m, int seq, bool ckpt, double act_scale, int tp)
{
    double s = seq, h = m->hidden, a = m->heads;
    double per_layer = s * h * ACT_BYTES_PER_SBH;
    double logits = 0;
    if (!is_llm(m))
        per_layer += ACT_ATTN_SCORES * a * s * s;
    per_layer *= act_scale / tp;
    if (is_llm(m))
        logits = s * m->vocab * 4.0 / tp; /* fp32 logits for the loss */
    /* Full recomputation keeps each layer's 16-bit input (2*s*h bytes)
     * plus one layer's full set during its recompute. */
    if (ckpt)
        return m->layers * 2.0 * s * h * act_scale / tp + per_layer + logits;
    return m->layers * per_layer + logits;
}

/* Bytes of K and V per token of context, whole model. */
static double kv_bytes_per_token(const ecf_model *m, double kv_elem)
{
    if (!is_llm(m))
        return 0;
    return 2.0 * m->layers * m->kv_heads * (double)m->head_dim * kv_elem;
}

/* ================================================================ */
/* Utilisation                                                       */
/* ================================================================ */

static bool tensor_precision(ecf_precision p)
{
    return p != ECF_PREC_FP32;
}

static double device_factor(const devinfo *d, ecf_precision p)
{
    double f = 1.0;
    if (p == ECF_PREC_FP8)
        f *= U_FP8;
    if (d->gen == GEN_NEURON || d->gen == GEN_OTHER)
        f *= U_NEURON;
    if (d->power_limited)
        f *= U_POWER_LIMITED;
    return f;
}

/* Achieved fraction of peak for GEMM-dominated work of width h, with
 * ceiling `base` (U_TRAIN or U_INFER): saturating in the width. */
static double u_gemm(const devinfo *d, ecf_precision p, double base, double h)
{
    if (d->cpu)
        return U_CPU;
    if (h < 1)
        h = U_HIDDEN_HALF;
    if (!tensor_precision(p) || d->gen == GEN_OLD)
        return U_FP32;
    return base * h / (h + U_HIDDEN_HALF) * device_factor(d, p);
}

static double u_conv(const devinfo *d, ecf_precision p)
{
    if (d->cpu)
        return U_CPU;
    if (!tensor_precision(p) || d->gen == GEN_OLD)
        return U_FP32;
    return U_CNN_TC * device_factor(d, p);
}

/* ================================================================ */
/* Memory plans                                                      */
/* ================================================================ */

typedef struct {
    ecf_parallelism par;
    int tp, dp, pp;
    bool ckpt;
    int batch;
} plan;

static void sum_memory(ecf_memory *mem, double avail)
{
    double parts = mem->weights_gib + mem->gradients_gib + mem->optimizer_gib +
                   mem->activations_gib + mem->kv_cache_gib + mem->lora_gib;
    mem->overhead_gib = RUNTIME_OVERHEAD_GIB + FRAGMENTATION * parts;
    mem->total_per_device_gib = parts + mem->overhead_gib;
    mem->available_per_device_gib = avail;
}

/* Memory per device for a training plan. `total_devices` = dp x tp. */
static void train_memory(ecf_memory *mem,
                         const ecf_model *m,
                         const ecf_workload *w,
                         ecf_precision p,
                         const plan *pl,
                         const devinfo *d)
{
    double P = m->params, shard = 1, wb, act_scale;
    int n = pl->tp * pl->dp;

    memset(mem, 0, sizeof(*mem));
    wb = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0;
    act_scale = wb / 2.0;
    if (pl->par == ECF_PAR_FSDP || pl->par == ECF_PAR_TP_FSDP)
        shard = n;
    else if (pl->par == ECF_PAR_TP || pl->par == ECF_PAR_TP_DP)
        shard = pl->tp;
    if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA) {
        double base = w->task == ECF_TASK_QLORA
                          ? ecf_estimate_weight_bytes(ECF_PREC_INT4)
                          : wb;
        mem->weights_gib = P * base / shard / GIB;
        mem->lora_gib =
            lora_params(m, w->lora_rank) * LORA_BYTES_PER_PARAM / shard / GIB;
    } else {
        mem->weights_gib = P * wb / shard / GIB;
        mem->gradients_gib = P * wb / shard / GIB;
        if (wb == 4.0)
            mem->optimizer_gib =
                P * (w->optimizer_8bit ? ADAM8_STATE_BYTES : ADAM_STATE_BYTES) /
                shard / GIB;
        else
            mem->optimizer_gib =
                P *
                (ADAM_MASTER_BYTES +
                 (w->optimizer_8bit ? ADAM8_STATE_BYTES : ADAM_STATE_BYTES)) /
                shard / GIB;
    }
    if (ecf_model_kind_is_transformer(m->kind))
        mem->activations_gib =
            pl->batch *
            tf_act_bytes(m, w->seq_len, pl->ckpt, act_scale, pl->tp) / GIB;
    else
        mem->activations_gib = pl->batch * m->act_mib_per_sample * act_scale *
                               (pl->ckpt ? CNN_CKPT_KEEP : 1.0) / 1024.0;
    sum_memory(mem, d->mem_gib);
}

/* Memory per device for an inference plan (tp devices per replica, pp
 * nodes per replica). */
static void infer_memory(ecf_memory *mem,
                         const ecf_model *m,
                         const ecf_workload *w,
                         ecf_precision p,
                         const plan *pl,
                         const devinfo *d)
{
    double wb = ecf_estimate_weight_bytes(p);
    double kv_elem = p == ECF_PREC_FP8 ? 1.0 : 2.0;
    double split = (double)pl->tp * pl->pp;
    double act_elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;
    int kv_split = pl->tp < m->kv_heads ? pl->tp : m->kv_heads;

    memset(mem, 0, sizeof(*mem));
    if (kv_split < 1)
        kv_split = 1;
    mem->weights_gib = m->params * wb / split / GIB;
    if (is_llm(m)) {
        double ctx = (double)w->input_tokens + w->output_tokens;
        mem->kv_cache_gib = kv_bytes_per_token(m, kv_elem) * ctx * pl->batch /
                            kv_split / pl->pp / GIB;
        /* prefill workspace: hidden states and MLP intermediates of one
         * layer for the whole prompt, plus last-token fp32 logits */
        mem->activations_gib =
            pl->batch * (double)w->input_tokens *
                (4.0 * m->hidden + 2.0 * m->intermediate / pl->tp) * 2.0 *
                act_elem / GIB +
            pl->batch * (double)m->vocab * 4.0 / GIB;
    } else if (ecf_model_kind_is_transformer(m->kind)) {
        /* two layers' activations live at a time */
        mem->activations_gib =
            pl->batch * 2.0 *
            (w->seq_len * (double)m->hidden * ACT_BYTES_PER_SBH +
             ACT_ATTN_SCORES * m->heads * (double)w->seq_len * w->seq_len) *
            act_elem / GIB;
    } else {
        double mult = m->kind == ECF_KIND_DIFFUSION ? 2.0 : 1.0; /* CFG */
        /* a few feature maps live at once: 10% of the training set */
        mem->activations_gib =
            pl->batch * mult * m->act_mib_per_sample * 0.1 * act_elem / 1024.0;
    }
    sum_memory(mem, d->mem_gib);
}

static bool fits(const ecf_memory *mem)
{
    return mem->total_per_device_gib <= mem->available_per_device_gib;
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
        else
            total = m->params * (w->optimizer_8bit ? 10.0 : 16.0);
    } else {
        total = m->params * ecf_estimate_weight_bytes(
                                (ecf_precision)(w->precision == ECF_PREC_AUTO
                                                    ? ECF_PREC_BF16
                                                    : w->precision));
        if (is_llm(m))
            total += kv_bytes_per_token(m, 2.0) *
                     ((double)w->input_tokens + w->output_tokens);
    }
    return total / GIB;
}

/* ================================================================ */
/* Communication                                                     */
/* ================================================================ */

/* Ring all-reduce of `bytes` over n participants at `gbytes_s` each:
 * 2(n-1)/n x bytes / bandwidth + 2(n-1) x alpha. */
static double
allreduce_s(double bytes, int n, double gbytes_s, double alpha, double eff)
{
    if (n <= 1 || gbytes_s <= 0)
        return 0;
    return 2.0 * (n - 1) / n * bytes / (gbytes_s * 1e9 * eff) +
           2.0 * (n - 1) * alpha;
}

/* Gradient sync time for `bytes` over dp devices spread across nodes:
 * intra-node ring over the device link, then inter-node ring over the
 * node's network (hierarchical all-reduce). */
static double
grad_sync_s(double bytes, int per_node, int nodes, const devinfo *d)
{
    double t = allreduce_s(bytes, per_node, d->link_gbytes_s, d->alpha_link,
                           LINK_EFFICIENCY);
    if (nodes > 1)
        t += allreduce_s(bytes, nodes, d->net_gbytes_s, d->alpha_net,
                         NET_EFFICIENCY);
    return t;
}

/* ================================================================ */
/* Data and host                                                     */
/* ================================================================ */

static void data_and_host(ecf_estimate *e,
                          const ecf_model *m,
                          const ecf_workload *w,
                          const ecf_instance *inst,
                          const devinfo *d,
                          int nodes)
{
    double per_node_sps = e->samples_per_s / nodes;
    double need = per_node_sps * w->bytes_per_sample / 1e6; /* MB/s */
    double nvme = inst->nvme_gb / 1000.0 * NVME_GBYTES_S_PER_TB * 1000.0;
    double ebs = inst->ebs_gbps / 8.0 * 1000.0;
    double net = inst->network_gbps / 8.0 * 1000.0;
    double dataset_gb = w->dataset_samples * w->bytes_per_sample / 1e9;
    double best = net;
    const char *src = "network";

    /* The dataset streams from the fastest place that can hold it: local
     * NVMe when it fits, else EBS or the network (S3). */
    if (ebs > best) {
        best = ebs;
        src = "ebs";
    }
    if (nvme > best && (dataset_gb == 0 || dataset_gb <= inst->nvme_gb)) {
        best = nvme;
        src = "nvme";
    }
    e->data_rate_required_mbytes_s = need;
    e->data_rate_available_mbytes_s = best;
    e->data_source = src;
    if (need > best && best > 0 && w->task != ECF_TASK_INFER) {
        double slow = need / best;
        warn(e,
             "input pipeline needs %.0f MB/s per node but %s gives ~%.0f "
             "MB/s: data-bound, %.1fx slower",
             need, src, best, slow);
        e->step_time_s *= slow;
        e->samples_per_s /= slow;
        e->tokens_per_s /= slow;
        e->throughput /= slow;
        e->data_s = e->step_time_s;
        e->bottleneck = ECF_BN_DATA;
    }
    /* JPEG decode + augmentation on host cores. */
    e->vcpus_per_accel = (double)inst->vcpu / d->count;
    if (is_vision(m) && m->kind != ECF_KIND_DIFFUSION &&
        w->task != ECF_TASK_INFER) {
        e->vcpus_per_accel_needed =
            e->samples_per_s / nodes / d->count / DECODE_IMAGES_PER_VCPU;
        if (e->vcpus_per_accel_needed > e->vcpus_per_accel)
            warn(e,
                 "decoding %.0f images/s per device needs ~%.1f vCPUs each "
                 "at %.0f images/s/vCPU; the instance has %.1f (use "
                 "GPU decoding such as DALI)",
                 e->samples_per_s / nodes / d->count, e->vcpus_per_accel_needed,
                 DECODE_IMAGES_PER_VCPU, e->vcpus_per_accel);
    }
    /* Host RAM: a copy of this node's weights while loading, pinned
     * buffers per device, and the OS/framework. */
    e->host_ram_available_gib = inst->memory_gib;
    if (d->cpu)
        e->host_ram_needed_gib =
            e->memory.total_per_device_gib + CPU_OS_RESERVE_GIB;
    else
        e->host_ram_needed_gib = e->memory.weights_gib * e->devices +
                                 HOST_PER_DEVICE_GIB * e->devices +
                                 HOST_RESERVE_GIB;
    /* Below the need it is a warning (safetensors are memory-mapped, so
     * loading still works, slowly); below half of it, checkpoint loading
     * and pinned staging swap, and the host is the bottleneck. */
    if (!d->cpu && e->host_ram_needed_gib > e->host_ram_available_gib) {
        warn(e,
             "host RAM %.0f GiB is below the ~%.0f GiB needed to stage "
             "weights and pinned buffers",
             e->host_ram_available_gib, e->host_ram_needed_gib);
        if (e->host_ram_available_gib < 0.5 * e->host_ram_needed_gib &&
            e->bottleneck != ECF_BN_DATA)
            e->bottleneck = ECF_BN_HOST_MEMORY;
    }
}

/* ================================================================ */
/* Training                                                          */
/* ================================================================ */

static int pick_train_plan(plan *out,
                           ecf_memory *mem,
                           const ecf_model *m,
                           const ecf_workload *w,
                           ecf_precision p,
                           const devinfo *d,
                           int nodes)
{
    /* Ladder, cheapest first: replicate (DP); shard weights, grads and
     * optimizer (FSDP); then recompute activations; then tensor parallel
     * inside the node. Without an explicit batch, halve it last. */
    int n = d->count * nodes;
    int batch = w->batch_size;
    const ecf_parallelism pars[] = {ECF_PAR_DP, ECF_PAR_FSDP, ECF_PAR_TP_FSDP};
    size_t i;
    int c;

    for (;;) {
        for (c = 0; c < 2; c++) {
            bool ckpt = c == 1;
            if (w->activation_checkpointing == ECF_CKPT_ON && !ckpt)
                continue;
            if (w->activation_checkpointing == ECF_CKPT_OFF && ckpt)
                continue;
            for (i = 0; i < sizeof(pars) / sizeof(pars[0]); i++) {
                plan pl = {pars[i], 1, n, 1, ckpt, batch};
                if (n == 1 && pars[i] != ECF_PAR_DP)
                    continue;
                if (pars[i] == ECF_PAR_TP_FSDP) {
                    if (!ecf_model_kind_is_transformer(m->kind) || d->count < 2)
                        continue;
                    pl.tp = d->count;
                    while (pl.tp > 1 && m->heads % pl.tp != 0)
                        pl.tp /= 2;
                    if (pl.tp < 2)
                        continue;
                    pl.dp = n / pl.tp;
                }
                train_memory(mem, m, w, p, &pl, d);
                if (fits(mem)) {
                    if (n == 1)
                        pl.par = ECF_PAR_SINGLE;
                    *out = pl;
                    return 1;
                }
            }
        }
        if (w->batch_explicit || batch <= 1)
            break;
        batch /= 2;
    }
    /* Nothing fits: report the most sharded attempt at the given batch. */
    {
        plan pl = {n > 1 ? ECF_PAR_FSDP : ECF_PAR_SINGLE,       1, n, 1,
                   w->activation_checkpointing != ECF_CKPT_OFF, 1};
        if (w->batch_explicit)
            pl.batch = w->batch_size;
        train_memory(mem, m, w, p, &pl, d);
        *out = pl;
    }
    return 0;
}

static void run_train(ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      int nodes,
                      ecf_precision p,
                      double peak)
{
    plan pl;
    double flops_sample, mult, u, comm_bytes, comm, tp_comm, exposed, mem_bytes;
    int n = d->count * nodes;
    bool tf = ecf_model_kind_is_transformer(m->kind);

    e->fits = pick_train_plan(&pl, &e->memory, m, w, p, d, nodes) == 1;
    e->parallelism = pl.par;
    e->tp_degree = pl.tp;
    e->dp_degree = pl.dp;
    e->pp_degree = 1;
    e->activation_checkpointing = pl.ckpt;
    e->batch_size = pl.batch;
    if (pl.batch != w->batch_size)
        warn(e, "batch lowered from %d to %d per device to fit memory",
             w->batch_size, pl.batch);

    /* FLOPs: forward + backward = 3x forward (6 x params x tokens for
     * transformers); recompute adds a forward (8x). LoRA skips weight
     * gradients: 2x forward (+1 with recompute). */
    if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
        mult = pl.ckpt ? 3.0 : 2.0;
    else
        mult = pl.ckpt ? 4.0 : 3.0;
    flops_sample = fwd_flops_sample(m, w->seq_len);
    if (m->kind == ECF_KIND_DIFFUSION || m->kind == ECF_KIND_CNN)
        flops_sample = m->fwd_gflops_per_sample * 1e9;
    e->samples_per_step = (double)pl.batch * pl.dp;
    e->flops_per_step = mult * flops_sample * e->samples_per_step;

    if (tf)
        u = u_gemm(d, p, U_TRAIN, m->hidden);
    else
        u = u_conv(d, p);
    if (w->task == ECF_TASK_QLORA)
        u *= U_QLORA;
    e->utilization = u;
    e->compute_s = peak > 0 ? e->flops_per_step / n / (peak * 1e12 * u) : 0;

    /* Memory traffic: CNN activations (roofline against bandwidth), plus
     * the optimizer step reading and writing every state byte once. */
    mem_bytes = (e->memory.weights_gib + e->memory.gradients_gib +
                 e->memory.optimizer_gib + e->memory.lora_gib) *
                GIB * 2.0;
    if (!tf)
        mem_bytes += e->memory.activations_gib * GIB * CNN_TRAIN_TRAFFIC;
    e->memory_s = mem_bytes / (d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW));

    /* Communication per step. */
    comm_bytes =
        (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            ? lora_params(m, w->lora_rank) * 4.0
            : m->params *
                  ((p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 4.0 : 2.0);
    /* Data-parallel traffic (gradient all-reduce, or FSDP's all-gathers
     * and reduce-scatter) overlaps the backward pass up to COMM_OVERLAP;
     * tensor-parallel all-reduces sit on the critical path. */
    comm = 0;
    tp_comm = 0;
    if (pl.par == ECF_PAR_DP || pl.par == ECF_PAR_SINGLE) {
        comm = grad_sync_s(comm_bytes, d->count, nodes, d);
    } else if (pl.par == ECF_PAR_FSDP) {
        /* all-gather (forward) + all-gather (backward) + reduce-scatter:
         * 3 x (n-1)/n x bytes = 1.5 x an all-reduce of the weights. */
        double wbytes = m->params * 2.0;
        if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            wbytes = wbytes / 1.5 + comm_bytes;
        comm = 1.5 * grad_sync_s(wbytes, d->count, nodes, d);
    } else if (pl.par == ECF_PAR_TP_FSDP) {
        /* TP spans the node; FSDP runs across nodes on each TP shard. */
        double wbytes = m->params * 2.0 / pl.tp;
        if (w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA)
            wbytes = wbytes / 1.5 + comm_bytes / pl.tp;
        comm = 1.5 * grad_sync_s(wbytes, 1, nodes, d);
    }
    if (pl.tp > 1) {
        /* Megatron TP: 4 all-reduces of b x s x h activations per layer
         * per step (2 forward, 2 backward). */
        double act = (double)pl.batch * w->seq_len * m->hidden * 2.0;
        tp_comm = 4.0 * m->layers *
                  allreduce_s(act, pl.tp, d->link_gbytes_s, d->alpha_link,
                              LINK_EFFICIENCY);
    }
    exposed = comm - COMM_OVERLAP * (2.0 / 3.0) * e->compute_s;
    if (exposed < 0)
        exposed = 0;
    exposed += tp_comm;
    e->comm_s = exposed;

    /* Convnets: element-wise traffic adds to convolution time; for
     * transformers the optimizer traffic is the only memory term and it
     * also runs after the backward pass. */
    e->step_time_s =
        tf ? (e->compute_s > e->memory_s ? e->compute_s : e->memory_s)
           : e->compute_s + e->memory_s;
    e->step_time_s += exposed;
    e->bottleneck =
        e->compute_s >= e->memory_s ? ECF_BN_COMPUTE : ECF_BN_MEMORY_BW;
    if (exposed > 0.25 * e->step_time_s)
        e->bottleneck = ECF_BN_COMMUNICATION;
    e->samples_per_s =
        e->step_time_s > 0 ? e->samples_per_step / e->step_time_s : 0;
    e->tokens_per_s =
        tf && m->kind != ECF_KIND_VIT ? e->samples_per_s * w->seq_len : 0;
    if (is_llm(m) || m->kind == ECF_KIND_ENCODER) {
        e->throughput = is_llm(m) ? e->tokens_per_s : e->samples_per_s;
        e->throughput_unit = is_llm(m) ? "tokens/s" : "samples/s";
    } else {
        e->throughput = e->samples_per_s;
        e->throughput_unit = is_vision(m) ? "images/s" : "samples/s";
    }
    if (w->dataset_samples > 0 && e->samples_per_s > 0) {
        e->time_samples_per_s = e->samples_per_s;
        e->time_hours =
            w->dataset_samples * w->epochs / e->samples_per_s / 3600.0;
    }
    assume(e,
           "%s training: %.0fx forward FLOPs per sample, %.0f%% of %.0f "
           "TFLOPS peak",
           w->task == ECF_TASK_LORA || w->task == ECF_TASK_QLORA ? "adapter"
                                                                 : "full",
           mult, u * 100.0, peak);
    if (w->task == ECF_TASK_TRAIN || w->task == ECF_TASK_FINETUNE)
        assume(e, "Adam, %s: %.0f bytes/param for weights+grads+optimizer",
               w->optimizer_8bit ? "8-bit states" : "mixed precision",
               (p == ECF_PREC_FP32 || p == ECF_PREC_TF32)
                   ? (w->optimizer_8bit ? 10.0 : 16.0)
                   : (w->optimizer_8bit ? 10.0 : 16.0));
    else
        assume(e, "LoRA rank %d on all linear layers: %.1fM adapter params",
               w->lora_rank, lora_params(m, w->lora_rank) / 1e6);
}

/* ================================================================ */
/* Inference                                                         */
/* ================================================================ */

typedef struct {
    double ttft_s, per_token_s, latency_s; /* one batch */
    double comm_s;
    bool mem_bound;
} infer_times;

static void llm_times(infer_times *t,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      ecf_precision p,
                      ecf_precision ran,
                      double peak,
                      const plan *pl,
                      double *u_out)
{
    double wb = ecf_estimate_weight_bytes(p);
    double kv_elem = p == ECF_PREC_FP8 ? 1.0 : 2.0;
    double split = (double)pl->tp * pl->pp;
    double b = pl->batch, s_in = w->input_tokens, s_out = w->output_tokens;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW);
    double u_pf, u_dec, flops, bytes, compute, memt, frac_experts = 1.0;
    double weights_dev, dense_params, expert_params, comm_layer;
    double ctx_avg = s_in + s_out / 2.0;

    (void)ran;
    /* Prefill: 2 x params x prompt tokens, GEMM-bound; weights are read
     * once. */
    u_pf = u_gemm(d, p, U_INFER, m->hidden);
    flops = b * fwd_flops_sample(m, (int)s_in);
    compute = peak > 0 ? flops / split / (peak * 1e12 * u_pf) : 0;
    weights_dev = m->params * wb / split;
    memt = weights_dev / bw;
    comm_layer = 2.0 * m->layers *
                 allreduce_s(b * s_in * m->hidden * 2.0, pl->tp,
                             d->link_gbytes_s, d->alpha_link, LINK_EFFICIENCY);
    t->ttft_s = (compute > memt ? compute : memt) + comm_layer;
    if (pl->pp > 1)
        t->ttft_s +=
            (pl->pp - 1) * (d->alpha_net + b * s_in * m->hidden * 2.0 /
                                               (d->net_gbytes_s * 1e9));
    /* Decode step: read the weights touched this step (MoE: the experts
     * any of the b tokens routes to) and the KV cache; FLOPs are
     * 2 x active params per token. A roofline: the slower of the two. */
    if (m->experts > 0) {
        double k = m->experts_per_tok, E = m->experts;
        frac_experts = 1.0 - pow(1.0 - k / E, b);
        dense_params = m->params - (m->params - m->active_params) * E / (E - k);
        if (dense_params < 0)
            dense_params = m->active_params * 0.2;
        expert_params = m->params - dense_params;
        weights_dev =
            (dense_params + expert_params * frac_experts) * wb / split;
    }
    bytes = weights_dev + kv_bytes_per_token(m, kv_elem) * ctx_avg * b / split;
    u_dec = u_gemm(d, p, U_INFER, m->hidden);
    flops = b * (2.0 * matmul_params(m) +
                 4.0 * m->layers * ctx_avg * m->heads * m->head_dim);
    compute = peak > 0 ? flops / split / (peak * 1e12 * u_dec) : 0;
    memt = bytes / bw;
    t->mem_bound = memt >= compute;
    comm_layer = 2.0 * m->layers *
                 allreduce_s(b * m->hidden * 2.0, pl->tp, d->link_gbytes_s,
                             d->alpha_link, LINK_EFFICIENCY);
    t->per_token_s = (memt > compute ? memt : compute) + comm_layer;
    if (pl->pp > 1)
        t->per_token_s += (pl->pp - 1) * d->alpha_net;
    t->comm_s = comm_layer;
    t->latency_s = t->ttft_s + s_out * t->per_token_s;
    *u_out = u_pf; /* GEMM efficiency; decode is a bandwidth roofline */
}

static void other_times(infer_times *t,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        double peak,
                        const plan *pl,
                        double *u_out)
{
    double b = pl->batch, flops, bytes, compute, memt, u;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW);
    double wb = ecf_estimate_weight_bytes(p);
    double act_elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;

    memset(t, 0, sizeof(*t));
    flops = b * fwd_flops_sample(m, w->seq_len);
    if (m->kind == ECF_KIND_DIFFUSION)
        flops *= 2.0 * m->diffusion_steps; /* classifier-free guidance */
    if (ecf_model_kind_is_transformer(m->kind))
        u = u_gemm(d, p, U_INFER, m->hidden);
    else
        u = u_conv(d, p);
    compute = peak > 0 ? flops / pl->tp / (peak * 1e12 * u) : 0;
    bytes = m->params * wb / pl->tp;
    if (!ecf_model_kind_is_transformer(m->kind))
        bytes +=
            b * m->act_mib_per_sample * 1048576.0 * act_elem *
            CNN_INFER_TRAFFIC *
            (m->kind == ECF_KIND_DIFFUSION ? 2.0 * m->diffusion_steps : 1.0);
    memt = bytes / bw;
    t->mem_bound = memt > compute;
    /* convnets: add (see CNN_INFER_TRAFFIC); transformers: roofline */
    if (ecf_model_kind_is_transformer(m->kind))
        t->latency_s = compute > memt ? compute : memt;
    else
        t->latency_s = compute + memt;
    t->latency_s += FRAMEWORK_OVERHEAD_S;
    if (m->kind == ECF_KIND_SPEECH) {
        /* autoregressive text decoder: ~60% of the weights read per
         * generated token */
        t->per_token_s = m->params * wb * 0.6 / pl->tp / bw;
        t->latency_s += w->output_tokens * t->per_token_s;
    }
    *u_out = u;
}

/* Largest power-of-two batch <= cap whose plan fits. */
static int fill_batch(const ecf_model *m,
                      const ecf_workload *w,
                      ecf_precision p,
                      plan *pl,
                      const devinfo *d,
                      int cap)
{
    ecf_memory mem;
    int b = 1, best = 0;
    while (b <= cap) {
        pl->batch = b;
        infer_memory(&mem, m, w, p, pl, d);
        if (!fits(&mem))
            break;
        best = b;
        b *= 2;
    }
    return best;
}

/* Times of one batch for either kind of model. */
static void serve_times(infer_times *t,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        ecf_precision ran,
                        double peak,
                        const plan *pl,
                        double *u)
{
    if (is_llm(m))
        llm_times(t, m, w, d, p, ran, peak, pl, u);
    else
        other_times(t, m, w, d, p, peak, pl, u);
}

/* Online serving: the batch (concurrent requests per replica) for `pl`.
 * With --latency-ms, the largest that meets it; without, the largest
 * within SERVE_KNEE_LATENCY x the batch-1 latency; an explicit
 * --batch-size is kept. Returns false when batch 1 does not fit. */
static bool serve_batch(plan *pl,
                        ecf_memory *mem_out,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        ecf_precision p,
                        ecf_precision ran,
                        double peak)
{
    infer_times t;
    double u = 0, limit = 0;
    int b, best = 0;

    if (w->batch_explicit) {
        infer_memory(mem_out, m, w, p, pl, d);
        return fits(mem_out);
    }
    {
        ecf_memory mem;
        plan trial = *pl;
        int lo = 0, hi = 0;
        trial.batch = 1;
        infer_memory(&mem, m, w, p, &trial, d);
        *mem_out = mem;
        if (!fits(&mem)) {
            pl->batch = 1;
            return false;
        }
        serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
        limit = w->latency_target_ms > 0 ? w->latency_target_ms / 1e3
                                         : SERVE_KNEE_LATENCY * t.latency_s;
        /* Memory and latency only grow with the batch (KV cache, prefill,
         * decode reads), so "fits and meets the limit" holds up to one
         * largest power of two: binary-search the exponents 1..log2(MAX)
         * instead of walking them (the scorer runs this for every type). */
        for (b = MAX_AUTO_BATCH; b > 1; b /= 2)
            hi++;
        hi++; /* exclusive bound: exponents lo (passes) .. hi - 1 */
        while (hi - lo > 1) {
            int mid = (lo + hi) / 2;
            trial.batch = 1 << mid;
            infer_memory(&mem, m, w, p, &trial, d);
            if (fits(&mem)) {
                serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
                if (t.latency_s <= limit) {
                    lo = mid;
                    *mem_out = mem;
                    continue;
                }
            }
            hi = mid;
        }
        best = 1 << lo;
    }
    pl->batch = best;
    return true;
}

static void run_infer(ecf_estimate *e,
                      const ecf_model *m,
                      const ecf_workload *w,
                      const devinfo *d,
                      int nodes,
                      ecf_precision p,
                      ecf_precision ran,
                      double peak)
{
    plan pl = {ECF_PAR_SINGLE, 1, 1, 1, false, w->batch_size};
    infer_times t;
    double u = 0;
    int tp, replicas;
    bool tf = ecf_model_kind_is_transformer(m->kind);
    bool found = false;

    /* One pass over the tensor-parallel group sizes (powers of two dividing
     * the heads and the device count) that hold the model.
     * - Online serving (infer): each group at its serving batch; keep the
     *   highest throughput among the groups that meet the latency target
     *   (the lowest latency when none does). Small models replicate.
     * - Offline batch jobs: LLMs fill memory with the batch and keep the
     *   highest throughput; other models take the smallest group that fits.
     * If a whole node cannot hold the model, the layers are pipelined
     * across nodes below. */
    {
        bool serving = w->task == ECF_TASK_INFER;
        double best_tput = -1, best_lat = 0;
        bool best_meets = false;
        plan best = pl;
        for (tp = 1; tp <= d->count; tp *= 2) {
            ecf_memory mem;
            plan trial = pl;
            double tput;
            bool meets = true, ok;
            if (tp > 1 && (!tf || m->heads % tp != 0 || d->count % tp != 0))
                continue;
            if (w->tensor_parallel > 0 && tp != w->tensor_parallel)
                continue;
            trial.tp = tp;
            if (serving) {
                ok = serve_batch(&trial, &mem, m, w, d, p, ran, peak);
            } else {
                infer_memory(&mem, m, w, p, &trial, d);
                ok = fits(&mem);
                if (ok && !w->batch_explicit && is_llm(m)) {
                    int b = fill_batch(m, w, p, &trial, d, MAX_AUTO_BATCH);
                    trial.batch = b > 0 ? b : 1;
                    infer_memory(&mem, m, w, p, &trial, d);
                }
            }
            if (!ok) {
                if (!found)
                    e->memory = mem;
                continue;
            }
            serve_times(&t, m, w, d, p, ran, peak, &trial, &u);
            tput = t.latency_s > 0
                       ? (double)(d->count / tp) * trial.batch / t.latency_s
                       : 0;
            if (serving)
                meets = w->latency_target_ms <= 0 ||
                        t.latency_s * 1e3 <= w->latency_target_ms;
            if (!found || (meets && !best_meets) ||
                (meets == best_meets &&
                 (meets ? tput > best_tput : t.latency_s < best_lat))) {
                best_tput = tput;
                best_lat = t.latency_s;
                best_meets = meets;
                best = trial;
                e->memory = mem;
            }
            found = true;
            if (!serving && !is_llm(m))
                break; /* smallest group that fits */
        }
        pl = best;
    }
    if (!found && tf && nodes > 1) {
        pl.tp = d->count;
        while (pl.tp > 1 && (m->heads % pl.tp != 0))
            pl.tp /= 2;
        pl.pp = nodes;
        infer_memory(&e->memory, m, w, p, &pl, d);
        found = fits(&e->memory);
        if (found && w->task == ECF_TASK_BATCH && !w->batch_explicit &&
            is_llm(m)) {
            int b = fill_batch(m, w, p, &pl, d, MAX_AUTO_BATCH);
            pl.batch = b > 0 ? b : 1;
            infer_memory(&e->memory, m, w, p, &pl, d);
        }
    }
    e->fits = found;
    e->batch_size = pl.batch;
    e->tp_degree = pl.tp;
    e->pp_degree = pl.pp;
    replicas = pl.pp > 1 ? 1 : (d->count / pl.tp) * nodes;
    e->replicas = replicas;
    e->dp_degree = replicas;
    if (pl.pp > 1)
        e->parallelism = ECF_PAR_TP_PP;
    else if (pl.tp > 1 && replicas > 1)
        e->parallelism = ECF_PAR_TP_DP;
    else if (pl.tp > 1)
        e->parallelism = ECF_PAR_TP;
    else if (replicas > 1)
        e->parallelism = ECF_PAR_DP;
    else
        e->parallelism = ECF_PAR_SINGLE;

    /* Serving pipelined across nodes: its batch too. */
    if (w->task == ECF_TASK_INFER && found && pl.pp > 1) {
        ecf_memory mem;
        if (serve_batch(&pl, &mem, m, w, d, p, ran, peak))
            e->memory = mem;
    }
    e->batch_size = pl.batch;

    if (is_llm(m)) {
        llm_times(&t, m, w, d, p, ran, peak, &pl, &u);
        e->ttft_ms = t.ttft_s * 1e3;
        e->per_token_ms = t.per_token_s * 1e3;
        e->tokens_per_s =
            t.latency_s > 0
                ? replicas * pl.batch * (double)w->output_tokens / t.latency_s
                : 0;
        e->throughput = e->tokens_per_s;
        e->throughput_unit = "tokens/s";
        assume(e,
               "decode reads the weights and KV cache each step at %.0f%% of "
               "%.0f GB/s; prefill at %.0f%% of peak",
               U_BW * 100, d->bw_gbytes_s,
               u_gemm(d, p, U_INFER, m->hidden) * 100);
        assume(e, "%d input + %d output tokens per request, batch %d",
               w->input_tokens, w->output_tokens, pl.batch);
    } else {
        other_times(&t, m, w, d, p, peak, &pl, &u);
        e->per_token_ms = t.per_token_s * 1e3;
        e->throughput_unit = is_vision(m) ? "images/s" : "samples/s";
        assume(e,
               "%.0f ms framework dispatch per forward (eager PyTorch/TF, "
               "no TensorRT)",
               FRAMEWORK_OVERHEAD_S * 1e3);
    }
    e->latency_ms = t.latency_s * 1e3;
    e->step_time_s = t.latency_s;
    e->comm_s = t.comm_s;
    e->utilization = u;
    e->samples_per_step = (double)pl.batch * replicas;
    e->samples_per_s = t.latency_s > 0 ? replicas * pl.batch / t.latency_s : 0;
    if (!is_llm(m))
        e->throughput = e->samples_per_s;
    e->max_qps_per_replica = t.latency_s > 0 ? pl.batch / t.latency_s : 0;
    e->bottleneck = t.mem_bound ? ECF_BN_MEMORY_BW : ECF_BN_COMPUTE;
    if (t.comm_s > 0.25 * (t.per_token_s > 0 ? t.per_token_s : t.latency_s))
        e->bottleneck = ECF_BN_COMMUNICATION;
    if (w->dataset_samples > 0 && e->samples_per_s > 0) {
        e->time_samples_per_s = e->samples_per_s;
        e->time_hours =
            w->dataset_samples * w->epochs / e->samples_per_s / 3600.0;
    }
    if (w->latency_target_ms > 0 && e->latency_ms > w->latency_target_ms)
        warn(e, "latency %.0f ms exceeds the %.0f ms target", e->latency_ms,
             w->latency_target_ms);
    if (w->qps > 0 && e->max_qps_per_replica * replicas < w->qps)
        warn(e, "sustains %.2f requests/s per node set, below --qps %.2f",
             e->max_qps_per_replica * replicas, w->qps);
}

/* ================================================================ */
/* Entry points                                                      */
/* ================================================================ */

static int estimate(ecf_estimate *out,
                    const ecf_model *m,
                    const ecf_workload *w_in,
                    const ecf_instance *inst,
                    int nodes,
                    bool quiet,
                    ecf_err *err);

int ecf_estimate_run(ecf_estimate *out,
                     const ecf_model *m,
                     const ecf_workload *w,
                     const ecf_instance *inst,
                     int nodes,
                     ecf_err *err)
{
    return estimate(out, m, w, inst, nodes, false, err);
}

int ecf_estimate_run_quiet(ecf_estimate *out,
                           const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_instance *inst,
                           int nodes,
                           ecf_err *err)
{
    return estimate(out, m, w, inst, nodes, true, err);
}

static int estimate(ecf_estimate *out,
                    const ecf_model *m,
                    const ecf_workload *w_in,
                    const ecf_instance *inst,
                    int nodes,
                    bool quiet,
                    ecf_err *err)
{
    ecf_workload w = *w_in;
    devinfo d;
    ecf_precision ran = ECF_PREC_BF16, want;
    double peak;
    int rc;

    /* Zero everything but the note texts (most of the struct's 5 KB):
     * n_warnings and n_assumptions say how many of them are valid, and the
     * scorer calls this for every candidate. */
    memset(out, 0, offsetof(ecf_estimate, warnings));
    out->n_assumptions = 0;
    out->quiet = quiet;
    if (nodes < 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "--nodes: must be at least 1, got %d", nodes);
    rc = ecf_workload_resolve(&w, m, err);
    if (rc < 0)
        return rc;
    describe(&d, inst);
    want = (ecf_precision)w.precision;
    peak = ecf_estimate_peak_tflops(inst, want, &ran);
    /* Stored weights follow the request (int8/int4 weights run with
     * 16-bit math); arithmetic follows what the hardware has. */
    if (ran != want && want != ECF_PREC_INT4) {
        if (w.precision_explicit || ran == ECF_PREC_FP32)
            warn(&out[0], "%s has no %s: runs as %s", d.label,
                 ecf_precision_name(want), ecf_precision_name(ran));
        if (want != ECF_PREC_INT8)
            w.precision = ran;
    }
    out->precision = (ecf_precision)w.precision;
    out->cpu_only = d.cpu;
    out->nodes = nodes;
    out->devices = d.count;
    out->seq_len = w.seq_len;
    out->peak_tflops = peak;
    out->throughput_unit = "samples/s";
    out->data_source = "network";
    if (peak <= 0)
        warn(out, "no %s TFLOPS figure for %s: compute time unknown",
             ecf_precision_name(want), d.label);
    if (d.cpu) {
        assume(out,
               "CPU-only: %d vCPUs x %.0f GFLOPS (fp32) at %.0f%%, %.0f GB/s "
               "DRAM",
               inst->vcpu, CPU_GFLOPS_PER_VCPU, U_CPU * 100, d.bw_gbytes_s);
        if (ecf_task_is_training(w.task))
            warn(out, "training on CPU cores is slow; any GPU instance is "
                      "far faster");
    }
    if (ecf_task_is_training(w.task))
        run_train(out, m, &w, &d, nodes, (ecf_precision)w.precision, peak);
    else
        run_infer(out, m, &w, &d, nodes, (ecf_precision)w.precision, ran, peak);
    if (nodes > 1 && !d.cpu && !(inst->efa && inst->efa_gbps > 0))
        warn(out,
             "%d nodes without EFA: inter-node traffic uses %.0f Gbps "
             "plain networking",
             nodes, inst->network_gbps);
    data_and_host(out, m, &w, inst, &d, nodes);
    if (!out->fits) {
        out->bottleneck = ECF_BN_DEVICE_MEMORY;
        warn(out, "needs %.1f GiB per device, %.1f GiB available",
             out->memory.total_per_device_gib,
             out->memory.available_per_device_gib);
    }
    return 0;
}

int ecf_estimate_min_nodes(const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_instance *inst,
                           int max_nodes)
{
    double need = ecf_estimate_min_total_gib(m, w);
    devinfo d;
    int n;

    describe(&d, inst);
    for (n = 1; n <= max_nodes; n++) {
        ecf_estimate e;
        /* cheap reject before the full estimate */
        if (d.mem_gib * d.count * n < need)
            continue;
        if (ecf_estimate_run_quiet(&e, m, w, inst, n, NULL) == 0 && e.fits)
            return n;
    }
    return 0;
}
