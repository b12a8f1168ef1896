/**
 * ec2fit/rules.h - the rules that accept, reject or penalise a candidate
 * plan, loaded from data (data/rules.json, embedded; `--rules FILE`
 * replaces it) and evaluated by pure code.
 *
 * Each rule has an id, a kind (constraint: the plan is rejected; penalty:
 * the plan's score is multiplied by 1 + weight), numeric parameters and a
 * message template whose {placeholders} are filled with the numbers of the
 * candidate ("g5.2xlarge: needs 31.2 GiB per device, has 22.4 GiB").
 * The rule set is a value struct (no heap); ecf_rules_eval is pure.
 */
#ifndef EC2FIT_RULES_H
#define EC2FIT_RULES_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/catalog.h"
#include "ec2fit/err.h"
#include "ec2fit/estimate.h"
#include "ec2fit/stacks.h"
#include "ec2fit/zoo.h"

#define ECF_RULES_SCHEMA_VERSION 1
#define ECF_RULES_MAX_BYTES (1u * 1024u * 1024u)
#define ECF_RULE_MSG_LEN 480
#define ECF_RULE_MAX_PARAMS 6

typedef enum {
    ECF_RULE_NO_PRICE = 0,        /* no public price in the region */
    ECF_RULE_ACCEL_SUPPORT,       /* accelerator cannot run this task */
    ECF_RULE_STACK,               /* no software stack runs this plan
                                     (data/stacks.json) */
    ECF_RULE_MEMORY_FIT,          /* device memory with headroom */
    ECF_RULE_HOST_RAM,            /* host RAM for loading/staging */
    ECF_RULE_VCPUS_PER_ACCEL,     /* input pipeline CPU per accelerator */
    ECF_RULE_DEADLINE,            /* job time <= --deadline */
    ECF_RULE_BUDGET,              /* total cost <= --budget */
    ECF_RULE_BUDGET_HOURLY,       /* hourly cost <= --budget-hourly */
    ECF_RULE_LATENCY,             /* serving latency <= --latency-ms */
    ECF_RULE_THROUGHPUT,          /* --qps reachable within --max-nodes */
    ECF_RULE_MULTI_NODE_NO_EFA,   /* multi-node training without EFA */
    ECF_RULE_PCIE_MULTI_GPU,      /* multi-GPU training over PCIe only */
    ECF_RULE_DATA_BOUND,          /* input pipeline limits throughput */
    ECF_RULE_SPOT_INTERRUPTION,   /* interruption band x job length */
    ECF_RULE_NEURON_SUPPORT,      /* stack runs, model not in its tested
                                     list (Neuron, Gaudi, AI 100, ...) */
    ECF_RULE_COUNT
} ecf_rule_id;

typedef enum { ECF_RULE_CONSTRAINT = 0, ECF_RULE_PENALTY } ecf_rule_kind;

typedef struct {
    char name[32];
    double value;
} ecf_rule_param;

typedef struct {
    ecf_rule_id id;
    bool enabled;
    ecf_rule_kind kind;
    double weight; /* penalty: score x (1 + weight) */
    int n_params;
    ecf_rule_param params[ECF_RULE_MAX_PARAMS];
    char message[ECF_RULE_MSG_LEN]; /* template with {placeholders} */
} ecf_rule;

typedef struct {
    ecf_rule rules[ECF_RULE_COUNT]; /* indexed by ecf_rule_id */
    char source[256];               /* "embedded" or the path given */
} ecf_rules;

/** "memory-fit", "deadline", ... (the ids used in rules.json and in
 *  JSON output). */
const char *ecf_rule_name(ecf_rule_id id);
/** -1 when unknown. */
int ecf_rule_parse(const char *name);

/** Parses and validates a rules document. Every rule must be listed
 *  exactly once (disable one with "enabled": false); parameters must be
 *  the rule's own, finite and in range; templates may only use the rule's
 *  placeholders. Errors: ECF_EPARSE "NAME: rules[3].params.headroom_pct:
 *  expected a number from 0 to 100". */
int ecf_rules_load_buffer(ecf_rules *out, const char *data, size_t len,
                          const char *name, ecf_err *err);
int ecf_rules_load_file(ecf_rules *out, const char *path, ecf_err *err);
/** The rules embedded at build time. */
int ecf_rules_embedded(ecf_rules *out, ecf_err *err);

/** A parameter of a rule (as loaded); `dflt` when absent. */
double ecf_rule_param_get(const ecf_rule *r, const char *name, double dflt);

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

/** Evaluates the constraints in id order (the first failure is reported)
 *  and, when all pass, every penalty. Pure; formats only the reasons of
 *  rules that fire. */
void ecf_rules_eval(ecf_rule_result *out, const ecf_rules *rules,
                    const ecf_rule_input *in);

/** As ecf_rules_eval, but leaves every reason empty: the scorer decides
 *  with this and formats reasons only for what it shows. */
void ecf_rules_eval_quiet(ecf_rule_result *out, const ecf_rules *rules,
                          const ecf_rule_input *in);

/** Fills a message template: {name} is replaced by the matching value;
 *  numbers are printed with %g-like short forms. Used by ecf_rules_eval
 *  and by tests. */
void ecf_rules_format(char *out, size_t n, const char *tmpl,
                      const char *const *names, const char *const *values,
                      size_t count);

#endif
