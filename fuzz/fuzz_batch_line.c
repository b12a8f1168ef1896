/*
 * fuzz_batch_line.c - libFuzzer harness for `ec2fit recommend --batch -`:
 * the input is the JSON-lines stream on stdin (fuzz_stdin_common.h), so
 * the bounded line reader, the strict parse of each line
 * (ecf_json_check), every field's checks and the recommend pipeline all
 * run, on one thread (--threads is not a flag: the harness's inputs are a
 * few lines, under the engine's chunk size).
 */
#include <string.h>

#include "fuzz_stdin_common.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    fuzz_env();
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[] = {(char *)"recommend", (char *)"--batch", (char *)"-",
                    (char *)"--top", (char *)"2", NULL};
    /* A few short lines: each runs a whole recommendation. "batch" and
     * "output-file" keys would read or write other files. */
    if (size > 4096 || memmem(data, size, "output", 6) ||
        memmem(data, size, "model-config", 12) ||
        memmem(data, size, "catalog", 7) || memmem(data, size, "rules", 5))
        return 0;
    if (fuzz_stdin(data, size) != 0)
        return 0;
    (void)cmd_recommend(5, argv);
    return 0;
}
