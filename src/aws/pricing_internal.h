/*
 * pricing_internal.h - the price tables and the small JSON helpers that
 * pricing.c and pricing_sp.c (parsing the sources) and pricing_merge.c
 * (the merge) share.
 * Internal to src/aws.
 */
#ifndef EC2FIT_AWS_PRICING_INTERNAL_H
#define EC2FIT_AWS_PRICING_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "ec2fit/pricing.h"

typedef struct {
    char *region;
    char *type;
    char *sku;
    double usd;        /* > 0 when accepted */
    double reserved_1y_usd; /* > 0: the 1-year Standard No Upfront RI's
                               hourly rate in the same product's terms */
    char reason[128];  /* non-empty = rejected */
} od_entry;

struct ecf_pricing_table {
    od_entry *v;
    size_t n, cap;
    bool finished;
    /* Capacity Blocks for ML products (attribute marketoption
     * "CapacityBlock"): their hourly rate is the block's reservation fee,
     * kept apart so it is never taken for the on-demand price */
    od_entry *cb;
    size_t n_cb, cap_cb;
};

/* Parses a reply: 0 and *root_out (the caller's, cJSON_Delete), or
 * ECF_EPARSE "invalid JSON at byte offset N" with *root_out NULL. */
int ecf_pricing_parse_reply(cJSON **root_out, const char *data, size_t len,
                            ecf_err *err);

/* The array `key` of a listing reply (PriceList, searchResults), or NULL
 * after ECF_EPARSE "reply has no KEY array". */
const cJSON *ecf_pricing_reply_list(const cJSON *root, const char *key,
                                    ecf_err *err);

static inline const char *get_str(const cJSON *obj, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    return cJSON_IsString(v) && v->valuestring ? v->valuestring : NULL;
}

typedef struct {
    char *region;
    char *type;
    int savings;
    int band;
} spot_entry;

struct ecf_spot_table {
    spot_entry *v;
    size_t n, cap;
};

static inline bool wanted(const char *region, const char *const *regions,
                          size_t n)
{
    size_t i;
    if (n == 0)
        return true;
    for (i = 0; i < n; i++)
        if (strcmp(regions[i], region) == 0)
            return true;
    return false;
}

/* A price as the API writes it: digits, optionally '.' and digits. No
 * sign, exponent or spaces, so strtod cannot read more than we checked. */
static inline int parse_decimal(double *out, const char *s)
{
    const char *p = s;
    size_t digits = 0;
    while (*p >= '0' && *p <= '9') {
        p++;
        digits++;
    }
    if (*p == '.') {
        p++;
        while (*p >= '0' && *p <= '9') {
            p++;
            digits++;
        }
    }
    if (*p || digits == 0 || digits > 30)
        return -1;
    *out = strtod(s, NULL);
    return isfinite(*out) ? 0 : -1;
}

#endif
