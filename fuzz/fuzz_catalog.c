/*
 * fuzz_catalog.c - libFuzzer harness for the JSON catalog loader. A
 * catalog that loads is packed and the blob loaded back, so the packer
 * also sees every shape the loader accepts.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ec2fit/catalog.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_catalog *cat = NULL, *back = NULL;
    ecf_err err = ECF_ERR_INIT;
    void *blob = NULL;
    size_t len = 0;

    if (ecf_catalog_load_buffer(&cat, (const char *)data, size, "fuzz.json",
                                &err) == 0) {
        /* A valid catalog must survive the pack/load round trip. */
        if (ecf_catalog_pack(&blob, &len, cat, &err) == 0 &&
            ecf_catalog_load_packed(&back, blob, len, "fuzz.packed", &err) != 0)
            abort();
        ecf_catalog_free(back);
        free(blob);
    }
    ecf_catalog_free(cat);
    return 0;
}
