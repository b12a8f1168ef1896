/*
 * crypto.c - SHA-256 and HMAC-SHA256 over OpenSSL's one-shot functions.
 *
 * The only file that includes OpenSSL headers. The one-shot SHA256() and
 * HMAC() are not deprecated in OpenSSL 3.0 (HMAC_CTX is), so they compile
 * with OPENSSL_NO_DEPRECATED. A NULL result can only mean an OpenSSL
 * internal failure (no input can cause it), so it aborts instead of
 * threading an error code through SigV4 and the cache.
 */
#include "ec2fit/crypto.h"

#include <stdio.h>
#include <stdlib.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

void ecf_crypto_sha256(unsigned char out[ECF_SHA256_LEN], const void *data,
                       size_t len)
{
    static const unsigned char empty[1] = {0};
    if (!SHA256(data ? data : empty, len, out)) {
        fputs("ec2fit: internal error: SHA256 failed\n", stderr);
        abort();
    }
}

void ecf_crypto_hmac_sha256(unsigned char out[ECF_SHA256_LEN],
                            const void *key, size_t key_len,
                            const void *data, size_t data_len)
{
    static const unsigned char empty[1] = {0};
    unsigned int out_len = 0;
    if (key_len > 0x7fffffff ||
        !HMAC(EVP_sha256(), key ? key : empty, (int)key_len,
              data ? data : empty, data_len, out, &out_len) ||
        out_len != ECF_SHA256_LEN) {
        fputs("ec2fit: internal error: HMAC-SHA256 failed\n", stderr);
        abort();
    }
}

void ecf_crypto_hex(char *out, const unsigned char *bytes, size_t len)
{
    static const char digits[] = "0123456789abcdef";
    size_t i;
    for (i = 0; i < len; i++) {
        out[2 * i] = digits[bytes[i] >> 4];
        out[2 * i + 1] = digits[bytes[i] & 0xf];
    }
    out[2 * len] = '\0';
}

void ecf_crypto_sha256_hex(char out[ECF_SHA256_HEX_LEN + 1], const void *data,
                           size_t len)
{
    unsigned char md[ECF_SHA256_LEN];
    ecf_crypto_sha256(md, data, len);
    ecf_crypto_hex(out, md, sizeof(md));
}
