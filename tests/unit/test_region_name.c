/* test_region_name.c - ecf_region_parent: regions versus Local Zone and
 * Wavelength zone groups (names as the catalog's price data spells them),
 * and ecf_awscreds_region (the AWS profile's region). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/region_name.h"

static void expect(const char *loc, const char *parent, bool zone)
{
    char buf[64];
    assert_int_equal(ecf_region_parent(buf, sizeof(buf), loc), zone);
    assert_string_equal(buf, parent);
}

static void test_region_name__parent(void **state)
{
    (void)state;
    expect("us-east-1", "us-east-1", false);
    expect("us-gov-west-1", "us-gov-west-1", false);
    expect("ap-southeast-5", "ap-southeast-5", false);
    expect("us-west-2-lax-1", "us-west-2", true);
    expect("ap-northeast-1-tpe-1", "ap-northeast-1", true);
    expect("us-east-1-wl1-bna1", "us-east-1", true);
    expect("us-east-1-wl1", "us-east-1", true);
    expect("eu-west-2-wl2-man1", "eu-west-2", true);
    expect("", "", false);
    expect("nonsense", "nonsense", false);
}

static void test_region_name__truncates(void **state)
{
    char buf[4];
    (void)state;
    assert_true(ecf_region_parent(buf, sizeof(buf), "us-west-2-lax-1"));
    assert_string_equal(buf, "us-");
}

static void test_region_name__aws_profile(void **state)
{
    char path[] = "/tmp/ecf_awsconfigXXXXXX", out[64];
    ecf_awscreds_env env = {0};
    ecf_err err = ECF_ERR_INIT;
    int fd = mkstemp(path);
    FILE *f;
    (void)state;
    assert_true(fd >= 0);
    f = fdopen(fd, "w");
    fputs("[default]\nregion = eu-west-1\noutput = json\n"
          "[profile dev]\nregion=ap-south-1\n  s3 =\n    region = x\n",
          f);
    fclose(f);
    env.config_file = path;
    assert_int_equal(ecf_awscreds_region(out, sizeof(out), &env, &err), 1);
    assert_string_equal(out, "eu-west-1");
    env.profile = "dev";
    assert_int_equal(ecf_awscreds_region(out, sizeof(out), &env, &err), 1);
    assert_string_equal(out, "ap-south-1");
    /* a named profile in neither file: refused as update refuses it
     * (issue 28; was a silent us-east-1) */
    env.profile = "nope";
    env.shared_credentials_file = "/nonexistent/credentials";
    assert_int_equal(ecf_awscreds_region(out, sizeof(out), &env, &err),
                     ECF_EPARSE);
    assert_string_equal(out, "");
    assert_non_null(strstr(err.msg, "AWS_PROFILE: the profile 'nope' could "
                                    "not be found in /nonexistent/"
                                    "credentials or /tmp/ecf_awsconfig"));
    unlink(path);
    env.profile = NULL;
    assert_int_equal(ecf_awscreds_region(out, sizeof(out), &env, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_region_name__parent),
        cmocka_unit_test(test_region_name__truncates),
        cmocka_unit_test(test_region_name__aws_profile),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
