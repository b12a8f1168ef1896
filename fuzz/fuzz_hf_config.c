/*
 * fuzz_hf_config.c - libFuzzer harness for the Hugging Face config.json
 * import (--model-config).
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/zoo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_model m;
    ecf_err err = ECF_ERR_INIT;

    (void)ecf_model_from_hf_config(&m, (const char *)data, size, "fuzz.json",
                                   &err);
    return 0;
}
