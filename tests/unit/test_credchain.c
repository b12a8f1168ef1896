/*
 * test_credchain.c - the parsers behind the credential chain
 * (src/aws/credparse.c): ISO 8601 times, STS's XML, the JSON shapes of
 * IMDS/containers/credential_process/SSO, credential_process's argv split,
 * and the process runner. The providers themselves run end to end in
 * tests/scripts/test_update_creds.sh.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <string.h>

#include "credchain_internal.h"
#include "ec2fit/crypto.h"

#define NOW 1796630400LL /* 2026-12-07T08:00:00Z */

static void test_credchain__parses_iso8601(void **state)
{
    long long t = 0;
    (void)state;
    assert_int_equal(ecf_cred_parse_time(&t, "2026-12-07T08:00:00Z"), 0);
    assert_true(t == NOW);
    assert_int_equal(ecf_cred_parse_time(&t, "1970-01-01T00:00:00Z"), 0);
    assert_true(t == 0);
    /* fractional seconds and offsets, as IMDS and credential_process
     * writers emit them */
    assert_int_equal(ecf_cred_parse_time(&t, "2026-12-07T08:00:00.123Z"), 0);
    assert_true(t == NOW);
    assert_int_equal(ecf_cred_parse_time(&t, "2026-12-07T09:30:00+01:30"), 0);
    assert_true(t == NOW);
    assert_int_equal(ecf_cred_parse_time(&t, "2024-02-29T00:00:00Z"), 0);
    assert_true(t == 1709164800LL);
    assert_int_equal(ecf_cred_parse_time(&t, "2026-12-07 08:00:00"),
                     ECF_EPARSE);
    assert_int_equal(ecf_cred_parse_time(&t, "2026-13-07T08:00:00Z"),
                     ECF_EPARSE);
    assert_int_equal(ecf_cred_parse_time(&t, "tomorrow"), ECF_EPARSE);
}

static const char sts_ok[] =
    "<AssumeRoleWithWebIdentityResponse><AssumeRoleWithWebIdentityResult>"
    "<Credentials><AccessKeyId>ASIAEXAMPLE</AccessKeyId>"
    "<SecretAccessKey>se/cr&amp;et</SecretAccessKey>"
    "<SessionToken>tok+en=</SessionToken>"
    "<Expiration>2026-12-07T09:00:00Z</Expiration></Credentials>"
    "</AssumeRoleWithWebIdentityResult></AssumeRoleWithWebIdentityResponse>";

static void test_credchain__reads_sts_xml(void **state)
{
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cred_from_sts_xml(&c, sts_ok, "sts", NOW, &err), 0);
    assert_string_equal(c.access_key_id, "ASIAEXAMPLE");
    assert_string_equal(c.secret_access_key, "se/cr&et");
    assert_string_equal(c.session_token, "tok+en=");
    ecf_awscreds_dispose(&c);

    assert_int_equal(ecf_cred_from_sts_xml(&c, sts_ok, "sts",
                                           NOW + 3600, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg,
                        "sts: the credentials expired at 2026-12-07T09:00:00Z");
    assert_null(c.access_key_id);
    assert_int_equal(ecf_cred_from_sts_xml(&c, "<x/>", "sts", NOW, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg,
                        "sts: the answer has no <Credentials> element");
    assert_int_equal(
        ecf_cred_from_sts_xml(&c,
                              "<Credentials><AccessKeyId>A</AccessKeyId>"
                              "<SecretAccessKey>s</SecretAccessKey>"
                              "</Credentials>",
                              "sts", NOW, &err),
        ECF_EPARSE);
    assert_string_equal(err.msg, "sts: <Credentials> has no <SessionToken>");
}

static void test_credchain__adds_sts_error(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    ecf_err_set(&err, ECF_EHTTP, "HTTP 403");
    ecf_cred_add_service_message(
        &err, "<ErrorResponse><Error><Code>AccessDenied</Code><Message>No "
              "\x1b[31m</Message></Error></ErrorResponse>");
    assert_string_equal(err.msg, "HTTP 403: AccessDenied: No \\x1b[31m");
    ecf_err_set(&err, ECF_EHTTP, "HTTP 401");
    ecf_cred_add_service_message(&err, "{\"message\": \"bad token\"}");
    assert_string_equal(err.msg, "HTTP 401: bad token");
}

static void test_credchain__reads_json(void **state)
{
    static const char imds[] =
        "{\"Code\":\"Success\",\"AccessKeyId\":\"ASIA1\","
        "\"SecretAccessKey\":\"s1\",\"Token\":\"t1\","
        "\"Expiration\":\"2026-12-07T14:00:00Z\"}";
    static const char proc[] =
        "{\"Version\":1,\"AccessKeyId\":\"AKIA2\",\"SecretAccessKey\":\"s2\"}";
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cred_from_json(&c, imds, strlen(imds), "imds", 0,
                                        NOW, &err),
                     0);
    assert_string_equal(c.session_token, "t1");
    ecf_awscreds_dispose(&c);
    /* credential_process: long-term keys need no token nor Expiration */
    assert_int_equal(ecf_cred_from_json(&c, proc, strlen(proc), "p", 1, NOW,
                                        &err),
                     0);
    assert_string_equal(c.access_key_id, "AKIA2");
    assert_null(c.session_token);
    ecf_awscreds_dispose(&c);
    assert_int_equal(ecf_cred_from_json(&c, "{\"Version\":2}", 13, "p", 1,
                                        NOW, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "p: \"Version\" must be 1");
    assert_int_equal(ecf_cred_from_json(&c, "{\"Code\":\"Failure\"}", 18,
                                        "imds", 0, NOW, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "imds: Code is 'Failure'");
    assert_int_equal(ecf_cred_from_json(&c, "[1]", 3, "ecs", 0, NOW, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "ecs: the answer is not a JSON object");
    assert_int_equal(ecf_cred_from_json(&c, "{\"AccessKeyId\":\"A\"}", 19,
                                        "ecs", 0, NOW, &err),
                     ECF_EPARSE);
    assert_string_equal(err.msg, "ecs: the answer has no \"SecretAccessKey\"");
}

static void test_credchain__reads_sso_json(void **state)
{
    static const char ok[] =
        "{\"roleCredentials\":{\"accessKeyId\":\"ASIA3\",\"secretAccessKey\":"
        "\"s3\",\"sessionToken\":\"t3\",\"expiration\":1796631600000}}";
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cred_from_sso_json(&c, ok, strlen(ok), "sso", NOW,
                                            &err),
                     0);
    assert_string_equal(c.access_key_id, "ASIA3");
    ecf_awscreds_dispose(&c);
    assert_int_equal(ecf_cred_from_sso_json(&c, ok, strlen(ok), "sso",
                                            NOW + 7200, &err),
                     ECF_EPARSE);
    assert_string_equal(
        err.msg, "sso: the credentials expired (expiration 1796631600000 ms)");
}

static void test_credchain__splits_command_as_shlex(void **state)
{
    char **v = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cred_split_command(
                         &v, "\"/opt/my tool\" --a 'b c' d\\ e \"x\\\"y\"",
                         &err),
                     0);
    assert_string_equal(v[0], "/opt/my tool");
    assert_string_equal(v[1], "--a");
    assert_string_equal(v[2], "b c");
    assert_string_equal(v[3], "d e");
    assert_string_equal(v[4], "x\"y");
    assert_null(v[5]);
    ecf_cred_free_words(v);
    assert_int_equal(ecf_cred_split_command(&v, "tool 'open", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "credential_process: unterminated quote");
    assert_int_equal(ecf_cred_split_command(&v, "   ", &err), ECF_EINVAL);
    assert_string_equal(err.msg, "credential_process: empty command");
}

static void test_credchain__runs_process(void **state)
{
    static char sh[] = "sh", c[] = "-c", nx[] = "/nonexistent/ec2fit-cred";
    static char s_ok[] = "printf '{\"a\":1}'; echo noise >&2";
    static char s_bad[] = "echo 'token expired' >&2; exit 4";
    char *ok[] = {sh, c, s_ok, NULL};
    char *bad[] = {sh, c, s_bad, NULL};
    char *none[] = {nx, NULL};
    ecf_buf out = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cred_run_process(&out, ok, &err), 0);
    assert_string_equal(out.data, "{\"a\":1}");
    assert_int_equal(ecf_cred_run_process(&out, bad, &err), ECF_ERR);
    assert_string_equal(err.msg,
                        "'sh' exited with status 4: token expired");
    assert_int_equal(ecf_cred_run_process(&out, none, &err), ECF_EIO);
    assert_string_equal(err.msg, "cannot run '/nonexistent/ec2fit-cred': "
                                 "No such file or directory");
    ecf_buf_dispose(&out);
}

static void test_credchain__sso_cache_name_is_sha1(void **state)
{
    char hex[ECF_SHA1_HEX_LEN + 1];
    (void)state;
    /* FIPS 180 "abc" vector; the SSO cache file of session "abc" */
    ecf_crypto_sha1_hex(hex, "abc", 3);
    assert_string_equal(hex, "a9993e364706816aba3e25717850c26c9cd0d89d");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_credchain__parses_iso8601),
        cmocka_unit_test(test_credchain__reads_sts_xml),
        cmocka_unit_test(test_credchain__adds_sts_error),
        cmocka_unit_test(test_credchain__reads_json),
        cmocka_unit_test(test_credchain__reads_sso_json),
        cmocka_unit_test(test_credchain__splits_command_as_shlex),
        cmocka_unit_test(test_credchain__runs_process),
        cmocka_unit_test(test_credchain__sso_cache_name_is_sha1),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
