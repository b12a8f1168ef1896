/*
 * sigv4.c - AWS Signature Version 4, header-based, as the AWS General
 * Reference describes it ("Create a canonical request", "Create a string to
 * sign", "Calculate the signature"). Pure: no clock, no environment, no
 * I/O; the hashes come from crypto.h.
 *
 * Invariant checked by tests/unit/test_sigv4.c: every case of the official
 * test suite reproduces its .creq, .sts and .authz byte for byte.
 */
#include "ec2fit/sigv4.h"

#include <stdlib.h>
#include <string.h>

#include "ec2fit/crypto.h"

#define MAX_HEADERS 64
#define MAX_QUERY_PARAMS 256
#define ALGORITHM "AWS4-HMAC-SHA256"

static int is_unreserved(unsigned char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') ||
           (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_' ||
           c == '~';
}

void ecf_sigv4_uri_encode(ecf_buf *out, const char *s, size_t len,
                          int keep_slash)
{
    static const char hex[] = "0123456789ABCDEF";
    size_t i;
    for (i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        if (is_unreserved(c) || (keep_slash && c == '/')) {
            ecf_buf_append(out, &s[i], 1);
        } else {
            char enc[3] = {'%', hex[c >> 4], hex[c & 0xf]};
            ecf_buf_append(out, enc, 3);
        }
    }
}

static int hexval(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decodes s[0..len) into `out`; a malformed escape stays literal
 * (it is then encoded as %25, which is what the server would see). '+' is
 * a literal plus: SigV4 does not use form encoding. */
static void uri_decode(ecf_buf *out, const char *s, size_t len)
{
    size_t i;
    for (i = 0; i < len; i++) {
        int hi, lo;
        if (s[i] == '%' && i + 2 < len && (hi = hexval(s[i + 1])) >= 0 &&
            (lo = hexval(s[i + 2])) >= 0) {
            char c = (char)(hi * 16 + lo);
            ecf_buf_append(out, &c, 1);
            i += 2;
        } else {
            ecf_buf_append(out, &s[i], 1);
        }
    }
}

/* ---- task 1, step 2: canonical URI ------------------------------------- */

/* RFC 3986 section 5.2.4 dot-segment removal, plus merging of empty
 * segments ("//"), as the normalize-path/ cases of the suite expect. A
 * trailing slash of the input is kept. */
static void normalize_path(ecf_buf *out, const char *path)
{
    const char *segs[256];
    size_t seglen[256];
    size_t n = 0, i;
    const char *p = path;
    size_t plen = strlen(path);
    int trailing = plen > 0 && path[plen - 1] == '/';

    while (*p) {
        const char *start;
        size_t l;
        while (*p == '/')
            p++;
        start = p;
        while (*p && *p != '/')
            p++;
        l = (size_t)(p - start);
        if (l == 0 || (l == 1 && start[0] == '.'))
            continue;
        if (l == 2 && start[0] == '.' && start[1] == '.') {
            if (n > 0)
                n--;
            continue;
        }
        if (n < sizeof(segs) / sizeof(segs[0])) {
            segs[n] = start;
            seglen[n] = l;
            n++;
        }
    }
    for (i = 0; i < n; i++) {
        ecf_buf_append(out, "/", 1);
        ecf_buf_append(out, segs[i], seglen[i]);
    }
    if (n == 0 || trailing)
        ecf_buf_append(out, "/", 1);
}

static void canonical_uri(ecf_buf *out, const char *path, unsigned int flags)
{
    ecf_buf norm = ECF_BUF_INIT;
    if (!path || !*path)
        path = "/";
    if (flags & ECF_SIGV4_NORMALIZE_PATH) {
        normalize_path(&norm, path);
        ecf_sigv4_uri_encode(out, norm.data, norm.len, 1);
    } else {
        ecf_sigv4_uri_encode(out, path, strlen(path), 1);
    }
    ecf_buf_dispose(&norm);
}

/* ---- task 1, step 3: canonical query string ----------------------------- */

typedef struct {
    char *key; /* encoded */
    char *value;
} qparam;

static int cmp_qparam(const void *a, const void *b)
{
    const qparam *x = a, *y = b;
    int c = strcmp(x->key, y->key);
    return c ? c : strcmp(x->value, y->value);
}

static char *reencode(const char *s, size_t len)
{
    ecf_buf dec = ECF_BUF_INIT, enc = ECF_BUF_INIT;
    uri_decode(&dec, s, len);
    ecf_sigv4_uri_encode(&enc, dec.data ? dec.data : "", dec.len, 0);
    ecf_buf_dispose(&dec);
    return ecf_buf_detach(&enc);
}

static int canonical_query(ecf_buf *out, const char *query, ecf_err *err)
{
    qparam params[MAX_QUERY_PARAMS];
    size_t n = 0, i;
    const char *p = query;
    int rc = 0;

    while (p && *p) {
        const char *amp = strchr(p, '&');
        size_t len = amp ? (size_t)(amp - p) : strlen(p);
        const char *eq = memchr(p, '=', len);
        if (len > 0) {
            if (n == MAX_QUERY_PARAMS) {
                rc = ecf_err_set(err, ECF_EINVAL,
                                 "sigv4: more than %d query parameters",
                                 MAX_QUERY_PARAMS);
                goto out;
            }
            if (eq) {
                params[n].key = reencode(p, (size_t)(eq - p));
                params[n].value = reencode(eq + 1, len - (size_t)(eq - p) - 1);
            } else {
                params[n].key = reencode(p, len);
                params[n].value = ecf_xstrdup("");
            }
            n++;
        }
        p = amp ? amp + 1 : NULL;
    }
    qsort(params, n, sizeof(params[0]), cmp_qparam);
    for (i = 0; i < n; i++) {
        if (i)
            ecf_buf_append(out, "&", 1);
        ecf_buf_puts(out, params[i].key);
        ecf_buf_append(out, "=", 1);
        ecf_buf_puts(out, params[i].value);
    }
out:
    for (i = 0; i < n; i++) {
        free(params[i].key);
        free(params[i].value);
    }
    return rc;
}

/* ---- task 1, steps 4-5: canonical and signed headers -------------------- */

typedef struct {
    char *name;  /* lowercase */
    char *value; /* trimmed, inner runs of whitespace collapsed */
    size_t order;
} hdr;

static int cmp_hdr(const void *a, const void *b)
{
    const hdr *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    if (c)
        return c;
    /* qsort is not stable: the input order breaks ties, so duplicate
     * headers keep their order when joined (get-header-value-order). */
    return x->order < y->order ? -1 : x->order > y->order;
}

static int is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* "Trimall": leading and trailing whitespace removed, each inner run of
 * whitespace (including folded line breaks) replaced by one space. */
static char *trimall(const char *v)
{
    ecf_buf b = ECF_BUF_INIT;
    int pending = 0;
    for (; *v; v++) {
        if (is_space(*v)) {
            pending = b.len > 0;
            continue;
        }
        if (pending)
            ecf_buf_append(&b, " ", 1);
        pending = 0;
        ecf_buf_append(&b, v, 1);
    }
    return ecf_buf_detach(&b);
}

static int check_header(const ecf_sigv4_header *h, ecf_err *err)
{
    const char *p;
    if (!h->name || !*h->name || !h->value)
        return ecf_err_set(err, ECF_EINVAL, "sigv4: empty header name");
    for (p = h->name; *p; p++)
        if ((unsigned char)*p <= ' ' || *p == ':' || *p == 0x7f)
            return ecf_err_set(err, ECF_EINVAL,
                               "sigv4: header name '%s' has an invalid "
                               "character",
                               h->name);
    for (p = h->value; *p; p++)
        if (((unsigned char)*p < ' ' && !is_space(*p)) || *p == 0x7f)
            return ecf_err_set(err, ECF_EINVAL,
                               "sigv4: header '%s' has a control character",
                               h->name);
    return 0;
}

static int canonical_headers(ecf_buf *canon, ecf_buf *signed_hdrs,
                             const ecf_sigv4_request *req, ecf_err *err)
{
    hdr hs[MAX_HEADERS];
    size_t n = 0, i;
    int rc = 0;

    if (req->n_headers > MAX_HEADERS)
        return ecf_err_set(err, ECF_EINVAL, "sigv4: more than %d headers",
                           MAX_HEADERS);
    for (i = 0; i < req->n_headers; i++) {
        char *p;
        rc = check_header(&req->headers[i], err);
        if (rc < 0)
            goto out;
        hs[n].name = ecf_xstrdup(req->headers[i].name);
        for (p = hs[n].name; *p; p++)
            if (*p >= 'A' && *p <= 'Z')
                *p = (char)(*p - 'A' + 'a');
        hs[n].value = trimall(req->headers[i].value);
        hs[n].order = i;
        n++;
    }
    qsort(hs, n, sizeof(hs[0]), cmp_hdr);
    for (i = 0; i < n; i++) {
        if (i > 0 && strcmp(hs[i].name, hs[i - 1].name) == 0) {
            /* Same name: values joined with ',' on one line. */
            ecf_buf_append(canon, ",", 1);
            ecf_buf_puts(canon, hs[i].value);
            continue;
        }
        if (i > 0) {
            ecf_buf_append(canon, "\n", 1);
            ecf_buf_append(signed_hdrs, ";", 1);
        }
        ecf_buf_printf(canon, "%s:%s", hs[i].name, hs[i].value);
        ecf_buf_puts(signed_hdrs, hs[i].name);
    }
    if (n > 0)
        ecf_buf_append(canon, "\n", 1);
out:
    for (i = 0; i < n; i++) {
        free(hs[i].name);
        free(hs[i].value);
    }
    return rc;
}

/* ---- tasks 2-4 ---------------------------------------------------------- */

static int check_amz_date(const char *d)
{
    size_t i;
    if (!d || strlen(d) != 16 || d[8] != 'T' || d[15] != 'Z')
        return -1;
    for (i = 0; i < 15; i++)
        if (i != 8 && (d[i] < '0' || d[i] > '9'))
            return -1;
    return 0;
}

void ecf_sigv4_result_dispose(ecf_sigv4_result *res)
{
    if (!res)
        return;
    free(res->canonical_request);
    free(res->string_to_sign);
    free(res->authorization);
    free(res->signed_headers);
    res->canonical_request = NULL;
    res->string_to_sign = NULL;
    res->authorization = NULL;
    res->signed_headers = NULL;
}

int ecf_sigv4_sign(ecf_sigv4_result *out, const ecf_sigv4_request *req,
                   const ecf_sigv4_creds *creds, ecf_err *err)
{
    ecf_buf creq = ECF_BUF_INIT, sts = ECF_BUF_INIT, auth = ECF_BUF_INIT;
    ecf_buf hdrs = ECF_BUF_INIT, signed_hdrs = ECF_BUF_INIT;
    ecf_buf key = ECF_BUF_INIT;
    unsigned char md[ECF_SHA256_LEN], k[ECF_SHA256_LEN];
    char hex[ECF_SHA256_HEX_LEN + 1];
    char date[9];
    int rc = 0;

    memset(out, 0, sizeof(*out));
    if (!req->method || !*req->method || !req->region || !*req->region ||
        !req->service || !*req->service) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "sigv4: method, region and service are required");
        goto out;
    }
    if (!creds || !creds->access_key_id || !*creds->access_key_id ||
        !creds->secret_access_key || !*creds->secret_access_key) {
        rc = ecf_err_set(err, ECF_EINVAL, "sigv4: missing credentials");
        goto out;
    }
    if (check_amz_date(req->amz_date) < 0) {
        rc = ecf_err_set(err, ECF_EINVAL,
                         "sigv4: x-amz-date '%s' is not YYYYMMDDTHHMMSSZ",
                         req->amz_date ? req->amz_date : "");
        goto out;
    }
    memcpy(date, req->amz_date, 8);
    date[8] = '\0';

    /* Task 1: METHOD \n URI \n QUERY \n HEADERS \n SIGNED \n HASH */
    ecf_buf_printf(&creq, "%s\n", req->method);
    canonical_uri(&creq, req->path, req->flags);
    ecf_buf_append(&creq, "\n", 1);
    rc = canonical_query(&creq, req->query, err);
    if (rc < 0)
        goto out;
    ecf_buf_append(&creq, "\n", 1);
    rc = canonical_headers(&hdrs, &signed_hdrs, req, err);
    if (rc < 0)
        goto out;
    ecf_buf_append(&creq, hdrs.data ? hdrs.data : "", hdrs.len);
    ecf_buf_append(&creq, "\n", 1);
    ecf_buf_append(&creq, signed_hdrs.data ? signed_hdrs.data : "",
                   signed_hdrs.len);
    ecf_buf_append(&creq, "\n", 1);
    ecf_crypto_sha256_hex(hex, req->payload, req->payload_len);
    ecf_buf_puts(&creq, hex);

    /* Task 2: algorithm, request date, credential scope, hash of task 1. */
    ecf_crypto_sha256_hex(hex, creq.data, creq.len);
    ecf_buf_printf(&sts, ALGORITHM "\n%s\n%s/%s/%s/aws4_request\n%s",
                   req->amz_date, date, req->region, req->service, hex);

    /* Task 3: signing key = HMAC chain over date, region, service and the
     * terminator, starting from "AWS4" + secret. */
    ecf_buf_printf(&key, "AWS4%s", creds->secret_access_key);
    ecf_crypto_hmac_sha256(k, key.data, key.len, date, strlen(date));
    ecf_crypto_hmac_sha256(md, k, sizeof(k), req->region,
                           strlen(req->region));
    ecf_crypto_hmac_sha256(k, md, sizeof(md), req->service,
                           strlen(req->service));
    ecf_crypto_hmac_sha256(md, k, sizeof(k), "aws4_request", 12);
    ecf_crypto_hmac_sha256(k, md, sizeof(md), sts.data, sts.len);
    memcpy(md, k, sizeof(md));
    ecf_crypto_hex(hex, md, sizeof(md));

    /* Task 4: the Authorization header value. */
    ecf_buf_printf(&auth,
                   ALGORITHM " Credential=%s/%s/%s/%s/aws4_request, "
                             "SignedHeaders=%s, Signature=%s",
                   creds->access_key_id, date, req->region, req->service,
                   signed_hdrs.data ? signed_hdrs.data : "", hex);

    out->canonical_request = ecf_buf_detach(&creq);
    out->string_to_sign = ecf_buf_detach(&sts);
    out->authorization = ecf_buf_detach(&auth);
    out->signed_headers = ecf_buf_detach(&signed_hdrs);
out:
    /* The secret-derived material does not outlive the call. */
    if (key.data)
        memset(key.data, 0, key.len);
    memset(k, 0, sizeof(k));
    memset(md, 0, sizeof(md));
    ecf_buf_dispose(&key);
    ecf_buf_dispose(&creq);
    ecf_buf_dispose(&sts);
    ecf_buf_dispose(&auth);
    ecf_buf_dispose(&hdrs);
    ecf_buf_dispose(&signed_hdrs);
    return rc;
}

void ecf_sigv4_format_date(char out[17], time_t t)
{
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(out, 17, "%Y%m%dT%H%M%SZ", &tm);
}
