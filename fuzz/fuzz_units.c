/*
 * fuzz_units.c - libFuzzer harness for the unit parsers (7B, 150GB, 24h,
 * $500). The first byte picks the parser; the rest is the text.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/units.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ecf_err err = ECF_ERR_INIT;
    ecf_dataset_unit unit;
    char *s;
    char fmt[32];
    double v = 0;

    if (size < 1 || size > 4096)
        return 0;
    s = malloc(size);
    if (!s)
        return 0;
    memcpy(s, data + 1, size - 1);
    s[size - 1] = '\0';
    switch (data[0] % 4) {
    case 0:
        if (ecf_units_parse_count(&v, "--params", s, &err) == 0)
            ecf_units_format_count(fmt, sizeof(fmt), v);
        break;
    case 1:
        (void)ecf_units_parse_dataset(&v, &unit, "--dataset", s, &err);
        break;
    case 2:
        (void)ecf_units_parse_duration(&v, "--deadline", s, &err);
        break;
    default:
        (void)ecf_units_parse_usd(&v, "--budget", s, &err);
        break;
    }
    free(s);
    return 0;
}
