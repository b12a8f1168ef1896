/* test_buf.c - ecf_str_put, the fixed-size string append that stands in
 * for snprintf(out + len, size - len, "%s", s) on the --batch hot paths
 * (ec2fit/buf.h): the same bytes and the same return value as that
 * snprintf call, which is the reference here, including truncation. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "ec2fit/buf.h"

/* Appends `s` at `len` in two buffers of `size` bytes, one with
 * ecf_str_put and one with snprintf, and checks both agree. */
static void agree(size_t size, const char *start, const char *s)
{
    char a[16], b[16];
    size_t len = strlen(start), got;
    int want;

    memset(a, 'x', sizeof(a));
    memset(b, 'x', sizeof(b));
    memcpy(a, start, len + 1);
    memcpy(b, start, len + 1);
    got = ecf_str_put(a, size, len, s);
    want = snprintf(b + len, size - len, "%s", s);
    assert_int_equal(got, len + (size_t)want);
    assert_memory_equal(a, b, sizeof(a));
}

static void test_buf__str_put_matches_snprintf(void **state)
{
    (void)state;
    agree(8, "", "abc");       /* fits */
    agree(8, "ab", "cdefg");   /* exactly fills: 7 chars + NUL */
    agree(8, "ab", "cdefghij"); /* truncated: returns 10 */
    agree(8, "", "");
    agree(1, "", "abc");       /* room for the NUL only */
}

/* Chained as the missing-price note does: "no price for a, b" in 12
 * bytes keeps "no price fo" and reports the 17 it would have written. */
static void test_buf__str_put_chain(void **state)
{
    char out[12];
    size_t len;
    (void)state;
    len = ecf_str_put(out, sizeof(out), 0, "no price for ");
    len = ecf_str_put(out, sizeof(out), len, "a");
    len = ecf_str_put(out, sizeof(out), len, ", ");
    len = ecf_str_put(out, sizeof(out), len, "b");
    assert_int_equal(len, 17);
    assert_string_equal(out, "no price fo");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_buf__str_put_matches_snprintf),
        cmocka_unit_test(test_buf__str_put_chain),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
