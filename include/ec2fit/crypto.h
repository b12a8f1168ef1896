/**
 * ec2fit/crypto.h - the hashes ec2fit needs (SHA-256, HMAC-SHA256, hex).
 *
 * crypto.c is the only file that includes OpenSSL headers, so a change of
 * crypto library touches one file. Every function writes into a
 * caller-provided fixed-size buffer; nothing allocates and nothing fails
 * except on an OpenSSL internal error, which aborts (it cannot be caused by
 * input).
 */
#ifndef EC2FIT_CRYPTO_H
#define EC2FIT_CRYPTO_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_SHA256_LEN 32
#define ECF_SHA256_HEX_LEN 64 /* without the terminating NUL */

/** SHA-256 of `len` bytes at `data` (data may be NULL when len is 0). */
void ecf_crypto_sha256(unsigned char out[ECF_SHA256_LEN], const void *data,
                       size_t len);

/** HMAC-SHA256 of `data` keyed with `key`. */
void ecf_crypto_hmac_sha256(unsigned char out[ECF_SHA256_LEN],
                            const void *key, size_t key_len,
                            const void *data, size_t data_len);

/** Lowercase hex of `len` bytes; `out` holds 2 * len + 1 chars. */
void ecf_crypto_hex(char *out, const unsigned char *bytes, size_t len);

/** Lowercase hex SHA-256 of the data, NUL-terminated. */
void ecf_crypto_sha256_hex(char out[ECF_SHA256_HEX_LEN + 1], const void *data,
                           size_t len);

#define ECF_SHA1_LEN 20
#define ECF_SHA1_HEX_LEN 40 /* without the terminating NUL */

/** Lowercase hex SHA-1 of the data: only to name the AWS SSO token cache
 *  file (~/.aws/sso/cache/<sha1 of the session name>.json), never for
 *  security. */
void ecf_crypto_sha1_hex(char out[ECF_SHA1_HEX_LEN + 1], const void *data,
                         size_t len);

#ifdef __cplusplus
}
#endif

#endif
