/*
 * cache.c - atomic writes of the catalog cache and its SHA-256 sidecar.
 *
 * Each file is written to a mkstemp() file in the same directory, fsync'd,
 * and renamed over the old one; the directory is fsync'd last so the
 * renames survive a crash. The catalog is renamed before the sidecar: a
 * crash in between leaves a hash mismatch, which readers treat as "no
 * cache" (the embedded catalog is used), never as a half-written catalog.
 */
#include "ec2fit/cache.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>
#include <dirent.h>

#include "ec2fit/crypto.h"

#define META_MAX_BYTES (1u << 20)

char *ecf_cache_path(const char *dir, const char *name)
{
    ecf_buf b = ECF_BUF_INIT;
    ecf_buf_printf(&b, "%s/%s", dir, name);
    return ecf_buf_detach(&b);
}

int ecf_cache_dir(char **out, const char *xdg_cache_home, const char *home,
                  ecf_err *err)
{
    ecf_buf b = ECF_BUF_INIT;
    *out = NULL;
    if (xdg_cache_home && xdg_cache_home[0] == '/')
        ecf_buf_printf(&b, "%s/ec2fit", xdg_cache_home);
    else if (home && *home)
        ecf_buf_printf(&b, "%s/.cache/ec2fit", home);
    else
        return ecf_err_set(err, ECF_ENOTFOUND,
                           "no cache directory: neither XDG_CACHE_HOME nor "
                           "HOME is set");
    *out = ecf_buf_detach(&b);
    return 0;
}

/* mkdir -p with mode 0700 for the directories it creates. */
static int mkdirs(const char *dir, ecf_err *err)
{
    char *p = ecf_xstrdup(dir), *s;
    int rc = 0;
    for (s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            if (mkdir(p, 0700) != 0 && errno != EEXIST) {
                rc = ecf_err_set(err, ECF_EIO, "%s: %s", p, strerror(errno));
                break;
            }
            *s = c;
            if (!c)
                break;
        }
    }
    free(p);
    return rc;
}

/* A symlink whose target is missing (the cache dir's "No such file" was
 * reported against update.lock inside it). */
static bool dangling(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode) &&
           stat(path, &st) != 0;
}

int ecf_cache_lock(int *fd_out, const char *dir, bool *waited_out,
                   ecf_err *err)
{
    char *path = NULL;
    int fd = -1, rc;

    *fd_out = -1;
    if (waited_out)
        *waited_out = false;
    rc = mkdirs(dir, err);
    if (rc < 0)
        return rc;
    path = ecf_cache_path(dir, ECF_CACHE_LOCK);
    /* O_NOFOLLOW: a symlink planted in the cache directory must not make
     * update create or lock a file elsewhere. O_NONBLOCK + fstat: a FIFO
     * or device in its place is refused without waiting on it. */
    fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK,
              0600);
    if (fd < 0) {
        if (errno == ELOOP)
            rc = ecf_err_set(err, ECF_EIO,
                             "%s: is a symbolic link (refusing to follow it)",
                             path);
        else if (errno == ENOENT && dangling(dir))
            rc = ecf_err_set(err, ECF_EIO,
                             "%s: a symbolic link to a directory that does "
                             "not exist",
                             dir);
        else
            rc = ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(errno));
        goto out;
    }
    {
        struct stat st;
        int fl;
        if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
            rc = ecf_err_set(err, ECF_EIO, "%s: not a regular file", path);
            goto out;
        }
        fl = fcntl(fd, F_GETFL);
        if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
            rc = ecf_err_set(err, ECF_EIO, "%s: %s", path, strerror(errno));
            goto out;
        }
    }
    if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
        if (errno != EWOULDBLOCK && errno != EINTR) {
            rc = ecf_err_set(err, ECF_EIO, "%s: flock: %s", path,
                             strerror(errno));
            goto out;
        }
        if (waited_out)
            *waited_out = true;
        while (flock(fd, LOCK_EX) != 0) {
            if (errno != EINTR) {
                rc = ecf_err_set(err, ECF_EIO, "%s: flock: %s", path,
                                 strerror(errno));
                goto out;
            }
        }
    }
    *fd_out = fd;
    fd = -1;
out:
    if (fd >= 0)
        close(fd);
    free(path);
    return rc;
}

void ecf_cache_unlock(int fd)
{
    if (fd >= 0) {
        flock(fd, LOCK_UN);
        close(fd);
    }
}

/* Is `name` a temporary of write_temp: ".catalog.json.XXXXXX" or
 * ".catalog.json.meta.XXXXXX"? */
static bool is_cache_temp(const char *name)
{
    static const char cat[] = "." ECF_CACHE_CATALOG ".";
    static const char meta[] = "." ECF_CACHE_META ".";
    size_t n = strlen(name);
    return (strncmp(name, meta, sizeof(meta) - 1) == 0 &&
            n == sizeof(meta) - 1 + 6) ||
           (strncmp(name, cat, sizeof(cat) - 1) == 0 &&
            n == sizeof(cat) - 1 + 6);
}

int ecf_cache_sweep(size_t *removed_out, const char *dir, long now,
                    long max_age_s)
{
    DIR *d;
    struct dirent *e;
    int dfd;

    *removed_out = 0;
    d = opendir(dir);
    if (!d)
        return ECF_EIO;
    dfd = dirfd(d);
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (!is_cache_temp(e->d_name))
            continue;
        /* lstat: a symlink with a temporary's name is left alone. */
        if (fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
            !S_ISREG(st.st_mode) || (long)st.st_mtime > now - max_age_s)
            continue;
        if (unlinkat(dfd, e->d_name, 0) == 0)
            (*removed_out)++;
    }
    closedir(d);
    return 0;
}

/* Writes `data` to a new temporary file in `dir`; *tmp_out names it. */
static int write_temp(char **tmp_out, const char *dir, const char *name,
                      const char *data, size_t len, ecf_err *err)
{
    ecf_buf tmpl = ECF_BUF_INIT;
    char *tmp;
    int fd, rc = 0;
    size_t done = 0;

    *tmp_out = NULL;
    ecf_buf_printf(&tmpl, "%s/.%s.XXXXXX", dir, name);
    tmp = ecf_buf_detach(&tmpl);
    fd = mkstemp(tmp);
    if (fd < 0) {
        rc = ecf_err_set(err, ECF_EIO, "%s/%s: cannot create a temporary "
                                       "file: %s",
                         dir, name, strerror(errno));
        free(tmp);
        return rc;
    }
    while (done < len) {
        ssize_t n = write(fd, data + done, len - done);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0) {
            rc = ecf_err_set(err, ECF_EIO, "%s: %s", tmp,
                             strerror(n < 0 ? errno : EIO));
            goto fail;
        }
        done += (size_t)n;
    }
    /* 0600: the files hold no secret (endpoint passwords are redacted
     * before they reach the metadata), but they are the user's own state
     * in a 0700 directory and nobody else needs them (docs/security.md). */
    if (fchmod(fd, 0600) != 0 || fsync(fd) != 0) {
        rc = ecf_err_set(err, ECF_EIO, "%s: %s", tmp, strerror(errno));
        goto fail;
    }
    if (close(fd) != 0) {
        fd = -1;
        rc = ecf_err_set(err, ECF_EIO, "%s: %s", tmp, strerror(errno));
        goto fail;
    }
    *tmp_out = tmp;
    return 0;
fail:
    if (fd >= 0)
        close(fd);
    unlink(tmp);
    free(tmp);
    return rc;
}

static char *meta_json(const char *sha, size_t len, const ecf_cache_meta *m)
{
    cJSON *root = cJSON_CreateObject(), *arr;
    char *text, *copy;
    size_t i;

    cJSON_AddNumberToObject(root, "schema_version", 1);
    cJSON_AddStringToObject(root, "sha256", sha);
    cJSON_AddNumberToObject(root, "bytes", (double)len);
    if (m && m->written_at)
        cJSON_AddStringToObject(root, "written_at", m->written_at);
    if (m && m->as_of)
        cJSON_AddStringToObject(root, "as_of", m->as_of);
    arr = cJSON_AddArrayToObject(root, "sources");
    for (i = 0; m && i < m->n_sources; i++) {
        cJSON *s = cJSON_CreateObject();
        cJSON_AddStringToObject(s, "id", m->sources[i].id);
        cJSON_AddStringToObject(s, "origin", m->sources[i].origin);
        cJSON_AddStringToObject(s, "as_of", m->sources[i].as_of);
        cJSON_AddItemToArray(arr, s);
    }
    text = cJSON_Print(root);
    if (!text) {
        fputs("ec2fit: out of memory\n", stderr);
        abort();
    }
    copy = ecf_xmalloc(strlen(text) + 2);
    sprintf(copy, "%s\n", text);
    cJSON_free(text);
    cJSON_Delete(root);
    return copy;
}

int ecf_cache_write(const char *dir, const char *data, size_t len,
                    const ecf_cache_meta *meta, ecf_err *err)
{
    char sha[ECF_SHA256_HEX_LEN + 1];
    char *meta_text = NULL, *tmp_cat = NULL, *tmp_meta = NULL;
    char *cat_path = NULL, *meta_path = NULL;
    int rc, dfd;

    rc = mkdirs(dir, err);
    if (rc < 0)
        return rc;
    ecf_crypto_sha256_hex(sha, data, len);
    meta_text = meta_json(sha, len, meta);
    cat_path = ecf_cache_path(dir, ECF_CACHE_CATALOG);
    meta_path = ecf_cache_path(dir, ECF_CACHE_META);

    rc = write_temp(&tmp_cat, dir, ECF_CACHE_CATALOG, data, len, err);
    if (rc < 0)
        goto out;
    rc = write_temp(&tmp_meta, dir, ECF_CACHE_META, meta_text,
                    strlen(meta_text), err);
    if (rc < 0)
        goto out;
    if (rename(tmp_cat, cat_path) != 0) {
        rc = ecf_err_set(err, ECF_EIO, "%s: %s", cat_path, strerror(errno));
        goto out;
    }
    free(tmp_cat);
    tmp_cat = NULL;
    if (rename(tmp_meta, meta_path) != 0) {
        rc = ecf_err_set(err, ECF_EIO, "%s: %s", meta_path, strerror(errno));
        goto out;
    }
    free(tmp_meta);
    tmp_meta = NULL;
    /* Make the renames durable. */
    dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
out:
    if (tmp_cat) {
        unlink(tmp_cat);
        free(tmp_cat);
    }
    if (tmp_meta) {
        unlink(tmp_meta);
        free(tmp_meta);
    }
    free(meta_text);
    free(cat_path);
    free(meta_path);
    return rc;
}

int ecf_cache_read(ecf_buf *out, const char *dir, ecf_err *err)
{
    char *cat_path = ecf_cache_path(dir, ECF_CACHE_CATALOG);
    char *meta_path = ecf_cache_path(dir, ECF_CACHE_META);
    char sha[ECF_SHA256_HEX_LEN + 1];
    ecf_buf meta = ECF_BUF_INIT;
    cJSON *root = NULL;
    const cJSON *want, *bytes;
    struct stat st;
    int rc = 0;

    ecf_buf_clear(out);
    if (stat(cat_path, &st) != 0 && errno == ENOENT) {
        rc = ecf_err_set(err, ECF_ENOTFOUND, "%s: no cache", cat_path);
        goto out;
    }
    rc = ecf_buf_read_file(&meta, meta_path, META_MAX_BYTES, err);
    if (rc < 0) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: missing or unreadable",
                         meta_path);
        goto out;
    }
    root = cJSON_ParseWithLengthOpts(meta.data, meta.len, NULL, 0);
    want = cJSON_GetObjectItemCaseSensitive(root, "sha256");
    bytes = cJSON_GetObjectItemCaseSensitive(root, "bytes");
    if (!cJSON_IsString(want) || !cJSON_IsNumber(bytes)) {
        rc = ecf_err_set(err, ECF_EPARSE, "%s: expected sha256 and bytes",
                         meta_path);
        goto out;
    }
    rc = ecf_buf_read_file(out, cat_path, ECF_CACHE_MAX_BYTES, err);
    if (rc < 0)
        goto out;
    ecf_crypto_sha256_hex(sha, out->data, out->len);
    if ((double)out->len != bytes->valuedouble ||
        strcmp(sha, want->valuestring) != 0) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: SHA-256 does not match %s", cat_path,
                         ECF_CACHE_META);
        goto out;
    }
out:
    if (rc < 0)
        ecf_buf_clear(out);
    cJSON_Delete(root);
    ecf_buf_dispose(&meta);
    free(cat_path);
    free(meta_path);
    return rc;
}
