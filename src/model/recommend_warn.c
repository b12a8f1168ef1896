/*
 * recommend_warn.c - the estimator's warnings for the plans a batch line
 * shows (ecf_recommend_memo_warnings, recommend.h): the renderer lists
 * them for each shown plan, and lines that share a model and workload
 * show the same instances, so they are kept per thread instead of
 * running a full (non-quiet) estimate per plan per line. Pure: no I/O.
 */
#include <stdlib.h>
#include <string.h>

#include "ec2fit/estimate.h"
#include "recommend_internal.h"

#define WARN_SLOTS 64 /* entries per model and workload; then round robin */

typedef struct {
    const ecf_instance *inst;
    int nodes;
    int rc; /* ecf_estimate_run's status */
    int n;
    char warnings[ECF_EST_MAX_NOTES][ECF_EST_NOTE_LEN];
} warn_entry;

struct ecf_rec_warn_cache {
    bool valid;
    ecf_model model;
    ecf_workload w; /* as given: every field, epochs and qps included */
    int n, next;
    warn_entry e[WARN_SLOTS];
};

void ecf_rec_warn_cache_free(ecf_rec_warn_cache *c)
{
    free(c);
}

static void copy_out(ecf_estimate *e, const warn_entry *x)
{
    int k;
    e->n_warnings = x->n;
    for (k = 0; k < x->n; k++)
        memcpy(e->warnings[k], x->warnings[k], ECF_EST_NOTE_LEN);
}

int ecf_rec_warn_cache_get(ecf_rec_warn_cache **cp, ecf_estimate *e,
                           const ecf_model *m, const ecf_workload *w,
                           const ecf_instance *inst, int nodes)
{
    ecf_rec_warn_cache *c;
    warn_entry *x;
    int i, rc, k;

    if (!cp)
        return ecf_estimate_run_warnings(e, m, w, inst, nodes, NULL);
    if (!*cp)
        *cp = ecf_xcalloc(1, sizeof(**cp));
    c = *cp;
    /* Byte for byte, as ecf_rec_memo_bind: the model and workload hold no
     * pointers, so equal bytes are equal inputs; a difference in padding
     * only costs a miss. */
    if (!c->valid || memcmp(&c->model, m, sizeof(*m)) != 0 ||
        memcmp(&c->w, w, sizeof(*w)) != 0) {
        memcpy(&c->model, m, sizeof(*m));
        memcpy(&c->w, w, sizeof(*w));
        c->valid = true;
        c->n = c->next = 0;
    }
    for (i = 0; i < c->n; i++)
        if (c->e[i].inst == inst && c->e[i].nodes == nodes) {
            if (c->e[i].rc == 0)
                copy_out(e, &c->e[i]);
            return c->e[i].rc;
        }
    rc = ecf_estimate_run_warnings(e, m, w, inst, nodes, NULL);
    if (c->n < WARN_SLOTS)
        x = &c->e[c->n++];
    else {
        x = &c->e[c->next];
        c->next = (c->next + 1) % WARN_SLOTS;
    }
    x->inst = inst;
    x->nodes = nodes;
    x->rc = rc;
    x->n = 0;
    if (rc == 0) {
        x->n = e->n_warnings;
        for (k = 0; k < x->n; k++)
            memcpy(x->warnings[k], e->warnings[k], ECF_EST_NOTE_LEN);
    }
    return rc;
}
