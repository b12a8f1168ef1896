/* test_textsafe.c - ecf_textsafe (control characters on their way to a
 * terminal), ecf_http_redact_url and ecf_awscreds_check. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/http.h"
#include "ec2fit/textsafe.h"

static void expect_safe(const char *in, const char *want)
{
    char buf[256];
    char *d = ecf_textsafe_dup(in);
    assert_string_equal(ecf_textsafe(buf, sizeof(buf), in), want);
    assert_string_equal(d, want);
    assert_int_equal(ecf_textsafe_needed(in), strcmp(in, want) != 0);
    free(d);
}

static void test_textsafe__escapes(void **state)
{
    (void)state;
    expect_safe("g5.xlarge", "g5.xlarge");
    expect_safe("", "");
    /* ESC sequences: CSI colour, OSC window title ended by BEL */
    expect_safe("g5.xlarge\x1b[31m", "g5.xlarge\\x1b[31m");
    expect_safe("\x1b]0;pwned\x07", "\\x1b]0;pwned\\x07");
    /* CR/LF/TAB would forge or break a line */
    expect_safe("a\r\nb\tc", "a\\x0d\\x0ab\\x09c");
    expect_safe("del\x7f", "del\\x7f");
    /* C1 controls as UTF-8 (U+009B is CSI), and raw 8-bit bytes */
    expect_safe("x\xc2\x9b" "31m", "x\\u009b31m");
    expect_safe("x\xc2\x85y", "x\\u0085y");
    expect_safe("\x9b" "31m", "\\x9b31m");
    expect_safe("\xff\xfe", "\\xff\\xfe");
    /* valid UTF-8 passes: U+00A0, U+00E9, U+4E2D, U+1F600 */
    expect_safe("\xc2\xa0\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80",
                "\xc2\xa0\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80");
    /* overlong and surrogate encodings are not UTF-8 */
    expect_safe("\xc0\xaf", "\\xc0\\xaf");
    expect_safe("\xed\xa0\x80", "\\xed\\xa0\\x80");
}

static void test_textsafe__truncates_on_a_boundary(void **state)
{
    char buf[8];
    (void)state;
    assert_string_equal(ecf_textsafe(buf, sizeof(buf), "abcdefghij"),
                        "abcd...");
    /* "\x1b" (4 bytes) does not fit after "abc": cut before it */
    assert_string_equal(ecf_textsafe(buf, sizeof(buf), "abc\x1bxyz"),
                        "abc...");
    /* never half a UTF-8 character: U+4E2D is 3 bytes */
    assert_string_equal(ecf_textsafe(buf, sizeof(buf),
                                     "ab\xe4\xb8\xad\xe4\xb8\xad"),
                        "ab...");
}

static void test_textsafe__redact_url(void **state)
{
    char *r;
    (void)state;
    r = ecf_http_redact_url("http://u:pw@127.0.0.1:8080/x?y=1");
    assert_string_equal(r, "http://u:<redacted>@127.0.0.1:8080/x?y=1");
    free(r);
    /* the userinfo ends at the last '@' of the authority */
    r = ecf_http_redact_url("https://u:p@ss@host/a@b");
    assert_string_equal(r, "https://u:<redacted>@host/a@b");
    free(r);
    r = ecf_http_redact_url("https://user@host/");
    assert_string_equal(r, "https://user@host/");
    free(r);
    r = ecf_http_redact_url("https://host/path@x:y");
    assert_string_equal(r, "https://host/path@x:y");
    free(r);
    r = ecf_http_redact_url("not a url");
    assert_string_equal(r, "not a url");
    free(r);
}

static void test_textsafe__credentials(void **state)
{
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    char id[] = "AKID", secret[] = "s3cret", token[] = "tok\r\nX: 1";
    char src[] = "/h/.aws/credentials [ci]";
    (void)state;
    c.access_key_id = id;
    c.secret_access_key = secret;
    assert_int_equal(ecf_awscreds_check(&c, &err), 0);
    c.session_token = token;
    assert_int_equal(ecf_awscreds_check(&c, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "AWS_SESSION_TOKEN contains a line break");
    c.session_token = NULL;
    secret[2] = '\x01';
    c.source = src;
    assert_int_equal(ecf_awscreds_check(&c, &err), ECF_EINVAL);
    assert_string_equal(err.msg, "/h/.aws/credentials [ci]: "
                                 "aws_secret_access_key contains a control "
                                 "character");
    /* never the secret itself */
    assert_null(strstr(err.msg, "s3"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_textsafe__escapes),
        cmocka_unit_test(test_textsafe__truncates_on_a_boundary),
        cmocka_unit_test(test_textsafe__redact_url),
        cmocka_unit_test(test_textsafe__credentials),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
