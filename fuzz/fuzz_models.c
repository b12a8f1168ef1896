/*
 * fuzz_models.c - libFuzzer harness for the model zoo loader (models.json).
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/zoo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (ecf_zoo_load_buffer(&zoo, (const char *)data, size, "fuzz.json",
                            &err) == 0)
        (void)ecf_zoo_find(zoo, "llama-3-8b");
    ecf_zoo_free(zoo);
    return 0;
}
