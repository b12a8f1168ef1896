/**
 * ec2fit/estimate.h - the analytical estimator: memory per device, step
 * time, throughput, time to finish a dataset, serving latency, and the
 * bottleneck, for one workload on one instance type x N nodes.
 *
 * Pure: no I/O, no globals, no allocation. Results are value structs with
 * fixed arrays, so `recommend` can evaluate thousands of candidates with
 * one ecf_estimate on the stack. Every formula and constant is documented
 * in docs/estimation.md with its source and limits.
 *
 * Units are in field names: _gib = 2^30 bytes, _gbytes_s = 10^9 bytes/s,
 * _s seconds, _ms milliseconds, _hours hours.
 */
#ifndef EC2FIT_ESTIMATE_H
#define EC2FIT_ESTIMATE_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/task.h"
#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/units.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Workload                                                            */
/* ------------------------------------------------------------------ */

/* ecf_task and its names: ec2fit/task.h (util, shared with the data files) */


/** Workload precision left to the task default (bf16). */
#define ECF_PREC_AUTO (-1)
/** Tri-state for activation checkpointing. */
#define ECF_CKPT_AUTO (-1) /* on only when needed to fit */
#define ECF_CKPT_OFF  0
#define ECF_CKPT_ON   1

typedef struct {
    ecf_task task;
    int precision;         /* ecf_precision or ECF_PREC_AUTO */
    int batch_size;        /* per device (micro-batch); 0 = model default */
    int seq_len;           /* tokens per training/encoder sample; 0 = model
                              default */
    int input_tokens;      /* LLM serving prompt length; 0 = default 512 */
    int output_tokens;     /* LLM serving generated tokens; 0 = default 256 */
    double dataset_amount; /* in dataset_unit; 0 = no dataset */
    ecf_dataset_unit dataset_unit;
    double epochs;                /* passes over the dataset; 0 = 1 */
    int activation_checkpointing; /* ECF_CKPT_* */
    bool optimizer_8bit;          /* 8-bit Adam states (bitsandbytes) */
    int lora_rank;                /* 0 = 16 */
    double latency_target_ms;     /* serving: per-request target; 0 = none */
    double qps;                   /* serving: requests/s wanted; 0 = none */
    double bytes_per_sample;      /* override of the model's input bytes */
    int tensor_parallel;          /* serving: devices per model replica;
                                     training: the plan's TP degree;
                                     0 = chosen for throughput */
    /* Filled by ecf_workload_resolve; do not set. */
    bool resolved;
    bool precision_explicit;
    bool batch_explicit;    /* false: the estimator may lower the batch to
                               fit (train) or raise it to fill (batch) */
    double dataset_samples; /* dataset in samples (0 = none) */
    /* Software stack (ec2fit/stacks.h); 0 = the defaults. Last, so the
     * positional initializer below leaves them zero. */
    int framework; /* ecf_framework: --framework, 0 = pytorch */
    int engine;    /* ecf_engine: --engine, 0 = chosen per platform */
    /* Where the dataset is read from (--storage, ecf_storage; 0 = auto)
     * and, for gp3/fsx, the throughput provisioned (--storage-throughput,
     * MB/s: per volume for gp3, per file system for fsx; 0 = baseline). */
    int storage;
    double storage_mbytes_s;
    /* --startup DUR: per-node start time (boot, image pull, weights
     * read); startup_set false = estimated (docs/estimation.md "Fixed
     * overheads"), true = startup_s as given (0 allowed). */
    bool startup_set;
    double startup_s;
    /* LLM serving targets (0 = none): time to first token and time per
     * output token, ms. Last, so the initializer leaves them zero. */
    double ttft_target_ms;
    double tpot_target_ms;
    /* Serving fit headroom, % of the memory need (the memory-fit rule's
     * headroom_pct; `recommend` sets it from its rules). Unset = 10. */
    bool headroom_set;
    double headroom_pct;
    int master_weights; /* ECF_MASTER_*: --master-weights, 0 = fp32 */
    /* Diffusion serving: attention scores materialised (diffusers'
     * pre-2.0 default attention processor) instead of PyTorch 2 SDPA /
     * xFormers (the default, diffusers' with PyTorch 2). --attention
     * eager; the calibration harness sets it for rows measured so. */
    bool naive_attention;
    /* Images are decoded on the accelerators (NVIDIA DALI / nvJPEG), not
     * on host cores: no JPEG-decode vCPU cap (docs/estimation.md 8).
     * --data-loader dali. */
    bool gpu_decode;
    /* Training variants (docs/estimation.md 4.1 and 5.1); last, so the
     * initializer leaves them off. --packing: variable-length samples are
     * packed into rows of seq_len tokens, mean_seq_len real tokens each
     * (--mean-seq-len; required with --packing); attention is per sample
     * (varlen kernels). --cross-entropy: how the loss holds the LM
     * head's logits (ECF_CE_*; 0 = full). */
    bool packing;
    int mean_seq_len;
    int cross_entropy;
    /* Convnet training with cuDNN's fused convolution + BatchNorm + ReLU
     * kernels (NVIDIA's MLPerf ResNet code): fewer element-wise passes
     * over the activations (docs/estimation.md 5.4). --conv-kernels
     * fused; the calibration harness sets it for rows run with that
     * code. */
    bool fused_conv_bn;
    /* --offload (ECF_OFFLOAD_*; 0 = none; docs/estimation.md 4.1,
     * "Optimizer offload"): the optimizer states (and the fp32 master
     * and gradient the host-side step reads) live in host RAM and the
     * Adam step runs on the host CPU. The initializer leaves it off. */
    int offload;
    /* --kv-cache-dtype (ECF_KV_*; 0 = auto: the engine's default;
     * docs/estimation.md 4.3 "KV cache precision"). The initializer
     * leaves it 0. */
    int kv_cache_dtype;
    /* Training: the attention kernel the stack runs (ecf_attn_kernel,
     * ec2fit/attn_kernels.h; --attention flash2|cudnn|flash3; 0 = auto:
     * the linear layers' rate). On Hopper the attention core is timed at
     * the kernel's measured rate (docs/estimation.md 5.3, "Attention
     * kernel"). Last, so the initializer leaves it auto. */
    int attn_kernel;
    /* Training: micro-batches per optimizer step on each device
     * (--grad-accum N; gradient accumulation). 0 = not given: the
     * optimizer step's memory traffic is taken as amortised, max(compute,
     * traffic); given, the step is N micro-batches then one optimizer
     * step, compute + traffic / N (docs/estimation.md 5.4). Last, so the
     * initializer leaves it unset. */
    int grad_accum;
    /* Training: pipeline stages of the plan (--pipeline-parallel N; with
     * --tensor-parallel, the Megatron layout a run used). 0 = chosen by
     * the plan search (docs/estimation.md 6). Last, so the initializer
     * leaves it unset. */
    int pipeline_parallel;
    /* Training: model chunks per pipeline device, the interleaved 1F1B
     * schedule (--virtual-stages N, with --pipeline-parallel); 0 = plain
     * 1F1B. Last, so the initializer leaves it unset. */
    int virtual_stages;
    /* Training: samples (rows) per optimizer step over all replicas
     * (--global-batch N). 0 = not given. Given, a plan's micro-batches
     * per step are N / (micro-batch x data-parallel replicas): a
     * pipeline's m, else the gradient-accumulation count
     * (docs/estimation.md 6). Last, so the initializer leaves it unset. */
    int global_batch;
    /* The stack's versions, as --framework NAME@VERSION names them
     * (major x 100 + minor; 0 = not given: a current release). PyTorch
     * before 2.0 has no scaled_dot_product_attention, and Hugging Face
     * transformers ran eager attention in its decoder classes before
     * 4.36 and in BERT/RoBERTa/DistilBERT/ViT/Whisper before 4.41, so
     * ecf_workload_resolve turns naive_attention on for such a stack
     * unless --attention was given (attention_set). docs/estimation.md
     * 5.3, "Default attention". Last, so the initializer leaves them
     * unset. */
    int framework_version;
    int transformers_version;
    bool attention_set;
} ecf_workload;

/** --offload none|optimizer: DeepSpeed ZeRO-Offload (offload_optimizer
 *  device cpu), FSDP/torchtune optimizer CPU offload. */
#define ECF_OFFLOAD_NONE      0
#define ECF_OFFLOAD_OPTIMIZER 1

/** --kv-cache-dtype: the KV cache's element type, chosen apart from the
 *  weights' precision as vLLM --kv-cache-dtype, TensorRT-LLM
 *  kv_cache_config.dtype and TGI --kv-cache-dtype do. ECF_KV_FP32 is only
 *  a resolved value (auto over fp32/tf32 weights). */
#define ECF_KV_AUTO 0
#define ECF_KV_BF16 1
#define ECF_KV_FP16 2
#define ECF_KV_FP8  3
#define ECF_KV_FP32 4

/** "auto", "bf16", "fp16", "fp8", "fp32". */
const char *ecf_kv_dtype_name(int kv);
/** The ECF_KV_* named `s` ("auto", "bf16", "fp16", "fp8"; vLLM's
 *  "fp8_e4m3" and "fp8_e5m2" are fp8), or -1. */
int ecf_kv_dtype_parse(const char *s);
/** The KV cache's element type for `w` served at weight precision
 *  `precision` (an ecf_precision) by engine `engine` (an ecf_engine;
 *  ECF_ENGINE_AUTO = none chosen): w->kv_cache_dtype when set, else the
 *  engine's auto (docs/estimation.md 4.3, "KV cache precision"): fp8 over
 *  fp8 weights where data/engines.json says fp8_kv_auto (TensorRT-LLM),
 *  else the activations' type: fp16 for fp16 weights, fp32 for fp32/tf32,
 *  bf16 otherwise (fp8, int8, int4 weights included). Never ECF_KV_AUTO. */
int ecf_kv_dtype_resolve(const ecf_workload *w, int precision, int engine);
/** Bytes per KV element of ecf_kv_dtype_resolve(): 1, 2 or 4. */
double ecf_kv_bytes_per_elem(const ecf_workload *w, int precision,
                             int engine);

/** --cross-entropy (docs/estimation.md 4.1): full = PyTorch's
 *  cross_entropy on fp32-upcast logits (Hugging Face default); chunked =
 *  one chunk upcast at a time (torchtune CEWithChunkedOutputLoss); fused
 *  = a kernel that reads the 16-bit logits row by row without an fp32
 *  copy (flash-attn CrossEntropyLoss, llm-foundry's default). */
#define ECF_CE_FULL    0
#define ECF_CE_CHUNKED 1
#define ECF_CE_FUSED   2

/** --master-weights: mixed precision keeps an fp32 master copy (default);
 *  pure bf16 training (torchtune) keeps none; amp = torch.amp autocast
 *  over fp32 weights (fp32 gradients, and autocast's cache of the 16-bit
 *  cast of every weight during the forward and backward passes). */
#define ECF_MASTER_FP32 0
#define ECF_MASTER_NONE 1
#define ECF_MASTER_AMP  2

/** Dataset storage (docs/estimation.md, "Storage and data path"). */
typedef enum {
    ECF_STORAGE_AUTO = 0, /* instance NVMe when the dataset fits, else S3 */
    ECF_STORAGE_S3,       /* streamed from S3 */
    ECF_STORAGE_GP3,      /* one EBS gp3 volume per node */
    ECF_STORAGE_FSX,      /* FSx for Lustre Persistent-2 SSD, shared */
    ECF_STORAGE_EFS,      /* EFS Standard, Elastic throughput, shared */
    ECF_STORAGE_NVME,     /* instance store, staged from S3 */
    ECF_STORAGE_COUNT
} ecf_storage;

/** "auto", "s3", "gp3", "fsx", "efs", "nvme". */
const char *ecf_storage_name(ecf_storage s);
/** The ecf_storage named `s`, or -1. */
int ecf_storage_parse(const char *s);

#define ECF_WORKLOAD_INIT                                                      \
    {                                                                          \
        ECF_TASK_INFER, ECF_PREC_AUTO, 0, 0, 0, 0, 0.0, ECF_DATASET_NONE, 0.0, \
            ECF_CKPT_AUTO, false, 0, 0.0, 0.0, 0.0, 0, false, false, false,    \
            0.0, 0, 0, 0, 0.0, false, 0.0, 0.0, 0.0, false, 0.0,               \
            ECF_MASTER_FP32, false, false, false, 0, 0, false,                \
            ECF_OFFLOAD_NONE, ECF_KV_AUTO, 0 /* attn_kernel: auto */,          \
            0 /* grad_accum: not given */,                                     \
            0 /* pipeline_parallel: chosen */,                                 \
            0 /* virtual_stages: plain 1F1B */,                                \
            0 /* global_batch: not given */,                                   \
            0 /* framework_version: current */,                                \
            0 /* transformers_version: current */,                             \
            false /* attention_set */                                          \
    }

/** EC2 per-second billing charges each Linux instance at least 60 s
 *  (https://aws.amazon.com/ec2/pricing/on-demand/). */
#define ECF_MIN_BILLED_S 60.0

/** Seconds a node needs before it does useful work: boot + container
 *  image pull + reading `weight_bytes` (this node's share of the
 *  weights) from storage (docs/estimation.md "Fixed overheads"). */
double ecf_estimate_startup_s(const ecf_instance *inst, double weight_bytes);

/** GB (1e9 bytes) of the serving/training container image a node of this
 *  type pulls: the figure ecf_estimate_startup_s uses (docs/estimation.md
 *  "Fixed overheads"), shared so the Karpenter root volume is sized from
 *  the same number. Pure. */
double ecf_estimate_image_gb(const ecf_instance *inst);

/** "EC2 Capacity Blocks for ML or a reservation" for the families AWS sells
 *  mostly that way (p5, p5e, p5en, p6-*, trn2); NULL otherwise. */
const char *ecf_estimate_capacity_note(const ecf_instance *inst);

/** NeuronCores one Neuron device (chip) of `inst` exposes to the runtime:
 *  the unit of Neuron tensor parallelism, of vLLM's
 *  --tensor-parallel-size and of the Kubernetes device plugin's
 *  aws.amazon.com/neuroncore. Trainium2: 4 logical cores (8 physical, LNC=2
 *  by default); Inferentia2 and Trainium 2; Inferentia 4; 1 for any other
 *  accelerator or none (docs/estimation.md 7, "AWS Neuron"). */
int ecf_estimate_neuron_cores(const ecf_instance *inst);

/** Fills defaults from the model (batch, sequence length, serving lengths,
 *  precision, LoRA rank, epochs), converts the dataset to samples, and
 *  validates the combination. Idempotent.
 *  Errors: ECF_EINVAL naming the flag, e.g. "--task: lora needs a
 *  transformer model; resnet50 is a cnn", "--precision: int4 is for
 *  inference (use --task qlora for 4-bit fine-tuning)", "--seq-len: 8192
 *  exceeds llama-2-7b's maximum context of 4096", "--batch-size: must be at
 *  least 1". */
int ecf_workload_resolve(ecf_workload *w, const ecf_model *m, ecf_err *err);

/* ------------------------------------------------------------------ */
/* Result                                                              */
/* ------------------------------------------------------------------ */

typedef enum {
    ECF_PAR_SINGLE = 0, /* one device */
    ECF_PAR_DP,         /* data parallel, full replica per device */
    ECF_PAR_FSDP,       /* ZeRO-3 / FSDP: weights, grads, optimizer sharded */
    ECF_PAR_TP,         /* tensor parallel over every device */
    ECF_PAR_TP_DP,      /* tensor parallel inside a group, replicas across */
    ECF_PAR_TP_PP,      /* tensor parallel in a node, pipeline across nodes */
    ECF_PAR_TP_FSDP,    /* training: tensor parallel in a node, FSDP across */
    ECF_PAR_ZERO1,      /* training: ZeRO-1, optimizer states sharded */
    ECF_PAR_ZERO2,      /* training: ZeRO-2, optimizer states + gradients */
    ECF_PAR_NXD,        /* training on Neuron: NeuronX Distributed, tensor
                           parallel over a node's NeuronCores x pipeline
                           stages x data parallel with ZeRO-1 */
    ECF_PAR_COUNT
} ecf_parallelism;

/** "single", "dp", "fsdp", "tp", "tp+dp", "tp+pp", "tp+fsdp", "zero-1",
 *  "zero-2", "nxd". */
const char *ecf_parallelism_name(ecf_parallelism p);

/** A training plan's strategy as it is run, into `buf` (`n` bytes):
 *  "nxd tp8 pp1 zero1" for NeuronX Distributed (TP x pipeline stages,
 *  ZeRO-1 over the replicas), else ecf_parallelism_name(p). Returns buf. */
const char *ecf_strategy_label(char *buf, size_t n, ecf_parallelism p,
                               int tp, int pp);

typedef enum {
    ECF_BN_COMPUTE = 0,
    ECF_BN_MEMORY_BW,
    ECF_BN_COMMUNICATION,
    ECF_BN_DATA,
    ECF_BN_HOST_MEMORY,
    ECF_BN_DEVICE_MEMORY, /* does not fit */
    ECF_BN_COUNT
} ecf_bottleneck;

/** "compute", "memory-bandwidth", "communication", "data", "host-memory",
 *  "device-memory". */
const char *ecf_bottleneck_name(ecf_bottleneck b);

/** Memory per device, GiB. total = sum of the parts. */
typedef struct {
    double weights_gib;
    double gradients_gib;
    double optimizer_gib;
    double activations_gib;
    double kv_cache_gib;
    double lora_gib;     /* adapters + their grads and Adam states */
    double overhead_gib; /* CUDA/runtime context, allocator slack */
    double total_per_device_gib;
    double available_per_device_gib;
    /* LLM serving: KV-cache tokens one replica's engine sizes its pool
     * for beside its weights and workspace (what vLLM logs as "GPU KV
     * cache size: N tokens"; vLLM leaves the CUDA context to its
     * 1 - gpu_memory_utilization margin, docs/estimation.md 4.4); 0 for
     * other plans. */
    double kv_capacity_tokens;
    /* LLM serving: the KV cache's element type the plan was sized with
     * (ECF_KV_*, --kv-cache-dtype with auto resolved by the plan's
     * engine); ECF_KV_AUTO (0) for other plans. */
    int kv_cache_dtype;
    /* Training with --offload optimizer: host RAM per device for what the
     * plan moved off it (optimizer states, fp32 master, the gradient the
     * host-side step reads), GiB; 0 otherwise. Not in the total. */
    double host_offload_gib;
} ecf_memory;

/** One training plan the search evaluated (ecf_estimate.tried). */
typedef struct {
    ecf_parallelism parallelism;
    int tp, dp, pp;
    int microbatches; /* per optimizer step (pipeline), else 1 */
    int vp;           /* interleaved pipeline: model chunks per device */
    int batch;        /* per device micro-batch */
    bool checkpointing;
    bool fits; /* with the search's headroom */
    double step_time_s;   /* 0 when the plan does not fit at all */
    double samples_per_s; /* 0 when the plan does not fit at all */
    double mem_gib; /* per device */
} ecf_train_try;

#define ECF_EST_MAX_TRIED 32

/** Default service level of online LLM serving (docs/estimation.md 5.4,
 *  "Default service level"): MLPerf Inference's server-scenario bounds for
 *  llama2-70b and mixtral-8x7b, TTFT 2000 ms and TPOT 200 ms
 *  (mlcommons/inference loadgen/mlperf.conf@001712e9). Without targets
 *  the batch is the cheapest per request within it; a target only
 *  tightens it, so leaving a target out never costs more. */
#define ECF_SERVE_SLO_TTFT_MS 2000.0
#define ECF_SERVE_SLO_TPOT_MS 200.0

/** The service level online serving of `m` is planned within: the
 *  tighter of each of w's --ttft-ms and --tpot-ms and the default
 *  (ECF_SERVE_SLO_*). Returns false, outputs 0, when none applies (not an
 *  LLM, or not --task infer). Pure. */
bool ecf_estimate_service_level(double *ttft_ms_out,
                                double *tpot_ms_out,
                                const ecf_model *m,
                                const ecf_workload *w);

/** What stopped the serving batch from doubling (ecf_serve_terms.limit). */
typedef enum {
    ECF_BATCH_LIMIT_NONE = 0, /* not computed (quiet run, training) */
    ECF_BATCH_LIMIT_EXPLICIT, /* --batch-size */
    ECF_BATCH_LIMIT_MODEL,    /* offline non-LLM job: the model's batch */
    ECF_BATCH_LIMIT_MEMORY,   /* the next power of two does not fit */
    ECF_BATCH_LIMIT_LATENCY,  /* ... misses --latency-ms */
    ECF_BATCH_LIMIT_TTFT,     /* ... misses --ttft-ms */
    ECF_BATCH_LIMIT_TPOT,     /* ... misses --tpot-ms */
    ECF_BATCH_LIMIT_KNEE,     /* ... exceeds the knee (no target set) */
    ECF_BATCH_LIMIT_CAP,      /* the largest automatic batch */
    ECF_BATCH_LIMIT_THROUGHPUT, /* a larger batch that meets the service
                                   level serves fewer requests/s */
    ECF_BATCH_LIMIT_COUNT
} ecf_batch_limit;

/** Serving (infer/batch): the terms behind the chosen plan's latency, per
 *  replica at the chosen batch, for --explain. Filled by ecf_estimate_run
 *  (zero from run_quiet). LLMs: one decode step; other models: one
 *  forward of the batch. docs/estimation.md, "LLM serving". */
typedef struct {
    bool set;
    bool llm;
    const char *engine_why;   /* static: why this engine */
    double step_host_ms;      /* engine's fixed host time per step */
    double layer_dispatch_ms; /* eager launches per layer per step */
    double dispatch_ms;       /* layer_dispatch_ms x layers */
    double weight_bytes;      /* read per step per device (with the norms
                                 a tensor-parallel rank repeats) */
    double kv_bytes;          /* LLM: KV cache read per step per device */
    double bw_gbytes_s;       /* achieved bandwidth used for the reads */
    double memory_ms;         /* bytes / bandwidth */
    double compute_ms;        /* FLOPs / achieved rate */
    double allreduce_ms;      /* tensor-parallel all-reduces per step */
    double interleave_ms;     /* LLM: others' prefills per decode step */
    double fwd_overhead_ms;   /* non-LLM: dispatch per forward call */
    double prefill_ms;        /* TTFT: the request's own prefill */
    double join_ms;           /* TTFT: wait for the next step */
    double queue_ms;          /* TTFT: wait for the prefills ahead */
    double knee_ms;           /* no target: latency bound on the batch */
    double target_ms;         /* the missed target (latency/ttft/tpot) */
    ecf_batch_limit limit;
    int next_batch;         /* the batch that failed (0 = none tried) */
    double next_gib;        /* its memory per device (with headroom) */
    double next_ms;         /* its value of the missed target */
    /* The service level the batch was chosen within (LLM serving,
     * docs/estimation.md 5.4 "Default service level"): the tighter of
     * each target and the default (ECF_SERVE_SLO_*); slo_default when
     * the bound in `limit` is the default's, not a flag's. */
    bool slo_default;
    double slo_ttft_ms;     /* 0: no bound (not an LLM) */
    double slo_tpot_ms;
    int admit_limit;        /* the engine's admission limit (requests) */
    /* LLM decode, the terms TPOT sums (docs/estimation.md 5.4): the GEMM
     * and attention rooflines (each the slower of its reads and its
     * FLOPs, over the pipeline stages), or dispatch_ms when the host's
     * launches are slower (launch_bound); then allreduce_ms,
     * step_host_ms, hop_ms (pipeline hops) and interleave_ms. */
    double gemm_ms;
    double attn_ms;
    double hop_ms;
    bool gemm_mem_bound; /* the GEMMs' reads outlast their FLOPs */
    bool attn_mem_bound; /* the KV reads outlast attention's FLOPs */
    bool launch_bound;   /* dispatch_ms > gemm_ms + attn_ms */
} ecf_serve_terms;

#define ECF_EST_MAX_NOTES 12
#define ECF_EST_NOTE_LEN  200

typedef struct {
    bool fits;     /* memory fits on every device */
    bool cpu_only; /* ran on host cores (no accelerator) */
    int devices;   /* accelerators used per node (1 on CPU) */
    int nodes;
    ecf_parallelism parallelism;
    int tp_degree; /* devices per model replica (TP) */
    int dp_degree; /* model replicas */
    int pp_degree; /* pipeline stages (nodes) */
    bool activation_checkpointing;
    int batch_size;          /* per device/replica micro-batch used */
    int grad_accum_steps;    /* training: micro-batches per optimizer step
                                on each replica (pipeline or gradient
                                accumulation); 1 otherwise */
    int global_batch;        /* training: samples per optimizer step over
                                all replicas = batch_size x dp_degree x
                                grad_accum_steps; the user's
                                (--global-batch, else batch x the devices
                                of plain data parallel x --grad-accum)
                                whatever the parallelism (docs/estimation.md
                                6, "Global batch"); 0 for serving */
    int seq_len;             /* tokens per sample used (0 = n/a) */
    ecf_precision precision; /* what runs (after any fallback) */
    ecf_memory memory;

    /* compute */
    double peak_tflops;    /* per device at `precision`, datasheet */
    double utilization;    /* achieved fraction of peak (documented) */
    double flops_per_step; /* whole cluster, one optimizer step */
    double compute_s;      /* per step */
    double memory_s;       /* per step, bytes / bandwidth */
    double comm_s;         /* per step, exposed (after overlap) */
    double data_s;         /* per step, input pipeline floor */
    double step_time_s;
    double samples_per_step; /* global batch */

    /* results */
    double throughput;           /* in throughput_unit */
    const char *throughput_unit; /* static: "samples/s", "tokens/s",
                                    "images/s", "requests/s" */
    double samples_per_s;
    double tokens_per_s;        /* 0 when not a token model */
    double time_hours;          /* dataset x epochs; 0 without a dataset */
    double latency_ms;          /* serving: one request end to end */
    double ttft_ms;             /* LLM: time to first token (prefill) */
    double per_token_ms;        /* LLM: per generated token (decode) */
    const char *engine;         /* serving: static engine name ("vllm",
                                   "tgi", ...); NULL for training */
    double max_qps_per_replica; /* serving: requests/s one replica sustains
                                   within the latency target */
    int replicas;               /* serving: independent copies per node x
                                   nodes */
    /* Burstable types (t-family; docs/estimation.md "Burstable CPUs"):
     * the baseline share per vCPU (0 = not burstable), and in unlimited
     * mode (the t3/t3a/t4g default) what one node pays per hour for each
     * unit of load above it: surplus-credit rate x vCPUs (0 = standard
     * mode, t1/t2: the sustained load is held at the baseline instead).
     * Unlimited capacity and job times are at full speed;
     * burst_surcharge_usd_per_hour is a job's (load 1) per node. */
    double burst_baseline;
    double burst_usd_per_hour_per_load;
    double burst_surcharge_usd_per_hour;
    ecf_bottleneck bottleneck;

    /* data and host */
    double data_rate_required_mbytes_s;  /* samples/s x bytes/sample */
    double data_rate_available_mbytes_s; /* per node, from data_source */
    const char *data_source;             /* static: ecf_storage_name() of
                                            `storage` */
    int storage;                 /* ecf_storage the data is read from
                                    (auto resolved) */
    double storage_gb;           /* dataset on storage, 10^9 bytes */
    double storage_mbytes_s;     /* gp3: per volume; fsx: per file system;
                                    else 0 */
    double storage_capacity_gb;  /* gp3: per volume; fsx: file system;
                                    efs, s3: dataset; nvme: 0 */
    double decode_slowdown;      /* >= 1: JPEG-decode vCPU cap (vision
                                    training), 1 = none */
    double host_ram_needed_gib;
    double host_ram_available_gib;
    double vcpus_per_accel; /* instance vCPUs / devices */
    double vcpus_per_accel_needed;
    /* The samples/s time_hours was computed from (before any input-
     * pipeline slowdown); 0 when time_hours is 0. time_hours is
     * dataset_samples x epochs / time_samples_per_s / 3600, and nothing
     * else in the estimate depends on epochs, so a memo can rescale it
     * (ecf_recommend_memo). */
    double time_samples_per_s;
    /* Per-node start time (boot + image pull + weights read, or
     * --startup); jobs: already included in time_hours. */
    double startup_s;
    /* Neuron training: the first run's graph compile (neuronx-cc), s;
     * included in time_hours like startup_s; 0 elsewhere, and when
     * --startup is given (docs/estimation.md 7, "Graph compilation"). */
    double compile_s;

    bool quiet;                /* notes not formatted (run_quiet) */
    ecf_serve_terms serve;     /* --explain terms (not by run_quiet) */
    int n_warnings;
    char warnings[ECF_EST_MAX_NOTES][ECF_EST_NOTE_LEN];
    int n_assumptions;
    char assumptions[ECF_EST_MAX_NOTES][ECF_EST_NOTE_LEN];
    /* Training: the plans the search evaluated, in order (not filled by
     * ecf_estimate_run_quiet); the chosen one is among them. */
    int n_tried;
    /* Training: the plan is the layout --tensor-parallel /
     * --pipeline-parallel pinned (not the search's own choice). */
    bool plan_pinned;
    ecf_train_try tried[ECF_EST_MAX_TRIED];
} ecf_estimate;

/* ------------------------------------------------------------------ */
/* Entry points                                                        */
/* ------------------------------------------------------------------ */

/** Estimates `w` (resolved internally on a copy if not yet resolved) for
 *  model `m` on `nodes` x `inst`. Picks the number of devices per node
 *  (fewest that fit for serving, all of them for training and batch
 *  jobs), the sharding (dp, fsdp, tp, tp+dp, tp+pp) and whether to
 *  checkpoint activations. A workload that does not fit is a result
 *  (fits = false, bottleneck device-memory, the smallest breakdown tried),
 *  not an error. Never allocates.
 *  Errors: ECF_EINVAL for nodes < 1 or an invalid workload (messages as
 *  ecf_workload_resolve). */
int ecf_estimate_run(ecf_estimate *out,
                     const ecf_model *m,
                     const ecf_workload *w,
                     const ecf_instance *inst,
                     int nodes,
                     ecf_err *err);

/** As ecf_estimate_run, but leaves warnings and assumptions empty: the
 *  formatting is most of an estimate's cost, and a scorer looping over the
 *  catalog needs only the numbers. */
int ecf_estimate_run_quiet(ecf_estimate *out, const ecf_model *m,
                           const ecf_workload *w, const ecf_instance *inst,
                           int nodes, ecf_err *err);

/** As ecf_estimate_run, but leaves the assumptions empty (n_assumptions
 *  0): the same figures and warnings, for a caller that shows only the
 *  warnings (a --batch line's plans: formatting the assumptions was half
 *  of such an estimate). */
int ecf_estimate_run_warnings(ecf_estimate *out, const ecf_model *m,
                              const ecf_workload *w,
                              const ecf_instance *inst, int nodes,
                              ecf_err *err);

/** Total memory the workload needs summed over all devices with the most
 *  sharding allowed (GiB): a cheap lower bound so `recommend` can skip
 *  instance types whose devices x nodes cannot hold it. `w` must be
 *  resolved. */
double ecf_estimate_min_total_gib(const ecf_model *m, const ecf_workload *w);

/** Model states per device, GiB: weights + gradients + optimizer states of
 *  a training plan with parallelism `par` (ECF_PAR_DP, ZERO1, ZERO2, FSDP)
 *  over `devices` data-parallel ranks, at the workload's precision (auto =
 *  bf16), without activations or overhead (docs/estimation.md 4.1). For an
 *  inference task: the weights over `devices` tensor-parallel ranks. */
double ecf_estimate_model_state_gib(const ecf_model *m,
                                    const ecf_workload *w,
                                    ecf_parallelism par,
                                    int devices);

/** Smallest node count in [1, max_nodes] at which the workload fits on
 *  `inst`, or 0 when none does. `w` must be resolved. */
int ecf_estimate_min_nodes(const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_instance *inst,
                           int max_nodes);

/** ecf_estimate_min_nodes, also handing back the last full estimate it
 *  computed: `*last_n` its node count (0: none, e.g. training, decided
 *  without one), `*last` the quiet estimate of `w` on `inst` at that
 *  count, as ecf_estimate_run_quiet gives it. Either may be NULL. */
int ecf_estimate_min_nodes_keep(const ecf_model *m,
                                const ecf_workload *w,
                                const ecf_instance *inst,
                                int max_nodes,
                                ecf_estimate *last,
                                int *last_n);

/** Peak dense TFLOPS of one device of `inst` at precision `p`, after the
 *  fallbacks (bf16 -> fp16 on Volta/Turing, fp8 -> fp16/bf16 where the
 *  hardware has no fp8, tf32 -> fp32). For CPU-only instances, the host's
 *  estimated peak (vCPUs x per-core GFLOPS). Writes the precision that
 *  actually runs to *ran_out when non-NULL. */
double ecf_estimate_peak_tflops(const ecf_instance *inst,
                                ecf_precision p,
                                ecf_precision *ran_out);

/** Bytes per parameter of stored weights at precision p, including the
 *  group-scale overhead of int8/int4 (docs/estimation.md). */
double ecf_estimate_weight_bytes(ecf_precision p);

/** Peak live activations of a UNet diffusion pipeline generating `images`
 *  images at once, GiB (docs/estimation.md 4.3, "Diffusion UNets"): the
 *  larger of one denoising step of the UNet at images x cfg passes and the
 *  VAE decode of the images. `elem_bytes`: 2 (fp16/bf16) or 4 (fp32);
 *  `naive_attention`: attention scores materialised (no SDPA/xFormers).
 *  0 when m has no "unet" block. */
double ecf_estimate_unet_infer_act_gib(const ecf_model *m,
                                       int images,
                                       double elem_bytes,
                                       bool naive_attention);

#ifdef __cplusplus
}
#endif

#endif
