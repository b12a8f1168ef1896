/**
 * ec2fit/pricing.h - a price refresh: the Pricing API's GetProducts pages,
 * the Spot Advisor feed, and merging both into a catalog document.
 *
 * Everything here is pure (text in, text out): the CLI does the HTTP
 * through http.h and signs with sigv4.h, then feeds the bodies to the
 * parsers below. cJSON stays inside pricing.c: the merge takes the catalog
 * JSON text and returns new text, which the caller validates with
 * ecf_catalog_load_buffer before writing it anywhere.
 */
#ifndef EC2FIT_PRICING_H
#define EC2FIT_PRICING_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/buf.h"
#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_PRICING_HOST "api.pricing.us-east-1.amazonaws.com"
#define ECF_PRICING_REGION "us-east-1" /* the API's own region */
#define ECF_PRICING_SERVICE "pricing"  /* SigV4 service name */
#define ECF_PRICING_TARGET "AWSPriceListService.GetProducts"
#define ECF_PRICING_CONTENT_TYPE "application/x-amz-json-1.1"
#define ECF_SPOT_ADVISOR_URL                                                   \
    "https://spot-bid-advisor.s3.amazonaws.com/spot-advisor-data.json"
/** A refreshed on-demand price more than this factor away from the old one
 *  is reported and not taken without --force. */
#define ECF_PRICING_MAX_MOVE 5.0
/** A newly priced (type, region) pair has no old price to compare with:
 *  its USD/hour per vCPU (per accelerator for accelerated types) must lie
 *  within these factors of its family's median, else --force. */
#define ECF_PRICING_NEW_MIN_RATIO 0.2
#define ECF_PRICING_NEW_MAX_RATIO 5.0
/** Spot savings outside this range (percent) are rejected, even with
 *  --force: a 100% saving would be a free instance, and a saving of 0%
 *  or less is a spot price at or above on-demand (catalog rule "spot <
 *  on-demand", issue 26: the feed's ca-central-1 p5.48xlarge -62%). */
#define ECF_SPOT_SAVINGS_MIN 1
#define ECF_SPOT_SAVINGS_MAX 95
/** A spot saving that moves more than this many percentage points from
 *  the previous catalog is reported and kept unless --force. */
#define ECF_SPOT_MAX_MOVE_POINTS 30
/** Pages per region before GetProducts is considered to loop. */
#define ECF_PRICING_MAX_PAGES 1000

/* ---- on-demand prices (GetProducts) ------------------------------------- */

/** Collected on-demand prices, keyed by (region, instance type).
 *  Opaque, owned by the caller: ecf_pricing_table_new / _free. */
typedef struct ecf_pricing_table ecf_pricing_table;

ecf_pricing_table *ecf_pricing_table_new(void);
void ecf_pricing_table_free(ecf_pricing_table *t);

/** Writes the GetProducts JSON 1.1 request body for one region into `out`
 *  (cleared first): ServiceCode AmazonEC2, FormatVersion aws_v1,
 *  MaxResults 100, and TERM_MATCH filters regionCode=REGION,
 *  operatingSystem=Linux, tenancy=Shared, preInstalledSw=NA,
 *  capacitystatus=Used, licenseModel="No License required".
 *  `next_token` (NULL on the first page) continues a listing. */
void ecf_pricing_products_request(ecf_buf *out, const char *region,
                                  const char *next_token);

/**
 * Parses one GetProducts response page for `region` and adds its prices
 * to `t`. Each PriceList element is a JSON document inside a JSON string;
 * the price is terms.OnDemand.*.priceDimensions.*.pricePerUnit.USD with
 * unit "Hrs", a decimal string. Products without an instanceType (not an
 * instance) are skipped. A SKU with a zero price, no hourly USD price, or
 * several different prices is rejected: recorded as rejected with its
 * reason, so the merge keeps the old price and says why.
 * *next_token_out receives the NextToken (caller frees) or NULL on the last
 * page. Errors: ECF_EPARSE (body or an element is not the expected JSON,
 * a price string is not a decimal, a product for another region).
 */
int ecf_pricing_parse_products(char **next_token_out, ecf_pricing_table *t,
                               const char *region, const char *data,
                               size_t len, ecf_err *err);

/**
 * Is a DescribeSavingsPlansOfferingRates error reply an authorisation
 * refusal (the caller's IAM policy lacks
 * savingsplans:DescribeSavingsPlansOfferingRates) rather than a fault?
 * `status` is the HTTP status, `body` the reply (rest-json: the error type
 * in "__type", else "code"/"Code", namespace "...#" and ":..." suffix
 * removed). True for HTTP 403 unless the type names a signing or clock
 * fault (InvalidSignatureException, SignatureDoesNotMatch,
 * IncompleteSignature, ExpiredTokenException, RequestExpired), and for
 * HTTP 400 with AccessDeniedException, AccessDenied, UnauthorizedOperation,
 * UnrecognizedClientException or NotAuthorized; false otherwise (5xx,
 * ValidationException, ...). The type found ("" when none) is copied to
 * type_out (`type_size` bytes, may be 0). docs/update.md "Permissions".
 */
bool ecf_sp_access_denied(char *type_out, size_t type_size, long status,
                          const char *body, size_t len);

/** Resolves duplicates after the last page: two SKUs with different
 *  prices for the same type and region are both rejected ("ambiguous").
 *  Call once before ecf_pricing_merge; idempotent. */
void ecf_pricing_table_finish(ecf_pricing_table *t);

/** Number of accepted (type, region) prices, after finish. */
size_t ecf_pricing_table_count(const ecf_pricing_table *t);

/** The accepted price in USD/hour, or a negative value when the pair is
 *  absent or rejected (then *reason_out, when given, says why or is NULL
 *  for absent). */
double ecf_pricing_table_get(const ecf_pricing_table *t, const char *region,
                             const char *type, const char **reason_out);

/** The Capacity Blocks for ML rate (a product with marketoption
 *  "CapacityBlock") of `type` in `region`, or -1 (none, or two products
 *  disagree). Such products never count as on-demand prices. */
double ecf_pricing_table_get_capacity_block(const ecf_pricing_table *t,
                                            const char *region,
                                            const char *type);

/** The 1-year Standard, No Upfront reserved hourly rate the same product
 *  carried in its Reserved terms, or -1 (none, or the product was
 *  rejected). */
double ecf_pricing_table_get_reserved(const ecf_pricing_table *t,
                                      const char *region, const char *type);

/* ---- Spot Advisor ------------------------------------------------------- */

typedef struct ecf_spot_table ecf_spot_table;

void ecf_spot_table_free(ecf_spot_table *t);

/**
 * Parses the Spot Advisor feed (SOURCES.md section 5), keeping the Linux
 * entries of the regions listed (all regions when n_regions is 0).
 * `s` (savings %, integer, may be negative, below 100) and `r` (index into
 * "ranges", 0..4) are validated. *out is the caller's (free with
 * ecf_spot_table_free), NULL on failure. Errors: ECF_EPARSE.
 */
int ecf_spot_parse(ecf_spot_table **out, const char *data, size_t len,
                   const char *const *regions, size_t n_regions,
                   ecf_err *err);

/** Entries kept (region, type pairs). */
size_t ecf_spot_table_count(const ecf_spot_table *t);

/** Looks up one pair; returns false when absent. */
bool ecf_spot_table_get(const ecf_spot_table *t, const char *region,
                        const char *type, int *savings_pct_out,
                        int *band_out);

/* ---- Savings Plans rates (DescribeSavingsPlansOfferingRates) ---------- */

/* The AWS Savings Plans API (botocore savingsplans/2019-06-28
 * service-2.json): rest-json, a global endpoint signed for us-east-1. */
#define ECF_SP_HOST "savingsplans.amazonaws.com"
#define ECF_SP_REGION "us-east-1" /* the API's signing region */
#define ECF_SP_SERVICE "savingsplans" /* SigV4 service name */
#define ECF_SP_PATH "/DescribeSavingsPlansOfferingRates"
#define ECF_SP_CONTENT_TYPE "application/json"
/** durationSeconds of the two terms (365 and 3 x 365 days) */
#define ECF_SP_1Y_SECONDS 31536000
#define ECF_SP_3Y_SECONDS 94608000

/** Published no-upfront Savings Plan rates, keyed by (region, instance
 *  type, term). Opaque, owned by the caller: ecf_sp_table_new / _free. */
typedef struct ecf_sp_table ecf_sp_table;

ecf_sp_table *ecf_sp_table_new(void);
void ecf_sp_table_free(ecf_sp_table *t);

/** Writes the DescribeSavingsPlansOfferingRates request body for one
 *  region into `out` (cleared first): products EC2, serviceCodes
 *  AmazonEC2, savingsPlanTypes Compute and EC2Instance,
 *  savingsPlanPaymentOptions "No Upfront", filters region=REGION,
 *  tenancy=shared, productDescription=Linux/UNIX, maxResults 1000.
 *  `next_token` (NULL on the first page) continues a listing. */
void ecf_sp_rates_request(ecf_buf *out, const char *region,
                          const char *next_token);

/**
 * Parses one DescribeSavingsPlansOfferingRates response page for `region`
 * and adds its rates to `t`. A rate is kept when its offering is a
 * Compute or EC2Instance plan, "No Upfront", USD, 1 or 3 years
 * (durationSeconds ECF_SP_1Y_SECONDS / ECF_SP_3Y_SECONDS), its unit is
 * "Hrs", its productType EC2, its properties say Linux/UNIX and shared
 * tenancy, and its usageType is a BoxUsage one; other rows are skipped.
 * The rate is a decimal string. *next_token_out receives nextToken (caller
 * frees) or NULL on the last page. Errors: ECF_EPARSE (body not the
 * expected JSON, a result that is not an object, a rate that is not a
 * decimal, a rate for another region).
 */
int ecf_sp_parse_rates(char **next_token_out, ecf_sp_table *t,
                       const char *region, const char *data, size_t len,
                       ecf_err *err);

/** Resolves duplicates after the last page: per (region, type, term) the
 *  lowest rate (an EC2 Instance Savings Plan where AWS offers one, since it
 *  never costs more than the Compute plan; else the Compute plan). Call
 *  once before ecf_pricing_merge; idempotent. */
void ecf_sp_table_finish(ecf_sp_table *t);

/** (type, region, term) rates kept, after finish. */
size_t ecf_sp_table_count(const ecf_sp_table *t);

/** The rate in USD/hour of `years` (1 or 3), or -1 when none is listed. */
double ecf_sp_table_get(const ecf_sp_table *t, const char *region,
                        const char *type, int years);

/* ---- merge -------------------------------------------------------------- */

typedef struct {
    const char *const *regions; /* the regions refreshed */
    size_t n_regions;
    const ecf_pricing_table *ondemand; /* NULL = not refreshed */
    const ecf_spot_table *spot;        /* NULL = not refreshed */
    bool force;              /* accept >5x moves and shrinking coverage */
    const char *generated_at;     /* "2026-11-29T12:00:00Z" */
    const char *ondemand_as_of;   /* YYYY-MM-DD, with ondemand */
    const char *ondemand_origin;  /* endpoint, for the sources list */
    const char *spot_as_of;       /* YYYY-MM-DD, with spot */
    const char *spot_origin;      /* feed URL */
    const ecf_sp_table *savings_plans; /* NULL = not refreshed */
    const char *sp_as_of;         /* YYYY-MM-DD, with savings_plans */
    const char *sp_origin;        /* endpoint, for the sources list */
} ecf_pricing_merge_opts;

/** What a merge did. Caller-owned: ecf_pricing_report_dispose. `notes`
 *  are one-line messages for the user (moves over 5x, rejected SKUs,
 *  removed entries), at most ECF_PRICING_MAX_NOTES of them; `n_notes_total`
 *  counts those not kept too. A rejected or forced value (a move over 5x,
 *  a new price outside the family range, spot savings out of range or
 *  moving more than 30 points, a dropped reserved, Savings Plan or spot
 *  rate) always gets its note, past the cap: there is at most one per
 *  (type, region) pair of the catalog and rate (two for a commitment
 *  rate whose fetched and kept values both fail). */
typedef struct {
    size_t ondemand_updated;   /* price changed */
    size_t ondemand_unchanged;
    size_t ondemand_added;     /* new region for a known type */
    size_t ondemand_removed;   /* no longer priced (only with force) */
    size_t ondemand_kept;      /* old price kept: >5x move or rejected SKU */
    size_t ondemand_not_in_catalog; /* priced types the catalog lacks */
    size_t spot_updated;
    size_t spot_removed;       /* no longer in the feed (only with force) */
    size_t coverage_before;    /* priced (type, region) pairs, refreshed
                                  regions only */
    size_t coverage_after;
    size_t spot_coverage_before;
    size_t spot_coverage_after;
    char **notes;
    size_t n_notes;
    size_t n_notes_total;
    size_t ondemand_new_rejected; /* new pairs outside the family range */
    size_t ondemand_new_forced;   /* ... taken because of force */
    size_t spot_rejected;         /* savings outside -100..95 */
    size_t spot_kept;             /* moves over 30 points, not forced */
    size_t spot_forced;           /* ... taken because of force */
    size_t reserved_updated;      /* reserved_1y_usd_per_hour set or
                                     changed */
    size_t capacity_block_updated; /* capacity_block_usd_per_hour set or
                                     changed */
    size_t savings_plan_updated;  /* savings_plan_{1y,3y}_usd_per_hour set
                                     or changed */
    size_t commitment_dropped;    /* RI, Savings Plan or spot rates
                                     dropped: not below on-demand, or a
                                     3-year above the 1-year Savings Plan */
} ecf_pricing_report;

#define ECF_PRICING_MAX_NOTES 50
#define ECF_PRICING_REPORT_INIT                                                \
    {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0,   \
     0, 0}

void ecf_pricing_report_dispose(ecf_pricing_report *r);

/**
 * Merges refreshed prices into the catalog JSON `catalog` (len bytes) and
 * returns the new document in *json_out (caller frees), pretty-printed.
 * For each refreshed region, the refreshed source is authoritative: prices
 * are replaced, known types gain the regions newly priced, and types no
 * longer priced lose the region (on-demand) or their spot fields (spot).
 * Spot prices are re-estimated as on-demand * (1 - savings/100).
 * Reserved and Savings Plan rates are taken where the refresh lists them
 * and kept where it does not. After the merge no (type, region) of a
 * refreshed region keeps a reserved, Savings Plan or spot rate at or
 * above its on-demand price, nor a 3-year Savings Plan rate above the
 * 1-year one: such a rate, fetched or kept, is dropped with a note
 * (docs/update.md, "Safety checks"). Sources, as_of (newest source
 * date) and generated_at are updated.
 * Errors: ECF_EPARSE (catalog not an object with "instances"),
 * ECF_ERR "coverage would shrink ..." when a refreshed source covers fewer
 * pairs than the catalog did and `force` is off (the report is filled
 * either way, so the caller can show the notes).
 */
int ecf_pricing_merge(char **json_out, ecf_pricing_report *report,
                      const char *catalog, size_t len,
                      const ecf_pricing_merge_opts *opts, ecf_err *err);

/** The service's message from an AWS JSON error body ({"__type": ...,
 *  "message": ...} or "Message"), or NULL; caller frees. Control
 *  characters are replaced so the result fits on one line; at most 200
 *  bytes. */
char *ecf_pricing_error_message(const char *data, size_t len);

#ifdef __cplusplus
}
#endif

#endif
