/*
 * test_gemm_tokens.c - the per-GEMM roofline's activation traffic
 * (src/estimate/estimate_gemm.c): A and C of every linear layer per token,
 * per tensor-parallel rank, checked against the zoo's real shapes and the
 * arithmetic intensity of NVIDIA's Matrix Multiplication Background guide,
 * 2MNK / 2(MK + NK + MN) (docs/estimation.md 5.3, "Tokens per GEMM"),
 * the attention-score traffic of an unfused encoder forward (5.4), and
 * the measured GEMM rate by tokens per GEMM (5.3, "Compute efficiency by
 * M").
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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_bert_base),
        cmocka_unit_test(test_llama2_7b_tp),
        cmocka_unit_test(test_llama2_7b_intensity),
        cmocka_unit_test(test_attn_scores_infer),
        cmocka_unit_test(test_no_shapes),
        cmocka_unit_test(test_gemm_eff_by_tokens),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
