/**
 * ec2fit/sigv4.h - AWS Signature Version 4 (header-based), pure.
 *
 * The signer takes everything as parameters - the time as an X-Amz-Date
 * string and the credentials - and signs exactly the headers it is given,
 * so the official AWS test suite (tests/fixtures/aws4_testsuite) runs as
 * plain known-answer tests. The caller adds the `host`, `x-amz-date` and,
 * with temporary credentials, `x-amz-security-token` headers to the request
 * before signing, and sends the same headers plus `Authorization`.
 */
#ifndef EC2FIT_SIGV4_H
#define EC2FIT_SIGV4_H

#include <stddef.h>
#include <time.h>

#include "ec2fit/buf.h"
#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One request header as sent. Names are case-insensitive; duplicates are
 *  allowed and are joined with ',' in their given order (SigV4 rule). */
typedef struct {
    const char *name;
    const char *value;
} ecf_sigv4_header;

/** Credentials. The strings are borrowed for the duration of the call. */
typedef struct {
    const char *access_key_id;
    const char *secret_access_key;
    const char *session_token; /* NULL or "" when not temporary */
} ecf_sigv4_creds;

/* Flags for ecf_sigv4_request.flags. */
/** Remove "." and ".." segments and merge "//" before encoding the path
 *  (every service except S3 expects it). */
#define ECF_SIGV4_NORMALIZE_PATH (1u << 0)

typedef struct {
    const char *method;  /* "GET", "POST" */
    const char *path;    /* path as in the request line; see below */
    const char *query;   /* query string without '?', may be encoded; NULL */
    const ecf_sigv4_header *headers;
    size_t n_headers;
    const void *payload; /* request body; NULL when payload_len is 0 */
    size_t payload_len;
    const char *region;   /* "us-east-1" */
    const char *service;  /* "pricing" */
    const char *amz_date; /* "20150830T123600Z", same as the header value */
    unsigned int flags;
} ecf_sigv4_request;

/** The intermediate and final products of signing, all caller-owned:
 *  release with ecf_sigv4_result_dispose(). */
typedef struct {
    char *canonical_request; /* task 1 */
    char *string_to_sign;    /* task 2 */
    char *authorization;     /* value of the Authorization header */
    char *signed_headers;    /* "host;x-amz-date" */
} ecf_sigv4_result;

#define ECF_SIGV4_RESULT_INIT {NULL, NULL, NULL, NULL}

/** Signs `req` with `creds`.
 *
 *  `path` is percent-encoded once by the signer (each byte outside the
 *  unreserved set becomes %XX, '/' is kept). Given the raw path of the
 *  test suite ("/example space/") that is the single encoding; given a path
 *  already encoded on the wire it is the double encoding every service but
 *  S3 expects. `query` is split on '&' and '=', each part is decoded and
 *  re-encoded strictly, and the pairs are sorted by key, then value.
 *
 *   On success `out` holds newly allocated strings
 *  (dispose with ecf_sigv4_result_dispose); on failure it is left empty.
 *  Errors: ECF_EINVAL (missing field, malformed amz_date, a header name or
 *  value with a control character, too many headers). */
int ecf_sigv4_sign(ecf_sigv4_result *out, const ecf_sigv4_request *req,
                   const ecf_sigv4_creds *creds, ecf_err *err);

void ecf_sigv4_result_dispose(ecf_sigv4_result *res);

/** Formats `t` (UTC) as an X-Amz-Date, "YYYYMMDDTHHMMSSZ". */
void ecf_sigv4_format_date(char out[17], time_t t);

/** Appends to `out` the RFC 3986 percent-encoding SigV4 uses (unreserved
 *  A-Z a-z 0-9 - . _ ~ kept; every other byte %XX, uppercase hex) of `len`
 *  bytes. When `keep_slash` is non-zero, '/' is kept (path encoding). */
void ecf_sigv4_uri_encode(ecf_buf *out, const char *s, size_t len,
                          int keep_slash);

#ifdef __cplusplus
}
#endif

#endif
