/**
 * ec2fit/storage_prices.h - storage prices per region (data/storage.json:
 * S3 Standard, EBS gp3, FSx for Lustre, EFS), loaded and validated once and
 * borrowed by the scorer to cost a plan's dataset storage.
 *
 * Ownership: an ecf_storage_prices from a loader is the caller's, freed
 * with ecf_storage_prices_free (NULL accepted); ecf_storage_prices_find
 * returns a borrowed pointer valid until then.
 */
#ifndef EC2FIT_STORAGE_PRICES_H
#define EC2FIT_STORAGE_PRICES_H

#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

/** One region's storage prices, USD (docs/catalog.md, "Storage prices"). */
typedef struct {
    char region[32];
    double s3_usd_per_gb_month;        /* S3 Standard, first 50 TB */
    double gp3_usd_per_gb_month;       /* EBS gp3 capacity */
    double gp3_usd_per_mbytes_s_month; /* provisioned MB/s over 125 */
    double fsx_usd_per_gb_month;       /* FSx Lustre Persistent-2 125 MB/s/TiB */
    double efs_usd_per_gb_month;       /* EFS Standard */
    double efs_read_usd_per_gb;        /* EFS Elastic Throughput reads */
} ecf_storage_price;

typedef struct ecf_storage_prices ecf_storage_prices;

/** Parses and validates a storage price document held in memory. `name`
 *  names it in messages ("storage.json: regions.us-east-1.gp3_usd_per_
 *  gb_month: expected a number > 0"). Errors: ECF_EPARSE, ECF_EINVAL (over
 *  the size limit). */
int ecf_storage_prices_load_buffer(ecf_storage_prices **out, const char *data,
                                   size_t len, const char *name,
                                   ecf_err *err);

/** Loads the copy of data/storage.json embedded at build time. Errors:
 *  ECF_EIO (not embedded in this build), else as the buffer loader. */
int ecf_storage_prices_embedded(ecf_storage_prices **out, ecf_err *err);

void ecf_storage_prices_free(ecf_storage_prices *sp);

/** The prices of `region`, or NULL when the data has none for it. */
const ecf_storage_price *ecf_storage_prices_find(const ecf_storage_prices *sp,
                                                 const char *region);

/** The region whose prices stand in for regions without data
 *  ("us-east-1"); NULL when the document has none. */
const ecf_storage_price *
ecf_storage_prices_fallback(const ecf_storage_prices *sp);

/** The document's as_of date (YYYY-MM-DD). */
const char *ecf_storage_prices_as_of(const ecf_storage_prices *sp);

#ifdef __cplusplus
}
#endif

#endif
