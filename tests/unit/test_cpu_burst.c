/* test_cpu_burst.c - issue 24 point 4 on the embedded catalog: burstable
 * types (t2/t3/t3a/t4g) sustain only their baseline share of each vCPU in
 * standard mode (t2), or run at full speed with the surplus above the
 * baseline priced in unlimited mode (t3/t3a/t4g), for serving and for
 * training alike, and a CPU-only host keeps the
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

/* The surplus-credit rate of unlimited mode, the launch default of t3,
 * t3a and t4g (t2 launches in standard mode): Linux $0.05 per vCPU-hour on
 * T3/T3a, $0.04 on T4g (aws.amazon.com/ec2/pricing/on-demand/, "T2/T3/T4g
 * Unlimited Mode Pricing"); 0 = standard mode. */
static double published_surplus_rate(const ecf_instance *in)
{
    if (strcmp(in->family, "t4g") == 0)
        return 0.04;
    if (strcmp(in->family, "t3") == 0 || strcmp(in->family, "t3a") == 0)
        return 0.05;
    return 0;
}

/* Invariant over generated CPU workloads: on every burstable type of the
 * catalog, against what the same host does at full speed (its twin: the
 * same instance under a non-burstable family name):
 *  - standard mode (t2): the sustained rate (training samples/s, serving
 *    requests/s per replica, batch samples/s) is the published baseline
 *    times the twin's, never more;
 *  - unlimited mode (t3/t3a/t4g): the twin's rate, and the surplus above
 *    the baseline is priced: a job (train, fine-tune, batch: load 1) pays
 *    rate x vCPUs x (1 - baseline) per node-hour; a server carries rate x
 *    vCPUs per unit of load for the plan search to price its fleet's load;
 * memory and the fit are the twin's. */
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
    size_t n_unlimited = 0;

    for (i = 0; i < ecf_catalog_count(f->cat); i++) {
        const ecf_instance *in = ecf_catalog_at(f->cat, i);
        double base = published_baseline(in);
        double rate = base > 0 ? published_surplus_rate(in) : 0;
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
                    assert_float_equal(b.burst_baseline, base, 1e-12);
                    if (rate > 0) {
                        bool job = tasks[ti] != ECF_TASK_INFER;
                        n_unlimited++;
                        assert_float_equal(b.samples_per_s,
                                           full.samples_per_s,
                                           1e-9 * full.samples_per_s);
                        assert_float_equal(b.burst_usd_per_hour_per_load,
                                           rate * in->vcpu, 1e-12);
                        assert_float_equal(
                            b.burst_surcharge_usd_per_hour,
                            job ? rate * in->vcpu * (1 - base) : 0, 1e-12);
                        if (!job)
                            assert_float_equal(b.max_qps_per_replica,
                                               full.max_qps_per_replica,
                                               1e-9 *
                                                   full.max_qps_per_replica);
                        assert_true(has_note(&b, "baseline"));
                        continue;
                    }
                    assert_float_equal(b.burst_surcharge_usd_per_hour, 0,
                                       0);
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
    print_message("burstable invariant: %zu types, %zu workloads, %zu fit "
                  "(%zu unlimited)\n",
                  n_types, n_checked, n_fit, n_unlimited);
    assert_true(n_unlimited > 0 && n_unlimited < n_fit);
    /* t2 7 sizes, t3/t3a 7, t4g 7 in the catalog: every one visited */
    assert_true(n_types >= 20);
    assert_true(n_checked >= 300);
    assert_true(n_fit >= 100);
}

/* EfficientNet-B0 fine-tune on t2.large (standard mode): 30% of the
 * twin's rate, so the hours are 1 / 0.30 of the full-speed ones (start-up
 * excluded), and no surplus is billed. On t3.large (unlimited mode) it
 * runs at full speed and pays $0.05 x 2 vCPUs x (1 - 0.30) = $0.07 per
 * hour above the $0.0832 on-demand price: (0.0832 + 0.07) / 0.0832 = 1.84x
 * the hourly price for 1 / 0.30 = 3.33x fewer hours. */
static void test_cpu_burst__training_is_timed_at_the_baseline(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate b, full;
    ecf_instance twin = *fx_inst(f, "t2.large");
    ecf_err err = ECF_ERR_INIT;
    twin.family = (char *)"m5";
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 10;
    fx_est(&b, f, "efficientnet_b0", &w, "t2.large", 1);
    if (ecf_estimate_run(&full, fx_model(f, "efficientnet_b0"), &w, &twin, 1,
                         &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(b.fits);
    assert_float_equal(b.step_time_s, full.step_time_s / 0.30,
                       1e-9 * b.step_time_s);
    assert_float_equal(b.time_hours - b.startup_s / 3600.0,
                       (full.time_hours - full.startup_s / 3600.0) / 0.30,
                       1e-9 * b.time_hours);
    assert_float_equal(b.burst_surcharge_usd_per_hour, 0, 0);
    assert_true(has_note(&b, "standard mode"));

    twin = *fx_inst(f, "t3.large");
    twin.family = (char *)"m5";
    fx_est(&b, f, "efficientnet_b0", &w, "t3.large", 1);
    if (ecf_estimate_run(&full, fx_model(f, "efficientnet_b0"), &w, &twin, 1,
                         &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(b.fits);
    assert_int_equal(fx_inst(f, "t3.large")->vcpu, 2);
    assert_float_equal(b.step_time_s, full.step_time_s, 1e-9 * b.step_time_s);
    assert_float_equal(b.time_hours, full.time_hours, 1e-9 * b.time_hours);
    assert_float_equal(b.burst_surcharge_usd_per_hour, 0.07, 1e-12);
    assert_true(has_note(&b, "unlimited mode"));
}

/* The plan search prices a burstable fleet's load (docs/estimation.md
 * "Burstable CPUs"). DistilBERT at 1 req/s: on t4g.small (unlimited,
 * baseline 20%) the fleet's mean load per vCPU is above the baseline and
 * its $/h is $0.0168 + $0.04 x 2 vCPUs x (load - 0.20); on t3.small the
 * load is under the baseline and no surplus is billed; a t2.small
 * (standard) is held within its baseline. Every plan's surcharge is
 * exactly that formula; its hourly price includes it. */
static void test_cpu_burst__serving_surcharge_priced(void **state)
{
    fx *f = *state;
    ecf_recommendation *r = NULL;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_err err = ECF_ERR_INIT;
    static const char *const fams[] = {"t2", "t3", "t4g", NULL};
    size_t i, seen = 0, above = 0;
    bool t4g = false, t3 = false;

    w.task = ECF_TASK_INFER;
    w.qps = 1;
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    o.families = fams;
    assert_int_equal(ecf_workload_resolve(&w, fx_model(f, "distilbert"), &err),
                     0);
    if (ecf_recommend_run(&r, f->cat, fx_model(f, "distilbert"), &w,
                          &f->rules, &o, &err) != 0)
        fail_msg("%s", err.msg);
    for (i = 0; i < r->n_plans; i++) {
        const ecf_plan *p = &r->plans[i];
        double rate = published_surplus_rate(p->inst);
        double base = published_baseline(p->inst);
        double want;
        assert_true(base > 0);
        assert_float_equal(p->burst_baseline, base, 1e-12);
        seen++;
        if (rate <= 0) {
            assert_false(p->burst_unlimited);
            assert_true(p->burst_load <= base + 1e-12);
            assert_float_equal(p->burst_surcharge_usd_per_hour, 0, 0);
            continue;
        }
        assert_true(p->burst_unlimited);
        want = p->burst_load > base ? rate * p->inst->vcpu *
                                          (p->burst_load - base) *
                                          p->asg_expected
                                    : 0;
        assert_float_equal(p->burst_surcharge_usd_per_hour, want, 1e-12);
        if (want > 0)
            above++;
        if (strcmp(p->inst->type, "t4g.small") == 0 && p->nodes == 1 &&
            p->asg_expected == 1) {
            t4g = true;
            assert_true(p->burst_load > 0.20);
            assert_float_equal(p->hourly_usd,
                               0.0168 + 0.04 * 2 * (p->burst_load - 0.20),
                               1e-9);
        }
        if (strcmp(p->inst->type, "t3.small") == 0 && p->nodes == 1 &&
            p->asg_expected == 1) {
            t3 = true;
            assert_true(p->burst_load <= 0.20);
            assert_float_equal(p->hourly_usd, 0.0208, 1e-9);
        }
    }
    print_message("burstable serving: %zu plans, %zu pay surplus credits\n",
                  seen, above);
    assert_true(seen >= 5);
    assert_true(above >= 1);
    assert_true(t4g && t3);
    ecf_recommendation_free(r);
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

/* issue 24's two CPU cases. The efficientnet_b0 fine-tune (a full load
 * for hours) ranks no t-family plan first. DistilBERT at 1 req/s does, and
 * rightly: a t3.small (2 GiB, the PyTorch runtime's 0.56 GiB and the model
 * fit) serves it at a mean 17.8% per vCPU, within its 20% baseline, so
 * unlimited mode bills no surplus and its $0.0208/h undercuts every
 * fixed-performance type (c7g.medium $0.0363/h); the peaks (2x the mean)
 * spend credits the troughs earn. Every burstable plan of both runs is
 * within its baseline or pays the surplus above it. */
static const ecf_plan *rank1_of(ecf_recommendation **r, fx *f,
                                const char *model, ecf_workload *w)
{
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_err err = ECF_ERR_INIT;
    size_t i;

    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    assert_int_equal(ecf_workload_resolve(w, fx_model(f, model), &err), 0);
    if (ecf_recommend_run(r, f->cat, fx_model(f, model), w, &f->rules, &o,
                          &err) != 0)
        fail_msg("%s", err.msg);
    assert_true((*r)->n_plans > 0);
    for (i = 0; i < (*r)->n_plans; i++) {
        const ecf_plan *p = &(*r)->plans[i];
        if (published_baseline(p->inst) <= 0)
            continue;
        if (published_surplus_rate(p->inst) <= 0)
            assert_true(p->burst_load <= p->burst_baseline + 1e-12);
        else if (p->burst_load > p->burst_baseline)
            assert_true(p->burst_surcharge_usd_per_hour > 0);
        if (w->qps > 0)
            assert_true(p->capacity_qps >= w->qps);
    }
    return &(*r)->plans[0];
}

static void test_cpu_burst__issue_cases_rank_no_t_family(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommendation *r = NULL;
    const ecf_plan *top;
    size_t i;

    /* recommend --model efficientnet_b0 --task finetune --dataset 50k
     * --epochs 10 */
    w.task = ECF_TASK_FINETUNE;
    w.dataset_amount = 50000;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 10;
    top = rank1_of(&r, f, "efficientnet_b0", &w);
    if (published_baseline(top->inst) > 0)
        fail_msg("efficientnet_b0: rank 1 is burstable %s", top->inst->type);
    ecf_recommendation_free(r);
    /* recommend --model distilbert --task infer --qps 1 */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    w.qps = 1;
    top = rank1_of(&r, f, "distilbert", &w);
    assert_string_equal(top->inst->type, "t3.small");
    assert_int_equal(top->nodes, 1);
    assert_true(top->burst_unlimited);
    assert_float_equal(top->burst_load, 0.178, 0.001);
    assert_float_equal(top->burst_surcharge_usd_per_hour, 0, 0);
    assert_float_equal(top->hourly_usd, 0.0208, 1e-9);
    /* the cheapest fixed-performance plan costs more */
    for (i = 1; i < r->n_plans; i++)
        if (published_baseline(r->plans[i].inst) <= 0) {
            assert_true(r->plans[i].hourly_usd > top->hourly_usd);
            break;
        }
    ecf_recommendation_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cpu_burst__no_plan_above_its_baseline),
        cmocka_unit_test(test_cpu_burst__training_is_timed_at_the_baseline),
        cmocka_unit_test(test_cpu_burst__serving_surcharge_priced),
        cmocka_unit_test(test_cpu_burst__runtime_floor),
        cmocka_unit_test(test_cpu_burst__issue_cases_rank_no_t_family),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
