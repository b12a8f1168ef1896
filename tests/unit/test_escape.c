/*
 * test_escape.c - the output boundaries of issue 28: saturating
 * double-to-integer conversions (ec2fit/satconv.h), catalog identifier
 * rules (ecf_ident_valid) and the YAML and Markdown escapes
 * (src/render/render_escape.h), checked byte for byte.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/satconv.h"
#include "ec2fit/textsafe.h"
#include "render_escape.h"

static void test_escape__sat_int_clamps_and_truncates(void **state)
{
    (void)state;
    assert_int_equal(ecf_sat_int(1e9), 1000000000);
    assert_int_equal(ecf_sat_int(2147483647.0), INT_MAX);
    assert_int_equal(ecf_sat_int(2147483648.0), INT_MAX);
    assert_int_equal(ecf_sat_int(1e308), INT_MAX);
    assert_int_equal(ecf_sat_int(INFINITY), INT_MAX);
    assert_int_equal(ecf_sat_int(-2147483648.0), INT_MIN);
    assert_int_equal(ecf_sat_int(-2147483648.9), INT_MIN);
    assert_int_equal(ecf_sat_int(-1e308), INT_MIN);
    assert_int_equal(ecf_sat_int(NAN), 0);
    assert_int_equal(ecf_sat_int(2.9), 2);
    assert_int_equal(ecf_sat_int(-2.9), -2);
    /* the fleet.c case: ceil(need / per) of a 1e9 req/s peak */
    assert_int_equal(ecf_sat_int(ceil(6.8e8)), 680000000);
    assert_int_equal(ecf_sat_int(ceil(9.22e18)), INT_MAX);
}

static void test_escape__sat_ll_clamps(void **state)
{
    (void)state;
    assert_true(ecf_sat_ll(9.3e18) == LLONG_MAX);
    assert_true(ecf_sat_ll(9223372036854775808.0) == LLONG_MAX);
    assert_true(ecf_sat_ll(-9.3e18) == LLONG_MIN);
    assert_true(ecf_sat_ll(-INFINITY) == LLONG_MIN);
    assert_true(ecf_sat_ll(NAN) == 0);
    assert_true(ecf_sat_ll(4096.7) == 4096);
    /* kv_capacity_tokens from a 1e308 GiB device printed -9.22e18 */
    assert_true(ecf_sat_ll(1e300) == LLONG_MAX);
    assert_true(ecf_sat_long(1e300) == LONG_MAX);
    assert_true(ecf_sat_long(-1e300) == LONG_MIN);
}

static void test_escape__ident_rules(void **state)
{
    (void)state;
    assert_true(ecf_ident_valid("g6e.xlarge", 63, "-."));
    assert_true(ecf_ident_valid("u7i-12tb.224xlarge", 63, "-."));
    assert_true(ecf_ident_valid("mac2-m2pro.metal", 63, "-."));
    assert_true(ecf_ident_valid("us-east-1-atl-2", 63, "-"));
    assert_false(ecf_ident_valid("", 63, "-."));
    assert_false(ecf_ident_valid("-g6e.xlarge", 63, "-."));
    assert_false(ecf_ident_valid(".g6e", 63, "-."));
    assert_false(ecf_ident_valid("G6e.xlarge", 63, "-."));
    assert_false(ecf_ident_valid("g6e.xlarge\"\n  - \"p5.48xlarge", 63,
                                 "-."));
    assert_false(ecf_ident_valid("g6e xlarge", 63, "-."));
    assert_false(ecf_ident_valid("g6e.xlarge", 63, "-")); /* no '.' here */
    assert_false(ecf_ident_valid("us-east-1|<b>", 63, "-"));
    assert_false(ecf_ident_valid("g6e\xc3\xa9", 63, "-."));
    /* length: 63 accepted, 64 refused */
    {
        char s[65];
        memset(s, 'a', 64);
        s[63] = '\0';
        assert_true(ecf_ident_valid(s, 63, "-."));
        s[63] = 'a';
        s[64] = '\0';
        assert_false(ecf_ident_valid(s, 63, "-."));
    }
}

/* What fn writes for s, as a heap string. */
static char *render(void (*fn)(FILE *, const char *), const char *s)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    assert_non_null(f);
    fn(f, s);
    assert_int_equal(fclose(f), 0);
    return buf;
}

static void expect(void (*fn)(FILE *, const char *), const char *in,
                   const char *want)
{
    char *got = render(fn, in);
    assert_string_equal(got, want);
    free(got);
}

static void test_escape__yaml_str(void **state)
{
    (void)state;
    expect(ecf_rr_yaml_str, "g6e.xlarge", "\"g6e.xlarge\"");
    /* issue 28's injection: stays one scalar on one line */
    expect(ecf_rr_yaml_str, "g6e.xlarge\"\n            - \"p5.48xlarge",
           "\"g6e.xlarge\\\"\\x0a            - \\\"p5.48xlarge\"");
    expect(ecf_rr_yaml_str, "a\\b", "\"a\\\\b\"");
    expect(ecf_rr_yaml_str, "\x1b[31m\x7f", "\"\\x1b[31m\\x7f\"");
    expect(ecf_rr_yaml_str, "\xc2\x9b" "2J", "\"\\x9b2J\""); /* C1 CSI */
    expect(ecf_rr_yaml_str, "caf\xc3\xa9", "\"caf\xc3\xa9\""); /* UTF-8 kept */
    expect(ecf_rr_yaml_str, "x\xffy", "\"x\\xffy\"");
    expect(ecf_rr_yaml_str, "", "\"\"");
}

static void test_escape__yaml_comment(void **state)
{
    (void)state;
    /* a --model-config file name with a newline cannot end the comment */
    expect(ecf_rr_yaml_comment, "custom-x\napiVersion: v1",
           "custom-x\\x0aapiVersion: v1");
}

static void test_escape__markdown(void **state)
{
    (void)state;
    expect(ecf_rr_md_text, "8x A100 SXM4 40GB", "8x A100 SXM4 40GB");
    expect(ecf_rr_md_text, "A10G | <script>alert(1)</script>",
           "A10G \\| \\<script\\>alert(1)\\</script\\>");
    expect(ecf_rr_md_text, "[x](http://e) *b* `c` &amp;",
           "\\[x\\](http://e) \\*b\\* \\`c\\` \\&amp;");
    /* an underscore inside a word is not emphasis (model names) */
    expect(ecf_rr_md_text, "whisper_large _x_", "whisper_large \\_x\\_");
    /* control characters as ecf_textsafe, its backslash escaped */
    expect(ecf_rr_md_text, "a\nb", "a\\\\x0ab");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_escape__sat_int_clamps_and_truncates),
        cmocka_unit_test(test_escape__sat_ll_clamps),
        cmocka_unit_test(test_escape__ident_rules),
        cmocka_unit_test(test_escape__yaml_str),
        cmocka_unit_test(test_escape__yaml_comment),
        cmocka_unit_test(test_escape__markdown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
