/*
 * fuzz_images.c - libFuzzer harness for the images.json loader.
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/images.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_images imgs;
    ecf_err err = ECF_ERR_INIT;

    (void)ecf_images_load_buffer(&imgs, (const char *)data, size, "fuzz.json",
                                 &err);
    return 0;
}
