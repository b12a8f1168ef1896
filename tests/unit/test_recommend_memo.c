/* test_recommend_memo.c - the scorer's estimate memo reuses an estimate
 * computed for other epochs by rescaling its time_hours
 * (ecf_rec_memo_rescale_epochs, recommend_memo.c). Its failure mode is
 * stale data: if the estimator grows another dependence on the epochs, or
 * changes how time_hours is formed, the memo would hand a batch line the
 * other epochs' figures. These tests compare it, bit for bit, with fresh
 * estimates on every catalog instance, and whole recommendations run
 * through one memo with ones run without it. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "ec2fit/recommend.h"
#include "recommend_internal.h"

#include "embedded_fx.h"

typedef struct {
    const char *model;
    ecf_task task;
    double amount;
    ecf_dataset_unit unit;
    int storage; /* ecf_storage; 0: auto */
} job;

/* Jobs across the estimator's paths: CNN training (decode-bound on some
 * instances; data-bound from one gp3 volume), a transformer fine-tune,
 * LLM adapters in tokens, batch inference over a dataset. */
static const job jobs[] = {
    {"resnet50", ECF_TASK_TRAIN, 1281167, ECF_DATASET_SAMPLES, 0},
    {"resnet50", ECF_TASK_TRAIN, 1281167, ECF_DATASET_SAMPLES,
     ECF_STORAGE_GP3},
    {"efficientnet_b0", ECF_TASK_TRAIN, 10e6, ECF_DATASET_SAMPLES, 0},
    {"bert-base", ECF_TASK_FINETUNE, 10e6, ECF_DATASET_SAMPLES, 0},
    {"llama-2-7b", ECF_TASK_LORA, 100e6, ECF_DATASET_TOKENS, 0},
    {"resnet50", ECF_TASK_BATCH, 10e6, ECF_DATASET_SAMPLES, 0},
};

static void workload(fx *f, const job *j, double epochs, ecf_workload *w,
                     const ecf_model **m)
{
    ecf_workload w0 = ECF_WORKLOAD_INIT;
    ecf_err err = ECF_ERR_INIT;
    *w = w0;
    w->task = j->task;
    w->dataset_amount = j->amount;
    w->dataset_unit = j->unit;
    w->epochs = epochs;
    w->storage = j->storage;
    *m = ecf_zoo_find(f->zoo, j->model);
    assert_non_null(*m);
    assert_int_equal(ecf_workload_resolve(w, *m, &err), 0);
}

/* Every instance at 1 and 2 nodes: an estimate for 1 epoch rescaled to 3
 * (and 90 to 0.5) is byte for byte the fresh one, or refused; both
 * happen. */
static void test_recommend_memo__rescale_is_the_estimators(void **state)
{
    fx *f = *state;
    static const double from_to[][2] = {{1, 3}, {90, 0.5}};
    size_t ji, i, k;
    int nodes, rescaled = 0, refused = 0;

    for (ji = 0; ji < sizeof(jobs) / sizeof(jobs[0]); ji++)
        for (k = 0; k < 2; k++) {
            ecf_workload wa, wb;
            const ecf_model *m;
            workload(f, &jobs[ji], from_to[k][0], &wa, &m);
            workload(f, &jobs[ji], from_to[k][1], &wb, &m);
            for (i = 0; i < ecf_catalog_count(f->cat); i++)
                for (nodes = 1; nodes <= 2; nodes++) {
                    const ecf_instance *inst = ecf_catalog_at(f->cat, i);
                    static ecf_estimate a, b;
                    if (ecf_estimate_run_quiet(&a, m, &wa, inst, nodes,
                                               NULL) != 0 ||
                        ecf_estimate_run_quiet(&b, m, &wb, inst, nodes,
                                               NULL) != 0)
                        continue;
                    if (!ecf_rec_memo_rescale_epochs(&a, &wb)) {
                        refused++;
                        continue;
                    }
                    rescaled++;
                    if (memcmp(&a, &b, offsetof(ecf_estimate, quiet)) != 0)
                        fail_msg("%s %s on %s x%d: rescaled estimate "
                                 "differs (time_hours %.17g, fresh %.17g)",
                                 jobs[ji].model,
                                 ecf_task_name(jobs[ji].task), inst->type,
                                 nodes, a.time_hours, b.time_hours);
                }
        }
    assert_true(rescaled > 1000);
    assert_true(refused > 0); /* the data- and decode-bound ones */
}

static void same_recommendation(const ecf_recommendation *got,
                                const ecf_recommendation *want,
                                const char *what)
{
    size_t i;
    assert_true(want->n_plans > 0);
    assert_int_equal(got->n_plans, want->n_plans);
    for (i = 0; i < want->n_plans; i++) {
        const ecf_plan *g = &got->plans[i], *x = &want->plans[i];
        assert_ptr_equal(g->inst, x->inst);
        assert_int_equal(g->spot, x->spot);
        assert_int_equal(g->nodes, x->nodes);
        if (g->time_hours != x->time_hours || g->total_usd != x->total_usd ||
            g->score != x->score)
            fail_msg("%s: plan %zu (%s) differs: %.17g h vs %.17g h", what,
                     i, x->inst->type, g->time_hours, x->time_hours);
    }
    assert_int_equal(got->n_rejected, want->n_rejected);
    for (i = 0; i < want->n_rejected; i++) {
        assert_ptr_equal(got->rejected[i].inst, want->rejected[i].inst);
        assert_int_equal(got->rejected[i].rule, want->rejected[i].rule);
        assert_int_equal(got->rejected[i].nodes, want->rejected[i].nodes);
        assert_true(got->rejected[i].miss_ratio ==
                    want->rejected[i].miss_ratio);
    }
}

/* The memo keeps each estimate's plan-free verdict (ecf_rec_memo_pf) and
 * skips the estimate when it fails; a run with another rule set or stack
 * table on the same memo (same model and workload) must decide afresh,
 * not reuse it. */
static void test_recommend_memo__plan_free_verdict_follows_rules(void **state)
{
    fx *f = *state;
    ecf_recommend_memo *memo = ecf_recommend_memo_new();
    ecf_rules other = f->rules;
    const ecf_rules *sets[3];
    const ecf_stacks *stacks[3];
    ecf_workload w;
    const ecf_model *m;
    int i;
    static const job lora = {"llama-2-7b", ECF_TASK_LORA, 100e6,
                             ECF_DATASET_TOKENS, 0};

    /* the accelerator and host-RAM checks off, the stack rule a penalty */
    other.rules[ECF_RULE_ACCEL_SUPPORT].enabled = false;
    other.rules[ECF_RULE_HOST_RAM].enabled = false;
    other.rules[ECF_RULE_STACK].kind = ECF_RULE_PENALTY;
    sets[0] = &f->rules, stacks[0] = f->stacks;
    sets[1] = &other, stacks[1] = f->stacks;
    sets[2] = &f->rules, stacks[2] = NULL;
    workload(f, &lora, 1, &w, &m);
    for (i = 0; i < 3; i++) {
        ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
        ecf_recommendation *warm = NULL, *got = NULL, *want = NULL;
        ecf_err err = ECF_ERR_INIT;
        o.regions[o.n_regions++] = "us-east-1";
        o.storage_prices = f->sp;
        /* warm the memo with the previous set (or this one, first) */
        o.stacks = stacks[i > 0 ? i - 1 : 0];
        assert_int_equal(ecf_recommend_run_memo(&warm, f->cat, m, &w,
                                                sets[i > 0 ? i - 1 : 0], &o,
                                                memo, &err),
                         0);
        o.stacks = stacks[i];
        assert_int_equal(ecf_recommend_run_memo(&got, f->cat, m, &w, sets[i],
                                                &o, memo, &err),
                         0);
        assert_int_equal(
            ecf_recommend_run(&want, f->cat, m, &w, sets[i], &o, &err), 0);
        same_recommendation(got, want, "rules/stacks changed");
        ecf_recommendation_free(warm);
        ecf_recommendation_free(got);
        ecf_recommendation_free(want);
    }
    ecf_recommend_memo_free(memo);
}

/* A recommendation through a memo warmed on other epochs is the one run
 * without a memo: every plan and rejection, in order, bit for bit. */
static void test_recommend_memo__warm_memo_same_plans(void **state)
{
    fx *f = *state;
    ecf_recommend_memo *memo = ecf_recommend_memo_new();
    size_t ji;

    for (ji = 0; ji < sizeof(jobs) / sizeof(jobs[0]); ji++) {
        ecf_workload w1, w3;
        const ecf_model *m;
        ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
        ecf_recommendation *warm = NULL, *got = NULL, *want = NULL;
        ecf_err err = ECF_ERR_INIT;

        o.regions[o.n_regions++] = "us-east-1";
        o.stacks = f->stacks;
        o.storage_prices = f->sp;
        workload(f, &jobs[ji], 1, &w1, &m);
        workload(f, &jobs[ji], 3, &w3, &m);
        assert_int_equal(ecf_recommend_run_memo(&warm, f->cat, m, &w1,
                                                &f->rules, &o, memo, &err),
                         0);
        assert_int_equal(ecf_recommend_run_memo(&got, f->cat, m, &w3,
                                                &f->rules, &o, memo, &err),
                         0);
        assert_int_equal(ecf_recommend_run(&want, f->cat, m, &w3, &f->rules,
                                           &o, &err),
                         0);
        same_recommendation(got, want, jobs[ji].model);
        ecf_recommendation_free(got);
        ecf_recommendation_free(want);
        got = want = NULL;
        /* back to 1 epoch: the memo rescales its entries where they are
         * kept, so they now hold 3 epochs' time and must come back */
        assert_int_equal(ecf_recommend_run_memo(&got, f->cat, m, &w1,
                                                &f->rules, &o, memo, &err),
                         0);
        assert_int_equal(ecf_recommend_run(&want, f->cat, m, &w1, &f->rules,
                                           &o, &err),
                         0);
        same_recommendation(got, want, jobs[ji].model);
        same_recommendation(warm, want, jobs[ji].model);
        ecf_recommendation_free(warm);
        ecf_recommendation_free(got);
        ecf_recommendation_free(want);
    }
    ecf_recommend_memo_free(memo);
}

/* Serving's fewest-node search (ecf_rec_memo_min_nodes) decides with full
 * estimates and keeps the last one it computed, so that consider() does
 * not compute it again. Its failure mode is stale data: an estimate kept
 * under another node count than its own. On every instance, the
 * estimate at the count the search stopped on (the fit, or the limit) is
 * kept (found before any estimate call), at one node and at several, and
 * every estimate the memo holds for the instance is the fresh one of its
 * node count, byte for byte. */
static void test_recommend_memo__min_nodes_keeps_its_estimate(void **state)
{
    fx *f = *state;
    static const char *const models[] = {"llama-2-7b", "llama-2-70b"};
    size_t mi, i;
    int kept_one = 0, kept_more = 0;

    for (mi = 0; mi < sizeof(models) / sizeof(models[0]); mi++) {
        ecf_workload w0 = ECF_WORKLOAD_INIT, w;
        ecf_err err = ECF_ERR_INIT;
        const ecf_model *m = ecf_zoo_find(f->zoo, models[mi]);
        ecf_recommend_memo *memo = ecf_recommend_memo_new();
        assert_non_null(m);
        w = w0;
        w.task = ECF_TASK_INFER;
        assert_int_equal(ecf_workload_resolve(&w, m, &err), 0);
        ecf_rec_memo_bind(memo, f->cat, m, &w);
        for (i = 0; i < ecf_catalog_count(f->cat); i++) {
            const ecf_instance *inst = ecf_catalog_at(f->cat, i);
            static ecf_estimate got, want;
            int fit = ecf_rec_memo_min_nodes(memo, m, &w, inst, i, 8);
            int n;
            assert_int_equal(fit, ecf_estimate_min_nodes(m, &w, inst, 8));
            if (ecf_rec_memo_pf(memo, i, fit > 0 ? fit : 8)) {
                if (fit == 1)
                    kept_one++;
                else
                    kept_more++;
            }
            for (n = 1; n <= 8; n++) {
                const ecf_estimate *kept;
                if (!ecf_rec_memo_pf(memo, i, n))
                    continue; /* not kept */
                kept = ecf_rec_memo_estimate(memo, &got, m, &w, inst, i, n,
                                             &err);
                assert_non_null(kept);
                assert_int_equal(
                    ecf_estimate_run_quiet(&want, m, &w, inst, n, NULL), 0);
                if (memcmp(kept, &want, offsetof(ecf_estimate, quiet)) != 0)
                    fail_msg("%s on %s x%d: kept estimate differs (fits "
                             "%d, throughput %.17g, fresh %d, %.17g)",
                             models[mi], inst->type, n, kept->fits,
                             kept->throughput, want.fits, want.throughput);
            }
        }
        ecf_recommend_memo_free(memo);
    }
    assert_true(kept_one > 10);
    assert_true(kept_more > 10);
}

/* The memo finds an entry by node count through a per-instance table up
 * to 64 nodes and through the instance's list past it; binding another
 * model or workload empties both (the table by a generation number, so
 * nothing is cleared). Its failure mode is a stale or lost entry: a hit
 * handing another workload's estimate, or a kept entry not found. At 1,
 * 2, 16, 64, 65 and 100 nodes on several instances, through three rounds
 * of binds that alternate two workloads: the first call after a bind
 * computes (it returns the caller's buffer), the second returns the kept
 * entry, byte for byte a fresh estimate of that workload and node count. */
static void test_recommend_memo__index_across_binds_and_nodes(void **state)
{
    fx *f = *state;
    static const int counts[] = {1, 2, 16, 64, 65, 100};
    ecf_recommend_memo *memo = ecf_recommend_memo_new();
    ecf_workload w[2];
    const ecf_model *m[2];
    size_t n_inst = ecf_catalog_count(f->cat), pick[3], round, k, c, p;

    workload(f, &jobs[0], 1, &w[0], &m[0]); /* resnet50 training */
    workload(f, &jobs[4], 1, &w[1], &m[1]); /* llama-2-7b LoRA */
    pick[0] = 0;
    pick[1] = n_inst / 2;
    pick[2] = n_inst - 1;
    for (round = 0; round < 6; round++) {
        k = round % 2;
        ecf_rec_memo_bind(memo, f->cat, m[k], &w[k]);
        for (p = 0; p < 3; p++) {
            const ecf_instance *inst = ecf_catalog_at(f->cat, pick[p]);
            for (c = 0; c < sizeof(counts) / sizeof(counts[0]); c++) {
                static ecf_estimate buf, want;
                ecf_err err = ECF_ERR_INIT;
                const ecf_estimate *first, *again;
                int n = counts[c];
                first = ecf_rec_memo_estimate(memo, &buf, m[k], &w[k], inst,
                                              pick[p], n, &err);
                assert_ptr_equal(first, &buf); /* computed, not found */
                again = ecf_rec_memo_estimate(memo, &buf, m[k], &w[k], inst,
                                              pick[p], n, &err);
                assert_non_null(again);
                if (again == &buf)
                    fail_msg("%s x%d, round %zu: the kept entry is not "
                             "found", inst->type, n, round);
                assert_int_equal(ecf_estimate_run_quiet(&want, m[k], &w[k],
                                                        inst, n, NULL),
                                 0);
                if (memcmp(again, &want, offsetof(ecf_estimate, quiet)) != 0)
                    fail_msg("%s x%d, round %zu: kept estimate differs "
                             "(throughput %.17g, fresh %.17g)",
                             inst->type, n, round, again->throughput,
                             want.throughput);
            }
        }
    }
    ecf_recommend_memo_free(memo);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_recommend_memo__rescale_is_the_estimators),
        cmocka_unit_test(test_recommend_memo__warm_memo_same_plans),
        cmocka_unit_test(test_recommend_memo__plan_free_verdict_follows_rules),
        cmocka_unit_test(test_recommend_memo__min_nodes_keeps_its_estimate),
        cmocka_unit_test(test_recommend_memo__index_across_binds_and_nodes),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
