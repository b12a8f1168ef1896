/*
 * fuzz_stdin_common.h - shared by the harnesses that feed a CLI command
 * its stdin (fuzz_batch_line.c, fuzz_tf_external.c): the input is written
 * to a memfd and stdin reopened on it, so the command reads it exactly as
 * it reads a pipe or a file. Output goes to /dev/null; only crashes,
 * leaks, hangs and sanitizer reports count.
 */
#ifndef EC2FIT_FUZZ_STDIN_COMMON_H
#define EC2FIT_FUZZ_STDIN_COMMON_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd.h"

/* Defined in main.c, which is not linked in (cmd_completion.c uses it). */
__attribute__((weak)) const ecf_cmd *cli_commands(size_t *n_out)
{
    *n_out = 0;
    return NULL;
}

static void fuzz_env(void)
{
    /* No cache, no user catalog, no colour: the embedded data only. */
    setenv("EC2FIT_CATALOG", "", 1);
    setenv("XDG_CACHE_HOME", "/nonexistent", 1);
    setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
    setenv("HOME", "/nonexistent", 1);
    setenv("NO_COLOR", "1", 1);
    if (!freopen("/dev/null", "w", stdout))
        abort();
}

/* Points stdin at a copy of data; 0, or -1 when that failed. */
static int fuzz_stdin(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = memfd_create("fuzz-stdin", 0);
    if (fd < 0)
        return -1;
    if (size && write(fd, data, size) != (ssize_t)size) {
        close(fd);
        return -1;
    }
    snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
    if (!freopen(path, "r", stdin)) {
        close(fd);
        return -1;
    }
    close(fd); /* stdin holds its own descriptor */
    clearerr(stdin);
    return 0;
}

#endif
