/*
 * render_cloudwatch.c - `recommend --output cloudwatch`: the alarms a
 * serving fleet of the rank-1 plan needs, as CloudWatch PutMetricAlarm
 * inputs ("alarms"), the spot events as EventBridge PutRule inputs
 * ("event_rules": they are EC2 events, not metrics, so no alarm can watch
 * them), and the CloudWatch agent configuration that publishes the GPU
 * metrics the alarms read. Every threshold comes from the plan and says
 * why in its AlarmDescription; docs/deploy.md#alarms has the formulas.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "render_common.h"
#include "render_deploy.h"

/* EC2 Auto Scaling target tracking alarms: scale out after 3 one-minute
 * datapoints above target, scale in after 15 below (EC2 Auto Scaling
 * User Guide, "Target tracking scaling policies"). The alarms below use
 * the same windows so they agree with the group's own policy. */
#define SCALE_OUT_MINUTES 3
#define SCALE_IN_MINUTES 15
/* The CloudWatch agent's default metrics_collection_interval (60 s). */
#define PERIOD_S 60
/* vLLM pre-allocates --gpu-memory-utilization of each GPU (default 0.9)
 * for weights and KV cache, so used memory sits near 90% by design. */
#define VLLM_GPU_MEMORY_UTILIZATION 0.9
#define MEMORY_MINUTES 5

static cJSON *dim(const char *name, const char *value)
{
    cJSON *a = cJSON_CreateArray(), *d = cJSON_CreateObject();
    cJSON_AddStringToObject(d, "Name", name);
    cJSON_AddStringToObject(d, "Value", value);
    cJSON_AddItemToArray(a, d);
    return a;
}

static cJSON *alarm(cJSON *alarms, const rd_names *nm, const char *suffix,
                    const char *description, double threshold,
                    const char *op, int periods)
{
    cJSON *a = cJSON_CreateObject();
    char name[160];
    snprintf(name, sizeof(name), "%s-%s", nm->base, suffix);
    cJSON_AddStringToObject(a, "AlarmName", name);
    cJSON_AddStringToObject(a, "AlarmDescription", description);
    cJSON_AddNumberToObject(a, "EvaluationPeriods", periods);
    cJSON_AddNumberToObject(a, "DatapointsToAlarm", periods);
    cli_json_add_num(a, "Threshold", threshold, 1);
    cJSON_AddStringToObject(a, "ComparisonOperator", op);
    cJSON_AddStringToObject(a, "TreatMissingData", "missing");
    /* An alarm notifies someone: the SNS topic is an input, substituted
     * with envsubst as ${CLUSTER_NAME} is for Karpenter
     * (docs/deploy.md#alarms). */
    {
        cJSON *act = cJSON_AddArrayToObject(a, "AlarmActions");
        cJSON_AddItemToArray(act, cJSON_CreateString("${ALARM_TOPIC_ARN}"));
    }
    cJSON_AddItemToArray(alarms, a);
    return a;
}

/* One metric alarm (no unit: the agent publishes its metrics without
 * one, and an alarm with a Unit that the data lack never leaves
 * INSUFFICIENT_DATA). */
static void single(cJSON *a, const char *ns, const char *metric,
                   const char *stat, const rd_names *nm)
{
    cJSON_AddStringToObject(a, "Namespace", ns);
    cJSON_AddStringToObject(a, "MetricName", metric);
    cJSON_AddItemToObject(a, "Dimensions",
                          dim("AutoScalingGroupName", nm->asg));
    cJSON_AddStringToObject(a, "Statistic", stat);
    cJSON_AddNumberToObject(a, "Period", PERIOD_S);
}

static cJSON *query(const char *id, const char *ns, const char *metric,
                    const char *dname, const char *dvalue, const char *stat)
{
    cJSON *q = cJSON_CreateObject(), *ms, *m;
    cJSON_AddStringToObject(q, "Id", id);
    ms = cJSON_AddObjectToObject(q, "MetricStat");
    m = cJSON_AddObjectToObject(ms, "Metric");
    cJSON_AddStringToObject(m, "Namespace", ns);
    cJSON_AddStringToObject(m, "MetricName", metric);
    cJSON_AddItemToObject(m, "Dimensions", dim(dname, dvalue));
    cJSON_AddNumberToObject(ms, "Period", PERIOD_S);
    cJSON_AddStringToObject(ms, "Stat", stat);
    cJSON_AddBoolToObject(q, "ReturnData", false);
    return q;
}

static void expression(cJSON *a, const char *expr, const char *label,
                       cJSON *m1, cJSON *m2)
{
    cJSON *arr = cJSON_AddArrayToObject(a, "Metrics"), *e;
    cJSON_AddItemToArray(arr, m1);
    cJSON_AddItemToArray(arr, m2);
    e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "Id", "e1");
    cJSON_AddStringToObject(e, "Expression", expr);
    cJSON_AddStringToObject(e, "Label", label);
    cJSON_AddBoolToObject(e, "ReturnData", true);
    cJSON_AddItemToArray(arr, e);
}

static void event_rule(cJSON *rules, const rd_names *nm, const char *suffix,
                       const char *detail_type, const char *why)
{
    cJSON *r = cJSON_CreateObject(), *pat = cJSON_CreateObject(), *a;
    char name[160], *s;
    snprintf(name, sizeof(name), "%s-%s", nm->base, suffix);
    cJSON_AddStringToObject(r, "Name", name);
    a = cJSON_AddArrayToObject(pat, "source");
    cJSON_AddItemToArray(a, cJSON_CreateString("aws.ec2"));
    a = cJSON_AddArrayToObject(pat, "detail-type");
    cJSON_AddItemToArray(a, cJSON_CreateString(detail_type));
    s = cJSON_PrintUnformatted(pat);
    cJSON_AddStringToObject(r, "EventPattern", s ? s : "{}");
    cJSON_free(s);
    cJSON_Delete(pat);
    cJSON_AddStringToObject(r, "State", "ENABLED");
    cJSON_AddStringToObject(r, "Description", why);
    cJSON_AddItemToArray(rules, r);
}

static void agent_config(cJSON *root, const rd_names *nm)
{
    cJSON *cfg = cJSON_AddObjectToObject(root, "cloudwatch_agent");
    cJSON *m = cJSON_AddObjectToObject(cfg, "metrics"), *o, *agg, *one;
    static const char *const meas[] = {"utilization_gpu", "utilization_memory",
                                       "memory_used", "memory_total"};
    size_t i;
    (void)nm;
    cJSON_AddStringToObject(m, "namespace", "CWAgent");
    o = cJSON_AddObjectToObject(m, "append_dimensions");
    cJSON_AddStringToObject(o, "AutoScalingGroupName",
                            "${aws:AutoScalingGroupName}");
    agg = cJSON_AddArrayToObject(m, "aggregation_dimensions");
    one = cJSON_CreateArray();
    cJSON_AddItemToArray(one, cJSON_CreateString("AutoScalingGroupName"));
    cJSON_AddItemToArray(agg, one);
    o = cJSON_AddObjectToObject(m, "metrics_collected");
    o = cJSON_AddObjectToObject(o, "nvidia_gpu");
    one = cJSON_AddArrayToObject(o, "measurement");
    for (i = 0; i < sizeof(meas) / sizeof(meas[0]); i++)
        cJSON_AddItemToArray(one, cJSON_CreateString(meas[i]));
    cJSON_AddNumberToObject(o, "metrics_collection_interval", PERIOD_S);
}

void rr_print_cloudwatch(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    ecf_stack st = ecf_images_stack(p->inst);
    rd_names nm;
    cJSON *root = cJSON_CreateObject(), *alarms, *rules, *notes, *a;
    char why[1024];
    double t, low, mem_base, mem_thr, wait_s, backlog;
    int n = r->asg_min > 0 ? r->asg_min : 1;

    rd_names_init(&nm, v);
    t = nm.target_fraction;
    alarms = cJSON_AddArrayToObject(root, "alarms");
    notes = cJSON_CreateArray();

    /* Utilisation: GPU busy time for NVIDIA (the agent's nvidia_smi
     * metrics), CPU for CPU-only plans. On a serving instance it tracks
     * the request load up to the plan's capacity, where it is near 100%,
     * so the Auto Scaling target (a fraction of capacity) is also a
     * utilisation threshold. */
    if (st == ECF_STACK_NVIDIA || st == ECF_STACK_CPU) {
        const char *ns = st == ECF_STACK_NVIDIA ? "CWAgent" : "AWS/EC2";
        const char *metric = st == ECF_STACK_NVIDIA
                                 ? "nvidia_smi_utilization_gpu"
                                 : "CPUUtilization";
        const char *what = st == ECF_STACK_NVIDIA ? "GPU" : "CPU";
        if (n >= 2) {
            low = 100 * t * (n - 1) / n;
            snprintf(why, sizeof(why),
                     "Over-provisioned: average %s utilisation below "
                     "%.1f%% for %d min means the load fits %d of the %d "
                     "%s instances at the plan's %.0f%% target (%.0f%% x "
                     "%d/%d); scale in or pick a smaller type.",
                     what, low, SCALE_IN_MINUTES, n - 1, n, p->inst->type,
                     100 * t, 100 * t, n - 1, n);
        } else {
            low = 100 * t / 2;
            snprintf(why, sizeof(why),
                     "Over-provisioned: average %s utilisation below "
                     "%.1f%% (half the plan's %.0f%% target) for %d min on "
                     "the single %s: a type with half its capacity (%.3g "
                     "req/s) would serve the load.",
                     what, low, 100 * t, SCALE_IN_MINUTES, p->inst->type,
                     nm.per_instance_qps);
        }
        a = alarm(alarms, &nm, st == ECF_STACK_NVIDIA ? "gpu-utilization-low"
                                                      : "cpu-utilization-low",
                  why, low, "LessThanThreshold", SCALE_IN_MINUTES);
        single(a, ns, metric, "Average", &nm);
        snprintf(why, sizeof(why),
                 "Scale out: average %s utilisation above the plan's "
                 "%.0f%% target (%.3g of %.3g req/s per %s) for %d min, the "
                 "window EC2 Auto Scaling target tracking scales out on; "
                 "the plan's maximum is %d instances.",
                 what, 100 * t, r->asg_target_qps_per_instance,
                 nm.per_instance_qps, p->inst->type, SCALE_OUT_MINUTES,
                 r->asg_max);
        a = alarm(alarms, &nm, st == ECF_STACK_NVIDIA ? "gpu-utilization-high"
                                                      : "cpu-utilization-high",
                  why, 100 * t, "GreaterThanThreshold", SCALE_OUT_MINUTES);
        single(a, ns, metric, "Average", &nm);
    } else {
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "no utilisation alarms: the CloudWatch agent has no "
                       "Neuron or other accelerator metrics (publish "
                       "neuron-monitor's to CloudWatch for Neuron)"));
    }

    /* GPU memory: used / total, worst GPU of the group. */
    if (st == ECF_STACK_NVIDIA) {
        if (nm.llm) {
            mem_base = 100 * VLLM_GPU_MEMORY_UTILIZATION;
            mem_thr = mem_base + (100 - mem_base) / 2;
            snprintf(why, sizeof(why),
                     "GPU memory near full: above %.1f%% for %d min. vLLM "
                     "holds %.0f%% of each GPU (--gpu-memory-utilization) for "
                     "weights and KV cache; more than halfway from there to "
                     "100%% means another process competes for memory and "
                     "the engine risks out-of-memory.",
                     mem_thr, MEMORY_MINUTES, mem_base);
        } else {
            mem_base = p->available_per_device_gib > 0
                           ? 100 * p->required_per_device_gib /
                                 p->available_per_device_gib
                           : 0;
            mem_thr = mem_base + (100 - mem_base) / 2;
            snprintf(why, sizeof(why),
                     "GPU memory near full: above %.1f%% for %d min. The "
                     "plan needs %.2f of %.2f GiB per GPU (%.1f%%); more "
                     "than halfway from there to 100%% leaves too little "
                     "for bigger batches or fragmentation.",
                     mem_thr, MEMORY_MINUTES, p->required_per_device_gib,
                     p->available_per_device_gib, mem_base);
        }
        a = alarm(alarms, &nm, "gpu-memory-high", why, mem_thr,
                  "GreaterThanThreshold", MEMORY_MINUTES);
        expression(a, "100 * m1 / m2", "GPU memory used (%)",
                   query("m1", "CWAgent", "nvidia_smi_memory_used",
                         "AutoScalingGroupName", nm.asg, "Maximum"),
                   query("m2", "CWAgent", "nvidia_smi_memory_total",
                         "AutoScalingGroupName", nm.asg, "Maximum"));
    }

    /* Async serving through SQS: backlog per instance (AWS's "scaling
     * policy based on Amazon SQS"): acceptable backlog = acceptable wait
     * / time per message = per-instance throughput x acceptable wait. The
     * wait is the --latency target, or else one service time (the plan's
     * latency), which by Little's law is the work an instance has in
     * flight at capacity. Without --async there is no queue, so no
     * alarm. */
    if (v->rec->opts.async) {
        wait_s = (v->w->latency_target_ms > 0 ? v->w->latency_target_ms
                                              : p->latency_ms) /
                 1000.0;
        backlog = ceil(nm.per_instance_qps * wait_s);
        if (backlog < 1)
            backlog = 1;
        snprintf(why, sizeof(why),
                 "Async serving: SQS backlog per instance above %.0f messages "
                 "for %d min. One %s serves %.3g req/s, so %.0f queued "
                 "messages wait %.3g s, the acceptable wait (%s). Needs the "
                 "group's GroupInServiceInstances metric (enable-metrics-"
                 "collection).",
                 backlog, SCALE_OUT_MINUTES, p->inst->type, nm.per_instance_qps,
                 backlog, wait_s,
                 v->w->latency_target_ms > 0 ? "the --latency target"
                                             : "one service time, the plan's "
                                               "latency");
        a = alarm(alarms, &nm, "sqs-backlog-per-instance-high", why, backlog,
                  "GreaterThanThreshold", SCALE_OUT_MINUTES);
        expression(a, "m1 / m2", "Backlog per instance",
                   query("m1", "AWS/SQS", "ApproximateNumberOfMessagesVisible",
                         "QueueName", nm.queue, "Average"),
                   query("m2", "AWS/AutoScaling", "GroupInServiceInstances",
                         "AutoScalingGroupName", nm.asg, "Average"));
    }

    rules = cJSON_AddArrayToObject(root, "event_rules");
    snprintf(why, sizeof(why),
             "Spot interruption: EC2 reclaims the instance in 2 minutes; "
             "drain it (ECS managed draining does). Rank 1 is %s.",
             p->spot ? "spot" : "on-demand (the rule matters once spot is "
                                "used)");
    event_rule(rules, &nm, "spot-interruption",
               "EC2 Spot Instance Interruption Warning", why);
    snprintf(why, sizeof(why),
             "Rebalance recommendation: the spot instance is at elevated "
             "risk of interruption; launch its replacement early (capacity "
             "rebalancing). Rank 1 is %s.",
             p->spot ? "spot" : "on-demand");
    event_rule(rules, &nm, "rebalance-recommendation",
               "EC2 Instance Rebalance Recommendation", why);

    if (st == ECF_STACK_NVIDIA)
        agent_config(root, &nm);
    cJSON_AddItemToObject(root, "notes", notes);
    cli_json_print(f, root);
}
