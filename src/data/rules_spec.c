/*
 * rules_spec.c - the static facts about each rule (name, parameters with
 * their ranges, allowed placeholders: rules_table.h) and the lookups on
 * them, shared by the loader (rules_load.c) and the evaluator (model).
 */
#include "ec2fit/rules_set.h"

#include <string.h>

#include "rules_table.h"

const ecf_rule_spec ecf_rule_specs[ECF_RULE_COUNT] = {
    [ECF_RULE_NO_PRICE] = {"no-price", false, {{NULL, 0, 0, 0}},
                           {"instance", "region", NULL}},
    [ECF_RULE_ACCEL_SUPPORT] = {"accelerator-support", true,
                                {{NULL, 0, 0, 0}},
                                {"instance", "accelerator", "why", NULL}},
    [ECF_RULE_STACK] = {"stack", true, {{NULL, 0, 0, 0}},
                        {"instance", "platform", "stack", "why", "source",
                         "as_of", NULL}},
    [ECF_RULE_MEMORY_FIT] = {"memory-fit", true,
                             {{"headroom_pct", 0, 100, 10}},
                             {"instance", "required_gib", "need_gib",
                              "headroom_pct", "available_gib", "parallelism",
                              "devices", "nodes", NULL}},
    [ECF_RULE_HOST_RAM] = {"host-ram", true, {{NULL, 0, 0, 0}},
                           {"instance", "needed_gib", "available_gib", NULL}},
    [ECF_RULE_VCPUS_PER_ACCEL] = {"vcpus-per-accelerator", true,
                                  {{"min_per_accelerator", 0, 256, 4}},
                                  {"instance", "have", "needed", NULL}},
    [ECF_RULE_DEADLINE] = {"deadline", true, {{NULL, 0, 0, 0}},
                           {"instance", "time_h", "deadline_h", "nodes",
                            NULL}},
    [ECF_RULE_BUDGET] = {"budget", true, {{NULL, 0, 0, 0}},
                         {"instance", "total_usd", "budget_usd", "nodes",
                          "per", NULL}},
    [ECF_RULE_BUDGET_HOURLY] = {"budget-hourly", true, {{NULL, 0, 0, 0}},
                                {"instance", "hourly_usd",
                                 "budget_hourly_usd", "nodes", NULL}},
    [ECF_RULE_LATENCY] = {"latency", true, {{NULL, 0, 0, 0}},
                          {"instance", "latency_ms", "target_ms", NULL}},
    [ECF_RULE_THROUGHPUT] = {"throughput", true, {{NULL, 0, 0, 0}},
                             {"instance", "instances", "qps", "per_instance",
                              "max_nodes", NULL}},
    [ECF_RULE_MULTI_NODE_NO_EFA] = {"multi-node-no-efa", true,
                                    {{NULL, 0, 0, 0}},
                                    {"instance", "nodes", "network_gbps",
                                     NULL}},
    [ECF_RULE_PCIE_MULTI_GPU] = {"pcie-multi-gpu-training", true,
                                 {{NULL, 0, 0, 0}},
                                 {"instance", "devices", NULL}},
    [ECF_RULE_DATA_BOUND] = {"data-bound", true,
                             {{"max_utilization_pct", 1, 100, 80}},
                             {"instance", "required_mbytes_s",
                              "available_mbytes_s", "source", NULL}},
    [ECF_RULE_SPOT_INTERRUPTION] = {"spot-interruption", true,
                                    {{"restart_overhead_min", 0, 1440, 10},
                                     {"max_expected_interruptions", 0, 1000,
                                      1}},
                                    {"instance", "band", "band_label",
                                     "expected", "time_h", "nodes",
                                     "checkpoint_h", NULL}},
    [ECF_RULE_NEURON_SUPPORT] = {"neuron-support", true, {{NULL, 0, 0, 0}},
                                 {"instance", "accelerator", "model",
                                  "platform", "stack", "why", "source",
                                  NULL}},
    [ECF_RULE_TTFT] = {"ttft", true, {{NULL, 0, 0, 0}},
                       {"instance", "ttft_ms", "target_ms", NULL}},
    [ECF_RULE_TPOT] = {"tpot", true, {{NULL, 0, 0, 0}},
                       {"instance", "tpot_ms", "target_ms", NULL}},
    [ECF_RULE_END_OF_SUPPORT] = {"end-of-support", true, {{NULL, 0, 0, 0}},
                                 {"instance", "accelerator", "generation",
                                  "why", "source", NULL}},
    [ECF_RULE_SPOT_CAPACITY] = {"spot-capacity", true,
                                {{"min_hours", 0, 1e6, 24}},
                                {"instance", "nodes", "days", "band_label",
                                 "capacity_block", NULL}},
};

const char *ecf_rule_name(ecf_rule_id id)
{
    return (unsigned)id < ECF_RULE_COUNT ? ecf_rule_specs[id].name : "?";
}

int ecf_rule_parse(const char *name)
{
    int i;
    for (i = 0; i < ECF_RULE_COUNT; i++)
        if (strcmp(ecf_rule_specs[i].name, name) == 0)
            return i;
    return -1;
}

double ecf_rule_param_get(const ecf_rule *r, const char *name, double dflt)
{
    int i;
    for (i = 0; i < r->n_params; i++)
        if (strcmp(r->params[i].name, name) == 0)
            return r->params[i].value;
    return dflt;
}
