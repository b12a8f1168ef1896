/*
 * recommend_regions.c - regions honesty and storage cost for the scorer:
 * which instance families have no price in a region although the catalog
 * prices them in us-east-1 (only us-east-1 was gathered for them), the
 * region's median price ratio to us-east-1 that --estimate-missing-prices
 * applies, and the cost of a plan's dataset storage (data/storage.json).
 * docs/rules.md ("Missing prices") and docs/estimation.md ("Storage and
 * data path") have the formulas. Pure: allocates only into the result and
 * the caller's per-catalog scan cache (ecf_rec_gaps, held by the memo).
 */
#include "ec2fit/buf.h"
#include "ec2fit/recommend.h"

#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/region_name.h"
#include "ec2fit/storage_prices.h"

#include "recommend_internal.h"

#define BASE_REGION "us-east-1"

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* Median of v[0..n) (sorts v); 0 when n == 0. */
static double median(double *v, size_t n)
{
    if (n == 0)
        return 0;
    qsort(v, n, sizeof(*v), cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The --families / --exclude-families filter (globs). */
bool ecf_rec_family_selected(const ecf_recommend_opts *o, const char *family)
{
    const char *const *p;
    if (o->families) {
        bool hit = false;
        for (p = o->families; *p && !hit; p++)
            hit = fnmatch(*p, family, 0) == 0;
        if (!hit)
            return false;
    }
    if (o->exclude_families)
        for (p = o->exclude_families; *p; p++)
            if (fnmatch(*p, family, 0) == 0)
                return false;
    return true;
}

/* Every price of `inst` is in the base region: a data gap, not a type
 * that AWS does not offer elsewhere. */
static bool base_only(const ecf_instance *inst)
{
    return inst->n_prices == 1 &&
           strcmp(inst->prices[0].region, BASE_REGION) == 0;
}

/* One region's scan of the catalog: the families with no price there and
 * a us-east-1-only gap (catalog order, before the families filter), and
 * the median family price ratio to us-east-1. */
typedef struct {
    char *region;
    const char **families;
    size_t nf, nfr;
    double ratio;
    bool uncovered;
} region_gaps;

struct ecf_rec_gaps {
    const ecf_catalog *cat;
    size_t n_inst;
    region_gaps *v;
    size_t n, cap;
};

/* A region (not a Local or Wavelength zone group) where the catalog
 * prices no CPU-only type: its regional on-demand source does not cover
 * the region (sa-east-1 and the other regions SOURCES.md 9a lists), so a
 * family without a price there is a data gap, not a type AWS does not
 * sell there. Zone groups sell a few types and stay as they are. */
static bool region_uncovered(const ecf_catalog *cat, const char *region)
{
    size_t n = ecf_catalog_count(cat), i;
    char parent[64];

    if (ecf_region_parent(parent, sizeof(parent), region))
        return false;
    for (i = 0; i < n; i++) {
        const ecf_instance *b = ecf_catalog_at(cat, i);
        if (b->accel_count == 0 && ecf_instance_price(b, region))
            return false;
    }
    return true;
}

static void scan_region(region_gaps *g, const ecf_catalog *cat,
                        const char *region, double *type_ratio,
                        double *fam_ratio)
{
    size_t n = ecf_catalog_count(cat), i, j, cap = 0;

    g->nf = g->nfr = 0;
    g->families = NULL;
    g->uncovered = region_uncovered(cat, region);
    for (i = 0; i < n; i = j) {
        const ecf_instance *a = ecf_catalog_at(cat, i);
        bool any_here = false, gap = true;
        size_t nt = 0;
        for (j = i;
             j < n && strcmp(ecf_catalog_at(cat, j)->family, a->family) == 0;
             j++) {
            const ecf_instance *b = ecf_catalog_at(cat, j);
            const ecf_price *here, *base;
            /* most types (every CPU family) are priced in us-east-1
             * alone: nothing to look up for them */
            if (base_only(b))
                continue;
            /* in a region the catalog does not cover, a type priced in
             * us-east-1 (and elsewhere) but not here is a gap too */
            if (!g->uncovered || !ecf_instance_price(b, BASE_REGION))
                gap = false;
            here = ecf_instance_price(b, region);
            if (!here)
                continue;
            any_here = true;
            base = ecf_instance_price(b, BASE_REGION);
            if (base && base->ondemand_usd_per_hour > 0 &&
                here->ondemand_usd_per_hour > 0)
                type_ratio[nt++] =
                    here->ondemand_usd_per_hour / base->ondemand_usd_per_hour;
        }
        if (nt > 0)
            fam_ratio[g->nfr++] = median(type_ratio, nt);
        /* data/catalog.json lists types sorted (tools/gen_catalog.py), so
         * a family's types are contiguous and it is seen once; a hand-made
         * catalog out of order may name a family twice */
        if (!any_here && gap) {
            if (g->nf == cap) {
                cap = cap ? cap * 2 : 16;
                g->families =
                    ecf_xrealloc(g->families, cap * sizeof(char *));
            }
            g->families[g->nf++] = a->family;
        }
    }
    g->ratio = median(fam_ratio, g->nfr);
}

void ecf_rec_gaps_free(ecf_rec_gaps *gaps)
{
    size_t i;
    if (!gaps)
        return;
    for (i = 0; i < gaps->n; i++) {
        free(gaps->v[i].region);
        free(gaps->v[i].families);
    }
    free(gaps->v);
    free(gaps);
}

/* The scan of `region`: from *cache when it holds it for `cat`, else
 * computed (and kept when there is a cache). *tmp is the caller's to free
 * when no cache keeps it. */
static const region_gaps *gaps_of(ecf_rec_gaps **cache, const ecf_catalog *cat,
                                  const char *region, region_gaps *tmp,
                                  double *type_ratio, double *fam_ratio)
{
    ecf_rec_gaps *c;
    size_t i, n = ecf_catalog_count(cat);

    if (!cache) {
        scan_region(tmp, cat, region, type_ratio, fam_ratio);
        return tmp;
    }
    c = *cache;
    if (c && (c->cat != cat || c->n_inst != n)) {
        ecf_rec_gaps_free(c);
        c = *cache = NULL;
    }
    if (!c) {
        c = *cache = ecf_xcalloc(1, sizeof(*c));
        c->cat = cat;
        c->n_inst = n;
    }
    for (i = 0; i < c->n; i++)
        if (strcmp(c->v[i].region, region) == 0)
            return &c->v[i];
    if (c->n == c->cap) {
        c->cap = c->cap ? c->cap * 2 : 8;
        c->v = ecf_xrealloc(c->v, c->cap * sizeof(*c->v));
    }
    scan_region(&c->v[c->n], cat, region, type_ratio, fam_ratio);
    c->v[c->n].region = ecf_xstrdup(region);
    return &c->v[c->n++];
}

void ecf_rec_missing_prices(ecf_recommendation *r, const ecf_catalog *cat,
                            const ecf_recommend_opts *o, ecf_rec_gaps **cache)
{
    size_t n = ecf_catalog_count(cat), ri, k;
    double *type_ratio = NULL, *fam_ratio = NULL;

    r->missing = ecf_xcalloc(o->n_regions ? o->n_regions : 1,
                             sizeof(*r->missing));
    type_ratio = ecf_xmalloc((n ? n : 1) * sizeof(double));
    fam_ratio = ecf_xmalloc((n ? n : 1) * sizeof(double));
    for (ri = 0; ri < o->n_regions; ri++) {
        const char *region = o->regions[ri];
        region_gaps tmp;
        const region_gaps *g;
        size_t nf = 0;
        if (strcmp(region, BASE_REGION) == 0)
            continue;
        g = gaps_of(cache, cat, region, &tmp, type_ratio, fam_ratio);
        r->missing[r->n_missing].region = region;
        for (k = 0; k < g->nf; k++) {
            if (!ecf_rec_family_selected(o, g->families[k]))
                continue;
            if (!r->missing[r->n_missing].families)
                r->missing[r->n_missing].families = ecf_xmalloc(g->nf * sizeof(char *));
            r->missing[r->n_missing].families[nf++] = g->families[k];
        }
        r->missing[r->n_missing].n_families = nf;
        r->missing[r->n_missing].n_ratio_families = g->nfr;
        r->missing[r->n_missing].ratio = g->ratio;
        r->missing[r->n_missing].estimated = o->estimate_missing_prices && r->missing[r->n_missing].ratio > 0;
        r->missing[r->n_missing].uncovered = g->uncovered;
        if (!cache)
            free(tmp.families);
        if (nf > 0)
            r->n_missing++;
        else {
            free(r->missing[r->n_missing].families);
            r->missing[r->n_missing].families = NULL;
        }
    }
    free(type_ratio);
    free(fam_ratio);
}

void ecf_rec_missing_free(ecf_recommendation *r)
{
    size_t i;
    if (!r->missing)
        return;
    for (i = 0; i < r->n_missing; i++)
        free(r->missing[i].families);
    free(r->missing);
}

const ecf_price *ecf_rec_price(const ecf_recommendation *r,
                               const ecf_instance *inst, const char *region,
                               ecf_price *tmp, bool *estimated)
{
    return ecf_rec_price_known(r, inst, region,
                               ecf_instance_price(inst, region), tmp,
                               estimated);
}

const ecf_price *ecf_rec_price_known(const ecf_recommendation *r,
                                     const ecf_instance *inst,
                                     const char *region, const ecf_price *p,
                                     ecf_price *tmp, bool *estimated)
{
    const ecf_price *base;
    size_t i, k;

    *estimated = false;
    if (p || !r->opts.estimate_missing_prices)
        return p;
    /* a listed family's types are priced in us-east-1 alone, or, in a
     * region the catalog does not cover, there among others */
    base = ecf_instance_price(inst, BASE_REGION);
    if (!base)
        return NULL;
    for (i = 0; i < r->n_missing; i++) {
        if (strcmp(r->missing[i].region, region) != 0 ||
            !r->missing[i].estimated)
            continue;
        for (k = 0; k < r->missing[i].n_families; k++)
            if (strcmp(r->missing[i].families[k], inst->family) == 0)
                break;
        if (k == r->missing[i].n_families)
            return NULL;
        memset(tmp, 0, sizeof(*tmp));
        tmp->region = r->missing[i].region;
        tmp->ondemand_usd_per_hour =
            base->ondemand_usd_per_hour * r->missing[i].ratio;
        tmp->reserved_1y_usd_per_hour = ECF_PRICE_UNKNOWN;
        tmp->spot_usd_per_hour = ECF_PRICE_UNKNOWN;
        tmp->interruption_band = -1;
        *estimated = true;
        return tmp;
    }
    return NULL;
}

size_t ecf_recommend_missing_families(char *out, size_t n, size_t len,
                                      const ecf_recommendation *r, size_t i,
                                      size_t show)
{
    size_t k;
    for (k = 0; k < r->missing[i].n_families && k < show && len < n; k++)
        len = ecf_str_put(out, n, ecf_str_put(out, n, len, k ? ", " : ""),
                          r->missing[i].families[k]);
    if (len < n && r->missing[i].n_families > show)
        len += (size_t)snprintf(out + len, n - len, " and %zu more",
                                r->missing[i].n_families - show);
    return len;
}

void ecf_recommend_missing_note(char *out, size_t n,
                                const ecf_recommendation *r, size_t i)
{
    size_t len = 0;
    const size_t show = 12;

    if (n == 0)
        return;
    out[0] = '\0';
    if (i >= r->n_missing || r->missing[i].n_families == 0)
        return;
    len += (size_t)snprintf(out + len, n - len, "no %s price for ",
                            r->missing[i].region);
    len = ecf_recommend_missing_families(out, n, len, r, i, show);
    if (len >= n)
        return;
    if (r->missing[i].uncovered)
        len += (size_t)snprintf(out + len, n - len,
                                " (the catalog's regional prices do not "
                                "cover %s: it prices no CPU type there)",
                                r->missing[i].region);
    else
        len += (size_t)snprintf(out + len, n - len,
                                " (the catalog prices them in us-east-1 "
                                "only)");
    if (len >= n)
        return;
    if (r->missing[i].estimated)
        snprintf(out + len, n - len,
                 ": priced at "
                 "us-east-1 x %.3f, the region's median ratio over %zu "
                 "families, and marked price_estimated; `ec2fit update "
                 "--regions %s` fetches real prices",
                 r->missing[i].ratio, r->missing[i].n_ratio_families,
                 r->missing[i].region);
    else
        snprintf(out + len, n - len,
                 ": left out; "
                 "`ec2fit update --regions %s` fetches them, or "
                 "--estimate-missing-prices prices them from the region's "
                 "median ratio",
                 r->missing[i].region);
}

/* ------------------------------------------------------------------ */
/* Storage cost                                                        */
/* ------------------------------------------------------------------ */

const ecf_storage_price *
ecf_rec_storage_price(const ecf_recommend_opts *o, const char *region,
                      bool *estimated)
{
    const ecf_storage_price *sp;

    *estimated = false;
    if (!o->storage_prices)
        return NULL;
    sp = ecf_storage_prices_find(o->storage_prices, region);
    if (!sp) {
        sp = ecf_storage_prices_fallback(o->storage_prices);
        *estimated = sp != NULL;
    }
    return sp;
}

void ecf_rec_storage_cost(ecf_plan *p, const ecf_recommend_opts *o,
                          const ecf_estimate *e, const ecf_workload *w,
                          const ecf_storage_price *sp,
                          bool sp_estimated)
{
    double monthly = 0, once = 0;

    p->storage = e->storage;
    p->storage_usd = 0;
    p->storage_monthly_usd = 0;
    p->storage_price_estimated = false;
    /* nothing to cost without a dataset or its time (serving, or jobs
     * priced per 1M samples); NVMe is in the instance price */
    if (!o->storage_prices || e->storage_gb <= 0 || p->time_hours <= 0 ||
        e->storage == ECF_STORAGE_NVME)
        return;
    if (!sp)
        return;
    p->storage_price_estimated = sp_estimated;
    switch ((ecf_storage)e->storage) {
    case ECF_STORAGE_S3:
        monthly = e->storage_gb * sp->s3_usd_per_gb_month;
        break;
    case ECF_STORAGE_GP3: {
        double extra = e->storage_mbytes_s - 125.0;
        monthly = p->nodes * (e->storage_capacity_gb *
                                  sp->gp3_usd_per_gb_month +
                              (extra > 0 ? extra : 0) *
                                  sp->gp3_usd_per_mbytes_s_month);
        break;
    }
    case ECF_STORAGE_FSX:
        monthly = e->storage_capacity_gb * sp->fsx_usd_per_gb_month;
        break;
    case ECF_STORAGE_EFS:
        monthly = e->storage_gb * sp->efs_usd_per_gb_month;
        once = e->storage_gb * (w->epochs > 0 ? w->epochs : 1) *
               sp->efs_read_usd_per_gb;
        break;
    case ECF_STORAGE_NVME: /* in the instance price */
    case ECF_STORAGE_AUTO:
    case ECF_STORAGE_COUNT:
    default:
        break;
    }
    p->storage_monthly_usd = monthly;
    p->storage_usd = monthly * p->time_hours / HOURS_PER_MONTH + once;
}
