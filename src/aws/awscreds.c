/*
 * awscreds.c - static credentials from environment values and the AWS
 * shared INI files.
 *
 * The INI dialect is the AWS CLI's: '#' and ';' start comment lines,
 * "[name]" opens a section, "key = value" (or "key: value") sets a key
 * (keys compared case-insensitively), and indented lines continue a nested
 * block (as in "s3 =\n  max_concurrent_requests = 10"), which is ignored
 * here. Inline comments are not stripped: botocore does not strip them
 * either, and a secret may contain any printable character.
 */
#include "ec2fit/awscreds.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "ec2fit/buf.h"
#include "ini.h"

static bool set(const char *s)
{
    return s && *s;
}

static void wipe_free(char *s)
{
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

void ecf_awscreds_dispose(ecf_awscreds *creds)
{
    if (!creds)
        return;
    wipe_free(creds->access_key_id);
    wipe_free(creds->secret_access_key);
    wipe_free(creds->session_token);
    free(creds->source);
    creds->access_key_id = NULL;
    creds->secret_access_key = NULL;
    creds->session_token = NULL;
    creds->source = NULL;
}

typedef struct {
    char *key_id, *secret, *token;
    char *region; /* the config file's "region" (ecf_awscreds_region) */
    bool section_found;
} ini_hit;

/* Frees what ini_scan found and wipes the file text: both may hold keys. */
static void scan_dispose(ini_hit *hit, ecf_buf *text)
{
    wipe_free(hit->key_id);
    wipe_free(hit->secret);
    wipe_free(hit->token);
    free(hit->region);
    if (text->data)
        memset(text->data, 0, text->len);
    ecf_buf_dispose(text);
}

static void replace(char **slot, char *value)
{
    wipe_free(*slot);
    *slot = value;
}

/* Scans `text` for sections named `want` (or `alt`, may be NULL) and
 * collects the three keys; later occurrences override earlier ones.
 * Returns 0, or the number of the first line the AWS CLI's parser
 * (Python configparser) would refuse, with *why saying what is wrong: a
 * "[" header with no "]", a line with neither "=" nor ":", or a key
 * before the first section. The whole file is checked, whatever the
 * profile, as the AWS CLI does. */
static size_t ini_scan(ini_hit *hit, const char *text, const char *want,
                       const char *alt, const char **why)
{
    const char *p = text;
    bool in = false, any_section = false;
    size_t lineno = 0, bad = 0;

    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t len = eol ? (size_t)(eol - p) : strlen(p);
        const char *line = p;
        size_t n = len;

        p = eol ? eol + 1 : p + len;
        lineno++;
        if (n > 0 && (line[0] == ' ' || line[0] == '\t')) {
            /* nested block or blank line with spaces: skip */
            continue;
        }
        while (n > 0 && (line[n - 1] == '\r' || line[n - 1] == ' ' ||
                         line[n - 1] == '\t'))
            n--;
        if (n == 0 || line[0] == '#' || line[0] == ';')
            continue;
        if (line[0] == '[') {
            const char *close = memchr(line, ']', n);
            size_t inner = close ? (size_t)(close - line - 1) : n - 1;
            if (!close && !bad) {
                bad = lineno;
                *why = "section header without ']'";
            }
            any_section = true;
            in = ecf_ini_section_is(line + 1, inner, want) ||
                 (alt && ecf_ini_section_is(line + 1, inner, alt));
            if (in)
                hit->section_found = true;
            continue;
        }
        if (!bad && !memchr(line, '=', n) && !memchr(line, ':', n)) {
            bad = lineno;
            *why = "expected [section], key = value or a comment";
        } else if (!bad && !any_section) {
            bad = lineno;
            *why = "key before the first [section]";
        }
        if (in) {
            /* configparser splits at the first '=' or ':' */
            const char *eq = memchr(line, '=', n);
            const char *colon = memchr(line, ':', n);
            char *key;
            if (colon && (!eq || colon < eq))
                eq = colon;
            if (!eq)
                continue;
            key = ecf_ini_trimmed(line, (size_t)(eq - line));
            if (strcasecmp(key, "aws_access_key_id") == 0)
                replace(&hit->key_id,
                        ecf_ini_trimmed(eq + 1, n - (size_t)(eq - line) - 1));
            else if (strcasecmp(key, "aws_secret_access_key") == 0)
                replace(&hit->secret,
                        ecf_ini_trimmed(eq + 1, n - (size_t)(eq - line) - 1));
            else if (strcasecmp(key, "aws_session_token") == 0)
                replace(&hit->token,
                        ecf_ini_trimmed(eq + 1, n - (size_t)(eq - line) - 1));
            else if (strcasecmp(key, "region") == 0)
                replace(&hit->region,
                        ecf_ini_trimmed(eq + 1, n - (size_t)(eq - line) - 1));
            free(key);
        }
    }
    return bad;
}

/* Reads `path` when it exists. Returns 1 read, 0 absent, <0 error. */
static int read_optional(ecf_buf *out, const char *path, ecf_err *err)
{
    struct stat st;
    if (!path || !*path)
        return 0;
    if (stat(path, &st) != 0) {
        if (errno == ENOENT || errno == ENOTDIR)
            return 0;
    }
    if (ecf_buf_read_file(out, path, ECF_AWSCREDS_MAX_FILE_BYTES, err) < 0)
        return err ? (int)err->code : ECF_EIO;
    return 1;
}

/* The file to read, or "" when there is none: without HOME there is no
 * ~/.aws (the current directory is not a stand-in for it). */
static void file_path(ecf_buf *out, const char *explicit_path,
                      const char *home, const char *name)
{
    ecf_buf_clear(out);
    if (set(explicit_path))
        ecf_buf_puts(out, explicit_path);
    else if (set(home))
        ecf_buf_printf(out, "%s/.aws/%s", home, name);
    else
        ecf_buf_puts(out, "");
}

int ecf_awscreds_resolve(ecf_awscreds *out, const ecf_awscreds_env *env,
                         ecf_err *err)
{
    ecf_buf cred_path = ECF_BUF_INIT, conf_path = ECF_BUF_INIT;
    ecf_buf text = ECF_BUF_INIT, sect = ECF_BUF_INIT;
    ini_hit hit = {NULL, NULL, NULL, NULL, false};
    const char *profile = set(env->profile) ? env->profile : "default";
    const char *where = NULL, *why = NULL;
    int rc = 0, got;

    memset(out, 0, sizeof(*out));
    if (set(env->access_key_id) && set(env->secret_access_key)) {
        out->access_key_id = ecf_xstrdup(env->access_key_id);
        out->secret_access_key = ecf_xstrdup(env->secret_access_key);
        if (set(env->session_token))
            out->session_token = ecf_xstrdup(env->session_token);
        out->source = ecf_xstrdup("environment");
        return 0;
    }
    if (set(env->access_key_id) != set(env->secret_access_key))
        return ecf_err_set(err, ECF_EINVAL,
                           "%s is set but %s is not",
                           set(env->access_key_id) ? "AWS_ACCESS_KEY_ID"
                                                   : "AWS_SECRET_ACCESS_KEY",
                           set(env->access_key_id) ? "AWS_SECRET_ACCESS_KEY"
                                                   : "AWS_ACCESS_KEY_ID");

    file_path(&cred_path, env->shared_credentials_file, env->home,
              "credentials");
    file_path(&conf_path, env->config_file, env->home, "config");

    /* Credentials file: sections are bare profile names. */
    got = read_optional(&text, cred_path.data, err);
    if (got < 0) {
        rc = got;
        goto out;
    }
    if (got > 0) {
        size_t bad = ini_scan(&hit, text.data, profile, NULL, &why);
        if (bad) {
            rc = ecf_err_set(err, ECF_EPARSE, "%s:%zu: %s", cred_path.data,
                             bad, why);
            goto out;
        }
        if (hit.key_id || hit.secret)
            where = cred_path.data;
    }
    /* Config file: "[profile NAME]", and "[default]" for the default. */
    if (!where) {
        ecf_buf_clear(&text);
        got = read_optional(&text, conf_path.data, err);
        if (got < 0) {
            rc = got;
            goto out;
        }
        if (got > 0) {
            ecf_buf_printf(&sect, "profile %s", profile);
            size_t bad = ini_scan(
                &hit, text.data, sect.data,
                strcmp(profile, "default") == 0 ? "default" : NULL, &why);
            if (bad) {
                rc = ecf_err_set(err, ECF_EPARSE, "%s:%zu: %s",
                                 conf_path.data, bad, why);
                goto out;
            }
            if (hit.key_id || hit.secret)
                where = conf_path.data;
        }
    }
    if (!where && set(env->profile) && !hit.section_found) {
        /* A profile asked for by name must exist, as in the AWS CLI ("The
         * config profile (NAME) could not be found"); falling back to no
         * credentials would hide a typo. */
        if (cred_path.len || conf_path.len)
            rc = ecf_err_set(err, ECF_EPARSE,
                             "AWS_PROFILE: the profile '%s' could not be "
                             "found in %s%s%s",
                             profile, cred_path.len ? cred_path.data : "",
                             cred_path.len && conf_path.len ? " or " : "",
                             conf_path.len ? conf_path.data : "");
        else
            rc = ecf_err_set(err, ECF_EPARSE,
                             "AWS_PROFILE: the profile '%s' could not be "
                             "found (HOME is not set, so there is no "
                             "~/.aws/credentials or ~/.aws/config)",
                             profile);
        goto out;
    }
    if (!where) {
        if (hit.section_found)
            rc = ecf_err_set(err, ECF_ENOTFOUND,
                             "profile '%s' has no aws_access_key_id/"
                             "aws_secret_access_key, role_arn, "
                             "sso_session or credential_process",
                             profile);
        else if (cred_path.len && conf_path.len)
            rc = ecf_err_set(err, ECF_ENOTFOUND,
                             "no AWS credentials: AWS_ACCESS_KEY_ID is not "
                             "set and profile '%s' is not in %s or %s",
                             profile, cred_path.data, conf_path.data);
        else if (cred_path.len || conf_path.len)
            rc = ecf_err_set(err, ECF_ENOTFOUND,
                             "no AWS credentials: AWS_ACCESS_KEY_ID is not "
                             "set and profile '%s' is not in %s",
                             profile,
                             cred_path.len ? cred_path.data : conf_path.data);
        else
            rc = ecf_err_set(err, ECF_ENOTFOUND,
                             "no AWS credentials: AWS_ACCESS_KEY_ID is not "
                             "set and HOME is not set (no ~/.aws files)");
        goto out;
    }
    if (!set(hit.key_id) || !set(hit.secret)) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: profile '%s' has %s but no %s", where, profile,
                         set(hit.key_id) ? "aws_access_key_id"
                                         : "aws_secret_access_key",
                         set(hit.key_id) ? "aws_secret_access_key"
                                         : "aws_access_key_id");
        goto out;
    }
    out->access_key_id = hit.key_id;
    out->secret_access_key = hit.secret;
    out->session_token = set(hit.token) ? hit.token : NULL;
    if (!out->session_token)
        wipe_free(hit.token);
    hit.key_id = hit.secret = hit.token = NULL;
    ecf_buf_clear(&sect);
    ecf_buf_printf(&sect, "%s [%s]", where, profile);
    out->source = ecf_buf_detach(&sect);
out:
    scan_dispose(&hit, &text);
    ecf_buf_dispose(&sect);
    ecf_buf_dispose(&cred_path);
    ecf_buf_dispose(&conf_path);
    return rc;
}

int ecf_awscreds_region(char *out, size_t n, const ecf_awscreds_env *env,
                        ecf_err *err)
{
    ecf_buf conf_path = ECF_BUF_INIT, text = ECF_BUF_INIT, sect = ECF_BUF_INIT;
    ecf_buf cred_path = ECF_BUF_INIT;
    ini_hit hit = {NULL, NULL, NULL, NULL, false};
    const char *profile = set(env->profile) ? env->profile : "default";
    const char *why = NULL;
    bool named = set(env->profile) && strcmp(env->profile, "default") != 0;
    size_t bad;
    int rc = 0, got;

    if (n > 0)
        out[0] = '\0';
    file_path(&conf_path, env->config_file, env->home, "config");
    got = read_optional(&text, conf_path.data, err);
    if (got < 0) {
        rc = got;
        goto out;
    }
    if (got > 0) {
        ecf_buf_printf(&sect, "profile %s", profile);
        bad = ini_scan(&hit, text.data, sect.data,
                       strcmp(profile, "default") == 0 ? "default" : NULL,
                       &why);
        if (bad) {
            /* as ecf_awscreds_resolve: the AWS CLI refuses the file */
            rc = ecf_err_set(err, ECF_EPARSE, "%s:%zu: %s", conf_path.data,
                             bad, why);
            goto out;
        }
        if (set(hit.region) && strlen(hit.region) < n) {
            memcpy(out, hit.region, strlen(hit.region) + 1);
            rc = 1;
            goto out;
        }
    }
    if (named && !hit.section_found) {
        /* the profile may live in the credentials file only (no region
         * then, and no error); in neither file it is a typo */
        scan_dispose(&hit, &text);
        memset(&hit, 0, sizeof(hit));
        file_path(&cred_path, env->shared_credentials_file, env->home,
                  "credentials");
        got = read_optional(&text, cred_path.data, err);
        if (got < 0) {
            rc = got;
            goto out;
        }
        if (got > 0 && ini_scan(&hit, text.data, profile, NULL, &why) == 0 &&
            hit.section_found)
            goto out;
        rc = ecf_err_set(err, ECF_EPARSE,
                         "AWS_PROFILE: the profile '%s' could not be found "
                         "in %s%s%s",
                         profile, cred_path.len ? cred_path.data : "",
                         cred_path.len && conf_path.len ? " or " : "",
                         conf_path.len ? conf_path.data
                                       : "(HOME is not set)");
    }
out:
    scan_dispose(&hit, &text);
    ecf_buf_dispose(&sect);
    ecf_buf_dispose(&conf_path);
    ecf_buf_dispose(&cred_path);
    return rc;
}
