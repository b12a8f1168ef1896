/**
 * ec2fit/http.h - HTTPS requests with timeouts, a size cap and retries.
 *
 * http.c is the only file that includes <curl/curl.h>. Certificate
 * verification is always on; plain http:// is accepted only for loopback
 * hosts (127.0.0.1, localhost, [::1]), which is how the tests reach their
 * local server. Proxies come from the environment as libcurl reads them
 * (http_proxy, https_proxy, no_proxy). The module prints nothing: tracing
 * and progress go through callbacks the CLI supplies.
 */
#ifndef EC2FIT_HTTP_H
#define EC2FIT_HTTP_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/buf.h"
#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_HTTP_DEFAULT_MAX_BYTES (64u * 1024u * 1024u)
#define ECF_HTTP_DEFAULT_RETRIES 3
#define ECF_HTTP_DEFAULT_TIMEOUT_MS 60000L
#define ECF_HTTP_DEFAULT_CONNECT_TIMEOUT_MS 10000L
#define ECF_HTTP_DEFAULT_RETRY_BASE_MS 500L

/** Receives one line of the request trace (no newline). Secrets are
 *  already redacted: Authorization, X-Amz-Security-Token,
 *  X-aws-ec2-metadata-token and x-amz-sso_bearer_token values are
 *  replaced by "<redacted>". */
typedef void (*ecf_http_trace_fn)(void *ctx, const char *line);
/** Download progress: bytes received so far and the expected total (0 when
 *  the server sent no Content-Length). */
typedef void (*ecf_http_progress_fn)(void *ctx, size_t received,
                                     size_t total);

typedef struct {
    long connect_timeout_ms; /* 0 = default */
    long timeout_ms;         /* whole attempt, connect included; 0 = default */
    size_t max_bytes;        /* response body cap; 0 = default (64 MiB) */
    int retries;             /* extra attempts; < 0 = default (3) */
    long retry_base_ms;      /* first backoff; 0 = default (500 ms) */
    const char *ca_bundle;   /* CA file (AWS_CA_BUNDLE); NULL = system */
    ecf_http_trace_fn trace; /* NULL = no trace */
    ecf_http_progress_fn progress; /* NULL = no progress */
    void *ctx;               /* passed to trace and progress */
    bool link_local_http;    /* also allow plain http:// to the instance
                                metadata and container credential hosts
                                (ECF_HTTP_LINK_LOCAL_HOSTS) */
} ecf_http_opts;

#define ECF_HTTP_OPTS_INIT {0, 0, 0, -1, 0, NULL, NULL, NULL, NULL, false}

/** The link-local hosts the AWS SDKs reach over plain http: IMDS
 *  (169.254.169.254, [fd00:ec2::254]), ECS (169.254.170.2) and EKS Pod
 *  Identity (169.254.170.23, [fd00:ec2::23]). Never routed off the host,
 *  so no proxy is used for them either. */
#define ECF_HTTP_LINK_LOCAL_HOSTS                                             \
    "169.254.169.254, [fd00:ec2::254], 169.254.170.2, 169.254.170.23, "       \
    "[fd00:ec2::23]"

typedef struct {
    const char *name;
    const char *value;
} ecf_http_header;

typedef struct {
    const char *method; /* "GET", "POST" or "PUT" (body as for POST) */
    const char *url;
    const ecf_http_header *headers;
    size_t n_headers;
    const void *body; /* POST body, may be NULL when body_len is 0 */
    size_t body_len;
} ecf_http_request;

/** Caller-owned; ecf_http_response_dispose releases the body. */
typedef struct {
    long status;            /* final HTTP status, 0 when none was received */
    ecf_buf body;           /* response body (NUL-terminated) */
    long long last_modified; /* Last-Modified, seconds since the epoch; -1 */
    int attempts;           /* attempts made, 1 + retries used */
} ecf_http_response;

#define ECF_HTTP_RESPONSE_INIT {0, ECF_BUF_INIT, -1, 0}

/** Initialises libcurl once per process (curl_global_init); later calls
 *  do nothing. Call it from the CLI before any thread could exist.
 *  Errors: ECF_ERR. */
int ecf_http_global_init(ecf_err *err);
/** Matching curl_global_cleanup; safe to call when init was not. */
void ecf_http_global_cleanup(void);

/**
 * Sends the request, retrying up to opts->retries times with exponential
 * backoff and jitter after HTTP 429, HTTP 5xx, a timeout, or a connection
 * that closed mid-response. `out` is reset first.
 * Returns 0 for a 2xx response. Errors:
 *  - ECF_EHTTP "HTTP 403": a non-2xx final status; out->status and
 *    out->body hold the response so the caller can add the service's
 *    message;
 *  - ECF_EIO: transport failure, message from CURLOPT_ERRORBUFFER
 *    ("Operation timed out after 2001 milliseconds ...", "response larger
 *    than 1048576 bytes");
 *  - ECF_EINVAL: a URL that is not https:// (or http:// to loopback).
 * Messages do not repeat the URL; callers prefix the operation.
 */
int ecf_http_send(ecf_http_response *out, const ecf_http_request *req,
                  const ecf_http_opts *opts, ecf_err *err);

void ecf_http_response_dispose(ecf_http_response *res);

/** Checks a URL the way ecf_http_send does (scheme and loopback rule),
 *  without sending. Errors: ECF_EINVAL. */
int ecf_http_check_url(const char *url, ecf_err *err);

/** Host (and ":port" when present) of a URL, for the SigV4 Host header;
 *  the path in *path_out (both caller-owned, free()). Errors: ECF_EINVAL. */
int ecf_http_split_url(char **host_out, char **path_out, const char *url,
                       ecf_err *err);

/** A copy of `url` with the password of its userinfo replaced by
 *  "<redacted>" ("http://u:pw@h/" -> "http://u:<redacted>@h/"); an URL
 *  without one is copied as is. For --verbose, messages and the cache
 *  metadata (docs/security.md). Caller frees. */
char *ecf_http_redact_url(const char *url);

/** True when the URL parses and its host is 127.0.0.1, localhost or
 *  [::1]; such requests never use a proxy (CURLOPT_NOPROXY). */
bool ecf_http_url_is_loopback(const char *url);

#ifdef __cplusplus
}
#endif

#endif
