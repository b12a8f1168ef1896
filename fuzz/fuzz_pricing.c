/*
 * fuzz_pricing.c - libFuzzer harness for the Pricing API GetProducts
 * response parser (one page into a table, then the duplicate resolution).
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "ec2fit/pricing.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_pricing_table *t = ecf_pricing_table_new();
    ecf_err err = ECF_ERR_INIT;
    char *next = NULL;

    if (ecf_pricing_parse_products(&next, t, "us-east-1", (const char *)data,
                                   size, &err) == 0) {
        ecf_pricing_table_finish(t);
        (void)ecf_pricing_table_get(t, "us-east-1", "p4d.24xlarge", NULL);
    }
    free(next);
    ecf_pricing_table_free(t);
    return 0;
}
