/*
 * test_ranges.c - likely ranges (ec2fit/ranges.h, docs/estimation.md
 * "Ranges"): the class a workload falls in, the fallback from the class
 * to coarser groupings, and the invariant low <= value <= high over every
 * plan of many generated workloads (jobs and serving) and over estimates
 * of every zoo model on GPU, Neuron and CPU types.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/ranges.h"
#include "ec2fit/recommend.h"
#include "embedded_fx.h"

static const ecf_model *model(fx *f, const char *name)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, name);
    assert_non_null(m);
    return m;
}

static void check(const ecf_fig_range *r, const char *what, const char *who)
{
    if (!r->set)
        return;
    if (!(r->low > 0 && r->low <= r->value && r->value <= r->high) ||
        !isfinite(r->high) || r->basis->rows < 5)
        fail_msg("%s %s: %g <= %g <= %g (%d rows)", who, what, r->low,
                 r->value, r->high, r->basis ? r->basis->rows : 0);
}

static void check_all(const ecf_ranges *rg, const char *who)
{
    check(&rg->time_hours, "time_hours", who);
    check(&rg->throughput, "throughput", who);
    check(&rg->latency_ms, "latency_ms", who);
    check(&rg->ttft_ms, "ttft_ms", who);
    check(&rg->per_token_ms, "per_token_ms", who);
    check(&rg->memory_gib, "memory", who);
    check(&rg->total_usd, "total_usd", who);
    check(&rg->monthly_usd, "monthly_usd", who);
}

static void test_ranges__class_of_a_workload(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_range_key k;
    ecf_err err = ECF_ERR_INIT;

    w.task = ECF_TASK_TRAIN;
    assert_int_equal(ecf_workload_resolve(&w, model(f, "resnet50"), &err), 0);
    ecf_range_key_of(&k, model(f, "resnet50"), &w,
                     fx_inst(f, "p4d.24xlarge"));
    assert_string_equal(k.family, "cnn");
    assert_string_equal(k.task, "train");
    assert_string_equal(k.generation, "ampere");
    assert_string_equal(k.engine, "pytorch");

    /* serving: the engine the estimator picks for the device */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_INFER;
    assert_int_equal(
        ecf_workload_resolve(&w, model(f, "llama-3.1-8b"), &err), 0);
    ecf_range_key_of(&k, model(f, "llama-3.1-8b"), &w,
                     fx_inst(f, "inf2.8xlarge"));
    assert_string_equal(k.family, "decoder");
    assert_string_equal(k.engine, "neuron");
    ecf_range_key_of(&k, model(f, "llama-3.1-8b"), &w,
                     fx_inst(f, "g6e.xlarge"));
    assert_string_equal(k.generation, "ada");
    assert_string_equal(k.engine, "vllm");
    ecf_range_key_of(&k, model(f, "llama-3.1-8b"), &w,
                     fx_inst(f, "c7i.8xlarge"));
    assert_string_equal(k.generation, "cpu");

    /* QLoRA pools with LoRA */
    w = (ecf_workload)ECF_WORKLOAD_INIT;
    w.task = ECF_TASK_QLORA;
    assert_int_equal(
        ecf_workload_resolve(&w, model(f, "llama-3.1-8b"), &err), 0);
    ecf_range_key_of(&k, model(f, "llama-3.1-8b"), &w,
                     fx_inst(f, "g6e.xlarge"));
    assert_string_equal(k.task, "lora");
}

static void test_ranges__falls_back_to_coarser_classes(void **state)
{
    /* A table as the generator writes it: only classes with >= min_rows. */
    static const ecf_range_class cls[] = {
        {ECF_RANGE_INFER_LATENCY, ECF_RANGE_LEVEL_CLASS, "decoder", "infer",
         "hopper", "vllm", 0.9, 1.2, 7},
        {ECF_RANGE_INFER_LATENCY, ECF_RANGE_LEVEL_TASK, "decoder", "infer",
         NULL, NULL, 0.8, 1.5, 30},
        {ECF_RANGE_INFER_LATENCY, ECF_RANGE_LEVEL_KIND, NULL, NULL, NULL,
         NULL, 0.7, 2.0, 95},
    };
    const ecf_range_table t = {cls, 3, 5, 5, 95, "test"};
    ecf_range_key k = {"decoder", "infer", "hopper", "vllm"};
    (void)state;

    assert_ptr_equal(ecf_range_lookup(&t, ECF_RANGE_INFER_LATENCY, &k),
                     &cls[0]);
    k.generation = "ampere"; /* no class row: family x task */
    assert_ptr_equal(ecf_range_lookup(&t, ECF_RANGE_INFER_LATENCY, &k),
                     &cls[1]);
    k.family = "encoder"; /* nothing finer than the kind */
    assert_ptr_equal(ecf_range_lookup(&t, ECF_RANGE_INFER_LATENCY, &k),
                     &cls[2]);
    /* a kind the table has no row of: no range */
    assert_null(ecf_range_lookup(&t, ECF_RANGE_MEMORY, &k));
    {
        char buf[64];
        assert_string_equal(ecf_range_class_label(buf, sizeof(buf), &cls[1]),
                            "decoder/infer/*/*");
    }
    {
        /* the label is joined without printf: at every buffer size the
         * bytes are snprintf's, truncated at len - 1 alike */
        static const ecf_range_class full = {.family = "g5",
                                             .task = "train",
                                             .generation = "ampere",
                                             .engine = "vllm"};
        const ecf_range_class *both[2] = {&full, &cls[1]};
        size_t b, len;
        for (b = 0; b < 2; b++)
            for (len = 1; len <= 32; len++) {
                const ecf_range_class *c = both[b];
                char got[32], want[32];
                memset(got, 'x', sizeof(got));
                snprintf(want, len, "%s/%s/%s/%s",
                         c->family ? c->family : "*", c->task ? c->task : "*",
                         c->generation ? c->generation : "*",
                         c->engine ? c->engine : "*");
                ecf_range_class_label(got, len, c);
                assert_string_equal(got, want);
            }
    }
}

static void test_ranges__every_plan_brackets_its_figures(void **state)
{
    /* 3 x 4 jobs and 4 x 3 serving workloads over the whole catalog:
     * every shown plan has time, cost and throughput ranges (jobs) or
     * latency, monthly cost and throughput ranges (serving) around its
     * figures. */
    static const char *const jobs[] = {"resnet50", "bert-large",
                                       "llama-3.1-8b", "vit-b-16"};
    static const ecf_task job_tasks[] = {ECF_TASK_TRAIN, ECF_TASK_FINETUNE,
                                         ECF_TASK_BATCH};
    static const char *const serve[] = {"llama-3.1-8b", "mistral-7b",
                                        "bert-base", "resnet50"};
    static const double qps[] = {1, 20, 200};
    fx *f = *state;
    const ecf_range_table *t = ecf_ranges_embedded();
    size_t a, b, i, plans = 0;

    assert_true(t->n > 5);
    for (a = 0; a < sizeof(jobs) / sizeof(jobs[0]); a++)
        for (b = 0; b < sizeof(job_tasks) / sizeof(job_tasks[0]); b++) {
            ecf_workload w = ECF_WORKLOAD_INIT;
            ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
            ecf_recommendation *r = NULL;
            ecf_err err = ECF_ERR_INIT;
            const ecf_model *m = ecf_zoo_find(f->zoo, jobs[a]);
            if (!m)
                continue;
            w.task = job_tasks[b];
            w.dataset_amount = 1e6;
            w.dataset_unit = ECF_DATASET_SAMPLES;
            w.epochs = 2;
            o.regions[o.n_regions++] = "us-east-1";
            o.stacks = f->stacks;
            if (ecf_workload_resolve(&w, m, &err) != 0 ||
                ecf_recommend_run(&r, f->cat, m, &w, &f->rules, &o, &err) !=
                    0)
                fail_msg("%s: %s", jobs[a], err.msg);
            for (i = 0; i < r->n_plans && i < 10; i++) {
                ecf_ranges rg;
                ecf_ranges_for_plan(&rg, t, m, &r->workload, r->serving,
                                    &r->plans[i]);
                assert_true(rg.time_hours.set);
                assert_true(rg.total_usd.set);
                assert_true(rg.throughput.set);
                assert_true(rg.memory_gib.set);
                assert_false(rg.monthly_usd.set);
                check_all(&rg, r->plans[i].inst->type);
                plans++;
            }
            ecf_recommendation_free(r);
        }
    for (a = 0; a < sizeof(serve) / sizeof(serve[0]); a++)
        for (b = 0; b < sizeof(qps) / sizeof(qps[0]); b++) {
            ecf_workload w = ECF_WORKLOAD_INIT;
            ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
            ecf_recommendation *r = NULL;
            ecf_err err = ECF_ERR_INIT;
            const ecf_model *m = ecf_zoo_find(f->zoo, serve[a]);
            if (!m)
                continue;
            w.task = ECF_TASK_INFER;
            w.qps = qps[b];
            o.regions[o.n_regions++] = "us-east-1";
            o.stacks = f->stacks;
            if (ecf_workload_resolve(&w, m, &err) != 0 ||
                ecf_recommend_run(&r, f->cat, m, &w, &f->rules, &o, &err) !=
                    0)
                fail_msg("%s: %s", serve[a], err.msg);
            for (i = 0; i < r->n_plans && i < 10; i++) {
                ecf_ranges rg;
                ecf_ranges_for_plan(&rg, t, m, &r->workload, r->serving,
                                    &r->plans[i]);
                assert_true(rg.latency_ms.set);
                assert_true(rg.monthly_usd.set);
                assert_true(rg.throughput.set);
                assert_false(rg.time_hours.set);
                if (ecf_model_kind_is_llm(m->kind)) {
                    assert_true(rg.ttft_ms.set);
                    assert_true(rg.per_token_ms.set);
                }
                check_all(&rg, r->plans[i].inst->type);
                plans++;
            }
            ecf_recommendation_free(r);
        }
    assert_true(plans >= 150);
}

/* The shortest purchasable Capacity Block of at least `hours` (EC2 User
 * Guide, "Find and purchase Capacity Blocks": 1-day increments up to 14
 * days, then 7-day increments up to 182), counted here without the
 * library's window function; 0 past 182 days. */
static int purchasable_days(double hours)
{
    int d;
    for (d = 1; d <= 182; d += d < 14 ? 1 : 7)
        if (d * 24.0 >= hours * (1 - 1e-12))
            return d;
    return 0;
}

static void check_cb_bound(double bound, double hours, const ecf_plan *p,
                           const char *which, bool past_block)
{
    int d = purchasable_days(hours);
    double want;

    if (past_block) {
        /* the high time needs more than one block: the bound is the
         * longest block's cost, never a price for the longer time */
        if (d != 0)
            fail_msg("%s x%d: %s %.1f h fits a %d-day block but is marked "
                     "past one block", p->inst->type, p->nodes, which,
                     hours, d);
        d = 182;
    }
    if (d == 0)
        fail_msg("%s x%d: %s time %.1f h is past 182 days and not marked",
                 p->inst->type, p->nodes, which, hours);
    want = d * 24.0 * p->usd_per_hour_instance * p->nodes;
    if (fabs(bound - want) > 1e-9 * want)
        fail_msg("%s x%d: %s $%.2f for %.1f h, want the %d-day window "
                 "$%.2f", p->inst->type, p->nodes, which, bound, hours, d,
                 want);
    /* the window holds the bound's time */
    if (!past_block && d * 24.0 < hours * (1 - 1e-12))
        fail_msg("%s: %d-day window shorter than %.1f h", which, d, hours);
}

static void test_ranges__capacity_block_bounds_are_whole_windows(void **state)
{
    /* Training jobs of a few hours to years on every type with a
     * Capacity Block rate (--purchase capacity-block, and auto's plan
     * beside on-demand): each capacity-block plan's cost range is
     * lo <= total <= hi, each bound is days x 24 x rate x instances for
     * a purchasable duration whose window holds the bound's time, and a
     * high time past 182 days is marked rather than priced. */
    static const char *const models[] = {"resnet50", "bert-large",
                                         "llama-3.1-8b", "vit-b-16",
                                         "mistral-7b"};
    static const double samples[] = {3e6, 3e7, 1e8, 3e8, 1e9, 3e9, 1e10};
    static const ecf_purchase purchases[] = {ECF_PURCHASE_CAPACITY_BLOCK,
                                             ECF_PURCHASE_AUTO};
    fx *f = *state;
    const ecf_range_table *t = ecf_ranges_embedded();
    size_t a, b, c, i, n_cb = 0, n_rounded = 0, n_past = 0, n_runs = 0;

    for (a = 0; a < sizeof(models) / sizeof(models[0]); a++)
        for (b = 0; b < sizeof(samples) / sizeof(samples[0]); b++)
            for (c = 0; c < sizeof(purchases) / sizeof(purchases[0]); c++) {
                ecf_workload w = ECF_WORKLOAD_INIT;
                ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
                ecf_recommendation *r = NULL;
                ecf_err err = ECF_ERR_INIT;
                const ecf_model *m = model(f, models[a]);
                w.task = ECF_TASK_TRAIN;
                w.dataset_amount = samples[b];
                w.dataset_unit = ECF_DATASET_SAMPLES;
                w.epochs = 1;
                o.regions[o.n_regions++] = "us-east-1";
                o.stacks = f->stacks;
                o.purchase = purchases[c];
                if (ecf_workload_resolve(&w, m, &err) != 0)
                    fail_msg("%s: %s", models[a], err.msg);
                if (ecf_recommend_run(&r, f->cat, m, &w, &f->rules, &o,
                                      &err) != 0) {
                    ecf_recommendation_free(r);
                    continue; /* no Capacity Block holds any candidate */
                }
                n_runs++;
                for (i = 0; i < r->n_plans; i++) {
                    const ecf_plan *p = &r->plans[i];
                    ecf_ranges rg;
                    if (p->purchase_option != ECF_PURCHASE_CAPACITY_BLOCK)
                        continue;
                    ecf_ranges_for_plan(&rg, t, m, &r->workload, r->serving,
                                        p);
                    assert_true(p->cb_days > 0);
                    assert_true(rg.total_usd.set && rg.time_hours.set);
                    assert_true(p->storage_usd == 0); /* no storage prices */
                    if (!(rg.total_usd.low <= p->total_usd &&
                          p->total_usd <= rg.total_usd.high))
                        fail_msg("%s x%d: %.2f <= %.2f <= %.2f",
                                 p->inst->type, p->nodes, rg.total_usd.low,
                                 p->total_usd, rg.total_usd.high);
                    check_cb_bound(rg.total_usd.low, rg.time_hours.low, p,
                                   "low", false);
                    check_cb_bound(rg.total_usd.high, rg.time_hours.high, p,
                                   "high", rg.total_usd.high_past_block);
                    n_cb++;
                    n_rounded += rg.total_usd.high > p->total_usd * 1.000001 &&
                                 rg.total_usd.high != p->total_usd *
                                     rg.time_hours.high / p->time_hours;
                    n_past += rg.total_usd.high_past_block;
                }
                ecf_recommendation_free(r);
            }
    print_message("capacity-block ranges: %zu plans over %zu runs, %zu with "
                  "a longer high window, %zu past one block\n",
                  n_cb, n_runs, n_rounded, n_past);
    assert_true(n_cb >= 50);
    assert_true(n_rounded >= 10);
    assert_true(n_past >= 1);
}

static void test_ranges__every_estimate_brackets_its_figures(void **state)
{
    /* every zoo model x task on a GPU, a Neuron and a CPU type */
    static const char *const types[] = {"p4d.24xlarge", "g6e.12xlarge",
                                        "inf2.48xlarge", "trn1.32xlarge",
                                        "c7i.48xlarge"};
    static const ecf_task tasks[] = {ECF_TASK_TRAIN, ECF_TASK_LORA,
                                     ECF_TASK_INFER, ECF_TASK_BATCH};
    fx *f = *state;
    size_t i, ti, k, n = 0;

    for (i = 0; i < ecf_zoo_count(f->zoo); i++)
        for (ti = 0; ti < sizeof(types) / sizeof(types[0]); ti++)
            for (k = 0; k < sizeof(tasks) / sizeof(tasks[0]); k++) {
                const ecf_model *m = ecf_zoo_at(f->zoo, i);
                const ecf_instance *in = ecf_catalog_find(f->cat, types[ti]);
                ecf_workload w = ECF_WORKLOAD_INIT;
                ecf_estimate e;
                ecf_ranges rg;
                ecf_err err = ECF_ERR_INIT;
                if (!in)
                    continue;
                w.task = tasks[k];
                if (tasks[k] != ECF_TASK_INFER) {
                    w.dataset_amount = 1e5;
                    w.dataset_unit = ECF_DATASET_SAMPLES;
                }
                if (ecf_workload_resolve(&w, m, &err) != 0 ||
                    ecf_estimate_run_quiet(&e, m, &w, in, 1, &err) != 0 ||
                    !e.fits)
                    continue;
                ecf_ranges_for_estimate(&rg, ecf_ranges_embedded(), m, &w,
                                        in, &e, 10.0 * e.time_hours);
                assert_true(rg.throughput.set);
                assert_true(rg.memory_gib.set);
                if (tasks[k] == ECF_TASK_INFER)
                    assert_true(rg.latency_ms.set);
                else
                    assert_true(rg.time_hours.set && rg.total_usd.set);
                check_all(&rg, m->name);
                n++;
            }
    assert_true(n >= 100);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_ranges__class_of_a_workload),
        cmocka_unit_test(test_ranges__falls_back_to_coarser_classes),
        cmocka_unit_test(test_ranges__every_plan_brackets_its_figures),
        cmocka_unit_test(test_ranges__every_estimate_brackets_its_figures),
        cmocka_unit_test(test_ranges__capacity_block_bounds_are_whole_windows),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
