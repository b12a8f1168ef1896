/*
 * crypto.c - SHA-256 and HMAC-SHA256 over OpenSSL's one-shot functions.
 *
 * The only file that includes OpenSSL headers. libcrypto is loaded when
 * first needed (dlopen), as libcurl is (http.c): linking it cost every run
 * ~2.9M of the main job's ~17M instructions in the dynamic loader
 * (relocating libcrypto), and only `update` and a cached catalog's
 * checksum use it. The one-shot SHA256() and HMAC() are not deprecated in
 * OpenSSL 3.0 (HMAC_CTX is), so they compile with OPENSSL_NO_DEPRECATED;
 * the pointers below are checked against their prototypes at compile
 * time. A NULL result can only mean an OpenSSL internal failure (no input
 * can cause it), so it aborts instead of threading an error code through
 * SigV4 and the cache. A libcrypto that cannot be loaded is a broken
 * installation (the package depends on libssl3; linked, the program would
 * not have started at all): one line on stderr, then abort as well.
 */
#include "ec2fit/crypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#define LIBCRYPTO_SONAME "libcrypto.so.3"

typedef unsigned char *(*sha256_fn)(const unsigned char *, size_t,
                                    unsigned char *);
typedef unsigned char *(*hmac_fn)(const EVP_MD *, const void *, int,
                                  const unsigned char *, size_t,
                                  unsigned char *, unsigned int *);
typedef const EVP_MD *(*evp_sha256_fn)(void);
typedef unsigned char *(*sha1_fn)(const unsigned char *, size_t,
                                  unsigned char *);

/* The headers' prototypes, without referring to the symbols (the operand
 * of _Generic is not evaluated, so nothing is linked). */
_Static_assert(_Generic(&SHA256, sha256_fn: 1, default: 0),
               "SHA256's prototype");
_Static_assert(_Generic(&SHA1, sha1_fn: 1, default: 0), "SHA1's prototype");
_Static_assert(_Generic(&HMAC, hmac_fn: 1, default: 0), "HMAC's prototype");
_Static_assert(_Generic(&EVP_sha256, evp_sha256_fn: 1, default: 0),
               "EVP_sha256's prototype");

static struct {
    sha256_fn sha256;
    hmac_fn hmac;
    evp_sha256_fn evp_sha256;
    sha1_fn sha1;
} lc;

static pthread_once_t lc_once = PTHREAD_ONCE_INIT;

static void lc_sym(void *handle, void *field, const char *name)
{
    void *sym = dlsym(handle, name);
    if (!sym) {
        fprintf(stderr, "ec2fit: %s: missing symbol %s\n", LIBCRYPTO_SONAME,
                name);
        abort();
    }
    /* POSIX's sanctioned way to store a dlsym result in a function
     * pointer */
    memcpy(field, &sym, sizeof(sym));
}

static void lc_load(void)
{
    void *handle = dlopen(LIBCRYPTO_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (!handle) {
        fprintf(stderr,
                "ec2fit: cannot load %s (apt-get install libssl3): %s\n",
                LIBCRYPTO_SONAME, dlerror());
        abort();
    }
    lc_sym(handle, &lc.sha256, "SHA256");
    lc_sym(handle, &lc.hmac, "HMAC");
    lc_sym(handle, &lc.evp_sha256, "EVP_sha256");
    lc_sym(handle, &lc.sha1, "SHA1");
}

void ecf_crypto_sha256(unsigned char out[ECF_SHA256_LEN], const void *data,
                       size_t len)
{
    static const unsigned char empty[1] = {0};
    pthread_once(&lc_once, lc_load);
    if (!lc.sha256(data ? data : empty, len, out)) {
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
    pthread_once(&lc_once, lc_load);
    if (key_len > 0x7fffffff ||
        !lc.hmac(lc.evp_sha256(), key ? key : empty, (int)key_len,
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

void ecf_crypto_sha1_hex(char out[ECF_SHA1_HEX_LEN + 1], const void *data,
                         size_t len)
{
    static const unsigned char empty[1] = {0};
    unsigned char md[ECF_SHA1_LEN];
    pthread_once(&lc_once, lc_load);
    if (!lc.sha1(data ? data : empty, len, md)) {
        fputs("ec2fit: internal error: SHA1 failed\n", stderr);
        abort();
    }
    ecf_crypto_hex(out, md, sizeof(md));
}
