/*
 * cli_catalog.c - which catalog a command uses, and whether to warn that it
 * is stale.
 *
 * Order: --catalog FILE (or "embedded"), $EC2FIT_CATALOG, the cache that
 * `ec2fit update` writes when it is valid (SHA-256 matches its sidecar and
 * the loader accepts it) and newer than the embedded copy, then the
 * embedded copy. Every catalog is validated by the same loader.
 *
 * Staleness (docs/update.md): a catalog whose as_of is more than 30 days
 * old (EC2FIT_STALE_DAYS overrides; 0 turns the warning off) gets one
 * warning line on stderr, whether or not stderr is a terminal (issue 26:
 * CI must learn that prices are months old); `ec2fit --quiet COMMAND`
 * suppresses it. Golden and script tests pin EC2FIT_STALE_DAYS=0 (or
 * EC2FIT_NOW) so their stderr does not depend on the day they run.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cmd.h"
#include "parse.h"
#include "ec2fit/buf.h"
#include "ec2fit/cache.h"

#define STALE_DAYS_DEFAULT 30


typedef enum { SRC_EMBEDDED, SRC_FILE, SRC_CACHE } src_kind;

#define NOW_MAX 253402300799L /* 9999-12-31T23:59:59Z */

static char *cache_label; /* "cache:PATH", lives until exit */

bool cli_quiet; /* ec2fit --quiet: no staleness warning */

long cli_now(void)
{
    /* EC2FIT_NOW (seconds since the epoch) pins "today" for the tests of
     * staleness and of the dates an update records. */
    const char *s = getenv("EC2FIT_NOW");
    static bool warned;
    if (s && *s) {
        char *end = NULL;
        long v;
        errno = 0;
        v = strtol(s, &end, 10);
        /* up to 9999-12-31T23:59:59Z: the date code's four-digit years,
         * and far from overflowing now + a day or days * 86400 */
        if (ecf_parse_plain_number(s, true) && !errno && !*end && v > 0 &&
            v <= NOW_MAX)
            return v;
        if (!warned)
            cli_warn("EC2FIT_NOW: expected seconds since 1970 from 1 to %ld "
                     "(9999-12-31), got '%s'; using the clock",
                     NOW_MAX, s);
        warned = true;
    }
    return (long)time(NULL);
}

static void warn_if_stale(const ecf_catalog *cat, src_kind kind,
                          const char *label)
{
    const char *env = getenv("EC2FIT_STALE_DAYS");
    long limit = STALE_DAYS_DEFAULT, age;

    if (env && *env) {
        char *end = NULL;
        long v;
        errno = 0;
        v = strtol(env, &end, 10);
        if (ecf_parse_plain_number(env, true) && !errno && !*end && v >= 0)
            limit = v;
    }
    if (limit == 0 || cli_quiet)
        return;
    /* the same age the JSON, tfvars and tf-external outputs show */
    age = ecf_catalog_age_days(cat, cli_now());
    if (age < 0 || age <= limit)
        return;
    cli_warn("the %s catalog has prices as of %s, %ld days old; run "
             "'ec2fit update' to refresh",
             kind == SRC_EMBEDDED ? "built-in"
             : kind == SRC_CACHE  ? "cached"
                                  : label,
             ecf_catalog_as_of(cat), age);
}

static int load_embedded(ecf_catalog **out, ecf_buf *text, ecf_err *err)
{
    size_t len = 0;
    const char *data = ecf_catalog_embedded(&len);
    if (!data)
        return ecf_err_set(err, ECF_EIO,
                           "this build has no embedded catalog; pass "
                           "--catalog FILE or set EC2FIT_CATALOG");
    if (text) {
        ecf_buf_clear(text);
        ecf_buf_append(text, data, len);
        return ecf_catalog_load_buffer(out, data, len, "embedded catalog",
                                       err);
    }
    /* No JSON text wanted: the packed form validated at build time loads
     * in microseconds instead of the JSON's ~14 ms. */
    return ecf_catalog_load_embedded(out, err);
}

/* Is catalog a strictly newer than b? as_of first, then generated_at. */
static bool newer(const ecf_catalog *a, const ecf_catalog *b)
{
    int c = strcmp(ecf_catalog_as_of(a), ecf_catalog_as_of(b));
    if (c)
        return c > 0;
    return strcmp(ecf_catalog_generated_at(a) ? ecf_catalog_generated_at(a)
                                              : "",
                  ecf_catalog_generated_at(b) ? ecf_catalog_generated_at(b)
                                              : "") > 0;
}

/* The valid cache, or NULL (with a warning when a cache exists but is
 * broken: a hash mismatch or a catalog the loader rejects). */
static ecf_catalog *try_cache(ecf_buf *text)
{
    char *dir = NULL;
    ecf_buf data = ECF_BUF_INIT;
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (ecf_cache_dir(&dir, getenv("XDG_CACHE_HOME"), getenv("HOME"),
                      &err) != 0)
        return NULL;
    if (ecf_cache_read(&data, dir, &err) != 0) {
        if (err.code != ECF_ENOTFOUND)
            cli_warn("ignoring the catalog cache: %s", err.msg);
        goto out;
    }
    free(cache_label);
    {
        ecf_buf l = ECF_BUF_INIT;
        ecf_buf_printf(&l, "cache:%s/%s", dir, ECF_CACHE_CATALOG);
        cache_label = ecf_buf_detach(&l);
    }
    if (ecf_catalog_load_buffer(&cat, data.data, data.len, cache_label,
                                &err) != 0 ||
        ecf_catalog_check_dates(cat, cache_label, cli_now(), &err) != 0) {
        ecf_catalog_free(cat);
        cli_warn("ignoring the catalog cache: %s", err.msg);
        cat = NULL;
        goto out;
    }
    if (text) {
        ecf_buf_clear(text);
        ecf_buf_append(text, data.data, data.len);
    }
out:
    ecf_buf_dispose(&data);
    free(dir);
    return cat;
}

static int select_catalog(ecf_catalog **out, ecf_buf *text,
                          const char **label_out, src_kind *kind_out,
                          const cli_catalog_opts *opts, ecf_err *err)
{
    const char *path = opts ? opts->path : NULL;
    ecf_catalog *cache = NULL, *emb = NULL;
    ecf_buf cache_text = ECF_BUF_INIT;
    size_t emb_len = 0;
    int rc;

    *out = NULL;
    if (!path || !*path) {
        const char *env = getenv("EC2FIT_CATALOG");
        if (env && *env)
            path = env;
    }
    if (path && strcmp(path, "embedded") == 0) {
        *label_out = "embedded";
        *kind_out = SRC_EMBEDDED;
        return load_embedded(out, text, err);
    }
    if (path) {
        *label_out = path;
        *kind_out = SRC_FILE;
        if (text) {
            rc = ecf_buf_read_file(text, path, ECF_CATALOG_MAX_BYTES, err);
            if (rc < 0)
                return rc;
            return ecf_catalog_load_buffer(out, text->data, text->len, path,
                                           err);
        }
        return ecf_catalog_load_file(out, path, err);
    }

    cache = try_cache(text ? &cache_text : NULL);
    if (ecf_catalog_embedded(&emb_len) == NULL && cache) {
        rc = 0;
        goto use_cache;
    }
    rc = load_embedded(&emb, text, err);
    if (rc < 0 && !cache)
        goto out;
    if (cache && (rc < 0 || newer(cache, emb)))
        goto use_cache;
    *out = emb;
    emb = NULL;
    *label_out = "embedded";
    *kind_out = SRC_EMBEDDED;
    rc = 0;
    goto out;
use_cache:
    *out = cache;
    cache = NULL;
    *label_out = cache_label;
    *kind_out = SRC_CACHE;
    if (text) {
        ecf_buf_clear(text);
        ecf_buf_append(text, cache_text.data, cache_text.len);
    }
    rc = 0;
out:
    ecf_catalog_free(cache);
    ecf_catalog_free(emb);
    ecf_buf_dispose(&cache_text);
    return rc;
}

/* A date more than a day in the future is an error in a file or the
 * built-in catalog (docs/security.md); the cache is checked in try_cache.
 * The clock is read here, in the CLI, and passed to the core. */
static int check_dates(ecf_catalog **cat, const char *label, ecf_err *err)
{
    int rc = ecf_catalog_check_dates(*cat, label, cli_now(), err);
    if (rc) {
        ecf_catalog_free(*cat);
        *cat = NULL;
    }
    return rc;
}

int cli_open_catalog(ecf_catalog **out, const cli_catalog_opts *opts,
                     const char **label_out, ecf_err *err)
{
    const char *label = NULL;
    src_kind kind = SRC_EMBEDDED;
    int rc = select_catalog(out, NULL, &label, &kind, opts, err);
    if (rc == 0)
        rc = check_dates(out, label, err);
    if (rc == 0)
        warn_if_stale(*out, kind, label);
    if (label_out)
        *label_out = label;
    return rc;
}

int cli_catalog_text(ecf_buf *text_out, const char **label_out,
                     const cli_catalog_opts *opts, ecf_err *err)
{
    ecf_catalog *cat = NULL;
    const char *label = NULL;
    src_kind kind = SRC_EMBEDDED;
    int rc = select_catalog(&cat, text_out, &label, &kind, opts, err);
    if (rc == 0)
        rc = check_dates(&cat, label, err);
    ecf_catalog_free(cat);
    if (label_out)
        *label_out = label;
    return rc;
}
