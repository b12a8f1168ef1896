/**
 * ec2fit/recommend.h - build, cost and rank candidate plans for a workload
 * over the catalog (the scorer). Pure: no I/O; allocates only the result.
 *
 * A plan is (instance type, region, purchase option, node count). For each
 * type priced in a region, the plan with the fewest nodes that satisfies
 * every constraint is kept, for on-demand and, when allowed, spot; the
 * type's failure is recorded with its rule and reason otherwise.
 * Ownership: the ecf_recommendation returned is the caller's
 * (ecf_recommendation_free); plans borrow instances and region names from
 * the catalog, which must outlive it.
 */
#ifndef EC2FIT_RECOMMEND_H
#define EC2FIT_RECOMMEND_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/estimate.h"
#include "ec2fit/fleet.h"
#include "ec2fit/rules.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum { ECF_OPT_COST = 0, ECF_OPT_TIME, ECF_OPT_BALANCED } ecf_optimize;
typedef enum { ECF_SPOT_AUTO = -1, ECF_SPOT_NO = 0, ECF_SPOT_YES = 1 } ecf_spot_policy;

#define ECF_RECOMMEND_MAX_REGIONS 128

typedef struct {
    const char *regions[ECF_RECOMMEND_MAX_REGIONS]; /* borrowed */
    size_t n_regions;
    ecf_spot_policy spot;      /* auto: spot for train/batch jobs only */
    int max_nodes;             /* 0 = 16 for jobs (256 when a deadline
                                  leaves no plan within 16), 64 for
                                  serving */
    double deadline_hours;     /* 0 = none */
    double budget_usd;         /* 0 = none */
    double budget_hourly_usd;  /* 0 = none */
    double peak_qps;           /* serving: Auto Scaling max; 0 = qps */
    double checkpoint_hours;   /* spot rework; default 0.5 */
    ecf_optimize optimize;
    const char *const *families;         /* NULL-terminated globs; NULL = all */
    const char *const *exclude_families; /* NULL-terminated globs */
    size_t rank_top;           /* 0: order every plan; N: only the first N
                                  plans are ranked, the rest follow in no
                                  particular order (a caller that shows N
                                  rows needs no more; `recommend --batch`) */
    const struct ecf_stacks *stacks; /* borrowed, must outlive the result;
                                  NULL = no stack checks (the `stack` rule
                                  passes every plan) */
    const struct ecf_storage_prices *storage_prices; /* borrowed; NULL =
                                  storage is not costed */
    bool estimate_missing_prices; /* price a type that has no price in a
                                  region from the region's median ratio
                                  to us-east-1 (plans marked
                                  price_estimated) */
    /* Purchase and fleet (ec2fit/fleet.h); zero = the documented default */
    ecf_purchase purchase;     /* auto: spot for jobs (per `spot`), the
                                  1-year commitment for 24/7 serving */
    double target_utilization; /* 0 = 0.7 */
    bool async;                /* SQS backlog scaling instead of ALB */
    double max_wait_s;         /* --async acceptable wait; 0 = 10 s */
    double start_time_s;       /* instance start for the warm pool; 0 = 300 */
    bool fallback_cpu;         /* report a CPU fallback group */
    int max_interruption_band; /* spot plans above this band are dropped;
                                  stored + 1 so 0 = no filter */
} ecf_recommend_opts;

#define ECF_RECOMMEND_OPTS_INIT                                               \
    {{NULL}, 0, ECF_SPOT_AUTO, 0, 0, 0, 0, 0, 0.5, ECF_OPT_COST, NULL, NULL, 0, \
     NULL, NULL, false, ECF_PURCHASE_AUTO, 0, false, 0, 0, false, 0}

/* Penalty rules that can fire on one plan (there are seven kinds). */
#define ECF_PLAN_MAX_PENALTIES 8

#define ECF_MARK_CHEAPEST (1u << 0)
#define ECF_MARK_FASTEST (1u << 1)
#define ECF_MARK_BEST_VALUE (1u << 2)

typedef enum {
    ECF_COST_TOTAL = 0,     /* job with a dataset: total_usd */
    ECF_COST_PER_MILLION,   /* job without a dataset: usd per 1M units */
    ECF_COST_MONTHLY        /* serving: monthly_usd */
} ecf_cost_basis;

typedef struct {
    const ecf_instance *inst;
    const char *region;
    bool spot;
    int nodes;               /* instances in the plan */
    int nodes_per_group;     /* nodes one model replica spans */
    int devices_per_node;
    ecf_parallelism parallelism;
    double required_per_device_gib; /* estimator's need, no headroom */
    double available_per_device_gib;
    double headroom;         /* 1 - required/available */
    double kv_capacity_tokens; /* LLM inference: KV-cache tokens one replica
                                  has room for (ecf_memory's); else 0 */
    double usd_per_hour_instance;
    double hourly_usd;       /* whole plan */
    double time_hours;       /* job: expected (with spot rework); 0 when
                                unknown or serving */
    double total_usd;        /* job: hourly x max(time, 60 s); 0 when
                                unknown */
    double startup_s;        /* per node, included in time_hours */
    double compile_s;        /* Neuron training: first-run graph compile,
                                included in time_hours; else 0 */
    double monthly_usd;      /* serving: hourly x 730; jobs: 0 */
    double usd_per_million;  /* requests (tokens for LLMs) when serving;
                                samples (tokens) for jobs */
    double throughput;       /* whole plan, in throughput_unit */
    const char *throughput_unit;
    double latency_ms, ttft_ms, per_token_ms;
    double capacity_qps;     /* serving: requests/s the plan sustains */
    int interruption_band;   /* spot only; -1 otherwise */
    double expected_interruptions;
    double spot_savings_pct; /* vs the on-demand plan of the same type */
    ecf_bottleneck bottleneck;
    double score;            /* lower is better */
    double penalty;          /* sum of penalty weights */
    /* Serving (fleet.c): how the plan is bought and scaled. `nodes` is
     * the Auto Scaling minimum; monthly_usd is the expected fleet, its
     * first asg_min instances at the commitment rate, the rest on-demand. */
    ecf_purchase purchase_option; /* the option priced (never AUTO) */
    int asg_min, asg_max, asg_warm_pool; /* instances */
    double asg_expected;     /* instances, mean over the diurnal profile */
    unsigned marks;          /* ECF_MARK_* */
    bool price_estimated;    /* on-demand price derived from us-east-1 x
                                the region's median ratio */
    int storage;             /* ecf_storage the dataset is read from */
    double storage_usd;      /* job: dataset storage over time_hours
                                (included in total_usd); 0 = none */
    double storage_monthly_usd; /* the same storage for a month */
    bool storage_price_estimated; /* storage priced at us-east-1 rates */
    int cb_days;             /* capacity-block plans: the reserved window
                                (ecf_capacity_block_window), days; else 0 */
    int cb_blocks;           /* capacity-block plans: the blocks holding
                                `nodes`; else 0 */
    int n_penalties;         /* reasons: ecf_recommend_plan_penalties */
    ecf_rule_id penalty_ids[ECF_PLAN_MAX_PENALTIES];
    /* Burstable types (docs/estimation.md "Burstable CPUs"): the baseline
     * and the mean load per vCPU (shares of 1; baseline 0 = not
     * burstable), and in unlimited mode the surplus credits the load above
     * the baseline costs, whole plan, included in hourly_usd (0 = none,
     * or standard mode, whose load never exceeds the baseline). */
    double burst_baseline, burst_load;
    bool burst_unlimited;
    double burst_surcharge_usd_per_hour;
} ecf_plan;

typedef struct {
    const ecf_instance *inst;
    const char *region;
    bool spot;               /* the purchase option that failed */
    int nodes;               /* the node count of the reported attempt */
    ecf_rule_id rule;
    double miss_ratio;       /* >= 1; closer to 1 = closer miss */
} ecf_rejection;

typedef struct {
    ecf_cost_basis basis;
    const char *per_million_unit; /* "samples", "tokens", "requests" */
    bool serving;
    int max_nodes;           /* effective */
    bool spot_considered;
    ecf_plan *plans;         /* ranked best first */
    size_t n_plans;
    ecf_rejection *rejected; /* catalog order; ecf_recommend_sort_rejected */
    size_t n_rejected;
    size_t n_candidates;     /* instance types x regions considered */
    /* Regions honesty: per region of opts.regions, the instance families
     * (among the selected ones) with a us-east-1 price but none there
     * (only us-east-1 priced, or any in a region the catalog does not
     * cover),
     * and the region's median price ratio to us-east-1 (0 = unknown). */
    struct {
        const char *region;         /* borrowed from opts */
        const char **families;      /* borrowed from the catalog */
        size_t n_families;
        double ratio;               /* median ratio over shared families */
        size_t n_ratio_families;    /* families the median is taken over */
        bool estimated;             /* their prices were estimated */
        bool uncovered;             /* the catalog prices no CPU type in
                                       the region (its regional price
                                       source does not cover it), so every
                                       family with a us-east-1 price and
                                       none there is listed */
    } *missing;
    size_t n_missing;               /* entries with n_families > 0 */
    /* Auto Scaling suggestion for the top serving plan */
    int asg_min, asg_max;
    double asg_target_qps_per_instance;
    double asg_expected;        /* rank 1's expected instances */
    int asg_warm_pool;          /* instances kept stopped, ready */
    double asg_target_value;    /* ALBRequestCountPerTarget (requests per
                                   target per minute), or with --async the
                                   SQS backlog per instance */
    double asg_utilization;     /* the target utilisation used */
    bool peak_defaulted;        /* --peak-qps not given: max = 2 x qps */
    long fallback_index;        /* --fallback cpu: best CPU-only plan in
                                   plans[], -1 when none */
    /* What the plans were evaluated with, to explain them later. The
     * model and rules are borrowed and must outlive the result. */
    const ecf_model *model;
    const ecf_rules *rules;
    ecf_workload workload;    /* resolved copy */
    ecf_recommend_opts opts;  /* copy (its pointers stay borrowed) */
} ecf_recommendation;

/** Builds and ranks the plans. Errors: ECF_EINVAL (no region, bad
 *  options). A result with no plans is not an error here (the CLI maps it
 *  to exit 3). */
int ecf_recommend_run(ecf_recommendation **out, const ecf_catalog *cat,
                      const ecf_model *m, const ecf_workload *w,
                      const ecf_rules *rules, const ecf_recommend_opts *o,
                      ecf_err *err);

void ecf_recommendation_free(ecf_recommendation *r);

/* ------------------------------------------------------------------ */
/* Estimate memo: reuse across runs that share a model and workload    */
/* ------------------------------------------------------------------ */

/** Quiet estimates (and fewest-fitting node counts) of one model and
 *  workload over one catalog, kept between runs. An estimate depends on
 *  the model, the instance, the node count and the workload minus its
 *  qps (which only feeds warnings) and epochs (which only sets
 *  time_hours: an estimate kept for other epochs is computed afresh and
 *  replaced, since rescaling its time is not bit-exact), not on the
 *  region, budget, deadline,
 *  spot policy or ranking: a batch of profiles that differ only in those
 *  computes each estimate once. ecf_recommend_run_memo checks the model,
 *  workload and catalog it is given against the ones the memo holds and
 *  starts it afresh when they differ, so a memo is never wrong, only
 *  cold. Bounded: at most ECF_RECOMMEND_MEMO_MAX_BYTES of estimates; past
 *  that, estimates are computed and not kept. Not thread-safe: one memo
 *  per thread. */
typedef struct ecf_recommend_memo ecf_recommend_memo;

#define ECF_RECOMMEND_MEMO_MAX_BYTES (24u << 20)

ecf_recommend_memo *ecf_recommend_memo_new(void);
void ecf_recommend_memo_free(ecf_recommend_memo *memo);

/** ecf_estimate_run(e, m, w, inst, nodes, NULL)'s status and warnings
 *  (e->n_warnings, e->warnings: nothing else of *e is set), kept in
 *  `memo` (NULL: run each time) for the last model and workload asked
 *  about, compared byte for byte: the renderer's per-plan warnings, which
 *  lines sharing a model and workload ask for again. */
int ecf_recommend_memo_warnings(ecf_recommend_memo *memo, ecf_estimate *e,
                                const ecf_model *m, const ecf_workload *w,
                                const ecf_instance *inst, int nodes);

/** As ecf_recommend_run, reading and filling `memo` (NULL: none). The
 *  result is identical to ecf_recommend_run's. */
int ecf_recommend_run_memo(ecf_recommendation **out, const ecf_catalog *cat,
                           const ecf_model *m, const ecf_workload *w,
                           const ecf_rules *rules,
                           const ecf_recommend_opts *o,
                           ecf_recommend_memo *memo, ecf_err *err);

/** Orders `rejected` by rule id, then closest miss first (what --explain
 *  lists). ecf_recommend_run leaves them in catalog order. */
void ecf_recommend_sort_rejected(ecf_recommendation *r);

/** The reason a candidate was rejected, with its numbers ("needs 31.2 GiB
 *  per device ..."). Reasons are formatted on demand, not for every one of
 *  the thousands of candidates a run rejects. */
void ecf_recommend_rejection_reason(char *out, size_t n,
                                    const ecf_recommendation *r,
                                    const ecf_rejection *x);

/** The penalty rules that fired on a plan, with their reasons. Returns the
 *  number written (at most `max`). */
int ecf_recommend_plan_penalties(ecf_rule_hit *out, int max,
                                 const ecf_recommendation *r,
                                 const ecf_plan *p);

/* ------------------------------------------------------------------ */
/* Light serving alternatives: AWS Lambda and Lightsail (CPU only)      */
/* ------------------------------------------------------------------ */

struct ecf_light;

typedef struct {
    char kind[16];        /* "lambda" | "lightsail" */
    char name[64];        /* "lambda-x86 3538 MB", "lightsail medium_3_0" */
    bool feasible;
    char reason[ECF_RULE_MSG_LEN]; /* why not, when !feasible */
    double memory_gib;
    double vcpus;
    double latency_ms;
    double capacity_qps;  /* per function concurrency slot / per bundle,
                             sustained (Lightsail: at its CPU baseline) */
    int instances;        /* Lightsail bundles needed; Lambda: average
                             concurrent executions */
    double monthly_usd;
    double usd_per_million; /* requests (tokens for LLMs) */
    bool cheaper;         /* than the best EC2 serving plan */
    bool price_estimated; /* the region asked for is not the one the
                             prices were gathered in (us-east-1) */
} ecf_light_option;

/** For serving workloads (--task infer), the cheapest feasible Lambda
 *  memory size and Lightsail bundle: the estimator runs on the CPU they
 *  provide; Lambda must fit 10,240 MB and 900 s and the latency target,
 *  a bundle its memory at its sustained CPU baseline. Fills up to 2
 *  options (one per kind, feasible or with the reason it is not). `rec`
 *  (may be NULL) gives the EC2 plan to compare with. Pure. */
size_t ecf_recommend_light(ecf_light_option *out, size_t max,
                           const struct ecf_light *light, const ecf_model *m,
                           const ecf_workload *w,
                           const ecf_recommendation *rec);

/** Formats the missing-price note of r->missing[i] ("no eu-west-1 price
 *  for the c7i, m7i families: ..."); empty when it has no families. */
/** Appends missing price group i's families to out at len ("a1, c1, ...
 *  and N more" past the first `show`), as far as n allows; returns the
 *  new length (>= n when it was cut). The one list every note of the
 *  group uses, engineer's and customer's. */
size_t ecf_recommend_missing_families(char *out, size_t n, size_t len,
                                      const ecf_recommendation *r, size_t i,
                                      size_t show);

void ecf_recommend_missing_note(char *out, size_t n,
                                const ecf_recommendation *r, size_t i);

/** Expected number of interruptions of an `nodes`-node spot job running
 *  `hours`, from the Spot Advisor band (docs/rules.md). */
double ecf_spot_expected_interruptions(int band, int nodes, double hours);

/** The per node-hour interruption rate of `band` (0..4; others: 4):
 *  ecf_spot_expected_interruptions is ecf_spot_lambda(band) * nodes *
 *  hours, bit for bit. */
double ecf_spot_lambda(int band);

/** "cost", "time", "balanced"; -1 when unknown. */
int ecf_optimize_parse(const char *s);
const char *ecf_optimize_name(ecf_optimize o);

#ifdef __cplusplus
}
#endif

#endif
