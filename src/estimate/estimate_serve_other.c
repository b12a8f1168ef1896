/*
 * estimate_serve_other.c - inference of the models that are not LLMs
 * (encoders, ViT, convnets, diffusion, speech): one batch's forward as a
 * roofline of its FLOPs and bytes, the attention scores an unfused GPU
 * forward writes, an eager engine's kernel launches, and the GEMM
 * efficiency of an inference pass at M tokens per GEMM, which the LLM
 * half shares (docs/estimation.md 5.3, 5.4, 5.5).
 */
#include "estimate_serve.h"

#include <string.h>

#include "estimate_gemm.h"

bool ecf_est_engine_fp8_weight_only(const ecf_model *m, const ecf_workload *w,
                                    const devinfo *d)
{
    return ecf_serve_engine_get(ecf_serve_engine_pick(m, w,
                                              (serve_dev)serve_dev_of(d)))
        ->fp8_weight_only;
}

/* Inference GEMM efficiency at M tokens per GEMM (docs/estimation.md 5.3,
 * "Compute efficiency by M"): on the parts whose matmul ceiling is
 * measured (A100, H100, H200, RTX 4090, A10G, L40S, V100), in
 * bf16/fp16/fp8, the published sweep's compute-bound rate at M
 * (ecf_est_gemm_eff_tokens, an H100's; another part's scaled by its MAMF
 * over the H100's, gemm_scale), x
 * U_FP8 in fp8, x the
 * width term for the work between the GEMMs. It replaces U_INFER there;
 * elsewhere u_gemm at U_INFER. The caller's roofline charges the bytes. */
double ecf_serve_u_infer(const devinfo *d, ecf_precision p, double h, double M)
{
    if (d->cpu || !d->gemm_measured ||
        (p != ECF_PREC_BF16 && p != ECF_PREC_FP16 && p != ECF_PREC_FP8))
        return u_gemm(d, p, U_INFER, h);
    if (h < 1)
        h = U_HIDDEN_HALF;
    return ecf_est_gemm_eff_tokens(M) * d->gemm_scale * h /
           (h + U_HIDDEN_HALF) * (p == ECF_PREC_FP8 ? U_FP8 : 1.0);
}

/* Kernels one eager forward of a non-LLM transformer launches, from its
 * architecture (docs/estimation.md 5.5, "Eager dispatch"): per encoder
 * layer, Q, K and V projections (3), scores GEMM, scale, mask add,
 * softmax, context GEMM and the head-merge copy (6), output projection,
 * residual add and LayerNorm (3), FFN up, GELU and down (3), residual add
 * and LayerNorm (2) = 17 (Hugging Face BertLayer / ViTLayer eager
 * attention; the pre-LN ViT layer swaps the mask add for its extra
 * LayerNorm). Outside the layers: BERT-style embeddings (three lookups,
 * two adds, LayerNorm), the attention mask (cast, subtract, scale) and
 * the pooler (dense, tanh) = 11; ViT's patch convolution, class token
 * concat, position add, final LayerNorm and classifier = 5. Convnets
 * carry their own count (zoo eager_kernels: one kernel per convolution,
 * BatchNorm, activation, pooling, residual add, SE multiply and the
 * classifier, counted from torchvision's modules). */
#define EAGER_KERNELS_PER_LAYER 17
#define EAGER_KERNELS_ENCODER_EXTRA 11
#define EAGER_KERNELS_VIT_EXTRA 5

/* Element-wise passes an eager Hugging Face forward makes over the
 * attention scores besides the softmax that ATTN_SCORE_INFER_BYTES
 * counts: BertSelfAttention.forward divides the scores by sqrt(d) and
 * adds the mask as two separate ops (huggingface/transformers
 * models/bert/modeling_bert.py); ViTSelfAttention scales only (no
 * mask). Each pass reads and writes every score: 2 x 2 bytes at 16 bits
 * (docs/estimation.md 5.5, "Eager dispatch"). The same two kernels are in
 * EAGER_KERNELS_PER_LAYER. */
#define EAGER_SCORE_PASSES_ENCODER 2.0
#define EAGER_SCORE_PASSES_VIT 1.0
#define EAGER_SCORE_PASS_BYTES 4.0

/* A compiled graph's host enqueue per forward (TensorRT without CUDA
 * graphs, trtexec's default and Triton's): it overlaps the device's work,
 * so it sets the pace only when the device finishes first (launch-bound).
 * The median of NVIDIA's four published small-engine runs, 4.7, 27.2,
 * 41.2 and 41.3 us (TensorRT 10.16, NVIDIA/trt-samples-for-hackathon-cn
 * @353a4d73 cookbook/07-Tool/trtexec/result-08/01/06/07.log; 2.0 us with
 * --useCudaGraph, result-03.log); docs/estimation.md 5.5, "Compiled
 * graphs". */
#define COMPILED_ENQUEUE_S 34.2e-6

static double eager_score_passes(const ecf_model *m,
                                 const serve_engine *eng)
{
    if (eng->op_dispatch_s <= 0)
        return 0;
    if (m->kind == ECF_KIND_ENCODER)
        return EAGER_SCORE_PASSES_ENCODER;
    if (m->kind == ECF_KIND_VIT)
        return EAGER_SCORE_PASSES_VIT;
    return 0;
}

/* Host time to launch one forward's kernels on an eager engine (each
 * kernel pays the engine's op_dispatch_s: Python, the dispatcher and the
 * CUDA launch), or -1 when the per-forward figure applies instead: a
 * compiled engine; a device other than an NVIDIA GPU (on a CPU the ops
 * run in the calling thread, inside the GEMM efficiency; Neuron and the
 * other accelerators run a compiled graph even under Hugging Face, e.g.
 * optimum-neuron); or a model whose kernel count the zoo cannot give
 * (diffusion, a convnet without eager_kernels). */
double ecf_serve_eager_dispatch_s(const ecf_model *m, const devinfo *d,
                              const serve_engine *eng)
{
    double kernels;
    bool cuda = d->gen >= GEN_OLD && d->gen <= GEN_BLACKWELL && !d->cpu;
    if (eng->op_dispatch_s <= 0 || !cuda)
        return -1;
    if (m->kind == ECF_KIND_CNN && m->eager_kernels > 0)
        return m->eager_kernels * eng->op_dispatch_s;
    if (m->layers <= 0)
        return -1;
    if (m->kind == ECF_KIND_ENCODER)
        kernels = EAGER_KERNELS_ENCODER_EXTRA;
    else if (m->kind == ECF_KIND_VIT)
        kernels = EAGER_KERNELS_VIT_EXTRA;
    else
        return -1;
    kernels += (double)EAGER_KERNELS_PER_LAYER * m->layers;
    return kernels * eng->op_dispatch_s;
}

void ecf_serve_other_times(infer_times *t,
                       const ecf_model *m,
                       const ecf_workload *w,
                       const devinfo *d,
                       ecf_precision p,
                       double peak,
                       const plan *pl,
                       const serve_engine *eng,
                       double *u_out)
{
    double b = pl->batch, flops, bytes, compute, memt, u, host;
    double bw = d->bw_gbytes_s * 1e9 * (d->cpu ? 1.0 : U_BW);
    double wb = ecf_estimate_weight_bytes(p);
    double act_elem = (p == ECF_PREC_FP32 || p == ECF_PREC_TF32) ? 2.0 : 1.0;
    /* a compiled graph's convnet passes over its feature maps (docs/
     * estimation.md 5.5, "Compiled graphs"): each convolution writes its
     * output once, BatchNorm folded into it and the activation and the
     * residual add in its epilogue, and the next reads it once; int8
     * layers pass int8 tensors */
    double cnn_passes = eng->fused_graph ? CNN_INFER_TRAFFIC_FUSED
                                         : CNN_INFER_TRAFFIC;
    double cnn_elem = eng->fused_graph && p == ECF_PREC_INT8 ? 0.5 : act_elem;

    memset(t, 0, sizeof(*t));
    flops = b * fwd_flops_sample(m, w->seq_len);
    if (m->kind == ECF_KIND_DIFFUSION)
        flops *= (double)ecf_model_cfg_passes(m) *
                 m->diffusion_steps; /* classifier-free guidance */
    /* tokens per GEMM: the batch's tokens (M, 5.3), as for the
     * activations below */
    if (ecf_model_kind_is_transformer(m->kind))
        u = ecf_serve_u_infer(d, p, m->hidden,
                    matmul_params(m) > 0
                        ? b * fwd_flops_sample(m, w->seq_len) /
                              (2.0 * matmul_params(m))
                        : 0);
    else
        u = u_conv(d, p);
    u *= eng->conv_factor;
    if (!ecf_model_kind_is_transformer(m->kind))
        flops *= conv_flops_factor(m, d, p); /* Winograd, CUDA-core fp32 */
    compute = peak > 0 ? flops / pl->tp / (peak * 1e12 * u) : 0;
    bytes = m->params * wb / pl->tp;
    /* An encoder's word-embedding lookup gathers the batch's token rows,
     * not the vocab x hidden table (sequence classification has no
     * vocabulary head); at batch 1 x 16 tokens the table is a fifth of
     * BERT-base's reads (docs/estimation.md section 7). */
    if (m->kind == ECF_KIND_ENCODER && m->vocab > 0 &&
        m->hidden > 0 &&
        w->seq_len > 0 && b * w->seq_len < m->vocab)
        bytes -= ((double)m->vocab - b * w->seq_len) * m->hidden * wb /
                 pl->tp;
    /* transformers: the per-GEMM roofline's activations at M = b x tokens
     * per sample (encoders: the sequence; ViT and speech: the tokens their
     * FLOP count implies), docs/estimation.md 5.3 "Tokens per GEMM" */
    if (ecf_model_kind_is_transformer(m->kind) && matmul_params(m) > 0 &&
        !d->cpu)
        bytes += b * fwd_flops_sample(m, w->seq_len) /
                 (2.0 * matmul_params(m)) *
                 ecf_est_gemm_act_bytes_per_token(
                     m, pl->tp, p == ECF_PREC_FP8 ? 1.0 : 2.0 * act_elem);
    /* element-wise passes over the forward's feature maps: a convnet's
     * counted set; a diffusion model's from its shape (the tensors a
     * training forward would save: diff_train_act_bytes), per pass of
     * each denoising step */
    if (m->kind == ECF_KIND_DIFFUSION)
        bytes += b * diff_train_act_bytes(m, w, 2.0 * act_elem) *
                 cnn_passes * (double)ecf_model_cfg_passes(m) *
                 m->diffusion_steps;
    else if (!ecf_model_kind_is_transformer(m->kind))
        bytes += b * m->act_mib_per_sample * 1048576.0 * cnn_elem *
                 cnn_passes;
    memt = bytes / bw;
    t->mem_bound = memt > compute;
    t->weight_bytes = bytes;
    t->bw = bw;
    t->mem_s = memt;
    t->compute_s = compute;
    /* convnets: add (see CNN_INFER_TRAFFIC); transformers: roofline */
    if (ecf_model_kind_is_transformer(m->kind)) {
        t->latency_s = compute > memt ? compute : memt;
        /* Attention scores an unfused GPU forward writes and reads
         * between its GEMMs (docs/estimation.md 5.4): not TensorRT's fused
         * MHA (fused_graph: tensorrt, trtllm), not a compiled Neuron graph
         * (a layer's scores fit its 24 MiB SBUF), not a CPU (section 7). */
        if (d->gen >= GEN_OLD && d->gen <= GEN_BLACKWELL && !d->cpu &&
            !eng->fused_graph)
            t->latency_s += b * attn_score_infer_bytes(m, w, d, w->seq_len, p) *
                            (1.0 + eager_score_passes(m, eng) *
                                       EAGER_SCORE_PASS_BYTES /
                                       ATTN_SCORE_INFER_BYTES) /
                            pl->tp / bw;
    } else
        t->latency_s = compute + memt;
    /* An eager engine launches every kernel from the host, asynchronously:
     * the device runs behind the launches, so the forward takes the
     * slower of the two (tiny batch-1 kernels finish before the next one
     * is launched: flat in the sequence length, linear in the layers). */
    host = ecf_serve_eager_dispatch_s(m, d, eng);
    if (host < 0 && eng->fused_graph && !d->cpu && d->gen >= GEN_OLD &&
        d->gen <= GEN_BLACKWELL)
        host = COMPILED_ENQUEUE_S; /* a compiled graph on an NVIDIA GPU */
    if (host >= 0)
        t->latency_s = t->latency_s > host ? t->latency_s : host;
    if (host < 0 || eng->fused_graph)
        t->latency_s += eng->fwd_overhead_s;
    if (m->kind == ECF_KIND_SPEECH) {
        /* autoregressive text decoder: ~60% of the weights read per
         * generated token */
        t->per_token_s = m->params * wb * 0.6 / pl->tp / bw;
        /* An eager decoder (openai-whisper, transformers' generate without
         * a static cache and torch.compile) launches each decoder layer's
         * kernels from Python for every token: the host's launches and
         * the device's reads overlap, the slower sets the pace, and the
         * engine's per-step host work (sampling, logits processors)
         * follows (docs/estimation.md 5.5, "Eager speech decoders").
         * Whisper's decoder is half its layers (32 + 32 in large-v3). */
        if (eng->layer_dispatch_s > 0 && d->gen >= GEN_OLD &&
            d->gen <= GEN_BLACKWELL && !d->cpu && m->layers > 1) {
            double launch = eng->layer_dispatch_s * (m->layers / 2);
            if (launch > t->per_token_s)
                t->per_token_s = launch;
            t->per_token_s += eng->step_s;
        }
        t->latency_s += w->output_tokens * t->per_token_s;
    }
    *u_out = u;
}
