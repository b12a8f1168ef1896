/*
 * recommend_internal.h - what the scorer's files share (recommend.c,
 * recommend_rank.c, recommend_light.c, recommend_regions.c,
 * recommend_memo.c, recommend_warn.c). Internal to
 * src/model.
 */
#ifndef EC2FIT_MODEL_RECOMMEND_INTERNAL_H
#define EC2FIT_MODEL_RECOMMEND_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/recommend.h"
#include "ec2fit/storage_prices.h"

#define HOURS_PER_MONTH 730.0 /* AWS's billing convention: 24 x 365 / 12 */

/* recommend.c: the --families / --exclude-families filter. */
bool ecf_rec_family_selected(const ecf_recommend_opts *o, const char *family);

/* recommend_rank.c: scores r's plans by `opt` (the metrics follow
 * r->basis), marks the cheapest, fastest and best value, and lays the
 * plans out in rank order (only the first `top` fully sorted when 0 <
 * top < n_plans; the rest follow in catalog order). */
void ecf_rec_rank(ecf_recommendation *r, ecf_optimize opt, size_t top);
/* recommend_rank.c: spot plan `s`'s savings against `o`, the on-demand
 * plan of the same type and region, by r's cost metric. */
void ecf_rec_spot_savings(const ecf_recommendation *r, ecf_plan *s,
                          const ecf_plan *o);

/* recommend_regions.c: fills r->missing for o's regions. `gaps` (NULL:
 * none) keeps each region's scan of the catalog between runs on the same
 * catalog (the batch memo holds one); the families filter is applied
 * afterwards, so the result is the same with or without it. */
typedef struct ecf_rec_gaps ecf_rec_gaps;
void ecf_rec_missing_prices(ecf_recommendation *r, const ecf_catalog *cat,
                            const ecf_recommend_opts *o, ecf_rec_gaps **gaps);
void ecf_rec_gaps_free(ecf_rec_gaps *gaps);
void ecf_rec_missing_free(ecf_recommendation *r);

/* recommend_memo.c: the estimate memo. Bind makes `memo` hold (cat, m,
 * w), emptying it when it held others. The estimate and min-nodes calls
 * read and fill it (memo NULL: none) for the instance at `inst_index` of
 * the catalog; an estimate kept for other epochs is computed afresh. */
void ecf_rec_memo_bind(ecf_recommend_memo *memo, const ecf_catalog *cat,
                       const ecf_model *m, const ecf_workload *w);
/* The estimate call gives the memo's own copy when it has one for these
 * epochs (no copy out: a candidate reads it), else `e`, computed (and
 * kept); NULL on error. The memo's copy holds the figures before
 * ecf_estimate.quiet only (no notes, flags or tried table), and is valid
 * until the memo next keeps an entry or is bound again. */
const ecf_estimate *ecf_rec_memo_estimate(ecf_recommend_memo *mm,
                                          ecf_estimate *e, const ecf_model *m,
                                          const ecf_workload *w,
                                          const ecf_instance *inst,
                                          size_t inst_index, int n,
                                          ecf_err *err);
/* The plan-free verdict (ecf_rules_plan_free_fail) on a kept estimate:
 * it reads the instance, model, task, stack verdict and the estimate's
 * fit, host RAM, vCPU and peak figures, none of which depend on qps or
 * epochs, so it holds for every run the memo is bound to with the same
 * rule set and stack table (`rules`, `stacks`: checked by the caller).
 * Cleared whenever the estimate is computed afresh. */
typedef struct {
    bool valid;
    const void *rules, *stacks; /* what it was decided with */
    int rule;                   /* ecf_rule_id; ECF_RULE_NO_PRICE: passes */
    double ratio;
} ecf_rec_pf;
/* The verdict slot of the kept estimate of (inst_index, n); NULL when the
 * memo keeps none (or memo is NULL). Valid until the next estimate call,
 * but for one of the same (inst_index, n): that finds the entry and
 * rescales or recomputes it in place (its verdict then cleared). */
ecf_rec_pf *ecf_rec_memo_pf(ecf_recommend_memo *mm, size_t inst_index,
                            int n);

/* Sets e->time_hours for w's epochs on an estimate computed with other
 * epochs (and otherwise the same model, workload, instance and nodes):
 * true when the result is exactly what the estimator gives, false when
 * the estimate must be computed afresh (an input-pipeline slowdown). */
bool ecf_rec_memo_rescale_epochs(ecf_estimate *e, const ecf_workload *w);
int ecf_rec_memo_min_nodes(ecf_recommend_memo *mm, const ecf_model *m,
                           const ecf_workload *w, const ecf_instance *inst,
                           size_t inst_index, int limit);
/* Each catalog instance's ecf_instance_price in `region`, kept by the
 * memo; NULL for no memo (or past its region bound): look them up. */
const ecf_price *const *ecf_rec_memo_prices(ecf_recommend_memo *memo,
                                            const ecf_catalog *cat,
                                            const char *region);
/* The memo's per-region gap scans for ecf_rec_missing_prices (NULL for
 * no memo). */
ecf_rec_gaps **ecf_rec_memo_gaps(ecf_recommend_memo *memo);

/* recommend_warn.c: ecf_estimate_run's status and warnings for (m, w,
 * inst, nodes), kept in *c (allocated on first use; NULL c: no cache)
 * for one model and workload at a time. Sets only e->n_warnings and
 * e->warnings. */
typedef struct ecf_rec_warn_cache ecf_rec_warn_cache;
int ecf_rec_warn_cache_get(ecf_rec_warn_cache **c, ecf_estimate *e,
                           const ecf_model *m, const ecf_workload *w,
                           const ecf_instance *inst, int nodes);
void ecf_rec_warn_cache_free(ecf_rec_warn_cache *c);

/* The price of `inst` in `region`, or with --estimate-missing-prices the
 * estimate written to *tmp (*estimated true); NULL when it has none. */
const ecf_price *ecf_rec_price(const ecf_recommendation *r,
                               const ecf_instance *inst, const char *region,
                               ecf_price *tmp, bool *estimated);
/* As ecf_rec_price, given p = ecf_instance_price(inst, region). */
const ecf_price *ecf_rec_price_known(const ecf_recommendation *r,
                                     const ecf_instance *inst,
                                     const char *region, const ecf_price *p,
                                     ecf_price *tmp, bool *estimated);

/* The storage prices of `region` (--storage-prices): the region's, else
 * us-east-1's (*estimated true), NULL when there are none. A pure lookup:
 * the scorer resolves it once per region, not once per plan. */
const ecf_storage_price *
ecf_rec_storage_price(const ecf_recommend_opts *o, const char *region,
                      bool *estimated);
/* Costs the dataset storage of job plan `p` (after its time_hours) at
 * `sp`, ecf_rec_storage_price's answer for the plan's region. */
void ecf_rec_storage_cost(ecf_plan *p, const ecf_recommend_opts *o,
                          const ecf_estimate *e, const ecf_workload *w,
                          const ecf_storage_price *sp,
                          bool sp_estimated);
#include "ec2fit/recommend.h"
#include "ec2fit/rules.h"

/* recommend_fleet.c: fills a serving plan and its rule input (all of it
 * but the targets the scorer's fill_targets() sets). */
void ecf_recommend_cost_serving(ecf_plan *p, ecf_rule_input *in,
                                const ecf_model *m, const ecf_workload *w,
                                const ecf_recommend_opts *o,
                                const ecf_estimate *e, const ecf_price *price,
                                bool spot, int group_nodes);
/* recommend_fleet.c: a job plan's burstable fields and surcharge. */
void ecf_rec_burst_job(ecf_plan *p, const ecf_estimate *e, int nodes);

/* recommend_fleet.c: rank 1's Auto Scaling summary and CPU fallback. */
void ecf_recommend_fleet_summary(ecf_recommendation *r,
                                 const ecf_recommend_opts *o);
/* recommend_scale.c: true when plan `p` (more nodes) shortens the job by a
 * larger fraction than it adds to the cost of plan `b`. */
bool ecf_recommend_scale_out_pays_(const ecf_plan *b, const ecf_plan *p);
/* recommend_scale.c: an offline job's scale-out at equal cost: true when
 * plan `p` (more nodes) finishes sooner than `b` and costs at most
 * ECF_SCALE_EVEN_TOL more than the fewest-node plan, `base_usd`.
 * 0.1%: docs/recommend.md, "Offline jobs scale out at equal cost". */
#define ECF_SCALE_EVEN_TOL 0.001
bool ecf_recommend_scale_even_(const ecf_plan *b, const ecf_plan *p,
                               double base_usd);
/* recommend_scale.c: whether to go on to n + 1 nodes when every wanted
 * purchase option k already has its plan, plans[at[k]]. */
bool ecf_recommend_scale_on_(bool scale, int n, int limit,
                             const ecf_plan *plans, const bool want[2],
                             const size_t at[2]);
/* recommend_scale.c: an even scale-out's next step from n nodes (the
 * loop then tries the count after it), or -1 to stop: the node cap first
 * (*probe, 0 at the start, keeps n), and the counts between one by one
 * only when the cap did not take every wanted option's plan. */
int ecf_recommend_even_next_(int n, int limit, int *probe,
                             const ecf_plan *plans, const bool want[2],
                             const size_t at[2]);

/* recommend_capacity.c: Capacity Blocks for ML (docs/estimation.md,
 * "Capacity Blocks for ML"). */
/* The shortest job (wall time with start-up, hours) for which --purchase
 * auto adds a capacity-block plan: one day, the shortest block. */
#define ECF_CB_AUTO_MIN_HOURS 24.0
/* The job node cap past which no plan was found: the search repeats with
 * this cap when a deadline leaves no plan within the default 16. */
#define ECF_JOB_DEFAULT_MAX_NODES 16
/** Prices the job plan `p` (hourly_usd and time_hours set, storage not
 *  yet added) as a Capacity Block: the reserved window's days x 24 x
 *  hourly_usd, cb_days and cb_blocks set. A plan without a window
 *  (longer than 182 days, more than 256 nodes, no known time) keeps
 *  cb_days 0 and its hourly total. */
void ecf_rec_cb_cost(ecf_plan *p);
/** Whether --purchase auto adds a capacity-block plan beside the
 *  on-demand plan `od` of an accelerated job: a published rate and a
 *  run of at least ECF_CB_AUTO_MIN_HOURS. */
bool ecf_rec_cb_auto_wanted(const ecf_plan *od, const ecf_price *price);
/** --purchase capacity-block: drops plans[at], the candidate's last plan
 *  (spot is not considered), when no Capacity Block holds it (a window
 *  past 182 days or 256 instances, or no known time): true, *nodes_out
 *  its node count. */
bool ecf_rec_cb_drop(ecf_recommendation *r, size_t at, int *nodes_out);
/* recommend_scale.c: past ECF_JOB_DEFAULT_MAX_NODES nodes, the node count
 * before the next one to try after a deadline miss by `ratio` (time /
 * deadline) at `n` nodes: ceil(n x ratio) - 1, at most limit - 1; `n`
 * itself below 16 nodes or without a miss (docs/rules.md, "Node cap"). */
int ecf_recommend_deadline_next_(int n, int limit, double ratio);
/* recommend.c: one plan search, jobs capped at `job_cap` nodes unless
 * --max-nodes (recommend_scale.c's ecf_recommend_run_memo runs it once,
 * or twice when a deadline needs more than 16 nodes). */
int ecf_rec_run_pass(ecf_recommendation **out, const ecf_catalog *cat,
                     const ecf_model *m, const ecf_workload *w,
                     const ecf_rules *rules, const ecf_recommend_opts *o,
                     ecf_recommend_memo *memo, int job_cap, ecf_err *err);
/** The reason a --purchase capacity-block candidate has no plan
 *  (ECF_RULE_NO_PRICE): no published rate, or no window. */
void ecf_rec_cb_reason(char *out, size_t n, const ecf_instance *inst,
                       const char *region, const ecf_price *price,
                       double hours, int nodes);

#endif
