/*
 * region_check.c - checks a region name against the catalog's priced
 * regions, with a "did you mean" suggestion (the message of --region,
 * --regions and a batch line's "region").
 */
#include "region_check.h"

#include "parse.h"

int ecf_region_check(const ecf_catalog *cat, const char *region,
                     const char *flag, ecf_err *err)
{
    const char *names[ECF_CATALOG_MAX_REGIONS];
    const char *sugg[1];
    size_t n = ecf_catalog_region_count(cat), i;

    if (ecf_catalog_has_region(cat, region))
        return 0;
    if (n == 0) /* not the region's fault, nor a flag's (issue 28) */
        return ecf_err_set(err, ECF_EINVAL,
                           "the catalog has no prices in any region; run "
                           "'ec2fit update' or pass a catalog with prices");
    if (n > ECF_CATALOG_MAX_REGIONS)
        n = ECF_CATALOG_MAX_REGIONS;
    for (i = 0; i < n; i++)
        names[i] = ecf_catalog_region_at(cat, i);
    if (ecf_parse_suggest(sugg, 1, region, names, n) > 0)
        return ecf_err_set(err, ECF_EINVAL,
                           "%s: unknown region '%s' (did you mean %s?)", flag,
                           region, sugg[0]);
    return ecf_err_set(err, ECF_EINVAL,
                       "%s: unknown region '%s' (the catalog has prices for "
                       "%zu regions; see 'ec2fit show TYPE')",
                       flag, region, n);
}
