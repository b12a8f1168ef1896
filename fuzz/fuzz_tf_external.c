/*
 * fuzz_tf_external.c - libFuzzer harness for `ec2fit tf-external`: the
 * input is Terraform's query object on stdin (fuzz_stdin_common.h), so
 * the strict parse (ecf_json_parse: trailing data, duplicate keys,
 * \u0000, UTF-8), the key-to-flag mapping and the recommend pipeline run.
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
    char *argv[] = {(char *)"tf-external", NULL};
    /* Keys that name files would read other files. */
    if (size > 8192 || memmem(data, size, "model-config", 12) ||
        memmem(data, size, "model_config", 12) ||
        memmem(data, size, "catalog", 7) || memmem(data, size, "rules", 5))
        return 0;
    if (fuzz_stdin(data, size) != 0)
        return 0;
    (void)cmd_tf_external(1, argv);
    return 0;
}
