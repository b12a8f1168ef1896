/*
 * fuzz_zoo_packed.c - libFuzzer harness for ecf_zoo_load_packed: the
 * loader checks a blob's header, length and each model's kind and names,
 * so any bytes must be refused or loaded without a fault, and a loaded
 * zoo's lookups must stay inside its NUL-terminated keys.
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/zoo.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_zoo *zoo = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (ecf_zoo_load_packed(&zoo, data, size, "fuzz.packed", &err) == 0) {
        (void)ecf_zoo_find(zoo, "resnet50");
        (void)ecf_zoo_find(zoo, ecf_zoo_at(zoo, 0)->name);
    }
    ecf_zoo_free(zoo);
    return 0;
}
