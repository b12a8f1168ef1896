/* test_cpu_burst.c - issue 24 point 4 on the embedded catalog: burstable
 * types (t2/t3/t3a/t4g) sustain only their baseline share of each vCPU,
 * for serving and for training alike, and a CPU-only host keeps the
 * runtime's own RAM (docs/estimation.md 7, "Host-RAM floor per runtime",
 * and "Burstable CPUs"). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/recommend.h"

#include "embedded_fx.h"

/* The published baseline per vCPU (aws.amazon.com/ec2/instance-types/t3/
 * and /t4/; t2: the instance's baseline over its vCPUs), restated here so
 * the test does not read the estimator's own table. */
static double published_baseline(const ecf_instance *in)
{
    static const struct {
        const char *size;
        double t3, t2;
    } rows[] = {{"nano", 0.05, 0.05},  {"micro", 0.10, 0.10},
                {"small", 0.20, 0.20}, {"medium", 0.20, 0.20},
                {"large", 0.30, 0.30}, {"xlarge", 0.40, 0.225},
                {"2xlarge", 0.40, 0.16875}};
    const char *dot = strchr(in->type, '.');
    bool t2;
    size_t i;

    if (!in->family || !dot)
        return 0;
    t2 = strcmp(in->family, "t2") == 0;
    if (!t2 && strcmp(in->family, "t3") != 0 &&
        strcmp(in->family, "t3a") != 0 && strcmp(in->family, "t4g") != 0)
        return 0;
    for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
        if (strcmp(dot + 1, rows[i].size) == 0)
            return t2 ? rows[i].t2 : rows[i].t3;
    return 0;
}

static bool has_note(const ecf_estimate *e, const char *needle)
{
    int i;
    for (i = 0; i < e->n_assumptions; i++)
        if (strstr(e->assumptions[i], needle))
            return true;
    return false;
}

/* Invariant over generated CPU workloads: on every burstable type of the
 * catalog, the sustained rate (training samples/s, serving requests/s per
 * replica, batch samples/s) is the published baseline times what the same
 * host would do at full speed (its twin: the same instance under a
 * non-burstable family name), never more; memory and the fit are the
 * twin's. */
static void test_cpu_burst__no_plan_above_its_baseline(void **state)
{
    fx *f = *state;
    static const char *const models[] = {"efficientnet_b0", "mobilenet_v2",
                                         "resnet50", "distilbert",
                                         "bert-base"};
    static const ecf_task tasks[] = {ECF_TASK_TRAIN, ECF_TASK_FINETUNE,
                                     ECF_TASK_INFER, ECF_TASK_BATCH};
    static const int batches[] = {1, 8, 64};
    size_t i, mi, ti, bi, n_types = 0, n_checked = 0, n_fit = 0;

    for (i = 0; i < ecf_catalog_count(f->cat); i++) {
        const ecf_instance *in = ecf_catalog_at(f->cat, i);
        double base = published_baseline(in);
        ecf_instance twin;
        if (base <= 0 || in->accel_count > 0)
            continue;
        n_types++;
        twin = *in;
        twin.family = (char *)"m5";
        for (mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++)
            for (ti = 0; ti < sizeof(tasks) / sizeof(tasks[0]); ti++)
                for (bi = 0; bi < sizeof(batches) / sizeof(batches[0]);
                     bi++) {
                    ecf_workload w = ECF_WORKLOAD_INIT;
                    ecf_estimate b, full;
                    ecf_err err = ECF_ERR_INIT;
                    const ecf_model *m = fx_model(f, models[mi]);
                    w.task = tasks[ti];
                    w.batch_size = batches[bi];
                    w.dataset_amount = 10000;
                    w.dataset_unit = ECF_DATASET_SAMPLES;
                    if (ecf_estimate_run(&b, m, &w, in, 1, &err) != 0 ||
                        ecf_estimate_run(&full, m, &w, &twin, 1, &err) != 0)
                        fail_msg("%s on %s: %s", models[mi], in->type,
                                 err.msg);
                    n_checked++;
                    assert_int_equal(b.fits, full.fits);
                    assert_float_equal(b.memory.available_per_device_gib,
                                       full.memory.available_per_device_gib,
                                       1e-12);
                    if (!b.fits)
                        continue;
                    n_fit++;
                    if (b.samples_per_s > base * full.samples_per_s *
                                              (1 + 1e-9))
                        fail_msg("%s %s batch %d on %s: %.6g samples/s "
                                 "above %.3f x %.6g",
                                 models[mi], ecf_task_name(tasks[ti]),
                                 batches[bi], in->type, b.samples_per_s,
                                 base, full.samples_per_s);
                    assert_float_equal(b.samples_per_s,
                                       base * full.samples_per_s,
                                       1e-9 * full.samples_per_s);
                    if (tasks[ti] == ECF_TASK_INFER)
                        assert_float_equal(b.max_qps_per_replica,
                                           base * full.max_qps_per_replica,
                                           1e-9 * full.max_qps_per_replica);
                    assert_true(has_note(&b, "baseline"));
                }
    }
    print_message("burstable invariant: %zu types, %zu workloads, %zu fit\n",
                  n_types, n_checked, n_fit);
    /* t2 7 sizes, t3/t3a 7, t4g 7 in the catalog: every one visited */
    assert_true(n_types >= 20);
    assert_true(n_checked >= 300);
    assert_true(n_fit >= 100);
}

/* ResNet-style training time on t3.large: 30% of the twin's rate, so the
 * hours are 1 / 0.30 of the full-speed ones (start-up excluded). */
static void test_cpu_burst__training_is_timed_at_the_baseline(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate b, full;
    ecf_instance twin = *fx_inst(f, "t3.large");
    ecf_err err = ECF_ERR_INIT;

    twin.family = (char *)"m5";
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 10;
    fx_est(&b, f, "efficientnet_b0", &w, "t3.large", 1);
    if (ecf_estimate_run(&full, fx_model(f, "efficientnet_b0"), &w, &twin, 1,
                         &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(b.fits);
    assert_float_equal(b.step_time_s, full.step_time_s / 0.30,
                       1e-9 * b.step_time_s);
    assert_float_equal(b.time_hours - b.startup_s / 3600.0,
                       (full.time_hours - full.startup_s / 3600.0) / 0.30,
                       1e-9 * b.time_hours);
}

/* A CPU-only PyTorch process commits 603 MB before the model (pytorch/
 * pytorch#64720): a t3.nano (0.5 GiB, 0.25 GiB of OS reserve) cannot hold
 * an EfficientNet-B0 fine-tune, a t3.micro (1 GiB) no DistilBERT server;
 * a TensorFlow runtime charges 297.7 MB (modelkit#199). */
static void test_cpu_burst__runtime_floor(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;

    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    fx_est(&e, f, "efficientnet_b0", &w, "t3.nano", 1);
    assert_false(e.fits);
    /* available = RAM - OS reserve; the runtime is charged as overhead */
    assert_float_equal(e.memory.available_per_device_gib, 0.5 - 0.25, 1e-9);
    assert_true(e.memory.overhead_gib >= 603e6 / 1073741824.0);
    assert_true(has_note(&e, "PyTorch runtime holds 0.56 GiB"));

    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.batch_size = 1;
    fx_est(&e, f, "distilbert", &w, "t3.micro", 1);
    assert_false(e.fits);
    fx_est(&e, f, "distilbert", &w, "t3.small", 1);
    assert_true(e.fits);
    assert_float_equal(e.memory.available_per_device_gib, 2.0 - 0.25, 1e-9);

    w.framework = ECF_FW_TENSORFLOW;
    fx_est(&e, f, "resnet50", &w, "c5.large", 1);
    assert_true(has_note(&e, "TensorFlow runtime holds 0.28 GiB"));

    /* JAX: 330,400 KB of RSS for a CPU process running one jitted
     * computation (jax-ml/jax#25184), serving and training alike */
    w.framework = ECF_FW_JAX;
    fx_est(&e, f, "resnet50", &w, "c5.large", 1);
    assert_true(has_note(&e, "JAX runtime holds 0.32 GiB"));
    assert_true(e.memory.overhead_gib >= 330400.0 * 1024 / 1073741824.0);
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_FINETUNE;
    w.framework = ECF_FW_JAX;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    fx_est(&e, f, "efficientnet_b0", &w, "c5.large", 1);
    assert_true(has_note(&e, "JAX runtime holds 0.32 GiB"));
}

/* issue 24's two CPU cases: no t-family plan ranks first */
static void rank1_not_burstable(fx *f, const char *model, ecf_workload *w)
{
    ecf_recommendation *r = NULL;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_err err = ECF_ERR_INIT;
    size_t i;

    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    assert_int_equal(ecf_workload_resolve(w, fx_model(f, model), &err), 0);
    if (ecf_recommend_run(&r, f->cat, fx_model(f, model), w, &f->rules, &o,
                          &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(r->n_plans > 0);
    if (published_baseline(r->plans[0].inst) > 0)
        fail_msg("%s: rank 1 is burstable %s", model, r->plans[0].inst->type);
    /* and no burstable plan serves above its baseline capacity */
    for (i = 0; i < r->n_plans; i++)
        if (published_baseline(r->plans[i].inst) > 0 && w->qps > 0)
            assert_true(r->plans[i].capacity_qps >= w->qps);
    ecf_recommendation_free(r);
}

static void test_cpu_burst__issue_cases_rank_no_t_family(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;

    /* recommend --model efficientnet_b0 --task finetune --dataset 50k
     * --epochs 10 */
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 10;
    rank1_not_burstable(f, "efficientnet_b0", &w);
    /* recommend --model distilbert --task infer --qps 1 */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.qps = 1;
    rank1_not_burstable(f, "distilbert", &w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_burst__no_plan_above_its_baseline),
        cmocka_unit_test(test_cpu_burst__training_is_timed_at_the_baseline),
        cmocka_unit_test(test_cpu_burst__runtime_floor),
        cmocka_unit_test(test_cpu_burst__issue_cases_rank_no_t_family),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
