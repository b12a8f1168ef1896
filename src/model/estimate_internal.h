/*
 * estimate_internal.h - what the estimator's files share: every constant
 * (docs/estimation.md, "Constants", has each with its source), the device
 * description, the plan, and the helpers one file defines and another
 * calls. Internal to src/model.
 */
#ifndef EC2FIT_MODEL_ESTIMATE_INTERNAL_H
#define EC2FIT_MODEL_ESTIMATE_INTERNAL_H

#include <stdarg.h>
#include <stdbool.h>

#include "ec2fit/estimate.h"

/* Helpers shared across the estimator's files (declared below). The macros give them
 * library-wide names and keep the short ones in the code. */
#define allreduce_s(...) ecf_est_allreduce_s_(__VA_ARGS__)
#define assume(...) ecf_est_assume_(__VA_ARGS__)
#define data_and_host(...) ecf_est_data_and_host_(__VA_ARGS__)
#define fits(...) ecf_est_fits_(__VA_ARGS__)
#define fwd_flops_sample(...) ecf_est_fwd_flops_sample_(__VA_ARGS__)
#define grad_sync_s(...) ecf_est_grad_sync_s_(__VA_ARGS__)
#define infer_memory(...) ecf_est_infer_memory_(__VA_ARGS__)
#define is_llm(...) ecf_est_is_llm_(__VA_ARGS__)
#define is_vision(...) ecf_est_is_vision_(__VA_ARGS__)
#define kv_bytes_per_token(...) ecf_est_kv_bytes_per_token_(__VA_ARGS__)
#define lora_params(...) ecf_est_lora_params_(__VA_ARGS__)
#define matmul_params(...) ecf_est_matmul_params_(__VA_ARGS__)
#define run_infer(...) ecf_est_run_infer_(__VA_ARGS__)
#define run_train(...) ecf_est_run_train_(__VA_ARGS__)
#define tf_act_bytes(...) ecf_est_tf_act_bytes_(__VA_ARGS__)
#define train_memory(...) ecf_est_train_memory_(__VA_ARGS__)
#define u_conv(...) ecf_est_u_conv_(__VA_ARGS__)
#define u_gemm(...) ecf_est_u_gemm_(__VA_ARGS__)
#define warn(...) ecf_est_warn_(__VA_ARGS__)

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
/* Devices and plans                                                 */
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

void warn(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);
void assume(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);

typedef struct {
    ecf_parallelism par;
    int tp, dp, pp;
    bool ckpt;
    int batch;
} plan;

/* Defined in estimate.c (notes, model arithmetic, utilisation),
 * estimate_memory.c, estimate_scaling.c, estimate_train.c,
 * estimate_serve.c and estimate_workload.c. */
double
allreduce_s(double bytes, int n, double gbytes_s, double alpha, double eff);
void data_and_host(ecf_estimate *e,
                   const ecf_model *m,
                   const ecf_workload *w,
                   const ecf_instance *inst,
                   const devinfo *d,
                   int nodes);
bool fits(const ecf_memory *mem);
double fwd_flops_sample(const ecf_model *m, int seq);
double
grad_sync_s(double bytes, int per_node, int nodes, const devinfo *d);
void infer_memory(ecf_memory *mem,
                  const ecf_model *m,
                  const ecf_workload *w,
                  ecf_precision p,
                  const plan *pl,
                  const devinfo *d);
bool is_llm(const ecf_model *m);
bool is_vision(const ecf_model *m);
double kv_bytes_per_token(const ecf_model *m, double kv_elem);
double lora_params(const ecf_model *m, int r);
double matmul_params(const ecf_model *m);
void run_infer(ecf_estimate *e,
               const ecf_model *m,
               const ecf_workload *w,
               const devinfo *d,
               int nodes,
               ecf_precision p,
               ecf_precision ran,
               double peak);
void run_train(ecf_estimate *e,
               const ecf_model *m,
               const ecf_workload *w,
               const devinfo *d,
               int nodes,
               ecf_precision p,
               double peak);
double
tf_act_bytes(const ecf_model *m, int seq, bool ckpt, double act_scale, int tp);
void train_memory(ecf_memory *mem,
                  const ecf_model *m,
                  const ecf_workload *w,
                  ecf_precision p,
                  const plan *pl,
                  const devinfo *d);
double u_conv(const devinfo *d, ecf_precision p);
double u_gemm(const devinfo *d, ecf_precision p, double base, double h);

#endif
