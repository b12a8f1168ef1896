/*
 * fuzz_awscreds.c - libFuzzer harness for the AWS shared credentials and
 * config INI parser. The parser reads files only, so the input is written
 * to a private temporary file used as both AWS_SHARED_CREDENTIALS_FILE and
 * AWS_CONFIG_FILE (with a named profile, so both sections are searched).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ec2fit/awscreds.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static char path[64];

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_awscreds_env env = {NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    ecf_awscreds creds = ECF_AWSCREDS_INIT;
    ecf_err err = ECF_ERR_INIT;
    const char *profiles[] = {NULL, "dev"};
    FILE *f;
    size_t i;

    if (!path[0])
        snprintf(path, sizeof(path), "/tmp/ecf_fuzz_awscreds.%ld",
                 (long)getpid());
    f = fopen(path, "wb");
    if (!f)
        abort();
    if (size && fwrite(data, 1, size, f) != size)
        abort();
    if (fclose(f) != 0)
        abort();
    env.shared_credentials_file = path;
    env.config_file = path;
    env.home = "/nonexistent";
    for (i = 0; i < 2; i++) {
        env.profile = profiles[i];
        if (ecf_awscreds_resolve(&creds, &env, &err) == 0)
            ecf_awscreds_dispose(&creds);
    }
    return 0;
}
