/*
 * fuzz_recommend_args.c - libFuzzer harness for `ec2fit recommend`'s
 * argument parsing: the input, split on NUL and newline, becomes argv for
 * cmd_recommend (the CLI sources minus main.c are linked in). Output goes
 * to /dev/null; only crashes, leaks and sanitizer reports count.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define MAX_ARGS 32

/* Defined in main.c, which is not linked in (cmd_completion.c uses it). */
__attribute__((weak)) const ecf_cmd *cli_commands(size_t *n_out)
{
    *n_out = 0;
    return NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    /* No cache, no user catalog, no colour: the embedded data only. */
    setenv("EC2FIT_CATALOG", "", 1);
    setenv("XDG_CACHE_HOME", "/nonexistent", 1);
    setenv("XDG_CONFIG_HOME", "/nonexistent", 1);
    setenv("NO_COLOR", "1", 1);
    /* stderr stays: libFuzzer and the sanitizers report there (run.sh
     * passes -close_fd_mask=2, which keeps their copy of it). */
    if (!freopen("/dev/null", "w", stdout))
        abort();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *buf, *p, *end;
    char *argv[MAX_ARGS + 2];
    int argc = 0;

    /* --output-file would let the fuzzer write files anywhere. */
    if (size > 4096 || memmem(data, size, "output-file", 11))
        return 0;
    buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    argv[argc++] = (char *)"recommend";
    p = buf;
    end = buf + size;
    while (p <= end && argc < MAX_ARGS + 1) {
        char *q = p;
        while (q < end && *q != '\0' && *q != '\n')
            q++;
        *q = '\0';
        argv[argc++] = p;
        p = q + 1;
    }
    argv[argc] = NULL;
    (void)cmd_recommend(argc, argv);
    free(buf);
    return 0;
}
