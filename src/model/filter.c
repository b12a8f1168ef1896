/* filter.c - instance filters and sort orders for `list`. Pure. */
#include "ec2fit/filter.h"

#include <ctype.h>
#include <fnmatch.h>
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
    if ((f->max_accelerators >= 0 && in->accel_count > f->max_accelerators) ||
        (f->max_vcpus >= 0 && in->vcpu > f->max_vcpus) ||
        (f->max_memory_gib >= 0 && in->memory_gib > f->max_memory_gib))
        return false;
    if (f->max_accel_memory_gib >= 0 &&
        (!in->accel || in->accel_memory_gib > f->max_accel_memory_gib))
        return false;
    if (f->max_total_accel_memory_gib >= 0 &&
        in->accel_count * in->accel_memory_gib > f->max_total_accel_memory_gib)
        return false;
    if (f->efa && !in->efa)
        return false;
    if (f->arch >= 0 && (int)in->arch != f->arch)
        return false;
    if (f->families) {
        const char *const *fam;
        bool hit = false;
        for (fam = f->families; *fam && !hit; fam++)
            hit = ecf_family_matches(*fam, in->family);
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

/* Lower-cases into buf (truncating: families are a few characters). */
static void lower(char *buf, size_t size, const char *s)
{
    size_t i;
    for (i = 0; s[i] && i + 1 < size; i++)
        buf[i] = (char)tolower((unsigned char)s[i]);
    buf[i] = '\0';
}

bool ecf_family_matches(const char *pattern, const char *family)
{
    char p[64], fam[64];
    lower(p, sizeof(p), pattern);
    lower(fam, sizeof(fam), family);
    return fnmatch(p, fam, 0) == 0;
}

/* qsort has no context argument in C11, so each element carries its
 * precomputed key (which also keeps price lookups out of the comparator). */
typedef struct {
    double key;  /* ascending after the direction is applied */
    bool known;  /* false: sorts last in either direction */
    ecf_filter_row row;
} keyed;

static int cmp(const void *pa, const void *pb)
{
    const keyed *a = pa, *b = pb;
    int c;
    if (a->known != b->known)
        return a->known ? -1 : 1;
    c = (a->key > b->key) - (a->key < b->key);
    if (c)
        return c;
    c = strcmp(a->row.in->type, b->row.in->type);
    return c ? c : strcmp(a->row.region, b->row.region);
}

/* The natural value of `key` for a row; false when it is unknown. */
static bool sort_value(double *out, const ecf_filter_row *r, ecf_sort key,
                       const ecf_filter *f)
{
    const ecf_instance *in = r->in;
    const ecf_price *pr = ecf_instance_price(in, r->region);
    double p = -1;
    if (pr)
        p = f->spot ? pr->spot_usd_per_hour : pr->ondemand_usd_per_hour;
    switch (key) {
    case ECF_SORT_PRICE:
        *out = p;
        return p >= 0;
    case ECF_SORT_PRICE_PER_ACCEL:
        *out = in->accel_count ? p / in->accel_count : -1;
        return p >= 0 && in->accel_count > 0;
    case ECF_SORT_ACCEL_MEMORY:
        *out = in->accel_count * in->accel_memory_gib;
        return true;
    case ECF_SORT_VCPUS:
        *out = in->vcpu;
        return true;
    case ECF_SORT_MEMORY:
        *out = in->memory_gib;
        return true;
    case ECF_SORT_ACCELERATORS:
        *out = in->accel_count;
        return true;
    case ECF_SORT_INTERRUPTION:
        *out = pr ? pr->interruption_band : -1;
        return pr && pr->interruption_band >= 0;
    case ECF_SORT_SAVINGS:
        *out = pr ? pr->spot_savings_pct : 0;
        return pr && pr->spot_usd_per_hour >= 0;
    case ECF_SORT_NAME:
        break;
    }
    *out = 0;
    return true;
}

void ecf_filter_sort_rows(ecf_filter_row *v, size_t n, ecf_sort key,
                          bool desc, const ecf_filter *f)
{
    keyed *k = ecf_xcalloc(n ? n : 1, sizeof(*k));
    size_t i;
    for (i = 0; i < n; i++) {
        k[i].row = v[i];
        k[i].known = sort_value(&k[i].key, &v[i], key, f);
        if (desc)
            k[i].key = -k[i].key;
    }
    /* name order: the tie-break, reversed for --order desc */
    qsort(k, n, sizeof(*k), cmp);
    if (key == ECF_SORT_NAME && desc)
        for (i = 0; i < n / 2; i++) {
            keyed t = k[i];
            k[i] = k[n - 1 - i];
            k[n - 1 - i] = t;
        }
    for (i = 0; i < n; i++)
        v[i] = k[i].row;
    free(k);
}

bool ecf_sort_default_desc(ecf_sort key)
{
    return !(key == ECF_SORT_PRICE || key == ECF_SORT_PRICE_PER_ACCEL ||
             key == ECF_SORT_NAME || key == ECF_SORT_INTERRUPTION);
}

void ecf_filter_sort(const ecf_instance **v, size_t n, ecf_sort key,
                     const ecf_filter *f)
{
    ecf_filter_row *r = ecf_xcalloc(n ? n : 1, sizeof(*r));
    size_t i;
    for (i = 0; i < n; i++) {
        r[i].in = v[i];
        r[i].region = f->region;
    }
    ecf_filter_sort_rows(r, n, key, ecf_sort_default_desc(key), f);
    for (i = 0; i < n; i++)
        v[i] = r[i].in;
    free(r);
}

static const char *const sort_names[] = {
    "price", "accel-memory", "vcpus", "name", "price-per-accel",
    "memory", "interruption", "savings", "accelerators"};

const char *ecf_sort_names(void)
{
    return "price|price-per-accel|accel-memory|accelerators|vcpus|memory|"
           "interruption|savings|name";
}

int ecf_sort_parse(const char *s)
{
    size_t i;
    for (i = 0; i < sizeof(sort_names) / sizeof(sort_names[0]); i++)
        if (strcmp(sort_names[i], s) == 0)
            return (int)i;
    return -1;
}
