/*
 * test_render_json_text.c - a --batch line's text (ecf_render_json_text,
 * written without a tree) against ecf_json_print of the --output json
 * tree (ecf_render_json_tree) for a training job with spot over two
 * regions and --explain, a serving fleet and a job with no plan; and the
 * same text again with the batch memo's warnings kept (a miss, then hits).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/ec2fit.h"
#include "ec2fit/json_write.h"
#include "render_common.h"

typedef struct {
    ecf_catalog *cat;
    ecf_zoo *zoo;
    ecf_stacks *stacks;
    ecf_rules rules;
    ecf_images images;
} fx;

static int setup(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    fx *f = calloc(1, sizeof(*f));
    if (!f || ecf_catalog_load_embedded(&f->cat, &err) != 0 ||
        ecf_zoo_embedded(&f->zoo, &err) != 0 ||
        ecf_rules_embedded(&f->rules, &err) != 0 ||
        ecf_stacks_embedded(&f->stacks, &err) != 0 ||
        ecf_images_embedded(&f->images, &err) != 0)
        return -1;
    *state = f;
    return 0;
}

static int teardown(void **state)
{
    fx *f = *state;
    ecf_stacks_free(f->stacks);
    ecf_zoo_free(f->zoo);
    ecf_catalog_free(f->cat);
    free(f);
    return 0;
}

/* Runs the recommendation; the text must equal the tree's, with and
 * without the memo; returns the text (the caller's). */
static char *both(fx *f, const char *model, ecf_workload *w,
                  ecf_recommend_opts *o, bool explain)
{
    ecf_err err = ECF_ERR_INIT;
    const ecf_model *m = ecf_zoo_find(f->zoo, model);
    ecf_recommendation *rec = NULL;
    ecf_recommend_memo *memo = ecf_recommend_memo_new();
    ecf_result r;
    cJSON *tree;
    char *want, *got;
    int i;

    assert_non_null(m);
    assert_int_equal(ecf_workload_resolve(w, m, &err), 0);
    o->stacks = f->stacks;
    assert_true(ecf_recommend_run(&rec, f->cat, m, w, &f->rules, o, &err) >=
                0);
    assert_non_null(rec);
    if (explain)
        ecf_recommend_sort_rejected(rec);
    memset(&r, 0, sizeof(r));
    r.cat = f->cat;
    r.catalog_label = "embedded";
    r.model = m;
    r.w = w;
    r.opts = o;
    r.rules = &f->rules;
    r.rec = rec;
    r.top = 5;
    r.explain = explain;
    r.images = &f->images;
    ecf_render_light_alternatives(&r);
    tree = ecf_render_json_tree(&r);
    want = ecf_json_print(tree);
    cJSON_Delete(tree);
    assert_non_null(want);
    got = ecf_render_json_text(&r);
    assert_string_equal(got, want);
    free(got);
    r.memo = memo; /* first the memo misses, then it hits */
    for (i = 0; i < 2; i++) {
        got = ecf_render_json_text(&r);
        assert_string_equal(got, want);
        free(got);
    }
    ecf_recommend_memo_free(memo);
    ecf_recommendation_free(rec);
    return want;
}

/* JSON's rounded money is the number the table prints with "%.2f": over
 * every thousandth from 0 to 200 (ties such as 52.925, whose double lies
 * below the half, and true binary ties such as 0.125), and for 0 to 4
 * decimals, ecf_render_json_round(v) == strtod(printf("%.*f", v)). */
static void test_round_as_printf(void **state)
{
    (void)state;
    int bad = 0;
    for (int d = 0; d <= 4; d++) {
        for (long k = 0; k <= 200000; k++) {
            double v = (double)k / 1000.0;
            char buf[64];
            snprintf(buf, sizeof(buf), "%.*f", d, v);
            if (ecf_render_json_round(v, d) != strtod(buf, NULL) ||
                ecf_render_json_round(-v, d) != -strtod(buf, NULL))
                bad++;
        }
    }
    assert_int_equal(bad, 0);
    assert_true(ecf_render_json_round(52.925, 2) == 52.92);
    assert_true(ecf_render_json_round(0.125, 2) == 0.12);
    assert_true(ecf_render_json_round(0.375, 2) == 0.38);
}

static void test_train_spot_explain(void **state)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    char *s;
    w.task = ECF_TASK_TRAIN;
    o.spot = ECF_SPOT_YES;
    o.regions[o.n_regions++] = "us-east-1";
    o.regions[o.n_regions++] = "us-west-2";
    s = both(*state, "resnet50", &w, &o, true);
    assert_non_null(strstr(s, "{\"schema_version\":2,\"catalog\":{\"source\""
                              ":\"embedded\","));
    assert_non_null(strstr(s, "\"purchase\":\"spot\""));
    assert_non_null(strstr(s, "\"capacity_caveat\":"));
    assert_non_null(strstr(s, "\"plans_tried\":["));
    assert_non_null(strstr(s, ",\"rejected\":[{\"instance_type\":"));
    free(s);
}

static void test_serving_fleet(void **state)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    char *s;
    w.task = ECF_TASK_INFER;
    w.qps = 50;
    o.regions[o.n_regions++] = "us-east-1";
    s = both(*state, "llama-3.1-8b", &w, &o, false);
    assert_non_null(strstr(s, "\"purchase_options\":{\"on-demand\":{"));
    assert_non_null(strstr(s, "\"autoscaling\":{\"min_instances\":"));
    assert_non_null(strstr(s, "\"alternatives\":["));
    free(s);
}

static void test_no_plan(void **state)
{
    ecf_workload w = ECF_WORKLOAD_INIT;
    ecf_recommend_opts o = ECF_RECOMMEND_OPTS_INIT;
    char *s;
    w.task = ECF_TASK_TRAIN;
    w.dataset_amount = 1.28e6;
    w.dataset_unit = ECF_DATASET_SAMPLES;
    w.epochs = 90;
    o.budget_usd = 0.01;
    o.regions[o.n_regions++] = "us-east-1";
    s = both(*state, "resnet50", &w, &o, false);
    assert_non_null(strstr(s, "\"recommendations\":[],"));
    assert_non_null(strstr(s, "\"closest_misses\":[{\"instance_type\":"));
    free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_as_printf),
        cmocka_unit_test(test_train_spot_explain),
        cmocka_unit_test(test_serving_fleet),
        cmocka_unit_test(test_no_plan),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
