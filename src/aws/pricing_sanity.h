/*
 * pricing_sanity.h - internal to the pricing module (pricing.c and
 * pricing_sanity.c): the plausibility checks a refresh applies to values
 * that have no previous value of their own (docs/update.md, "Safety
 * checks"). cJSON stays inside the pricing module.
 */
#ifndef EC2FIT_PRICING_SANITY_H
#define EC2FIT_PRICING_SANITY_H

#include <stdbool.h>
#include <stddef.h>

#include <cjson/cJSON.h>

/** Family medians of the catalog before a merge. */
typedef struct pricing_medians pricing_medians;

/** Medians of USD/hour per vCPU (plain types) and per accelerator
 *  (count x fraction, accelerated types), over every priced (type,
 *  region) pair of each family in `instances`. Caller frees. */
pricing_medians *ecf_pricing_medians_new(const cJSON *instances);
void ecf_pricing_medians_free(pricing_medians *m);

/** The reference for one instance entry: *median_out (0 when its family
 *  has no priced member) and *unit_out ("vCPU" or "accelerator").
 *  *per_unit_out is `usd` divided by the instance's vCPUs or
 *  accelerators. Returns false when the entry has no usable divisor. */
bool ecf_pricing_reference(double *median_out, double *per_unit_out,
                       const char **unit_out, const pricing_medians *m,
                       const cJSON *inst, double usd);

typedef enum {
    PRICING_OK,       /* take the value */
    PRICING_FORCED,   /* out of bounds, taken because of --force */
    PRICING_REJECTED  /* out of bounds: keep what the catalog had */
} pricing_verdict;

/** A newly priced (type, region) pair: its price per vCPU (accelerator)
 *  must lie within ECF_PRICING_NEW_{MIN,MAX}_RATIO of the family median.
 *  A family with no priced member gives PRICING_OK. Unless OK, `msg`
 *  receives the one-line note. */
pricing_verdict ecf_pricing_check_new_price(char *msg, size_t size,
                                        const pricing_medians *m,
                                        const cJSON *inst, const char *type,
                                        const char *region, double newp,
                                        bool force);

/** New spot savings `s` for a price entry (which still holds the old
 *  values): outside ECF_SPOT_SAVINGS_{MIN,MAX} is rejected even when
 *  forced; a move over ECF_SPOT_MAX_MOVE_POINTS needs force. Unless OK,
 *  `msg` receives the one-line note. */
pricing_verdict ecf_pricing_check_spot(char *msg, size_t size,
                                   const cJSON *entry, const char *type,
                                   const char *region, int s, bool force);

/** A commitment rate of one (type, region) pair against its on-demand
 *  price: `term` names it ("1-year reserved", "1-year Savings Plan",
 *  "3-year Savings Plan", "spot"). A rate at or above on-demand gives
 *  PRICING_REJECTED, even with --force (catalog rules "reserved-1y <
 *  on-demand", "savings-plan-1y < on-demand", "spot < on-demand"), and
 *  `msg` receives the note: for a rate this refresh fetched, "TYPE REGION:
 *  TERM rate R is not below on-demand OD; dropped"; for one kept from the
 *  catalog (`fetched` false; the on-demand price is the fetched one),
 *  "TYPE REGION: kept TERM rate R is now at or above the fetched on-demand
 *  OD; dropped". */
pricing_verdict ecf_pricing_check_commitment(char *msg, size_t size,
                                             const char *type,
                                             const char *region,
                                             const char *term, double rate,
                                             double ondemand, bool fetched);

/** A 3-year Savings Plan rate against the pair's 1-year one (rule
 *  "savings-plan-3y <= savings-plan-1y"): above it gives
 *  PRICING_REJECTED and the note ("... 3-year Savings Plan rate R3 is
 *  above the 1-year rate R1; dropped", or for a kept 3-year rate "...
 *  kept 3-year Savings Plan rate R3 is now above the fetched 1-year rate
 *  R1; dropped"). */
pricing_verdict ecf_pricing_check_sp_terms(char *msg, size_t size,
                                           const char *type,
                                           const char *region, double sp3,
                                           double sp1, bool fetched);

#endif
