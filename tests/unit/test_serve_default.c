/* test_serve_default.c - the plan a user gets without expert flags (issue
 * 24, points 1 and 6): online LLM serving chooses its batch within the
 * default service level (TTFT 2000 ms, TPOT 200 ms: MLPerf Inference's
 * server scenario, docs/estimation.md 5.4) up to the engine's admission
 * limit, so leaving a target out never costs more; an offline job without
 * a deadline scales out at equal cost (docs/rules.md). The issue's own
 * commands, on the embedded catalog, through the library. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <string.h>

#include "ec2fit/recommend.h"

#include "embedded_fx.h"

static ecf_recommendation *run(fx *f, const char *model, ecf_workload *w,
                               int max_nodes)
{
    const ecf_model *m = ecf_zoo_find(f->zoo, model);
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    ecf_recommendation *r = NULL;
    ecf_err err = ECF_ERR_INIT;
    assert_non_null(m);
    o.regions[o.n_regions++] = "us-east-1";
    o.stacks = f->stacks;
    o.max_nodes = max_nodes;
    assert_int_equal(ecf_workload_resolve(w, m, &err), 0);
    if (ecf_recommend_run(&r, f->cat, m, w, &f->rules, &o, &err) != 0)
        fail_msg("%s", err.msg);
    assert_true(r->n_plans > 0);
    return r;
}

static double cheapest(const ecf_recommendation *r)
{
    double best = INFINITY;
    size_t i;
    for (i = 0; i < r->n_plans; i++)
        if (r->plans[i].monthly_usd > 0 && r->plans[i].monthly_usd < best)
            best = r->plans[i].monthly_usd;
    return best;
}

/* `recommend --model qwen3-30b-a3b --task infer --qps 20 --input-tokens
 * 2000 --output-tokens 500` with and without --tpot-ms 200: main gave
 * $83,171/month without the target and $12,703 with it. */
static void test_serve_default__qwen3_moe_no_target_no_dearer(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT, wt;
    ecf_recommendation *r;
    double none, tpot;
    w.task = ECF_TASK_INFER;
    w.qps = 20;
    w.input_tokens = 2000;
    w.output_tokens = 500;
    wt = w;
    wt.tpot_target_ms = 200;
    r = run(f, "qwen3-30b-a3b", &w, 0);
    none = cheapest(r);
    assert_true(r->plans[0].per_token_ms <= ECF_SERVE_SLO_TPOT_MS);
    assert_true(r->plans[0].ttft_ms <= ECF_SERVE_SLO_TTFT_MS);
    ecf_recommendation_free(r);
    r = run(f, "qwen3-30b-a3b", &wt, 0);
    tpot = cheapest(r);
    ecf_recommendation_free(r);
    assert_true(none <= tpot);
    assert_true(none < 20000); /* one 8-GPU node, not a p6-b200 */
}

/* mixtral-8x7b at 5 req/s, 1000 + 300 tokens: no more than with
 * --latency-ms 60000 (main: 8 inf2.48xlarge $47,761 against 1 $5,970) */
static void test_serve_default__mixtral_no_target_no_dearer(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT, wt;
    ecf_recommendation *r;
    double none, lat;
    w.task = ECF_TASK_INFER;
    w.qps = 5;
    w.input_tokens = 1000;
    w.output_tokens = 300;
    wt = w;
    wt.latency_target_ms = 60000;
    r = run(f, "mixtral-8x7b", &w, 0);
    none = cheapest(r);
    ecf_recommendation_free(r);
    r = run(f, "mixtral-8x7b", &wt, 0);
    lat = cheapest(r);
    ecf_recommendation_free(r);
    assert_true(none <= lat);
}

/* DeepSeek-V3 in FP8 at 2 req/s: one 8x H200 node (p5en.48xlarge) holds
 * it and serves the load within the default service level. */
static void test_serve_default__deepseek_v3_fp8_one_h200_node(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, "deepseek-v3");
    assert_non_null(m);
    w.task = ECF_TASK_INFER;
    w.precision = ECF_PREC_FP8;
    w.qps = 2;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), 0);
    assert_int_equal(ecf_estimate_run(&e, m, &w,
                                      fx_inst(f, "p5en.48xlarge"), 1, &err),
                     0);
    assert_true(e.fits);
    assert_int_equal(e.pp_degree, 1);
    assert_true(e.max_qps_per_replica * e.replicas >= 2);
    assert_true(e.per_token_ms <= ECF_SERVE_SLO_TPOT_MS);
    assert_true(e.ttft_ms <= ECF_SERVE_SLO_TTFT_MS);
}

/* --explain of llama-3.1-8b on g6e.xlarge: vLLM's admission limit (256)
 * sets the batch, not the knee; the service level is the default */
static void test_serve_default__explain_names_the_bound(void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_estimate e;
    ecf_err err = ECF_ERR_INIT;
    double ttft, tpot;
    const ecf_model *m = ecf_zoo_find(f->zoo, "llama-3.1-8b");
    assert_non_null(m);
    w.task = ECF_TASK_INFER;
    w.qps = 1;
    assert_int_equal(ecf_workload_resolve(&w, m, &err), 0);
    assert_int_equal(
        ecf_estimate_run(&e, m, &w, fx_inst(f, "g6e.xlarge"), 1, &err), 0);
    assert_int_equal(e.batch_size, 256);
    assert_int_equal(e.serve.limit, ECF_BATCH_LIMIT_CAP);
    assert_int_equal(e.serve.admit_limit, 256);
    assert_true(e.serve.slo_ttft_ms == 2000 && e.serve.slo_tpot_ms == 200);
    assert_true(ecf_estimate_service_level(&ttft, &tpot, m, &w));
    assert_true(ttft == 2000 && tpot == 200);
    /* a target tightens its bound; a looser one keeps the default's */
    w.tpot_target_ms = 50;
    w.ttft_target_ms = 5000;
    assert_true(ecf_estimate_service_level(&ttft, &tpot, m, &w));
    assert_true(ttft == 2000 && tpot == 50);
    /* with --tpot-ms 50 the target, not the default, stops the batch */
    assert_int_equal(
        ecf_estimate_run(&e, m, &w, fx_inst(f, "g6e.xlarge"), 1, &err), 0);
    assert_true(e.batch_size < 256 && e.per_token_ms <= 50);
    assert_int_equal(e.serve.limit, ECF_BATCH_LIMIT_TPOT);
    assert_false(e.serve.slo_default);
}

/* `recommend --model flux-1-dev --task batch --dataset 1M`: rank 1 scales
 * out (main: 1 g6e.xlarge for 282.5 days) and costs no more than 0.1%
 * over the same type on one node. */
static void test_serve_default__flux_batch_scales_out_at_equal_cost(
    void **state)
{
    fx *f = *state;
    ecf_workload w = ECF_WORKLOAD_INIT, w1;
    ecf_recommendation *r, *r1;
    const ecf_plan *p;
    size_t i;
    bool found = false;
    w.task = ECF_TASK_BATCH;
    w.dataset_amount = 1e6;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w1 = w;
    r = run(f, "flux-1-dev", &w, 0);
    r1 = run(f, "flux-1-dev", &w1, 1);
    p = &r->plans[0];
    assert_true(p->nodes > 1 && p->nodes <= 16);
    for (i = 0; i < r1->n_plans; i++) {
        const ecf_plan *q = &r1->plans[i];
        if (q->inst == p->inst && q->spot == p->spot) {
            found = true;
            assert_int_equal(q->nodes, 1);
            assert_true(p->time_hours < q->time_hours / 8);
            assert_true(p->total_usd <= q->total_usd * 1.001);
        }
    }
    assert_true(found);
    ecf_recommendation_free(r);
    ecf_recommendation_free(r1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_serve_default__qwen3_moe_no_target_no_dearer),
        cmocka_unit_test(test_serve_default__mixtral_no_target_no_dearer),
        cmocka_unit_test(test_serve_default__deepseek_v3_fp8_one_h200_node),
        cmocka_unit_test(test_serve_default__explain_names_the_bound),
        cmocka_unit_test(
            test_serve_default__flux_batch_scales_out_at_equal_cost),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
