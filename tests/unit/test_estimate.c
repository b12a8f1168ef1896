/*
 * test_estimate.c - each estimator formula against a hand computation
 * (written out in the comment above each assertion), plus the validation
 * messages, the precision fallbacks, CPU-only instances and the sharding
 * choices. Instances are built here from datasheet figures so the tests do
 * not depend on data/catalog.json.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"
#include "estimate_fx.h"

typedef struct {
    ecf_zoo *zoo;
    ecf_accel a100, v100, t4, h100;
    ecf_instance p4de, p4de_1, p3_2x, p3_16x, g4dn, p5, c7i, cpu_small;
} fx;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    fx *f = calloc(1, sizeof(*f));
    if (!f || ecf_zoo_embedded(&f->zoo, &err) != 0)
        return -1;
    /* datasheet figures (dense): A100 80GB, V100, T4, H100 SXM */
    a100_80gb(&f->a100);
    gpu(&f->v100, "V100", "volta", 900, 15.7, 0, 125, 0, 0, 300);
    gpu(&f->t4, "T4", "turing", 320, 8.1, 0, 65, 0, 0, 70);
    gpu(&f->h100, "h100", "hopper", 3350, 67, 494.5, 989.5, 989.5, 1979, 700);
    p4de(&f->p4de, &f->a100);
    host(&f->p4de_1, "a100x1", &f->a100, 1, 80, ECF_LINK_NONE, 0, 12, 144, 50,
         0);
    host(&f->p3_2x, "p3.2xlarge", &f->v100, 1, 16, ECF_LINK_NONE, 0, 8, 61, 10,
         0);
    host(&f->p3_16x, "p3.16xlarge", &f->v100, 8, 16, ECF_LINK_NVLINK, 300, 64,
         488, 25, 0);
    host(&f->g4dn, "g4dn.xlarge", &f->t4, 1, 16, ECF_LINK_NONE, 0, 4, 16, 5, 0);
    host(&f->p5, "p5.48xlarge", &f->h100, 8, 80, ECF_LINK_NVSWITCH, 900, 192,
         2048, 3200, 3200);
    host(&f->c7i, "c7i.48xlarge", NULL, 0, 0, ECF_LINK_NONE, 0, 192, 384, 50,
         0);
    host(&f->cpu_small, "c7i.large", NULL, 0, 0, ECF_LINK_NONE, 0, 2, 4, 12.5,
         0);
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    ecf_zoo_free(f->zoo);
    free(f);
    return 0;
}

static const ecf_model *model(void **state, const char *name)
{
    return zoo_model(((fx *)*state)->zoo, name);
}

/* ---------------------------------------------------------------- */

static void test_estimate__weight_bytes(void **state)
{
    (void)state;
    /* int8: 1 byte + one fp16 scale per 128 = 1 + 2/128 = 1.015625;
     * int4: 0.5 + (fp16 scale + fp16 zero)/128 = 0.5 + 4/128 = 0.53125 */
    assert_float_equal(ecf_estimate_weight_bytes(ECF_PREC_FP32), 4.0, 0);
    assert_float_equal(ecf_estimate_weight_bytes(ECF_PREC_BF16), 2.0, 0);
    assert_float_equal(ecf_estimate_weight_bytes(ECF_PREC_FP8), 1.0, 0);
    assert_float_equal(ecf_estimate_weight_bytes(ECF_PREC_INT8), 1.015625, 0);
    assert_float_equal(ecf_estimate_weight_bytes(ECF_PREC_INT4), 0.53125, 0);
}

static void test_estimate__precision_fallbacks(void **state)
{
    fx *f = *state;
    ecf_precision ran;
    /* V100 has no bf16: runs fp16 (125 TFLOPS) */
    assert_float_equal(ecf_estimate_peak_tflops(&f->p3_2x, ECF_PREC_BF16, &ran),
                       125, 0);
    assert_int_equal(ran, ECF_PREC_FP16);
    /* A100 has no fp8: bf16 (312) */
    assert_float_equal(ecf_estimate_peak_tflops(&f->p4de, ECF_PREC_FP8, &ran),
                       312, 0);
    assert_int_equal(ran, ECF_PREC_BF16);
    /* tf32 on V100 -> fp32 15.7 */
    assert_float_equal(ecf_estimate_peak_tflops(&f->p3_2x, ECF_PREC_TF32, &ran),
                       15.7, 1e-12);
    assert_int_equal(ran, ECF_PREC_FP32);
    /* CPU: 192 vCPUs x 40 GFLOPS = 7.68 TFLOPS fp32, x2 for bf16 */
    assert_float_equal(ecf_estimate_peak_tflops(&f->c7i, ECF_PREC_FP32, &ran),
                       7.68, 1e-9);
    assert_float_equal(ecf_estimate_peak_tflops(&f->c7i, ECF_PREC_BF16, &ran),
                       15.36, 1e-9);
}

static void test_estimate__bf16_on_v100_warns(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_BF16;
    run_ok(&e, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_int_equal(e.precision, ECF_PREC_FP16);
    assert_true(e.n_warnings >= 1);
    assert_string_equal(e.warnings[0], "V100 has no bf16: runs as fp16");
}

static void test_estimate__full_finetune_memory_zero1(void **state)
{
    /* llama-2-7b (6,738,415,616 params), full fine-tune, bf16, batch 1,
     * seq 2048, recompute on, 8 x A100-80GB. DP needs 16 B/param = 100 GiB;
     * ZeRO-1 shards only the optimizer states over the 8 ranks (ZeRO
     * paper, P_os) and fits, with DP's all-reduce volume instead of FSDP's
     * 1.5x, so it wins:
     *   weights   2 x P / 2^30 = 12.551277 GiB, gradients the same
     *   optimizer 12 x P / 8 / 2^30 = 9.413458 GiB
     *   activations: 32 layers x 2*s*h (2*2048*4096 = 16,777,216 B)
     *     = 536,870,912 + one layer s*h*34 = 285,212,672
     *     + logits s*V*(2 + 4 + 4) = 2048*32000*10 = 655,360,000
     *     = 1,477,443,584 B = 1.375977 GiB */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.seq_len = 2048;
    w.activation_checkpointing = ECF_CKPT_ON;
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de, 1);
    assert_true(e.fits);
    assert_int_equal(e.parallelism, ECF_PAR_ZERO1);
    assert_float_equal(e.memory.weights_gib, 12.551277, 1e-5);
    assert_float_equal(e.memory.gradients_gib, 12.551277, 1e-5);
    assert_float_equal(e.memory.optimizer_gib, 9.413458, 1e-5);
    assert_float_equal(e.memory.activations_gib, 1.375977, 1e-5);
    /* overhead = 1 GiB + 5% of the parts (35.891989) = 2.794599 */
    assert_float_equal(e.memory.overhead_gib, 2.794599, 1e-5);
    assert_float_equal(e.memory.total_per_device_gib, 38.686588, 1e-5);
    assert_float_equal(e.memory.available_per_device_gib, 80, 0);
}

static void test_estimate__eight_bit_optimizer(void **state)
{
    /* 8-bit Adam: optimizer = 4 (fp32 master) + 1 + 1 = 6 B/param instead
     * of 12, so 10 B/param in all (62.8 GiB) and plain data parallelism
     * fits on 80 GB: optimizer 6 x 6,738,415,616 / 2^30 = 37.653831 GiB */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.seq_len = 2048;
    w.activation_checkpointing = ECF_CKPT_ON;
    w.optimizer_8bit = true;
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de, 1);
    assert_int_equal(e.parallelism, ECF_PAR_DP);
    assert_float_equal(e.memory.optimizer_gib, 37.653831, 1e-5);
}

static void test_estimate__pure_bf16_master_weights_none(void **state)
{
    /* --master-weights none (torchtune's pure bf16): no fp32 master, Adam
     * m and v in bf16: 2 + 2 + 2 + 2 = 8 B/param; llama-2-7b's
     * 6,738,415,616 params: optimizer 4 x P / 2^30 = 25.102561 GiB, grads
     * 2 x P / 2^30 = 12.551281 GiB. With 8-bit states stepped in the
     * backward pass: no gradient buffer, optimizer 2 x P = 12.551281 GiB,
     * 4 B/param in all. */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;
    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.seq_len = 2048;
    w.activation_checkpointing = ECF_CKPT_ON;
    w.master_weights = ECF_MASTER_NONE;
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de, 1);
    assert_int_equal(e.parallelism, ECF_PAR_DP);
    assert_float_equal(e.memory.optimizer_gib, 25.102561, 1e-5);
    assert_float_equal(e.memory.gradients_gib, 12.551281, 1e-5);
    w.optimizer_8bit = true;
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de, 1);
    assert_float_equal(e.memory.optimizer_gib, 12.551281, 1e-5);
    assert_float_equal(e.memory.gradients_gib, 0.0, 1e-12);
    /* the lower bound follows: 4 x P / 2^30 */
    w.optimizer_8bit = true;
    assert_int_equal(ecf_workload_resolve(&w, model(state, "llama-2-7b"),
                                          &err),
                     0);
    assert_float_equal(ecf_estimate_min_total_gib(model(state, "llama-2-7b"),
                                                  &w),
                       25.102561, 1e-5);
}

static void test_estimate__qlora_memory(void **state)
{
    /* QLoRA, llama-3.1-8b (8,030,261,248 params) on one A100:
     *   base weights 0.53125 B/param = 4,266,076,288 B = 3.973088 GiB
     *   LoRA r=16 on q,k,v,o and the 3 MLP matrices, per layer:
     *     q (4096+4096) + k,v 2 x (4096+1024) + o (4096+4096)
     *     + 3 x (4096+14336) = 8192+10240+8192+55296 = 81,920 x 16
     *     = 1,310,720; x 32 layers = 41,943,040 params
     *   x 16 B (fp32 weight, grad, Adam m, v) = 671,088,640 B = 0.625 GiB */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_QLORA;
    w.batch_size = 1;
    run_ok(&e, model(state, "llama-3.1-8b"), &w, &f->p4de_1, 1);
    assert_float_equal(e.memory.weights_gib, 3.973088, 1e-5);
    assert_float_equal(e.memory.lora_gib, 0.625, 1e-9);
    assert_float_equal(e.memory.gradients_gib, 0, 0);
    assert_float_equal(e.memory.optimizer_gib, 0, 0);
}

static void test_estimate__kv_cache_is_gqa_aware(void **state)
{
    /* KV = 2 x layers x kv_heads x head_dim x tokens x batch x 2 bytes.
     * llama-3.1-8b: 2*32*8*128*2 = 131,072 B/token; 1024+1024 tokens
     *   -> 268,435,456 B = 0.25 GiB.
     * llama-2-7b (no GQA): 2*32*32*128*2 = 524,288 B/token -> 1 GiB.
     * HF transformers keeps a contiguous cache of the whole context; a
     * paged engine (vLLM, the default) holds, on average, the prompt and
     * half the output: 1024 + 512 tokens -> 0.1875 GiB. */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_INFER;
    w.input_tokens = 1024;
    w.output_tokens = 1024;
    w.batch_size = 1;
    run_ok(&e, model(state, "llama-3.1-8b"), &w, &f->p4de_1, 1);
    assert_float_equal(e.memory.kv_cache_gib, 0.1875, 1e-12);
    assert_string_equal(e.engine, "vllm");
    w.engine = ECF_ENGINE_HF;
    run_ok(&e, model(state, "llama-3.1-8b"), &w, &f->p4de_1, 1);
    assert_float_equal(e.memory.kv_cache_gib, 0.25, 1e-12);
    /* weights 8,030,261,248 x 2 B = 14.957 GiB */
    assert_float_equal(e.memory.weights_gib, 8030261248.0 * 2 / GIB, 1e-9);
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de_1, 1);
    assert_float_equal(e.memory.kv_cache_gib, 1.0, 1e-12);
}

static void test_estimate__kv_cache_is_the_mla_latent(void **state)
{
    /* DeepSeek-V3 caches the MLA latent: 61 layers x (kv_lora_rank 512 +
     * qk_rope_head_dim 64) x 2 bytes = 70,272 B/token at bf16 (DeepSeek-V2
     * paper 2.1.2), not 2 x 61 x 128 heads x 192. Every tensor-parallel
     * rank holds the whole latent (it has no heads to split).
     * fp8 weights, 1024 + 1024 tokens, batch 64, one p5 (tp 8), a
     * contiguous cache (HF). HF's auto keeps the attention's bf16 tensors
     * over fp8 weights (docs/estimation.md 4.3):
     *   70,272 x 2048 x 64 = 9,210,691,584 B = 8.578125 GiB per device;
     * with --kv-cache-dtype fp8 (1 byte):
     *   35,136 x 2048 x 64 = 4,605,345,792 B = 4.2890625 GiB per device. */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    const ecf_model *m = model(state, "deepseek-v3");
    assert_float_equal(ecf_model_kv_elems_per_token(m) * 2.0, 70272.0, 0);
    w.task = ECF_TASK_INFER;
    w.engine = ECF_ENGINE_HF;
    w.precision = ECF_PREC_FP8;
    w.input_tokens = 1024;
    w.output_tokens = 1024;
    w.batch_size = 64;
    run_ok(&e, m, &w, &f->p5, 1);
    assert_float_equal(e.memory.kv_cache_gib, 70272.0 * 2048 * 64 / GIB,
                       1e-9);
    assert_float_equal(e.memory.kv_cache_gib, 8.578125, 1e-9);
    w.kv_cache_dtype = ECF_KV_FP8;
    run_ok(&e, m, &w, &f->p5, 1);
    assert_float_equal(e.memory.kv_cache_gib, 4.2890625, 1e-9);
}

static void test_estimate__decode_and_prefill_roofline(void **state)
{
    /* llama-2-7b bf16, batch 1, 128 in + 128 out, one A100-80GB
     * (2039 GB/s x 0.70 = 1427.3 GB/s; prefill GEMMs at the H100 sweep's
     * 647 / 989.5 TFLOPS (vLLM PR #19627, M 512: held below it) x the
     * A100's MAMF over the H100's (0.859 / 0.801) x 4096/5120 = 0.56100
     * of 312 TFLOPS = 175.03 TFLOPS achieved; docs/estimation.md 5.3,
     * "Compute efficiency by M").
     * Decode step: weights 13,476,831,232 B less the input embedding's
     *   262,144,000 (a lookup, not a read: docs/estimation.md 5.4) =
     *   13,214,687,232 B + KV 524,288 B x (128 + 64 average context) =
     *   100,663,296 -> 13,315,350,528 B / 1427.3e9 = 9.3290 ms; FLOPs
     *   2 x 6,607,343,616 (params minus the input embedding) +
     *   4*32*192*4096 = 13,315,350,528 -> 0.0889 ms. Memory bound:
     *   9.3290 ms, + 0.5 ms vLLM host time per step (the default engine;
     *   docs/estimation.md "Serving engines") = 9.8290 ms per token.
     * Prefill: (2 x 6,607,343,616 + 4*32*128*4096/2) x 128 tokens
     *   = 1.695775e12 FLOPs / 175.03e12 = 9.6884 ms; reading the weights
     *   and the prompt's activations through every GEMM (65,792 elements
     *   x 32 layers x 2 B x 128 tokens = 538,968,064 B; 5.3 "Tokens per
     *   GEMM"), 13,753,655,296 B / 1427.3e9 = 9.6361 ms, so at 128 tokens
     *   the prefill is just compute bound: 9.6884 ms, + 0.5 ms vLLM host
     *   time of the step that runs it (docs/estimation.md 5.4, TTFT) =
     *   TTFT 10.1884 ms (a lone request waits for no one).
     * Latency = 10.1884 + 127 further tokens x 9.8290 = 1258.48 ms. */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_INFER;
    w.batch_size = 1; /* a lone request (serving would batch otherwise) */
    w.input_tokens = 128;
    w.output_tokens = 128;
    run_ok(&e, model(state, "llama-2-7b"), &w, &f->p4de_1, 1);
    assert_float_equal(e.per_token_ms, 9.8290, 1e-3);
    assert_float_equal(e.ttft_ms, 10.1884, 1e-3);
    assert_float_equal(e.latency_ms, 1258.48, 0.1);
    assert_int_equal(e.bottleneck, ECF_BN_MEMORY_BW);
    assert_string_equal(e.throughput_unit, "tokens/s");
    assert_string_equal(e.engine, "vllm");
    /* 128 tokens / 1.25848 s = 101.71 tokens/s (gpt-fast, compiled with no
     * host step, measured 104.9) */
    assert_float_equal(e.throughput, 101.71, 0.05);
    assert_float_equal(e.max_qps_per_replica, 1.0 / 1.25848, 1e-3);
}

static void test_estimate__cnn_training_step(void **state)
{
    /* resnet50, fp16, batch 256, one V100:
     *   FLOPs 3 x 8.178 GFLOP x 256 = 6.2807e12 / (125e12 x 0.55)
     *   = 0.091356 s
     *   traffic: optimizer state 16 B x 25,557,032 x 2 (read + write)
     *   = 817,825,024 B + activations 256 x 41.2 MiB x 10 passes
     *   = 110,595,276,800 B; total / (900e9 x 0.7) = 0.176846 s
     *   step = 0.268202 s -> 256 / 0.268202 = 954.50 images/s */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_FP16;
    w.batch_size = 256;
    w.dataset_amount = 1281167;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 90;
    run_ok(&e, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_float_equal(e.compute_s, 0.091356, 1e-6);
    assert_float_equal(e.memory_s, 0.176846, 1e-6);
    assert_float_equal(e.step_time_s, 0.268202, 1e-6);
    assert_float_equal(e.throughput, 954.50, 0.01);
    assert_string_equal(e.throughput_unit, "images/s");
    /* 1,281,167 x 90 / 954.50 / 3600 = 33.556 h, plus the start-up:
     * 60 s boot + a 9 GB image at gp3's 125 MiB/s (training from
     * scratch reads no weights; docs/estimation.md "Fixed overheads") */
    assert_float_equal(e.startup_s, 60 + 9e9 / (125.0 * 1048576.0), 1e-6);
    assert_float_equal(e.time_hours,
                       1281167.0 * 90 / e.time_samples_per_s / 3600 +
                           e.startup_s / 3600,
                       1e-9);
    assert_float_equal(e.time_hours, 33.556 + 128.665 / 3600, 0.005);
    /* 10.3 GiB of activations (256 x 41.2 MiB) */
    assert_float_equal(e.memory.activations_gib, 256 * 41.2 / 1024, 1e-9);
}

/* The same step compiled three ways (docs/estimation.md 5.4): XLA
 * (--framework tensorflow or jax) charges 7 passes over the activations,
 * cuDNN's fused conv-BN-ReLU kernels 5.5, eager PyTorch 10 (above):
 *   XLA:   256 x 41.2 MiB x 7 = 77,416,693,760 B + 817,825,024 B of
 *          optimizer traffic, / (900e9 x 0.7) = 0.124182 s; step
 *          0.091356 + 0.124182 = 0.215538 s -> 1187.72 images/s (the DLE
 *          TensorFlow V100 "mixed precision + XLA" table: 1270 on one GPU,
 *          9510 / 8 = 1189 per GPU on eight)
 *   fused: x 5.5 = 60,827,402,240 B -> 0.097850 s; step 0.189206 s ->
 *          1353.02 images/s, with DALI decoding on the GPU as in the
 *          MLPerf runs. Convolution time is the same in all three. */
static void test_estimate__cnn_training_traffic_by_implementation(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate xla, jax, fused;
    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_FP16;
    w.batch_size = 256;
    w.framework = ECF_FW_TENSORFLOW;
    run_ok(&xla, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_float_equal(xla.compute_s, 0.091356, 1e-6);
    assert_float_equal(xla.memory_s, 0.124182, 1e-6);
    assert_float_equal(xla.throughput, 1187.72, 0.01);
    w.framework = ECF_FW_JAX;
    run_ok(&jax, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_float_equal(jax.memory_s, xla.memory_s, 1e-12);
    w.framework = ECF_FW_PYTORCH;
    w.fused_conv_bn = true;
    w.gpu_decode = true; /* p3.2xlarge's 8 vCPUs decode 1200 images/s */
    run_ok(&fused, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_float_equal(fused.compute_s, 0.091356, 1e-6);
    assert_float_equal(fused.memory_s, 0.097850, 1e-6);
    assert_float_equal(fused.throughput, 1353.02, 0.01);
}

/* fp32 on a V100 runs the convolutions on CUDA cores (U_FP32 = 0.65 of
 * 15.7 TFLOPS), where cuDNN's Winograd F(2x2, 3x3) does the 3x3
 * stride-1 ones with 2.25x fewer multiplies (Lavin & Gray 2016); they
 * are 0.368 of ResNet-50's MACs (13 x 115.6 M of 4.089 G, counted from
 * torchvision's resnet.py). Batch 128 (the DLE TensorFlow fp32 table):
 * 3 x 8.178e9 x 128 = 3.140352e12 FLOPs x (0.632 + 0.368 / 2.25) =
 * 2.498326e12 / (15.7e12 x 0.65) = 0.244814 s, not 0.307727 s.
 * EfficientNet-B0's 3x3/5x5 convolutions are depthwise: no credit.
 * fp16 (tensor cores) keeps the direct count (0.091356 s above). */
static void test_estimate__winograd_on_cuda_core_convolutions(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_FP32;
    w.batch_size = 128;
    w.framework = ECF_FW_TENSORFLOW;
    assert_float_equal(model(state, "resnet50")->winograd_frac, 0.368, 1e-12);
    run_ok(&e, model(state, "resnet50"), &w, &f->p3_2x, 1);
    assert_float_equal(e.compute_s, 0.244814, 1e-6);
    w.batch_size = 64;
    run_ok(&e, model(state, "efficientnet_b0"), &w, &f->p3_2x, 1);
    assert_float_equal(e.compute_s,
                       3 * 0.772e9 * 64 / (15.7e12 * 0.65), 1e-9);
}

static void test_estimate__gradient_allreduce_without_efa(void **state)
{
    /* bert-large fine-tune, fp16, batch 32 x seq 128, on 2 x p3.16xlarge
     * (8 V100 over NVLink 300 GB/s, 25 Gbps network, no EFA), DP, eager
     * attention (--attention eager: the scores are materialised).
     *   compute per device: fwd per sample = (2 x 303,887,360 matmul
     *   params + 4*24*128*1024 attention) x 128 = 79,405,776,896 FLOPs;
     *   x 3 x 32 = 7.622955e12 / (125e12 x 0.56 x 0.5) = 0.217799 s
     *   + materialised attention scores: 32 samples x (13 + 19) B x 16
     *   heads x 128^2 x 24 layers = 6,442,450,944 B / (900e9 x 0.7)
     *   = 0.010226 s -> compute 0.228025 s
     *   gradients 2 x 335,141,888 = 670,283,776 B:
     *   intra ring 2*7/8 x 670,283,776 / (300e9 x 0.7) + 14 x 2 us
     *     = 5.5857 + 0.028 = 5.6137 ms
     *   inter ring 2*1/2 x 670,283,776 / (25e9/8 x 0.8) + 2 x 15 us
     *     (ALPHA_TCP: NCCL's NET ring step, docs/estimation.md 6)
     *     = 268.1135 + 0.03 = 268.1435 ms
     *   hidden behind backward: 0.8 x 2/3 x 228.025 = 121.613 ms
     *   exposed = 273.7572 - 121.613 = 152.144 ms */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    int i, saw = 0;
    w.task = ECF_TASK_FINETUNE;
    w.precision = ECF_PREC_FP16;
    w.batch_size = 32;
    w.seq_len = 128;
    w.naive_attention = true;
    run_ok(&e, model(state, "bert-large"), &w, &f->p3_16x, 2);
    assert_int_equal(e.parallelism, ECF_PAR_DP);
    assert_float_equal(e.compute_s, 0.228025, 1e-5);
    assert_float_equal(e.comm_s, 0.152144, 1e-5);
    assert_float_equal(e.step_time_s, 0.228025 + 0.152144, 2e-5);
    assert_int_equal(e.bottleneck, ECF_BN_COMMUNICATION);
    for (i = 0; i < e.n_warnings; i++)
        if (strstr(e.warnings[i], "2 nodes without EFA"))
            saw = 1;
    assert_true(saw);
}

static void test_estimate__a100_gemm_ceiling_and_attention_scores(void **state)
{
    /* bert-large fine-tune, fp16, batch 32 x seq 128, one A100 80GB:
     *   GEMMs: 7.622955e12 FLOPs (as above) / (312e12 x 0.56 x 0.859 /
     *   0.801 x 1024 / 2048) = 0.0813673 s (an A100 reaches 267.9 of 312
     *   TFLOPS in matmul against an H100's 792.1 of 989: MAMF)
     *   attention scores, under --attention eager only: 6,442,450,944 B
     *   (as above) / (2039e9 x 0.7) = 0.0045137 s
     *   optimizer traffic (~7.5 ms) stays under the compute: step 0.085881
     *   eager, 0.0813673 under the default SDPA (no stored scores) */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_FINETUNE;
    w.precision = ECF_PREC_FP16;
    w.batch_size = 32;
    w.seq_len = 128;
    run_ok(&e, model(state, "bert-large"), &w, &f->p4de_1, 1);
    assert_float_equal(e.compute_s, 0.0813673, 1e-6);
    assert_float_equal(e.step_time_s, 0.0813673, 1e-6);
    w.naive_attention = true;
    run_ok(&e, model(state, "bert-large"), &w, &f->p4de_1, 1);
    assert_float_equal(e.compute_s, 0.0813673 + 0.0045137, 1e-6);
    assert_float_equal(e.step_time_s, 0.085881, 1e-6);
    w.naive_attention = false;
    /* a decoder (FlashAttention: no scores) pays the GEMMs only: gpt2 at
     * 1024 tokens, batch 8, is FLOPs / (peak x u) exactly, its width term
     * at the A100-80GB's half-width 1024 x (312 / 2039) / (989.5 / 3350)
     * (docs/estimation.md 5.3, "Width term by part") */
    w.task = ECF_TASK_TRAIN;
    w.batch_size = 8;
    w.seq_len = 1024;
    run_ok(&e, model(state, "gpt2"), &w, &f->p4de_1, 1);
    assert_float_equal(e.compute_s,
                       e.flops_per_step /
                           (312e12 * 0.56 * 0.859 / 0.801 * 768.0 /
                            (768.0 + 1024.0 * (312.0 / 2039.0) /
                                         (989.5 / 3350.0))),
                       1e-9);
}

static void test_estimate__serving_spans_the_node_batch_replicates(void **state)
{
    /* llama-2-70b bf16 (138 GB) on 8 x A100-80GB: online serving spans
     * the node with tensor-parallel groups of at least 4 GPUs (the 138 GB
     * need 2; the latency target and throughput pick 4 x 2 replicas since
     * prefill GEMMs run at the measured rate, docs/estimation.md 5.3); an
     * offline batch job keeps the group size with the best throughput,
     * which needs at least 2 GPUs. */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    w.task = ECF_TASK_INFER;
    run_ok(&e, model(state, "llama-2-70b"), &w, &f->p4de, 1);
    assert_true(e.fits);
    assert_true(e.tp_degree >= 4);
    assert_int_equal(e.tp_degree * e.replicas, 8);
    w.task = ECF_TASK_BATCH;
    run_ok(&e, model(state, "llama-2-70b"), &w, &f->p4de, 1);
    assert_true(e.fits);
    assert_true(e.tp_degree >= 2);
    assert_int_equal(e.replicas, 8 / e.tp_degree);
    assert_true(e.batch_size > 1); /* filled to memory */
}

static void test_estimate__does_not_fit_is_a_result(void **state)
{
    /* llama-3.1-405b bf16 weights alone are 756 GiB > one node's 640 */
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    int n;
    w.task = ECF_TASK_INFER;
    run_ok(&e, model(state, "llama-3.1-405b"), &w, &f->p4de, 1);
    assert_false(e.fits);
    assert_int_equal(e.bottleneck, ECF_BN_DEVICE_MEMORY);
    /* two nodes pipeline the model: fits */
    run_ok(&e, model(state, "llama-3.1-405b"), &w, &f->p4de, 2);
    assert_true(e.fits);
    assert_int_equal(e.parallelism, ECF_PAR_TP_PP);
    /* full fine-tune of 405B: 16 B/param = 6.05 TiB, so at least 10 nodes
     * of 640 GiB; min_nodes is the first count that fits */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_FINETUNE;
    assert_int_equal(
        ecf_workload_resolve(&w, model(state, "llama-3.1-405b"), NULL), 0);
    n = ecf_estimate_min_nodes(model(state, "llama-3.1-405b"), &w, &f->p4de,
                               64);
    assert_true(n >= 10);
    run_ok(&e, model(state, "llama-3.1-405b"), &w, &f->p4de, n);
    assert_true(e.fits);
    run_ok(&e, model(state, "llama-3.1-405b"), &w, &f->p4de, n - 1);
    assert_false(e.fits);
    assert_true(ecf_estimate_min_total_gib(model(state, "llama-3.1-405b"), &w) >
                6000);
}

static void test_estimate__cpu_never_beats_a_gpu_at_resnet50(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate cpu, gpu;
    w.task = ECF_TASK_TRAIN;
    run_ok(&cpu, model(state, "resnet50"), &w, &f->c7i, 1);
    run_ok(&gpu, model(state, "resnet50"), &w, &f->g4dn, 1);
    assert_true(cpu.cpu_only);
    assert_true(cpu.fits);
    /* the slowest GPU (a T4) still beats 192 vCPUs */
    assert_true(gpu.samples_per_s > 1.5 * cpu.samples_per_s);
    /* inference on CPU works and reports a latency */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    run_ok(&cpu, model(state, "bert-base"), &w, &f->c7i, 1);
    assert_true(cpu.fits);
    assert_true(cpu.latency_ms > 0);
    /* a 2-vCPU, 4 GiB host cannot hold llama-2-7b */
    run_ok(&cpu, model(state, "llama-2-7b"), &w, &f->cpu_small, 1);
    assert_false(cpu.fits);
}

static void
expect_invalid(void **state, const char *name, ecf_workload *w, const char *msg)
{
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_workload_resolve(w, model(state, name), &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, msg);
}

static void test_estimate__workload_validation(void **state)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    fx *f = *state;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;

    w.task = ECF_TASK_LORA;
    expect_invalid(state, "resnet50", &w,
                   "--task: lora needs a transformer or diffusion model; "
                   "resnet50 is a cnn");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.precision = ECF_PREC_INT4;
    expect_invalid(state, "llama-2-7b", &w,
                   "--precision: int4 is for inference (use --task qlora for "
                   "4-bit fine-tuning)");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.seq_len = 8192;
    expect_invalid(state, "llama-2-7b", &w,
                   "--seq-len: 8192 exceeds llama-2-7b's maximum context of "
                   "4096");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.batch_size = -4;
    expect_invalid(state, "resnet50", &w,
                   "--batch-size: must be at least 1, got -4");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.input_tokens = 4000;
    w.output_tokens = 200;
    expect_invalid(state, "llama-2-7b", &w,
                   "--input-tokens: 4000 + --output-tokens 200 exceed "
                   "llama-2-7b's maximum context of 4096");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.seq_len = 128;
    expect_invalid(state, "resnet50", &w,
                   "--seq-len: resnet50 is a cnn and has no sequence length");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.dataset_amount = 1e9;
    w.dataset_unit = ECF_DATASET_TOKENS;
    expect_invalid(state, "resnet50", &w,
                   "--dataset: resnet50 is a cnn; give samples or bytes, not "
                   "tokens");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    assert_int_equal(
        ecf_estimate_run(&e, model(state, "resnet50"), &w, &f->p4de, 0, &err),
        ECF_EINVAL);
    assert_string_equal(err.msg, "--nodes: must be at least 1, got 0");
}

static void test_estimate__dataset_units_resolve_per_model(void **state)
{
    /* bare counts are tokens for LLMs and samples otherwise; bytes divide
     * by the bytes per sample (ImageNet JPEG 110 kB; LLM 4 B/token) */
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_err err = ECF_ERR_INIT;
    w.task = ECF_TASK_TRAIN;
    w.dataset_amount = 2e9;
    w.dataset_unit = ECF_DATASET_ITEMS;
    assert_int_equal(ecf_workload_resolve(&w, model(state, "llama-2-7b"), &err),
                     0);
    assert_int_equal(w.dataset_unit, ECF_DATASET_TOKENS);
    assert_float_equal(w.dataset_samples, 2e9 / 2048, 1e-6);
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    w.dataset_amount = 150e9;
    w.dataset_unit = ECF_DATASET_BYTES;
    assert_int_equal(ecf_workload_resolve(&w, model(state, "resnet50"), &err),
                     0);
    assert_float_equal(w.dataset_samples, 150e9 / 110000, 1e-6);
    assert_int_equal(w.batch_size, 256); /* zoo default */
}

static void test_estimate__names(void **state)
{
    (void)state;
    assert_string_equal(ecf_task_name(ECF_TASK_QLORA), "qlora");
    assert_int_equal(ecf_task_parse("batch"), ECF_TASK_BATCH);
    assert_int_equal(ecf_task_parse("Train"), -1);
    assert_string_equal(ecf_parallelism_name(ECF_PAR_TP_DP), "tp+dp");
    assert_string_equal(ecf_bottleneck_name(ECF_BN_MEMORY_BW),
                        "memory-bandwidth");
    assert_string_equal(ecf_bottleneck_name(ECF_BN_HOST_MEMORY), "host-memory");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate__weight_bytes),
        cmocka_unit_test(test_estimate__precision_fallbacks),
        cmocka_unit_test(test_estimate__bf16_on_v100_warns),
        cmocka_unit_test(test_estimate__full_finetune_memory_zero1),
        cmocka_unit_test(test_estimate__eight_bit_optimizer),
        cmocka_unit_test(test_estimate__pure_bf16_master_weights_none),
        cmocka_unit_test(test_estimate__qlora_memory),
        cmocka_unit_test(test_estimate__kv_cache_is_gqa_aware),
        cmocka_unit_test(test_estimate__kv_cache_is_the_mla_latent),
        cmocka_unit_test(test_estimate__decode_and_prefill_roofline),
        cmocka_unit_test(test_estimate__cnn_training_step),
        cmocka_unit_test(test_estimate__cnn_training_traffic_by_implementation),
        cmocka_unit_test(test_estimate__winograd_on_cuda_core_convolutions),
        cmocka_unit_test(test_estimate__gradient_allreduce_without_efa),
        cmocka_unit_test(test_estimate__a100_gemm_ceiling_and_attention_scores),
        cmocka_unit_test(
            test_estimate__serving_spans_the_node_batch_replicates),
        cmocka_unit_test(test_estimate__does_not_fit_is_a_result),
        cmocka_unit_test(test_estimate__cpu_never_beats_a_gpu_at_resnet50),
        cmocka_unit_test(test_estimate__workload_validation),
        cmocka_unit_test(test_estimate__dataset_units_resolve_per_model),
        cmocka_unit_test(test_estimate__names),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
