/*
 * test_kv_dtype.c - --kv-cache-dtype (docs/estimation.md 4.3, "KV cache
 * precision"): each engine's auto, the KV capacity and the decode KV reads
 * of llama-3.1-8b on the catalog's g6e.xlarge at bf16 and fp8, and the
 * flag's exact errors.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/catalog.h"
#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"
#include "workload_flags.h"

#include "embedded_fx.h"

/* auto: vLLM, TGI, HF and Neuron keep the activations' type over fp8
 * weights (vLLM "auto" = the model dtype unless the checkpoint names a
 * KV scheme; NVIDIA's FP8 checkpoints carry kv_cache_quant_algo null);
 * trtllm-bench gives such a checkpoint an FP8 KV cache. */
static void test_kv_dtype__auto_per_engine(void **state)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    (void)state;
    assert_int_equal(ecf_kv_dtype_resolve(&w, ECF_PREC_FP8, ECF_ENGINE_VLLM),
                     ECF_KV_BF16);
    assert_int_equal(ecf_kv_dtype_resolve(&w, ECF_PREC_FP8, ECF_ENGINE_TGI),
                     ECF_KV_BF16);
    assert_int_equal(ecf_kv_dtype_resolve(&w, ECF_PREC_FP8, ECF_ENGINE_NEURON),
                     ECF_KV_BF16);
    assert_int_equal(
        ecf_kv_dtype_resolve(&w, ECF_PREC_FP8, ECF_ENGINE_TRTLLM),
        ECF_KV_FP8);
    assert_int_equal(
        ecf_kv_dtype_resolve(&w, ECF_PREC_INT4, ECF_ENGINE_TRTLLM),
        ECF_KV_BF16);
    assert_int_equal(ecf_kv_dtype_resolve(&w, ECF_PREC_FP16, ECF_ENGINE_VLLM),
                     ECF_KV_FP16);
    assert_float_equal(
        ecf_kv_bytes_per_elem(&w, ECF_PREC_FP32, ECF_ENGINE_HF), 4.0, 0);
    w.kv_cache_dtype = ECF_KV_FP8;
    assert_float_equal(
        ecf_kv_bytes_per_elem(&w, ECF_PREC_BF16, ECF_ENGINE_VLLM), 1.0, 0);
    w.kv_cache_dtype = ECF_KV_BF16;
    assert_float_equal(
        ecf_kv_bytes_per_elem(&w, ECF_PREC_FP8, ECF_ENGINE_TRTLLM), 2.0, 0);
}

static void run(void **state, int kv, ecf_estimate *e)
{
    fx *f = *state;
    ecf_err err = ECF_ERR_INIT;
    ecf_workload w = ECF_WORKLOAD_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, "llama-3.1-8b");
    const ecf_instance *in = ecf_catalog_find(f->cat, "g6e.xlarge");
    assert_non_null(m);
    assert_non_null(in);
    w.task = ECF_TASK_INFER;
    w.input_tokens = 16000;
    w.output_tokens = 256;
    w.batch_size = 8;
    w.kv_cache_dtype = kv;
    assert_int_equal(ecf_estimate_run_quiet(e, m, &w, in, 1, &err), 0);
    assert_true(e->fits);
}

/* llama-3.1-8b: 32 layers x 8 KV heads x 128 head_dim x (K, V) = 65,536
 * elements per token: 131,072 B at bf16, 65,536 B at fp8. The same room
 * beside the weights on g6e.xlarge's L40S (48 GB) holds twice the tokens
 * at fp8, and a decode step at batch 8 x 16,128 tokens of average context
 * reads 8 x 16,128 x 65,536 B less KV cache, at 70% of the L40S's
 * 864 GB/s. */
static void test_kv_dtype__fp8_doubles_capacity_and_cuts_reads(void **state)
{
    fx *f = *state;
    ecf_estimate bf, f8;
    double saved_ms = 8.0 * 16128.0 * 65536.0 / (0.70 * 864e9) * 1e3;
    assert_float_equal(
        ecf_model_kv_elems_per_token(ecf_zoo_find(f->zoo, "llama-3.1-8b")),
        65536.0, 0);
    run(state, ECF_KV_BF16, &bf);
    run(state, ECF_KV_FP8, &f8);
    /* 203,418 tokens x 128 KiB = 24.83 GiB of pool beside 14.96 GiB of
     * weights, the workspace, the overhead and the fit's headroom: vLLM's
     * profiler keeps the 1 GiB CUDA context in the 1 - gpu_memory_
     * utilization margin and holds fp32 logits for 256 sequences
     * (256 x 128,256 x 4 B = 0.122 GiB): 0.878 GiB = 7,172 tokens more
     * than the pool with the context counted (196,246) */
    assert_float_equal(floor(bf.memory.kv_capacity_tokens), 203418.0, 1.0);
    assert_int_equal(bf.memory.kv_cache_dtype, ECF_KV_BF16);
    assert_int_equal(f8.memory.kv_cache_dtype, ECF_KV_FP8);
    assert_float_equal(f8.memory.kv_capacity_tokens,
                       2.0 * bf.memory.kv_capacity_tokens, 2.0);
    assert_float_equal(bf.memory.kv_cache_gib, 2.0 * f8.memory.kv_cache_gib,
                       1e-9);
    assert_float_equal(bf.per_token_ms - f8.per_token_ms, saved_ms, 0.05);
    assert_true(saved_ms > 13.9 && saved_ms < 14.0);
}

static void test_kv_dtype__errors(void **state)
{
    fx *f = *state;
    cli_workload wl = CLI_WORKLOAD_INIT;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_err err = ECF_ERR_INIT;

    assert_int_equal(ecf_workload_option(&wl, CLI_WL_KV_CACHE_DTYPE, "int4",
                                         &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--kv-cache-dtype: expected auto, bf16, "
                                 "fp16 or fp8, got 'int4'");
    assert_int_equal(ecf_workload_option(&wl, CLI_WL_KV_CACHE_DTYPE,
                                         "fp8_e5m2", &err),
                     1);
    assert_int_equal(wl.w.kv_cache_dtype, ECF_KV_FP8);

    w.task = ECF_TASK_TRAIN;
    w.kv_cache_dtype = ECF_KV_FP8;
    assert_int_equal(ecf_workload_resolve(
                         &w, ecf_zoo_find(f->zoo, "llama-3.1-8b"), &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--kv-cache-dtype: applies to serving "
                                 "(--task infer or batch), not --task train");
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.kv_cache_dtype = ECF_KV_FP8;
    assert_int_equal(
        ecf_workload_resolve(&w, ecf_zoo_find(f->zoo, "resnet50"), &err),
        ECF_EINVAL);
    assert_string_equal(err.msg, "--kv-cache-dtype: only decoder language "
                                 "models keep a KV cache, not resnet50 "
                                 "(cnn)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_kv_dtype__auto_per_engine),
        cmocka_unit_test(test_kv_dtype__fp8_doubles_capacity_and_cuts_reads),
        cmocka_unit_test(test_kv_dtype__errors),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
