/*
 * credparse.c - the answers of the credential providers: STS's Query API
 * XML, the JSON of IMDS, the container endpoint, credential_process and
 * the SSO portal, and credential_process's command line. Pure: no I/O.
 *
 * The XML reader is deliberately small: STS's answer is a fixed document
 * (AssumeRoleResponse/AssumeRoleResult/Credentials/...), so it looks for
 * the first <Credentials> element and the four leaf elements inside it,
 * and decodes the five predefined entities. Anything else is "no
 * <Credentials>". Values are copied into ecf_awscreds and never printed.
 */
#include "credchain_internal.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ec2fit/textsafe.h"

/* ---- time ----------------------------------------------------------------- */

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil), so no timegm() is needed. */
static long long days_from_civil(long long y, unsigned m, unsigned d)
{
    long long era;
    unsigned yoe, doy, doe;
    y -= m <= 2;
    era = (y >= 0 ? y : y - 399) / 400;
    yoe = (unsigned)(y - era * 400);
    doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (long long)doe - 719468;
}

static bool digits(const char *s, int n, int *out)
{
    int v = 0, i;
    for (i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return false;
        v = v * 10 + (s[i] - '0');
    }
    *out = v;
    return true;
}

int ecf_cred_parse_time(long long *out, const char *s)
{
    int y, mo, d, h, mi, se, oh = 0, om = 0;
    const char *p;
    long long t;

    if (!s || strlen(s) < 20 || !digits(s, 4, &y) || s[4] != '-' ||
        !digits(s + 5, 2, &mo) || s[7] != '-' || !digits(s + 8, 2, &d) ||
        (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) ||
        s[16] != ':' || !digits(s + 17, 2, &se))
        return ECF_EPARSE;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || se > 60)
        return ECF_EPARSE;
    p = s + 19;
    if (*p == '.') {
        p++;
        if (*p < '0' || *p > '9')
            return ECF_EPARSE;
        while (*p >= '0' && *p <= '9')
            p++;
    }
    if ((*p == 'Z' || *p == 'z') && p[1] == '\0') {
        /* UTC */
    } else if ((*p == '+' || *p == '-') && strlen(p) == 6 &&
               digits(p + 1, 2, &oh) && p[3] == ':' &&
               digits(p + 4, 2, &om) && oh <= 23 && om <= 59) {
        if (*p == '-') {
            oh = -oh;
            om = -om;
        }
    } else {
        return ECF_EPARSE;
    }
    t = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400LL +
        h * 3600LL + mi * 60LL + se;
    *out = t - (oh * 3600LL + om * 60LL);
    return 0;
}

/* ---- shared checks -------------------------------------------------------- */

static int check_expiry(const char *what, const char *expiration,
                        long long now, ecf_err *err)
{
    long long t;
    char shown[40];
    if (!expiration)
        return 0;
    ecf_textsafe(shown, sizeof(shown), expiration);
    if (ecf_cred_parse_time(&t, expiration) < 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: Expiration '%s' is not an ISO 8601 time",
                           what, shown);
    if (t <= now)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: the credentials expired at %s", what, shown);
    return 0;
}

static void fill(ecf_awscreds *out, const char *akid, const char *secret,
                 const char *token)
{
    out->access_key_id = ecf_xstrdup(akid);
    out->secret_access_key = ecf_xstrdup(secret);
    out->session_token = token && *token ? ecf_xstrdup(token) : NULL;
}

static const char *json_str(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

static int parse_object(cJSON **root, const char *body, size_t len,
                        const char *what, ecf_err *err)
{
    const char *end = NULL;
    *root = cJSON_ParseWithLengthOpts(body ? body : "", body ? len : 0, &end,
                                      0);
    if (!*root || !cJSON_IsObject(*root)) {
        cJSON_Delete(*root);
        *root = NULL;
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: the answer is not a JSON object", what);
    }
    return 0;
}

int ecf_cred_from_json(ecf_awscreds *out, const char *body, size_t len,
                       const char *what, int version, long long now,
                       ecf_err *err)
{
    cJSON *root = NULL;
    const char *akid, *secret, *token, *exp;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = parse_object(&root, body, len, what, err);
    if (rc < 0)
        return rc;
    if (version) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(root, "Version");
        if (!cJSON_IsNumber(v) || v->valuedouble != 1) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: \"Version\" must be 1", what);
            goto out;
        }
    }
    {
        /* IMDS says {"Code": "Success"}; anything else is its error */
        const char *code = json_str(root, "Code");
        if (code && strcmp(code, "Success") != 0) {
            char shown[64];
            ecf_textsafe(shown, sizeof(shown), code);
            rc = ecf_err_set(err, ECF_EPARSE, "%s: Code is '%s'", what,
                             shown);
            goto out;
        }
    }
    akid = json_str(root, "AccessKeyId");
    secret = json_str(root, "SecretAccessKey");
    token = json_str(root, "Token");
    if (!token)
        token = json_str(root, "SessionToken");
    exp = json_str(root, "Expiration");
    if (!akid || !*akid || !secret || !*secret) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: the answer has no %s", what,
                         !akid || !*akid ? "\"AccessKeyId\""
                                         : "\"SecretAccessKey\"");
        goto out;
    }
    rc = check_expiry(what, exp, now, err);
    if (rc < 0)
        goto out;
    fill(out, akid, secret, token);
out:
    cJSON_Delete(root);
    return rc;
}

int ecf_cred_from_sso_json(ecf_awscreds *out, const char *body, size_t len,
                           const char *what, long long now, ecf_err *err)
{
    cJSON *root = NULL;
    const cJSON *rc_obj, *exp;
    const char *akid, *secret, *token;
    int rc;

    memset(out, 0, sizeof(*out));
    rc = parse_object(&root, body, len, what, err);
    if (rc < 0)
        return rc;
    rc_obj = cJSON_GetObjectItemCaseSensitive(root, "roleCredentials");
    akid = json_str(rc_obj, "accessKeyId");
    secret = json_str(rc_obj, "secretAccessKey");
    token = json_str(rc_obj, "sessionToken");
    exp = cJSON_GetObjectItemCaseSensitive(rc_obj, "expiration");
    if (!cJSON_IsObject(rc_obj) || !akid || !*akid || !secret || !*secret) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: the answer has no roleCredentials", what);
        goto out;
    }
    if (cJSON_IsNumber(exp) && exp->valuedouble / 1000.0 <= (double)now) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: the credentials expired (expiration %.0f ms)",
                         what, exp->valuedouble);
        goto out;
    }
    fill(out, akid, secret, token);
out:
    cJSON_Delete(root);
    return rc;
}

/* ---- STS XML -------------------------------------------------------------- */

/* The text of the first <tag>...</tag> in [p, end), entity-decoded, or
 * NULL. */
static char *xml_text(const char *p, const char *end, const char *tag)
{
    char open[64], close[64];
    const char *a, *b;
    ecf_buf out = ECF_BUF_INIT;
    size_t ol;

    snprintf(open, sizeof(open), "<%s>", tag);
    snprintf(close, sizeof(close), "</%s>", tag);
    ol = strlen(open);
    a = strstr(p, open);
    if (!a || a >= end)
        return NULL;
    a += ol;
    b = strstr(a, close);
    if (!b || b > end)
        return NULL;
    while (a < b) {
        static const struct {
            const char *ent;
            char c;
        } ents[] = {{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'},
                    {"&quot;", '"'}, {"&apos;", '\''}};
        size_t i;
        bool done = false;
        if (*a == '&') {
            for (i = 0; i < sizeof(ents) / sizeof(ents[0]); i++) {
                size_t n = strlen(ents[i].ent);
                if ((size_t)(b - a) >= n && strncmp(a, ents[i].ent, n) == 0) {
                    ecf_buf_append(&out, &ents[i].c, 1);
                    a += n;
                    done = true;
                    break;
                }
            }
        }
        if (!done)
            ecf_buf_append(&out, a++, 1);
    }
    ecf_buf_append(&out, "", 0);
    if (!out.data)
        return ecf_xstrdup("");
    return ecf_buf_detach(&out);
}

static void wipe_free(char *s)
{
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

int ecf_cred_from_sts_xml(ecf_awscreds *out, const char *body,
                          const char *what, long long now, ecf_err *err)
{
    const char *c, *end;
    char *akid = NULL, *secret = NULL, *token = NULL, *exp = NULL;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    c = body ? strstr(body, "<Credentials>") : NULL;
    end = c ? strstr(c, "</Credentials>") : NULL;
    if (!c || !end)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: the answer has no <Credentials> element",
                           what);
    akid = xml_text(c, end, "AccessKeyId");
    secret = xml_text(c, end, "SecretAccessKey");
    token = xml_text(c, end, "SessionToken");
    exp = xml_text(c, end, "Expiration");
    if (!akid || !*akid || !secret || !*secret || !token || !*token) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: <Credentials> has no %s", what,
                         !akid || !*akid         ? "<AccessKeyId>"
                         : !secret || !*secret ? "<SecretAccessKey>"
                                               : "<SessionToken>");
        goto out;
    }
    rc = check_expiry(what, exp, now, err);
    if (rc == 0)
        fill(out, akid, secret, token);
out:
    wipe_free(akid);
    wipe_free(secret);
    wipe_free(token);
    free(exp);
    return rc;
}

void ecf_cred_add_service_message(ecf_err *err, const char *body)
{
    char *code = NULL, *msg = NULL, shown[160];
    size_t l;
    if (!err || !body)
        return;
    code = xml_text(body, body + strlen(body), "Code");
    msg = xml_text(body, body + strlen(body), "Message");
    if (!code && !msg) {
        cJSON *root = cJSON_Parse(body);
        const char *m = json_str(root, "message");
        if (!m)
            m = json_str(root, "Message");
        if (m)
            msg = ecf_xstrdup(m);
        cJSON_Delete(root);
    }
    l = strlen(err->msg);
    if (code && *code) {
        ecf_textsafe(shown, 64, code);
        snprintf(err->msg + l, sizeof(err->msg) - l, ": %s", shown);
        l = strlen(err->msg);
    }
    if (msg && *msg) {
        ecf_textsafe(shown, sizeof(shown), msg);
        snprintf(err->msg + l, sizeof(err->msg) - l, ": %s", shown);
    }
    free(code);
    free(msg);
}

/* ---- credential_process's command line ----------------------------------- */

void ecf_cred_free_words(char **words)
{
    size_t i;
    if (!words)
        return;
    for (i = 0; words[i]; i++)
        free(words[i]);
    free(words);
}

int ecf_cred_split_command(char ***words_out, const char *cmd, ecf_err *err)
{
    char **v = NULL;
    size_t n = 0;
    ecf_buf w = ECF_BUF_INIT;
    bool in_word = false;
    const char *p = cmd;

    *words_out = NULL;
    for (;;) {
        char c = *p;
        if (c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\r') {
            if (in_word) {
                ecf_buf_append(&w, "", 0);
                v = ecf_xrealloc(v, (n + 2) * sizeof(char *));
                v[n++] = w.data ? ecf_buf_detach(&w) : ecf_xstrdup("");
                v[n] = NULL;
                in_word = false;
            }
            if (c == '\0')
                break;
            p++;
            continue;
        }
        in_word = true;
        if (c == '\'') {
            const char *q = strchr(p + 1, '\'');
            if (!q)
                goto unterminated;
            ecf_buf_append(&w, p + 1, (size_t)(q - p - 1));
            p = q + 1;
        } else if (c == '"') {
            p++;
            while (*p && *p != '"') {
                if (*p == '\\' && p[1] &&
                    strchr("\"\\$`", p[1])) /* POSIX shlex escapes */
                    p++;
                ecf_buf_append(&w, p++, 1);
            }
            if (*p != '"')
                goto unterminated;
            p++;
        } else if (c == '\\') {
            if (!p[1]) {
                ecf_cred_free_words(v);
                ecf_buf_dispose(&w);
                return ecf_err_set(err, ECF_EINVAL,
                                   "credential_process: ends with a "
                                   "backslash");
            }
            ecf_buf_append(&w, p + 1, 1);
            p += 2;
        } else {
            ecf_buf_append(&w, p++, 1);
        }
    }
    if (n == 0) {
        free(v);
        return ecf_err_set(err, ECF_EINVAL, "credential_process: empty "
                                            "command");
    }
    *words_out = v;
    return 0;
unterminated:
    ecf_cred_free_words(v);
    ecf_buf_dispose(&w);
    return ecf_err_set(err, ECF_EINVAL,
                       "credential_process: unterminated quote");
}
