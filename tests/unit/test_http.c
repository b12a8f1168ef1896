/*
 * test_http.c - the URL rules (https, or http to loopback only), Host/path
 * splitting for SigV4, and transport errors that must not be retried. No
 * network: the only connection attempted is to a closed port on 127.0.0.1.
 * Retries, timeouts, caps and truncation are exercised end to end by
 * tests/scripts/test_update.sh against tests/tools/fake_aws.py.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ec2fit/http.h"

static void test_http__url_rules(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_http_check_url("https://api.pricing.us-east-1."
                                        "amazonaws.com/",
                                        &err),
                     0);
    assert_int_equal(ecf_http_check_url("http://127.0.0.1:8080/x", &err), 0);
    assert_int_equal(ecf_http_check_url("http://localhost:1/", &err), 0);
    assert_int_equal(ecf_http_check_url("http://[::1]:9/", &err), 0);
    assert_int_equal(ecf_http_check_url("http://example.com/", &err),
                     ECF_EINVAL);
    assert_string_equal(err.msg, "http://example.com/: plain http is only "
                                 "allowed to 127.0.0.1, localhost and [::1]; "
                                 "use https");
    /* A loopback-looking name that is not loopback. */
    assert_int_equal(ecf_http_check_url("http://127.0.0.1.evil.example/",
                                        &err),
                     ECF_EINVAL);
    assert_int_equal(ecf_http_check_url("ftp://127.0.0.1/", &err),
                     ECF_EINVAL);
    assert_non_null(strstr(err.msg, "unsupported scheme 'ftp'"));
    assert_int_equal(ecf_http_check_url("not a url", &err), ECF_EINVAL);
}

static void test_http__split_url(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    char *host = NULL, *path = NULL;
    (void)state;
    assert_int_equal(ecf_http_split_url(&host, &path,
                                        "https://api.pricing.us-east-1."
                                        "amazonaws.com",
                                        &err),
                     0);
    assert_string_equal(host, "api.pricing.us-east-1.amazonaws.com");
    assert_string_equal(path, "/");
    free(host);
    free(path);
    assert_int_equal(
        ecf_http_split_url(&host, &path, "http://127.0.0.1:4567/a/b", &err),
        0);
    assert_string_equal(host, "127.0.0.1:4567");
    assert_string_equal(path, "/a/b");
    free(host);
    free(path);
}

/* A port nobody listens on: bind port 0, read it, close. */
static int closed_port(void)
{
    struct sockaddr_in a;
    socklen_t len = sizeof(a);
    int fd = socket(AF_INET, SOCK_STREAM, 0), port;
    memset(&a, 0, sizeof(a));
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    assert_int_equal(bind(fd, (struct sockaddr *)&a, sizeof(a)), 0);
    assert_int_equal(getsockname(fd, (struct sockaddr *)&a, &len), 0);
    port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static void test_http__refused_is_not_retried(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    ecf_http_opts o = ECF_HTTP_OPTS_INIT;
    ecf_http_request req = {"GET", NULL, NULL, 0, NULL, 0};
    char url[64];
    (void)state;
    assert_int_equal(ecf_http_global_init(&err), 0);
    snprintf(url, sizeof(url), "http://127.0.0.1:%d/", closed_port());
    req.url = url;
    o.timeout_ms = 2000;
    assert_int_equal(ecf_http_send(&res, &req, &o, &err), ECF_EIO);
    assert_int_equal(res.attempts, 1);
    assert_int_equal(res.status, 0);
    assert_non_null(strstr(err.msg, "onnect"));
    ecf_http_response_dispose(&res);
    ecf_http_global_cleanup();
}

static void test_http__rejects_before_connecting(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    ecf_http_request req = {"GET", "http://example.com/", NULL, 0, NULL, 0};
    (void)state;
    assert_int_equal(ecf_http_send(&res, &req, NULL, &err), ECF_EINVAL);
    assert_int_equal(res.attempts, 0);
    ecf_http_response_dispose(&res);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_http__url_rules),
        cmocka_unit_test(test_http__split_url),
        cmocka_unit_test(test_http__refused_is_not_retried),
        cmocka_unit_test(test_http__rejects_before_connecting),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
