/* buf.c - growable byte buffer; every append keeps data NUL-terminated. */
#include "ec2fit/buf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/stat.h>

void ecf_buf_init(ecf_buf *b)
{
    b->data = NULL;
    b->len = 0;
    b->cap = 0;
}

void ecf_buf_dispose(ecf_buf *b)
{
    if (!b)
        return;
    free(b->data);
    ecf_buf_init(b);
}

void ecf_buf_clear(ecf_buf *b)
{
    b->len = 0;
    if (b->data)
        b->data[0] = '\0';
}

static void grow(ecf_buf *b, size_t extra)
{
    size_t need = b->len + extra + 1;
    size_t cap = b->cap ? b->cap : 64;
    if (need <= b->cap)
        return;
    while (cap < need)
        cap *= 2;
    b->data = ecf_xrealloc(b->data, cap);
    b->cap = cap;
}

void ecf_buf_append(ecf_buf *b, const void *data, size_t n)
{
    grow(b, n);
    if (n)
        memcpy(b->data + b->len, data, n);
    b->len += n;
    b->data[b->len] = '\0';
}

void ecf_buf_puts(ecf_buf *b, const char *s)
{
    ecf_buf_append(b, s, strlen(s));
}

void ecf_buf_printf(ecf_buf *b, const char *fmt, ...)
{
    va_list ap;
    int n;

    va_start(ap, fmt);
    n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return;
    grow(b, (size_t)n);
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

size_t ecf_str_put(char *out, size_t size, size_t len, const char *s)
{
    size_t k = strlen(s);
    if (len < size) {
        size_t c = k < size - len - 1 ? k : size - len - 1;
        memcpy(out + len, s, c);
        out[len + c] = '\0';
    }
    return len + k;
}

char *ecf_buf_detach(ecf_buf *b)
{
    char *s = b->data;
    if (!s)
        s = ecf_xstrdup("");
    ecf_buf_init(b);
    return s;
}

static const char *file_kind(mode_t m)
{
    if (S_ISDIR(m))
        return "a directory";
    if (S_ISFIFO(m))
        return "a FIFO";
    if (S_ISCHR(m))
        return "a character device";
    if (S_ISBLK(m))
        return "a block device";
    if (S_ISSOCK(m))
        return "a socket";
    return "not a file";
}

int ecf_buf_open_regular(const char *path, ecf_err *err)
{
    struct stat st;
    int fd, flags, e;

    fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        e = errno;
        ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(e));
        errno = e;
        return ECF_EIO;
    }
    if (fstat(fd, &st) != 0) {
        e = errno;
        close(fd);
        ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(e));
        errno = e;
        return ECF_EIO;
    }
    if (!S_ISREG(st.st_mode)) {
        close(fd);
        ecf_err_set(err, ECF_EIO, "%s: not a regular file (%s)", path,
                    file_kind(st.st_mode));
        errno = EINVAL;
        return ECF_EIO;
    }
    flags = fcntl(fd, F_GETFL);
    if (flags < 0 || fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) != 0) {
        e = errno;
        close(fd);
        ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(e));
        errno = e;
        return ECF_EIO;
    }
    return fd;
}

int ecf_buf_read_file(ecf_buf *out, const char *path, size_t max_bytes,
                      ecf_err *err)
{
    FILE *f = NULL;
    char chunk[65536];
    size_t n;
    int rc = 0, fd;

    ecf_buf_clear(out);
    fd = ecf_buf_open_regular(path, err);
    if (fd < 0)
        return fd;
    f = fdopen(fd, "rb");
    if (!f) {
        rc = ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(errno));
        close(fd);
        return rc;
    }
    while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0) {
        if (out->len + n > max_bytes) {
            rc = ecf_err_set(err, ECF_EINVAL,
                             "%s: file is larger than the limit of %zu bytes",
                             path, max_bytes);
            goto out;
        }
        ecf_buf_append(out, chunk, n);
    }
    if (ferror(f)) {
        rc = ecf_err_set(err, ECF_EIO, "%s: read error: %s", path,
                         strerror(errno));
        goto out;
    }
    if (!out->data)
        ecf_buf_append(out, "", 0);
out:
    fclose(f);
    return rc;
}
