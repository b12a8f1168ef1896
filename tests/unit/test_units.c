/*
 * test_units.c - the strict unit grammar of ec2fit/units.h: accepted
 * spellings with their exact values, and rejected ones with the exact
 * one-line message naming the flag.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/units.h"

static void check_count(const char *s, double want)
{
    double v = -1;
    ecf_err err = ECF_ERR_INIT;
    if (ecf_units_parse_count(&v, "--params", s, &err) != 0)
        fail_msg("'%s' rejected: %s", s, err.msg);
    assert_float_equal(v, want, want * 1e-12);
}

static void check_count_rejected(const char *s)
{
    double v = 42;
    ecf_err err = ECF_ERR_INIT;
    char want[256];
    assert_int_equal(ecf_units_parse_count(&v, "--params", s, &err),
                     ECF_EINVAL);
    snprintf(want, sizeof(want),
             "--params: expected a count like 7B, 1.28M, 350k or 2T "
             "(suffixes K, M, B, T in either case), got '%s'",
             s);
    assert_string_equal(err.msg, want);
    assert_true(v == 42); /* untouched on failure */
}

static void test_units__count_suffixes(void **state)
{
    (void)state;
    check_count("7B", 7e9);
    check_count("1.28M", 1.28e6);
    check_count("350k", 350e3);
    check_count("350K", 350e3);
    check_count("2T", 2e12);
    check_count("42", 42);
    check_count(".5M", 5e5);
    check_count("0", 0);
    /* lowercase, as model names write it (llama-7b, 1.5m samples) */
    check_count("7b", 7e9);
    check_count("1.5m", 1.5e6);
    check_count("2t", 2e12);
}

static void test_units__count_rejects_sloppy_spellings(void **state)
{
    (void)state;
    check_count_rejected("7x");
    check_count_rejected("7bb");
    check_count_rejected("7 B"); /* no spaces */
    check_count_rejected(" 7B");
    check_count_rejected("7BB");
    check_count_rejected("-7B");
    check_count_rejected("+7B");
    check_count_rejected("1e9");
    check_count_rejected("nan");
    check_count_rejected("inf");
    check_count_rejected("7.");
    check_count_rejected("");
    check_count_rejected("B");
    check_count_rejected("0x10");
}

static void test_units__count_overflow(void **state)
{
    double v;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    /* 9999T = 9.999e15 > 2^53 = 9.007e15 */
    assert_int_equal(ecf_units_parse_count(&v, "--params", "9999T", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--params: '9999T' is too large (at most 9P)");
    assert_int_equal(ecf_units_parse_count(&v, "--params",
                                           "1000000000000000000000000000000",
                                           &err),
                     ECF_EINVAL);
}

static void test_units__dataset_units(void **state)
{
    double v = 0;
    ecf_dataset_unit u = ECF_DATASET_NONE;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "1.28M", &err), 0);
    assert_float_equal(v, 1.28e6, 1e-6);
    assert_int_equal(u, ECF_DATASET_ITEMS);
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "2Ttok", &err), 0);
    assert_float_equal(v, 2e12, 1);
    assert_int_equal(u, ECF_DATASET_TOKENS);
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "300Btokens", &err), 0);
    assert_float_equal(v, 3e11, 1);
    assert_int_equal(u, ECF_DATASET_TOKENS);
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "5ksamples", &err), 0);
    assert_float_equal(v, 5000, 1e-9);
    assert_int_equal(u, ECF_DATASET_SAMPLES);
    /* 150GB = 150 x 10^9 bytes; 500GiB = 500 x 2^30 = 536870912000 */
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "150GB", &err), 0);
    assert_float_equal(v, 150e9, 1);
    assert_int_equal(u, ECF_DATASET_BYTES);
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "500GiB", &err), 0);
    assert_float_equal(v, 536870912000.0, 1);
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "1.5TB", &err), 0);
    assert_float_equal(v, 1.5e12, 1);
    assert_string_equal(ecf_dataset_unit_name(ECF_DATASET_TOKENS), "tokens");
}

static void test_units__dataset_rejections(void **state)
{
    double v;
    ecf_dataset_unit u;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "150 GB", &err),
        ECF_EINVAL);
    assert_string_equal(err.msg,
                        "--dataset: expected a count like 1.28M, tokens like "
                        "2Ttok or bytes like 150GB or 500GiB, got '150 GB'");
    assert_int_equal(
        ecf_units_parse_dataset(&v, &u, "--dataset", "150gb", &err),
        ECF_EINVAL);
    assert_int_equal(ecf_units_parse_dataset(&v, &u, "--dataset", "2Tt", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_units_parse_dataset(&v, &u, "--dataset", "GB", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_units_parse_dataset(&v, &u, "--dataset", "0", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--dataset: must be more than zero");
}

static void test_units__durations(void **state)
{
    double h = 0;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "24h", &err),
                     0);
    assert_float_equal(h, 24.0, 1e-12);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "90m", &err),
                     0);
    assert_float_equal(h, 1.5, 1e-12);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "2d", &err), 0);
    assert_float_equal(h, 48.0, 1e-12);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "30s", &err),
                     0);
    assert_float_equal(h, 30.0 / 3600.0, 1e-12);
    /* 1h30m = 1 + 30/60 = 1.5 h; 1w2d = 168 + 48 = 216 h */
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "1h30m", &err),
                     0);
    assert_float_equal(h, 1.5, 1e-12);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "1w2d", &err),
                     0);
    assert_float_equal(h, 216.0, 1e-12);

    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "24", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--max-time: expected a duration like 24h, "
                                 "90m, 2d, 30s or 1h30m, got '24'");
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "30m1h", &err),
                     ECF_EINVAL); /* units must descend */
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "1h1h", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "1 h", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_units_parse_duration(&h, "--max-time", "0h", &err),
                     ECF_EINVAL);
}

static void test_units__usd(void **state)
{
    double v = 0;
    ecf_err err = ECF_ERR_INIT;
    (void)state;

    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "$500", &err), 0);
    assert_float_equal(v, 500, 1e-9);
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "500", &err), 0);
    assert_float_equal(v, 500, 1e-9);
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "1.5k", &err), 0);
    assert_float_equal(v, 1500, 1e-9);
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "$2M", &err), 0);
    assert_float_equal(v, 2e6, 1e-6);
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "-5", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "--budget: expected a dollar amount like "
                                 "$500, 500 or 1.5k, got '-5'");
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "$", &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_units_parse_usd(&v, "--budget", "5 USD", &err),
                     ECF_EINVAL);
}

static void test_units__format_count(void **state)
{
    char buf[32];
    (void)state;
    assert_string_equal(ecf_units_format_count(buf, sizeof(buf), 7.24e9),
                        "7.24B");
    assert_string_equal(ecf_units_format_count(buf, sizeof(buf), 350e3),
                        "350K");
    assert_string_equal(ecf_units_format_count(buf, sizeof(buf), 124439808),
                        "124M");
    assert_string_equal(ecf_units_format_count(buf, sizeof(buf), 12), "12");
    assert_string_equal(ecf_units_format_count(buf, sizeof(buf), 2e12), "2T");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units__count_suffixes),
        cmocka_unit_test(test_units__count_rejects_sloppy_spellings),
        cmocka_unit_test(test_units__count_overflow),
        cmocka_unit_test(test_units__dataset_units),
        cmocka_unit_test(test_units__dataset_rejections),
        cmocka_unit_test(test_units__durations),
        cmocka_unit_test(test_units__usd),
        cmocka_unit_test(test_units__format_count),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
