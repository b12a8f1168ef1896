/*
 * test_cache.c - cache path rules, atomic replace, the SHA-256 sidecar
 * check, and the update lock. rename() and fsync() are wrapped
 * (test_cache.wrap) so a failure can be injected at each step; after every
 * injected failure the previous cache must be byte-identical and no
 * temporary file may remain.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "ec2fit/cache.h"

int __real_rename(const char *from, const char *to);
int __wrap_rename(const char *from, const char *to);
int __real_fsync(int fd);
int __wrap_fsync(int fd);

static int fail_rename_at; /* 1-based call to fail, 0 = none */
static int fail_fsync_at;
static int rename_calls, fsync_calls;

int __wrap_rename(const char *from, const char *to)
{
    if (fail_rename_at && ++rename_calls == fail_rename_at) {
        errno = EXDEV;
        return -1;
    }
    return __real_rename(from, to);
}

int __wrap_fsync(int fd)
{
    if (fail_fsync_at && ++fsync_calls == fail_fsync_at) {
        errno = EIO;
        return -1;
    }
    return __real_fsync(fd);
}

static char dir[64];

static int setup(void **state)
{
    (void)state;
    strcpy(dir, "/tmp/ecf_cache_XXXXXX");
    if (!mkdtemp(dir))
        return -1;
    fail_rename_at = fail_fsync_at = rename_calls = fsync_calls = 0;
    return 0;
}

static int teardown(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    return system(cmd) == 0 ? 0 : -1;
}

static const ecf_cache_source srcs[] = {
    {"spot_advisor", "http://127.0.0.1/x", "2026-11-28"}};
static const ecf_cache_meta meta = {"2026-11-29T00:00:00Z", "2026-11-28",
                                    srcs, 1};

static char *slurp(const char *name)
{
    ecf_buf b = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    char *p = ecf_cache_path(dir, name);
    int rc = ecf_buf_read_file(&b, p, 1 << 20, &err);
    free(p);
    if (rc < 0) {
        ecf_buf_dispose(&b);
        return NULL;
    }
    return ecf_buf_detach(&b);
}

static size_t count_entries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    size_t n = 0;
    assert_non_null(d);
    while ((e = readdir(d)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
            n++;
    closedir(d);
    return n;
}

static void test_cache__dir_rules(void **state)
{
    char *d = NULL;
    ecf_err err = ECF_ERR_INIT;
    (void)state;
    assert_int_equal(ecf_cache_dir(&d, "/x/cache", "/home/u", &err), 0);
    assert_string_equal(d, "/x/cache/ec2fit");
    free(d);
    /* A relative XDG_CACHE_HOME is ignored (XDG Base Directory spec). */
    assert_int_equal(ecf_cache_dir(&d, "rel", "/home/u", &err), 0);
    assert_string_equal(d, "/home/u/.cache/ec2fit");
    free(d);
    assert_int_equal(ecf_cache_dir(&d, "", NULL, &err), ECF_ENOTFOUND);
    assert_null(d);
}

static void test_cache__write_then_read(void **state)
{
    ecf_buf b = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    char *m;
    (void)state;
    assert_int_equal(ecf_cache_read(&b, dir, &err), ECF_ENOTFOUND);
    assert_int_equal(ecf_cache_write(dir, "{\"a\":1}", 7, &meta, &err), 0);
    assert_int_equal(ecf_cache_read(&b, dir, &err), 0);
    assert_string_equal(b.data, "{\"a\":1}");
    m = slurp(ECF_CACHE_META);
    /* sha256 of {"a":1} */
    assert_non_null(strstr(m, "\"sha256\":\t\"015abd7f5cc57a2dd94b7590f04ad8"
                              "084273905ee33ec5cebeae62276a97f862\""));
    assert_non_null(strstr(m, "\"as_of\":\t\"2026-11-28\""));
    assert_non_null(strstr(m, "\"id\":\t\"spot_advisor\""));
    free(m);
    assert_int_equal(count_entries(), 2);
    ecf_buf_dispose(&b);
}

static void test_cache__detects_tampering(void **state)
{
    ecf_buf b = ECF_BUF_INIT;
    ecf_err err = ECF_ERR_INIT;
    char *p;
    FILE *f;
    (void)state;
    assert_int_equal(ecf_cache_write(dir, "{\"a\":1}", 7, &meta, &err), 0);
    p = ecf_cache_path(dir, ECF_CACHE_CATALOG);
    f = fopen(p, "w");
    fputs("{\"a\":2}", f);
    fclose(f);
    free(p);
    assert_int_equal(ecf_cache_read(&b, dir, &err), ECF_EPARSE);
    assert_non_null(strstr(err.msg, "SHA-256 does not match"));
    assert_int_equal(b.len, 0);
    p = ecf_cache_path(dir, ECF_CACHE_META);
    unlink(p);
    free(p);
    assert_int_equal(ecf_cache_read(&b, dir, &err), ECF_EPARSE);
    ecf_buf_dispose(&b);
}

/* Every injected failure leaves the previous pair byte-identical. */
static void test_cache__failure_keeps_previous(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    char *cat0, *meta0, *cat1, *meta1;
    int step;
    (void)state;
    assert_int_equal(ecf_cache_write(dir, "{\"old\":1}", 9, &meta, &err), 0);
    cat0 = slurp(ECF_CACHE_CATALOG);
    meta0 = slurp(ECF_CACHE_META);
    /* fsync #1 = catalog temp, #2 = sidecar temp; rename #1 = catalog. */
    for (step = 0; step < 3; step++) {
        fail_rename_at = fail_fsync_at = rename_calls = fsync_calls = 0;
        if (step < 2)
            fail_fsync_at = step + 1;
        else
            fail_rename_at = 1;
        assert_int_equal(
            ecf_cache_write(dir, "{\"new\":22}", 10, &meta, &err), ECF_EIO);
        cat1 = slurp(ECF_CACHE_CATALOG);
        meta1 = slurp(ECF_CACHE_META);
        assert_string_equal(cat0, cat1);
        assert_string_equal(meta0, meta1);
        assert_int_equal(count_entries(), 2); /* no temporary left */
        free(cat1);
        free(meta1);
    }
    free(cat0);
    free(meta0);
}

static void test_cache__lock_is_exclusive(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    bool waited = true;
    int fd = -1, other;
    char *p;
    (void)state;
    assert_int_equal(ecf_cache_lock(&fd, dir, &waited, &err), 0);
    assert_false(waited);
    /* flock locks belong to the open file description: a second open in
     * the same process conflicts like another process would. */
    p = ecf_cache_path(dir, ECF_CACHE_LOCK);
    other = open(p, O_RDWR);
    assert_true(other >= 0);
    assert_int_equal(flock(other, LOCK_EX | LOCK_NB), -1);
    assert_int_equal(errno, EWOULDBLOCK);
    ecf_cache_unlock(fd);
    assert_int_equal(flock(other, LOCK_EX | LOCK_NB), 0);
    close(other);
    free(p);
}

static void test_cache__creates_missing_dirs(void **state)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_buf b = ECF_BUF_INIT, sub = ECF_BUF_INIT;
    (void)state;
    ecf_buf_printf(&sub, "%s/a/b/ec2fit", dir);
    assert_int_equal(ecf_cache_write(sub.data, "{}", 2, NULL, &err), 0);
    assert_int_equal(ecf_cache_read(&b, sub.data, &err), 0);
    ecf_buf_dispose(&b);
    ecf_buf_dispose(&sub);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache__dir_rules),
        cmocka_unit_test_setup_teardown(test_cache__write_then_read, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cache__detects_tampering, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cache__failure_keeps_previous,
                                        setup, teardown),
        cmocka_unit_test_setup_teardown(test_cache__lock_is_exclusive, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(test_cache__creates_missing_dirs,
                                        setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
