/**
 * ec2fit/err.h - the error record every fallible function fills, and the
 * out-of-memory policy.
 *
 * Fallible functions return 0 or a negative ecf_code and describe the failure
 * in an ecf_err passed last. Messages are lowercase, one line, no trailing
 * newline, and name the object (file, flag, JSON path) and the reason.
 * A caller never overwrites a message its callee set.
 */
#ifndef EC2FIT_ERR_H
#define EC2FIT_ERR_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(__GNUC__)
#define ECF_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define ECF_PRINTF(fmt, args)
#endif

typedef enum {
    ECF_OK = 0,
    ECF_ERR = -1,       /* internal / unexpected */
    ECF_EIO = -2,       /* file or socket I/O */
    ECF_EPARSE = -3,    /* malformed JSON or schema violation */
    ECF_ENOTFOUND = -4, /* unknown instance type, model, region */
    ECF_EINVAL = -5,    /* bad user input */
    ECF_EHTTP = -6,     /* transport ok, non-2xx status */
    ECF_ENOFIT = -7,    /* nothing satisfies the workload's constraints */
} ecf_code;

typedef struct {
    ecf_code code;
    char msg[512];
} ecf_err;

#define ECF_ERR_INIT {ECF_OK, {0}}

/** Records the error and returns `code` (so `return ecf_err_set(...)` works).
 *  `err` may be NULL. */
int ecf_err_set(ecf_err *err, ecf_code code, const char *fmt, ...)
    ECF_PRINTF(3, 4);

/** Prepends "prefix: " to an error message already set (e.g. a file name). */
void ecf_err_prefix(ecf_err *err, const char *fmt, ...) ECF_PRINTF(2, 3);

/** Process exit status for a code: 0 ok; 2 usage (EINVAL, ENOTFOUND);
 *  3 no fit (ENOFIT); 1 everything else (I/O, parse, HTTP, internal). */
int ecf_err_exit_status(ecf_code code);

/* Out of memory is not threaded through signatures: these print a message
 * and abort() (as cmark does). Sizes derived from input are bounded by the
 * callers before they allocate. */
void *ecf_xmalloc(size_t n);
void *ecf_xcalloc(size_t n, size_t size);
void *ecf_xrealloc(void *p, size_t n);
char *ecf_xstrdup(const char *s);

#ifdef __cplusplus
}
#endif

#endif
