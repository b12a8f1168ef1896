/* test_devices.c - issue 13 items 3 (fractional GPUs), 4 (CPUs as real
 * devices) and 6 (fixed overheads) on the embedded catalog: the figures
 * come from data/sources (accelerators.csv, cpu_families.csv,
 * instance_extras.csv) and docs/estimation.md "Fixed overheads". */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/light.h"
#include "ec2fit/recommend.h"

#include "embedded_fx.h"

static bool has_note(const ecf_estimate *e, const char *needle)
{
    int i;
    for (i = 0; i < e->n_assumptions; i++)
        if (strstr(e->assumptions[i], needle))
            return true;
    return false;
}

/* ---- fractional GPUs ---------------------------------------------- */

static void test_devices__fractional_l4_scales_compute(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate whole, quarter;
    ecf_precision ran;
    double g6 = ecf_estimate_peak_tflops(fx_inst(f, "g6.xlarge"), ECF_PREC_BF16,
                                         &ran);

    /* L4 dense bf16 121 TFLOPS (accelerators.csv); g6f.xlarge is 1/8 of
     * it (2,861 of 22,888 MiB in instance_extras.csv, fraction 0.125) */
    assert_float_equal(g6, 121.0, 1e-9);
    assert_float_equal(fx_inst(f, "g6f.xlarge")->accel_fraction, 0.125, 1e-9);
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "g6f.xlarge"),
                                                ECF_PREC_BF16, &ran),
                       g6 / 8, 1e-9);
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "g6f.2xlarge"),
                                                ECF_PREC_BF16, &ran),
                       g6 / 4, 1e-9);
    /* a quarter of an L4 trains slower than a whole one */
    w.task = ECF_TASK_TRAIN;
    fx_est(&whole, f, "efficientnet_b0", &w, "g6.xlarge", 1);
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_TRAIN;
    fx_est(&quarter, f, "efficientnet_b0", &w, "g6f.2xlarge", 1);
    assert_true(quarter.samples_per_s < whole.samples_per_s);
    /* and decodes 8x slower at the same batch: bandwidth is shared too */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    w.precision = ECF_PREC_INT4;
    fx_est(&whole, f, "llama-3.2-1b", &w, "g6.xlarge", 1);
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    w.precision = ECF_PREC_INT4;
    fx_est(&quarter, f, "llama-3.2-1b", &w, "g6f.xlarge", 1);
    assert_true(quarter.per_token_ms > 4 * whole.per_token_ms);
}

/* ---- CPUs ---------------------------------------------------------- */

static void test_devices__cpu_peaks_from_the_isa(void **state)
{
    fx *f = *state;
    ecf_precision ran = ECF_PREC_BF16;

    /* c7i.large: 2 vCPUs x 32 fp32 FLOPs/cycle x 3.2 GHz = 204.8 GFLOPS;
     * AMX bf16 16x = 3,276.8 GFLOPS (cpu_families.csv) */
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "c7i.large"),
                                                ECF_PREC_FP32, &ran),
                       0.2048, 1e-9);
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "c7i.large"),
                                                ECF_PREC_BF16, &ran),
                       3.2768, 1e-9);
    assert_int_equal(ran, ECF_PREC_BF16);
    /* c5.large (Skylake/Cascade Lake, 3.4 GHz): no bf16, runs fp32 */
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "c5.large"),
                                                ECF_PREC_BF16, &ran),
                       0.2176, 1e-9);
    assert_int_equal(ran, ECF_PREC_FP32);
    /* c6i.large VNNI int8: 4 x 224 GFLOPS */
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "c6i.large"),
                                                ECF_PREC_INT8, &ran),
                       0.896, 1e-9);
    assert_int_equal(ran, ECF_PREC_INT8);
    /* c7g.large (Graviton3, 2.6 GHz): 2 x 32 x 2.6 = 166.4, bf16 2x */
    assert_float_equal(ecf_estimate_peak_tflops(fx_inst(f, "c7g.large"),
                                                ECF_PREC_BF16, &ran),
                       0.3328, 1e-9);
    /* DRAM share: 2 vCPUs x 4.8 GB/s (8 ch DDR5-4800 / 64 vCPUs) */
    assert_float_equal(fx_inst(f, "c7g.large")->cpu_mem_gbytes_s, 9.6, 1e-9);
}

static void test_devices__cpu_inference_fits_and_differs(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e, c7i, c5, t3, c7g;

    /* ResNet-50 on c5.large (4 GiB): 5% OS reserve, no CUDA context */
    w.task = ECF_TASK_INFER;
    fx_est(&e, f, "resnet50", &w, "c5.large", 1);
    assert_true(e.fits);
    assert_true(e.cpu_only);
    /* a 14 MB MobileNet fits a t3.medium and a c7g.large */
    fx_est(&e, f, "mobilenet_v2", &w, "t3.medium", 1);
    assert_true(e.fits);
    fx_est(&e, f, "mobilenet_v2", &w, "c7g.large", 1);
    assert_true(e.fits);
    /* BERT-base, one request at a time, 4 vCPUs each */
    w.batch_size = 1;
    fx_est(&c7i, f, "bert-base", &w, "c7i.xlarge", 1);
    fx_est(&c5, f, "bert-base", &w, "c5.xlarge", 1);
    fx_est(&t3, f, "bert-base", &w, "t3.xlarge", 1);
    fx_est(&c7g, f, "bert-base", &w, "c7g.xlarge", 1);
    assert_true(c7i.latency_ms < c5.latency_ms);
    assert_true(c5.latency_ms < t3.latency_ms);
    /* AMX makes c7i several times faster than AVX-512 fp32 on c5 */
    assert_true(c5.latency_ms > 3 * c7i.latency_ms);
    assert_true(c7g.latency_ms != c5.latency_ms);
}

/* docs/estimation.md section 7: an encoder's word-embedding
 * lookup reads the batch's token rows, so BERT-base fp32 at batch 1 x 8
 * tokens reads (109,482,240 - 30,522 x 768 + 8 x 768) x 4 B = 344.2 MB,
 * DRAM-bound on c6i.2xlarge at 8/64 x 204.8 GB/s x 0.75 = 19.2 GB/s:
 * 17.93 ms + hf's 4 ms per forward (philschmid's c6i.2xlarge CSV: 19.77
 * ms). A GPU gathers the same rows and adds the GEMMs' activation rows
 * (4.7 MB). */
static void test_devices__encoder_gathers_embedding_rows(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;

    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    w.seq_len = 8;
    w.precision = ECF_PREC_FP32;
    w.precision_explicit = true;
    assert_true(ecf_engine_parse("hf") > 0);
    w.engine = ecf_engine_parse("hf");
    assert_int_equal(ecf_workload_resolve(&w, fx_model(f, "bert-base"), &err),
                     0);
    fx_est(&e, f, "bert-base", &w, "c6i.2xlarge", 1);
    assert_true(e.serve.set);
    assert_float_equal(e.serve.weight_bytes,
                       (109482240.0 - 30522.0 * 768 + 8 * 768) * 4, 1.0);
    assert_float_equal(e.serve.bw_gbytes_s, 19.2, 1e-6);
    assert_float_equal(e.latency_ms, 344.2035e6 / 19.2e6 + 4.0, 0.01);
    /* A GPU gathers the same 8 embedding rows and adds (per-GEMM roofline,
     * docs 5.3 "Tokens per GEMM") the GEMMs' fp32 activation rows: 294,912
     * bytes per token at 2 bytes x 2 for fp32 = 589,824 x 8 tokens, scaled
     * by the forward FLOPs per matmul FLOP (attention adds 0.2%). */
    fx_est(&e, f, "bert-base", &w, "g5.xlarge", 1);
    assert_true(e.serve.weight_bytes >=
                (109482240.0 - 30522.0 * 768 + 8 * 768) * 4 + 8 * 589824.0);
    assert_true(e.serve.weight_bytes <=
                (109482240.0 - 30522.0 * 768 + 8 * 768) * 4 +
                    8 * 589824.0 * 1.01);
}

/* docs/estimation.md 5.5, "Eager dispatch": an eager engine launches an
 * EfficientNet-B0 forward's 238 kernels (counted from torchvision's
 * modules) at 37.7 us each = 8.9726 ms of host time, which the tiny
 * batch-1 device work hides under: flat, as the DLE PyTorch A100 TF32
 * table is from batch 1 to 16 (9.3-10.3 ms). Triton keeps its 4 ms per
 * forward on top of the device time. */
static void test_devices__eager_convnet_is_launch_bound(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate hf, triton;
    ecf_err err = ECF_ERR_INIT;

    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    w.precision = ECF_PREC_FP16;
    w.precision_explicit = true;
    w.engine = ecf_engine_parse("hf");
    assert_int_equal(fx_model(f, "efficientnet_b0")->eager_kernels, 238);
    assert_int_equal(
        ecf_workload_resolve(&w, fx_model(f, "efficientnet_b0"), &err), 0);
    fx_est(&hf, f, "efficientnet_b0", &w, "g5.xlarge", 1);
    assert_float_equal(hf.latency_ms, 238 * 37.7e-3, 1e-6);
    w.engine = ecf_engine_parse("triton");
    fx_est(&triton, f, "efficientnet_b0", &w, "g5.xlarge", 1);
    assert_true(triton.latency_ms > 4.0);
    assert_true(triton.latency_ms < 5.0);
}

static void test_devices__distilbert_2qps_cpu_or_lambda_first(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r = NULL;
    ecf_err err = ECF_ERR_INIT;
    ecf_light_option light[2];
    size_t n;

    w.task = ECF_TASK_INFER;
    w.qps = 2;
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    assert_int_equal(ecf_workload_resolve(&w, fx_model(f, "distilbert"), &err),
                     0);
    if (ecf_recommend_run(&r, f->cat, fx_model(f, "distilbert"), &w, &f->rules,
                          &o, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(r->n_plans > 0);
    assert_null(r->plans[0].inst->accel); /* a CPU type ranks first */
    n = ecf_recommend_light(light, 2, f->light, fx_model(f, "distilbert"), &w,
                            r);
    assert_int_equal(n, 2);
    assert_string_equal(light[0].kind, "lambda");
    assert_true(light[0].feasible);
    /* sized from the model: the first whole-vCPU step, 1,769 MB, holds
     * 66M params (it used to need 5,307 MB for a fixed 4 GiB reserve) */
    assert_string_equal(light[0].name, "lambda-x86 1769 MB");
    ecf_recommendation_free(r);
}

/* Burstable types: latency at full speed; sustained capacity at the
 * published baseline share in standard mode, the launch default of t2
 * (t2.xlarge 22.5%, t2.micro 10%; aws.amazon.com/ec2/instance-types/t2/),
 * at full speed in unlimited mode, the default of t3/t4g, whose load above
 * the baseline (t3.large 30%, t3.micro 10%, t4g.medium 20%) the plan pays
 * for at $0.05 (t3) or $0.04 (t4g) per vCPU-hour; c5 is not burstable. */
static void test_devices__burstable_capacity_is_the_baseline(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    static const struct {
        const char *type;
        double baseline, sustained, usd_per_load;
    } cases[] = {{"t3.large", 0.30, 1.0, 0.05 * 2},
                 {"t3.micro", 0.10, 1.0, 0.05 * 2},
                 {"t4g.medium", 0.20, 1.0, 0.04 * 2},
                 {"t2.xlarge", 0.225, 0.225, 0},
                 {"t2.micro", 0.10, 0.10, 0},
                 {"c5.large", 0, 1.0, 0}};
    size_t i;

    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        fx_est(&e, f, "distilbert", &w, cases[i].type, 1);
        assert_true(e.latency_ms > 0);
        assert_float_equal(e.max_qps_per_replica,
                           cases[i].sustained * 1000.0 / e.latency_ms, 1e-9);
        assert_float_equal(e.burst_baseline, cases[i].baseline, 1e-12);
        assert_float_equal(e.burst_usd_per_hour_per_load,
                           cases[i].usd_per_load, 1e-12);
        /* serving: the fleet's load is priced by the plan search */
        assert_float_equal(e.burst_surcharge_usd_per_hour, 0, 0);
    }
}

/* ---- fixed overheads ----------------------------------------------- */

static void test_devices__startup_in_every_job(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e, none;
    double weights, want;

    /* BERT-large fine-tune on p5.48xlarge: 60 s boot + a 9 GB image at
     * gp3's 125 MiB/s + 335M x 2 bytes of weights from S3 onto its local
     * NVMe (2 GB/s per TB; the 3,200 Gbps network at 64% is faster) */
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 100000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    fx_est(&e, f, "bert-large", &w, "p5.48xlarge", 1);
    weights = fx_model(f, "bert-large")->params * 2.0;
    want = 60.0 + 9e9 / (125.0 * 1048576.0) +
           weights / (fx_inst(f, "p5.48xlarge")->nvme_gb / 1000 * 2e9);
    /* g5.xlarge (250 GB NVMe = 0.5 GB/s; 2.5 Gbps baseline x 0.64 =
     * 0.2 GB/s): llama-3.1-8b's 16 GB of bf16 weights take 80 s */
    {
        ecf_workload wi = ECF_WORKLOAD_INIT;
        ecf_estimate g5;
        wi.task = ECF_TASK_INFER;
        fx_est(&g5, f, "llama-3.1-8b", &wi, "g5.xlarge", 1);
        assert_float_equal(fx_inst(f, "g5.xlarge")->network_gbps, 2.5, 1e-9);
        assert_float_equal(g5.startup_s,
                           60.0 + 9e9 / (125.0 * 1048576.0) +
                               fx_model(f, "llama-3.1-8b")->params * 2.0 / 0.2e9,
                           1e-6);
    }
    assert_float_equal(e.startup_s, want, 1e-6);
    assert_true(e.time_hours * 60 > 1.0); /* never "0 min" */
    assert_true(has_note(&e, "start-up"));
    assert_true(has_note(&e, "capacity: p5.48xlarge"));
    /* --startup 0 removes it, and only it */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 100000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.startup_set = true;
    w.startup_s = 0;
    fx_est(&none, f, "bert-large", &w, "p5.48xlarge", 1);
    assert_float_equal((e.time_hours - none.time_hours) * 3600, want, 1e-6);
    /* g6.xlarge is sold on demand: no capacity note */
    fx_est(&none, f, "bert-large", &w, "g6.xlarge", 1);
    assert_false(has_note(&none, "capacity:"));
    assert_null(ecf_estimate_capacity_note(fx_inst(f, "g6.xlarge")));
    assert_non_null(ecf_estimate_capacity_note(fx_inst(f, "trn2.48xlarge")));
}

static void test_devices__qlora_8b_pays_startup_and_min_bill(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r = NULL;
    ecf_err err = ECF_ERR_INIT;
    size_t i, n_short;

    w.task = ECF_TASK_QLORA;
    w.dataset_amount = 20e6;
    w.dataset_unit = ECF_DATASET_TOKENS;
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    assert_int_equal(ecf_workload_resolve(&w, fx_model(f, "llama-3.1-8b"), &err),
                     0);
    if (ecf_recommend_run(&r, f->cat, fx_model(f, "llama-3.1-8b"), &w,
                          &f->rules, &o, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(r->n_plans > 0);
    for (i = 0; i < r->n_plans; i++) {
        const ecf_plan *p = &r->plans[i];
        /* boot alone is a minute; the 16 GB of bf16 weights add 2 more */
        assert_true(p->time_hours * 3600 > 60 + 16e9 / (125.0 * 1048576.0));
        assert_true(p->total_usd >= p->hourly_usd * 60 / 3600 - 1e-9);
    }
    ecf_recommendation_free(r);
    /* --startup 0 on a tiny job: still billed a minute per node */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 1000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.startup_set = true;
    w.startup_s = 0;
    o = (ecf_recommend_opts)ECF_RECOMMEND_OPTS_INIT;
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    o.spot = ECF_SPOT_NO;
    assert_int_equal(ecf_workload_resolve(&w, fx_model(f, "distilbert"), &err),
                     0);
    if (ecf_recommend_run(&r, f->cat, fx_model(f, "distilbert"), &w, &f->rules,
                          &o, &err) != 0)
        fail_msg("%s", err.msg);
    for (i = 0, n_short = 0; i < r->n_plans; i++) {
        const ecf_plan *p = &r->plans[i];
        if (p->time_hours * 3600 < 60) {
            assert_float_equal(p->total_usd, p->hourly_usd / 60, 1e-9);
            n_short++;
        }
    }
    assert_true(n_short > 0);
    ecf_recommendation_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_devices__fractional_l4_scales_compute),
        cmocka_unit_test(test_devices__cpu_peaks_from_the_isa),
        cmocka_unit_test(test_devices__encoder_gathers_embedding_rows),
        cmocka_unit_test(test_devices__cpu_inference_fits_and_differs),
        cmocka_unit_test(test_devices__eager_convnet_is_launch_bound),
        cmocka_unit_test(test_devices__distilbert_2qps_cpu_or_lambda_first),
        cmocka_unit_test(test_devices__burstable_capacity_is_the_baseline),
        cmocka_unit_test(test_devices__startup_in_every_job),
        cmocka_unit_test(test_devices__qlora_8b_pays_startup_and_min_bill),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
