/**
 * ec2fit/filter.h - ML-aware instance filters and sort orders (`list`).
 * Pure: no I/O. Filters borrow their strings from the caller.
 */
#ifndef EC2FIT_FILTER_H
#define EC2FIT_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"

typedef enum {
    ECF_SORT_PRICE = 0,
    ECF_SORT_ACCEL_MEMORY,
    ECF_SORT_VCPUS,
    ECF_SORT_NAME,
    ECF_SORT_PRICE_PER_ACCEL
} ecf_sort;

typedef struct {
    const char *accelerator;   /* matcher, see ecf_accel_matches; NULL = any */
    int min_accelerators;
    double min_accel_memory_gib;       /* per device */
    double min_total_accel_memory_gib; /* count x per device */
    int min_vcpus;
    double min_memory_gib;
    bool efa;                  /* require EFA */
    int arch;                  /* -1 any, else ecf_arch */
    const char *const *families; /* NULL-terminated list; NULL = any */
    const char *region;        /* prices are read in this region */
    double max_price_usd;      /* <0 = no limit; needs a price */
    bool spot;                 /* max_price / price sort use spot prices */
} ecf_filter;

#define ECF_FILTER_INIT {NULL, 0, 0, 0, 0, 0, false, -1, NULL, "us-east-1", -1, false}

/** True when `name` selects accelerator `a`: case-insensitive equality with
 *  its id, or an id prefix ending at '-' ("a100" selects a100-40gb and
 *  a100-80gb), or the words "gpu", "neuron", "other" for a kind, or "any". */
bool ecf_accel_matches(const ecf_accel *a, const char *name);

/** True when some accelerator in the catalog matches `name`. */
bool ecf_accel_name_known(const ecf_catalog *cat, const char *name);

bool ecf_filter_match(const ecf_filter *f, const ecf_instance *in);

/** The hourly price the filter uses (spot or on-demand) in its region;
 *  < 0 when unknown. */
double ecf_filter_price(const ecf_filter *f, const ecf_instance *in);

/** Sorts `v` (n borrowed pointers) by `key`; ties by name. Unknown prices
 *  sort last. Memory and vCPU sorts are descending (largest first). */
void ecf_filter_sort(const ecf_instance **v, size_t n, ecf_sort key,
                     const ecf_filter *f);

/** Parses a sort key name; -1 when unknown. */
int ecf_sort_parse(const char *s);

#endif
