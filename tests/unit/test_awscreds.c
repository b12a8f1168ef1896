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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
