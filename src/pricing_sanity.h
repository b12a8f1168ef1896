/*
 * pricing_sanity.h - internal to the pricing module (pricing.c and
 * pricing_sanity.c): the plausibility checks a refresh applies to values
 * that have no previous value of their own (docs/update.md, "Safety
 * checks"). cJSON stays inside the pricing module.
 */
#ifndef EC2FIT_PRICING_SANITY_H
#define EC2FIT_PRICING_SANITY_H

#include <stdbool.h>

#include <cjson/cJSON.h>

/** Family medians of the catalog before a merge. */
typedef struct pricing_medians pricing_medians;

/** Medians of USD/hour per vCPU (plain types) and per accelerator
 *  (count x fraction, accelerated types), over every priced (type,
 *  region) pair of each family in `instances`. Caller frees. */
pricing_medians *pricing_medians_new(const cJSON *instances);
void pricing_medians_free(pricing_medians *m);

/** The reference for one instance entry: *median_out (0 when its family
 *  has no priced member) and *unit_out ("vCPU" or "accelerator").
 *  *per_unit_out is `usd` divided by the instance's vCPUs or
 *  accelerators. Returns false when the entry has no usable divisor. */
bool pricing_reference(double *median_out, double *per_unit_out,
                       const char **unit_out, const pricing_medians *m,
                       const cJSON *inst, double usd);

#endif
