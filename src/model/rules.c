/*
 * rules.c - evaluate the rule set on one candidate plan. Pure: no I/O, no
 * globals beyond the constant spec table (src/data/rules_spec.c), no
 * allocation.
 *
 * Constraints run in id order and the first failure is the one reported,
 * so a plan that does not fit in memory says so rather than citing its
 * (meaningless) time. Penalties run only for plans that pass. Reasons are
 * formatted only for rules that fire: most candidates of a large-model
 * query fail memory-fit, and formatting is the costly part.
 */
#include "ec2fit/rules.h"
#include "ec2fit/fleet.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "rules_table.h"

void ecf_rules_format(char *out, size_t n, const char *tmpl,
                      const char *const *names, const char *const *values,
                      size_t count)
{
    size_t o = 0;
    const char *p = tmpl;

    if (n == 0)
        return;
    while (*p && o + 1 < n) {
        if (*p == '{') {
            const char *end = strchr(p, '}');
            size_t len = end ? (size_t)(end - p - 1) : 0, k;
            bool done = false;
            for (k = 0; end && k < count; k++) {
                if (strlen(names[k]) == len &&
                    strncmp(names[k], p + 1, len) == 0) {
                    size_t vl = strlen(values[k]);
                    if (vl > n - 1 - o)
                        vl = n - 1 - o;
                    memcpy(out + o, values[k], vl);
                    o += vl;
                    p = end + 1;
                    done = true;
                    break;
                }
            }
            if (done)
                continue;
        }
        out[o++] = *p++;
    }
    out[o] = '\0';
}

/* ---- formatting helpers: short, human numbers ---- */

#define NVARS 10

typedef struct {
    const char *names[NVARS];
    const char *values[NVARS];
    char store[NVARS][256];
    size_t n;
} vars;

static void var_s(vars *v, const char *name, const char *value)
{
    if (v->n >= NVARS)
        return;
    v->names[v->n] = name;
    snprintf(v->store[v->n], sizeof(v->store[0]), "%s", value);
    v->values[v->n] = v->store[v->n];
    v->n++;
}

/* Numbers: 3 significant digits below 100, else rounded to an integer
 * (or 1 decimal below 1000 for GiB-like values). */
static void var_num(vars *v, const char *name, double x, int decimals)
{
    char buf[48];
    if (decimals >= 0)
        snprintf(buf, sizeof(buf), "%.*f", decimals, x);
    else
        snprintf(buf, sizeof(buf), "%.3g", x);
    var_s(v, name, buf);
}

static void fire(char *out, const ecf_rule *r, vars *v)
{
    ecf_rules_format(out, ECF_RULE_MSG_LEN, r->message, v->names, v->values,
                     v->n);
}

/* Parameter i of a rule, in ecf_rule_specs order (the loader fills every
 * parameter in that order, defaults first): no name lookup on the hot
 * path, which runs for every candidate plan. */
static double param_at(const ecf_rule *r, int i, double dflt)
{
    return i < r->n_params ? r->params[i].value : dflt;
}

static bool on(const ecf_rules *rules, ecf_rule_id id, ecf_rule_kind kind)
{
    return rules->rules[id].enabled && rules->rules[id].kind == kind;
}

static const char *band_label(int band)
{
    static const char *const labels[] = {"<5%", "5-10%", "10-15%", "15-20%",
                                         ">20%"};
    return band >= 0 && band <= 4 ? labels[band] : "unknown";
}

/* Inlined into its few callers: a call paid its 2.6 KB frame's set-up
 * (stack protector, six saved registers) for every rule of every plan,
 * a third of the rules' instructions. */
#if defined(__GNUC__)
#define RULES_INLINE inline __attribute__((always_inline))
#else
#define RULES_INLINE inline
#endif

/* Decides one rule: true when it fires, with *ratio set (>= 1; left at
 * 1 by the rules that do not measure one). No formatting: the scorer
 * decides thousands of plans per run and formats only what it shows. */
/* A target `limit` (<= 0: none set) that `got` exceeds: the miss ratio. */
static RULES_INLINE bool over(double got, double limit, double *ratio)
{
    if (limit <= 0 || got <= limit)
        return false;
    *ratio = got / limit;
    return true;
}

static RULES_INLINE bool decide(const ecf_rules *rules, ecf_rule_id id,
                                const ecf_rule_input *in, double *ratio)
{
    const ecf_rule *r = &rules->rules[id];
    const ecf_estimate *e = in->est;

    *ratio = 1;
    switch (id) {
    case ECF_RULE_NO_PRICE:
        return false; /* decided by the caller, which formats it */
    case ECF_RULE_ACCEL_SUPPORT: {
        const ecf_accel *a = in->inst->accel;
        if (!a || e->cpu_only)
            return false;
        /* AWS positions Inferentia and Qualcomm AI 100 for inference only:
         * the Neuron SDK trains on Trainium, not Inferentia. */
        if (!(ecf_task_is_training(in->w->task) &&
              (strncmp(a->id, "inferentia", 10) == 0 ||
               strncmp(a->id, "qualcomm", 8) == 0)) &&
            !(e->peak_tflops <= 0))
            return false;
        *ratio = 1e9; /* no amount of anything fixes it */
        return true;
    }
    case ECF_RULE_STACK:
        if (!in->stack || in->stack->status != ECF_STACK_UNSUPPORTED)
            return false;
        *ratio = 1e9; /* no amount of anything fixes it */
        return true;
    case ECF_RULE_MEMORY_FIT: {
        double h = param_at(r, 0, 10); /* headroom_pct */
        double need = e->memory.total_per_device_gib;
        double req = need * (1 + h / 100);
        double have = e->memory.available_per_device_gib;
        if (e->fits && req <= have)
            return false;
        *ratio = have > 0 ? req / have : 1e9;
        return true;
    }
    case ECF_RULE_HOST_RAM:
        if (e->host_ram_needed_gib <= e->host_ram_available_gib)
            return false;
        *ratio = e->host_ram_needed_gib /
                 (e->host_ram_available_gib > 0 ? e->host_ram_available_gib
                                                : 1e-9);
        return true;
    case ECF_RULE_VCPUS_PER_ACCEL: {
        double need = param_at(r, 0, 4); /* min_per_accelerator */
        if (e->vcpus_per_accel_needed > need)
            need = e->vcpus_per_accel_needed;
        return !(e->cpu_only || !ecf_task_is_training(in->w->task) ||
                 e->vcpus_per_accel >= need);
    }
    case ECF_RULE_DEADLINE:
        return over(in->time_hours, in->deadline_hours, ratio);
    case ECF_RULE_BUDGET:
        return over(in->total_usd, in->budget_usd, ratio);
    case ECF_RULE_BUDGET_HOURLY:
        return over(in->hourly_usd, in->budget_hourly_usd, ratio);
    case ECF_RULE_LATENCY:
        return !ecf_task_is_training(in->w->task) &&
               in->w->task != ECF_TASK_BATCH &&
               over(e->latency_ms, in->latency_ms, ratio);
    case ECF_RULE_TTFT:
        return in->w->task == ECF_TASK_INFER &&
               over(e->ttft_ms, in->w->ttft_target_ms, ratio);
    case ECF_RULE_TPOT:
        return in->w->task == ECF_TASK_INFER &&
               over(e->per_token_ms, in->w->tpot_target_ms, ratio);
    case ECF_RULE_THROUGHPUT:
        return in->qps > 0 &&
               over(in->instances_needed, in->max_nodes, ratio);
    case ECF_RULE_MULTI_NODE_NO_EFA:
        if (in->nodes_per_group <= 1 || in->inst->efa)
            return false;
        *ratio = in->nodes_per_group;
        return true;
    case ECF_RULE_PCIE_MULTI_GPU:
        return !(!ecf_task_is_training(in->w->task) || e->devices <= 1 ||
                 in->inst->link != ECF_LINK_PCIE);
    case ECF_RULE_DATA_BOUND: {
        double pct = param_at(r, 0, 80); /* max_utilization_pct */
        double need = e->data_rate_required_mbytes_s;
        double have = e->data_rate_available_mbytes_s;
        if (need <= 0 || (have > 0 && need <= have * pct / 100))
            return false;
        *ratio = have > 0 ? need / (have * pct / 100) : 1e9;
        return true;
    }
    case ECF_RULE_SPOT_INTERRUPTION: {
        double max = param_at(r, 1, 1); /* max_expected_interruptions */
        return !(!in->spot || in->expected_interruptions <= max);
    }
    case ECF_RULE_NEURON_SUPPORT:
        /* With a stack verdict: the stack runs but its source does not
         * list this model kind as tested. Without: any Neuron device. */
        return !(in->stack ? in->stack->status != ECF_STACK_UNVERIFIED
                           : (!in->inst->accel ||
                              in->inst->accel->kind != ECF_ACCEL_NEURON));
    case ECF_RULE_END_OF_SUPPORT:
        return ecf_rules_end_of_support(in->inst, NULL) != NULL;
    case ECF_RULE_SPOT_CAPACITY:
        /* a training cluster on spot, for a day or more, on a type whose
         * on-demand capacity is already scarce (docs/rules.md
         * "spot-capacity") */
        return in->spot && in->nodes_per_group > 1 &&
               in->time_hours >= param_at(r, 0, 24) && in->time_hours > 0 &&
               ecf_estimate_capacity_note(in->inst) != NULL;
    case ECF_RULE_COUNT:
        return false;
    }
    return false;
}

/* Accelerator generations whose current software stack dropped them, with
 * the published statement (docs/rules.md "end-of-support"). The generation
 * is the catalog's (data/catalog.json accelerators[].generation). */
static const struct {
    const char *generation, *why, *source;
} end_of_support[] = {
    {"volta",
     "CUDA 13 removed Volta (sm_70), so current CUDA 13 builds of PyTorch "
     "and vLLM do not run; it runs only on a CUDA 12 stack (the "
     "proprietary-driver DLAMI)",
     "CUDA Toolkit 13.0 release notes, Deprecated Architectures, "
     "docs.nvidia.com/cuda/archive/13.0.0/cuda-toolkit-release-notes"},
    {"maxwell",
     "CUDA 13 removed Maxwell; it runs only on a CUDA 12 stack",
     "CUDA Toolkit 13.0 release notes, Deprecated Architectures, "
     "docs.nvidia.com/cuda/archive/13.0.0/cuda-toolkit-release-notes"},
    {"kepler", "CUDA 12 removed Kepler; it runs only on CUDA 11 or older",
     "CUDA Toolkit 12.0 release notes, Deprecated Architectures"},
    {"neuron-v1",
     "Neuron DLAMIs from 2.26.1 on no longer support Inf1 and Neuron "
     "drivers above 2.24 support non-Inf1 instances only; it runs only on "
     "the last Inf1 release line",
     "awsdocs-neuron.readthedocs-hosted.com/en/latest/dlami/index.html"},
};

const char *ecf_rules_end_of_support(const ecf_instance *inst,
                                     const char **source_out)
{
    size_t i;
    if (source_out)
        *source_out = NULL;
    if (!inst->accel || !inst->accel->generation)
        return NULL;
    for (i = 0; i < sizeof(end_of_support) / sizeof(end_of_support[0]); i++)
        if (strcmp(inst->accel->generation,
                   end_of_support[i].generation) == 0) {
            if (source_out)
                *source_out = end_of_support[i].source;
            return end_of_support[i].why;
        }
    return NULL;
}

/* Formats the reason of rule `id`, which decide() says fires. */
static void format_reason(const ecf_rules *rules, ecf_rule_id id,
                          const ecf_rule_input *in, char *reason)
{
    const ecf_rule *r = &rules->rules[id];
    const ecf_estimate *e = in->est;
    const char *type = in->inst->type;
    vars v;

    v.n = 0;
    switch (id) {
    case ECF_RULE_NO_PRICE:
    case ECF_RULE_COUNT:
        return;
    case ECF_RULE_ACCEL_SUPPORT: {
        const ecf_accel *a = in->inst->accel;
        const char *why =
            ecf_task_is_training(in->w->task) &&
                    (strncmp(a->id, "inferentia", 10) == 0 ||
                     strncmp(a->id, "qualcomm", 8) == 0)
                ? "an inference accelerator, it cannot train"
                : "no published compute figure for this precision, so no "
                  "time can be estimated";
        var_s(&v, "instance", type);
        var_s(&v, "accelerator", a->name);
        var_s(&v, "why", why);
        break;
    }
    case ECF_RULE_STACK:
        var_s(&v, "instance", type);
        var_s(&v, "platform", in->stack->platform);
        var_s(&v, "stack", in->stack->stack);
        var_s(&v, "why", in->stack->why);
        var_s(&v, "source", in->stack->source ? in->stack->source : "");
        var_s(&v, "as_of", in->stack->as_of ? in->stack->as_of : "");
        break;
    case ECF_RULE_MEMORY_FIT: {
        double h = param_at(r, 0, 10); /* headroom_pct */
        double need = e->memory.total_per_device_gib;
        double req = need * (1 + h / 100);
        double have = e->memory.available_per_device_gib;
        var_s(&v, "instance", type);
        var_num(&v, "required_gib", req, 1);
        var_num(&v, "need_gib", need, 1);
        var_num(&v, "headroom_pct", h, -1);
        var_num(&v, "available_gib", have, 1);
        var_s(&v, "parallelism", ecf_parallelism_name(e->parallelism));
        var_num(&v, "devices", e->devices, 0);
        var_num(&v, "nodes", in->nodes_per_group, 0);
        break;
    }
    case ECF_RULE_HOST_RAM:
        var_s(&v, "instance", type);
        var_num(&v, "needed_gib", e->host_ram_needed_gib, 1);
        var_num(&v, "available_gib", e->host_ram_available_gib, 1);
        break;
    case ECF_RULE_VCPUS_PER_ACCEL: {
        double need = param_at(r, 0, 4); /* min_per_accelerator */
        if (e->vcpus_per_accel_needed > need)
            need = e->vcpus_per_accel_needed;
        var_s(&v, "instance", type);
        var_num(&v, "have", e->vcpus_per_accel, -1);
        var_num(&v, "needed", need, -1);
        break;
    }
    case ECF_RULE_DEADLINE:
        var_s(&v, "instance", type);
        var_num(&v, "time_h", in->time_hours, -1);
        var_num(&v, "deadline_h", in->deadline_hours, -1);
        var_num(&v, "nodes", in->nodes, 0);
        break;
    case ECF_RULE_BUDGET:
        var_s(&v, "instance", type);
        var_num(&v, "total_usd", in->total_usd, 2);
        var_num(&v, "budget_usd", in->budget_usd, 2);
        var_num(&v, "nodes", in->nodes, 0);
        /* serving compares a monthly cost with a monthly budget */
        var_s(&v, "per",
              in->w && in->w->task == ECF_TASK_INFER ? "/month" : "");
        break;
    case ECF_RULE_BUDGET_HOURLY:
        var_s(&v, "instance", type);
        var_num(&v, "hourly_usd", in->hourly_usd, 4);
        var_num(&v, "budget_hourly_usd", in->budget_hourly_usd, 4);
        var_num(&v, "nodes", in->nodes, 0);
        break;
    case ECF_RULE_LATENCY:
        var_s(&v, "instance", type);
        var_num(&v, "latency_ms", e->latency_ms, -1);
        var_num(&v, "target_ms", in->latency_ms, -1);
        break;
    case ECF_RULE_TTFT:
    case ECF_RULE_TPOT: {
        bool ttft = id == ECF_RULE_TTFT;
        double target = ttft ? in->w->ttft_target_ms : in->w->tpot_target_ms;
        double got = ttft ? e->ttft_ms : e->per_token_ms;
        var_s(&v, "instance", type);
        var_num(&v, ttft ? "ttft_ms" : "tpot_ms", got, -1);
        var_num(&v, "target_ms", target, -1);
        break;
    }
    case ECF_RULE_THROUGHPUT: {
        double per = e->max_qps_per_replica *
                     (e->replicas > 0 ? e->replicas : 1) /
                     (in->nodes_per_group > 0 ? in->nodes_per_group : 1);
        var_s(&v, "instance", type);
        var_num(&v, "instances", in->instances_needed, 0);
        var_num(&v, "qps", in->qps, -1);
        var_num(&v, "per_instance", per, -1);
        var_num(&v, "max_nodes", in->max_nodes, 0);
        break;
    }
    case ECF_RULE_MULTI_NODE_NO_EFA:
        var_s(&v, "instance", type);
        var_num(&v, "nodes", in->nodes_per_group, 0);
        var_num(&v, "network_gbps", in->inst->network_gbps, -1);
        break;
    case ECF_RULE_PCIE_MULTI_GPU:
        var_s(&v, "instance", type);
        var_num(&v, "devices", e->devices, 0);
        break;
    case ECF_RULE_DATA_BOUND:
        var_s(&v, "instance", type);
        var_num(&v, "required_mbytes_s", e->data_rate_required_mbytes_s, 0);
        var_num(&v, "available_mbytes_s", e->data_rate_available_mbytes_s,
                0);
        var_s(&v, "source", e->data_source ? e->data_source : "storage");
        break;
    case ECF_RULE_SPOT_INTERRUPTION:
        var_s(&v, "instance", type);
        var_num(&v, "band", in->interruption_band, 0);
        var_s(&v, "band_label", band_label(in->interruption_band));
        var_num(&v, "expected", in->expected_interruptions, -1);
        var_num(&v, "time_h", in->time_hours, -1);
        var_num(&v, "nodes", in->nodes, 0);
        var_num(&v, "checkpoint_h", in->checkpoint_hours, -1);
        break;
    case ECF_RULE_NEURON_SUPPORT:
        var_s(&v, "instance", type);
        var_s(&v, "accelerator",
              in->inst->accel ? in->inst->accel->name : "host CPU");
        var_s(&v, "model", in->model->name);
        if (in->stack) {
            var_s(&v, "platform", in->stack->platform);
            var_s(&v, "stack", in->stack->stack);
            var_s(&v, "why", in->stack->why);
            var_s(&v, "source", in->stack->source ? in->stack->source : "");
        } else {
            var_s(&v, "platform", in->inst->accel->name);
            var_s(&v, "stack", "the AWS Neuron SDK");
            var_s(&v, "why", "model coverage varies by architecture");
            var_s(&v, "source", "https://awsdocs-neuron.readthedocs-hosted."
                                "com/en/latest/general/arch/"
                                "model-architecture-fit.html");
        }
        break;
    case ECF_RULE_END_OF_SUPPORT: {
        const char *src = NULL;
        const char *why = ecf_rules_end_of_support(in->inst, &src);
        var_s(&v, "instance", type);
        var_s(&v, "accelerator", in->inst->accel->name);
        var_s(&v, "generation", in->inst->accel->generation);
        var_s(&v, "why", why ? why : "");
        var_s(&v, "source", src ? src : "");
        break;
    }
    case ECF_RULE_SPOT_CAPACITY: {
        /* the block that would hold the job: its own time, no rework */
        double t = in->est && in->est->time_hours > 0 ? in->est->time_hours
                                                       : in->time_hours;
        int blocks = 0,
            days = in->cb_usd_per_hour > 0
                       ? ecf_capacity_block_window(&blocks, t, in->nodes)
                       : 0;
        char cb[200] = "";
        if (days > 0)
            snprintf(cb, sizeof(cb),
                     "; a Capacity Block holds it: %d d x %d nodes, $%.0f "
                     "for the window (--purchase capacity-block)",
                     days, in->nodes,
                     in->cb_usd_per_hour * 24.0 * days * in->nodes);
        var_s(&v, "instance", type);
        var_num(&v, "nodes", in->nodes, 0);
        var_num(&v, "days", in->time_hours / 24.0, 1);
        var_s(&v, "band_label", band_label(in->interruption_band));
        var_s(&v, "capacity_block", cb);
        break;
    }
    }
    fire(reason, r, &v);
}

/* Checks (or, for a penalty, measures) one rule. Returns true when the
 * rule fires, with the reason formatted (when `reason`) and *ratio set
 * (>= 1). */
static RULES_INLINE bool check(const ecf_rules *rules, ecf_rule_id id,
                               const ecf_rule_input *in, char *reason,
                               double *ratio)
{
    if (!decide(rules, id, in, ratio))
        return false;
    if (reason)
        format_reason(rules, id, in, reason);
    return true;
}

/* Constraints from id `first` on (those below it are known to pass),
 * then the penalties. */
static void eval(ecf_rule_result *out, const ecf_rules *rules,
                 const ecf_rule_input *in, bool fmt, int first)
{
    int id;
    double ratio;

    out->pass = true;
    out->failed = ECF_RULE_NO_PRICE;
    out->miss_ratio = 1;
    out->reason[0] = '\0';
    out->penalty = 0;
    out->n_penalties = 0;
    for (id = first; id < ECF_RULE_COUNT; id++) {
        if (!on(rules, (ecf_rule_id)id, ECF_RULE_CONSTRAINT))
            continue;
        if (check(rules, (ecf_rule_id)id, in, fmt ? out->reason : NULL,
                  &ratio)) {
            out->pass = false;
            out->failed = (ecf_rule_id)id;
            out->miss_ratio = ratio;
            return;
        }
    }
    for (id = 1; id < ECF_RULE_COUNT; id++) {
        ecf_rule_hit *hit = &out->penalties[out->n_penalties];
        if (!on(rules, (ecf_rule_id)id, ECF_RULE_PENALTY))
            continue;
        if (check(rules, (ecf_rule_id)id, in, fmt ? hit->reason : NULL,
                  &ratio)) {
            if (!fmt)
                hit->reason[0] = '\0';
            hit->id = (ecf_rule_id)id;
            out->penalty += rules->rules[id].weight;
            out->n_penalties++;
        }
    }
}

void ecf_rules_eval(ecf_rule_result *out, const ecf_rules *rules,
                    const ecf_rule_input *in)
{
    eval(out, rules, in, true, 1);
}

void ecf_rules_eval_quiet(ecf_rule_result *out, const ecf_rules *rules,
                          const ecf_rule_input *in)
{
    eval(out, rules, in, false, 1);
}

/* The plan-free constraints are a prefix of the id order: each of their
 * checks above reads in->inst, in->model, in->w, in->est and in->stack
 * only (in->nodes_per_group in a reason's text, not in the decision). */
_Static_assert(ECF_RULE_ACCEL_SUPPORT == 1 &&
                   ECF_RULE_VCPUS_PER_ACCEL + 1 == ECF_RULE_DEADLINE,
               "plan-free constraints are ids 1 .. ECF_RULE_VCPUS_PER_ACCEL");

ecf_rule_id ecf_rules_plan_free_fail(const ecf_rules *rules,
                                     const ecf_rule_input *in, double *ratio)
{
    int id;
    *ratio = 1;
    for (id = ECF_RULE_ACCEL_SUPPORT; id <= ECF_RULE_VCPUS_PER_ACCEL; id++)
        if (on(rules, (ecf_rule_id)id, ECF_RULE_CONSTRAINT) &&
            check(rules, (ecf_rule_id)id, in, NULL, ratio))
            return (ecf_rule_id)id;
    *ratio = 1;
    return ECF_RULE_NO_PRICE;
}

void ecf_rules_eval_quiet_past_plan_free(ecf_rule_result *out,
                                         const ecf_rules *rules,
                                         const ecf_rule_input *in)
{
    eval(out, rules, in, false, ECF_RULE_VCPUS_PER_ACCEL + 1);
}

/* ---- prepared for one run's targets ---- */

/* True when check() of `id` returns false for every input with these
 * targets: each condition is the first test of the rule's case above. */
static bool never_fires(ecf_rule_id id, const ecf_rule_input *t)
{
    switch (id) {
    case ECF_RULE_VCPUS_PER_ACCEL:
    case ECF_RULE_PCIE_MULTI_GPU:
        return !ecf_task_is_training(t->w->task);
    case ECF_RULE_DEADLINE:
        return t->deadline_hours <= 0;
    case ECF_RULE_BUDGET:
        return t->budget_usd <= 0;
    case ECF_RULE_BUDGET_HOURLY:
        return t->budget_hourly_usd <= 0;
    case ECF_RULE_LATENCY:
        return t->latency_ms <= 0 || ecf_task_is_training(t->w->task) ||
               t->w->task == ECF_TASK_BATCH;
    case ECF_RULE_TTFT:
        return t->w->ttft_target_ms <= 0 || t->w->task != ECF_TASK_INFER;
    case ECF_RULE_TPOT:
        return t->w->tpot_target_ms <= 0 || t->w->task != ECF_TASK_INFER;
    case ECF_RULE_THROUGHPUT:
        return t->qps <= 0;
    case ECF_RULE_NO_PRICE:
    case ECF_RULE_COUNT:
        return true; /* check() never fires them */
    default:
        return false;
    }
}

void ecf_rules_prepare(ecf_rules_prepared *p, const ecf_rules *rules,
                       const ecf_rule_input *targets)
{
    int id;

    memset(p, 0, sizeof(*p));
    p->rules = rules;
    for (id = ECF_RULE_ACCEL_SUPPORT; id < ECF_RULE_COUNT; id++) {
        if (!rules->rules[id].enabled ||
            never_fires((ecf_rule_id)id, targets))
            continue;
        if (rules->rules[id].kind == ECF_RULE_PENALTY)
            p->pen[p->n_pen++] = (unsigned char)id;
        else if (rules->rules[id].kind != ECF_RULE_CONSTRAINT)
            continue;
        else if (id <= ECF_RULE_VCPUS_PER_ACCEL)
            p->free_ids[p->n_free++] = (unsigned char)id;
        else
            p->cons[p->n_cons++] = (unsigned char)id;
    }
}

ecf_rule_id ecf_rules_plan_free_fail_prepared(const ecf_rules_prepared *p,
                                              const ecf_rule_input *in,
                                              double *ratio)
{
    int i;
    *ratio = 1;
    for (i = 0; i < p->n_free; i++)
        if (check(p->rules, (ecf_rule_id)p->free_ids[i], in, NULL, ratio))
            return (ecf_rule_id)p->free_ids[i];
    *ratio = 1;
    return ECF_RULE_NO_PRICE;
}

void ecf_rules_eval_quiet_past_plan_free_prepared(
    ecf_rule_result *out, const ecf_rules_prepared *p,
    const ecf_rule_input *in)
{
    int i;
    double ratio;

    out->pass = true;
    out->failed = ECF_RULE_NO_PRICE;
    out->miss_ratio = 1;
    out->reason[0] = '\0';
    out->penalty = 0;
    out->n_penalties = 0;
    for (i = 0; i < p->n_cons; i++) {
        ecf_rule_id id = (ecf_rule_id)p->cons[i];
        if (check(p->rules, id, in, NULL, &ratio)) {
            out->pass = false;
            out->failed = id;
            out->miss_ratio = ratio;
            return;
        }
    }
    for (i = 0; i < p->n_pen; i++) {
        ecf_rule_id id = (ecf_rule_id)p->pen[i];
        ecf_rule_hit *hit = &out->penalties[out->n_penalties];
        if (check(p->rules, id, in, NULL, &ratio)) {
            hit->reason[0] = '\0';
            hit->id = id;
            out->penalty += p->rules->rules[id].weight;
            out->n_penalties++;
        }
    }
}
