/**
 * ec2fit/light.h - light inference alternatives to EC2: AWS Lambda pricing
 * and limits, and Lightsail Linux bundles; load, validate, price.
 *
 * The data (data/light.json, built by tools/gen_light.py) is loaded once,
 * validated completely and copied into plain value structs; no cJSON leaves
 * the loader. A loaded ecf_light is immutable and every pointer a getter
 * returns is borrowed until ecf_light_free(). Strings are fixed arrays in
 * the value structs, so they can be copied by assignment.
 *
 * The cost helpers are pure (no I/O, no globals) and return NAN for an
 * invalid argument (NULL, negative or non-finite). See docs/light.md for the
 * sources, their confidence and the formulas.
 */
#ifndef EC2FIT_LIGHT_H
#define EC2FIT_LIGHT_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ECF_LIGHT_SCHEMA_VERSION 1
/* Hard limits enforced by the loader. */
#define ECF_LIGHT_MAX_BYTES   (1024u * 1024u)
#define ECF_LIGHT_MAX_BUNDLES 100

/** Lightsail bills "the fixed hourly price, up to the maximum monthly plan
 *  cost" (Lightsail FAQ). The published hourly prices are the monthly price
 *  over a 31-day month: $5/month is "$0.0067 USD/hour" (5/744 = 0.00672;
 *  5/730 would be 0.00685). tools/gen_light.py checks this against the
 *  hourly figure quoted in lightsail_bundles.csv. */
#define ECF_LIGHTSAIL_BILLING_HOURS 744.0

/** AWS Lambda prices (one region) and limits. */
typedef struct {
    char region[32];      /* "us-east-1": the region of the prices */
    char as_of[16];       /* YYYY-MM-DD, date the figures were gathered */
    char as_of_note[256]; /* what as_of means (sources only dated 2025-2026) */
    char source[256];     /* pricing page URL */
    char notes[1024];     /* confidence of medium rows, scope; may be "" */
    double request_usd_per_million;   /* $0.20 per 1M requests */
    double gb_second_usd_x86;         /* duration, tier 1, USD per GB-s */
    double gb_second_usd_arm64;       /* duration, tier 1, USD per GB-s */
    double free_requests_per_month;   /* free tier, per account */
    double free_gb_seconds_per_month; /* free tier, x86 + arm64 together */
    int min_memory_mb;                /* configurable memory, 1 MB steps */
    int max_memory_mb;
    int max_timeout_s;            /* longest invocation, seconds */
    double mb_per_vcpu;           /* 1 vCPU-equivalent at 1769 MB */
    int max_vcpus;                /* at max_memory_mb (medium conf.) */
    int ephemeral_storage_max_mb; /* /tmp, 512 MB free */
    int billing_granularity_ms;   /* billed duration step; 1 ms */
    bool gpu;                     /* false: Lambda has no GPU */
} ecf_lambda_pricing;

/** One Lightsail instance bundle (Linux, dual-stack IPv4 price). */
typedef struct {
    char id[32];          /* "nano_3_0" (the Lightsail bundle id) */
    double usd_per_month; /* monthly cap; see ecf_lightsail_hourly_usd */
    int vcpu;
    double memory_gb;
    double ssd_gb;
    double transfer_tb_month;         /* included transfer, most regions */
    double baseline_cpu_pct_per_vcpu; /* sustained CPU before burst credits */
    char confidence[128];             /* copied from the CSV; may be "" */
    char notes[256];                  /* copied from the CSV; may be "" */
} ecf_lightsail_bundle;

/** Metadata of the Lightsail section (the bundles share one source). */
typedef struct {
    char as_of[16];       /* YYYY-MM-DD, date the figures were gathered */
    char as_of_note[256]; /* what as_of means */
    char source[256];     /* Lightsail user guide page */
    char notes[1024];     /* price variant, billing, gaps; may be "" */
} ecf_lightsail_meta;

typedef struct ecf_light ecf_light;

/** Parses and validates light data held in memory. `name` is used in error
 *  messages ("light.json: lambda.max_memory_mb: ..."). On success *out is
 *  the caller's, freed with ecf_light_free(); NULL on failure.
 *  Errors: ECF_EPARSE (syntax, with byte offset, or schema), ECF_EINVAL
 *  (over a size limit). */
int ecf_light_load_buffer(ecf_light **out,
                          const char *data,
                          size_t len,
                          const char *name,
                          ecf_err *err);

/** Loads the copy of data/light.json embedded at build time (error name
 *  "light.json"). Errors: as ecf_light_load_buffer, and ECF_ENOTFOUND in a
 *  build without an embedded copy. */
int ecf_light_embedded(ecf_light **out, ecf_err *err);

/** Frees everything; accepts NULL. */
void ecf_light_free(ecf_light *light);

/** Borrowed; never NULL for a loaded object. */
const ecf_lambda_pricing *ecf_light_lambda(const ecf_light *light);

/** Borrowed; never NULL for a loaded object. */
const ecf_lightsail_meta *ecf_light_lightsail(const ecf_light *light);

/** Bundles sorted by usd_per_month, then id; at least one. */
size_t ecf_light_bundle_count(const ecf_light *light);
/** Borrowed; NULL when i is out of range. */
const ecf_lightsail_bundle *ecf_light_bundle_at(const ecf_light *light,
                                                size_t i);
/** Exact lookup by id; NULL when absent. */
const ecf_lightsail_bundle *ecf_light_bundle_find(const ecf_light *light,
                                                  const char *id);

/** Monthly Lambda bill in USD for one function:
 *    requests * request_usd_per_million / 1e6
 *  + requests * billed_s * memory_gb * gb_second_usd (x86 or arm64)
 *  where memory is rounded up to a whole MB and clamped to
 *  [min_memory_mb, max_memory_mb], memory_gb = MB / 1024 (AWS: 128 MB =
 *  0.125 GB), and billed_s is the duration rounded up to the billing step
 *  (1 ms), at least one step. With `apply_free_tier` the free requests and
 *  GB-seconds are subtracted first (floored at 0) as if this function were
 *  the account's only Lambda use. Tier-1 duration prices only (the next tier
 *  starts at 6 billion GB-s a month). Feasibility (timeout, memory ceiling)
 *  is not checked here: see ecf_lambda_fits(). NAN on invalid arguments. */
double ecf_lambda_monthly_usd(const ecf_lambda_pricing *p,
                              double requests_per_month,
                              double seconds_per_request,
                              double memory_mb,
                              bool arm64,
                              bool apply_free_tier);

/** vCPU-equivalents at `memory_mb`: memory_mb / mb_per_vcpu, capped at
 *  max_vcpus. AWS allocates CPU in proportion to memory ("1,769 MB = one
 *  vCPU"); the share may be fractional. The linear rule gives 5.79 at
 *  10,240 MB where AWS quotes 6 vCPUs, so it errs low. NAN on invalid
 *  arguments. */
double ecf_lambda_vcpus(const ecf_lambda_pricing *p, double memory_mb);

/** True when one request of `seconds_per_request` at `memory_mb` can run:
 *  duration <= max_timeout_s and memory <= max_memory_mb. */
bool ecf_lambda_fits(const ecf_lambda_pricing *p,
                     double seconds_per_request,
                     double memory_mb);

/** The hourly rate AWS bills for a bundle: usd_per_month /
 *  ECF_LIGHTSAIL_BILLING_HOURS (744), charged up to usd_per_month a month.
 *  A bundle running all month costs usd_per_month in a 31-day month and
 *  less in shorter ones, so this rate also compares directly with an EC2
 *  on-demand hourly price. NAN on invalid arguments. */
double ecf_lightsail_hourly_usd(const ecf_lightsail_bundle *b);

#ifdef __cplusplus
}
#endif

#endif
