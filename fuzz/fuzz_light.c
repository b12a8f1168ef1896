/*
 * fuzz_light.c - libFuzzer harness for the Lambda/Lightsail data loader.
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/light.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_light *light = NULL;
    ecf_err err = ECF_ERR_INIT;

    (void)ecf_light_load_buffer(&light, (const char *)data, size, "fuzz.json",
                                &err);
    ecf_light_free(light);
    return 0;
}
