/*
 * storage_prices.c - load and validate data/storage.json (storage prices
 * per region) into plain structs. Every price must be a finite number
 * > 0; region names are unique and at most 31 bytes; the tree is deleted
 * before returning.
 */
#include "ec2fit/storage_prices.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_check.h"

#define STORAGE_MAX_BYTES   (1u << 20)
#define STORAGE_MAX_REGIONS 256

struct ecf_storage_prices {
    ecf_storage_price *regions;
    size_t n;
    char as_of[11];
};

#ifdef ECF_HAVE_EMBEDDED_STORAGE
extern const char ecf_embedded_storage[];
extern const char ecf_embedded_storage_end[];
#endif

static int get_price(double *out, const cJSON *o, const char *region,
                     const char *key, const char *name, ecf_err *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) ||
        v->valuedouble <= 0)
        return ecf_err_set(err, ECF_EPARSE,
                           "%s: regions.%s.%s: expected a number > 0", name,
                           region, key);
    *out = v->valuedouble;
    return 0;
}

/* trusted: the embedded copy of a data/ file, already checked by the
 * strict path in tests/unit/test_embedded_data.c, so the document-wide
 * ecf_json_check is skipped. */
static int load_buffer_(bool trusted, ecf_storage_prices **out, const char *data,
                                   size_t len, const char *name,
                                   ecf_err *err)
{
    static const struct {
        const char *key;
        size_t off;
    } fields[] = {
        {"s3_standard_usd_per_gb_month",
         offsetof(ecf_storage_price, s3_usd_per_gb_month)},
        {"gp3_usd_per_gb_month",
         offsetof(ecf_storage_price, gp3_usd_per_gb_month)},
        {"gp3_usd_per_mbytes_s_month",
         offsetof(ecf_storage_price, gp3_usd_per_mbytes_s_month)},
        {"fsx_lustre_125_usd_per_gb_month",
         offsetof(ecf_storage_price, fsx_usd_per_gb_month)},
        {"efs_standard_usd_per_gb_month",
         offsetof(ecf_storage_price, efs_usd_per_gb_month)},
        {"efs_elastic_read_usd_per_gb",
         offsetof(ecf_storage_price, efs_read_usd_per_gb)},
    };
    cJSON *root = NULL;
    const cJSON *regions, *r, *asof;
    ecf_storage_prices *sp = NULL;
    size_t i, k;
    int rc;

    *out = NULL;
    rc = (trusted ? ecf_json_parse_trusted : ecf_json_parse)(
        &root, data, len, STORAGE_MAX_BYTES, "", name,
        ECF_EPARSE, err);
    if (rc < 0)
        return rc;
    sp = ecf_xcalloc(1, sizeof(*sp));
    asof = cJSON_GetObjectItemCaseSensitive(root, "as_of");
    if (!cJSON_IsString(asof) || strlen(asof->valuestring) != 10) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: as_of: expected a YYYY-MM-DD date", name);
        goto out;
    }
    memcpy(sp->as_of, asof->valuestring, 11);
    regions = cJSON_GetObjectItemCaseSensitive(root, "regions");
    if (!cJSON_IsObject(regions) || cJSON_GetArraySize(regions) < 1 ||
        cJSON_GetArraySize(regions) > STORAGE_MAX_REGIONS) {
        rc = ecf_err_set(err, ECF_EPARSE,
                         "%s: regions: expected an object with 1 to %d "
                         "regions",
                         name, STORAGE_MAX_REGIONS);
        goto out;
    }
    sp->regions = ecf_xcalloc((size_t)cJSON_GetArraySize(regions),
                              sizeof(*sp->regions));
    cJSON_ArrayForEach(r, regions)
    {
        ecf_storage_price *p = &sp->regions[sp->n];
        if (!r->string || strlen(r->string) == 0 ||
            strlen(r->string) >= sizeof(p->region) || !cJSON_IsObject(r)) {
            rc = ecf_err_set(err, ECF_EPARSE,
                             "%s: regions: expected objects named by a "
                             "region of 1 to 31 bytes",
                             name);
            goto out;
        }
        memcpy(p->region, r->string, strlen(r->string) + 1);
        for (k = 0; k < sizeof(fields) / sizeof(fields[0]); k++) {
            double v = 0;
            rc = get_price(&v, r, p->region, fields[k].key, name, err);
            /* the field is a double at a known offset: copy, don't cast */
            memcpy((char *)p + fields[k].off, &v, sizeof(v));
            if (rc < 0)
                goto out;
        }
        sp->n++;
    }
    for (i = 0; i < sp->n; i++)
        for (k = i + 1; k < sp->n; k++)
            if (strcmp(sp->regions[i].region, sp->regions[k].region) == 0) {
                rc = ecf_err_set(err, ECF_EPARSE,
                                 "%s: regions.%s: duplicate region", name,
                                 sp->regions[i].region);
                goto out;
            }
    *out = sp;
    sp = NULL;
    rc = 0;
out:
    cJSON_Delete(root);
    ecf_storage_prices_free(sp);
    return rc;
}

int ecf_storage_prices_load_buffer(ecf_storage_prices **out, const char *data, size_t len, const char *name,
                                   ecf_err *err)
{
    return load_buffer_(false, out, data, len, name, err);
}

int ecf_storage_prices_embedded(ecf_storage_prices **out, ecf_err *err)
{
#ifdef ECF_HAVE_EMBEDDED_STORAGE
    return load_buffer_(
        true, out, ecf_embedded_storage,
        (size_t)(ecf_embedded_storage_end - ecf_embedded_storage),
        "storage.json", err);
#else
    *out = NULL;
    return ecf_err_set(err, ECF_EIO, "storage.json: not embedded in this build");
#endif
}

void ecf_storage_prices_free(ecf_storage_prices *sp)
{
    if (!sp)
        return;
    free(sp->regions);
    free(sp);
}

const ecf_storage_price *ecf_storage_prices_find(const ecf_storage_prices *sp,
                                                 const char *region)
{
    size_t i;
    if (!sp || !region)
        return NULL;
    for (i = 0; i < sp->n; i++)
        if (strcmp(sp->regions[i].region, region) == 0)
            return &sp->regions[i];
    return NULL;
}

const ecf_storage_price *
ecf_storage_prices_fallback(const ecf_storage_prices *sp)
{
    return ecf_storage_prices_find(sp, "us-east-1");
}

const char *ecf_storage_prices_as_of(const ecf_storage_prices *sp)
{
    return sp ? sp->as_of : "";
}
