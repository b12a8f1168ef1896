/*
 * fuzz_rules.c - libFuzzer harness for the rules loader (rules.json).
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_rules rules;
    ecf_err err = ECF_ERR_INIT;

    (void)ecf_rules_load_buffer(&rules, (const char *)data, size, "fuzz.json",
                                &err);
    return 0;
}
