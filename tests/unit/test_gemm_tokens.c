/*
 * test_gemm_tokens.c - the per-GEMM roofline's activation traffic
 * (src/estimate/estimate_gemm.c): A and C of every linear layer per token,
 * per tensor-parallel rank, checked against the zoo's real shapes and the
 * arithmetic intensity of NVIDIA's Matrix Multiplication Background guide,
 * 2MNK / 2(MK + NK + MN) (docs/estimation.md 5.3, "Tokens per GEMM"),
 * the attention-score traffic of an unfused encoder forward (5.4), and
 * the measured GEMM rate by tokens per GEMM (5.3, "Compute efficiency by
 * M"), and the element-wise work a tensor-parallel rank repeats (5.3,
 * "Replicated element-wise work under tensor parallelism").
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>

#include "ec2fit/zoo.h"
#include "estimate_gemm.h"
#include "estimate_internal.h"
#include "estimate_fx.h"

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_zoo *zoo = NULL;
    if (ecf_zoo_embedded(&zoo, &err) != 0)
        return -1;
    *state = zoo;
    return 0;
}

static int teardown(void **state)
{
    ecf_zoo_free(*state);
    return 0;
}

static const ecf_model *model(void **state, const char *name)
{
    return zoo_model(*state, name);
}

/* BERT-base (h 768, 12 heads x 64, MLP 3072, 12 layers, GELU MLP), bf16:
 * QKV reads 768 and writes 2304, out reads 768 and writes 768, up reads
 * 768 and writes 3072, down reads 3072 and writes 768 = 12,288 elements
 * per layer, x 12 layers x 2 bytes = 294,912 bytes per token. */
static void test_bert_base(void **state)
{
    const ecf_model *m = model(state, "bert-base");
    assert_float_equal(ecf_est_gemm_act_bytes_per_token(m, 1, 2.0), 294912.0,
                       1e-6);
    /* fp32 activations: twice */
    assert_float_equal(ecf_est_gemm_act_bytes_per_token(m, 1, 4.0), 589824.0,
                       1e-6);
}

/* Llama-2-7B (h 4096, 32 heads x 128, no GQA, gated MLP 11008, 32
 * layers): QKV 4096 + 12288, out 4096 + 4096, up+gate 4096 + 22016, down
 * 11008 + 4096 = 65,792 elements per layer -> 4,210,688 bytes per token.
 * TP4: column-parallel outputs and row-parallel inputs split, the rest
 * not: 4096 + 3072 + 1024 + 4096 + 4096 + 5504 + 2752 + 4096 = 28,736 ->
 * 1,839,104 bytes. */
static void test_llama2_7b_tp(void **state)
{
    const ecf_model *m = model(state, "llama-2-7b");
    assert_float_equal(ecf_est_gemm_act_bytes_per_token(m, 1, 2.0),
                       4210688.0, 1e-6);
    assert_float_equal(ecf_est_gemm_act_bytes_per_token(m, 4, 2.0),
                       1839104.0, 1e-6);
}

/* The stack's arithmetic intensity at M tokens is the guide's formula
 * summed over the GEMMs: 2 M (sum N K) / 2 (sum N K + M sum (K + N)).
 * Llama-2-7B per layer: sum N K = 4096 x 12288 + 4096 x 4096 + 3 x 4096 x
 * 11008 = 202,375,168 weights. At M = 128 (a short prompt) that is 122.9
 * FLOPs per byte, under an A100-80GB's ridge (312 TFLOPS / 2.039 TB/s =
 * 153): bandwidth-bound; at M = 2048, 1229: compute-bound. */
static void test_llama2_7b_intensity(void **state)
{
    const ecf_model *m = model(state, "llama-2-7b");
    double w = 202375168.0 * 32 * 2.0; /* bf16 weights of the 32 layers */
    double act = ecf_est_gemm_act_bytes_per_token(m, 1, 2.0);
    double f128 = 2.0 * 128 * 202375168.0 * 32;
    double f2048 = 2.0 * 2048 * 202375168.0 * 32;
    assert_float_equal(f128 / (w + 128 * act), 122.9, 0.05);
    assert_float_equal(f2048 / (w + 2048 * act), 1229.4, 0.05);
}

/* Attention scores of an unfused encoder forward (5.4): 8 bytes per score
 * element (QK^T writes S 2, softmax reads S and writes P 4, PV reads P 2).
 * BERT-large at 384 tokens: 8 x 16 heads x 384^2 x 24 layers =
 * 452,984,832 bytes per sample, 0.42 ms at 70% of an A100-40GB's 1,555
 * GB/s; twice that in fp32; only where the attention stores its scores
 * (--attention eager, --framework tensorflow); none under the default
 * PyTorch 2 SDPA, and none for a causal LM served by fused kernels. */
static void test_attn_scores_infer(void **state)
{
    const ecf_model *m = model(state, "bert-large");
    ecf_workload eager = ECF_WORKLOAD_INIT, sdpa = ECF_WORKLOAD_INIT,
                 tf = ECF_WORKLOAD_INIT;
    eager.naive_attention = true;
    tf.framework = ECF_FW_TENSORFLOW;
    assert_float_equal(attn_score_infer_bytes(m, &eager, NULL, 384, ECF_PREC_FP16),
                       452984832.0, 1e-3);
    assert_float_equal(attn_score_infer_bytes(m, &tf, NULL, 384, ECF_PREC_FP32),
                       905969664.0, 1e-3);
    assert_float_equal(attn_score_infer_bytes(m, &sdpa, NULL, 384, ECF_PREC_FP16),
                       0, 0);
    assert_float_equal(attn_score_infer_bytes(model(state, "llama-2-7b"),
                                              &sdpa, NULL, 2048, ECF_PREC_BF16),
                       0, 0);
}

/* Models without layer shapes (CNNs, diffusion) have no term. */
static void test_no_shapes(void **state)
{
    assert_float_equal(
        ecf_est_gemm_act_bytes_per_token(model(state, "resnet50"), 1, 2.0), 0,
        0);
}

/* vllm-project/vllm PR #19627: torch bf16 GEMMs of Llama-3.1-8B's QKV
 * projection (N 6,144, K 4,096) on an H100 SXM (989.5 TFLOPS dense):
 * 647 / 652 / 706 TFLOPS at M = 512 / 1,024 / 2,048. */
static void test_gemm_eff_by_tokens(void **state)
{
    (void)state;
    assert_float_equal(ecf_est_gemm_eff_tokens(512), 647.0 / 989.5, 1e-4);
    assert_float_equal(ecf_est_gemm_eff_tokens(1024), 652.0 / 989.5, 1e-4);
    assert_float_equal(ecf_est_gemm_eff_tokens(2048), 706.0 / 989.5, 1e-4);
    /* between points: linear in M; 1,536 tokens is half-way */
    assert_float_equal(ecf_est_gemm_eff_tokens(1536),
                       (652.0 + 706.0) / 2.0 / 989.5, 1e-4);
    /* 128 and 256 tokens (309, 541 TFLOPS) are bandwidth-bound in the
     * sweep: 2 x 128 x 6144 x 4096 = 6.442e9 FLOPs at 309e12/s = 20.85 us
     * move 50.3 MB of weights + 2.6 MB of A and C = 2.54 TB/s, 76% of the
     * H100's 3,350 GB/s; the compute rate held there is the first
     * compute-bound point's */
    assert_float_equal(ecf_est_gemm_eff_tokens(128), 647.0 / 989.5, 1e-4);
    assert_float_equal(ecf_est_gemm_eff_tokens(1), 647.0 / 989.5, 1e-4);
    assert_float_equal(ecf_est_gemm_eff_tokens(16384), 706.0 / 989.5, 1e-4);
}

/* The element-wise bytes a tensor-parallel rank moves beyond its share
 * (docs/estimation.md 5.3, "Replicated element-wise work under tensor
 * parallelism"): two fused residual-add + RMSNorm passes per layer, 4 h
 * elements each, on every rank, of which (1 - 1/tp) a split would have
 * saved. Llama 3.1 70B: 80 layers, h 8192. */
static void test_tp_replicated_bytes(void **state)
{
    const ecf_model *m = model(state, "llama-3.1-70b");
    double prev = 0;
    int tp;
    /* 80 x 8 x 8192 x 2 bytes = 10,485,760 per token on one device */
    assert_float_equal(ecf_est_tp_replicated_bytes(m, 8, 2.0),
                       10485760.0 * 7.0 / 8.0, 1e-6);
    assert_float_equal(ecf_est_tp_replicated_bytes(m, 2, 2.0), 5242880.0,
                       1e-6);
    /* fp8 activations would move half; fp32 twice */
    assert_float_equal(ecf_est_tp_replicated_bytes(m, 2, 1.0), 2621440.0,
                       1e-6);
    /* nothing to charge on one device, or for a model without layers */
    assert_float_equal(ecf_est_tp_replicated_bytes(m, 1, 2.0), 0, 0);
    assert_float_equal(ecf_est_tp_replicated_bytes(m, 0, 2.0), 0, 0);
    assert_float_equal(
        ecf_est_tp_replicated_bytes(model(state, "resnet50"), 8, 2.0), 0, 0);
    /* more ranks, more of the work each one repeats */
    for (tp = 2; tp <= 64; tp++) {
        double v = ecf_est_tp_replicated_bytes(m, tp, 2.0);
        assert_true(v > prev);
        assert_true(v < 10485760.0);
        prev = v;
    }
}

/* End to end: one decode step of Llama 2 13B at batch 1 on a
 * p4de.24xlarge (vLLM, fp16) reads the rank's weights (its parameters
 * less the input embedding, 32,000 x 5,120, x 2 bytes / tp) and moves the
 * norms it repeats: 40 layers x 8 x 5,120 x 2 bytes x 7/8 = 2,867,200
 * bytes at TP 8, 2,457,600 at TP 4, none at TP 1. --explain reports both
 * as the step's GEMM bytes, and the memory-bound GEMM time is those bytes
 * at 70% of 2,039 GB/s (2.009 / 1.722 us more than the weights alone). */
static void test_tp_replicated_decode_step(void **state)
{
    ecf_accel a;
    ecf_instance in;
    const ecf_model *m = model(state, "llama-2-13b");
    static const int tps[3] = {1, 4, 8};
    static const double rep[3] = {0, 2457600.0, 2867200.0};
    int i;
    a100_80gb(&a);
    p4de(&in, &a);
    for (i = 0; i < 3; i++) {
        ecf_estimate e;
        ecf_workload w = ECF_WORKLOAD_INIT;
        double weights = (m->params - 32000.0 * 5120.0) * 2.0 / tps[i];
        w.task = ECF_TASK_INFER;
        w.precision = ECF_PREC_FP16;
        w.engine = ECF_ENGINE_VLLM;
        w.batch_size = 1;
        w.batch_explicit = true;
        w.tensor_parallel = tps[i];
        w.input_tokens = 512;
        w.output_tokens = 128;
        run_ok(&e, m, &w, &in, 1);
        assert_true(e.fits);
        assert_int_equal(e.tp_degree, tps[i]);
        assert_true(e.serve.set);
        assert_true(e.serve.gemm_mem_bound);
        assert_float_equal(e.serve.bw_gbytes_s, 2039 * 0.70, 1e-9);
        assert_float_equal(e.serve.weight_bytes - weights, rep[i], 1e-3);
        assert_float_equal(e.serve.gemm_ms,
                           (weights + rep[i]) / (2039 * 0.70e9) * 1e3, 1e-9);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bert_base),
        cmocka_unit_test(test_llama2_7b_tp),
        cmocka_unit_test(test_llama2_7b_intensity),
        cmocka_unit_test(test_attn_scores_infer),
        cmocka_unit_test(test_no_shapes),
        cmocka_unit_test(test_gemm_eff_by_tokens),
        cmocka_unit_test(test_tp_replicated_bytes),
        cmocka_unit_test(test_tp_replicated_decode_step),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
