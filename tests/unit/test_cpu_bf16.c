/* test_cpu_bf16.c - bf16, the default precision, on CPU-only types
 * (docs/estimation.md 7, "bf16 on a CPU without bf16"), on the embedded
 * catalog: a CPU generation without bf16 arithmetic (cpu_families.csv
 * bf16_x = 1: Skylake/Cascade Lake, Ice Lake, Zen 1-3, Graviton1/2) runs a
 * default-precision plan as fp32, never faster than fp32, and says so; an
 * explicit --precision bf16 there is emulated at half the fp32 rate
 * (intel-extension-for-pytorch#178, pytorch#86270); a generation with
 * bf16 (AMX, Graviton3/4, Zen 4/5) gains from it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "embedded_fx.h"

static bool has_warning(const ecf_estimate *e, const char *needle)
{
    int i;
    for (i = 0; i < e->n_warnings; i++)
        if (strstr(e->warnings[i], needle))
            return true;
    return false;
}

/* c6i.2xlarge: 8 vCPUs x 32 fp32 FLOPs/cycle x 3.5 GHz = 896 GFLOPS
 * (cpu_families.csv intel-icelake; the assumption line of the philschmid
 * c6i rows); no bf16 instructions. */
static void test_cpu_bf16__icelake_default_and_explicit(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate def, bf, fp;

    w.task = ECF_TASK_FINETUNE;
    w.batch_size = 32;
    w.seq_len = 128;
    fx_est(&def, f, "bert-base", &w, "c6i.2xlarge", 1);
    w.precision = ECF_PREC_FP32;
    fx_est(&fp, f, "bert-base", &w, "c6i.2xlarge", 1);
    w.precision = ECF_PREC_BF16;
    fx_est(&bf, f, "bert-base", &w, "c6i.2xlarge", 1);

    /* default: the fp32 plan, stated */
    assert_int_equal(def.precision, ECF_PREC_FP32);
    assert_float_equal(def.peak_tflops, 0.896, 1e-9);
    assert_float_equal(def.samples_per_s, fp.samples_per_s, 1e-12);
    assert_true(has_warning(&def, "c6i host CPU has no bf16: runs as fp32"));
    assert_false(has_warning(&fp, "has no bf16"));
    /* explicit bf16: autocast emulation at half the fp32 rate, fp32
     * weights (the memory plan is fp32's) */
    assert_float_equal(bf.peak_tflops, 0.448, 1e-9);
    assert_float_equal(bf.memory.total_per_device_gib,
                       fp.memory.total_per_device_gib, 1e-12);
    assert_true(bf.samples_per_s < 0.6 * fp.samples_per_s);
    assert_true(has_warning(
        &bf, "c6i host CPU has no bf16 arithmetic: --precision bf16 is "
             "emulated (fp32 FMAs around conversions) at 0.5x the fp32 "
             "rate; without --precision it runs as fp32"));
}

/* One CPU generation's class: bf16 CPUs have a bf16 rate above fp32 in the
 * catalog (cpu_families.csv bf16_x 2 or 16). */
static bool cpu_has_bf16(const ecf_instance *in)
{
    return in->cpu_gflops_bf16 > in->cpu_gflops_fp32;
}

/* Every CPU-only type of the catalog x generated workloads (5 models, 4
 * tasks, 3 batch sizes): the named property holds on each. */
static void test_cpu_bf16__default_never_faster_without_bf16(void **state)
{
    static const char *models[] = {"distilbert", "bert-base", "resnet50",
                                   "vit_b_16", "gpt2"};
    static const ecf_task tasks[] = {ECF_TASK_INFER, ECF_TASK_BATCH,
                                     ECF_TASK_FINETUNE, ECF_TASK_TRAIN};
    static const int batches[] = {1, 8, 32};
    static const char *no_bf16_families[] = {"c5", "c6i", "m6i", "r6i",
                                             "c6a", "c6g", "m5", "m6g"};
    static const char *bf16_families[] = {"c7i", "m7i", "c7g", "c8g",
                                          "c7a", "r7iz"};
    fx *f = *state;
    size_t n = ecf_catalog_count(f->cat), i, mi, ti, bi, k;
    int checked_no = 0, checked_yes = 0, explicit_slower = 0;
    int bf16_faster = 0;
    bool seen_no[sizeof(no_bf16_families) / sizeof(*no_bf16_families)] = {0};
    bool seen_yes[sizeof(bf16_families) / sizeof(*bf16_families)] = {0};

    for (i = 0; i < n; i++) {
        const ecf_instance *in = ecf_catalog_at(f->cat, i);
        bool bf16 = cpu_has_bf16(in);
        if (in->accel || in->accel_count > 0 || in->cpu_gflops_fp32 <= 0)
            continue;
        for (mi = 0; mi < sizeof(models) / sizeof(*models); mi++)
            for (ti = 0; ti < sizeof(tasks) / sizeof(*tasks); ti++)
                for (bi = 0; bi < sizeof(batches) / sizeof(*batches); bi++) {
                    const ecf_model *m = fx_model(f, models[mi]);
                    ecf_workload w = ECF_WORKLOAD_INIT;
                    ecf_estimate def, fp, bf;
                    ecf_err err = ECF_ERR_INIT;
                    w.task = tasks[ti];
                    w.batch_size = batches[bi];
                    if (ecf_estimate_run(&def, m, &w, in, 1, &err) != 0)
                        fail_msg("%s on %s: %s", models[mi], in->type,
                                 err.msg);
                    w.precision = ECF_PREC_FP32;
                    if (ecf_estimate_run(&fp, m, &w, in, 1, &err) != 0)
                        fail_msg("%s on %s: %s", models[mi], in->type,
                                 err.msg);
                    w.precision = ECF_PREC_BF16;
                    if (ecf_estimate_run(&bf, m, &w, in, 1, &err) != 0)
                        fail_msg("%s on %s: %s", models[mi], in->type,
                                 err.msg);
                    if (!def.fits || !fp.fits || def.samples_per_s <= 0)
                        continue;
                    if (!bf16) {
                        /* no bf16 speedup: the fp32 plan, said once */
                        if (def.precision != ECF_PREC_FP32 ||
                            def.samples_per_s > fp.samples_per_s ||
                            def.peak_tflops != fp.peak_tflops ||
                            !has_warning(&def, "has no bf16: runs as fp32"))
                            fail_msg("%s %s b%d on %s: default %s %.6g/s, "
                                     "fp32 %.6g/s",
                                     models[mi], ecf_task_name(tasks[ti]),
                                     batches[bi], in->type,
                                     ecf_precision_name(def.precision),
                                     def.samples_per_s, fp.samples_per_s);
                        /* explicit bf16: emulated, never faster */
                        if (bf.samples_per_s > fp.samples_per_s ||
                            bf.peak_tflops != 0.5 * fp.peak_tflops)
                            fail_msg("%s b%d on %s: explicit bf16 %.6g/s "
                                     "above fp32 %.6g/s",
                                     models[mi], batches[bi], in->type,
                                     bf.samples_per_s, fp.samples_per_s);
                        explicit_slower += bf.samples_per_s < fp.samples_per_s;
                        checked_no++;
                        for (k = 0; k < sizeof(seen_no) / sizeof(*seen_no);
                             k++)
                            seen_no[k] |= strcmp(in->family,
                                                 no_bf16_families[k]) == 0;
                    } else {
                        /* a bf16 CPU runs the default in bf16, never
                         * slower (a memory-bound training step moves the
                         * same 16 bytes per parameter either way) */
                        if (def.precision != ECF_PREC_BF16 ||
                            def.samples_per_s < fp.samples_per_s ||
                            has_warning(&def, "has no bf16"))
                            fail_msg("%s %s b%d on %s: default %s %.6g/s, "
                                     "fp32 %.6g/s",
                                     models[mi], ecf_task_name(tasks[ti]),
                                     batches[bi], in->type,
                                     ecf_precision_name(def.precision),
                                     def.samples_per_s, fp.samples_per_s);
                        bf16_faster += def.samples_per_s > fp.samples_per_s;
                        checked_yes++;
                        for (k = 0; k < sizeof(seen_yes) / sizeof(*seen_yes);
                             k++)
                            seen_yes[k] |=
                                strcmp(in->family, bf16_families[k]) == 0;
                    }
                }
    }
    for (k = 0; k < sizeof(seen_no) / sizeof(*seen_no); k++)
        if (!seen_no[k])
            fail_msg("no fitting workload checked on %s",
                     no_bf16_families[k]);
    for (k = 0; k < sizeof(seen_yes) / sizeof(*seen_yes); k++)
        if (!seen_yes[k])
            fail_msg("no fitting workload checked on %s", bf16_families[k]);
    print_message("%d no-bf16 and %d bf16 CPU workloads checked; explicit "
                  "bf16 slower than fp32 on %d; default bf16 faster than "
                  "fp32 on %d\n",
                  checked_no, checked_yes, explicit_slower, bf16_faster);
    assert_true(checked_no > 1000);
    assert_true(checked_yes > 1000);
    /* the emulation costs time wherever compute shows at all */
    assert_true(explicit_slower > checked_no / 2);
    /* and bf16 arithmetic shows as a speedup in most */
    assert_true(bf16_faster > checked_yes / 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_bf16__icelake_default_and_explicit),
        cmocka_unit_test(test_cpu_bf16__default_never_faster_without_bf16),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
