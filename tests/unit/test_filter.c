/* test_filter.c - list filters and sort orders on the embedded catalog.
 * Expected sets come from data/sources (instance_extras.csv). */
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

/* Runs the filter + sort; returns a comma-joined list of types. */
static const char *run(const ecf_filter *f, ecf_sort sort, size_t *n_out)
{
    static char out[8192];
    size_t n = 0, i, total = ecf_catalog_count(cat);
    const ecf_instance **v = calloc(total, sizeof(*v));
    for (i = 0; i < total; i++)
        if (ecf_filter_match(f, ecf_catalog_at(cat, i)))
            v[n++] = ecf_catalog_at(cat, i);
    ecf_filter_sort(v, n, sort, f);
    out[0] = '\0';
    for (i = 0; i < n; i++) {
        if (i)
            strncat(out, ",", sizeof(out) - strlen(out) - 1);
        strncat(out, v[i]->type, sizeof(out) - strlen(out) - 1);
    }
    free(v);
    if (n_out)
        *n_out = n;
    return out;
}

static void test_filter__accelerator_names(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    (void)state;
    f.accelerator = "A100"; /* case-insensitive, prefix up to '-' */
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "p4d.24xlarge,p4de.24xlarge");
    f.accelerator = "h100";
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "p5.48xlarge,p5.4xlarge");
    f.accelerator = "trainium";
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "trn1.2xlarge,trn1.32xlarge,trn1n.32xlarge");
    f.accelerator = "inferentia2";
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "inf2.24xlarge,inf2.48xlarge,inf2.8xlarge,inf2.xlarge");
    assert_true(ecf_accel_name_known(cat, "l4"));
    assert_true(ecf_accel_name_known(cat, "neuron"));
    assert_false(ecf_accel_name_known(cat, "a10"));
}

static void test_filter__counts_and_memory(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    size_t n;
    (void)state;
    f.accelerator = "l40s";
    f.min_accelerators = 4;
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "g6e.12xlarge,g6e.24xlarge,g6e.48xlarge");
    f = (ecf_filter)ECF_FILTER_INIT;
    /* per device >= 100 GiB: H200 (141), B200 (179.06), B300 (268.6) */
    f.min_accel_memory_gib = 100;
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "p5e.48xlarge,p5en.48xlarge,p6-b200.48xlarge,"
                        "p6-b300.48xlarge");
    f = (ecf_filter)ECF_FILTER_INIT;
    /* 8x141 = 1128, 8x179 = 1432.5, trn2: 16x96 = 1536, B300 8x268.6 */
    f.min_total_accel_memory_gib = 1100;
    assert_string_equal(run(&f, ECF_SORT_ACCEL_MEMORY, &n),
                        "p6-b300.48xlarge,trn2.48xlarge,p6-b200.48xlarge,"
                        "p5e.48xlarge,p5en.48xlarge");
}

static void test_filter__host_efa_arch_family(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    const char *fams[] = {"g5g", NULL};
    size_t n;
    (void)state;
    f.efa = true;
    f.accelerator = "gpu";
    f.min_vcpus = 192;
    f.min_memory_gib = 2048; /* g6e.48xlarge has 1536 GiB: excluded */
    assert_string_equal(run(&f, ECF_SORT_NAME, NULL),
                        "g7e.48xlarge,p5.48xlarge,p5e.48xlarge,"
                        "p5en.48xlarge,p6-b200.48xlarge,p6-b300.48xlarge");
    f = (ecf_filter)ECF_FILTER_INIT;
    f.families = fams;
    f.arch = ECF_ARCH_ARM64;
    run(&f, ECF_SORT_NAME, &n);
    assert_int_equal(n, 6); /* g5g.{xlarge,2x,4x,8x,16x,metal} */
    f.arch = ECF_ARCH_X86_64;
    run(&f, ECF_SORT_NAME, &n);
    assert_int_equal(n, 0);
}

static void test_filter__price_and_sorts(void **state)
{
    ecf_filter f = ECF_FILTER_INIT;
    (void)state;
    /* us-east-1 on-demand (ec2_ondemand_us-east-1.csv): g5g.xlarge 0.42,
     * g4dn.xlarge 0.526, g5g.2xlarge 0.556, g4dn.2xlarge 0.752, g6.xlarge
     * 0.8048; g5.xlarge 1.006 is over the limit */
    f.accelerator = "gpu";
    f.max_price_usd = 0.81;
    f.min_accel_memory_gib = 15;
    assert_string_equal(run(&f, ECF_SORT_PRICE, NULL),
                        "g5g.xlarge,g4dn.xlarge,g5g.2xlarge,g4dn.2xlarge,"
                        "g6.xlarge");
    /* spot: the same filter on estimated spot prices admits more types */
    f.spot = true;
    {
        size_t n_spot;
        run(&f, ECF_SORT_PRICE, &n_spot);
        assert_true(n_spot > 4);
    }
    /* price per accelerator: p5.48xlarge 55.04/8 = 6.88 = p5.4xlarge 6.88/1,
     * tie broken by name */
    f = (ecf_filter)ECF_FILTER_INIT;
    f.accelerator = "h100";
    assert_string_equal(run(&f, ECF_SORT_PRICE_PER_ACCEL, NULL),
                        "p5.48xlarge,p5.4xlarge");
    assert_string_equal(run(&f, ECF_SORT_VCPUS, NULL),
                        "p5.48xlarge,p5.4xlarge");
    /* unpriced types sort last */
    f.accelerator = "h200";
    assert_string_equal(run(&f, ECF_SORT_PRICE, NULL),
                        "p5en.48xlarge,p5e.48xlarge");
    assert_int_equal(ecf_sort_parse("price-per-accel"),
                     ECF_SORT_PRICE_PER_ACCEL);
    assert_int_equal(ecf_sort_parse("cost"), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_filter__accelerator_names),
        cmocka_unit_test(test_filter__counts_and_memory),
        cmocka_unit_test(test_filter__host_efa_arch_family),
        cmocka_unit_test(test_filter__price_and_sorts),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}
