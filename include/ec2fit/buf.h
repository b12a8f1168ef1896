/**
 * ec2fit/buf.h - a growable byte buffer (the role of cmark_strbuf / git_str).
 * Caller-owned: ecf_buf_init / ecf_buf_dispose. `data` is always
 * NUL-terminated after any append, so it can be used as a C string.
 */
#ifndef EC2FIT_BUF_H
#define EC2FIT_BUF_H

#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct {
    char *data;
    size_t len;
    size_t cap;
} ecf_buf;

#define ECF_BUF_INIT {NULL, 0, 0}

void ecf_buf_init(ecf_buf *b);
void ecf_buf_dispose(ecf_buf *b);
void ecf_buf_clear(ecf_buf *b);
void ecf_buf_append(ecf_buf *b, const void *data, size_t n);
void ecf_buf_puts(ecf_buf *b, const char *s);
void ecf_buf_printf(ecf_buf *b, const char *fmt, ...) ECF_PRINTF(2, 3);
/** Appends `s` to the fixed-size string `out` (size bytes) whose length
 *  is `len`: snprintf(out + len, size - len, "%s", s) without the format
 *  parsing (hot paths: --batch field copies and notes). Truncates to
 *  what fits, always NUL-terminated when len < size; returns the length
 *  that would have been written, len + strlen(s), as snprintf's callers
 *  add it (so a result >= size means truncated). */
size_t ecf_str_put(char *out, size_t size, size_t len, const char *s);
/** Hands the string to the caller (free() it); the buffer is left empty. */
char *ecf_buf_detach(ecf_buf *b);

/** Opens `path` read-only and returns the descriptor, or <0 with `err` set
 *  (errno kept from open(2), so callers can treat ENOENT as "absent").
 *  Only a regular file is accepted: the open uses O_NONBLOCK, so a FIFO
 *  with no writer cannot hang the caller, then fstat checks the type and
 *  O_NONBLOCK is cleared. Errors: ECF_EIO "PATH: STRERROR" and
 *  "PATH: not a regular file (a directory|FIFO|character device|block
 *  device|socket)". */
int ecf_buf_open_regular(const char *path, ecf_err *err);

/** Reads a whole regular file (ecf_buf_open_regular) into `out` (cleared
 *  first). Refuses files larger than `max_bytes` with ECF_EINVAL. Errors:
 *  ECF_EIO "PATH: STRERROR", "PATH: not a regular file (...)". */
int ecf_buf_read_file(ecf_buf *out, const char *path, size_t max_bytes,
                      ecf_err *err);

#ifdef __cplusplus
}
#endif

#endif
