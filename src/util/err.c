/* err.c - error records and the allocation wrappers that abort on OOM. */
#include "ec2fit/err.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int ecf_err_set(ecf_err *err, ecf_code code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof(err->msg), fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return (int)code;
}

void ecf_err_prefix(ecf_err *err, const char *fmt, ...)
{
    char prefix[256];
    char old[sizeof(err->msg)];
    va_list ap;

    if (!err)
        return;
    va_start(ap, fmt);
    vsnprintf(prefix, sizeof(prefix), fmt, ap);
    va_end(ap);
    memcpy(old, err->msg, sizeof(old));
    /* Truncation is acceptable: messages are capped at sizeof(msg). */
    {
        size_t pl = strlen(prefix);
        if (pl > sizeof(err->msg) - 3)
            pl = sizeof(err->msg) - 3;
        memcpy(err->msg, prefix, pl);
        err->msg[pl] = ':';
        err->msg[pl + 1] = ' ';
        {
            size_t room = sizeof(err->msg) - pl - 3, ol = strlen(old);
            if (ol > room)
                ol = room;
            memcpy(err->msg + pl + 2, old, ol);
            err->msg[pl + 2 + ol] = '\0';
        }
    }
}

int ecf_err_exit_status(ecf_code code)
{
    switch (code) {
    case ECF_OK:
        return 0;
    case ECF_EINVAL:
    case ECF_ENOTFOUND:
        return 2;
    case ECF_ENOFIT:
        return 3;
    default:
        return 1;
    }
}

static void oom(size_t n)
{
    fprintf(stderr, "ec2fit: out of memory allocating %zu bytes\n", n);
    abort();
}

void *ecf_xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *ecf_xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *ecf_xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *ecf_xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = ecf_xmalloc(n);
    memcpy(d, s, n);
    return d;
}
