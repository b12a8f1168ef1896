/*
 * fuzz_catalog_packed.c - libFuzzer harness for ecf_catalog_load_packed:
 * nothing in a blob is trusted (catalog.h), so any bytes must be safe.
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_catalog *cat = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (ecf_catalog_load_packed(&cat, data, size, "fuzz.packed", &err) == 0)
        (void)ecf_catalog_find(cat, "p4d.24xlarge");
    ecf_catalog_free(cat);
    return 0;
}
