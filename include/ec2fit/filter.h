/**
 * ec2fit/filter.h - ML-aware instance filters and sort orders (`list`).
 * Pure: no I/O. Filters borrow their strings from the caller.
 */
#ifndef EC2FIT_FILTER_H
#define EC2FIT_FILTER_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    ECF_SORT_PRICE = 0,
    ECF_SORT_ACCEL_MEMORY,
    ECF_SORT_VCPUS,
    ECF_SORT_NAME,
    ECF_SORT_PRICE_PER_ACCEL,
    ECF_SORT_MEMORY,       /* host memory */
    ECF_SORT_INTERRUPTION, /* Spot Advisor band; unknown last */
    ECF_SORT_SAVINGS,      /* Spot Advisor savings; unknown last */
    ECF_SORT_ACCELERATORS  /* accelerator count */
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
    /* upper bounds (ranges, --max-*): < 0 = no limit */
    int max_accelerators;
    double max_accel_memory_gib;
    double max_total_accel_memory_gib;
    int max_vcpus;
    double max_memory_gib;
} ecf_filter;

#define ECF_FILTER_INIT {NULL, 0, 0, 0, 0, 0, false, -1, NULL, "us-east-1", -1, false, \
                         -1, -1, -1, -1, -1}

/** One row of a listing: a type and the region its price is read in. */
typedef struct {
    const ecf_instance *in;
    const char *region;
} ecf_filter_row;

/** True when `name` selects accelerator `a`: case-insensitive equality with
 *  its id, or an id prefix ending at '-' ("a100" selects a100-40gb and
 *  a100-80gb), or the words "gpu", "neuron", "other" for a kind, or "any". */
bool ecf_accel_matches(const ecf_accel *a, const char *name);

/** True when some accelerator in the catalog matches `name`. */
bool ecf_accel_name_known(const ecf_catalog *cat, const char *name);

/** True when `in` passes every filter. Families are shell globs (fnmatch:
 *  "g6*", "p[45]"), matched case-insensitively. */
bool ecf_filter_match(const ecf_filter *f, const ecf_instance *in);

/** True when family glob `pattern` matches `family` (case-insensitive). */
bool ecf_family_matches(const char *pattern, const char *family);

/** The hourly price the filter uses (spot or on-demand) in its region;
 *  < 0 when unknown. */
double ecf_filter_price(const ecf_filter *f, const ecf_instance *in);

/** Sorts `v` (n borrowed pointers) by `key`; ties by name. Unknown prices
 *  sort last. Memory and vCPU sorts are descending (largest first). */
void ecf_filter_sort(const ecf_instance **v, size_t n, ecf_sort key,
                     const ecf_filter *f);

/** Sorts rows by `key`, descending when `desc`; ties by type then region.
 *  Rows whose key is unknown (no price, no spot data) sort last either
 *  way. Prices are read in each row's region. */
void ecf_filter_sort_rows(ecf_filter_row *v, size_t n, ecf_sort key,
                          bool desc, const ecf_filter *f);

/** The direction a key sorts in without --order: ascending for price,
 *  price-per-accel, name and interruption, descending for the others. */
bool ecf_sort_default_desc(ecf_sort key);

/** Parses a sort key name; -1 when unknown. */
int ecf_sort_parse(const char *s);

/** The sort key names, "|"-separated, for messages and help. */
const char *ecf_sort_names(void);

#ifdef __cplusplus
}
#endif

#endif
