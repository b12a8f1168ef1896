/**
 * ec2fit/rules.h - the rules that accept, reject or penalise a candidate
 * plan, loaded from data (data/rules.json, embedded; `--rules FILE`
 * replaces it) and evaluated by pure code.
 *
 * Each rule has an id, a kind (constraint: the plan is rejected; penalty:
 * the plan's score is multiplied by 1 + weight), numeric parameters and a
 * message template whose {placeholders} are filled with the numbers of the
 * candidate ("g5.2xlarge: needs 31.2 GiB per device, has 22.4 GiB").
 * The rule set is a value struct (no heap), declared with its loader in
 * ec2fit/rules_set.h (data); ecf_rules_eval is pure.
 */
#ifndef EC2FIT_RULES_H
#define EC2FIT_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/estimate.h"
#include "ec2fit/rules_set.h" /* the rule set and its loader */
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------ */
/* Evaluation                                                          */
/* ------------------------------------------------------------------ */

/** Everything a rule may look at for one candidate plan. */
typedef struct {
    const ecf_instance *inst;
    const ecf_model *model;
    const ecf_workload *w;
    const ecf_estimate *est; /* for one replica group of `nodes_per_group` */
    int nodes;               /* instances in the plan (all groups) */
    int nodes_per_group;     /* nodes one model replica spans */
    bool spot;
    int interruption_band;   /* -1 unknown */
    double hourly_usd;       /* whole plan */
    double time_hours;       /* job time (expected, with spot rework);
                                0 for serving or without a dataset */
    double total_usd;        /* 0 when time is unknown */
    double expected_interruptions; /* spot: over the whole job */
    double checkpoint_hours; /* --checkpoint-every */
    int instances_needed;    /* serving: for --qps (may exceed max_nodes) */
    /* targets from the user; 0 = none */
    double deadline_hours;
    double budget_usd;
    double budget_hourly_usd;
    double latency_ms;
    double qps;
    int max_nodes;
    /* the type's Capacity Blocks for ML rate in the plan's region, <= 0
     * none (spot-capacity names the block that would hold the job) */
    double cb_usd_per_hour;
    /* The plan's software stack (resolved once per platform by the
     * scorer); NULL = not checked (the stack rule passes and
     * neuron-support falls back to "any Neuron accelerator"). */
    const ecf_stack_verdict *stack;
} ecf_rule_input;

typedef struct {
    ecf_rule_id id;
    char reason[ECF_RULE_MSG_LEN];
} ecf_rule_hit;

typedef struct {
    bool pass;               /* no enabled constraint failed */
    ecf_rule_id failed;      /* first failed constraint when !pass */
    double miss_ratio;       /* how far off the failed constraint is
                                (needed / allowed, >= 1): sorts the
                                closest misses */
    char reason[ECF_RULE_MSG_LEN];
    double penalty;          /* sum of the weights of penalties hit */
    int n_penalties;
    ecf_rule_hit penalties[ECF_RULE_COUNT];
} ecf_rule_result;

/** Why a type's accelerator is past its software's support (Volta and
 *  Maxwell with CUDA 13, Kepler with CUDA 12, Inf1 with Neuron 2.26.1+),
 *  or NULL; *source_out (when given) gets the published statement. The
 *  end-of-support penalty rule fires exactly when this is not NULL. */
const char *ecf_rules_end_of_support(const ecf_instance *inst,
                                     const char **source_out);

/** Evaluates the constraints in id order (the first failure is reported)
 *  and, when all pass, every penalty. Pure; formats only the reasons of
 *  rules that fire. */
void ecf_rules_eval(ecf_rule_result *out, const ecf_rules *rules,
                    const ecf_rule_input *in);

/** As ecf_rules_eval, but leaves every reason empty: the scorer decides
 *  with this and formats reasons only for what it shows. */
void ecf_rules_eval_quiet(ecf_rule_result *out, const ecf_rules *rules,
                          const ecf_rule_input *in);

/** The first enabled constraint among the "plan-free" ones that fails
 *  for `in`, with its miss ratio: ECF_RULE_ACCEL_SUPPORT through
 *  ECF_RULE_VCPUS_PER_ACCEL, the lowest ids, which read only the instance,
 *  model, workload, estimate and stack, never the price, purchase option,
 *  nodes or user targets. ECF_RULE_NO_PRICE when none fails. When it
 *  returns a rule, ecf_rules_eval_quiet fails on that rule with that ratio
 *  for every plan with this estimate, so a scorer can decide all of them
 *  at once (recommend.c does, per instance and node count). */
ecf_rule_id ecf_rules_plan_free_fail(const ecf_rules *rules,
                                     const ecf_rule_input *in,
                                     double *ratio);

/** As ecf_rules_eval_quiet for an input on which
 *  ecf_rules_plan_free_fail returned ECF_RULE_NO_PRICE: the plan-free
 *  constraints are not checked again (the penalties all are). */
void ecf_rules_eval_quiet_past_plan_free(ecf_rule_result *out,
                                         const ecf_rules *rules,
                                         const ecf_rule_input *in);

/** A rule set prepared for one run (ecf_rules_prepare): the enabled
 *  plan-free constraints, the enabled constraints past them and the
 *  enabled penalties, each in id order, less the rules whose check is
 *  false for every input with these targets (a --deadline, --budget,
 *  --budget-hourly, --latency-ms, --ttft-ms, --tpot-ms or --qps that is
 *  not set; a task the rule does not apply to). The scorer evaluates
 *  thousands of plans per run with the same targets: looking up each
 *  rule's kind and switch was most of the rules' instructions. */
typedef struct {
    const ecf_rules *rules;
    int n_free, n_cons, n_pen;
    unsigned char free_ids[ECF_RULE_COUNT]; /* plan-free constraints */
    unsigned char cons[ECF_RULE_COUNT];     /* constraints past them */
    unsigned char pen[ECF_RULE_COUNT];      /* penalties */
} ecf_rules_prepared;

/** Prepares `rules` for inputs whose targets (w, deadline_hours,
 *  budget_usd, budget_hourly_usd, latency_ms, qps) are `targets`'; the
 *  other fields of `targets` are not read. `rules` must outlive `p`. */
void ecf_rules_prepare(ecf_rules_prepared *p, const ecf_rules *rules,
                       const ecf_rule_input *targets);

/** ecf_rules_plan_free_fail and ecf_rules_eval_quiet_past_plan_free for
 *  an input with the targets `p` was prepared for: the same results. */
ecf_rule_id ecf_rules_plan_free_fail_prepared(const ecf_rules_prepared *p,
                                              const ecf_rule_input *in,
                                              double *ratio);
void ecf_rules_eval_quiet_past_plan_free_prepared(
    ecf_rule_result *out, const ecf_rules_prepared *p,
    const ecf_rule_input *in);

/** Fills a message template: {name} is replaced by the matching value;
 *  numbers are printed with %g-like short forms. Used by ecf_rules_eval
 *  and by tests. */
void ecf_rules_format(char *out, size_t n, const char *tmpl,
                      const char *const *names, const char *const *values,
                      size_t count);

#ifdef __cplusplus
}
#endif

#endif
