/* test_filter_ranges.c - the filters and sorts `list` gained for users of
 * amazon-ec2-instance-selector and spotinfo: family globs, upper bounds,
 * per-region rows, --order, interruption and savings keys. Counts are the
 * embedded catalog's (data/catalog.json, as of 2026-07-20). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdlib.h>
#include <string.h>

#include "ec2fit/filter.h"

static ecf_catalog *cat;

static int setup(void **state)
{
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    return ecf_catalog_load_buffer(&cat, data, len, "embedded", &err);
}

static int teardown(void **state)
{
    (void)state;
    ecf_catalog_free(cat);
    return 0;
}

static size_t count(const ecf_filter *f)
{
    size_t i, n = 0;
    for (i = 0; i < ecf_catalog_count(cat); i++)
        n += ecf_filter_match(f, ecf_catalog_at(cat, i));
    return n;
}

static void test_filter_ranges__globs(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    const char *g6[] = {"g6*", NULL}, *g6x[] = {"G6E", NULL},
               *p45[] = {"p[45]*", NULL}, *three[] = {"g6", "g6e", "g6f", NULL};
    size_t n;
    (void)state;
    assert_true(ecf_family_matches("g6*", "g6e"));
    assert_true(ecf_family_matches("G6?", "g6f"));
    assert_false(ecf_family_matches("g6", "g6e")); /* no glob: exact */
    f.families = g6;
    n = count(&f);
    assert_int_equal(n, 20); /* g6 8, g6e 8, g6f 4 */
    f.families = three;
    assert_int_equal(count(&f), n);
    f.families = g6x;
    assert_int_equal(count(&f), 8);
    f.families = p45;
    assert_int_equal(count(&f), 6); /* p4d, p4de, p5 x2, p5e, p5en */
}

static void test_filter_ranges__upper_bounds(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    (void)state;
    f.accelerator = "h100";
    f.min_accelerators = 8;
    f.max_accelerators = 8;
    assert_int_equal(count(&f), 1); /* p5.48xlarge */
    f.max_accelerators = 1;
    f.min_accelerators = 0;
    assert_int_equal(count(&f), 1); /* p5.4xlarge */
    f = (ecf_filter)ECF_FILTER_INIT;
    f.accelerator = "a10g";     /* 22.4 GiB per device as EC2 reports it */
    f.max_accel_memory_gib = 22;
    assert_int_equal(count(&f), 0);
    f.max_accel_memory_gib = 23;
    assert_int_equal(count(&f), 8);
    f = (ecf_filter)ECF_FILTER_INIT;
    f.max_accel_memory_gib = 1000; /* a bound on devices excludes CPU types */
    f.accelerator = NULL;
    f.max_vcpus = 2;
    f.max_memory_gib = 4;
    {
        size_t i;
        for (i = 0; i < ecf_catalog_count(cat); i++) {
            const ecf_instance *in = ecf_catalog_at(cat, i);
            if (ecf_filter_match(&f, in)) {
                assert_non_null(in->accel);
                assert_true(in->vcpu <= 2 && in->memory_gib <= 4);
            }
        }
    }
}

static void test_filter_ranges__sorts(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    ecf_filter_row rows[64];
    size_t i, n = 0, k;
    (void)state;
    /* every (a10g type, region) row */
    for (i = 0; i < ecf_catalog_count(cat) && n < 64; i++) {
        const ecf_instance *in = ecf_catalog_at(cat, i);
        if (!in->accel || strcmp(in->accel->id, "a10g") != 0)
            continue;
        for (k = 0; k < in->n_prices && n < 64; k++) {
            rows[n].in = in;
            rows[n++].region = in->prices[k].region;
        }
    }
    assert_true(n > 8);
    ecf_filter_sort_rows(rows, n, ECF_SORT_SAVINGS, true, &f);
    for (i = 1; i < n; i++) {
        const ecf_price *a = ecf_instance_price(rows[i - 1].in, rows[i - 1].region);
        const ecf_price *b = ecf_instance_price(rows[i].in, rows[i].region);
        if (b->spot_usd_per_hour >= 0) {
            assert_true(a->spot_usd_per_hour >= 0); /* unknown sorts last */
            assert_true(a->spot_savings_pct >= b->spot_savings_pct);
        }
    }
    ecf_filter_sort_rows(rows, n, ECF_SORT_INTERRUPTION, false, &f);
    for (i = 1; i < n; i++) {
        int a = ecf_instance_price(rows[i - 1].in, rows[i - 1].region)->interruption_band;
        int b = ecf_instance_price(rows[i].in, rows[i].region)->interruption_band;
        if (b >= 0)
            assert_true(a >= 0 && a <= b);
    }
    ecf_filter_sort_rows(rows, n, ECF_SORT_NAME, true, &f);
    for (i = 1; i < n; i++)
        assert_true(strcmp(rows[i - 1].in->type, rows[i].in->type) >= 0);
    assert_true(ecf_sort_default_desc(ECF_SORT_SAVINGS));
    assert_false(ecf_sort_default_desc(ECF_SORT_INTERRUPTION));
    assert_int_equal(ecf_sort_parse("interruption"), ECF_SORT_INTERRUPTION);
    assert_int_equal(ecf_sort_parse("savings"), ECF_SORT_SAVINGS);
    assert_int_equal(ecf_sort_parse("memory"), ECF_SORT_MEMORY);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter_ranges__globs),
        cmocka_unit_test(test_filter_ranges__upper_bounds),
        cmocka_unit_test(test_filter_ranges__sorts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
