/*
 * recommend_memo.c - the scorer's estimate memo (ecf_recommend_memo,
 * recommend.h): quiet estimates and fewest-fitting node counts of one
 * model and workload per instance and node count, kept between runs of a
 * batch. Pure: no I/O; allocates only its own tables, bounded by
 * ECF_RECOMMEND_MEMO_MAX_BYTES.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "recommend_internal.h"

/* An estimate is kept up to its notes: quiet estimates have none, and the
 * two note arrays are 94% of the struct. */
#define MEMO_EST_BYTES offsetof(ecf_estimate, quiet)

#define MEMO_PRICE_REGIONS 64 /* past it, prices are looked up */

/* Node counts 1..MEMO_DIRECT_NODES (the scorer's defaults: 16 for jobs,
 * 64 for serving) are found through a per-instance table, not by walking
 * the instance's list: an offline job's even scale-out keeps up to 16
 * entries per type, and the walk from the most nodes down was 4% of a
 * batch's instructions. A slot holds the entry and the bind generation it
 * was written in, so binding the memo to a new workload clears nothing. */
#define MEMO_DIRECT_NODES 64

typedef struct {
    unsigned gen; /* the memo's gen when written; another: empty */
    int j;        /* pool index */
} memo_slot;

typedef struct {
    int nodes;
    int next;      /* next entry of the same instance, fewer nodes (an
                      instance's entries are kept by node count, most
                      first); -1 ends */
    double epochs; /* the workload's when `est` was computed */
    ecf_rec_pf pf; /* the plan-free verdict on `est` */
    /* an ecf_estimate's first MEMO_EST_BYTES, copied from one (so read
     * through an ecf_estimate pointer: ecf_rec_memo_estimate) */
    _Alignas(ecf_estimate) unsigned char est[MEMO_EST_BYTES];
} memo_entry;

struct ecf_recommend_memo {
    const ecf_catalog *cat;
    size_t n_inst;
    bool valid;
    ecf_model model;
    ecf_workload wkey; /* resolved, qps and epochs zeroed */
    int *head;         /* per instance: first entry or -1 */
    memo_slot *direct; /* [instance * MEMO_DIRECT_NODES + nodes - 1] */
    unsigned gen;      /* bumped by each bind that empties the memo */
    int *minn_limit;   /* per instance: limit of the cached min_nodes; 0 */
    int *minn;
    memo_entry *pool;
    size_t n, cap;
    /* the entry found or made last, of (last_inst, last_n); -1: none. A
     * candidate asks for its verdict, then its estimate, then the verdict
     * slot again: one walk of the instance's entries instead of three. */
    int last_j, last_n;
    size_t last_inst;
    ecf_rec_gaps *gaps; /* per region, kept while the catalog is */
    /* Each instance's price in a region (ecf_instance_price), per region
     * seen, kept while the catalog is: a binary search of region names
     * per candidate was 4% of a batch. */
    const ecf_catalog *price_cat;
    size_t price_n_inst, n_price_regions;
    struct {
        char *region;
        const ecf_price **price; /* per instance; NULL: none */
    } price_regions[MEMO_PRICE_REGIONS];
    ecf_rec_warn_cache *warn; /* the shown plans' warnings */
};

static void prices_clear(ecf_recommend_memo *memo)
{
    size_t i;
    for (i = 0; i < memo->n_price_regions; i++) {
        free(memo->price_regions[i].region);
        free(memo->price_regions[i].price);
    }
    memo->n_price_regions = 0;
}

ecf_recommend_memo *ecf_recommend_memo_new(void)
{
    return ecf_xcalloc(1, sizeof(ecf_recommend_memo));
}

void ecf_recommend_memo_free(ecf_recommend_memo *memo)
{
    if (!memo)
        return;
    free(memo->head);
    free(memo->direct);
    free(memo->minn_limit);
    free(memo->minn);
    free(memo->pool);
    ecf_rec_gaps_free(memo->gaps);
    prices_clear(memo);
    ecf_rec_warn_cache_free(memo->warn);
    free(memo);
}

int ecf_recommend_memo_warnings(ecf_recommend_memo *memo, ecf_estimate *e,
                                const ecf_model *m, const ecf_workload *w,
                                const ecf_instance *inst, int nodes)
{
    return ecf_rec_warn_cache_get(memo ? &memo->warn : NULL, e, m, w, inst,
                                  nodes);
}

/* Makes `memo` hold (cat, m, w): keeps it when they are the ones it
 * holds, else empties it. Compared byte for byte, so a difference in
 * padding only costs a cold memo. */
void ecf_rec_memo_bind(ecf_recommend_memo *memo, const ecf_catalog *cat,
                       const ecf_model *m, const ecf_workload *w)
{
    ecf_workload k;
    size_t i, n = ecf_catalog_count(cat);

    memset(&k, 0, sizeof(k));
    memcpy(&k, w, sizeof(k));
    k.qps = 0;
    k.epochs = 0;
    if (memo->valid && memo->cat == cat && memo->n_inst == n &&
        memcmp(&memo->model, m, sizeof(*m)) == 0 &&
        memcmp(&memo->wkey, &k, sizeof(k)) == 0)
        return;
    if (memo->n_inst != n || !memo->head) {
        free(memo->head);
        free(memo->direct);
        free(memo->minn_limit);
        free(memo->minn);
        memo->head = ecf_xmalloc((n ? n : 1) * sizeof(int));
        /* zeroed: generation 0 is never current (gen starts at 1) */
        memo->direct = ecf_xcalloc((n ? n : 1) * MEMO_DIRECT_NODES,
                                   sizeof(memo_slot));
        memo->gen = 0;
        memo->minn_limit = ecf_xmalloc((n ? n : 1) * sizeof(int));
        memo->minn = ecf_xmalloc((n ? n : 1) * sizeof(int));
    }
    for (i = 0; i < n; i++) {
        memo->head[i] = -1;
        memo->minn_limit[i] = 0;
    }
    memo->cat = cat;
    memo->n_inst = n;
    memcpy(&memo->model, m, sizeof(*m));
    memcpy(&memo->wkey, &k, sizeof(k));
    memo->n = 0;
    memo->last_j = -1;
    memo->valid = true;
    if (++memo->gen == 0) { /* wrapped: clear the table once */
        memset(memo->direct, 0,
               (n ? n : 1) * MEMO_DIRECT_NODES * sizeof(memo_slot));
        memo->gen = 1;
    }
}

/* find() past MEMO_DIRECT_NODES: the instance's list, by node count,
 * most first. */
static int find_listed(const ecf_recommend_memo *mm, size_t inst_index,
                       int n)
{
    int j;
    for (j = mm->head[inst_index]; j >= 0 && mm->pool[j].nodes >= n;
         j = mm->pool[j].next)
        if (mm->pool[j].nodes == n)
            return j;
    return -1;
}

/* The entry of (inst_index, n), -1 when there is none. */
static inline int find(ecf_recommend_memo *mm, size_t inst_index, int n)
{
    int j;
    if (mm->last_j >= 0 && mm->last_inst == inst_index && mm->last_n == n)
        return mm->last_j;
    if (n >= 1 && n <= MEMO_DIRECT_NODES) {
        const memo_slot *s =
            &mm->direct[inst_index * MEMO_DIRECT_NODES + (size_t)(n - 1)];
        j = s->gen == mm->gen ? s->j : -1;
    } else {
        j = find_listed(mm, inst_index, n);
    }
    if (j >= 0) {
        mm->last_j = j;
        mm->last_inst = inst_index;
        mm->last_n = n;
    }
    return j;
}

/* time_hours is the one figure of an estimate that depends on the epochs:
 * the training and batch-inference phases set it to
 *   dataset_samples x epochs / time_samples_per_s / 3600
 * (time_samples_per_s: the samples/s at that point), data_and_host
 * multiplies it and divides time_samples_per_s by the input-pipeline
 * slowdown when there is one, and ecf_startup_apply adds startup_s / 3600
 * (and a Neuron training run's compile_s / 3600) when it is positive. Without a slowdown (neither data-bound, the test
 * data_and_host makes, nor decode-bound) the same operations on the same
 * operands give the estimator's bits for other epochs; with one, the
 * samples/s before it is not kept, so false: compute afresh. */
bool ecf_rec_memo_rescale_epochs(ecf_estimate *e, const ecf_workload *w)
{
    double need = e->data_rate_required_mbytes_s,
           best = e->data_rate_available_mbytes_s;
    double t;

    if ((need > best && best > 0 && w->task != ECF_TASK_INFER) ||
        e->decode_slowdown != 1)
        return false;
    if (e->time_samples_per_s <= 0) {
        if (e->time_hours != 0)
            return false; /* not the estimator's formula: recompute */
        return true; /* no dataset time at any epochs */
    }
    t = w->dataset_samples * w->epochs / e->time_samples_per_s / 3600.0;
    if (t > 0) {
        t += e->startup_s / 3600.0;
        if (e->compile_s > 0)
            t += e->compile_s / 3600.0;
    }
    e->time_hours = t;
    return true;
}

static void keep(ecf_recommend_memo *mm, const ecf_estimate *e,
                 const ecf_workload *w, size_t inst_index, int n);

const ecf_estimate *ecf_rec_memo_estimate(ecf_recommend_memo *mm,
                                          ecf_estimate *e, const ecf_model *m,
                                          const ecf_workload *w,
                                          const ecf_instance *inst,
                                          size_t inst_index, int n,
                                          ecf_err *err)
{
    int j;

    if (mm) {
        j = find(mm, inst_index, n);
        if (j >= 0) {
            /* Other epochs: computed afresh and kept instead. Rescaling
             * time_hours from time_samples_per_s does not give the
             * estimator's bits when an input-pipeline slowdown multiplied
             * it (estimate_scaling.c), and a last-bit difference can move
             * a tie (the "fastest" mark) between batch and single runs. */
            if (mm->pool[j].epochs != w->epochs &&
                w->dataset_samples > 0) {
                /* Rescaled where it is kept, not in a copy: the rescale
                 * reads no figure it writes, so the entry is then the
                 * estimate at w's epochs, as a fresh one would be; a
                 * group's lines come sorted by epochs, so the next lines
                 * find it as it is (copying it out per candidate was 1%
                 * of a batch). Its plan-free verdict stays, as it did for
                 * the copy: those rules read no time (rules.c). */
                ecf_estimate *kept = (ecf_estimate *)(void *)mm->pool[j].est;
                if (ecf_rec_memo_rescale_epochs(kept, w)) {
                    mm->pool[j].epochs = w->epochs;
                    return kept;
                }
                if (ecf_estimate_run_quiet(e, m, w, inst, n, err) != 0)
                    return NULL;
                mm->pool[j].epochs = w->epochs;
                mm->pool[j].pf.valid = false;
                memcpy(mm->pool[j].est, e, MEMO_EST_BYTES);
                return e;
            }
            /* the kept bytes, where they are: copying them out per
             * candidate was 2% of a batch */
            return (const ecf_estimate *)(const void *)mm->pool[j].est;
        }
    }
    if (ecf_estimate_run_quiet(e, m, w, inst, n, err) != 0)
        return NULL;
    if (mm)
        keep(mm, e, w, inst_index, n);
    return e;
}

/* Adds `e`, the quiet estimate of `w` at `n` nodes on the instance at
 * `inst_index`, as a new entry (within ECF_RECOMMEND_MEMO_MAX_BYTES). */
static void keep(ecf_recommend_memo *mm, const ecf_estimate *e,
                 const ecf_workload *w, size_t inst_index, int n)
{
    if ((mm->n + 1) * sizeof(memo_entry) <= ECF_RECOMMEND_MEMO_MAX_BYTES) {
        memo_entry *x;
        int *link;
        if (mm->n == mm->cap) {
            mm->cap = mm->cap ? mm->cap * 2 : 1024;
            if (mm->cap * sizeof(memo_entry) > ECF_RECOMMEND_MEMO_MAX_BYTES)
                mm->cap = ECF_RECOMMEND_MEMO_MAX_BYTES / sizeof(memo_entry);
            mm->pool = ecf_xrealloc(mm->pool, mm->cap * sizeof(memo_entry));
        }
        link = &mm->head[inst_index];
        /* after the entries with more nodes (find's order) */
        while (*link >= 0 && mm->pool[*link].nodes > n)
            link = &mm->pool[*link].next;
        x = &mm->pool[mm->n];
        x->nodes = n;
        x->epochs = w->epochs;
        x->pf.valid = false;
        x->next = *link;
        memcpy(x->est, e, MEMO_EST_BYTES);
        *link = (int)mm->n++;
        if (n >= 1 && n <= MEMO_DIRECT_NODES) {
            memo_slot *s =
                &mm->direct[inst_index * MEMO_DIRECT_NODES + (size_t)(n - 1)];
            s->gen = mm->gen;
            s->j = (int)mm->n - 1;
        }
        mm->last_j = (int)mm->n - 1;
        mm->last_inst = inst_index;
        mm->last_n = n;
    }
}

ecf_rec_pf *ecf_rec_memo_pf(ecf_recommend_memo *mm, size_t inst_index, int n)
{
    int j;
    if (!mm)
        return NULL;
    j = find(mm, inst_index, n);
    return j >= 0 ? &mm->pool[j].pf : NULL;
}

int ecf_rec_memo_min_nodes(ecf_recommend_memo *mm, const ecf_model *m,
                           const ecf_workload *w, const ecf_instance *inst,
                           size_t inst_index, int limit)
{
    int fit;
    if (mm && mm->minn_limit[inst_index] == limit)
        return mm->minn[inst_index];
    if (!mm)
        return ecf_estimate_min_nodes(m, w, inst, limit);
    {
        /* serving decides with full estimates: the last one (the fit, or
         * the `limit` attempt consider() reports) is kept, not redone */
        ecf_estimate last;
        int last_n;
        fit = ecf_estimate_min_nodes_keep(m, w, inst, limit, &last, &last_n);
        if (last_n > 0 && find(mm, inst_index, last_n) < 0)
            keep(mm, &last, w, inst_index, last_n);
    }
    {
        mm->minn_limit[inst_index] = limit;
        mm->minn[inst_index] = fit;
    }
    return fit;
}

ecf_rec_gaps **ecf_rec_memo_gaps(ecf_recommend_memo *memo)
{
    return memo ? &memo->gaps : NULL;
}

const ecf_price *const *ecf_rec_memo_prices(ecf_recommend_memo *memo,
                                            const ecf_catalog *cat,
                                            const char *region)
{
    size_t i, n = ecf_catalog_count(cat);
    const ecf_price **v;

    if (!memo)
        return NULL;
    if (memo->price_cat != cat || memo->price_n_inst != n) {
        prices_clear(memo);
        memo->price_cat = cat;
        memo->price_n_inst = n;
    }
    for (i = 0; i < memo->n_price_regions; i++)
        if (strcmp(memo->price_regions[i].region, region) == 0)
            return memo->price_regions[i].price;
    if (memo->n_price_regions == MEMO_PRICE_REGIONS)
        return NULL;
    v = ecf_xmalloc((n ? n : 1) * sizeof(*v));
    for (i = 0; i < n; i++)
        v[i] = ecf_instance_price(ecf_catalog_at(cat, i), region);
    memo->price_regions[memo->n_price_regions].region = ecf_xstrdup(region);
    memo->price_regions[memo->n_price_regions].price = v;
    memo->n_price_regions++;
    return v;
}
