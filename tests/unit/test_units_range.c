/*
 * test_units_range.c - memory sizes and ranges for `list` (src/units_range.c):
 * exact GiB values of each unit, the range forms of amazon-ec2-instance-
 * selector, and the exact messages for bad input.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/units.h"

static void gib(const char *s, double want)
{
    double v = -1;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_units_parse_gib(&v, "--min-memory", s, &err) != 0)
        fail_msg("'%s' rejected: %s", s, err.msg);
    assert_float_equal(v, want, 1e-9);
}

static void test_units_range__gib(void **state)
{
    (void)state;
    gib("16", 16);
    gib("40GiB", 40);
    gib("40gib", 40);
    gib("1.5TiB", 1536);
    gib("512MiB", 0.5);
    /* SI units: 16 GB = 16e9 bytes = 14.9012 GiB */
    gib("16gb", 16e9 / 1073741824.0);
    gib("16GB", 16e9 / 1073741824.0);
    gib("1tb", 1e12 / 1073741824.0);
    gib("0", 0);
}

static void gib_rejected(const char *s)
{
    double v = 7;
    ecf_err err = ECF_ERR_INIT;
    char want[256];
    assert_int_equal(ecf_units_parse_gib(&v, "--min-memory", s, &err),
                     ECF_EINVAL);
    snprintf(want, sizeof(want),
             "--min-memory: expected a memory size like 16, 16GiB, 16gb or "
             "1.5TiB (no unit = GiB), got '%s'", s);
    assert_string_equal(err.msg, want);
    assert_true(v == 7);
}

static void test_units_range__gib_rejected(void **state)
{
    (void)state;
    gib_rejected("16g");   /* G alone: GiB or GB? refused */
    gib_rejected("16 GiB");
    gib_rejected("-16");
    gib_rejected("GiB");
    gib_rejected("1e3");
    gib_rejected("");
}

static void range(const char *s, bool g, double lo, double hi)
{
    ecf_range r = {-5, -5};
    ecf_err err = ECF_ERR_INIT;
    if (ecf_units_parse_range(&r, g, "--vcpus", s, &err) != 0)
        fail_msg("'%s' rejected: %s", s, err.msg);
    assert_float_equal(r.lo, lo, 1e-9);
    assert_float_equal(r.hi, hi, 1e-9);
}

static void test_units_range__ranges(void **state)
{
    (void)state;
    range("8", false, 8, 8);
    range("8-32", false, 8, 32);
    range("8-", false, 8, -1);
    range("-32", false, 0, 32);
    range("0", false, 0, 0);
    range("16-64GiB", true, 16, 64);       /* the unit covers both bounds */
    range("16gb-1tb", true, 16e9 / 1073741824.0, 1e12 / 1073741824.0);
    range("1TiB-", true, 1024, -1);
    range("-512", true, 0, 512);
}

static void range_rejected(const char *s, bool g, const char *want)
{
    ecf_range r = {-5, -5};
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_units_parse_range(&r, g, "--vcpus", s, &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, want);
    assert_true(r.lo == -5);
}

static void test_units_range__rejected(void **state)
{
    (void)state;
    const char *bad[] = {"", "-", "8-32-64", "8.5", "eight", "8 - 32", "8x"};
    char want[256];
    size_t i;
    for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
        snprintf(want, sizeof(want),
                 "--vcpus: expected a whole number or a range like 8, "
                 "8-32, 8- or -32, got '%s'", bad[i]);
        range_rejected(bad[i], false, want);
    }
    range_rejected("32-8", false,
                   "--vcpus: the lower bound of '32-8' is above the upper one");
    range_rejected("16g-32g", true,
                   "--vcpus: expected a size or a range like 16GiB, 16-64GiB, "
                   "16gb- or -64 (no unit = GiB), got '16g-32g'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_range__gib),
        cmocka_unit_test(test_units_range__gib_rejected),
        cmocka_unit_test(test_units_range__ranges),
        cmocka_unit_test(test_units_range__rejected),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
