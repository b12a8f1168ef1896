/*
 * estimate_internal.h - what the estimator's files share: every constant
 * (docs/estimation.md, "Constants", has each with its source), the device
 * description, the plan, the small model-arithmetic and utilisation
 * helpers (inline), and the prototypes of what one file defines and
 * another calls. Internal to src/model.
 */
#ifndef EC2FIT_MODEL_ESTIMATE_INTERNAL_H
#define EC2FIT_MODEL_ESTIMATE_INTERNAL_H

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>

#include "ec2fit/collectives.h"
#include "ec2fit/engines.h"
#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"

/* Helpers shared across the estimator's files (declared below). The macros give them
 * library-wide names and keep the short ones in the code. */
/* assume(e, fmt, ...) notes an assumption; on a quiet estimate (the plan
 * search's), or when the notes are full (ecf_estimate_run_warnings fills
 * them up front), it is skipped before its arguments are evaluated:
 * calling the variadic function only to return was 3% of a --batch line.
 * The arguments of every call are side-effect free. */
#define assume(e, ...) \
    ((e)->quiet || (e)->n_assumptions >= ECF_EST_MAX_NOTES \
         ? (void)0 \
         : ecf_est_assume_((e), __VA_ARGS__))
#define data_and_host(...) ecf_est_data_and_host_(__VA_ARGS__)
#define storage_path(...) ecf_est_storage_path_(__VA_ARGS__)
#define infer_memory(...) ecf_est_infer_memory_(__VA_ARGS__)
#define run_infer(...) ecf_est_run_infer_(__VA_ARGS__)
#define run_train(...) ecf_est_run_train_(__VA_ARGS__)
#define train_lean_fits(...) ecf_est_train_lean_fits_(__VA_ARGS__)
#define train_memory(...) ecf_est_train_memory_(__VA_ARGS__)
#define accum_pass_bytes(...) ecf_est_accum_pass_bytes_(__VA_ARGS__)
#define train_grad_bytes(...) ecf_est_train_grad_bytes_(__VA_ARGS__)
#define train_opt_bytes(...) ecf_est_train_opt_bytes_(__VA_ARGS__)
#define offload_step_s(...) ecf_est_offload_step_s_(__VA_ARGS__)
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
/* Pure bf16 training (--master-weights none; torchtune's default recipes):
 * no fp32 master, Adam m and v in bf16: 2 + 2 + 2 + 2 = 8 bytes/param;
 * with 8-bit states and the optimizer step in the backward pass (no
 * gradient buffer): 2 + 1 + 1 = 4. */
#define ADAM_BF16_STATE_BYTES 4.0
/* Logits of the LM head at the loss, bytes per token per vocabulary
 * entry (docs/estimation.md 4.1): the model's logits (2 B in 16-bit, 4 in
 * fp32), the fp32 log-probabilities log_softmax saves for its backward
 * (4) and the fp32 gradient of the logits written at the start of the
 * backward pass (4), all alive at the activation peak: 10 B in bf16.
 * torchtune's CEWithChunkedOutputLoss (num_output_chunks = 8) upcasts
 * one chunk at a time: the 16-bit logits + (4 + 4) / 8 -> 3 B. The
 * difference, 7 B x 8192 x 128,256 = 6.8 GiB for Llama-3-8B at sequence
 * 8192, is the 7.3 GiB drop torchtitan measured (pytorch/torchtitan#996).
 * A fused kernel (flash-attn CrossEntropyLoss) computes in fp32 row by
 * row: the 16-bit logits and their 16-bit gradient, 4 B. */
#define LOGIT_FP32_BYTES 8.0
#define LOSS_CHUNKS      8.0
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
 * them). Training traffic in passes over the saved activations (two
 * tensors per conv: 1 pass = 2 reads or writes of a conv output), by how
 * the step is compiled (docs/estimation.md 5.4): eager kernels (PyTorch)
 * 19-20 accesses per conv-output element = 10 passes; XLA (TensorFlow,
 * JAX) fuses BN-apply + ReLU and the backward element-wise chain: 14 = 7;
 * cuDNN's fused conv-BN-ReLU ops (NVIDIA's MLPerf code) leave only the
 * convolutions' own I/O and one backward BN pass: 11 = 5.5. Inference =
 * 2.5 passes over the feature maps. */
#define CNN_TRAIN_TRAFFIC       10.0
#define CNN_TRAIN_TRAFFIC_XLA   7.0
#define CNN_TRAIN_TRAFFIC_FUSED 5.5
#define CNN_INFER_TRAFFIC       2.5
/* A compiled graph (TensorRT) folds BatchNorm into the convolution and
 * runs the activation and the residual add in its epilogue: a conv
 * output is written once and read once by the next layer = 2 accesses =
 * 1 pass (docs/estimation.md 5.5, "Compiled graphs"). */
#define CNN_INFER_TRAFFIC_FUSED 1.0
/* The training search keeps plans whose memory, plus this fraction,
 * fits: the default headroom_pct of the memory-fit rule
 * (data/rules.json), so estimate and recommend agree by default. */
#define TRAIN_HEADROOM 0.10
/* Plans whose throughputs differ by less than this are a tie (the
 * simpler wins): the optimizer-traffic and overlap terms that separate
 * them are smaller than the estimator's resolution. */
#define PLAN_TIE 0.01
/* Checkpointing a CNN/diffusion net in sqrt(n) segments keeps ~1/4. */
#define CNN_CKPT_KEEP 0.25
/* Achieved fractions of datasheet peak (calibrated on many rows of
 * tests/fixtures/calibration.json; docs/estimation.md "Utilisation"). A
 * GEMM of width h reaches U x h / (h + U_HIDDEN_HALF) of peak. */
#define U_TRAIN       0.56   /* transformer training (BERT DLE, Megatron) */
#define U_INFER       0.60   /* prefill / encoder inference (TensorRT-LLM) */
#define U_HIDDEN_HALF 1024.0 /* width at which GEMMs reach half of U */
/* Maximum achievable matmul FLOPS (MAMF: bf16 matmul, best shape, CUDA
 * 12.1) over the datasheet peak, measured per part (Bekman,
 * stas00/ml-engineering compute/accelerator "Maximum Achievable Matmul
 * FLOPS comparison table"): A100 SXM 267.9 of 312, H100 SXM 792.1 of
 * 989. U_TRAIN is the H100's; a part's training GEMM ceiling is U_TRAIN x
 * its MAMF / the H100's (parts with no measurement: 1). */
#define MAMF_A100 0.859
#define MAMF_H100 0.801
/* GeForce RTX 4090 (Ada, its 165.2 TFLOPS = fp16/bf16 with fp32
 * accumulate, Ada whitepaper): 163.5 / 165.2 at 8192^3, fp16 in / fp32
 * accumulate (mma.sync m16n8k16 f32.f16.f16.f32), xytpai/gpuk README
 * @71db7cd (2026-02-23); GPU Boost can hold a GeForce part above the
 * datasheet's 2.52 GHz (docs/estimation.md 5.3, "Compute efficiency by
 * M"). */
#define MAMF_RTX4090 0.990
/* The same ceiling from one torch.matmul script on other parts (square
 * sizes 1,024-10,240, best size; zzc0721/torch-performance-test-data,
 * docs/estimation.md 5.3; the script gives the H100 0.79-0.81 and the
 * A100 SXM 0.85, Bekman's figures): A10G fp16/bf16 69.47 of 70 (issue
 * #126), L40S bf16 269.15 of 362.05 (issue #43), V100 SXM2 fp16 97.36 of
 * 125 (issue #140). */
#define MAMF_A10G 0.992
#define MAMF_L40S 0.743
#define MAMF_V100 0.779
#define U_FP32        0.65   /* CUDA-core fp32 saturates at small sizes */
/* Best fp32 torch.matmul rate over the datasheet fp32 peak, same script
 * on both parts (square sizes 1,024-10,240, PyTorch 2.7.0 cu128, TF32
 * off; zzc0721/torch-performance-test-data issues #140 and #126): V100
 * SXM2 14.51 of 15.7 TFLOPS, A10G 23.37 of 35. U_FP32 is set by V100
 * rows, so a measured part's fp32 GEMMs reach U_FP32 x its ceiling / the
 * V100's (docs/estimation.md 5.3, "fp32 on CUDA cores"). */
#define FP32_MM_V100 0.924
#define FP32_MM_A10G 0.668
#define U_CNN_TC      0.55   /* convolutions on tensor cores (cuDNN) */
#define U_BW          0.70   /* achieved / peak HBM bandwidth (gpt-fast) */
#define U_FP8         0.85   /* fp8 gains ~1.7x, not 2x, over bf16 */
/* QLoRA: bitsandbytes' MatMul4Bit and torchao's LinearNF4 dequantise the
 * whole frozen NF4 weight to bf16 before every forward and input-gradient
 * GEMM (F.dequantize_4bit / weight.to(dtype)), a memory-bound kernel: it
 * reads the 4-bit codes (0.5 B), the 8-bit block absmax (one per 64) and
 * the fp32 second-level scale (one per 256 blocks), and writes 2 B. Per
 * weight per pass (docs/estimation.md 5.4, "QLoRA dequantisation"). */
#define NF4_DEQUANT_BYTES (0.5 + 1.0 / 64 + 4.0 / (64 * 256) + 2.0)
#define U_CPU         0.40   /* host GEMMs: docs/estimation.md 7 */
/* bf16 training on a CPU matrix engine (AMX), of its peak: the one
 * published measurement found, DistilBERT fine-tuned on SQuAD (run_qa.py,
 * 384 tokens, batch 32, 88,524 features) with IPEX bf16 on one
 * r7iz.metal-16xl in 26 min per epoch = 56.7 samples/s (huggingface/blog
 * intel-sapphire-rapids.md, 2023-01-02), against 477.5 samples/s at
 * U_CPU: 0.40 x 56.7 / 477.5 (docs/estimation.md 7, "CPU training"). */
#define U_CPU_AMX_TRAIN 0.0475
/* AWS Neuron compiled graphs: the median of the Trn1 training MFUs the
 * Neuron performance page publishes (bf16, ten rows, 14.8-33.1%; BERT-
 * large 25.8-29.1%, GPT-3 23B/46B/175B 27.7-33.1%, Llama 2 7B NxD 30.8%;
 * aws-neuron/aws-neuron-sdk about-neuron/benchmarks/trn1/
 * trn1_trn1n_nlp_data.csv, SDK 2.13-2.15) of the 95-TFLOPS-per-core
 * peak. It does not grow with the width (h 1024 to 12288), so on Neuron
 * serving uses it x U_INFER / U_TRAIN in place of U_INFER x h / (h +
 * U_HIDDEN_HALF); training uses NEURON_TRAIN_GEMM, below, derived from
 * the same MFUs (docs/estimation.md 5.3, "Neuron"). */
#define NEURON_MFU    0.276
/* Neuron training GEMM efficiency, no width term. A published MFU is end
 * to end: it already holds the run's exposed communication and
 * element-wise work, which the training step charges again on top of its
 * GEMM time (exposed DP/TP traffic, attention-score traffic: 0-22% of the
 * step for those runs). Per published row i, u_i = MFU_i x u /
 * (the estimator's own MFU for that row at u), i.e. the GEMM efficiency
 * at which the estimator reproduces MFU_i; the median of the ten u_i
 * (14.8-35.9%; GPT-3 23B / 46B shapes from neuronx-nemo-megatron
 * gpt_23b.sh / gpt_46b.sh) is 30.5% with the per-NeuronCore NxD plans
 * (29.7% with the chip-level plans before issue 24; docs/estimation.md
 * 5.3, "Neuron"; test_neuron re-derives it). Serving keeps NEURON_MFU x
 * U_INFER / U_TRAIN. */
#define NEURON_TRAIN_GEMM 0.305
#define U_POWER_LIMITED                                                        \
    0.60 /* <= 75 W parts (T4, L4) cannot hold boost                           \
            clocks under sustained tensor load */
#define POWER_LIMITED_W 75.0
/* Dispatch per forward call of non-LLM models: per engine, in
 * serve_engines.c (docs/estimation.md 5.5). */
/* Host CPU: 40 GFLOPS fp32 per vCPU (AVX-512 or 2x256-bit FMA at ~2.5
 * GHz, per hyperthread), x2 for bf16/fp16, x4 for int8 (VNNI); 1.5 GB/s
 * of sustained (STREAM-like) DRAM bandwidth per vCPU, e.g. ~290 GB/s for
 * a 192-vCPU two-socket host. */
#define CPU_GFLOPS_PER_VCPU   40.0
#define CPU_GBYTES_S_PER_VCPU 1.5
/* OS + serving process reserve on a CPU host: max(0.25 GiB, 5% of RAM)
 * (Amazon Linux 2023 idles in ~0.2 GiB); sustained STREAM triad reaches
 * ~75% of the DRAM peak the catalog lists (McCalpin STREAM results for
 * Xeon SP / Graviton). */
#define CPU_OS_RESERVE_MIN_GIB 0.25
#define CPU_OS_RESERVE_FRAC    0.05
#define CPU_STREAM_EFF         0.75
/* Host RAM the runtime itself holds on a CPU-only host before any model
 * byte (docs/estimation.md 7, "Host-RAM floor per runtime"): a CPU-only
 * PyTorch process after `import torch` commits 603 MB (pytorch/pytorch
 * #64720, torch 1.9.0+cpu, 2021-09-09); importing TensorFlow adds 297.7 MB
 * of peak RSS (Cornerstone-OnDemand/modelkit#199, ru_maxrss 455,536,640
 * vs 157,827,072 bytes, 2023-09-21). */
#define CPU_RUNTIME_PYTORCH_GIB    (603e6 / 1073741824.0)
#define CPU_RUNTIME_TENSORFLOW_GIB (297.7e6 / 1073741824.0)
/* JAX on a CPU host: a JAX_PLATFORMS=cpu process running one jitted
 * computation reports 330,400 KB of RSS at its first reading
 * (jax-ml/jax#25184, 2024-12-06; the computation's own buffers are in
 * it, so the bare runtime is at most this). */
#define CPU_RUNTIME_JAX_GIB (330400.0 * 1024.0 / 1073741824.0)
/* Fixed per-node overheads (docs/estimation.md "Fixed overheads"): EC2
 * launch to a usable OS (Karpenter: nodes in under a minute), a serving/
 * training container image (vllm/vllm-openai ~9 GB, vllm-project/vllm
 * #7609; a PyTorch CPU serving image 1.83 GB, kserve/kserve#535) written
 * to an EBS gp3 volume at its 125 MiB/s baseline (AWS EBS docs); weights
 * from S3 at 64% of the network line rate (dvassallo/s3-benchmark:
 * 8,003 MB/s on c5n.18xlarge's 100 Gbps). The 60 s minimum bill is
 * ECF_MIN_BILLED_S (ec2fit/estimate.h). */
#define STARTUP_BOOT_S         60.0
#define STARTUP_IMAGE_GB_ACCEL 9.0
#define STARTUP_IMAGE_GB_CPU   1.83
#define STARTUP_GP3_MBYTES_S   131.072
#define STARTUP_S3_NET_EFF     0.64
/* Per ring step (docs/estimation.md 6, "Sources of the communication
 * constants"): PCIe NCCL tuning.cc hwLat PCI Ring Simple 5.7 us;
 * NeuronLink chip hop = two core hops; TCP = NCCL's NET step. */
#define ALPHA_NVLINK 2e-6
#define ALPHA_PCIE   5.7e-6
#define ALPHA_NEURON (2.0 * ALPHA_NEURON_CORE)
/* One NeuronCore hop of a Neuron ring collective: "about 1-2 us (HBM load
 * dependent)" (Neuron docs, intra-node collective communication), the
 * upper figure; serving's per-core view uses it. */
#define ALPHA_NEURON_CORE 2e-6
#define ALPHA_EFA    15e-6
#define ALPHA_TCP    ALPHA_EFA
/* Defaults when the catalog has 0 (GB/s, its bidirectional convention;
 * same docs section): PCIe 3.0 x16, V100, A100, Inferentia2 datasheets. */
#define LINK_PCIE_GBYTES_S     16.0
#define LINK_NVLINK_GBYTES_S   300.0
#define LINK_NVSWITCH_GBYTES_S 600.0
#define LINK_NEURON_GBYTES_S   206.2
#define LINK_OTHER_GBYTES_S    50.0

/* Per interconnect: default bandwidth and per-step latency (alpha). */
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
/* A serving all-reduce on a PCIe node (docs/estimation.md 6, "All-reduce
 * on PCIe nodes"): NCCL's own cost model of a ring on PCI (NVIDIA/nccl
 * v2.14.3-1, the NCCL of TGI 1.0.3's PyTorch 2.0.1, src/graph/tuning.cc:
 * baseLat Ring LL 3.6 us / Simple 8.4 us, hwLat PCI Ring LL 1.0 us /
 * Simple 5.7 us per step, 2(n-1) steps; LL carries 1/4 of the bus
 * bandwidth), the faster protocol, at the node's measured NCCL busbw. */
#define NCCL_RING_LL_BASE_S     3.6e-6
#define NCCL_RING_SIMPLE_BASE_S 8.4e-6
#define NCCL_PCI_LL_STEP_S      1.0e-6
#define NCCL_PCI_SIMPLE_STEP_S  5.7e-6
#define NCCL_LL_BW_FRACTION     0.25
/* NCCL all-reduce busbw over A10Gs on AWS g5 (no peer-to-peer, so through
 * host memory): nccl-tests all_reduce_perf, 4 ranks, 29,388,800 B,
 * NCCL 2.18.5: 14,207 us, busbw 3.10 GB/s (pytorch/pytorch#127077,
 * 2024-05-25, "4 x A10g"; the same reporter's NVIDIA/nccl#1298 is about
 * g5.48xlarge). */
#define A10G_NCCL_BUSBW_GBYTES_S 3.1
#define NET_EFFICIENCY         0.8 /* docs/estimation.md 6, sources */
/* Share of the DP traffic hidden behind compute (docs/estimation.md 6). */
#define COMM_OVERLAP 0.8
/* Input pipeline: JPEG decode + augment ~150 images/s per vCPU (sources:
 * docs/estimation.md 8); instance-store NVMe ~2 GB/s per TB (AWS). */
#define DECODE_IMAGES_PER_VCPU 150.0
#define NVME_GBYTES_S_PER_TB   2.0
/* Storage and data path (docs/estimation.md, "Storage and data path"):
 * S3 reaches "up to 100 Gb/s on a single instance" (S3 performance
 * design patterns), so a node reads S3 at min(its ENA bandwidth, 100
 * Gb/s); gp3 gives 125 MB/s per volume without charge and up to 1,000
 * MB/s provisioned (EBS pricing and volume types), capped by the
 * instance's EBS bandwidth; FSx for Lustre Persistent-2 SSD serves 125
 * MB/s per TiB at its base tier, in 1.2 TiB then 2.4 TiB steps; EFS
 * Elastic throughput reads up to 20 GiB/s per file system (the low end of
 * its 20-60 GiB/s) and 1,500 MiB/s per client (EFS performance). */
#define S3_INSTANCE_MBYTES_S  12500.0
#define GP3_BASE_MBYTES_S     125.0
#define GP3_MAX_MBYTES_S      1000.0
#define GP3_MIN_GB            8.0
#define FSX_MBYTES_S_PER_TIB  125.0
#define FSX_MIN_TIB           1.2
#define FSX_STEP_TIB          2.4
#define EFS_FS_READ_MBYTES_S  21474.836480
#define EFS_CLIENT_MBYTES_S   1572.864
#define HOST_RESERVE_GIB       8.0
#define HOST_PER_DEVICE_GIB    2.0
/* Hugging Face save_pretrained/push_to_hub max_shard_size default "5GB"
 * (transformers docs): 5e9 B in GiB. */
#define HOST_SHARD_GIB         4.656612873077393
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
/* Online LLM serving's admission limits (docs/estimation.md 5.4, "Default
 * service level"): vLLM's --max-num-seqs default 256 (docs.vllm.ai,
 * "Engine Arguments"), taken by every LLM engine without its own; TGI's
 * --max-concurrent-requests default 128 (huggingface.co/docs/
 * text-generation-inference/reference/launcher). TensorRT-LLM's is its
 * max_batch_requests in data/engines.json. */
#define VLLM_MAX_NUM_SEQS           256
#define TGI_MAX_CONCURRENT_REQUESTS 128
/* A serving plan fits when its memory plus this headroom does: the
 * memory-fit rule's default headroom_pct (data/rules.json; vLLM's default
 * --gpu-memory-utilization 0.9 leaves the same 10%), applied by the
 * estimator too so that `estimate` and `recommend` agree on every fit and
 * the serving batch is lowered until it holds. `recommend` passes its
 * rules' value in ecf_workload.headroom_pct. */
#define SERVE_HEADROOM 0.10

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
    int ar_curve; /* ecf_ar_curve: measured all-reduce sweep of the node's
                     NVSwitch generation; NONE = ring over the link */
    double pcie_busbw_gbytes_s; /* PCIe node: the NCCL busbw its serving
                                   all-reduces run at (pcie_allreduce_s);
                                   0 = not a PCIe node */
    double net_gbytes_s;  /* inter-node, per node */
    double alpha_net;
    bool power_limited; /* TDP <= POWER_LIMITED_W */
    double burst_baseline, burst_usd_vcpu_h; /* t-family: baseline per vCPU
        (0 = not burstable); unlimited surplus $/vCPU-h (0 = standard) */
    double runtime_gib; /* CPU-only: the runtime's own host RAM
                           (CPU_RUNTIME_*), taken from mem_gib */
    const char *runtime; /* its name, for the notes; NULL = none */
    double gemm_scale; /* MAMF of the part / MAMF_H100 (1 = unmeasured) */
    bool gemm_measured; /* part with a MAMF_* or Hopper (5.3) */
    double fp32_scale; /* measured fp32 (CUDA-core) matmul ceiling of the
                          part / the V100's, FP32_MM_*; 0 = unmeasured (1) */
    double host_gbytes_s; /* host CPU's sustained DRAM bandwidth, whole
                             node (as a CPU device's bw_gbytes_s) */
    bool cpu_matrix_bf16; /* CPU host whose bf16 rate is a matrix
                             engine's (AMX: >= 8x its fp32 rate);
                             training there runs at U_CPU_AMX_TRAIN */
    double wo_weight_bytes; /* LLM serving, weight-only fp8 on a GPU
                               without fp8 math (the engine's
                               fp8_weight_only: vLLM's FP8 Marlin): bytes
                               per stored and read weight while the math
                               runs at the 16-bit precision; 0 = none */
} devinfo;

/* The device class a serving engine is picked for (serve_engines.h's
 * serve_dev values: 0 other, 1 Neuron, 2 an NVIDIA GPU). */
static inline int serve_dev_of(const devinfo *d)
{
    if (d->cpu)
        return 0;
    if (d->gen == GEN_NEURON)
        return 1;
    return d->gen >= GEN_OLD && d->gen <= GEN_BLACKWELL ? 2 : 0;
}

void warn(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);
void ecf_est_assume_(ecf_estimate *e, const char *fmt, ...) ECF_PRINTF(2, 3);

typedef struct {
    ecf_parallelism par;
    int tp, dp, pp;
    bool ckpt;
    int batch;
} plan;

/* Defined in estimate.c (notes), estimate_scaling.c, estimate_memory.c,
 * estimate_serve.c and estimate_train.c. */
void data_and_host(ecf_estimate *e,
                   const ecf_model *m,
                   const ecf_workload *w,
                   const ecf_instance *inst,
                   const devinfo *d,
                   int nodes);
/* estimate_storage.c: resolves w->storage for `inst` into e->storage,
 * data_source, storage_gb/capacity_gb/mbytes_s and returns the MB/s one
 * node reads (warns when --storage nvme cannot hold the dataset). */
double storage_path(ecf_estimate *e,
                    const ecf_workload *w,
                    const ecf_instance *inst,
                    int nodes);
void infer_memory(ecf_memory *mem,
                  const ecf_model *m,
                  const ecf_workload *w,
                  ecf_precision p,
                  const plan *pl,
                  const devinfo *d);
/* wo_weight_bytes: devinfo's (0 = the workload's precision) */
void ecf_startup_apply(ecf_estimate *e, const ecf_model *m, const ecf_workload *w,
                   const ecf_instance *inst, int devices, double wo_weight_bytes);
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
/* Whether the plan search's leanest plan fits on `nodes` nodes: exactly
 * when run_train's plan fits (estimate_train.c). */
bool train_lean_fits(const ecf_model *m,
                     const ecf_workload *w,
                     const devinfo *d,
                     int nodes,
                     ecf_precision p);
/* estimate_neuron.c: serving on Neuron, the device is the NeuronCore
 * (rewrites d and *peak; returns the cores per chip, 1 = unchanged). */
int ecf_est_neuron_core_view(devinfo *d, const ecf_instance *inst,
                             double *peak);
double train_grad_bytes(const ecf_workload *w, double wb);
/* Step seconds --offload optimizer adds (estimate_memory.c). */
double offload_step_s(const ecf_memory *mem,
                      const ecf_workload *w,
                      ecf_precision p,
                      const devinfo *d);
double train_opt_bytes(const ecf_workload *w, double wb);
void train_memory(ecf_memory *mem,
                  const ecf_model *m,
                  const ecf_workload *w,
                  ecf_precision p,
                  const plan *pl,
                  const devinfo *d);
/* Bytes per micro-batch of the pass that adds each micro-batch's weight
 * gradients into the gradient buffer, n micro-batches per optimizer step
 * (estimate_memory.c; docs/estimation.md 5.4, "Accumulation pass"). */
double accum_pass_bytes(const plan *pl,
                        const ecf_memory *mem,
                        const ecf_model *m,
                        const ecf_workload *w,
                        const devinfo *d,
                        int n);

/* ================================================================ */
/* Small helpers, inline in every file that uses them (the hot path: */
/* a serving estimate calls these per batch size and per group)      */
/* ================================================================ */

static inline bool is_llm(const ecf_model *m)
{
    return ecf_model_kind_is_llm(m->kind);
}

static inline bool is_vision(const ecf_model *m)
{
    return m->kind == ECF_KIND_CNN || m->kind == ECF_KIND_VIT ||
           m->kind == ECF_KIND_DIFFUSION;
}

/* Parameters that take part in matrix multiplies per token: everything
 * but the input embedding lookup (and learned positions); the LM head is a
 * GEMM, so a tied embedding counts once. Encoders have no LM head at
 * fine-tune/inference time. */
static inline double matmul_params(const ecf_model *m)
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
static inline double fwd_flops_sample(const ecf_model *m, int seq)
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
static inline double lora_params(const ecf_model *m, int r)
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

/* Bytes one UNet training sample's forward saves for its backward, from
 * the UNet's shape (estimate_diffusion.c; docs/estimation.md 4.3,
 * "Diffusion training"), elem_bytes per element; `naive`: eager attention
 * (the softmax outputs are saved too). 0 for a model without a UNet. */
double ecf_est_unet_train_bytes(const ecf_model *m, double elem_bytes,
                                bool naive);

/* Diffusion training traffic, accesses per saved activation byte: the
 * producer writes it and its consumer reads it in the forward, the
 * backward reads it, writes its gradient and reads that gradient once
 * (docs/estimation.md 5.4, "Diffusion training"). */
#define DIFF_TRAIN_ACCESSES 5.0

/* Activation bytes one diffusion training sample saves (no checkpointing):
 * a UNet from its shape, a diffusion transformer (no "unet") from
 * act_mib_per_sample, derived from its block count and width
 * (docs/estimation.md 2.1). elem_bytes: 2 in 16-bit, 4 in fp32. */
static inline double diff_train_act_bytes(const ecf_model *m,
                                          const ecf_workload *w,
                                          double elem_bytes)
{
    if (m->unet_levels > 0)
        return ecf_est_unet_train_bytes(m, elem_bytes, w->naive_attention);
    return m->act_mib_per_sample * 1048576.0 * elem_bytes / 2.0;
}

/* Whether a transformer's attention stores its a x s x s score matrices
 * (docs/estimation.md 5.3, "Attention kernel"). The default follows the
 * framework's current attention: PyTorch 2's scaled_dot_product_attention
 * (flash or memory-efficient backends: O(s) extra memory, no score
 * traffic), the default attention of Hugging Face's BERT, RoBERTa,
 * DistilBERT, ViT and Whisper classes since transformers 4.41
 * (attn_implementation "sdpa"), and JAX's fused dot-product attention
 * (jax.nn.dot_product_attention; XLA's cuDNN fused MHA). The scores are
 * stored on the stacks that compute them as separate ops: eager attention
 * (--attention eager: attn_implementation "eager", diffusers' pre-2.0
 * AttnProcessor) and TensorFlow graphs (--framework tensorflow: Keras
 * MultiHeadAttention and the TF BERT of NVIDIA's DeepLearningExamples run
 * matmul, softmax and dropout as ops) and Neuron devices (d: NULL when
 * none), where SDPA has no fused backend and falls back to its math
 * implementation (matmul, softmax, matmul: torch.nn.functional.
 * scaled_dot_product_attention's reference code) in the traced XLA graph,
 * as the Hugging Face encoder tutorials of torch-neuronx run. Decoder
 * training stores them only under --attention eager (its stacks run
 * fused kernels by default: NxD's flash attention on Neuron). */
static inline bool stores_scores(const ecf_model *m,
                                 const ecf_workload *w,
                                 const devinfo *d)
{
    if (!ecf_model_kind_is_transformer(m->kind))
        return false;
    if (w->naive_attention)
        return true;
    if (is_llm(m))
        return false;
    return w->framework == ECF_FW_TENSORFLOW ||
           (d && d->gen == GEN_NEURON && !d->cpu);
}

/* Training activations per sample per device, bytes, for transformers;
 * `scores`: the attention stores its score matrices (stores_scores). */
static inline double tf_act_bytes(const ecf_model *m,
                                  int seq,
                                  bool ckpt,
                                  double act_scale,
                                  int tp,
                                  bool scores)
{
    double s = seq, h = m->hidden, a = m->heads;
    double per_layer = s * h * ACT_BYTES_PER_SBH;
    if (scores)
        per_layer += ACT_ATTN_SCORES * a * s * s;
    per_layer *= act_scale / tp;
    /* Full recomputation keeps each layer's 16-bit input (2*s*h bytes)
     * plus one layer's full set during its recompute. The LM head's
     * logits are train_logit_bytes' (estimate_memory.c). */
    if (ckpt)
        return m->layers * 2.0 * s * h * act_scale / tp + per_layer;
    return m->layers * per_layer;
}

/* ecf_kv_dtype_resolve / ecf_kv_bytes_per_elem with the engine's row
 * in hand (NULL = no engine); inline: the serving fit and the decode step
 * ask for it on every candidate plan. docs/estimation.md 4.3, "KV cache
 * precision". */
static inline int kv_dtype_resolve_row(const ecf_workload *w, int precision,
                                       const ecf_engine_perf *eng)
{
    if (w->kv_cache_dtype > ECF_KV_AUTO && w->kv_cache_dtype <= ECF_KV_FP32)
        return w->kv_cache_dtype;
    if (precision == ECF_PREC_FP32 || precision == ECF_PREC_TF32)
        return ECF_KV_FP32;
    if (precision == ECF_PREC_FP8 && eng && eng->fp8_kv_auto)
        return ECF_KV_FP8;
    return precision == ECF_PREC_FP16 ? ECF_KV_FP16 : ECF_KV_BF16;
}

static inline double kv_bytes_per_elem_row(const ecf_workload *w,
                                           int precision,
                                           const ecf_engine_perf *eng)
{
    int kv = kv_dtype_resolve_row(w, precision, eng);
    return kv == ECF_KV_FP8 ? 1.0 : kv == ECF_KV_FP32 ? 4.0 : 2.0;
}

/* Bytes of K and V per token of context, whole model. */
static inline double kv_bytes_per_token(const ecf_model *m, double kv_elem)
{
    if (!is_llm(m))
        return 0;
    return ecf_model_kv_elems_per_token(m) * kv_elem; /* GQA or MLA latent */
}

static inline bool tensor_precision(ecf_precision p)
{
    return p != ECF_PREC_FP32;
}

static inline double device_factor(const devinfo *d, ecf_precision p)
{
    double f = 1.0;
    if (p == ECF_PREC_FP8)
        f *= U_FP8;
    if (d->power_limited)
        f *= U_POWER_LIMITED;
    return f;
}

/* Achieved fraction of peak for GEMM-dominated work of width h, with
 * ceiling `base` (U_TRAIN or U_INFER): saturating in the width. */
static inline double u_gemm(const devinfo *d, ecf_precision p, double base,
                            double h)
{
    if (d->cpu)
        return U_CPU;
    if (h < 1)
        h = U_HIDDEN_HALF;
    if (!tensor_precision(p) || d->gen == GEN_OLD)
        return U_FP32 * (d->fp32_scale > 0 ? d->fp32_scale : 1.0);
    if (d->gen == GEN_NEURON) /* published MFU, no width term */
        return NEURON_MFU * base / U_TRAIN * device_factor(d, p);
    return base * h / (h + U_HIDDEN_HALF) * device_factor(d, p);
}

/* Attention-score traffic of training, for transformers that materialise
 * the a x s x s scores (stores_scores: eager attention and TensorFlow
 * graphs; 0 for the fused kernels, which keep the scores on chip).
 * Decoders under --attention eager add the same per-layer terms. Bytes per score element, 16-bit scores
 * and a 1-byte dropout mask: forward 13 = QK^T writes S (2), softmax
 * reads S and writes P (4), dropout reads P, writes P' and the mask (5),
 * P'V reads P' (2); backward 19 = dP' written (2), dV reads P' (2),
 * dropout backward reads dP' and the mask and writes dP (5), softmax
 * backward reads dP and P and writes dS (6), dQ and dK read dS (4). */
#define ATTN_SCORE_FWD_BYTES 13.0
#define ATTN_SCORE_BWD_BYTES 19.0
static inline double attn_score_train_bytes(const ecf_model *m,
                                            const ecf_workload *w,
                                            const devinfo *d,
                                            int seq,
                                            ecf_precision p,
                                            bool ckpt)
{
    double b;
    if (!stores_scores(m, w, d) || seq <= 0)
        return 0;
    b = (ATTN_SCORE_FWD_BYTES * (ckpt ? 2.0 : 1.0) + ATTN_SCORE_BWD_BYTES) *
        m->heads * (double)seq * seq * m->layers;
    return (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 * b : b;
}

/* Inference: 8 of the forward's 13 bytes per score element (no dropout:
 * QK^T writes S, softmax reads S and writes P, P V reads P). */
#define ATTN_SCORE_INFER_BYTES 8.0
static inline double attn_score_infer_bytes(const ecf_model *m,
                                            const ecf_workload *w,
                                            const devinfo *d,
                                            int seq,
                                            ecf_precision p)
{
    double b;
    if (!stores_scores(m, w, d) || seq <= 0)
        return 0;
    b = ATTN_SCORE_INFER_BYTES * m->heads * (double)seq * seq * m->layers;
    return (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 * b : b;
}

/* Transformer training GEMMs: u_gemm at U_TRAIN, on tensor cores scaled
 * by the part's measured matmul ceiling (MAMF_*). */
static inline double u_train_gemm(const devinfo *d, ecf_precision p,
                                  double h)
{
    double u;
    if (d->cpu && d->cpu_matrix_bf16 && p == ECF_PREC_BF16)
        return U_CPU_AMX_TRAIN;
    if (d->gen == GEN_NEURON && !d->cpu && tensor_precision(p))
        return NEURON_TRAIN_GEMM * device_factor(d, p);
    u = u_gemm(d, p, U_TRAIN, h);
    if (!d->cpu && tensor_precision(p) && d->gen != GEN_OLD)
        u *= d->gemm_scale;
    return u;
}

/* Element-wise passes of one convnet training step (CNN_TRAIN_*). */
static inline double cnn_train_traffic(const ecf_workload *w)
{
    if (w->fused_conv_bn)
        return CNN_TRAIN_TRAFFIC_FUSED;
    if (w->framework == ECF_FW_TENSORFLOW || w->framework == ECF_FW_JAX)
        return CNN_TRAIN_TRAFFIC_XLA;
    return CNN_TRAIN_TRAFFIC;
}

/* Winograd's minimal filtering F(2x2, 3x3) does a 3x3 stride-1
 * convolution with 16 multiplies per 4 outputs instead of 36: 2.25x
 * fewer (Lavin & Gray 2016, "Fast Algorithms for Convolutional Neural
 * Networks", sec. 4; F(4x4, 3x3) reaches 4x). cuDNN runs it forward and
 * for both gradients (CUDNN_CONVOLUTION_{FWD,BWD_DATA,BWD_FILTER}_ALGO_
 * WINOGRAD_NONFUSED since cuDNN 5.1). Credited only where convolutions
 * run on CUDA cores (U_FP32): on tensor cores implicit GEMM is faster. */
#define WINOGRAD_F2X3_GAIN 2.25

/* FLOPs a convnet's convolutions cost per direct-convolution FLOP:
 * 1 - f + f / 2.25 for the model's Winograd-eligible share f
 * (winograd_frac) on an NVIDIA GPU's CUDA cores, else 1. */
static inline double conv_flops_factor(const ecf_model *m, const devinfo *d,
                                       ecf_precision p)
{
    double f = m->winograd_frac;
    if (f <= 0 || d->cpu || d->gen == GEN_CPU || d->gen == GEN_NEURON ||
        d->gen == GEN_OTHER || (tensor_precision(p) && d->gen != GEN_OLD))
        return 1.0;
    return 1.0 - f + f / WINOGRAD_F2X3_GAIN;
}

static inline double u_conv(const devinfo *d, ecf_precision p)
{
    if (d->cpu)
        return U_CPU;
    if (!tensor_precision(p) || d->gen == GEN_OLD)
        return U_FP32 * (d->fp32_scale > 0 ? d->fp32_scale : 1.0);
    return U_CNN_TC * device_factor(d, p);
}

/* Convolutions in a training step: on a CPU matrix engine in bf16 at
 * U_CPU_AMX_TRAIN, as transformer GEMMs (u_train_gemm). */
static inline double u_conv_train(const devinfo *d, ecf_precision p)
{
    if (d->cpu && d->cpu_matrix_bf16 && p == ECF_PREC_BF16)
        return U_CPU_AMX_TRAIN;
    return u_conv(d, p);
}

static inline bool fits(const ecf_memory *mem)
{
    return mem->total_per_device_gib <= mem->available_per_device_gib;
}

/* Serving fit: with the memory-fit rule's headroom (SERVE_HEADROOM
 * unless the workload carries the rules' own). */
static inline bool fits_serving(const ecf_memory *mem, const ecf_workload *w)
{
    double h = w->headroom_set ? w->headroom_pct / 100.0 : SERVE_HEADROOM;
    return mem->total_per_device_gib * (1.0 + h) <=
           mem->available_per_device_gib;
}

/* Ring all-reduce of `bytes` over n participants at `gbytes_s` each:
 * 2(n-1)/n x bytes / bandwidth + 2(n-1) x alpha. */
static inline double
allreduce_s(double bytes, int n, double gbytes_s, double alpha, double eff)
{
    if (n <= 1 || gbytes_s <= 0)
        return 0;
    return 2.0 * (n - 1) / n * bytes / (gbytes_s * 1e9 * eff) +
           2.0 * (n - 1) * alpha;
}

/* NCCL's ring on PCI (the NCCL_* constants above): the faster of LL
 * (small latency, a quarter of the bus bandwidth) and Simple. */
static inline double pcie_allreduce_s(double bytes, int n, double busbw)
{
    double steps = 2.0 * (n - 1), move, ll, simple;
    if (n <= 1 || busbw <= 0 || bytes <= 0)
        return 0;
    move = steps / n * bytes / (busbw * 1e9);
    ll = NCCL_RING_LL_BASE_S + steps * NCCL_PCI_LL_STEP_S +
         move / NCCL_LL_BW_FRACTION;
    simple = NCCL_RING_SIMPLE_BASE_S + steps * NCCL_PCI_SIMPLE_STEP_S + move;
    return ll < simple ? ll : simple;
}

/* A serving step's all-reduce of `bytes` over n devices of one node: the
 * published NCCL sweep of the node's NVSwitch generation, by message size,
 * where there is one (ec2fit/collectives.h; docs/estimation.md 6,
 * "All-reduce by message size"), NCCL's ring model on a PCIe node
 * (pcie_allreduce_s), else the ring over the device link.
 * Training keeps the ring (grad_sync_s, the TP term of train_times): its
 * collectives overlap compute in ways the step model does not describe
 * (same section). */
static inline double link_allreduce_s(const devinfo *d, double bytes, int n)
{
    if (d->ar_curve != ECF_AR_CURVE_NONE)
        return ecf_ar_curve_allreduce_s(d->ar_curve, bytes, n);
    if (d->pcie_busbw_gbytes_s > 0)
        return pcie_allreduce_s(bytes, n, d->pcie_busbw_gbytes_s);
    return allreduce_s(bytes, n, d->link_gbytes_s, d->alpha_link,
                       LINK_EFFICIENCY);
}

double ecf_est_net_ar_latency_s(int n, double alpha); /* scaling.c */
/* Gradient sync time for `bytes` over dp devices spread across nodes:
 * intra-node ring over the device link, then across nodes at the ring's
 * bandwidth and the lower of ring and tree latency (hierarchical). */
static inline double
grad_sync_s(double bytes, int per_node, int nodes, const devinfo *d)
{
    double t = allreduce_s(bytes, per_node, d->link_gbytes_s, d->alpha_link,
                           LINK_EFFICIENCY);
    if (nodes > 1)
        t += allreduce_s(bytes, nodes, d->net_gbytes_s, 0, NET_EFFICIENCY) +
             ecf_est_net_ar_latency_s(nodes, d->alpha_net);
    return t;
}

/* Whether the serving engine a plan on `d` uses (ecf_serve_engine_pick) has
 * an fp8 weight-only kernel (data/engines.json fp8_weight_only;
 * estimate_serve_other.c). */
bool ecf_est_engine_fp8_weight_only(const ecf_model *m, const ecf_workload *w,
                                    const devinfo *d);

/* CPU-only host: the runtime's own RAM (CPU_RUNTIME_*) off d->mem_gib,
 * named in d->runtime (estimate_memory.c); no-op on accelerators. */
void ecf_est_cpu_runtime(devinfo *d, const ecf_model *m,
                         const ecf_workload *w);

#endif
