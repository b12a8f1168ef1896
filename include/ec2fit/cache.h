/**
 * ec2fit/cache.h - the catalog cache that `ec2fit update` writes and every
 * command may read: DIR/catalog.json plus DIR/catalog.json.meta (JSON:
 * SHA-256, size, dates of the sources), where DIR is
 * $XDG_CACHE_HOME/ec2fit or ~/.cache/ec2fit.
 *
 * Writes are atomic per file (temporary file in DIR, fsync, rename, fsync
 * of DIR), so a failed update leaves the previous cache byte for byte. A
 * reader accepts the catalog only when its SHA-256 matches the sidecar, so
 * a torn pair (a crash between the two renames) reads as "no cache".
 * Concurrent updates are serialised by flock on DIR/update.lock.
 */
#ifndef EC2FIT_CACHE_H
#define EC2FIT_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/buf.h"
#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_CACHE_CATALOG "catalog.json"
#define ECF_CACHE_META "catalog.json.meta"
#define ECF_CACHE_LOCK "update.lock"
#define ECF_CACHE_MAX_BYTES (64u * 1024u * 1024u)

/** The cache directory: XDG_CACHE_HOME/ec2fit when xdg_cache_home is a
 *  non-empty absolute path (the XDG spec ignores relative ones), else
 *  HOME/.cache/ec2fit. *out is the caller's (free()).
 *  Errors: ECF_ENOTFOUND when neither is usable. */
int ecf_cache_dir(char **out, const char *xdg_cache_home, const char *home,
                  ecf_err *err);

/** One source's provenance, recorded in the sidecar. Borrowed strings. */
typedef struct {
    const char *id;     /* "pricing_api", "spot_advisor" */
    const char *origin; /* URL */
    const char *as_of;  /* YYYY-MM-DD */
} ecf_cache_source;

/** Sidecar contents besides the hash and size. Borrowed strings. */
typedef struct {
    const char *written_at; /* RFC 3339 UTC */
    const char *as_of;      /* the catalog's as_of */
    const ecf_cache_source *sources;
    size_t n_sources;
} ecf_cache_meta;

/** Takes the update lock: creates DIR (0700, with parents) and
 *  DIR/update.lock (0600, opened with O_NOFOLLOW: a symlink there is an
 *  error "PATH: is a symbolic link (refusing to follow it)", as is a FIFO
 *  or device, "PATH: not a regular file"), and holds an exclusive flock on
 *  it, waiting for a concurrent update to finish. *waited_out (optional)
 *  says whether it had to wait. *fd_out is released with ecf_cache_unlock.
 *  Errors: ECF_EIO. */
int ecf_cache_lock(int *fd_out, const char *dir, bool *waited_out,
                   ecf_err *err);
void ecf_cache_unlock(int fd);

/** Atomically replaces DIR/catalog.json with `data` and then the sidecar.
 *  On failure both files are left as they were and no temporary file
 *  remains. Errors: ECF_EIO "DIR/catalog.json: STRERROR". */
int ecf_cache_write(const char *dir, const char *data, size_t len,
                    const ecf_cache_meta *meta, ecf_err *err);

/** Removes the temporaries a killed update left in DIR (".catalog.json.*"
 *  and ".catalog.json.meta.*" with mkstemp's 6-character suffix, regular
 *  files only) whose mtime is more than `max_age_s` seconds before `now`.
 *  Call it holding the lock. *removed_out counts them. Returns ECF_EIO
 *  when DIR cannot be listed (nothing removed). */
int ecf_cache_sweep(size_t *removed_out, const char *dir, long now,
                    long max_age_s);

/** Reads DIR/catalog.json into `out` and checks it against the sidecar.
 *  Errors: ECF_ENOTFOUND (no cache), ECF_EPARSE (sidecar unreadable or
 *  hash/size mismatch: "DIR/catalog.json: SHA-256 does not match
 *  catalog.json.meta"), ECF_EIO. */
int ecf_cache_read(ecf_buf *out, const char *dir, ecf_err *err);

/** Joins DIR and a file name; caller frees. */
char *ecf_cache_path(const char *dir, const char *name);

#ifdef __cplusplus
}
#endif

#endif
