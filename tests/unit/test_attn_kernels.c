/* test_attn_kernels.c - the attention kernel of a training stack
 * (--attention flash2|cudnn|flash3): its measured Hopper rate from the
 * FlashAttention-3 paper and its effect on the training step
 * (docs/estimation.md 5.3, "Attention kernel"). Values worked by hand. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/attn_kernels.h"
#include "ec2fit/estimate.h"

#include "embedded_fx.h"

/* Shah et al. 2024, figs. 4-5, head dim 128: FlashAttention-2 forward
 * (causal) 335 and backward 322 TFLOPS/s at 16k: 3 / (1/335 + 2.5/322) =
 * 3 / (0.0029851 + 0.0077640) = 279.095 TFLOPS/s = 0.28206 of 989.5; at
 * 512 (191 / 214): 3 / (0.0052356 + 0.0116822) = 177.328 = 0.17921; at
 * 1k (260 / 260): 3 x 260 / 3.5 = 222.857 = 0.22522. cuDNN at 4k (518 /
 * 499): 3 / (0.0019305 + 0.0050100) = 432.245 = 0.43683. */
static void test_attn_kernels__hopper_rates(void **state)
{
    (void)state;
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 16384),
                       0.28206, 5e-5);
    /* held flat past the paper's 16k */
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 32768),
                       ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 16384),
                       1e-15);
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 512),
                       0.17921, 5e-5);
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 256),
                       ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 512),
                       1e-15);
    /* halfway in log2 between 512 and 1k: (0.17921 + 0.22522) / 2 */
    assert_float_equal(
        ecf_attn_kernel_hopper_eff(ECF_ATTN_FLASH2, 512.0 * sqrt(2.0)),
        0.20222, 5e-5);
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_CUDNN, 4096),
                       0.43683, 5e-5);
    assert_float_equal(ecf_attn_kernel_hopper_eff(ECF_ATTN_AUTO, 4096), 0.0,
                       0.0);
    assert_int_equal(ecf_attn_kernel_parse("flash3"), ECF_ATTN_FLASH3);
    assert_int_equal(ecf_attn_kernel_parse("sdpa"), -1);
    assert_string_equal(ecf_attn_kernel_name(ECF_ATTN_CUDNN), "cudnn");
}

/* Llama-3.1-8B in bf16 at 8,192 tokens on p5 (H100): the linear layers
 * run at 0.56 x 4096 / 5120 = 0.448 of peak (test_train_variants.c); the
 * attention core, x of the forward FLOPs (0.5 x 4 x 32 x 8192 x 32 x 128
 * per token, ~12.7%), runs with flash2 at 3 / (1/333 + 2.5/318) / 989.5
 * = 276.125 / 989.5 = 0.279055 of the same 16-bit peak, so the compute
 * time is (1 - x) + x x 0.448 / 0.279055 of auto's (~1.076x). On p4d
 * (A100: no measured kernel rate) the flag changes nothing. */
static void test_attn_kernels__flash2_step(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate a, k, a4, k4;
    double per_tok, x, ek = 3.0 / (1.0 / 333 + 2.5 / 318) / 989.5;

    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 1;
    w.batch_explicit = true;
    w.seq_len = 8192;
    w.activation_checkpointing = ECF_CKPT_ON;
    w.precision = ECF_PREC_BF16;
    w.precision_explicit = true;
    fx_est(&a, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    fx_est(&a4, f, "llama-3.1-8b", &w, "p4d.24xlarge", 1);
    w.attn_kernel = ECF_ATTN_FLASH2;
    fx_est(&k, f, "llama-3.1-8b", &w, "p5.48xlarge", 1);
    fx_est(&k4, f, "llama-3.1-8b", &w, "p4d.24xlarge", 1);
    assert_float_equal(ek, 0.279055, 1e-6);
    assert_int_equal(a.parallelism, k.parallelism);
    assert_int_equal(a.batch_size, k.batch_size);
    assert_float_equal(a.utilization, 0.448, 1e-12);
    per_tok = a.flops_per_step / (4.0 * a.samples_per_step * 8192.0);
    x = 0.5 * 4.0 * 32 * 8192.0 * 32 * 128 / per_tok;
    assert_true(x > 0.12 && x < 0.13);
    assert_float_equal(k.compute_s / a.compute_s, (1.0 - x) + x * 0.448 / ek,
                       1e-9);
    assert_true(k.compute_s / a.compute_s > 1.07);
    assert_float_equal(k4.compute_s, a4.compute_s, 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_attn_kernels__hopper_rates),
        cmocka_unit_test(test_attn_kernels__flash2_step),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
