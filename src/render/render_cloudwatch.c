/*
 * render_cloudwatch.c - `recommend --output cloudwatch`: the alarms a
 * serving fleet of the rank-1 plan needs, as CloudWatch PutMetricAlarm
 * inputs ("alarms"), the Auto Scaling group's capacity events as
 * EventBridge PutRule inputs scoped to the group ("event_rules": events,
 * not metrics, so no alarm can watch them) with their PutTargets inputs
 * ("event_targets": the SNS topic), and the CloudWatch agent
 * configuration that publishes the metrics the alarms read: the GPU's
 * (nvidia_smi) and, for LLM engines, the engine's own Prometheus metrics
 * (queue length) scraped from its /metrics. Every alarm and rule notifies
 * ${ALARM_TOPIC_ARN}, an input. Every threshold comes from the plan and
 * says why in its AlarmDescription; docs/deploy.md#alarms has the
 * formulas.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "ec2fit/estimate.h"
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
/* Where every alarm and rule sends its notification (an input). */
#define TOPIC "${ALARM_TOPIC_ARN}"
/* The CloudWatch agent's Prometheus scrape (docs/deploy.md#alarms): the
 * engine's /metrics on the instance, every minute (the agent's sample
 * configuration, scrape_interval 1m, scrape_timeout 10s). */
/* The port --output ecs starts every pinned engine on
 * (data/engine_images.json "port"). */
#define ENGINE_PORT 8000
#define PROM_CONFIG_PATH "/opt/aws/amazon-cloudwatch-agent/etc/prometheus.yaml"

/* The engine's waiting-queue gauge (a gauge: the agent drops Prometheus
 * histograms such as vllm:time_to_first_token_seconds, so the TTFT
 * service level is watched through the queue it implies). */
typedef struct {
    const char *engine, *metric, *doc;
} prom_queue;
static const prom_queue prom_queues[] = {
    {"vllm", "vllm:num_requests_waiting",
     "docs.vllm.ai Production Metrics: vllm:num_requests_waiting, "
     "number of requests waiting to be processed (gauge)"},
    /* the Neuron DLC runs vLLM's OpenAI server (vllm-neuron plugin) */
    {"neuron", "vllm:num_requests_waiting",
     "docs.vllm.ai Production Metrics (the Neuron DLC runs vLLM's server)"},
    {"tgi", "tgi_queue_size",
     "huggingface.co/docs/text-generation-inference/reference/metrics: "
     "tgi_queue_size, current queue size (gauge)"},
};

static const prom_queue *queue_metric(const char *engine)
{
    size_t i;
    for (i = 0; i < sizeof(prom_queues) / sizeof(prom_queues[0]); i++)
        if (strcmp(prom_queues[i].engine, engine) == 0)
            return &prom_queues[i];
    return NULL;
}

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
    ecf_render_json_add_num(a, "Threshold", threshold, 1);
    cJSON_AddStringToObject(a, "ComparisonOperator", op);
    cJSON_AddStringToObject(a, "TreatMissingData", "missing");
    /* An alarm notifies someone: the SNS topic is an input, substituted
     * with envsubst as ${CLUSTER_NAME} is for Karpenter
     * (docs/deploy.md#alarms). */
    {
        cJSON *act = cJSON_AddArrayToObject(a, "AlarmActions");
        cJSON_AddItemToArray(act, cJSON_CreateString(TOPIC));
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

/* An EC2 Auto Scaling event of the group (EC2 Auto Scaling User Guide,
 * "Amazon EC2 Auto Scaling event reference": source aws.autoscaling, the
 * group's name in detail.AutoScalingGroupName), and its target, the SNS
 * topic input. */
static void event_rule(cJSON *rules, cJSON *targets, const rd_names *nm,
                       const char *suffix, const char *detail_type,
                       const char *why)
{
    cJSON *r = cJSON_CreateObject(), *pat = cJSON_CreateObject(), *a, *d;
    cJSON *t, *tl, *one;
    char name[160], *s;
    snprintf(name, sizeof(name), "%s-%s", nm->base, suffix);
    cJSON_AddStringToObject(r, "Name", name);
    a = cJSON_AddArrayToObject(pat, "source");
    cJSON_AddItemToArray(a, cJSON_CreateString("aws.autoscaling"));
    a = cJSON_AddArrayToObject(pat, "detail-type");
    cJSON_AddItemToArray(a, cJSON_CreateString(detail_type));
    d = cJSON_AddObjectToObject(pat, "detail");
    a = cJSON_AddArrayToObject(d, "AutoScalingGroupName");
    cJSON_AddItemToArray(a, cJSON_CreateString(nm->asg));
    s = cJSON_PrintUnformatted(pat);
    cJSON_AddStringToObject(r, "EventPattern", s ? s : "{}");
    cJSON_free(s);
    cJSON_Delete(pat);
    cJSON_AddStringToObject(r, "State", "ENABLED");
    cJSON_AddStringToObject(r, "Description", why);
    cJSON_AddItemToArray(rules, r);

    t = cJSON_CreateObject();
    cJSON_AddStringToObject(t, "Rule", name);
    tl = cJSON_AddArrayToObject(t, "Targets");
    one = cJSON_CreateObject();
    cJSON_AddStringToObject(one, "Id", "alarm-topic");
    cJSON_AddStringToObject(one, "Arn", TOPIC);
    cJSON_AddItemToArray(tl, one);
    cJSON_AddItemToArray(targets, t);
}

static void agent_config(cJSON *root, const rd_names *nm, bool gpu,
                         const prom_queue *pq, int port)
{
    cJSON *cfg = cJSON_AddObjectToObject(root, "cloudwatch_agent");
    cJSON *m, *o, *agg, *one;
    static const char *const meas[] = {"utilization_gpu", "utilization_memory",
                                       "memory_used", "memory_total"};
    size_t i;
    if (gpu) {
        m = cJSON_AddObjectToObject(cfg, "metrics");
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
    if (pq) {
        /* logs.metrics_collected.prometheus: the agent scrapes the file
         * below and turns the selected metrics into CloudWatch metrics
         * (embedded metric format) with the AutoScalingGroupName label as
         * their one dimension ("Set up and configure Prometheus metrics
         * collection on Amazon EC2 instances", CloudWatch User Guide). */
        cJSON *pr, *emf, *decl, *dl, *dims, *sel;
        char buf[160];
        pr = cJSON_AddObjectToObject(cfg, "logs");
        pr = cJSON_AddObjectToObject(pr, "metrics_collected");
        pr = cJSON_AddObjectToObject(pr, "prometheus");
        snprintf(buf, sizeof(buf), "/ec2fit/%s/prometheus", nm->base);
        cJSON_AddStringToObject(pr, "log_group_name", buf);
        cJSON_AddStringToObject(pr, "prometheus_config_path", PROM_CONFIG_PATH);
        emf = cJSON_AddObjectToObject(pr, "emf_processor");
        cJSON_AddStringToObject(emf, "metric_namespace", "CWAgent");
        dl = cJSON_AddArrayToObject(emf, "metric_declaration");
        decl = cJSON_CreateObject();
        sel = cJSON_AddArrayToObject(decl, "source_labels");
        cJSON_AddItemToArray(sel, cJSON_CreateString("job"));
        cJSON_AddStringToObject(decl, "label_matcher", "^engine$");
        dims = cJSON_AddArrayToObject(decl, "dimensions");
        one = cJSON_CreateArray();
        cJSON_AddItemToArray(one, cJSON_CreateString("AutoScalingGroupName"));
        cJSON_AddItemToArray(dims, one);
        sel = cJSON_AddArrayToObject(decl, "metric_selectors");
        snprintf(buf, sizeof(buf), "^%s$", pq->metric);
        cJSON_AddItemToArray(sel, cJSON_CreateString(buf));
        cJSON_AddItemToArray(dl, decl);

        /* the scrape configuration, written to PROM_CONFIG_PATH (JSON is
         * YAML: the file can be this object as printed) */
        pr = cJSON_AddObjectToObject(root, "prometheus_scrape_config");
        o = cJSON_AddObjectToObject(pr, "global");
        cJSON_AddStringToObject(o, "scrape_interval", "1m");
        cJSON_AddStringToObject(o, "scrape_timeout", "10s");
        agg = cJSON_AddArrayToObject(pr, "scrape_configs");
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "job_name", "engine");
        cJSON_AddStringToObject(o, "metrics_path", "/metrics");
        one = cJSON_AddArrayToObject(o, "static_configs");
        m = cJSON_CreateObject();
        sel = cJSON_AddArrayToObject(m, "targets");
        snprintf(buf, sizeof(buf), "localhost:%d", port);
        cJSON_AddItemToArray(sel, cJSON_CreateString(buf));
        dims = cJSON_AddObjectToObject(m, "labels");
        cJSON_AddStringToObject(dims, "AutoScalingGroupName", nm->asg);
        cJSON_AddItemToArray(one, m);
        cJSON_AddItemToArray(agg, o);
    }
}

void ecf_rr_print_cloudwatch(FILE *f, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    ecf_stack st = ecf_images_stack(p->inst);
    rd_names nm;
    cJSON *root = cJSON_CreateObject(), *alarms, *rules, *targets, *notes, *a;
    const prom_queue *pq = NULL;
    char why[1024];
    double t, low, mem_base, mem_thr, wait_s, backlog;
    int n = r->asg_min > 0 ? r->asg_min : 1;

    ecf_deploy_names_init(&nm, v);
    if (nm.llm)
        pq = queue_metric(nm.engine);
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

    /* LLM engines: requests waiting in the engine's own queue, from its
     * Prometheus gauge. Waiting requests drain at the instance's capacity
     * (per-instance req/s), so by Little's law a queue of L adds L / rate
     * seconds to every new request's TTFT. The plan's TTFT leaves
     * (service-level TTFT - plan TTFT) of slack: a queue above rate x
     * slack, for the scale-out window, means TTFT above the service
     * level. */
    if (pq) {
        double slo_ttft = 0, slo_tpot = 0, slack_s, q;
        ecf_estimate_service_level(&slo_ttft, &slo_tpot, v->model,
                                   &r->workload);
        slack_s = (slo_ttft - p->ttft_ms) / 1000.0;
        if (slack_s < 0)
            slack_s = 0;
        q = ceil(nm.per_instance_qps * slack_s);
        if (q < 1)
            q = 1;
        snprintf(why, sizeof(why),
                 "TTFT above the service level: more than %.0f requests "
                 "waiting per %s (average %s) for %d min. One instance "
                 "drains %.3g req/s, so %.0f waiting requests add %.3g s to "
                 "TTFT: the slack between the plan's %.0f ms and the %.0f ms "
                 "service level. The engine's TTFT histogram cannot be "
                 "published by the CloudWatch agent, which drops Prometheus "
                 "histograms.",
                 q, p->inst->type, pq->metric, SCALE_OUT_MINUTES,
                 nm.per_instance_qps, q,
                 nm.per_instance_qps > 0 ? q / nm.per_instance_qps : 0,
                 p->ttft_ms, slo_ttft);
        a = alarm(alarms, &nm, "engine-queue-high", why, q,
                  "GreaterThanThreshold", SCALE_OUT_MINUTES);
        single(a, "CWAgent", pq->metric, "Average", &nm);
    } else if (nm.llm) {
        snprintf(why, sizeof(why),
                 "no engine queue alarm: ec2fit knows no Prometheus queue "
                 "gauge of engine %s",
                 nm.engine);
        cJSON_AddItemToArray(notes, cJSON_CreateString(why));
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

    /* The group's capacity events, scoped to it by name. EC2's own spot
     * interruption warning and rebalance recommendation name only the
     * instance, so no rule can be scoped to the group with them: ECS
     * managed draining and capacity rebalancing act on those, and the
     * terminate event below reports the loss. */
    rules = cJSON_AddArrayToObject(root, "event_rules");
    targets = cJSON_CreateArray();
    snprintf(why, sizeof(why),
             "Launch failed: the group could not start an instance (%s; capacity, "
             "quota or %s availability), so the fleet stays below its "
             "desired size.",
             p->inst->type, p->spot ? "spot" : "on-demand");
    event_rule(rules, targets, &nm, "launch-unsuccessful",
               "EC2 Instance Launch Unsuccessful", why);
    snprintf(why, sizeof(why),
             "Instance terminated: the group lost an instance (%s: scale-in, health "
             "check replacement%s).",
             p->inst->type, p->spot ? ", spot interruption" : "");
    event_rule(rules, targets, &nm, "instance-terminated",
               "EC2 Instance Terminate Successful", why);
    cJSON_AddItemToObject(root, "event_targets", targets);

    if (st == ECF_STACK_NVIDIA || pq)
        agent_config(root, &nm, st == ECF_STACK_NVIDIA, pq, ENGINE_PORT);
    cJSON_AddItemToObject(root, "notes", notes);
    ecf_render_json_print(f, root);
}
