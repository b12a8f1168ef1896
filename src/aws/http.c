/*
 * http.c - the only file that includes <curl/curl.h>.
 *
 * One easy handle per attempt. The body is collected by the write callback
 * of curl's docs/examples/getinmemory.c, with a cap: the callback returns
 * 0 (curl then fails the transfer with CURLE_WRITE_ERROR) as soon as the
 * body would exceed max_bytes, so a hostile or broken server cannot make
 * us allocate without bound. Every curl_easy_setopt result is checked, and
 * transport errors are reported from CURLOPT_ERRORBUFFER, which is more
 * specific than curl_easy_strerror ("Operation timed out after 2001
 * milliseconds with 0 bytes received").
 *
 * Retries follow the AWS SDKs' policy for idempotent reads: 429, 5xx,
 * timeouts and connections dropped mid-response are retried up to 3
 * times with exponential backoff (base 500 ms, doubling, capped at 8 s) and
 * "equal jitter" (half fixed, half random) so that concurrent clients do
 * not retry in lockstep.
 */
#include "ec2fit/http.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <dlfcn.h>

#ifndef ECF_VERSION
#define ECF_VERSION "0"
#endif

#define MAX_BACKOFF_MS 8000L
/* A 429/503's Retry-After is honoured up to this (a longer one is cut to
 * it): the whole update stays under a few minutes with the default 3
 * retries, and a server cannot park the client for hours. */
#define MAX_RETRY_AFTER_MS 30000L

/* libcurl is loaded when first needed (dlopen) instead of linked: linking
 * it maps ~30 shared libraries (TLS, HTTP/2, IDN, LDAP, Kerberos ...) into
 * every run, and relocating them cost ~2.5 ms of a ~5 ms `recommend`,
 * which never touches the network. Only `update` pays for it now. The
 * functions keep their curl signatures; see docs/update.md. */
#define LIBCURL_SONAME "libcurl.so.4"

static struct {
    void *handle;
    CURLcode (*global_init)(long);
    void (*global_cleanup)(void);
    CURL *(*easy_init)(void);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_perform)(CURL *);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    void (*easy_cleanup)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    void (*free)(void *);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    CURLU *(*url)(void);
    void (*url_cleanup)(CURLU *);
    CURLUcode (*url_get)(CURLU *, CURLUPart, char **, unsigned int);
    CURLUcode (*url_set)(CURLU *, CURLUPart, const char *, unsigned int);
    const char *(*url_strerror)(CURLUcode);
} lc;

/* POSIX's sanctioned way to store a dlsym result in a function pointer. */
#define LC_SYM(field, name)                                                    \
    do {                                                                       \
        void *sym_ = dlsym(handle, name);                                      \
        if (!sym_) {                                                           \
            dlclose(handle);                                                   \
            return ecf_err_set(err, ECF_ERR, "%s: missing symbol %s",          \
                               LIBCURL_SONAME, name);                          \
        }                                                                      \
        memcpy(&lc.field, &sym_, sizeof(sym_));                                \
    } while (0)

static int load_curl(ecf_err *err)
{
    void *handle;
    if (lc.handle)
        return 0;
    handle = dlopen(LIBCURL_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle)
        return ecf_err_set(err, ECF_ERR,
                           "cannot load %s (apt-get install libcurl4): %s",
                           LIBCURL_SONAME, dlerror());
    LC_SYM(global_init, "curl_global_init");
    LC_SYM(global_cleanup, "curl_global_cleanup");
    LC_SYM(easy_init, "curl_easy_init");
    LC_SYM(easy_setopt, "curl_easy_setopt");
    LC_SYM(easy_perform, "curl_easy_perform");
    LC_SYM(easy_getinfo, "curl_easy_getinfo");
    LC_SYM(easy_cleanup, "curl_easy_cleanup");
    LC_SYM(easy_strerror, "curl_easy_strerror");
    LC_SYM(free, "curl_free");
    LC_SYM(slist_append, "curl_slist_append");
    LC_SYM(slist_free_all, "curl_slist_free_all");
    LC_SYM(url, "curl_url");
    LC_SYM(url_cleanup, "curl_url_cleanup");
    LC_SYM(url_get, "curl_url_get");
    LC_SYM(url_set, "curl_url_set");
    LC_SYM(url_strerror, "curl_url_strerror");
    lc.handle = handle;
    return 0;
}

static int global_done;

int ecf_http_global_init(ecf_err *err)
{
    CURLcode rc;
    if (global_done)
        return 0;
    if (load_curl(err) != 0)
        return ECF_ERR;
    rc = lc.global_init(CURL_GLOBAL_DEFAULT);
    if (rc != CURLE_OK)
        return ecf_err_set(err, ECF_ERR, "curl_global_init: %s",
                           lc.easy_strerror(rc));
    global_done = 1;
    return 0;
}

void ecf_http_global_cleanup(void)
{
    if (global_done)
        lc.global_cleanup();
    global_done = 0;
}

void ecf_http_response_dispose(ecf_http_response *res)
{
    if (!res)
        return;
    ecf_buf_dispose(&res->body);
    res->status = 0;
    res->last_modified = -1;
    res->attempts = 0;
}

/* ---- URL rules ---------------------------------------------------------- */

static int is_loopback(const char *host)
{
    return strcasecmp(host, "localhost") == 0 ||
           strcmp(host, "127.0.0.1") == 0 || strcmp(host, "[::1]") == 0 ||
           strcmp(host, "::1") == 0;
}

static int is_link_local_aws(const char *host)
{
    return strcmp(host, "169.254.169.254") == 0 ||
           strcmp(host, "169.254.170.2") == 0 ||
           strcmp(host, "169.254.170.23") == 0 ||
           strcasecmp(host, "[fd00:ec2::254]") == 0 ||
           strcasecmp(host, "fd00:ec2::254") == 0 ||
           strcasecmp(host, "[fd00:ec2::23]") == 0 ||
           strcasecmp(host, "fd00:ec2::23") == 0;
}

char *ecf_http_redact_url(const char *url)
{
    /* scheme://user:password@host/... -> scheme://user:<redacted>@host/...
     * The authority ends at the first '/', '?' or '#' after "://"; its
     * userinfo ends at the last '@' inside it (RFC 3986 section 3.2). */
    const char *auth = strstr(url, "://");
    const char *end, *at = NULL, *colon, *p;
    ecf_buf b = ECF_BUF_INIT;

    if (!auth)
        return ecf_xstrdup(url);
    auth += 3;
    end = auth + strcspn(auth, "/?#");
    for (p = auth; p < end; p++)
        if (*p == '@')
            at = p;
    if (!at)
        return ecf_xstrdup(url);
    colon = memchr(auth, ':', (size_t)(at - auth));
    if (!colon)
        return ecf_xstrdup(url);
    ecf_buf_append(&b, url, (size_t)(colon + 1 - url));
    ecf_buf_puts(&b, "<redacted>");
    ecf_buf_puts(&b, at);
    return ecf_buf_detach(&b);
}

static int parse_url(CURLU **u_out, const char *url, ecf_err *err)
{
    CURLU *u;
    CURLUcode uc;
    if (load_curl(err) != 0)
        return ECF_ERR;
    u = lc.url();
    if (!u) {
        fputs("ec2fit: out of memory\n", stderr);
        abort();
    }
    uc = lc.url_set(u, CURLUPART_URL, url, 0);
    if (uc != CURLUE_OK) {
        char *safe = ecf_http_redact_url(url);
        lc.url_cleanup(u);
        ecf_err_set(err, ECF_EINVAL, "invalid URL '%s': %s", safe,
                    lc.url_strerror(uc));
        free(safe);
        return ECF_EINVAL;
    }
    *u_out = u;
    return 0;
}

static int check_url(const char *url_in, bool link_local, ecf_err *err)
{
    CURLU *u = NULL;
    char *scheme = NULL, *host = NULL, *url = NULL;
    int rc;

    rc = parse_url(&u, url_in, err);
    if (rc < 0)
        return rc;
    url = ecf_http_redact_url(url_in); /* for messages only */
    if (lc.url_get(u, CURLUPART_SCHEME, &scheme, 0) != CURLUE_OK ||
        lc.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK) {
        rc = ecf_err_set(err, ECF_EINVAL, "invalid URL '%s'", url);
        goto out;
    }
    if (strcasecmp(scheme, "https") == 0)
        goto out;
    if (strcasecmp(scheme, "http") == 0 && is_loopback(host))
        goto out;
    if (strcasecmp(scheme, "http") == 0 && link_local &&
        is_link_local_aws(host))
        goto out;
    if (strcasecmp(scheme, "http") == 0 && link_local)
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: plain http is only allowed to 127.0.0.1, "
                         "localhost, [::1] and " ECF_HTTP_LINK_LOCAL_HOSTS
                         "; use https",
                         url);
    else if (strcasecmp(scheme, "http") == 0)
        rc = ecf_err_set(err, ECF_EINVAL,
                         "%s: plain http is only allowed to 127.0.0.1, "
                         "localhost and [::1]; use https",
                         url);
    else
        rc = ecf_err_set(err, ECF_EINVAL, "%s: unsupported scheme '%s'",
                         url, scheme);
out:
    free(url);
    lc.free(scheme);
    lc.free(host);
    lc.url_cleanup(u);
    return rc;
}

int ecf_http_check_url(const char *url_in, ecf_err *err)
{
    return check_url(url_in, false, err);
}

/* Loopback or one of the link-local AWS hosts: no proxy either way. */
static bool url_is_local(const char *url)
{
    CURLU *u = NULL;
    char *host = NULL;
    bool yes = false;
    if (parse_url(&u, url, NULL) < 0)
        return false;
    if (lc.url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
        yes = is_loopback(host) || is_link_local_aws(host);
    lc.free(host);
    lc.url_cleanup(u);
    return yes;
}

bool ecf_http_url_is_loopback(const char *url)
{
    CURLU *u = NULL;
    char *host = NULL;
    bool yes = false;
    if (parse_url(&u, url, NULL) < 0)
        return false;
    if (lc.url_get(u, CURLUPART_HOST, &host, 0) == CURLUE_OK && host)
        yes = is_loopback(host);
    lc.free(host);
    lc.url_cleanup(u);
    return yes;
}

int ecf_http_split_url(char **host_out, char **path_out, const char *url,
                       ecf_err *err)
{
    CURLU *u = NULL;
    char *host = NULL, *port = NULL, *path = NULL;
    ecf_buf b = ECF_BUF_INIT;
    int rc;

    *host_out = NULL;
    *path_out = NULL;
    rc = parse_url(&u, url, err);
    if (rc < 0)
        return rc;
    if (lc.url_get(u, CURLUPART_HOST, &host, 0) != CURLUE_OK ||
        lc.url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
        rc = ecf_err_set(err, ECF_EINVAL, "invalid URL");
        goto out;
    }
    /* Only an explicit port appears in the Host header (curl omits the
     * scheme's default port, and so must the signed copy). */
    if (lc.url_get(u, CURLUPART_PORT, &port, 0) == CURLUE_OK && port)
        ecf_buf_printf(&b, "%s:%s", host, port);
    else
        ecf_buf_puts(&b, host);
    *host_out = ecf_buf_detach(&b);
    *path_out = ecf_xstrdup(path && *path ? path : "/");
out:
    lc.free(host);
    lc.free(port);
    lc.free(path);
    lc.url_cleanup(u);
    return rc;
}

/* ---- one attempt -------------------------------------------------------- */

typedef struct {
    ecf_buf *body;
    size_t max_bytes;
    int too_large;
} sink;

/* getinmemory.c's WriteMemoryCallback, with the cap. */
static size_t write_cb(void *contents, size_t size, size_t nmemb, void *userp)
{
    sink *s = userp;
    size_t realsize = size * nmemb;
    if (realsize > s->max_bytes || s->body->len > s->max_bytes - realsize) {
        s->too_large = 1;
        return 0;
    }
    ecf_buf_append(s->body, contents, realsize);
    return realsize;
}

typedef struct {
    const ecf_http_opts *opts;
} progress_ctx;

static int xferinfo_cb(void *clientp, curl_off_t dltotal, curl_off_t dlnow,
                       curl_off_t ultotal, curl_off_t ulnow)
{
    progress_ctx *p = clientp;
    (void)ultotal;
    (void)ulnow;
    if (p->opts->progress)
        p->opts->progress(p->opts->ctx, dlnow > 0 ? (size_t)dlnow : 0,
                          dltotal > 0 ? (size_t)dltotal : 0);
    return 0;
}

static void trace(const ecf_http_opts *opts, const char *fmt, ...)
    ECF_PRINTF(2, 3);

static void trace(const ecf_http_opts *opts, const char *fmt, ...)
{
    char line[1024];
    va_list ap;
    if (!opts->trace)
        return;
    va_start(ap, fmt);
    vsnprintf(line, sizeof(line), fmt, ap);
    va_end(ap);
    opts->trace(opts->ctx, line);
}

static int is_secret_header(const char *name)
{
    return strcasecmp(name, "Authorization") == 0 ||
           strcasecmp(name, "X-Amz-Security-Token") == 0 ||
           strcasecmp(name, "X-aws-ec2-metadata-token") == 0 ||
           strcasecmp(name, "x-amz-sso_bearer_token") == 0;
}

typedef enum { ATTEMPT_OK, ATTEMPT_RETRY, ATTEMPT_FAIL } attempt_result;

#define SETOPT(h, opt, val)                                                    \
    do {                                                                       \
        CURLcode sc_ = lc.easy_setopt((h), (opt), (val));                    \
        if (sc_ != CURLE_OK) {                                                 \
            rc = ecf_err_set(err, ECF_ERR, "curl_easy_setopt %s: %s", #opt,   \
                             lc.easy_strerror(sc_));                         \
            goto out;                                                          \
        }                                                                      \
    } while (0)

static attempt_result attempt(ecf_http_response *out,
                              const ecf_http_request *req,
                              const ecf_http_opts *opts, size_t max_bytes,
                              long timeout_ms, long connect_ms,
                              long *retry_after_ms, int *rc_out,
                              ecf_err *err)
{
    CURL *h = NULL;
    struct curl_slist *hdrs = NULL;
    char errbuf[CURL_ERROR_SIZE];
    sink s;
    progress_ctx pc;
    CURLcode cc;
    long status = 0, filetime = -1;
    attempt_result res = ATTEMPT_FAIL;
    int rc = 0;
    size_t i;

    ecf_buf_clear(&out->body);
    out->status = 0;
    errbuf[0] = '\0';
    s.body = &out->body;
    s.max_bytes = max_bytes;
    s.too_large = 0;
    pc.opts = opts;

    h = lc.easy_init();
    if (!h) {
        rc = ecf_err_set(err, ECF_ERR, "curl_easy_init failed");
        goto out;
    }
    for (i = 0; i < req->n_headers; i++) {
        ecf_buf line = ECF_BUF_INIT;
        struct curl_slist *n;
        ecf_buf_printf(&line, "%s: %s", req->headers[i].name,
                       req->headers[i].value);
        n = lc.slist_append(hdrs, line.data);
        ecf_buf_dispose(&line);
        if (!n) {
            rc = ecf_err_set(err, ECF_ERR, "curl_slist_append failed");
            goto out;
        }
        hdrs = n;
    }
    /* Ask for no "Expect: 100-continue" round trip on POST. */
    {
        struct curl_slist *n = lc.slist_append(hdrs, "Expect:");
        if (!n) {
            rc = ecf_err_set(err, ECF_ERR, "curl_slist_append failed");
            goto out;
        }
        hdrs = n;
    }

    SETOPT(h, CURLOPT_ERRORBUFFER, errbuf);
    SETOPT(h, CURLOPT_URL, req->url);
    SETOPT(h, CURLOPT_PROTOCOLS_STR, "http,https");
    SETOPT(h, CURLOPT_FOLLOWLOCATION, 0L);
    /* A loopback request carries the Authorization header in plain http:
     * it must never take a detour through http_proxy/HTTPS_PROXY. This
     * handle talks to one URL only, so "*" means "not this host". */
    if (url_is_local(req->url))
        SETOPT(h, CURLOPT_NOPROXY, "*");
    SETOPT(h, CURLOPT_NOSIGNAL, 1L);
    SETOPT(h, CURLOPT_SSL_VERIFYPEER, 1L);
    SETOPT(h, CURLOPT_SSL_VERIFYHOST, 2L);
    if (opts->ca_bundle && *opts->ca_bundle)
        SETOPT(h, CURLOPT_CAINFO, opts->ca_bundle);
    SETOPT(h, CURLOPT_USERAGENT, "ec2fit/" ECF_VERSION);
    SETOPT(h, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
    SETOPT(h, CURLOPT_TIMEOUT_MS, timeout_ms);
    SETOPT(h, CURLOPT_ACCEPT_ENCODING, "");
    SETOPT(h, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t)max_bytes);
    SETOPT(h, CURLOPT_WRITEFUNCTION, write_cb);
    SETOPT(h, CURLOPT_WRITEDATA, &s);
    SETOPT(h, CURLOPT_FILETIME, 1L);
    SETOPT(h, CURLOPT_HTTPHEADER, hdrs);
    if (opts->progress) {
        SETOPT(h, CURLOPT_XFERINFOFUNCTION, xferinfo_cb);
        SETOPT(h, CURLOPT_XFERINFODATA, &pc);
        SETOPT(h, CURLOPT_NOPROGRESS, 0L);
    }
    if (strcmp(req->method, "POST") == 0 || strcmp(req->method, "PUT") == 0) {
        SETOPT(h, CURLOPT_POST, 1L);
        SETOPT(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)req->body_len);
        SETOPT(h, CURLOPT_POSTFIELDS, req->body ? req->body : "");
        if (req->method[1] == 'U') /* PUT: IMDSv2's token request */
            SETOPT(h, CURLOPT_CUSTOMREQUEST, "PUT");
    } else if (strcmp(req->method, "GET") != 0) {
        rc = ecf_err_set(err, ECF_EINVAL, "unsupported method %s",
                         req->method);
        goto out;
    }

    cc = lc.easy_perform(h);
    if (cc == CURLE_OK) {
        lc.easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status);
        if (lc.easy_getinfo(h, CURLINFO_FILETIME, &filetime) != CURLE_OK)
            filetime = -1;
        out->status = status;
        out->last_modified = filetime;
        trace(opts, "< HTTP %ld (%zu bytes)", status, out->body.len);
        if (status >= 200 && status < 300) {
            res = ATTEMPT_OK;
            goto out;
        }
        if (status >= 300 && status < 400) {
            /* not followed (a redirect could carry the signed request to
             * another host): say so, and where it pointed */
            char *loc = NULL, *safe = NULL;
            if (lc.easy_getinfo(h, CURLINFO_REDIRECT_URL, &loc) == CURLE_OK &&
                loc) {
                /* its origin only: the path and query are the server's
                 * and may carry a signature */
                const char *host = strstr(loc, "://");
                size_t len = host ? strcspn(host + 3, "/?#") + 3 +
                                        (size_t)(host - loc)
                                  : 0;
                char *origin = ecf_xmalloc(len + 1);
                memcpy(origin, loc, len);
                origin[len] = '\0';
                safe = len ? ecf_http_redact_url(origin) : NULL;
                free(origin);
            }
            rc = ecf_err_set(err, ECF_EHTTP,
                             "HTTP %ld: a redirect%s%s, which ec2fit does "
                             "not follow (point the endpoint at the final "
                             "URL)",
                             status, safe ? " to " : "", safe ? safe : "");
            free(safe);
            res = ATTEMPT_FAIL;
            goto out;
        }
        rc = ecf_err_set(err, ECF_EHTTP, "HTTP %ld", status);
        res = (status == 429 || status >= 500) ? ATTEMPT_RETRY : ATTEMPT_FAIL;
        if (res == ATTEMPT_RETRY) {
            /* RFC 9110 10.2.3: seconds (an HTTP date gives 0 here) */
            curl_off_t ra = 0;
            if (lc.easy_getinfo(h, CURLINFO_RETRY_AFTER, &ra) == CURLE_OK &&
                ra > 0)
                *retry_after_ms = ra > MAX_RETRY_AFTER_MS / 1000
                                      ? MAX_RETRY_AFTER_MS
                                      : (long)ra * 1000;
        }
        goto out;
    }
    if (s.too_large || cc == CURLE_FILESIZE_EXCEEDED) {
        rc = ecf_err_set(err, ECF_EIO, "response larger than %zu bytes",
                         max_bytes);
        trace(opts, "< %s", err ? err->msg : "response too large");
        goto out;
    }
    rc = ecf_err_set(err, ECF_EIO, "%s",
                     errbuf[0] ? errbuf : lc.easy_strerror(cc));
    trace(opts, "< error: %s", errbuf[0] ? errbuf : lc.easy_strerror(cc));
    switch (cc) {
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_PARTIAL_FILE:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
        res = ATTEMPT_RETRY;
        break;
    default:
        res = ATTEMPT_FAIL;
        break;
    }
out:
    lc.slist_free_all(hdrs);
    if (h)
        lc.easy_cleanup(h);
    *rc_out = rc;
    return rc < 0 && res == ATTEMPT_OK ? ATTEMPT_FAIL : res;
}

#undef SETOPT

/* ---- retries ------------------------------------------------------------ */

static uint64_t rng_state;

static uint64_t next_random(void)
{
    /* xorshift64*: jitter only needs to differ between processes. */
    if (rng_state == 0) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        rng_state = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^
                    ((uint64_t)getpid() << 40) ^ 0x9E3779B97F4A7C15ull;
    }
    rng_state ^= rng_state >> 12;
    rng_state ^= rng_state << 25;
    rng_state ^= rng_state >> 27;
    return rng_state * 2685821657736338717ull;
}

static void sleep_ms(long ms)
{
    struct timespec ts;
    ts.tv_sec = ms / 1000;
    ts.tv_nsec = (ms % 1000) * 1000000L;
    while (nanosleep(&ts, &ts) != 0)
        ;
}

int ecf_http_send(ecf_http_response *out, const ecf_http_request *req,
                  const ecf_http_opts *opts, ecf_err *err)
{
    static const ecf_http_opts defaults = ECF_HTTP_OPTS_INIT;
    size_t max_bytes;
    long timeout_ms, connect_ms, base_ms;
    int retries, n, rc = 0;
    size_t i;

    if (!opts)
        opts = &defaults;
    if (load_curl(err) != 0)
        return ECF_ERR;
    ecf_buf_clear(&out->body);
    out->status = 0;
    out->last_modified = -1;
    out->attempts = 0;
    rc = check_url(req->url, opts->link_local_http, err);
    if (rc < 0)
        return rc;
    max_bytes = opts->max_bytes ? opts->max_bytes : ECF_HTTP_DEFAULT_MAX_BYTES;
    timeout_ms = opts->timeout_ms > 0 ? opts->timeout_ms
                                      : ECF_HTTP_DEFAULT_TIMEOUT_MS;
    connect_ms = opts->connect_timeout_ms > 0
                     ? opts->connect_timeout_ms
                     : ECF_HTTP_DEFAULT_CONNECT_TIMEOUT_MS;
    if (connect_ms > timeout_ms)
        connect_ms = timeout_ms;
    retries = opts->retries >= 0 ? opts->retries : ECF_HTTP_DEFAULT_RETRIES;
    base_ms = opts->retry_base_ms > 0 ? opts->retry_base_ms
                                      : ECF_HTTP_DEFAULT_RETRY_BASE_MS;

    for (n = 0;; n++) {
        attempt_result r;
        {
            char *safe = ecf_http_redact_url(req->url);
            trace(opts, "> %s %s", req->method, safe);
            free(safe);
        }
        for (i = 0; i < req->n_headers; i++)
            trace(opts, "> %s: %s", req->headers[i].name,
                  is_secret_header(req->headers[i].name)
                      ? "<redacted>"
                      : req->headers[i].value);
        if (req->body_len)
            trace(opts, "> (%zu-byte body)", req->body_len);
        long retry_after_ms = 0;
        r = attempt(out, req, opts, max_bytes, timeout_ms, connect_ms,
                    &retry_after_ms, &rc, err);
        out->attempts = n + 1;
        if (r == ATTEMPT_OK)
            return 0;
        if (r == ATTEMPT_FAIL || n >= retries)
            break;
        {
            long cap = base_ms << (n < 10 ? n : 10);
            long wait;
            if (cap > MAX_BACKOFF_MS || cap <= 0)
                cap = MAX_BACKOFF_MS;
            wait = cap / 2 + (long)(next_random() % (uint64_t)(cap / 2 + 1));
            if (retry_after_ms > wait) /* the server's Retry-After, bounded */
                wait = retry_after_ms;
            trace(opts, "retrying in %ld ms (attempt %d of %d)", wait, n + 2,
                  retries + 1);
            sleep_ms(wait);
        }
    }
    if (out->attempts > 1 && err && rc != ECF_EHTTP) {
        size_t l = strlen(err->msg);
        snprintf(err->msg + l, sizeof(err->msg) - l, " (%d attempts)",
                 out->attempts);
    }
    return rc;
}
