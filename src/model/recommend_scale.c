/*
 * recommend_scale.c - when a job on more nodes is worth it: --optimize
 * time's scale-out rule, and an offline job's even scale-out; the rules
 * the scorer applies past the fewest-node plan (docs/recommend.md,
 * "Optimize", "Offline jobs scale out at equal cost"); and the job node
 * cap, 16 or, when a deadline needs it, 256 (docs/rules.md, "Node cap").
 */
#include "ec2fit/recommend.h"
#include "ec2fit/fleet.h"

#include <math.h>

#include "recommend_internal.h"

/* --optimize time: a plan on more nodes replaces `b` when it shortens the
 * job by a larger fraction than the fraction it adds to the cost:
 * (t_b - t)/t_b > (C - C_b)/C_b. For a doubling of the nodes that is a
 * speedup above 1.5x, i.e. a scaling efficiency above 75%. */
bool ecf_recommend_scale_out_pays_(const ecf_plan *b, const ecf_plan *p)
{
    double dt, dc;
    if (b->time_hours <= 0 || p->time_hours <= 0 || b->total_usd <= 0)
        return false;
    dt = (b->time_hours - p->time_hours) / b->time_hours;
    dc = (p->total_usd - b->total_usd) / b->total_usd;
    return dt > 0 && dt > dc;
}

/* An offline job (--task batch) without a deadline: a plan on more nodes
 * replaces `b` when it finishes sooner and its total stays within
 * ECF_SCALE_EVEN_TOL of the fewest-node plan's, `base_usd`. The replicas
 * are independent, so the node-hours of the work do not change; what
 * does is each added node's start-up and, on spot, the rework of its
 * interruptions, both a small fraction of a long job. The search stops
 * at the run's max_nodes (16 for jobs; --max-nodes). */
bool ecf_recommend_scale_even_(const ecf_plan *b, const ecf_plan *p,
                               double base_usd)
{
    if (b->time_hours <= 0 || p->time_hours <= 0 || base_usd <= 0 ||
        p->total_usd <= 0)
        return false;
    return p->time_hours < b->time_hours &&
           p->total_usd <= base_usd * (1 + ECF_SCALE_EVEN_TOL);
}

/* Whether to evaluate more nodes once every purchase option has a plan
 * (plans[at[k]] for the wanted options k): only when scaling out, up to
 * twice the best node count so far (the counts between carry the
 * pipeline layouts, which need a divisor). */
bool ecf_recommend_scale_on_(bool scale, int n, int limit,
                             const ecf_plan *plans, const bool want[2],
                             const size_t at[2])
{
    int k;
    if (!scale || n >= limit)
        return false;
    for (k = 0; k < 2; k++)
        if (want[k] && n < 2 * plans[at[k]].nodes)
            return true;
    return false;
}

/* An offline job's even scale-out (ecf_recommend_scale_even_) adds a
 * node's start-up to the cost per node and takes nothing off the work's
 * node-hours, so its cost grows with the node count: when the cap's plan
 * is within the tolerance, so is every count below it, and the linear
 * scan would end at the cap. Try the cap first; scan the counts between
 * only when it did not take every wanted option (one estimate per
 * candidate instead of up to 16; recommend --batch of the 10,000 bench
 * profiles, docs/recommend.md). */
int ecf_recommend_even_next_(int n, int limit, int *probe,
                             const ecf_plan *plans, const bool want[2],
                             const size_t at[2])
{
    int k;
    if (*probe > 0 && n == limit) { /* the cap was just tried */
        for (k = 0; k < 2; k++)
            if (want[k] && plans[at[k]].nodes != limit) {
                n = *probe;
                *probe = -1;
                return n;
            }
        return -1;
    }
    if (!ecf_recommend_scale_on_(true, n, limit, plans, want, at))
        return -1;
    if (*probe == 0 && n + 1 < limit) {
        *probe = n;
        return limit - 1;
    }
    return n;
}

/* Past the default cap (a deadline raised it, up to 256), a deadline miss
 * skips ahead: no plan speeds up by more than its node count grows (the
 * estimator's scaling efficiency is at most 1), so the fewest nodes that
 * meet the deadline are at least n x (time / deadline). One estimate per
 * jump instead of one per node count. */
int ecf_recommend_deadline_next_(int n, int limit, double ratio)
{
    double want;
    int next;
    if (n < ECF_JOB_DEFAULT_MAX_NODES || !(ratio > 1) || ratio >= 1e300)
        return n;
    want = ceil((double)n * ratio - 1e-9);
    next = want >= limit ? limit : (int)want;
    return next > n + 1 ? next - 1 : n;
}

int ecf_recommend_run(ecf_recommendation **out, const ecf_catalog *cat,
                      const ecf_model *m, const ecf_workload *w,
                      const ecf_rules *rules, const ecf_recommend_opts *o,
                      ecf_err *err)
{
    return ecf_recommend_run_memo(out, cat, m, w, rules, o, NULL, err);
}

/* Jobs are capped at 16 nodes by default. When a deadline leaves no plan
 * within 16, the search runs again up to 256 nodes, the most instances an
 * account can hold in Capacity Blocks: a run where 16 nodes suffice is
 * not changed by the higher cap (docs/rules.md, "Node cap"). */
int ecf_recommend_run_memo(ecf_recommendation **out, const ecf_catalog *cat,
                           const ecf_model *m, const ecf_workload *w,
                           const ecf_rules *rules,
                           const ecf_recommend_opts *o,
                           ecf_recommend_memo *memo, ecf_err *err)
{
    int rc = ecf_rec_run_pass(out, cat, m, w, rules, o, memo,
                              ECF_JOB_DEFAULT_MAX_NODES, err);
    if (rc || !*out || (*out)->serving || (*out)->n_plans > 0 ||
        o->max_nodes > 0 || o->deadline_hours <= 0)
        return rc;
    ecf_recommendation_free(*out);
    *out = NULL;
    return ecf_rec_run_pass(out, cat, m, w, rules, o, memo,
                            ECF_CB_MAX_INSTANCES, err);
}
