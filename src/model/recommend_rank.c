/*
 * recommend_rank.c - the ranking of a run's plans: the cost and time
 * metrics by the run's basis, the score by --optimize (cost, time, or the
 * balanced geometric mean of both against the run's best), the cheapest /
 * fastest / best-value marks, the total order plans and rejections are
 * listed in, and spot savings against the on-demand plan of the same type.
 * Pure: no I/O, no globals; reorders the plans array it is given.
 * recommend.c enumerates and costs the candidates; this file orders them.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/recommend.h"

#include "recommend_internal.h"

static int reject_cmp(const void *a, const void *b);

void ecf_recommend_sort_rejected(ecf_recommendation *r)
{
    /* Only --explain lists every rejection; sorting them on every run was
     * an eighth of a batch profile's instructions. */
    qsort(r->rejected, r->n_rejected, sizeof(ecf_rejection), reject_cmp);
}

static double cost_metric(const ecf_recommendation *r, const ecf_plan *p)
{
    switch (r->basis) {
    case ECF_COST_TOTAL:
        return p->total_usd;
    case ECF_COST_MONTHLY:
        return p->monthly_usd;
    case ECF_COST_PER_MILLION:
        break;
    }
    return p->usd_per_million;
}

static double time_metric(const ecf_recommendation *r, const ecf_plan *p)
{
    if (r->serving)
        return p->latency_ms > 0 ? p->latency_ms : 1e12;
    if (r->basis == ECF_COST_TOTAL)
        return p->time_hours;
    return p->throughput > 0 ? 1.0 / p->throughput : 1e12;
}

/* A total order (type, region and purchase break every tie), so ranking
 * only the first N plans gives exactly the first N of a full sort. */
static int cmp_plans(const ecf_plan *x, const ecf_plan *y)
{
    int c;
    if (x->score != y->score)
        return x->score < y->score ? -1 : 1;
    if (x->headroom != y->headroom) /* more headroom first */
        return x->headroom > y->headroom ? -1 : 1;
    if (x->hourly_usd != y->hourly_usd)
        return x->hourly_usd < y->hourly_usd ? -1 : 1;
    c = strcmp(x->inst->type, y->inst->type);
    if (c)
        return c;
    c = strcmp(x->region, y->region);
    if (c)
        return c;
    if (x->spot != y->spot)
        return (int)x->spot - (int)y->spot;
    return (int)x->purchase_option - (int)y->purchase_option;
}

static int plan_cmp(const void *a, const void *b)
{
    return cmp_plans(*(const ecf_plan *const *)a, *(const ecf_plan *const *)b);
}

static int reject_cmp(const void *a, const void *b)
{
    const ecf_rejection *x = a, *y = b;
    int c;
    if (x->rule != y->rule)
        return (int)x->rule - (int)y->rule;
    if (x->miss_ratio != y->miss_ratio)
        return x->miss_ratio < y->miss_ratio ? -1 : 1;
    c = strcmp(x->inst->type, y->inst->type);
    if (c)
        return c;
    c = strcmp(x->region, y->region);
    return c ? c : (int)x->spot - (int)y->spot;
}

void ecf_rec_rank(ecf_recommendation *r, ecf_optimize opt, size_t top)
{
    double umin = INFINITY, tmin = INFINITY, best = INFINITY;
    size_t i, icheap = 0, ifast = 0, ivalue = 0;

    for (i = 0; i < r->n_plans; i++) {
        double u = cost_metric(r, &r->plans[i]);
        double t = time_metric(r, &r->plans[i]);
        if (u > 0 && u < umin)
            umin = u;
        if (t > 0 && t < tmin)
            tmin = t;
    }
    if (!isfinite(umin))
        umin = 1;
    if (!isfinite(tmin))
        tmin = 1;
    for (i = 0; i < r->n_plans; i++) {
        ecf_plan *p = &r->plans[i];
        double u = cost_metric(r, p), t = time_metric(r, p);
        double balanced = sqrt((u / umin) * (t / tmin));
        double mult = 1 + p->penalty;
        switch (opt) {
        case ECF_OPT_TIME:
            p->score = t * mult;
            break;
        case ECF_OPT_BALANCED:
            p->score = balanced * mult;
            break;
        case ECF_OPT_COST:
            p->score = u * mult;
            break;
        }
        if (u < cost_metric(r, &r->plans[icheap]))
            icheap = i;
        if (t < time_metric(r, &r->plans[ifast]))
            ifast = i;
        if (balanced * mult < best) {
            best = balanced * mult;
            ivalue = i;
        }
    }
    if (r->n_plans) {
        r->plans[icheap].marks |= ECF_MARK_CHEAPEST;
        r->plans[ifast].marks |= ECF_MARK_FASTEST;
        r->plans[ivalue].marks |= ECF_MARK_BEST_VALUE;
    }
    /* Plans are large: sort pointers, then lay the array out once. */
    {
        ecf_plan **order = ecf_xcalloc(r->n_plans, sizeof(*order));
        size_t k = 0;
        if (top > 0 && top < r->n_plans) {
            /* Only the first `top` are shown: keep them in a small sorted
             * array (insertion, O(n x top)); the rest follow in catalog
             * order. Sorting every plan was a sixth of a batch profile. */
            bool *taken = ecf_xcalloc(r->n_plans, sizeof(*taken));
            ecf_plan *first;
            size_t shift = 0, end = r->n_plans;
            for (i = 0; i < r->n_plans; i++) {
                ecf_plan *p = &r->plans[i];
                size_t j;
                if (k == top && cmp_plans(p, order[k - 1]) >= 0)
                    continue;
                j = k < top ? k++ : top - 1;
                while (j > 0 && cmp_plans(p, order[j - 1]) < 0) {
                    order[j] = order[j - 1];
                    j--;
                }
                order[j] = p;
            }
            first = ecf_xmalloc(k * sizeof(*first));
            for (i = 0; i < k; i++) {
                taken[order[i] - r->plans] = true;
                first[i] = *order[i];
            }
            /* In place, from the back: each run of the rest between two
             * taken plans moves up by the taken plans after it (one
             * memmove per run, not a copy of every plan). */
            for (i = r->n_plans; i-- > 0;) {
                if (!taken[i])
                    continue;
                if (shift && end > i + 1)
                    memmove(&r->plans[i + 1 + shift], &r->plans[i + 1],
                            (end - i - 1) * sizeof(ecf_plan));
                shift++;
                end = i;
            }
            if (shift && end > 0)
                memmove(&r->plans[shift], &r->plans[0],
                        end * sizeof(ecf_plan));
            memcpy(r->plans, first, k * sizeof(*first));
            free(first);
            free(taken);
        } else {
            ecf_plan *sorted =
                ecf_xmalloc((r->n_plans ? r->n_plans : 1) * sizeof(*sorted));
            for (i = 0; i < r->n_plans; i++)
                order[i] = &r->plans[i];
            qsort(order, r->n_plans, sizeof(*order), plan_cmp);
            for (i = 0; i < r->n_plans; i++)
                sorted[i] = *order[i];
            free(r->plans);
            r->plans = sorted;
        }
        free(order);
    }
}

/* Spot savings against the on-demand plan of the same type and region.
 * consider() pairs the two as it places them: scanning every plan for each
 * spot plan was quadratic, 40% of the instructions of a run. */
void ecf_rec_spot_savings(const ecf_recommendation *r, ecf_plan *s,
                          const ecf_plan *o)
{
    double cs = cost_metric(r, s), co = cost_metric(r, o);
    if (co > 0)
        s->spot_savings_pct = 100 * (1 - cs / co);
}
