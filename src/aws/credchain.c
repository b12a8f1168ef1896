/*
 * credchain.c - the AWS SDKs' default credential chain (credchain.h):
 * environment, web identity, the profile (AssumeRole, SSO, static keys,
 * credential_process), container credentials, IMDSv2.
 *
 * Static keys keep going through ecf_awscreds_resolve, so the shared
 * files are validated and reported exactly as before; this file only
 * reads the extra profile keys (role_arn, source_profile, sso_*,
 * credential_process, ...) with the same INI dialect. Every provider's
 * message says which provider failed and why, never a secret: the token
 * file's content, the SSO access token and the container token travel in
 * request headers or bodies that http.c redacts from its trace.
 */
#include "ec2fit/credchain.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "credchain_internal.h"
#include "ini.h"
#include "ec2fit/buf.h"
#include "ec2fit/crypto.h"
#include "ec2fit/sigv4.h"
#include "ec2fit/textsafe.h"

#define STS_VERSION "2011-06-15"
#define IMDS_DEFAULT "http://169.254.169.254"
#define IMDS_DEFAULT_V6 "http://[fd00:ec2::254]"
#define ECS_HOST_URL "http://169.254.170.2"
#define MAX_TOKEN_BYTES (64u * 1024u)

static bool set(const char *s)
{
    return s && *s;
}

static void wipe_buf(ecf_buf *b)
{
    if (b->data)
        memset(b->data, 0, b->len);
    ecf_buf_dispose(b);
}

/* ---- the shared files: extra profile keys -------------------------------- */

typedef struct {
    ecf_buf cred; /* ~/.aws/credentials text, empty when absent */
    ecf_buf conf; /* ~/.aws/config text */
    char *cred_path, *conf_path;
} ini_files;

static char *file_path(const char *explicit_path, const char *home,
                       const char *name)
{
    ecf_buf b = ECF_BUF_INIT;
    if (set(explicit_path))
        return ecf_xstrdup(explicit_path);
    if (!set(home))
        return NULL;
    ecf_buf_printf(&b, "%s/.aws/%s", home, name);
    return ecf_buf_detach(&b);
}

/* Reads what can be read; a file that exists but cannot be read is left
 * empty here and reported by ecf_awscreds_resolve, which reads it too. */
static void files_load(ini_files *f, const ecf_awscreds_env *env)
{
    memset(f, 0, sizeof(*f));
    f->cred_path = file_path(env->shared_credentials_file, env->home,
                             "credentials");
    f->conf_path = file_path(env->config_file, env->home, "config");
    if (f->cred_path &&
        ecf_buf_read_file(&f->cred, f->cred_path,
                          ECF_AWSCREDS_MAX_FILE_BYTES, NULL) < 0)
        ecf_buf_dispose(&f->cred);
    if (f->conf_path &&
        ecf_buf_read_file(&f->conf, f->conf_path,
                          ECF_AWSCREDS_MAX_FILE_BYTES, NULL) < 0)
        ecf_buf_dispose(&f->conf);
}

static void files_dispose(ini_files *f)
{
    wipe_buf(&f->cred);
    wipe_buf(&f->conf);
    free(f->cred_path);
    free(f->conf_path);
}

/* The last value of `key` in the sections named `want` (or `alt`), NULL
 * when none; *found says whether such a section exists. */
static char *ini_get(const char *text, const char *want, const char *alt,
                     const char *key, bool *found)
{
    const char *p = text;
    char *value = NULL;
    bool in = false;
    if (!text)
        return NULL;
    while (*p) {
        const char *eol = strchr(p, '\n');
        size_t n = eol ? (size_t)(eol - p) : strlen(p);
        const char *line = p;
        p = eol ? eol + 1 : p + n;
        if (n == 0 || line[0] == ' ' || line[0] == '\t' || line[0] == '#' ||
            line[0] == ';')
            continue;
        if (line[0] == '[') {
            const char *close = memchr(line, ']', n);
            size_t inner = close ? (size_t)(close - line - 1) : n - 1;
            in = ecf_ini_section_is(line + 1, inner, want) ||
                 (alt && ecf_ini_section_is(line + 1, inner, alt));
            if (in && found)
                *found = true;
            continue;
        }
        if (in) {
            const char *eq = memchr(line, '=', n);
            const char *colon = memchr(line, ':', n);
            char *k;
            if (colon && (!eq || colon < eq))
                eq = colon;
            if (!eq)
                continue;
            k = ecf_ini_trimmed(line, (size_t)(eq - line));
            if (strcasecmp(k, key) == 0) {
                free(value);
                value = ecf_ini_trimmed(eq + 1, n - (size_t)(eq - line) - 1);
            }
            free(k);
        }
    }
    return value;
}

/* A profile key: the credentials file's [NAME] first, then the config
 * file's [profile NAME] ([default] too for the default profile). */
static char *profile_get(const ini_files *f, const char *profile,
                         const char *key)
{
    char sect[300];
    char *v = ini_get(f->cred.data, profile, NULL, key, NULL);
    if (v && *v)
        return v;
    free(v);
    snprintf(sect, sizeof(sect), "profile %s", profile);
    v = ini_get(f->conf.data, sect,
                strcmp(profile, "default") == 0 ? "default" : NULL, key,
                NULL);
    if (v && !*v) {
        free(v);
        v = NULL;
    }
    return v;
}

static bool profile_exists(const ini_files *f, const char *profile)
{
    char sect[300];
    bool found = false;
    free(ini_get(f->cred.data, profile, NULL, "-", &found));
    snprintf(sect, sizeof(sect), "profile %s", profile);
    free(ini_get(f->conf.data, sect,
                 strcmp(profile, "default") == 0 ? "default" : NULL, "-",
                 &found));
    return found;
}

/* ---- requests ------------------------------------------------------------- */

static void form_add(ecf_buf *b, const char *key, const char *value)
{
    if (b->len)
        ecf_buf_puts(b, "&");
    ecf_buf_puts(b, key);
    ecf_buf_puts(b, "=");
    ecf_sigv4_uri_encode(b, value, strlen(value), 0);
}

typedef struct {
    const ecf_credchain_env *env;
    const ecf_http_opts *hopts;
    ini_files files;
} chain;

static const char *sts_region(const chain *c)
{
    return set(c->env->region) ? c->env->region : "us-east-1";
}

static char *sts_url(const chain *c)
{
    ecf_buf b = ECF_BUF_INIT;
    if (set(c->env->sts_endpoint))
        return ecf_xstrdup(c->env->sts_endpoint);
    if (set(c->env->region))
        ecf_buf_printf(&b, "https://sts.%s.amazonaws.com/", c->env->region);
    else
        ecf_buf_puts(&b, "https://sts.amazonaws.com/");
    return ecf_buf_detach(&b);
}

/* POSTs a Query API form to STS, signed with `signer` when it is set,
 * and parses the <Credentials>. `what` prefixes messages. */
static int sts_call(ecf_awscreds *out, chain *c, const ecf_buf *form,
                    const ecf_awscreds *signer, const char *what,
                    ecf_err *err)
{
    static const char ctype[] =
        "application/x-www-form-urlencoded; charset=utf-8";
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    ecf_sigv4_result sig = ECF_SIGV4_RESULT_INIT;
    ecf_http_header hh[6];
    ecf_http_request req;
    char *url = sts_url(c), *host = NULL, *path = NULL;
    char amz_date[17];
    size_t n = 0;
    int rc;

    rc = ecf_http_split_url(&host, &path, url, err);
    if (rc < 0)
        goto out;
    hh[n++] = (ecf_http_header){"Content-Type", ctype};
    if (signer) {
        ecf_sigv4_header sh[5];
        ecf_sigv4_request sr;
        ecf_sigv4_creds sc;
        size_t m = 0, i;
        ecf_sigv4_format_date(amz_date, (time_t)c->env->now);
        sh[m++] = (ecf_sigv4_header){"Host", host};
        sh[m++] = (ecf_sigv4_header){"X-Amz-Date", amz_date};
        sh[m++] = (ecf_sigv4_header){"Content-Type", ctype};
        if (signer->session_token)
            sh[m++] = (ecf_sigv4_header){"X-Amz-Security-Token",
                                         signer->session_token};
        memset(&sr, 0, sizeof(sr));
        sr.method = "POST";
        sr.path = path;
        sr.headers = sh;
        sr.n_headers = m;
        sr.payload = form->data;
        sr.payload_len = form->len;
        sr.region = sts_region(c);
        sr.service = "sts";
        sr.amz_date = amz_date;
        sr.flags = ECF_SIGV4_NORMALIZE_PATH;
        sc.access_key_id = signer->access_key_id;
        sc.secret_access_key = signer->secret_access_key;
        sc.session_token = signer->session_token;
        rc = ecf_sigv4_sign(&sig, &sr, &sc, err);
        if (rc < 0)
            goto out;
        n = 0;
        for (i = 0; i < m; i++)
            hh[n++] = (ecf_http_header){sh[i].name, sh[i].value};
        hh[n++] = (ecf_http_header){"Authorization", sig.authorization};
    }
    req.method = "POST";
    req.url = url;
    req.headers = hh;
    req.n_headers = n;
    req.body = form->data;
    req.body_len = form->len;
    rc = ecf_http_send(&res, &req, c->hopts, err);
    if (rc == ECF_EHTTP)
        ecf_cred_add_service_message(err, res.body.data);
    if (rc == 0)
        rc = ecf_cred_from_sts_xml(out, res.body.data, what, c->env->now,
                                   err);
    else
        ecf_err_prefix(err, "%s", what);
out:
    wipe_buf(&res.body);
    ecf_sigv4_result_dispose(&sig);
    free(url);
    free(host);
    free(path);
    return rc;
}

static void session_name(ecf_buf *b, const char *given, long long now)
{
    if (set(given))
        ecf_buf_puts(b, given);
    else
        ecf_buf_printf(b, "ec2fit-%lld", now);
}

/* A GET whose JSON answer holds credentials (IMDS, container, SSO). */
static int get_json(ecf_http_response *res, const char *url,
                    const ecf_http_header *hh, size_t n,
                    const ecf_http_opts *hopts, const char *what,
                    ecf_err *err)
{
    ecf_http_request req = {"GET", url, hh, n, NULL, 0};
    int rc = ecf_http_send(res, &req, hopts, err);
    if (rc == ECF_EHTTP)
        ecf_cred_add_service_message(err, res->body.data);
    if (rc < 0)
        ecf_err_prefix(err, "%s", what);
    return rc;
}

/* ---- providers ------------------------------------------------------------ */

static int web_identity(ecf_awscreds *out, chain *c, ecf_err *err)
{
    const ecf_credchain_env *e = c->env;
    ecf_buf token = ECF_BUF_INIT, form = ECF_BUF_INIT, name = ECF_BUF_INIT;
    int rc;

    if (!set(e->role_arn))
        return ecf_err_set(err, ECF_EINVAL,
                           "AWS_WEB_IDENTITY_TOKEN_FILE is set but "
                           "AWS_ROLE_ARN is not");
    rc = ecf_buf_read_file(&token, e->web_identity_token_file,
                           MAX_TOKEN_BYTES, err);
    if (rc < 0) {
        ecf_err_prefix(err, "web identity: AWS_WEB_IDENTITY_TOKEN_FILE");
        goto out;
    }
    while (token.len && (token.data[token.len - 1] == '\n' ||
                         token.data[token.len - 1] == '\r' ||
                         token.data[token.len - 1] == ' '))
        token.data[--token.len] = '\0';
    if (token.len == 0) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "web identity: AWS_WEB_IDENTITY_TOKEN_FILE: %s: "
                         "empty token",
                         e->web_identity_token_file);
        goto out;
    }
    session_name(&name, e->role_session_name, e->now);
    form_add(&form, "Action", "AssumeRoleWithWebIdentity");
    form_add(&form, "RoleArn", e->role_arn);
    form_add(&form, "RoleSessionName", name.data);
    form_add(&form, "Version", STS_VERSION);
    form_add(&form, "WebIdentityToken", token.data);
    rc = sts_call(out, c, &form, NULL,
                  "web identity: STS AssumeRoleWithWebIdentity", err);
    if (rc == 0) {
        ecf_buf src = ECF_BUF_INIT;
        ecf_buf_printf(&src, "web identity (%s)", e->role_arn);
        out->source = ecf_buf_detach(&src);
    }
out:
    wipe_buf(&token);
    wipe_buf(&form);
    ecf_buf_dispose(&name);
    return rc;
}

static int from_profile(ecf_awscreds *out, chain *c, const char *profile,
                        int depth, ecf_err *err);

static int assume_role(ecf_awscreds *out, chain *c, const char *profile,
                       const char *role_arn, int depth, ecf_err *err)
{
    char *src = profile_get(&c->files, profile, "source_profile");
    char *ext = NULL, *dur = NULL, *sname = NULL;
    ecf_awscreds base = ECF_AWSCREDS_INIT;
    ecf_buf form = ECF_BUF_INIT, name = ECF_BUF_INIT, what = ECF_BUF_INIT;
    int rc;

    if (!src) {
        char *cs = profile_get(&c->files, profile, "credential_source");
        rc = ecf_err_set(err, ECF_EINVAL,
                         "profile '%s': role_arn needs source_profile%s",
                         profile,
                         cs ? " (credential_source is not supported)" : "");
        free(cs);
        goto out;
    }
    if (depth + 1 >= ECF_CREDCHAIN_MAX_DEPTH) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "profile '%s': source_profile chain longer than %d "
                         "profiles (a cycle?)",
                         profile, ECF_CREDCHAIN_MAX_DEPTH);
        goto out;
    }
    if (!profile_exists(&c->files, src)) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "profile '%s': source_profile '%s' could not be "
                         "found",
                         profile, src);
        goto out;
    }
    if (strcmp(src, profile) == 0) {
        /* botocore: a profile that is its own source uses its keys */
        ecf_awscreds_env fe = c->env->files;
        fe.access_key_id = fe.secret_access_key = fe.session_token = NULL;
        fe.profile = profile;
        rc = ecf_awscreds_resolve(&base, &fe, err);
    } else {
        rc = from_profile(&base, c, src, depth + 1, err);
    }
    if (rc < 0) {
        if (rc == ECF_ENOTFOUND)
            rc = ecf_err_set(err, ECF_EINVAL,
                             "profile '%s': source_profile '%s' has no "
                             "credentials",
                             profile, src);
        goto out;
    }
    ext = profile_get(&c->files, profile, "external_id");
    dur = profile_get(&c->files, profile, "duration_seconds");
    sname = profile_get(&c->files, profile, "role_session_name");
    session_name(&name, sname, c->env->now);
    form_add(&form, "Action", "AssumeRole");
    if (dur)
        form_add(&form, "DurationSeconds", dur);
    if (ext)
        form_add(&form, "ExternalId", ext);
    form_add(&form, "RoleArn", role_arn);
    form_add(&form, "RoleSessionName", name.data);
    form_add(&form, "Version", STS_VERSION);
    ecf_buf_printf(&what, "profile '%s': STS AssumeRole", profile);
    rc = sts_call(out, c, &form, &base, what.data, err);
    if (rc == 0) {
        ecf_buf s = ECF_BUF_INIT;
        ecf_buf_printf(&s, "profile %s: role %s (source_profile %s)",
                       profile, role_arn, src);
        out->source = ecf_buf_detach(&s);
    }
out:
    ecf_awscreds_dispose(&base);
    ecf_buf_dispose(&form);
    ecf_buf_dispose(&name);
    ecf_buf_dispose(&what);
    free(src);
    free(ext);
    free(dur);
    free(sname);
    return rc;
}

static int sso(ecf_awscreds *out, chain *c, const char *profile,
               const char *session, ecf_err *err)
{
    char *acct = profile_get(&c->files, profile, "sso_account_id");
    char *role = profile_get(&c->files, profile, "sso_role_name");
    char *region = NULL, *start = NULL, *tok = NULL, *exp = NULL;
    char hex[ECF_SHA1_HEX_LEN + 1];
    ecf_buf cache = ECF_BUF_INIT, text = ECF_BUF_INIT, url = ECF_BUF_INIT;
    ecf_buf what = ECF_BUF_INIT, hint = ECF_BUF_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    long long t;
    int rc = 0;

    if (session) {
        char sect[300];
        snprintf(sect, sizeof(sect), "sso-session %s", session);
        region = ini_get(c->files.conf.data, sect, NULL, "sso_region", NULL);
        start = ini_get(c->files.conf.data, sect, NULL, "sso_start_url",
                        NULL);
        ecf_buf_printf(&hint, "aws sso login --sso-session %s", session);
    } else {
        region = profile_get(&c->files, profile, "sso_region");
        start = profile_get(&c->files, profile, "sso_start_url");
        ecf_buf_printf(&hint, "aws sso login --profile %s", profile);
    }
    ecf_buf_printf(&what, "profile '%s': SSO", profile);
    if (!set(acct) || !set(role) || !set(region) || !set(start)) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: %s is not set", what.data,
                         !set(acct)     ? "sso_account_id"
                         : !set(role)   ? "sso_role_name"
                         : !set(region) ? "sso_region"
                                        : "sso_start_url");
        goto out;
    }
    if (!set(c->env->files.home)) {
        rc = ecf_err_set(err, ECF_EIO,
                         "%s: HOME is not set (no ~/.aws/sso/cache)",
                         what.data);
        goto out;
    }
    /* the cache key: the session name, or the legacy profile's start URL */
    if (session)
        ecf_crypto_sha1_hex(hex, session, strlen(session));
    else
        ecf_crypto_sha1_hex(hex, start, strlen(start));
    ecf_buf_printf(&cache, "%s/.aws/sso/cache/%s.json", c->env->files.home,
                   hex);
    rc = ecf_buf_read_file(&text, cache.data, ECF_CRED_MAX_BYTES, err);
    if (rc < 0) {
        ecf_err_prefix(err, "%s: token cache", what.data);
        snprintf(err->msg + strlen(err->msg),
                 sizeof(err->msg) - strlen(err->msg), " (run %s)",
                 hint.data);
        goto out;
    }
    {
        /* the token cache: {"accessToken", "expiresAt", ...} */
        const char *end = NULL;
        cJSON *root = cJSON_ParseWithLengthOpts(text.data, text.len, &end, 0);
        const cJSON *a = cJSON_GetObjectItemCaseSensitive(root, "accessToken");
        const cJSON *x = cJSON_GetObjectItemCaseSensitive(root, "expiresAt");
        if (cJSON_IsString(a) && a->valuestring && *a->valuestring)
            tok = ecf_xstrdup(a->valuestring);
        if (cJSON_IsString(x) && x->valuestring)
            exp = ecf_xstrdup(x->valuestring);
        cJSON_Delete(root);
    }
    if (!tok || !exp || ecf_cred_parse_time(&t, exp) < 0) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: token cache %s: no accessToken/expiresAt "
                         "(run %s)",
                         what.data, cache.data, hint.data);
        goto out;
    }
    if (t <= c->env->now) {
        char shown[40];
        ecf_textsafe(shown, sizeof(shown), exp);
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: the SSO token expired at %s (run %s)",
                         what.data, shown, hint.data);
        goto out;
    }
    if (set(c->env->sso_endpoint))
        ecf_buf_puts(&url, c->env->sso_endpoint);
    else
        ecf_buf_printf(&url, "https://portal.sso.%s.amazonaws.com", region);
    while (url.len && url.data[url.len - 1] == '/')
        url.data[--url.len] = '\0';
    ecf_buf_puts(&url, "/federation/credentials?account_id=");
    ecf_sigv4_uri_encode(&url, acct, strlen(acct), 0);
    ecf_buf_puts(&url, "&role_name=");
    ecf_sigv4_uri_encode(&url, role, strlen(role), 0);
    {
        ecf_http_header hh[1] = {{"x-amz-sso_bearer_token", tok}};
        ecf_buf w2 = ECF_BUF_INIT;
        ecf_buf_printf(&w2, "%s: GetRoleCredentials", what.data);
        rc = get_json(&res, url.data, hh, 1, c->hopts, w2.data, err);
        if (rc == 0)
            rc = ecf_cred_from_sso_json(out, res.body.data, res.body.len,
                                        w2.data, c->env->now, err);
        ecf_buf_dispose(&w2);
    }
    if (rc == 0) {
        ecf_buf s = ECF_BUF_INIT;
        ecf_buf_printf(&s, "profile %s: SSO account %s role %s", profile,
                       acct, role);
        out->source = ecf_buf_detach(&s);
    }
out:
    wipe_buf(&res.body);
    wipe_buf(&text);
    ecf_buf_dispose(&cache);
    ecf_buf_dispose(&url);
    ecf_buf_dispose(&what);
    ecf_buf_dispose(&hint);
    if (tok) {
        memset(tok, 0, strlen(tok));
        free(tok);
    }
    free(exp);
    free(acct);
    free(role);
    free(region);
    free(start);
    return rc;
}

static int process(ecf_awscreds *out, chain *c, const char *profile,
                   const char *cmd, ecf_err *err)
{
    char **words = NULL;
    ecf_buf text = ECF_BUF_INIT, what = ECF_BUF_INIT;
    int rc;

    ecf_buf_printf(&what, "profile '%s': credential_process", profile);
    rc = ecf_cred_split_command(&words, cmd, err);
    if (rc == 0)
        rc = ecf_cred_run_process(&text, words, err);
    if (rc < 0) {
        /* split_command's messages already start "credential_process:" */
        if (strncmp(err->msg, "credential_process", 18) == 0)
            ecf_err_prefix(err, "profile '%s'", profile);
        else
            ecf_err_prefix(err, "%s", what.data);
        goto out;
    }
    rc = ecf_cred_from_json(out, text.data, text.len, what.data, 1,
                            c->env->now, err);
    if (rc == 0) {
        ecf_buf s = ECF_BUF_INIT;
        ecf_buf_printf(&s, "profile %s: credential_process", profile);
        out->source = ecf_buf_detach(&s);
    }
out:
    ecf_cred_free_words(words);
    wipe_buf(&text);
    ecf_buf_dispose(&what);
    return rc;
}

/* The profile's own credentials, in botocore's order: role_arn (AssumeRole)
 * and SSO first, then the credentials file's static keys, then
 * credential_process, then the config file's static keys. ECF_ENOTFOUND
 * (message from ecf_awscreds_resolve) when the profile yields none. */
static int from_profile(ecf_awscreds *out, chain *c, const char *profile,
                        int depth, ecf_err *err)
{
    char *role = profile_get(&c->files, profile, "role_arn");
    char *sess = NULL, *start = NULL, *cmd = NULL, *cred_key = NULL;
    ecf_awscreds_env fe = c->env->files;
    int rc;

    memset(out, 0, sizeof(*out));
    if (role) {
        rc = assume_role(out, c, profile, role, depth, err);
        goto out;
    }
    sess = profile_get(&c->files, profile, "sso_session");
    start = profile_get(&c->files, profile, "sso_start_url");
    if (sess || start) {
        rc = sso(out, c, profile, sess, err);
        goto out;
    }
    cmd = profile_get(&c->files, profile, "credential_process");
    cred_key = ini_get(c->files.cred.data, profile, NULL,
                       "aws_access_key_id", NULL);
    if (cmd && !cred_key) {
        rc = process(out, c, profile, cmd, err);
        goto out;
    }
    fe.access_key_id = fe.secret_access_key = fe.session_token = NULL;
    fe.profile = profile;
    if (depth == 0)
        fe.profile = c->env->files.profile; /* AWS_PROFILE's own rules */
    rc = ecf_awscreds_resolve(out, &fe, err);
out:
    free(role);
    free(sess);
    free(start);
    free(cmd);
    free(cred_key);
    return rc;
}

static int container(ecf_awscreds *out, chain *c, ecf_err *err)
{
    const ecf_credchain_env *e = c->env;
    ecf_buf url = ECF_BUF_INIT, tok = ECF_BUF_INIT;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    ecf_http_opts ho = *c->hopts;
    ecf_http_header hh[1];
    const char *what = set(e->container_relative_uri)
                           ? "container credentials "
                             "(AWS_CONTAINER_CREDENTIALS_RELATIVE_URI)"
                           : "container credentials "
                             "(AWS_CONTAINER_CREDENTIALS_FULL_URI)";
    size_t n = 0;
    int rc = 0;

    if (set(e->container_relative_uri)) {
        ecf_buf_printf(&url, "%s%s%s", ECS_HOST_URL,
                       e->container_relative_uri[0] == '/' ? "" : "/",
                       e->container_relative_uri);
    } else {
        ecf_buf_puts(&url, e->container_full_uri);
    }
    if (set(e->container_token_file)) {
        rc = ecf_buf_read_file(&tok, e->container_token_file,
                               MAX_TOKEN_BYTES, err);
        if (rc < 0) {
            ecf_err_prefix(err,
                           "container credentials: "
                           "AWS_CONTAINER_AUTHORIZATION_TOKEN_FILE");
            goto out;
        }
        while (tok.len && (tok.data[tok.len - 1] == '\n' ||
                           tok.data[tok.len - 1] == '\r'))
            tok.data[--tok.len] = '\0';
    } else if (set(e->container_token)) {
        ecf_buf_puts(&tok, e->container_token);
    }
    if (tok.len) {
        size_t i;
        for (i = 0; i < tok.len; i++)
            if ((unsigned char)tok.data[i] < 0x20 || tok.data[i] == 0x7f) {
                rc = ecf_err_set(err, ECF_EINVAL,
                                 "container credentials: the authorization "
                                 "token contains a control character");
                goto out;
            }
        hh[n++] = (ecf_http_header){"Authorization", tok.data};
    }
    ho.link_local_http = true;
    rc = get_json(&res, url.data, hh, n, &ho, what, err);
    if (rc == 0)
        rc = ecf_cred_from_json(out, res.body.data, res.body.len, what, 0,
                                e->now, err);
    if (rc == 0)
        out->source = ecf_xstrdup("container credentials");
out:
    wipe_buf(&res.body);
    wipe_buf(&tok);
    ecf_buf_dispose(&url);
    return rc;
}

/* IMDSv2. Returns ECF_ENOTFOUND (message: why) when there is no metadata
 * service to talk to: a transport failure or a 404 on the token PUT. */
static int imds(ecf_awscreds *out, chain *c, ecf_err *err)
{
    const ecf_credchain_env *e = c->env;
    const char *base = set(e->imds_endpoint) ? e->imds_endpoint
                       : e->imds_ipv6        ? IMDS_DEFAULT_V6
                                             : IMDS_DEFAULT;
    ecf_http_opts ho = *c->hopts;
    ecf_http_response res = ECF_HTTP_RESPONSE_INIT;
    ecf_buf url = ECF_BUF_INIT, token = ECF_BUF_INIT, what = ECF_BUF_INIT;
    char *role = NULL;
    size_t blen = strlen(base);
    int rc;

    while (blen && base[blen - 1] == '/')
        blen--;
    /* the SDKs' defaults: 1 s, one attempt (AWS_METADATA_SERVICE_TIMEOUT,
     * AWS_METADATA_SERVICE_NUM_ATTEMPTS) */
    ho.timeout_ms = ho.connect_timeout_ms = 1000;
    ho.retries = 0;
    ho.link_local_http = true;
    ho.progress = NULL;
    {
        ecf_http_header hh[1] = {
            {"X-aws-ec2-metadata-token-ttl-seconds", "21600"}};
        ecf_http_request req = {"PUT", NULL, hh, 1, "", 0};
        ecf_buf_printf(&url, "%.*s/latest/api/token", (int)blen, base);
        req.url = url.data;
        rc = ecf_http_send(&res, &req, &ho, err);
        if (rc == ECF_EIO || rc == ECF_EHTTP) {
            /* as botocore: no answer, or a refusal, from the token PUT
             * means there is no IMDSv2 here (a host off EC2, a proxy
             * answering for 169.254.169.254), not a broken one */
            ecf_err_prefix(err, "no instance role (IMDSv2 PUT %s", url.data);
            snprintf(err->msg + strlen(err->msg),
                     sizeof(err->msg) - strlen(err->msg), ")");
            rc = ECF_ENOTFOUND;
            err->code = ECF_ENOTFOUND;
            goto out;
        }
        if (rc < 0) {
            ecf_err_prefix(err, "instance role: IMDSv2 token (PUT "
                                "/latest/api/token)");
            goto out;
        }
        ecf_buf_append(&token, res.body.data, res.body.len);
        while (token.len && (token.data[token.len - 1] == '\n' ||
                             token.data[token.len - 1] == '\r'))
            token.data[--token.len] = '\0';
        if (token.len == 0 || ecf_textsafe_needed(token.data)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "instance role: IMDSv2 token (PUT "
                             "/latest/api/token): empty or not printable");
            goto out;
        }
    }
    {
        ecf_http_header hh[1] = {{"X-aws-ec2-metadata-token", token.data}};
        static const char path[] = "/latest/meta-data/iam/security-credentials/";
        size_t l;
        ecf_buf_clear(&url);
        ecf_buf_printf(&url, "%.*s%s", (int)blen, base, path);
        ecf_buf_printf(&what, "instance role: IMDSv2 GET %s", path);
        rc = get_json(&res, url.data, hh, 1, &ho, what.data, err);
        if (rc < 0)
            goto out;
        l = strcspn(res.body.data ? res.body.data : "", "\r\n");
        role = ecf_xmalloc(l + 1);
        memcpy(role, res.body.data ? res.body.data : "", l);
        role[l] = '\0';
        if (l == 0 || strchr(role, '/') || ecf_textsafe_needed(role)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: no instance profile role listed", what.data);
            goto out;
        }
        ecf_buf_puts(&url, role);
        ecf_buf_clear(&what);
        ecf_buf_printf(&what, "instance role: IMDSv2 GET %s%s", path, role);
        rc = get_json(&res, url.data, hh, 1, &ho, what.data, err);
        if (rc == 0)
            rc = ecf_cred_from_json(out, res.body.data, res.body.len,
                                    what.data, 0, e->now, err);
    }
    if (rc == 0) {
        ecf_buf s = ECF_BUF_INIT;
        ecf_buf_printf(&s, "instance role %s (IMDSv2)", role);
        out->source = ecf_buf_detach(&s);
    }
out:
    wipe_buf(&res.body);
    wipe_buf(&token);
    ecf_buf_dispose(&url);
    ecf_buf_dispose(&what);
    free(role);
    return rc;
}

int ecf_credchain_resolve(ecf_awscreds *out, const ecf_credchain_env *env,
                          const ecf_http_opts *hopts, ecf_err *err)
{
    static const ecf_http_opts defaults = ECF_HTTP_OPTS_INIT;
    chain c;
    int rc;

    memset(out, 0, sizeof(*out));
    /* 1. environment (also: half-set keys are an error) */
    if (set(env->files.access_key_id) || set(env->files.secret_access_key))
        return ecf_awscreds_resolve(out, &env->files, err);
    memset(&c, 0, sizeof(c));
    c.env = env;
    c.hopts = hopts ? hopts : &defaults;
    /* 2. web identity */
    if (set(env->web_identity_token_file))
        return web_identity(out, &c, err);
    /* 3. the profile */
    files_load(&c.files, &env->files);
    rc = from_profile(out, &c, set(env->files.profile) ? env->files.profile
                                                        : "default",
                      0, err);
    files_dispose(&c.files);
    if (rc != ECF_ENOTFOUND)
        return rc;
    /* 4. container credentials */
    if (set(env->container_relative_uri) || set(env->container_full_uri)) {
        ecf_awscreds_dispose(out);
        return container(out, &c, err);
    }
    /* 5. IMDSv2 */
    if (!env->imds_disabled) {
        ecf_err ierr = ECF_ERR_INIT;
        char first[sizeof(err->msg)];
        ecf_awscreds_dispose(out);
        rc = imds(out, &c, &ierr);
        if (rc != ECF_ENOTFOUND) {
            if (rc < 0 && err)
                *err = ierr;
            return rc;
        }
        /* both reasons: the files', then the metadata service's */
        snprintf(first, sizeof(first), "%s", err ? err->msg : "");
        return ecf_err_set(err, ECF_ENOTFOUND, "%s; %s", first, ierr.msg);
    }
    return ECF_ENOTFOUND;
}
