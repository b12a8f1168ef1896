/*
 * fuzz_spot.c - libFuzzer harness for the Spot Advisor feed parser, once
 * for every region and once filtered to two.
 */
#include <stddef.h>
#include <stdint.h>

#include "ec2fit/pricing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static const char *const regions[] = {"us-east-1", "eu-west-1"};
    ecf_spot_table *t = NULL;
    ecf_err err = ECF_ERR_INIT;

    if (ecf_spot_parse(&t, (const char *)data, size, NULL, 0, &err) == 0)
        (void)ecf_spot_table_count(t);
    ecf_spot_table_free(t);
    t = NULL;
    (void)ecf_spot_parse(&t, (const char *)data, size, regions, 2, &err);
    ecf_spot_table_free(t);
    return 0;
}
