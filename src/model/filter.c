/* filter.c - instance filters and sort orders for `list`. Pure. */
#include "ec2fit/filter.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

bool ecf_accel_matches(const ecf_accel *a, const char *name)
{
    size_t n = strlen(name);
    if (!a)
        return false;
    if (strcasecmp(name, "any") == 0)
        return true;
    if (strcasecmp(name, ecf_accel_kind_name(a->kind)) == 0)
        return true;
    if (strcasecmp(a->id, name) == 0)
        return true;
    return strncasecmp(a->id, name, n) == 0 && a->id[n] == '-';
}

bool ecf_accel_name_known(const ecf_catalog *cat, const char *name)
{
    size_t i;
    for (i = 0; i < ecf_catalog_accel_count(cat); i++)
        if (ecf_accel_matches(ecf_catalog_accel_at(cat, i), name))
            return true;
    return false;
}

double ecf_filter_price(const ecf_filter *f, const ecf_instance *in)
{
    const ecf_price *p = ecf_instance_price(in, f->region);
    if (!p)
        return -1;
    return f->spot ? p->spot_usd_per_hour : p->ondemand_usd_per_hour;
}

bool ecf_filter_match(const ecf_filter *f, const ecf_instance *in)
{
    if (f->accelerator && !ecf_accel_matches(in->accel, f->accelerator))
        return false;
    if (in->accel_count < f->min_accelerators)
        return false;
    if (f->min_accel_memory_gib > 0 &&
        (!in->accel || in->accel_memory_gib < f->min_accel_memory_gib))
        return false;
    if (f->min_total_accel_memory_gib > 0 &&
        in->accel_count * in->accel_memory_gib < f->min_total_accel_memory_gib)
        return false;
    if (in->vcpu < f->min_vcpus || in->memory_gib < f->min_memory_gib)
        return false;
    if (f->efa && !in->efa)
        return false;
    if (f->arch >= 0 && (int)in->arch != f->arch)
        return false;
    if (f->families) {
        const char *const *fam;
        bool hit = false;
        for (fam = f->families; *fam && !hit; fam++)
            hit = strcasecmp(*fam, in->family) == 0;
        if (!hit)
            return false;
    }
    if (f->max_price_usd >= 0) {
        double p = ecf_filter_price(f, in);
        if (p < 0 || p > f->max_price_usd)
            return false;
    }
    return true;
}

/* qsort has no context argument in C11, so each element carries its
 * precomputed key (which also keeps price lookups out of the comparator). */
typedef struct {
    double key; /* ascending; unknown (< 0) sorts last */
    const ecf_instance *in;
} keyed;

static int cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c;
    if (a->key < 0 && b->key >= 0)
        return 1;
    if (b->key < 0 && a->key >= 0)
        return -1;
    c = (a->key > b->key) - (a->key < b->key);
    return c ? c : strcmp(a->in->type, b->in->type);
}

static double sort_value(const ecf_instance *in, ecf_sort key,
                         const ecf_filter *f)
{
    double p;
    switch (key) {
    case ECF_SORT_PRICE:
        return ecf_filter_price(f, in);
    case ECF_SORT_PRICE_PER_ACCEL:
        p = ecf_filter_price(f, in);
        return (p < 0 || in->accel_count == 0) ? -1 : p / in->accel_count;
    case ECF_SORT_ACCEL_MEMORY: /* descending: negate, keep >= 0 */
        return 1e9 - in->accel_count * in->accel_memory_gib;
    case ECF_SORT_VCPUS:
        return 1e9 - in->vcpu;
    case ECF_SORT_NAME:
        break;
    }
    return 0;
}

void ecf_filter_sort(const ecf_instance **v, size_t n, ecf_sort key,
                     const ecf_filter *f)
{
    keyed *k = ecf_xcalloc(n, sizeof(*k));
    size_t i;
    for (i = 0; i < n; i++) {
        k[i].in = v[i];
        k[i].key = sort_value(v[i], key, f);
    }
    qsort(k, n, sizeof(*k), cmp);
    for (i = 0; i < n; i++)
        v[i] = k[i].in;
    free(k);
}

int ecf_sort_parse(const char *s)
{
    static const char *const names[] = {"price", "accel-memory", "vcpus",
                                        "name", "price-per-accel"};
    size_t i;
    for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
        if (strcmp(names[i], s) == 0)
            return (int)i;
    return -1;
}
