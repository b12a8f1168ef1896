/*
 * region_name.c - region versus zone group names (ec2fit/region_name.h).
 * AWS names a region <area>-<direction>-<n> and a zone group after its
 * parent region: "<region>-<city>-<n>" for Local Zones, "<region>-wl<n>-
 * <city><n>" for Wavelength (docs.aws.amazon.com/local-zones, /wavelength).
 */
#include "ec2fit/region_name.h"

#include <ctype.h>
#include <string.h>

bool ecf_region_parent(char *out, size_t n, const char *location)
{
    const char *p = location, *end = NULL;
    size_t len;

    /* the first all-digit part after at least two parts */
    for (int part = 0; *p; part++) {
        const char *q = p;
        bool digits = true;
        while (*q && *q != '-') {
            if (!isdigit((unsigned char)*q))
                digits = false;
            q++;
        }
        if (digits && q > p && part >= 2) {
            end = q;
            break;
        }
        p = *q ? q + 1 : q;
    }
    len = end ? (size_t)(end - location) : strlen(location);
    if (n > 0) {
        size_t k = len < n - 1 ? len : n - 1;
        memcpy(out, location, k);
        out[k] = '\0';
    }
    return end && *end == '-';
}
