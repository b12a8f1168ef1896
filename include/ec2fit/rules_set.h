/**
 * ec2fit/rules_set.h - the rule set as data: rule ids, kinds, parameters
 * and message templates, loaded and validated from data/rules.json
 * (embedded) or `--rules FILE` (src/data/rules_load.c, rules_spec.c).
 * Evaluating it on a plan is ec2fit/rules.h's (the model).
 */
#ifndef EC2FIT_RULES_SET_H
#define EC2FIT_RULES_SET_H

#include <stdbool.h>
#include <stddef.h>

#include "ec2fit/err.h"

#ifdef __cplusplus
extern "C" {
#endif

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
    ECF_RULE_TTFT,                /* time to first token <= --ttft-ms */
    ECF_RULE_TPOT,                /* time per output token <= --tpot-ms */
    ECF_RULE_END_OF_SUPPORT,      /* accelerator past its software's
                                     support (Volta with CUDA 13, Inf1
                                     with Neuron 2.26.1+) */
    ECF_RULE_SPOT_CAPACITY,       /* a long multi-node spot job on a type
                                     whose capacity is scarce (p5-class):
                                     it holds no capacity */
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

#ifdef __cplusplus
}
#endif

#endif
