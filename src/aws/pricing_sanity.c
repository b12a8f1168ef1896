/*
 * pricing_sanity.c - family reference prices for the merge's plausibility
 * check of newly priced (type, region) pairs: the median USD/hour per vCPU,
 * or per accelerator for accelerated types, of the family before the
 * merge, and the verdicts on new prices, spot savings and commitment
 * rates (reserved, Savings Plan, spot against on-demand). The bounds are
 * in pricing.h (ECF_PRICING_NEW_*, ECF_SPOT_*).
 */
#include "pricing_sanity.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/err.h"
#include "ec2fit/pricing.h"

typedef struct {
    const char *family; /* borrowed from the cJSON tree */
    bool per_accel;
    double v;
} sample;

struct pricing_medians {
    sample *v; /* sorted by (family, per_accel, v) */
    size_t n;
};

static int sample_cmp(const void *a, const void *b)
{
    const sample *x = a, *y = b;
    int c = strcmp(x->family, y->family);
    if (c)
        return c;
    if (x->per_accel != y->per_accel)
        return x->per_accel ? 1 : -1;
    return (x->v > y->v) - (x->v < y->v);
}

/* vCPUs, or accelerators (count x fraction) when the type has any. */
static bool divisor(const cJSON *inst, double *div, bool *per_accel)
{
    const cJSON *acc = cJSON_GetObjectItemCaseSensitive(inst, "accelerator");
    const cJSON *vcpu = cJSON_GetObjectItemCaseSensitive(inst, "vcpu");
    if (cJSON_IsObject(acc)) {
        const cJSON *c = cJSON_GetObjectItemCaseSensitive(acc, "count");
        const cJSON *f = cJSON_GetObjectItemCaseSensitive(acc, "fraction");
        double n = cJSON_IsNumber(c) ? c->valuedouble : 0;
        if (cJSON_IsNumber(f) && f->valuedouble > 0)
            n *= f->valuedouble;
        *per_accel = true;
        *div = n;
    } else {
        *per_accel = false;
        *div = cJSON_IsNumber(vcpu) ? vcpu->valuedouble : 0;
    }
    return isfinite(*div) && *div > 0;
}

static const char *family_of(const cJSON *inst)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(inst, "family");
    return cJSON_IsString(f) && f->valuestring ? f->valuestring : NULL;
}

pricing_medians *ecf_pricing_medians_new(const cJSON *instances)
{
    pricing_medians *m = ecf_xcalloc(1, sizeof(*m));
    const cJSON *inst, *entry;
    size_t cap = 0;

    cJSON_ArrayForEach(inst, instances)
    {
        const char *fam = family_of(inst);
        double div;
        bool pa;
        if (!fam || !divisor(inst, &div, &pa))
            continue;
        cJSON_ArrayForEach(entry,
                           cJSON_GetObjectItemCaseSensitive(inst, "prices"))
        {
            const cJSON *od = cJSON_GetObjectItemCaseSensitive(
                entry, "ondemand_usd_per_hour");
            if (!cJSON_IsNumber(od) || !(od->valuedouble > 0))
                continue;
            if (m->n == cap) {
                cap = cap ? cap * 2 : 256;
                m->v = ecf_xrealloc(m->v, cap * sizeof(*m->v));
            }
            m->v[m->n].family = fam;
            m->v[m->n].per_accel = pa;
            m->v[m->n].v = od->valuedouble / div;
            m->n++;
        }
    }
    if (m->n)
        qsort(m->v, m->n, sizeof(*m->v), sample_cmp);
    return m;
}

void ecf_pricing_medians_free(pricing_medians *m)
{
    if (!m)
        return;
    free(m->v);
    free(m);
}

static double median_of(const pricing_medians *m, const char *family,
                        bool per_accel)
{
    size_t i = 0, j;
    /* Linear scan to the run: merges touch few new pairs. */
    while (i < m->n && (strcmp(m->v[i].family, family) != 0 ||
                        m->v[i].per_accel != per_accel))
        i++;
    for (j = i; j < m->n && strcmp(m->v[j].family, family) == 0 &&
                m->v[j].per_accel == per_accel;
         j++)
        ;
    if (j == i)
        return 0;
    if ((j - i) % 2)
        return m->v[i + (j - i) / 2].v;
    return (m->v[i + (j - i) / 2 - 1].v + m->v[i + (j - i) / 2].v) / 2;
}

bool ecf_pricing_reference(double *median_out, double *per_unit_out,
                       const char **unit_out, const pricing_medians *m,
                       const cJSON *inst, double usd)
{
    const char *fam = family_of(inst);
    double div;
    bool pa;

    *median_out = 0;
    *per_unit_out = 0;
    *unit_out = "vCPU";
    if (!fam || !divisor(inst, &div, &pa))
        return false;
    *unit_out = pa ? "accelerator" : "vCPU";
    *per_unit_out = usd / div;
    *median_out = median_of(m, fam, pa);
    return true;
}

pricing_verdict ecf_pricing_check_new_price(char *msg, size_t size,
                                        const pricing_medians *m,
                                        const cJSON *inst, const char *type,
                                        const char *region, double newp,
                                        bool force)
{
    double median, per_unit, ratio;
    const char *unit, *fam = family_of(inst);

    if (!ecf_pricing_reference(&median, &per_unit, &unit, m, inst, newp) ||
        median <= 0)
        return PRICING_OK; /* nothing to compare with (docs/update.md) */
    ratio = per_unit / median;
    if (ratio >= ECF_PRICING_NEW_MIN_RATIO &&
        ratio <= ECF_PRICING_NEW_MAX_RATIO)
        return PRICING_OK;
    snprintf(msg, size,
             "%s %s: new on-demand price %g is %.3gx the %s median of %.4g "
             "per %s (allowed %gx-%gx); %s",
             type, region, newp, ratio, fam ? fam : "family", median, unit,
             ECF_PRICING_NEW_MIN_RATIO, ECF_PRICING_NEW_MAX_RATIO,
             force ? "accepted because of --force"
                   : "not added (use --force to accept)");
    return force ? PRICING_FORCED : PRICING_REJECTED;
}

pricing_verdict ecf_pricing_check_spot(char *msg, size_t size,
                                   const cJSON *entry, const char *type,
                                   const char *region, int s, bool force)
{
    const cJSON *olds =
        cJSON_GetObjectItemCaseSensitive(entry, "spot_savings_pct");
    double old, move;

    if (s < ECF_SPOT_SAVINGS_MIN || s > ECF_SPOT_SAVINGS_MAX) {
        snprintf(msg, size,
                 "%s %s: spot savings %d%% outside %d..%d%%; rejected, kept "
                 "the previous spot data",
                 type, region, s, ECF_SPOT_SAVINGS_MIN, ECF_SPOT_SAVINGS_MAX);
        return PRICING_REJECTED;
    }
    if (!cJSON_IsNumber(olds))
        return PRICING_OK;
    old = olds->valuedouble;
    move = fabs(s - old);
    if (move <= ECF_SPOT_MAX_MOVE_POINTS)
        return PRICING_OK;
    if (force) {
        snprintf(msg, size,
                 "%s %s: spot savings moved %.0f points (%.0f%% -> %d%%); "
                 "accepted because of --force",
                 type, region, move, old, s);
        return PRICING_FORCED;
    }
    snprintf(msg, size,
             "%s %s: spot savings moved %.0f points (%.0f%% -> %d%%); kept "
             "%.0f%% (use --force to accept)",
             type, region, move, old, s, old);
    return PRICING_REJECTED;
}

pricing_verdict ecf_pricing_check_commitment(char *msg, size_t size,
                                             const char *type,
                                             const char *region,
                                             const char *term, double rate,
                                             double ondemand, bool fetched)
{
    if (!(rate >= ondemand))
        return PRICING_OK;
    if (fetched)
        snprintf(msg, size,
                 "%s %s: %s rate %g is not below on-demand %g; dropped",
                 type, region, term, rate, ondemand);
    else
        snprintf(msg, size,
                 "%s %s: kept %s rate %g is now at or above the fetched "
                 "on-demand %g; dropped",
                 type, region, term, rate, ondemand);
    return PRICING_REJECTED;
}

pricing_verdict ecf_pricing_check_sp_terms(char *msg, size_t size,
                                           const char *type,
                                           const char *region, double sp3,
                                           double sp1, bool fetched)
{
    if (!(sp3 > sp1))
        return PRICING_OK;
    if (fetched)
        snprintf(msg, size,
                 "%s %s: 3-year Savings Plan rate %g is above the 1-year "
                 "rate %g; dropped",
                 type, region, sp3, sp1);
    else
        snprintf(msg, size,
                 "%s %s: kept 3-year Savings Plan rate %g is now above the "
                 "fetched 1-year rate %g; dropped",
                 type, region, sp3, sp1);
    return PRICING_REJECTED;
}
