/*
 * test_awscreds.c - credential resolution order and the INI dialect, with
 * temporary files (the environment is passed in, never read).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ec2fit/awscreds.h"
#include "ec2fit/buf.h"

typedef struct {
    char dir[64];
    char creds[128];
    char config[128];
} tmpdirs;

static int setup(void **state)
{
    tmpdirs *t = calloc(1, sizeof(*t));
    strcpy(t->dir, "/tmp/ecf_awscreds_XXXXXX");
    if (!mkdtemp(t->dir))
        return -1;
    snprintf(t->creds, sizeof(t->creds), "%s/credentials", t->dir);
    snprintf(t->config, sizeof(t->config), "%s/config", t->dir);
    *state = t;
    return 0;
}

static int teardown(void **state)
{
    tmpdirs *t = *state;
    unlink(t->creds);
    unlink(t->config);
    rmdir(t->dir);
    free(t);
    return 0;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static void test_awscreds__env_wins(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {"AKENV", "SECRETENV", "TOKENENV", NULL,
                            t->creds, t->config, t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->creds, "[default]\naws_access_key_id=AKFILE\n"
                         "aws_secret_access_key=SFILE\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKENV");
    assert_string_equal(c.secret_access_key, "SECRETENV");
    assert_string_equal(c.session_token, "TOKENENV");
    assert_string_equal(c.source, "environment");
    ecf_awscreds_dispose(&c);
}

static void test_awscreds__env_half_set_is_an_error(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {"AKENV", NULL, NULL, NULL, t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_EINVAL);
    assert_string_equal(err.msg,
                        "AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY "
                        "is not");
}

static void test_awscreds__credentials_file_profile(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, "dev", t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->creds,
               "# comment\n; other comment\n[default]\n"
               "aws_access_key_id = AKDEF\naws_secret_access_key = SDEF\n"
               "\n[ dev ]\r\n"
               "AWS_Access_Key_Id=AKDEV  \r\n"
               "aws_secret_access_key =  S/DEV+x=y\r\n"
               "aws_session_token = TOK\n"
               "s3 =\n  aws_access_key_id = NESTED\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKDEV");
    assert_string_equal(c.secret_access_key, "S/DEV+x=y");
    assert_string_equal(c.session_token, "TOK");
    assert_non_null(strstr(c.source, "credentials [dev]"));
    ecf_awscreds_dispose(&c);
}

static void test_awscreds__config_profile_prefix(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, "ci", t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    /* A bare [ci] in config is not the ci profile; [profile ci] is. */
    write_file(t->config, "[ci]\naws_access_key_id=WRONG\n"
                          "aws_secret_access_key=WRONG\n"
                          "[profile   ci]\nregion=us-west-2\n"
                          "aws_access_key_id=AKCI\n"
                          "aws_secret_access_key=SCI\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKCI");
    assert_null(c.session_token);
    ecf_awscreds_dispose(&c);
}

static void test_awscreds__config_default_section(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->config, "[default]\naws_access_key_id=AKD\n"
                          "aws_secret_access_key=SD\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKD");
    ecf_awscreds_dispose(&c);
}

static void test_awscreds__credentials_file_beats_config(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->creds, "[default]\naws_access_key_id=AKC\n"
                         "aws_secret_access_key=SC\n");
    write_file(t->config, "[default]\naws_access_key_id=AKF\n"
                          "aws_secret_access_key=SF\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKC");
    ecf_awscreds_dispose(&c);
}

static void test_awscreds__none_found(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {"", "", NULL, NULL, t->creds, t->config, t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_ENOTFOUND);
    assert_null(c.access_key_id);
    assert_non_null(strstr(err.msg, "no AWS credentials"));
}

static void test_awscreds__profile_without_keys(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, "sso", t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->config, "[profile sso]\nsso_start_url = https://x\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_ENOTFOUND);
    assert_non_null(strstr(err.msg, "profile 'sso' has no"));
}

static void test_awscreds__key_without_secret(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    write_file(t->creds, "[default]\naws_access_key_id=AK\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_EINVAL);
    assert_non_null(strstr(err.msg, "but no aws_secret_access_key"));
    /* The message names the file and profile, never a secret value. */
    assert_null(strstr(err.msg, "=AK"));
}

static void test_awscreds__home_default_paths(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, NULL, NULL, t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    ecf_buf p = ECF_BUF_INIT;
    ecf_buf_printf(&p, "%s/.aws", t->dir);
    assert_int_equal(mkdir(p.data, 0700), 0);
    ecf_buf_puts(&p, "/credentials");
    write_file(p.data, "[default]\naws_access_key_id=AKH\n"
                       "aws_secret_access_key=SH\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    assert_string_equal(c.access_key_id, "AKH");
    ecf_awscreds_dispose(&c);
    unlink(p.data);
    p.len -= strlen("/credentials");
    p.data[p.len] = '\0';
    rmdir(p.data);
    ecf_buf_dispose(&p);
}

/* A profile asked for by name (AWS_PROFILE) that neither file has is an
 * error, as in the AWS CLI; not "no credentials". */
static void test_awscreds__named_profile_missing(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, "nosuch", t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    char want[512];
    write_file(t->creds, "[default]\naws_access_key_id=AK\n"
                         "aws_secret_access_key=S\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_EPARSE);
    snprintf(want, sizeof(want),
             "AWS_PROFILE: the profile 'nosuch' could not be found in %s or "
             "%s",
             t->creds, t->config);
    assert_string_equal(err.msg, want);
    assert_null(c.access_key_id);
}

/* Lines configparser refuses are errors naming the file and line. */
static void test_awscreds__parse_error_line(void **state)
{
    tmpdirs *t = *state;
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, t->creds, t->config,
                            t->dir};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    char want[512];
    write_file(t->creds, "# c\n[default]\naws_access_key_id=AK\n\n"
                         "aws_secret_access_key\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_EPARSE);
    snprintf(want, sizeof(want),
             "%s:5: expected [section], key = value or a comment", t->creds);
    assert_string_equal(err.msg, want);
    /* ":" is configparser's other delimiter; nested blocks are fine */
    write_file(t->creds, "[default]\naws_access_key_id: AK\n"
                         "aws_secret_access_key=S\ns3 =\n  x = 1\n");
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), 0);
    ecf_awscreds_dispose(&c);
}

/* Without HOME, ~/.aws does not exist: "./.aws" is never read. */
static void test_awscreds__no_home_no_files(void **state)
{
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    ecf_awscreds c = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_awscreds_resolve(&c, &env, &err), ECF_ENOTFOUND);
    assert_string_equal(err.msg, "no AWS credentials: AWS_ACCESS_KEY_ID is "
                                 "not set and HOME is not set (no ~/.aws "
                                 "files)");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(test_awscreds__env_wins, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(
            test_awscreds__env_half_set_is_an_error, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_awscreds__credentials_file_profile, setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__config_profile_prefix,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_awscreds__config_default_section, setup, teardown),
        cmocka_unit_test_setup_teardown(
            test_awscreds__credentials_file_beats_config, setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__none_found, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__profile_without_keys,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__key_without_secret,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__home_default_paths,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__named_profile_missing,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__parse_error_line,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_awscreds__no_home_no_files,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
