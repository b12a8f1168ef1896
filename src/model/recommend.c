/*
 * recommend.c - the scorer: candidate plans, their cost and the rules
 * (the ranking is recommend_rank.c). Pure: no I/O, no globals; allocates
 * only the result arrays.
 *
 * Cost model (docs/rules.md has the derivations):
 *  - jobs (train, fine-tune, batch): hours x nodes x $/h; spot adds the
 *    expected rework of interruptions: T' = T (1 + lambda N (c/2 + r)),
 *    lambda from the Spot Advisor band, c the checkpoint interval, r the
 *    restart overhead; without --dataset costs are per 1M samples/tokens;
 *  - serving: instances for --qps at the latency target, x 730 h a month.
 * The Lambda / Lightsail alternatives are recommend_light.c.
 */
#include "ec2fit/recommend.h"

#include <stddef.h>
#include <stdio.h> /* snprintf only: the scorer does no I/O */
#include <stdlib.h>
#include <string.h>

#include "ec2fit/light.h"
#include "ec2fit/stacks_resolve.h"

#include "recommend_internal.h"


void ecf_recommendation_free(ecf_recommendation *r)
{
    if (!r)
        return;
    free(r->plans);
    free(r->rejected);
    ecf_rec_missing_free(r);
    free(r);
}

/* ------------------------------------------------------------------ */
/* Growable arrays                                                     */
/* ------------------------------------------------------------------ */

/* The next element of r->plans, not yet taken: consider() costs a
 * candidate's first plan there and takes it (n_plans++) when it passes. */
static ecf_plan *next_plan(ecf_recommendation *r, size_t *cap)
{
    if (r->n_plans == *cap) {
        *cap = *cap ? *cap * 2 : 64;
        r->plans = ecf_xrealloc(r->plans, *cap * sizeof(ecf_plan));
    }
    return &r->plans[r->n_plans];
}

static void push_reject(ecf_recommendation *r, size_t *cap,
                        const ecf_instance *inst, const char *region,
                        bool spot, int nodes, ecf_rule_id rule, double ratio)
{
    ecf_rejection *x;
    if (r->n_rejected == *cap) {
        *cap = *cap ? *cap * 2 : 256;
        r->rejected = ecf_xrealloc(r->rejected, *cap * sizeof(ecf_rejection));
    }
    x = &r->rejected[r->n_rejected++];
    x->inst = inst;
    x->region = region;
    x->spot = spot;
    x->nodes = nodes;
    x->rule = rule;
    x->miss_ratio = ratio;
}

/* ------------------------------------------------------------------ */
/* Candidate evaluation                                                */
/* ------------------------------------------------------------------ */

/* More nodes cannot fix these failures (cost and latency grow or stay). */
static bool fixable_by_nodes(ecf_rule_id id)
{
    return id == ECF_RULE_MEMORY_FIT || id == ECF_RULE_DEADLINE ||
           id == ECF_RULE_HOST_RAM || id == ECF_RULE_THROUGHPUT;
}

#define STACK_CACHE 32

typedef struct {
    const ecf_model *m;
    const ecf_workload *w;
    const ecf_rules *rules;
    const ecf_recommend_opts *o;
    ecf_recommend_memo *memo; /* NULL: none */
    size_t inst_index;        /* of the instance consider() is on */
    const char *region;       /* of the candidate being costed */
    /* the storage prices of `storage_region` (ecf_rec_storage_price),
     * resolved when `region` first differs from it: one lookup per region
     * instead of a scan of region names per plan */
    const char *storage_region;
    const ecf_storage_price *storage_sp;
    bool storage_sp_estimated;
    const ecf_price *const *prices; /* per instance in `region`; NULL:
                                       look up (ecf_rec_memo_prices) */
    ecf_recommendation *r;
    size_t plan_cap, rej_cap;
    bool serving;
    bool spot_allowed;
    bool cb_eval; /* cost_job prices a Capacity Block (add_capacity_block) */
    int max_nodes;
    double restart_hours;
    /* Stack verdicts, one per accelerator (or CPU architecture) seen in
     * this run: resolved on first sight, then a pointer compare (the
     * table is at the end). */
    int n_stacks;
    int stack_hit; /* the entry stack_lookup found or made last */
    /* the instance stack_of() answered last, and its answer: consider()
     * asks for one instance once per node count and purchase option */
    const ecf_instance *stack_inst;
    const ecf_stack_verdict *stack_last;
    /* the rules prepared for this run's targets (ecf_rules_prepare);
     * `prepared` false: not (a context rebuilt by ctx_from) */
    bool prepared;
    ecf_rules_prepared prep;
    /* ecf_spot_lambda per interruption band, 0..4 */
    double spot_lambda[5];
    /* Not cleared (ctx_clear): stack_lookup writes an entry whole before
     * n_stacks counts it, and the spill slot before it hands it out. */
    struct {
        const ecf_accel *accel; /* NULL: accelerator-less, by `arch` */
        int arch;
        ecf_stack_verdict v;
    } stacks[STACK_CACHE];
    ecf_stack_verdict stack_spill; /* past STACK_CACHE accelerators */
} run_ctx;

/* Zeroes a context up to its stack table (8.7 KB of the struct's 9:
 * clearing it per run was 0.8% of a batch's instructions). */
static void ctx_clear(run_ctx *c)
{
    memset(c, 0, offsetof(run_ctx, stacks));
}

/* The stack verdict of `inst` for this run's model and workload; NULL
 * when the run has no stack table. */
static const ecf_stack_verdict *stack_lookup(run_ctx *c,
                                             const ecf_instance *inst)
{
    const ecf_stacks *st = c->o->stacks;
    const ecf_accel *a = inst->accel_count > 0 ? inst->accel : NULL;
    int arch = a ? -1 : (int)inst->arch, i;
    ecf_stack_verdict *v;

    if (!st)
        return NULL;
    /* neighbours in the catalog mostly share the part: the last entry
     * first */
    i = c->stack_hit;
    if (i < c->n_stacks && c->stacks[i].accel == a &&
        c->stacks[i].arch == arch)
        return &c->stacks[i].v;
    for (i = 0; i < c->n_stacks; i++)
        if (c->stacks[i].accel == a && c->stacks[i].arch == arch) {
            c->stack_hit = i;
            return &c->stacks[i].v;
        }
    if (c->n_stacks < STACK_CACHE) {
        c->stacks[c->n_stacks].accel = a;
        c->stacks[c->n_stacks].arch = arch;
        c->stack_hit = c->n_stacks;
        v = &c->stacks[c->n_stacks++].v;
    } else {
        v = &c->stack_spill;
    }
    ecf_stacks_resolve(v, st, ecf_stacks_platform(st, inst), c->m, c->w);
    return v;
}

/* stack_lookup, remembering the last instance: the spill slot is only
 * rewritten by a lookup of another instance, which replaces the memory. */
static const ecf_stack_verdict *stack_of(run_ctx *c, const ecf_instance *inst)
{
    if (c->stack_inst != inst) {
        /* stack_lookup's first test, here: it mostly answers (the call
         * cost more than the test) */
        const ecf_accel *a = inst->accel_count > 0 ? inst->accel : NULL;
        int i = c->stack_hit;
        if (c->o->stacks && i < c->n_stacks && c->stacks[i].accel == a &&
            c->stacks[i].arch == (a ? -1 : (int)inst->arch))
            c->stack_last = &c->stacks[i].v;
        else
            c->stack_last = stack_lookup(c, inst);
        c->stack_inst = inst;
    }
    return c->stack_last;
}

/* ecf_spot_expected_interruptions(band, nodes, hours) with the run's
 * lambdas: the same product, without a log() per plan. */
static double spot_expected(const run_ctx *c, int band, int nodes,
                            double hours)
{
    if (band < 0 || band > 4)
        band = 4; /* unknown: assume the worst range */
    return c->spot_lambda[band] * nodes * hours;
}

/* Fills the plan and rule input for one purchase option at `nodes`. */

/* The nodes one replica of a job spans: a training job's whole cluster
 * (its gradients are all-reduced across it); an offline job's (--task
 * batch) replicas are independent, one per node unless the model is
 * pipelined across nodes. The multi-node-no-efa rule reads it. */
static int job_group_nodes(const run_ctx *c, const ecf_estimate *e,
                           int nodes)
{
    if (c->w->task == ECF_TASK_BATCH && e && e->pp_degree <= 1)
        return 1;
    return nodes;
}

static void cost_job(run_ctx *c, ecf_plan *p, ecf_rule_input *in,
                     const ecf_estimate *e, const ecf_price *price, bool spot,
                     int nodes)
{
    ecf_purchase pu = spot        ? ECF_PURCHASE_SPOT
                      : c->cb_eval ? ECF_PURCHASE_CAPACITY_BLOCK
                                   : c->o->purchase;
    double unit_price;
    double per_s = ecf_model_kind_is_llm(c->m->kind) && e->tokens_per_s > 0
                       ? e->tokens_per_s
                       : e->samples_per_s;

    /* a job runs on spot or on-demand; --purchase reserved/savings-plan
     * prices its hours at that rate (the commitment is owned already) */
    if (pu == ECF_PURCHASE_AUTO || ecf_purchase_rate(price, pu, NULL) <= 0)
        pu = ECF_PURCHASE_ON_DEMAND;
    unit_price = ecf_purchase_rate(price, pu, NULL);
    p->purchase_option = pu;
    p->spot = spot;
    p->nodes = nodes;
    p->nodes_per_group = job_group_nodes(c, e, nodes);
    p->usd_per_hour_instance = unit_price;
    ecf_rec_burst_job(p, e, nodes); /* unlimited-mode surplus credits */
    p->hourly_usd = unit_price * nodes + p->burst_surcharge_usd_per_hour;
    p->time_hours = e->time_hours;
    p->startup_s = e->startup_s;
    p->compile_s = e->compile_s;
    p->interruption_band = spot ? price->interruption_band : -1;
    if (spot && e->time_hours > 0) {
        double rework = spot_expected(c, price->interruption_band, nodes,
                                      1.0) *
                        (c->o->checkpoint_hours / 2 + c->restart_hours);
        p->time_hours = e->time_hours * (1 + rework);
        p->expected_interruptions = spot_expected(
            c, price->interruption_band, nodes, p->time_hours);
    }
    /* EC2 bills each node at least ECF_MIN_BILLED_S (per-second billing). */
    p->total_usd = p->hourly_usd * (p->time_hours > ECF_MIN_BILLED_S / 3600.0
                                        ? p->time_hours
                                        : ECF_MIN_BILLED_S / 3600.0);
    if (e->time_hours <= 0)
        p->total_usd = 0;
    if (pu == ECF_PURCHASE_CAPACITY_BLOCK)
        ecf_rec_cb_cost(p); /* the reserved window, not the job's hours */
    if (!c->storage_region || c->storage_region != c->region) {
        c->storage_sp = ecf_rec_storage_price(c->o, c->region,
                                              &c->storage_sp_estimated);
        c->storage_region = c->region;
    }
    ecf_rec_storage_cost(p, c->o, e, c->w, c->storage_sp,
                         c->storage_sp_estimated);
    p->total_usd += p->storage_usd;
    p->usd_per_million =
        per_s > 0 ? p->hourly_usd / (per_s * 3600.0) * 1e6 : 0;
    if (spot && e->time_hours <= 0 && per_s > 0) {
        /* no dataset: rework still costs a fraction of every hour */
        double rework = spot_expected(c, price->interruption_band, nodes,
                                      1.0) *
                        (c->o->checkpoint_hours / 2 + c->restart_hours);
        p->usd_per_million *= 1 + rework;
    }

    /* every member is written here or by fill_targets(), which evaluate_
     * calls next: no clearing pass per plan */
    in->nodes = nodes;
    in->nodes_per_group = p->nodes_per_group;
    in->spot = spot;
    in->interruption_band = p->interruption_band;
    in->hourly_usd = p->hourly_usd;
    in->time_hours = p->time_hours;
    in->total_usd = p->total_usd;
    in->expected_interruptions = p->expected_interruptions;
    in->checkpoint_hours = c->o->checkpoint_hours;
    in->instances_needed = 0;
    in->cb_usd_per_hour = price->capacity_block_usd_per_hour;
}

static void finish_plan(run_ctx *c, ecf_plan *p, const ecf_instance *inst,
                        const char *region, const ecf_estimate *e,
                        const ecf_rule_result *res)
{
    (void)c;
    p->inst = inst;
    p->region = region;
    p->devices_per_node = e->devices;
    p->parallelism = e->parallelism;
    p->required_per_device_gib = e->memory.total_per_device_gib;
    p->available_per_device_gib = e->memory.available_per_device_gib;
    p->headroom = e->memory.available_per_device_gib > 0
                      ? 1 - e->memory.total_per_device_gib /
                                e->memory.available_per_device_gib
                      : 0;
    p->kv_capacity_tokens = e->memory.kv_capacity_tokens;
    p->throughput = e->throughput;
    p->throughput_unit = e->throughput_unit;
    if (c->serving && p->nodes_per_group > 0)
        p->throughput *= (double)p->nodes / p->nodes_per_group;
    p->latency_ms = e->latency_ms;
    p->ttft_ms = e->ttft_ms;
    p->per_token_ms = e->per_token_ms;
    p->bottleneck = e->bottleneck;
    p->penalty = res->penalty;
    p->n_penalties = 0;
    while (p->n_penalties < res->n_penalties &&
           p->n_penalties < ECF_PLAN_MAX_PENALTIES) {
        p->penalty_ids[p->n_penalties] = res->penalties[p->n_penalties].id;
        p->n_penalties++;
    }
}

static void fill_targets(run_ctx *c, ecf_rule_input *in,
                         const ecf_instance *inst, const ecf_estimate *e)
{
    in->inst = inst;
    in->model = c->m;
    in->w = c->w;
    in->est = e;
    in->deadline_hours = c->o->deadline_hours;
    in->budget_usd = c->o->budget_usd;
    in->budget_hourly_usd = c->o->budget_hourly_usd;
    in->latency_ms = c->w->latency_target_ms;
    in->qps = c->w->qps;
    in->max_nodes = c->max_nodes;
    in->stack = stack_of(c, inst);
}

/* The plan members that the costing (cost_job, or
 * ecf_recommend_cost_serving; ecf_rec_storage_cost) and finish_plan()
 * leave unset on some path, and a taken plan holds as zero: every other
 * member is written on every path, so a candidate needs no clearing pass
 * over the whole plan (2.8% of a batch's instructions). A new ecf_plan
 * member that those do not always set belongs here. */
static void plan_clear_unset(ecf_plan *p)
{
    p->time_hours = 0;              /* serving */
    p->total_usd = 0;               /* serving */
    p->monthly_usd = 0;             /* jobs */
    p->usd_per_million = 0;         /* serving at no qps or capacity */
    p->capacity_qps = 0;            /* jobs */
    p->expected_interruptions = 0;  /* on-demand, serving */
    p->spot_savings_pct = 0;        /* ecf_rec_spot_savings, later */
    p->score = 0;                   /* ecf_rec_rank, later */
    p->asg_min = p->asg_max = p->asg_warm_pool = 0; /* jobs */
    p->asg_expected = 0;
    p->marks = 0;                   /* ecf_rec_rank ORs them in */
    p->price_estimated = false;     /* consider(), for a first plan */
    p->storage = 0;                 /* serving */
    p->storage_usd = p->storage_monthly_usd = 0;
    p->storage_price_estimated = false;
    p->cb_days = p->cb_blocks = 0;  /* not a capacity-block plan */
    memset(p->penalty_ids, 0, sizeof(p->penalty_ids)); /* past n_penalties */
}

/* Costs one purchase option of a candidate at `n` nodes and runs the
 * rules; reasons are formatted only when `fmt`. `past_plan_free`: the
 * plan-free constraints are known to pass (plan_free_fail). */
static void evaluate_(run_ctx *c, ecf_plan *p, ecf_rule_result *res,
                      const ecf_instance *inst, const ecf_price *price,
                      const ecf_estimate *e, bool spot, int n, bool fmt,
                      bool past_plan_free)
{
    ecf_rule_input in;
    plan_clear_unset(p);
    if (c->serving)
        ecf_recommend_cost_serving(p, &in, c->m, c->w, c->o, e, price, spot,
                                   n);
    else
        cost_job(c, p, &in, e, price, spot, n);
    fill_targets(c, &in, inst, e);
    if (fmt)
        ecf_rules_eval(res, c->rules, &in);
    else if (past_plan_free && c->prepared)
        ecf_rules_eval_quiet_past_plan_free_prepared(res, &c->prep, &in);
    else if (past_plan_free)
        ecf_rules_eval_quiet_past_plan_free(res, c->rules, &in);
    else
        ecf_rules_eval_quiet(res, c->rules, &in);
}

/* The first plan-free constraint that `e` fails on `inst` at `n` nodes
 * (ecf_rules_plan_free_fail), ECF_RULE_NO_PRICE when none: such a failure
 * is the rules' verdict on every purchase option of this estimate, so
 * consider() need not cost and evaluate each of them. */
static ecf_rule_id plan_free_fail(run_ctx *c, const ecf_instance *inst,
                                  const ecf_estimate *e, int n, double *ratio)
{
    ecf_rule_input in;
    memset(&in, 0, sizeof(in));
    in.nodes = n;
    in.nodes_per_group = job_group_nodes(c, e, n);
    fill_targets(c, &in, inst, e);
    if (c->prepared)
        return ecf_rules_plan_free_fail_prepared(&c->prep, &in, ratio);
    return ecf_rules_plan_free_fail(c->rules, &in, ratio);
}

/* The quiet estimate of the current instance at `n` nodes, from the memo
 * when it has it (recommend_memo.c). */
static const ecf_estimate *memo_estimate(run_ctx *c, ecf_estimate *e,
                                         const ecf_instance *inst, int n,
                                         ecf_err *err)
{
    return ecf_rec_memo_estimate(c->memo, e, c->m, c->w, inst, c->inst_index,
                                 n, err);
}

static int memo_min_nodes(run_ctx *c, const ecf_instance *inst, int limit)
{
    return ecf_rec_memo_min_nodes(c->memo, c->m, c->w, inst, c->inst_index,
                                  limit);
}

/* True when the memo keeps a failing plan-free verdict for the current
 * instance at `n` nodes, decided with this run's rules and stack table
 * (*pf, *ratio set): every purchase option fails on it, so the estimate
 * itself is not needed. *slot: the verdict slot (ecf_rec_memo_pf). */
static bool kept_plan_free_fail(run_ctx *c, int n, ecf_rule_id *pf,
                                double *ratio, ecf_rec_pf **slot)
{
    const ecf_rec_pf *kept = *slot =
        ecf_rec_memo_pf(c->memo, c->inst_index, n);
    if (!kept || !kept->valid || kept->rule == ECF_RULE_NO_PRICE ||
        kept->rules != (const void *)c->rules ||
        kept->stacks != (const void *)c->o->stacks)
        return false;
    *pf = (ecf_rule_id)kept->rule;
    *ratio = kept->ratio;
    return true;
}

/* The capacity-block plan of a candidate on `n` nodes, taken when it
 * passes the rules and a window holds it (--purchase auto). */
static int add_capacity_block(run_ctx *c, const ecf_instance *inst,
                              const char *region, const ecf_price *price,
                              bool estimated, int n, ecf_err *err)
{
    ecf_estimate e;
    const ecf_estimate *ep;
    ecf_plan *p;
    ecf_rule_result res;

    if (!(ep = memo_estimate(c, &e, inst, n, err)))
        return -1;
    p = next_plan(c->r, &c->plan_cap);
    c->cb_eval = true;
    /* the on-demand plan on these nodes passed: so do the plan-free
     * constraints */
    evaluate_(c, p, &res, inst, price, ep, false, n, false, true);
    c->cb_eval = false;
    if (res.pass && p->cb_days > 0) {
        c->r->n_plans++;
        finish_plan(c, p, inst, region, ep, &res);
        p->price_estimated = estimated;
    }
    return 0;
}

/* consider() of a type that has a price in the region (`estimated`: the
 * price is ecf_rec_price_known's). */
static int consider_priced(run_ctx *c, const ecf_instance *inst,
                           const char *region, const ecf_price *price,
                           bool estimated, ecf_err *err)
{
    bool want[2], placed[2] = {false, false},
                  scale = !c->serving && c->o->optimize == ECF_OPT_TIME;
    /* An offline job without a deadline scales out while it costs no more
     * (recommend_scale.c, ecf_recommend_scale_even_): its replicas are
     * independent, so more nodes finish sooner at the same node-hours. */
    bool even = !c->serving && !scale && c->w->task == ECF_TASK_BATCH &&
                c->o->deadline_hours <= 0;
    double base_usd[2] = {0, 0}; /* the fewest-node plan's total */
    size_t at[2] = {0, 0};
    /* the last failure per purchase option: rule and how far off (the
     * whole ecf_rule_result is kilobytes; copying it per failure was 6% of
     * a batch) */
    ecf_rule_id last_rule[2] = {ECF_RULE_NO_PRICE, ECF_RULE_NO_PRICE};
    double last_ratio[2] = {1, 1};
    int last_nodes[2] = {0, 0};
    int n, start = 1, limit = c->max_nodes, k, probe = 0;
    ecf_estimate e;
    const ecf_estimate *ep = NULL; /* e, or the memo's copy */

    want[0] = true;
    want[1] = c->spot_allowed && price->spot_usd_per_hour > 0;
    /* --max-interruption: an unknown band is not known to be under it */
    if (c->o->max_interruption_band > 0 &&
        (price->interruption_band < 0 ||
         price->interruption_band >= c->o->max_interruption_band))
        want[1] = false;

    /* A multi-node plan on a type without EFA is rejected by rule; don't
     * search past one node, so the reason reported is the one-node one. */
    if (!inst->efa && !even &&
        c->rules->rules[ECF_RULE_MULTI_NODE_NO_EFA].enabled &&
        c->rules->rules[ECF_RULE_MULTI_NODE_NO_EFA].kind ==
            ECF_RULE_CONSTRAINT)
        limit = 1;
    if (limit > 1) {
        int fit = memo_min_nodes(c, inst, limit);
        if (fit > 1)
            start = fit;
        else if (fit == 0)
            start = limit; /* report the closest (most sharded) attempt */
    }

    for (n = start; n <= limit; n++) {
        bool any_fixable = false, memory_short = false,
             deadline_only = true;
        double deadline_ratio = 1e300; /* the smallest deadline miss */
        ecf_rule_id pf;
        double pf_ratio;
        ecf_rec_pf *kept;
        if (!kept_plan_free_fail(c, n, &pf, &pf_ratio, &kept)) {
            /* the estimate is needed (unless a kept verdict passes, it is
             * decided here); a slot found stays valid (recommend_memo.c) */
            if (!(ep = memo_estimate(c, &e, inst, n, err)))
                return -1;
            if (!kept)
                kept = ecf_rec_memo_pf(c->memo, c->inst_index, n);
            if (kept && kept->valid && kept->rules == (const void *)c->rules &&
                kept->stacks == (const void *)c->o->stacks) {
                pf = (ecf_rule_id)kept->rule;
                pf_ratio = kept->ratio;
            } else {
                pf = plan_free_fail(c, inst, ep, n, &pf_ratio);
                if (kept) {
                    kept->valid = true;
                    kept->rules = c->rules;
                    kept->stacks = c->o->stacks;
                    kept->rule = (int)pf;
                    kept->ratio = pf_ratio;
                }
            }
        }
        for (k = 0; k < 2; k++) {
            ecf_plan tmp, *cand = &tmp;
            ecf_rule_result res;
            if (!want[k] || (placed[k] && !scale && !even))
                continue;
            if (pf != ECF_RULE_NO_PRICE) { /* evaluate_()'s verdict */
                res.pass = false;
                res.failed = pf;
                res.miss_ratio = pf_ratio;
            } else {
                /* a first plan is costed in place: no copy when it passes */
                if (!placed[k])
                    cand = next_plan(c->r, &c->plan_cap);
                evaluate_(c, cand, &res, inst, price, ep, k == 1, n, false,
                          true);
            }
            if (placed[k]) { /* --optimize time, or an even scale-out */
                ecf_plan *b = &c->r->plans[at[k]];
                if (res.pass &&
                    (scale ? ecf_recommend_scale_out_pays_(b, &tmp)
                           : ecf_recommend_scale_even_(b, &tmp,
                                                       base_usd[k]))) {
                    *b = tmp;
                    finish_plan(c, b, inst, region, ep, &res);
                    /* the price is the first plan's (tmp was cleared) */
                    b->price_estimated = estimated;
                }
                continue;
            }
            if (res.pass) {
                ecf_plan *p = cand; /* next_plan's element, now taken */
                at[k] = c->r->n_plans++;
                finish_plan(c, p, inst, region, ep, &res);
                p->price_estimated = estimated;
                placed[k] = true;
                base_usd[k] = p->total_usd;
            } else {
                last_rule[k] = res.failed;
                last_ratio[k] = res.miss_ratio;
                last_nodes[k] = n;
                if (fixable_by_nodes(res.failed))
                    any_fixable = true;
                if (res.failed != ECF_RULE_DEADLINE)
                    deadline_only = false;
                else if (res.miss_ratio < deadline_ratio)
                    deadline_ratio = res.miss_ratio;
                if (res.failed == ECF_RULE_MEMORY_FIT ||
                    res.failed == ECF_RULE_HOST_RAM)
                    memory_short = true;
            }
        }
        if ((placed[0] || !want[0]) && (placed[1] || !want[1])) {
            if ((n = even ? ecf_recommend_even_next_(n, limit, &probe,
                                                     c->r->plans, want, at)
                          : ecf_recommend_scale_on_(scale, n, limit,
                                                    c->r->plans, want, at)
                                ? n
                                : -1) < 0)
                break;
            continue;
        }
        if (!any_fixable)
            break;
        /* Serving scales by replicas, not by spreading one replica: only
         * memory (a replica needs more nodes) is fixed by a bigger group. */
        if (c->serving && !memory_short)
            break;
        if (deadline_only) /* past 16 nodes, skip ahead (recommend_scale.c) */
            n = ecf_recommend_deadline_next_(n, limit, deadline_ratio);
    }
    if (c->o->purchase == ECF_PURCHASE_CAPACITY_BLOCK && placed[0] &&
        ecf_rec_cb_drop(c->r, at[0], &last_nodes[0])) {
        placed[0] = false;
        last_rule[0] = ECF_RULE_NO_PRICE;
        last_ratio[0] = 1e9;
    }
    /* auto: a Capacity Block beside on-demand, on the same nodes */
    if (placed[0] && c->o->purchase == ECF_PURCHASE_AUTO && !c->serving &&
        ecf_rec_cb_auto_wanted(&c->r->plans[at[0]], price) &&
        add_capacity_block(c, inst, region, price, estimated,
                           c->r->plans[at[0]].nodes, err) != 0)
        return -1;
    if (placed[0] && placed[1])
        ecf_rec_spot_savings(c->r, &c->r->plans[at[1]],
                             &c->r->plans[at[0]]);
    for (k = 0; k < 2; k++)
        if (want[k] && !placed[k] && last_nodes[k] > 0)
            push_reject(c->r, &c->rej_cap, inst, region, k == 1,
                        last_nodes[k], last_rule[k], last_ratio[k]);
    return 0;
}

/* One instance type in one region: the fewest-node plan that passes, per
 * purchase option (or past it: recommend_scale.c), or the rejection. A
 * type without a price (most types in most regions) is rejected before
 * any of the search's set-up. */
static int consider(run_ctx *c, const ecf_instance *inst, const char *region,
                    ecf_err *err)
{
    ecf_price est_price;
    bool estimated = false;
    const ecf_price *price =
        c->prices ? c->prices[c->inst_index] : ecf_instance_price(inst, region);

    /* a price the catalog has is the price (ecf_rec_price_known) */
    if (!price && c->o->estimate_missing_prices)
        price = ecf_rec_price_known(c->r, inst, region, price, &est_price,
                                    &estimated);
    if (!price ||
        (c->o->purchase == ECF_PURCHASE_CAPACITY_BLOCK &&
         ecf_purchase_rate(price, ECF_PURCHASE_CAPACITY_BLOCK, NULL) <= 0)) {
        push_reject(c->r, &c->rej_cap, inst, region, false, 0,
                    ECF_RULE_NO_PRICE, 1e9);
        return 0;
    }
    return consider_priced(c, inst, region, price, estimated, err);
}

static void spot_lambdas(run_ctx *c)
{
    int b;
    for (b = 0; b < 5; b++)
        c->spot_lambda[b] = ecf_spot_lambda(b);
}

/* The run's targets, as fill_targets() sets them on every rule input, for
 * ecf_rules_prepare. */
static void prepare_rules(run_ctx *c)
{
    ecf_rule_input t;
    memset(&t, 0, sizeof(t));
    t.model = c->m;
    t.w = c->w;
    t.deadline_hours = c->o->deadline_hours;
    t.budget_usd = c->o->budget_usd;
    t.budget_hourly_usd = c->o->budget_hourly_usd;
    t.latency_ms = c->w->latency_target_ms;
    t.qps = c->w->qps;
    t.max_nodes = c->max_nodes;
    ecf_rules_prepare(&c->prep, c->rules, &t);
    c->prepared = true;
}

/* Rebuilds the evaluation context of a finished run. */
static void ctx_from(run_ctx *c, const ecf_recommendation *r)
{
    ctx_clear(c);
    c->m = r->model;
    c->w = &r->workload;
    c->rules = r->rules;
    c->o = &r->opts;
    c->serving = r->serving;
    c->spot_allowed = r->spot_considered;
    c->max_nodes = r->max_nodes;
    c->restart_hours =
        ecf_rule_param_get(&r->rules->rules[ECF_RULE_SPOT_INTERRUPTION],
                           "restart_overhead_min", 10) /
        60.0;
    spot_lambdas(c);
}

void ecf_recommend_rejection_reason(char *out, size_t n,
                                    const ecf_recommendation *r,
                                    const ecf_rejection *x)
{
    run_ctx c;
    ecf_estimate e;
    ecf_plan p;
    ecf_rule_result res;
    ecf_price tmp_price;
    bool estimated;
    const ecf_price *price =
        ecf_rec_price(r, x->inst, x->region, &tmp_price, &estimated);

    if (n == 0)
        return;
    out[0] = '\0';
    if (x->rule == ECF_RULE_NO_PRICE && price &&
        r->opts.purchase == ECF_PURCHASE_CAPACITY_BLOCK) {
        bool got = x->nodes > 0 && ecf_estimate_run_quiet(
                                       &e, r->model, &r->workload, x->inst,
                                       x->nodes, NULL) == 0;
        ecf_rec_cb_reason(out, n, x->inst, x->region, price,
                          got ? e.time_hours : 0, x->nodes);
        return;
    }
    if (x->rule == ECF_RULE_NO_PRICE || !price) {
        const char *names[] = {"instance", "region"};
        const char *values[] = {x->inst->type, x->region};
        ecf_rules_format(out, n, r->rules->rules[ECF_RULE_NO_PRICE].message,
                         names, values, 2);
        return;
    }
    ctx_from(&c, r);
    c.region = x->region;
    if (ecf_estimate_run_quiet(&e, c.m, c.w, x->inst, x->nodes, NULL) != 0)
        return;
    evaluate_(&c, &p, &res, x->inst, price, &e, x->spot, x->nodes, true,
              false);
    snprintf(out, n, "%s", res.pass ? "" : res.reason);
}

int ecf_recommend_plan_penalties(ecf_rule_hit *out, int max,
                                 const ecf_recommendation *r,
                                 const ecf_plan *p)
{
    run_ctx c;
    ecf_estimate e;
    ecf_plan tmp;
    ecf_rule_result res;
    ecf_price tmp_price;
    bool estimated;
    const ecf_price *price =
        ecf_rec_price(r, p->inst, p->region, &tmp_price, &estimated);
    int i, n;

    if (p->n_penalties == 0 || !price)
        return 0;
    ctx_from(&c, r);
    c.region = p->region;
    /* the nodes the plan was evaluated at: a serving replica group, or a
     * job's whole cluster (an offline job's independent replicas are one
     * node each, but its time, cost and interruptions are the cluster's) */
    n = c.serving ? p->nodes_per_group : p->nodes;
    if (ecf_estimate_run_quiet(&e, c.m, c.w, p->inst, n, NULL) != 0)
        return 0;
    evaluate_(&c, &tmp, &res, p->inst, price, &e, p->spot, n, true, false);
    for (i = 0; i < res.n_penalties && i < max; i++)
        out[i] = res.penalties[i];
    return i;
}


int ecf_rec_run_pass(ecf_recommendation **out, const ecf_catalog *cat,
                     const ecf_model *m, const ecf_workload *w,
                     const ecf_rules *rules, const ecf_recommend_opts *o,
                     ecf_recommend_memo *memo, int job_cap, ecf_err *err)
{
    run_ctx c;
    ecf_workload ww = *w;
    size_t ri, i, n_cat;
    bool filtered; /* --families or --exclude-families given */
    int rc = 0;

    *out = NULL;
    if (o->n_regions == 0)
        return ecf_err_set(err, ECF_EINVAL, "--region: no region given");
    if (!ww.resolved && ecf_workload_resolve(&ww, m, err) != 0)
        return err ? (int)err->code : ECF_EINVAL;
    if (o->max_nodes < 0 || o->max_nodes > 4096)
        return ecf_err_set(err, ECF_EINVAL,
                           "--max-nodes: expected an integer from 1 to 4096");

    /* the estimator sizes serving batches with the memory-fit rule's
     * headroom, so that the rule and `estimate` agree on every fit */
    ww.headroom_set = true;
    ww.headroom_pct =
        rules->rules[ECF_RULE_MEMORY_FIT].enabled
            ? ecf_rule_param_get(&rules->rules[ECF_RULE_MEMORY_FIT],
                                 "headroom_pct", 10)
            : 0;
    ctx_clear(&c);
    c.m = m;
    c.w = &ww;
    c.rules = rules;
    c.o = o;
    c.memo = memo;
    if (memo)
        ecf_rec_memo_bind(memo, cat, m, &ww);
    c.serving = ww.task == ECF_TASK_INFER;
    c.spot_allowed = o->spot == ECF_SPOT_YES ||
                     (o->spot == ECF_SPOT_AUTO && !c.serving);
    if (o->purchase == ECF_PURCHASE_SPOT)
        c.spot_allowed = o->spot != ECF_SPOT_NO;
    else if (o->purchase != ECF_PURCHASE_AUTO)
        c.spot_allowed = false;
    if (o->target_utilization < 0 || o->target_utilization > 1)
        return ecf_err_set(err, ECF_EINVAL,
                           "--target-utilization: expected a fraction "
                           "above 0 and at most 1 (or a percentage)");
    c.max_nodes =
        o->max_nodes > 0 ? o->max_nodes : (c.serving ? 64 : job_cap);
    if (c.serving && o->purchase == ECF_PURCHASE_CAPACITY_BLOCK)
        return ecf_err_set(err, ECF_EINVAL,
                           "--purchase capacity-block: Capacity Blocks are "
                           "for jobs (train, finetune, batch), not serving");
    c.restart_hours =
        ecf_rule_param_get(&rules->rules[ECF_RULE_SPOT_INTERRUPTION],
                           "restart_overhead_min", 10) /
        60.0;
    spot_lambdas(&c);
    prepare_rules(&c);
    c.r = ecf_xcalloc(1, sizeof(ecf_recommendation));
    /* one plan per purchase option and one rejection per candidate at
     * most: reserve once instead of growing */
    c.plan_cap = ecf_catalog_count(cat) * o->n_regions * 2;
    c.rej_cap = c.plan_cap;
    /* not zeroed: evaluate_ and push_reject write every element they
     * hand out, and clearing ~1 MB per run was 14% of a batch's time */
    c.r->plans = ecf_xmalloc((c.plan_cap ? c.plan_cap : 1) * sizeof(ecf_plan));
    c.r->rejected =
        ecf_xmalloc((c.rej_cap ? c.rej_cap : 1) * sizeof(ecf_rejection));
    c.r->serving = c.serving;
    c.r->model = m;
    c.r->rules = rules;
    c.r->workload = ww;
    c.r->opts = *o;
    c.r->max_nodes = c.max_nodes;
    c.r->spot_considered = c.spot_allowed;
    if (c.serving) {
        /* Without --qps the plan is one replica, and its monthly cost says
         * nothing about value: rank by $ per 1M requests (tokens) then. */
        c.r->basis = ww.qps > 0 ? ECF_COST_MONTHLY : ECF_COST_PER_MILLION;
        c.r->per_million_unit =
            ecf_model_kind_is_llm(m->kind) ? "tokens" : "requests";
    } else {
        c.r->basis =
            ww.dataset_samples > 0 ? ECF_COST_TOTAL : ECF_COST_PER_MILLION;
        c.r->per_million_unit =
            ecf_model_kind_is_llm(m->kind) ? "tokens" : "samples";
    }

    ecf_rec_missing_prices(c.r, cat, o, ecf_rec_memo_gaps(memo));
    n_cat = ecf_catalog_count(cat);
    filtered = o->families || o->exclude_families;
    for (ri = 0; ri < o->n_regions && rc == 0; ri++) {
        const char *region = o->regions[ri];
        c.region = region;
        c.prices = ecf_rec_memo_prices(memo, cat, region);
        for (i = 0; i < n_cat && rc == 0; i++) {
            const ecf_instance *inst = ecf_catalog_at(cat, i);
            if (filtered && !ecf_rec_family_selected(o, inst->family))
                continue;
            c.r->n_candidates++;
            c.inst_index = i;
            rc = consider(&c, inst, region, err);
        }
    }
    if (rc) {
        ecf_recommendation_free(c.r);
        return rc;
    }
    ecf_rec_rank(c.r, o->optimize, o->rank_top);

    c.r->fallback_index = -1;
    if (c.serving && c.r->n_plans > 0)
        ecf_recommend_fleet_summary(c.r, o);
    *out = c.r;
    return 0;
}

