/*
 * test_calibration.c - every applicable row of the published calibration
 * set (copied with sources into tests/fixtures/calibration.json) through
 * the estimator, with honest tolerances: rows marked "use" must land within
 * their tolerance (memory 15%, throughput/latency/time 35%, exact model
 * facts 0.01%); "outlier" and "skip" rows carry a reason; and no kind's
 * median absolute error may regress by more than 2 points over
 * tests/fixtures/calibration_baseline.json (the gate, docs/calibration.md).
 *
 * `test_calibration --report` prints the full table instead (the same code
 * as tools/calib_report.c, which this file includes).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#define CALIB_NO_MAIN
#include "../../tools/calib_report.c"

#define FIXTURE ECF_FIXTURES "/calibration.json"
#define BASELINE ECF_FIXTURES "/calibration_baseline.json"

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

static void test_calibration__every_row_has_source_and_conditions(void **state)
{
    /* At least 200 sourced rows (issue 14); every row names its source
     * group, every measurement its engine and its conditions in words;
     * rows not asserted say why. */
    const calib_set *set = *state;
    const cJSON *row = NULL;
    size_t i = 0, used = 0;

    assert_true(set->n >= 200);
    assert_true(set->n < CALIB_MAX_ROWS); /* none silently dropped */
    cJSON_ArrayForEach (row, cJSON_GetObjectItemCaseSensitive(set->root,
                                                              "rows")) {
        const calib_row *r = &set->rows[i++];
        const char *src = jstr(row, "source");
        if (!src || strlen(src) < 15)
            fail_msg("%s: no source", r->id);
        if (!r->group[0])
            fail_msg("%s: no source_group", r->id);
        if (strcmp(r->kind, "model_fact") != 0) {
            const char *cond = jstr(row, "conditions");
            if (!r->engine[0])
                fail_msg("%s: no engine", r->id);
            if (!cond || strlen(cond) < 20)
                fail_msg("%s: no conditions", r->id);
        }
        if (r->status != CALIB_USE) {
            if (!r->reason || strlen(r->reason) < 20)
                fail_msg("%s: skipped/outlier without a reason", r->id);
        } else {
            used++;
        }
    }
    assert_int_equal(i, set->n);
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

static void test_calibration__no_kind_regresses_past_the_baseline(void **state)
{
    /* The gate: each kind's median |error| (evaluated rows, and asserted
     * rows) stays within 2 points of the committed baseline, and no fewer
     * rows evaluate. A change that improves the set regenerates the
     * baseline in the same commit (docs/calibration.md). */
    const calib_set *set = *state;
    int bad = calib_check_baseline(set, BASELINE, stderr);
    assert_int_equal(bad, 0);
}

static void test_calibration__baseline_round_trips_and_catches_a_drift(
    void **state)
{
    /* The writer and the checker agree with each other, and the checker
     * does fail: a baseline 3 points better than today must be refused. */
    calib_set *set = *state;
    char path[] = "/tmp/ecf_calib_baseline_XXXXXX";
    int fd = mkstemp(path);
    size_t i;

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(calib_write_baseline(set, path), 0);
    assert_int_equal(calib_check_baseline(set, path, stderr), 0);
    /* Make every evaluated memory row 3 points worse than the baseline
     * just written: the median |error| rises by exactly 3 points. */
    for (i = 0; i < set->n; i++)
        if (set->rows[i].ok && strcmp(set->rows[i].kind, "memory") == 0)
            set->rows[i].err_pct += set->rows[i].err_pct >= 0 ? 3.0 : -3.0;
    assert_int_equal(calib_check_baseline(set, path, stderr), 1);
    for (i = 0; i < set->n; i++)
        if (set->rows[i].ok && strcmp(set->rows[i].kind, "memory") == 0)
            set->rows[i].err_pct -= set->rows[i].err_pct >= 0 ? 3.0 : -3.0;
    assert_int_equal(calib_check_baseline(set, path, stderr), 0);
    unlink(path);
    /* A missing baseline is an error, not a pass. */
    assert_int_equal(calib_check_baseline(set, "/nonexistent/b.json", stderr),
                     -1);
}

static void test_calibration__ranges_cover_80pct_of_each_kind(void **state)
{
    /* docs/estimation.md "Ranges": leave-one-out coverage >= 80% per
     * kind (in-sample for kinds under 20 rows); the report's gate. */
    calib_set *set = *state;
    FILE *f = fopen("/dev/null", "w");

    assert_non_null(f);
    assert_int_equal(calib_print_ranges(set, f), 0);
    fclose(f);
}

static void test_calibration__embedded_ranges_are_todays(void **state)
{
    /* The table compiled into the library is what the rows give today
     * (with the packed catalog the binary loads, not the JSON one the
     * build-time generator reads): byte for byte. */
    calib_set *set = *state;
    char path[] = "/tmp/ecf_calib_ranges_XXXXXX";
    ecf_buf a = ECF_BUF_INIT, b = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    const ecf_range_table *t = ecf_ranges_embedded();
    int fd = mkstemp(path);
    size_t i;
    int k;

    assert_true(fd >= 0);
    close(fd);
    assert_int_equal(calib_write_ranges(set, path), 0);
    assert_int_equal(ecf_buf_read_file(&a, path, 1u << 20, &err), 0);
    assert_int_equal(ecf_buf_read_file(&b, ECF_RANGES_SRC, 1u << 20, &err),
                     0);
    assert_int_equal(a.len, b.len);
    assert_memory_equal(a.data, b.data, a.len);
    ecf_buf_dispose(&a);
    ecf_buf_dispose(&b);
    unlink(path);
    /* every kind has its whole-kind fallback; factors bracket 1 */
    assert_int_equal(t->min_rows, RANGE_MIN_ROWS);
    for (k = 0; k < ECF_RANGE_KIND_COUNT; k++) {
        ecf_range_key none = {"?", "?", "?", "?"};
        const ecf_range_class *c =
            ecf_range_lookup(t, (ecf_range_kind)k, &none);
        assert_non_null(c);
        assert_int_equal(c->level, ECF_RANGE_LEVEL_KIND);
        assert_true(c->rows >= 18);
    }
    for (i = 0; i < t->n; i++) {
        assert_true(t->classes[i].low <= 1 && t->classes[i].low > 0);
        assert_true(t->classes[i].high >= 1);
        assert_true(t->classes[i].rows >= RANGE_MIN_ROWS);
    }
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_calibration__every_row_has_source_and_conditions),
        cmocka_unit_test(test_calibration__asserted_rows_within_tolerance),
        cmocka_unit_test(test_calibration__outliers_still_evaluate),
        cmocka_unit_test(test_calibration__no_kind_regresses_past_the_baseline),
        cmocka_unit_test(
            test_calibration__baseline_round_trips_and_catches_a_drift),
        cmocka_unit_test(test_calibration__ranges_cover_80pct_of_each_kind),
        cmocka_unit_test(test_calibration__embedded_ranges_are_todays),
    };
    if (argc > 1 && strcmp(argv[1], "--report") == 0) {
        calib_set *set = ecf_xcalloc(1, sizeof(*set));
        int rc = calib_load(set, argc > 2 ? argv[2] : FIXTURE);
        if (rc == 0) {
            calib_print(set, stdout);
            calib_print_ranges(set, stdout);
        }
        calib_free(set);
        free(set);
        return rc == 0 ? 0 : 1;
    }
    return cmocka_run_group_tests(tests, setup, teardown);
}
