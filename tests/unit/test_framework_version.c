/* test_framework_version.c - the attention follows the stack the user
 * names (--framework NAME@VERSION, issue 24; docs/estimation.md 5.3,
 * "Default attention"): PyTorch before 2.0 has no
 * scaled_dot_product_attention, transformers ran eager attention before
 * 4.36 (decoders) and 4.41 (BERT-class encoders, ViT, Whisper), so such a
 * stack stores its scores unless --attention says otherwise; a current
 * stack (no version, PyTorch 2.x) stores none. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"

#include "embedded_fx.h"

static void test_framework_version__parse(void **state)
{
    int fw = -1, v = -1;
    bool hf = true;
    (void)state;
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch"), 0);
    assert_int_equal(fw, ECF_FW_PYTORCH);
    assert_int_equal(v, 0);
    assert_false(hf);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@1.13"),
                     0);
    assert_int_equal(v, 113);
    /* the pytorch:21.11-py3 NGC container's version string */
    assert_int_equal(
        ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@1.11.0a0+b6df043"),
        0);
    assert_int_equal(v, 111);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@2"), 0);
    assert_int_equal(v, 200);
    assert_int_equal(
        ecf_framework_spec_parse(&fw, &v, &hf, "transformers@4.27.2"), 0);
    assert_int_equal(fw, ECF_FW_PYTORCH);
    assert_int_equal(v, 427);
    assert_true(hf);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "jax"), 0);
    assert_int_equal(fw, ECF_FW_JAX);
    assert_int_equal(v, 0);
    assert_false(hf);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf,
                                              "tensorflow@2.12"),
                     0);
    assert_int_equal(fw, ECF_FW_TENSORFLOW);
    assert_int_equal(v, 212);
    /* malformed: the outputs stay as they were */
    fw = 7, v = 7;
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@"), -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@x"),
                     -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@1."),
                     -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@1.130"),
                     -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "pytorch@0.0"),
                     -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "torch@1.13"),
                     -1);
    assert_int_equal(ecf_framework_spec_parse(&fw, &v, &hf, "@1.13"), -1);
    assert_int_equal(fw, 7);
    assert_int_equal(v, 7);
}

/* NVIDIA DeepLearningExamples' PyTorch BERT-large SQuAD fine-tuning on 8
 * A100 80GB, TF32, 32 x 384 per GPU, pytorch:21.11 NGC container
 * (PyTorch 1.11): 469.8 sequences/s published (calibration row
 * dle-pt-bertL-squad-a100-8gpu-tf32, tolerance 35%). --framework
 * pytorch@1.11 gives what --attention eager gives (434.4/s, -7.5%); no
 * version, or PyTorch 2.x, gives the SDPA estimate (503.9/s, +7.3%). */
static void bert_squad(ecf_workload *w)
{
    ecf_workload init = ECF_WORKLOAD_INIT;
    *w = init;
    w->task = ECF_TASK_FINETUNE;
    w->precision = ECF_PREC_TF32;
    w->precision_explicit = true;
    w->batch_size = 32;
    w->batch_explicit = true;
    w->seq_len = 384;
}

static void test_framework_version__old_pytorch_is_eager(void **state)
{
    fx *f = *state;
    ecf_workload w;
    ecf_estimate cur, v2, old, eager, override;

    bert_squad(&w);
    fx_est(&cur, f, "bert-large", &w, "p4de.24xlarge", 1);
    bert_squad(&w);
    w.framework_version = 203;
    fx_est(&v2, f, "bert-large", &w, "p4de.24xlarge", 1);
    bert_squad(&w);
    w.framework_version = 111;
    fx_est(&old, f, "bert-large", &w, "p4de.24xlarge", 1);
    bert_squad(&w);
    w.naive_attention = true;
    w.attention_set = true;
    fx_est(&eager, f, "bert-large", &w, "p4de.24xlarge", 1);
    /* --attention eager on a PyTorch 2 stack overrides the version */
    bert_squad(&w);
    w.framework_version = 203;
    w.naive_attention = true;
    w.attention_set = true;
    fx_est(&override, f, "bert-large", &w, "p4de.24xlarge", 1);

    assert_float_equal(old.samples_per_s, eager.samples_per_s, 0.0);
    assert_float_equal(old.memory.activations_gib,
                       eager.memory.activations_gib, 0.0);
    assert_float_equal(override.samples_per_s, eager.samples_per_s, 0.0);
    assert_float_equal(v2.samples_per_s, cur.samples_per_s, 0.0);
    assert_float_equal(old.samples_per_s, 434.4, 0.05);
    assert_float_equal(cur.samples_per_s, 503.9, 0.05);
    assert_true(old.samples_per_s / 469.8 - 1 > -0.35);
    assert_true(old.memory.activations_gib > cur.memory.activations_gib);
}

/* transformers: BERT-class encoders stay eager through 4.40, decoders
 * through 4.35 (SDPA by default from 4.41 and 4.36). */
static void test_framework_version__transformers_thresholds(void **state)
{
    fx *f = *state;
    ecf_workload w;
    ecf_estimate cur, e440, e441, d_cur, d435, d436;

    bert_squad(&w);
    fx_est(&cur, f, "bert-large", &w, "p4de.24xlarge", 1);
    bert_squad(&w);
    w.transformers_version = 440;
    fx_est(&e440, f, "bert-large", &w, "p4de.24xlarge", 1);
    bert_squad(&w);
    w.transformers_version = 441;
    fx_est(&e441, f, "bert-large", &w, "p4de.24xlarge", 1);
    assert_true(e440.memory.activations_gib > cur.memory.activations_gib);
    assert_float_equal(e441.memory.activations_gib,
                       cur.memory.activations_gib, 0.0);

    bert_squad(&w);
    w.batch_size = 1;
    w.seq_len = 4096;
    w.precision = ECF_PREC_BF16;
    w.activation_checkpointing = ECF_CKPT_OFF;
    fx_est(&d_cur, f, "llama-3.2-1b", &w, "p5.48xlarge", 1);
    w.transformers_version = 435;
    fx_est(&d435, f, "llama-3.2-1b", &w, "p5.48xlarge", 1);
    w.transformers_version = 436;
    fx_est(&d436, f, "llama-3.2-1b", &w, "p5.48xlarge", 1);
    assert_true(d435.memory.activations_gib > d_cur.memory.activations_gib);
    assert_float_equal(d436.memory.activations_gib,
                       d_cur.memory.activations_gib, 0.0);
}

static void expect_refused(fx *f, const char *model, ecf_workload *w,
                           const char *msg)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_estimate e;
    assert_int_equal(ecf_estimate_run(&e, fx_model(f, model), w,
                                      fx_inst(f, "p4de.24xlarge"), 1, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, msg);
}

static void test_framework_version__refused(void **state)
{
    fx *f = *state;
    ecf_workload w;

    bert_squad(&w);
    w.framework_version = 113;
    w.attention_set = true; /* --attention sdpa */
    expect_refused(f, "bert-large", &w,
                   "--attention sdpa: PyTorch 1.13 has no "
                   "scaled_dot_product_attention (added in 2.0)");
    bert_squad(&w);
    w.seq_len = 0;
    w.framework_version = 113;
    expect_refused(f, "resnet50", &w,
                   "--framework pytorch@1.13: the version sets the "
                   "attention kernel, which is not modelled for resnet50 "
                   "(cnn); drop @VERSION");
    bert_squad(&w);
    w.task = ECF_TASK_INFER;
    w.transformers_version = 427;
    expect_refused(f, "llama-3.1-8b", &w,
                   "--framework transformers@4.27: the LLM serving "
                   "engines run their own fused attention whatever the "
                   "framework version; drop @VERSION for --task infer");
    bert_squad(&w);
    w.task = ECF_TASK_INFER;
    w.seq_len = 0;
    w.precision = ECF_PREC_FP16;
    w.transformers_version = 427;
    expect_refused(f, "stable-diffusion-1.5", &w,
                   "--framework transformers@4.27: stable-diffusion-1.5 "
                   "runs on diffusers, not transformers; name the PyTorch "
                   "version (pytorch@1.13)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_framework_version__parse),
        cmocka_unit_test(test_framework_version__old_pytorch_is_eager),
        cmocka_unit_test(test_framework_version__transformers_thresholds),
        cmocka_unit_test(test_framework_version__refused),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
