/*
 * test_calibration.c - every applicable row of the published calibration
 * set (copied with sources into tests/fixtures/calibration.json) through
 * the estimator, with honest tolerances: rows marked "use" must land within
 * their tolerance (memory 15%, throughput/latency/time 35%, exact model
 * facts 0.01%); "outlier" rows carry a reason and are only reported; the
 * median absolute error per kind is bounded as well.
 *
 * `test_calibration --report` prints the full table instead (the same code
 * as tools/calib_report.c, which this file includes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define CALIB_NO_MAIN
#include "../../tools/calib_report.c"

#define FIXTURE ECF_FIXTURES "/calibration.json"

static int setup(void **state)
{
    calib_set *set = ecf_xcalloc(1, sizeof(*set));
    if (calib_load(set, FIXTURE) < 0) {
        free(set);
        return -1;
    }
    *state = set;
    return 0;
}

static int teardown(void **state)
{
    calib_free(*state);
    free(*state);
    return 0;
}

static void test_calibration__every_published_row_is_accounted_for(void **state)
{
    const calib_set *set = *state;
    size_t i, used = 0;

    /* published-calibration.json has 116 records; none may be dropped. */
    assert_int_equal(set->n, 116);
    for (i = 0; i < set->n; i++) {
        const calib_row *r = &set->rows[i];
        if (r->status != CALIB_USE) {
            if (!r->reason || strlen(r->reason) < 20)
                fail_msg("%s: skipped/outlier without a reason", r->id);
        } else {
            used++;
        }
    }
    assert_true(used >= 60);
}

static void test_calibration__asserted_rows_within_tolerance(void **state)
{
    const calib_set *set = *state;
    size_t i, bad = 0;

    for (i = 0; i < set->n; i++) {
        const calib_row *r = &set->rows[i];
        if (r->status != CALIB_USE)
            continue;
        if (!r->ok) {
            print_error("%s: %s\n", r->id, r->msg);
            bad++;
        } else if (fabs(r->err_pct) > r->tol_pct) {
            print_error("%s: published %.4g, estimate %.4g (%+.1f%%, "
                        "tolerance %.0f%%)\n",
                        r->id, r->expect, r->predicted, r->err_pct, r->tol_pct);
            bad++;
        }
    }
    assert_int_equal(bad, 0);
}

static void test_calibration__outliers_still_evaluate(void **state)
{
    /* An outlier is excused from the tolerance, not from running. */
    const calib_set *set = *state;
    size_t i;
    for (i = 0; i < set->n; i++)
        if (set->rows[i].status == CALIB_OUTLIER && !set->rows[i].ok)
            fail_msg("%s: %s", set->rows[i].id, set->rows[i].msg);
}

static void test_calibration__median_error_per_kind(void **state)
{
    /* Bounds on the median absolute error of the asserted rows, and of all
     * evaluated rows including outliers (so outliers cannot hide a drift
     * of the whole model). */
    static const struct {
        const char *kind;
        double asserted, all;
    } bounds[] = {
        /* kind               asserted  with outliers */
        {"model_fact", 1.0, 1.0},
        {"memory", 10.0, 60.0}, /* 2 of 4 rows are TF 1.11 outliers */
        {"train_throughput", 20.0, 25.0},
        {"time_to_train", 30.0, 40.0},
        {"infer_throughput", 15.0, 20.0},
        {"infer_latency", 20.0, 25.0},
    };
    const calib_set *set = *state;
    size_t k;

    for (k = 0; k < sizeof(bounds) / sizeof(bounds[0]); k++) {
        size_t n = 0;
        double med = calib_median(set, bounds[k].kind, false, &n);
        double all = calib_median(set, bounds[k].kind, true, NULL);
        if (n == 0)
            fail_msg("%s: no asserted rows", bounds[k].kind);
        if (med > bounds[k].asserted || all > bounds[k].all)
            fail_msg("%s: median error %.1f%% (bound %.0f%%), with outliers "
                     "%.1f%% (bound %.0f%%)",
                     bounds[k].kind, med, bounds[k].asserted, all,
                     bounds[k].all);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(
            test_calibration__every_published_row_is_accounted_for),
        cmocka_unit_test(test_calibration__asserted_rows_within_tolerance),
        cmocka_unit_test(test_calibration__outliers_still_evaluate),
        cmocka_unit_test(test_calibration__median_error_per_kind),
    };
    if (argc > 1 && strcmp(argv[1], "--report") == 0) {
        calib_set *set = ecf_xcalloc(1, sizeof(*set));
        int rc = calib_load(set, argc > 2 ? argv[2] : FIXTURE);
        if (rc == 0)
            calib_print(set, stdout);
        calib_free(set);
        free(set);
        return rc == 0 ? 0 : 1;
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
