/*
 * render_ecs.c - `recommend --output ecs`: the rank-1 serving plan as the
 * inputs of the ECS calls that run it, one top-level key per call, so
 * `jq .taskDefinition` is exactly what `aws ecs register-task-definition
 * --cli-input-json` takes (docs/deploy.md walks through all of them):
 *   taskDefinition   RegisterTaskDefinition: one task per instance, all
 *                    of the instance's GPUs (or Neuron devices) and its
 *                    memory minus the ECS reserve below
 *   capacityProvider CreateCapacityProvider: managed scaling at the plan's
 *                    Auto Scaling target utilisation
 *   service          CreateService: the plan's instance count, one task
 *                    per instance, behind the load balancer's target
 *                    group, with a health-check grace period as long as
 *                    the plan's start-up time
 *   scalableTarget   application-autoscaling RegisterScalableTarget: the
 *                    service's task count between the plan's min and max
 *   scalingPolicy    application-autoscaling PutScalingPolicy: target
 *                    tracking on the plan's Auto Scaling target
 *   ec2fit           not an API input: the plan, images, inputs and
 *                    arithmetic
 * The values a plan cannot know (role, secret and target group ARNs) are
 * inputs written as ${NAME}, substituted with envsubst like
 * ${ALARM_TOPIC_ARN} in --output cloudwatch; ec2fit.inputs lists them.
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ec2fit/engine_images.h"
#include "ec2fit/err.h"
#include "ec2fit/fleet.h"
#include "ec2fit/region_name.h"
#include "ec2fit/satconv.h"
#include "render_common.h"
#include "render_deploy.h"

/* Memory ECS can give a task. The agent registers the memory the kernel
 * reports, less than installed: AWS's example is an m4.large with 8 GiB
 * (8192 MiB) installed that registers 7985 MiB, 2.5% less (Amazon ECS
 * Developer Guide, "Reserving Amazon ECS Linux container instance
 * memory"). On top of it ECS_RESERVED_MEMORY keeps memory for the agent
 * and the system; 256 MiB is that page's example, and docs/deploy.md sets
 * it in /etc/ecs/ecs.config. A task asking for more than the instance
 * registers is never placed, so the estimate errs low. */
#define ECS_REGISTERED_FRACTION (7985.0 / 8192.0)
#define ECS_RESERVED_MEMORY_MIB 256
/* "1024 CPU units = 1 vCPU" (task definition parameters, cpu). */
#define ECS_CPU_UNITS_PER_VCPU 1024
/* The task-level cpu the EC2 launch type accepts: "Supported values are
 * between 128 CPU units (0.125 vCPUs) and 196608 CPU units (192 vCPUs)"
 * (RegisterTaskDefinition, cpu). A larger type's task leaves it unset
 * ("If you do not specify a value, the parameter is ignored"), so its one
 * task uses every vCPU instead of being refused or capped at 192. */
#define ECS_TASK_CPU_MAX_UNITS 196608L
/* A container of the user's own image (no pinned engine image for the
 * model kind and stack) is asked to listen here and to answer
 * OWN_HEALTH_PATH (docs/deploy.md#ecs, inputs). */
#define OWN_PORT 8000
#define OWN_HEALTH_PATH "/health"
/* CreateCapacityProvider managedScaling.instanceWarmupPeriod default. */
#define ECS_INSTANCE_WARMUP_S 300

#define OWN_IMAGE "${SERVING_IMAGE}"
/* Container health check (task definition parameters, healthCheck): the
 * defaults interval 30 s, timeout 5 s, retries 3; startPeriod takes 0 to
 * 300 s, so a longer start is covered by the service's
 * healthCheckGracePeriodSeconds, which ECS applies to container health
 * checks as well as the load balancer's (CreateService API reference). */
#define HC_INTERVAL_S 30
#define HC_TIMEOUT_S 5
#define HC_RETRIES 3
#define HC_START_PERIOD_MAX_S 300

/* The inputs of the output, substituted with envsubst (docs/deploy.md#ecs). */
#define IN_EXECUTION_ROLE "${EXECUTION_ROLE_ARN}"
#define IN_HF_TOKEN "${HF_TOKEN_SECRET_ARN}"
#define IN_TARGET_GROUP "${TARGET_GROUP_ARN}"
#define IN_ALB_LABEL "${ALB_RESOURCE_LABEL}"
#define IN_MODEL_REPOSITORY "${MODEL_REPOSITORY}"

/* What the container runs: a pinned engine image, or the user's own. */
typedef struct {
    const ecf_engine_image *img; /* NULL: OWN_IMAGE */
    const char *engine;          /* the plan's engine name */
    int port;
    const char *health_path;
    int start_period_s, grace_s; /* from the plan's start-up time */
} ecs_engine;

static void env(cJSON *arr, const char *name, const char *value)
{
    cJSON *e = cJSON_CreateObject();
    cJSON_AddStringToObject(e, "name", name);
    cJSON_AddStringToObject(e, "value", value);
    cJSON_AddItemToArray(arr, e);
}

static cJSON *strings(const char *const *s, size_t n)
{
    cJSON *a = cJSON_CreateArray();
    size_t i;
    for (i = 0; i < n; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(s[i]));
    return a;
}

static void add_input(cJSON *inputs, const char *name, const char *where,
                      const char *what)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "name", name);
    cJSON_AddStringToObject(o, "used_in", where);
    cJSON_AddStringToObject(o, "description", what);
    cJSON_AddItemToArray(inputs, o);
}

/* The engine's start command, its settings read from the environment so
 * they can be changed without touching it. */
static const char *engine_command(const ecs_engine *en)
{
    if (!en->img)
        return NULL;
    if (strcmp(en->engine, "tgi") == 0)
        return "exec text-generation-launcher --model-id \"$MODEL_ID\" "
               "--num-shard \"$TENSOR_PARALLEL_SIZE\" --port \"$PORT\"";
    if (strcmp(en->engine, "triton") == 0)
        return "exec tritonserver --model-repository=\"$MODEL_REPOSITORY\" "
               "--http-port=\"$PORT\"";
    /* vllm, and the Neuron DLC's vLLM */
    return "exec vllm serve \"$MODEL_ID\" --tensor-parallel-size "
           "\"$TENSOR_PARALLEL_SIZE\" --port \"$PORT\"";
}

static cJSON *container(const rr_view *v, const rd_names *nm, ecf_stack st,
                        const ecs_engine *en, const char *log_region)
{
    const ecf_plan *p = &v->rec->plans[0];
    cJSON *c = cJSON_CreateObject(), *e, *pm, *port, *o, *arr;
    const char *cmdline = engine_command(en);
    char buf[256];
    int k;

    cJSON_AddStringToObject(c, "name", "engine");
    cJSON_AddStringToObject(c, "image", en->img ? en->img->image : OWN_IMAGE);
    cJSON_AddBoolToObject(c, "essential", true);
    if (cmdline) {
        static const char *const ep[] = {"/bin/sh", "-c"};
        cJSON_AddItemToObject(c, "entryPoint", strings(ep, 2));
        cJSON_AddItemToObject(c, "command", strings(&cmdline, 1));
    }
    e = cJSON_AddArrayToObject(c, "environment");
    env(e, "MODEL_ID", nm->model_id);
    snprintf(buf, sizeof(buf), "%d", nm->tensor_parallel);
    env(e, "TENSOR_PARALLEL_SIZE", buf);
    snprintf(buf, sizeof(buf), "%d", en->port);
    env(e, "PORT", buf);
    if (en->img && strcmp(en->engine, "triton") == 0)
        env(e, "MODEL_REPOSITORY", IN_MODEL_REPOSITORY);
    if (nm->llm) {
        /* Gated repositories (Llama, Gemma, Mistral) need a token; the
         * engines read HF_TOKEN (vLLM's and TGI's Docker guides). */
        arr = cJSON_AddArrayToObject(c, "secrets");
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "name", "HF_TOKEN");
        cJSON_AddStringToObject(o, "valueFrom", IN_HF_TOKEN);
        cJSON_AddItemToArray(arr, o);
    }
    pm = cJSON_AddArrayToObject(c, "portMappings");
    port = cJSON_CreateObject();
    cJSON_AddNumberToObject(port, "containerPort", en->port);
    cJSON_AddNumberToObject(port, "hostPort", en->port);
    cJSON_AddStringToObject(port, "protocol", "tcp");
    cJSON_AddItemToArray(pm, port);
    /* Healthy once the engine answers its readiness path: python3 is in
     * every pinned engine image (curl is not in all of them); the user's
     * own image is asked for curl. */
    o = cJSON_AddObjectToObject(c, "healthCheck");
    arr = cJSON_AddArrayToObject(o, "command");
    cJSON_AddItemToArray(arr, cJSON_CreateString("CMD-SHELL"));
    if (en->img)
        snprintf(buf, sizeof(buf),
                 "python3 -c \"import urllib.request; urllib.request."
                 "urlopen('http://localhost:%d%s', timeout=%d)\" || exit 1",
                 en->port, en->health_path, HC_TIMEOUT_S - 1);
    else
        snprintf(buf, sizeof(buf),
                 "curl -fsS -m %d http://localhost:%d%s || exit 1",
                 HC_TIMEOUT_S - 1, en->port, en->health_path);
    cJSON_AddItemToArray(arr, cJSON_CreateString(buf));
    cJSON_AddNumberToObject(o, "interval", HC_INTERVAL_S);
    cJSON_AddNumberToObject(o, "timeout", HC_TIMEOUT_S);
    cJSON_AddNumberToObject(o, "retries", HC_RETRIES);
    cJSON_AddNumberToObject(o, "startPeriod", en->start_period_s);
    /* awslogs: the group is created beforehand (docs/deploy.md#ecs); the
     * region is the plan's (a zone's parent region). */
    o = cJSON_AddObjectToObject(c, "logConfiguration");
    cJSON_AddStringToObject(o, "logDriver", "awslogs");
    o = cJSON_AddObjectToObject(o, "options");
    snprintf(buf, sizeof(buf), "/ecs/%s", nm->base);
    cJSON_AddStringToObject(o, "awslogs-group", buf);
    cJSON_AddStringToObject(o, "awslogs-region", log_region);
    cJSON_AddStringToObject(o, "awslogs-stream-prefix", "engine");
    if (st == ECF_STACK_NVIDIA) {
        cJSON *rr = cJSON_AddArrayToObject(c, "resourceRequirements");
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "type", "GPU");
        snprintf(buf, sizeof(buf), "%d", p->devices_per_node);
        cJSON_AddStringToObject(g, "value", buf);
        cJSON_AddItemToArray(rr, g);
    } else if (st == ECF_STACK_NEURON) {
        /* EC2 launch type: map each device explicitly ("Manual Neuron
         * device specification", ECS task definitions for AWS Neuron). */
        cJSON *lp = cJSON_AddObjectToObject(c, "linuxParameters");
        cJSON *devs = cJSON_AddArrayToObject(lp, "devices");
        static const char *const rw[] = {"read", "write"};
        for (k = 0; k < p->devices_per_node; k++) {
            cJSON *d = cJSON_CreateObject();
            char path[32];
            snprintf(path, sizeof(path), "/dev/neuron%d", k);
            cJSON_AddStringToObject(d, "hostPath", path);
            cJSON_AddStringToObject(d, "containerPath", path);
            cJSON_AddItemToObject(d, "permissions", strings(rw, 2));
            cJSON_AddItemToArray(devs, d);
        }
    }
    return c;
}

/* The engine the rank-1 plan was estimated with (rd_names: --engine,
 * else the platform's default) and its pinned image; the
 * start-up time of the plan sets the health-check start period and the
 * service's grace period. Returns 0, or 1 after a message when no pinned
 * image of an LLM engine runs on the type. */
static int resolve_engine(ecs_engine *out, ecf_engine_images *imgs,
                          FILE *errf, const rr_view *v, const rd_names *nm)
{
    const ecf_plan *p = &v->rec->plans[0];
    ecf_err err;
    double start_s = p->startup_s;
    int rc = 0;

    memset(out, 0, sizeof(*out));
    out->engine = nm->engine;
    if (ecf_engine_images_embedded(imgs, &err) == 0)
        out->img = ecf_engine_images_for(imgs, out->engine, nm->llm, p->inst);
    if (!out->img && nm->llm) {
        fprintf(errf,
                "ec2fit: recommend: --output ecs: no pinned %s image for "
                "%s (%s %s) in engine_images.json; see "
                "docs/deploy.md#engine-images\n",
                out->engine, p->inst->type,
                ecf_stack_name(ecf_images_stack(p->inst)),
                ecf_arch_name(p->inst->arch));
        rc = 1;
    }
    out->port = out->img ? out->img->port : OWN_PORT;
    out->health_path = out->img ? out->img->health_path : OWN_HEALTH_PATH;
    /* The plan's per-node start (boot, image pull, weights read;
     * docs/estimation.md "Fixed overheads") bounds the container's own
     * start from above: the grace period covers all of it, the health
     * check's start period as much as ECS allows. */
    out->grace_s = ecf_sat_int(ceil(start_s > 0 ? start_s : 0));
    out->start_period_s = out->grace_s < HC_START_PERIOD_MAX_S
                              ? out->grace_s
                              : HC_START_PERIOD_MAX_S;
    return rc;
}

/* Application Auto Scaling for the service: its task count between the
 * plan's min and max tasks (one task per instance), target tracking on the
 * plan's Auto Scaling target: ALB requests per target per minute, or with
 * --async the SQS backlog per task. */
static void autoscaling(cJSON *root, const rr_view *v, const rd_names *nm,
                        int tasks_min, int tasks_max)
{
    const ecf_recommendation *r = v->rec;
    cJSON *t, *pol, *cfg, *m;
    char rid[256], name[160];

    snprintf(rid, sizeof(rid), "service/%s/%s", nm->base, nm->base);
    t = cJSON_AddObjectToObject(root, "scalableTarget");
    cJSON_AddStringToObject(t, "ServiceNamespace", "ecs");
    cJSON_AddStringToObject(t, "ResourceId", rid);
    cJSON_AddStringToObject(t, "ScalableDimension", "ecs:service:DesiredCount");
    cJSON_AddNumberToObject(t, "MinCapacity", tasks_min);
    cJSON_AddNumberToObject(t, "MaxCapacity", tasks_max);

    pol = cJSON_AddObjectToObject(root, "scalingPolicy");
    snprintf(name, sizeof(name), "%s-%s", nm->base,
             r->opts.async ? "backlog-per-task" : "requests-per-target");
    cJSON_AddStringToObject(pol, "PolicyName", name);
    cJSON_AddStringToObject(pol, "ServiceNamespace", "ecs");
    cJSON_AddStringToObject(pol, "ResourceId", rid);
    cJSON_AddStringToObject(pol, "ScalableDimension",
                            "ecs:service:DesiredCount");
    cJSON_AddStringToObject(pol, "PolicyType", "TargetTrackingScaling");
    cfg = cJSON_AddObjectToObject(pol, "TargetTrackingScalingPolicyConfiguration");
    ecf_render_json_add_num(cfg, "TargetValue", r->asg_target_value, 2);
    /* the cooldowns --output json states for the plan (ec2fit/fleet.h) */
    cJSON_AddNumberToObject(cfg, "ScaleOutCooldown", ECF_ASG_COOLDOWN_S);
    cJSON_AddNumberToObject(cfg, "ScaleInCooldown", ECF_ASG_COOLDOWN_S);
    if (!r->opts.async) {
        m = cJSON_AddObjectToObject(cfg, "PredefinedMetricSpecification");
        cJSON_AddStringToObject(m, "PredefinedMetricType",
                                "ALBRequestCountPerTarget");
        cJSON_AddStringToObject(m, "ResourceLabel", IN_ALB_LABEL);
    } else {
        /* backlog per task = visible messages / running tasks (AWS's SQS
         * scaling pattern, metric math in a customized metric; the task
         * count is Container Insights' RunningTaskCount) */
        cJSON *arr, *q, *ms, *mm, *d, *dd;
        static const char *const ids[] = {"m1", "m2"};
        int k;
        m = cJSON_AddObjectToObject(cfg, "CustomizedMetricSpecification");
        arr = cJSON_AddArrayToObject(m, "Metrics");
        for (k = 0; k < 2; k++) {
            q = cJSON_CreateObject();
            cJSON_AddStringToObject(q, "Id", ids[k]);
            ms = cJSON_AddObjectToObject(q, "MetricStat");
            mm = cJSON_AddObjectToObject(ms, "Metric");
            cJSON_AddStringToObject(mm, "Namespace",
                                    k ? "ECS/ContainerInsights" : "AWS/SQS");
            cJSON_AddStringToObject(mm, "MetricName",
                                    k ? "RunningTaskCount"
                                      : "ApproximateNumberOfMessagesVisible");
            d = cJSON_AddArrayToObject(mm, "Dimensions");
            dd = cJSON_CreateObject();
            cJSON_AddStringToObject(dd, "Name", k ? "ClusterName" : "QueueName");
            cJSON_AddStringToObject(dd, "Value", k ? nm->base : nm->queue);
            cJSON_AddItemToArray(d, dd);
            if (k) {
                dd = cJSON_CreateObject();
                cJSON_AddStringToObject(dd, "Name", "ServiceName");
                cJSON_AddStringToObject(dd, "Value", nm->base);
                cJSON_AddItemToArray(d, dd);
            }
            cJSON_AddStringToObject(ms, "Stat", "Average");
            cJSON_AddBoolToObject(q, "ReturnData", false);
            cJSON_AddItemToArray(arr, q);
        }
        q = cJSON_CreateObject();
        cJSON_AddStringToObject(q, "Id", "e1");
        cJSON_AddStringToObject(q, "Expression", "m1 / m2");
        cJSON_AddStringToObject(q, "Label", "Backlog per task");
        cJSON_AddBoolToObject(q, "ReturnData", true);
        cJSON_AddItemToArray(arr, q);
    }
}

int ecf_rr_print_ecs(FILE *f, FILE *errf, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    ecf_stack st = ecf_images_stack(p->inst);
    const ecf_image *im =
        ecf_images_for(v->images, ECF_IMAGE_USE_ECS, p->inst);
    rd_names nm;
    ecs_engine en;
    ecf_engine_images *imgs = NULL;
    cJSON *root, *td, *cp, *asgp, *ms, *svc, *meta, *arr, *o, *notes, *inputs;
    char buf[256], region[64];
    long inst_mib, reg_mib, task_mib;
    int target_pct, step, tasks_min, tasks_max;

    if (p->nodes_per_group > 1) {
        /* An ECS task runs on one container instance: a replica that
         * needs several cannot start, so no service is written (exit 3,
         * as when nothing fits; docs/deploy.md#ecs). */
        fprintf(errf,
                "ec2fit: recommend: --output ecs: rank 1 (%s) needs %d "
                "instances per model replica and an ECS task runs on one "
                "instance; use --output karpenter (LeaderWorkerSet) or a "
                "type that holds a replica (--families)\n",
                p->inst->type, p->nodes_per_group);
        return 3;
    }
    if (!im) {
        fprintf(errf,
                "ec2fit: recommend: --output ecs: no ECS-optimized AMI for "
                "%s %s (%s) in images.json; see docs/deploy.md#images\n",
                ecf_stack_name(st), ecf_arch_name(p->inst->arch),
                p->inst->type);
        return 1;
    }
    ecf_deploy_names_init(&nm, v);
    imgs = ecf_xmalloc(sizeof(*imgs));
    if (resolve_engine(&en, imgs, errf, v, &nm)) {
        free(imgs);
        return 1;
    }
    if (!ecf_region_parent(region, sizeof(region), p->region))
        snprintf(region, sizeof(region), "%s", p->region);
    /* one task per instance: the plan's instance bounds are task bounds */
    tasks_min = r->asg_min / (p->nodes_per_group > 0 ? p->nodes_per_group : 1);
    tasks_max = r->asg_max / (p->nodes_per_group > 0 ? p->nodes_per_group : 1);
    if (tasks_max < tasks_min)
        tasks_max = tasks_min;
    inst_mib = ecf_sat_long(round(p->inst->memory_gib * 1024));
    reg_mib = ecf_sat_long(floor((double)inst_mib * ECS_REGISTERED_FRACTION));
    task_mib = reg_mib - ECS_RESERVED_MEMORY_MIB;
    target_pct = ecf_sat_int(round(nm.target_fraction * 100));
    if (target_pct < 1)
        target_pct = 1;
    if (target_pct > 100)
        target_pct = 100;

    root = cJSON_CreateObject();
    td = cJSON_AddObjectToObject(root, "taskDefinition");
    cJSON_AddStringToObject(td, "family", nm.base);
    /* pulls from a private registry, fetches the HF_TOKEN secret */
    cJSON_AddStringToObject(td, "executionRoleArn", IN_EXECUTION_ROLE);
    arr = cJSON_AddArrayToObject(td, "requiresCompatibilities");
    cJSON_AddItemToArray(arr, cJSON_CreateString("EC2"));
    cJSON_AddStringToObject(td, "networkMode", "host");
    if (nm.llm && nm.tensor_parallel > 1)
        /* Tensor-parallel workers exchange tensors through shared memory,
         * which a container's 64 MB /dev/shm cannot hold: vLLM's Docker
         * guide asks for --ipc=host (or a large --shm-size); ECS's EC2
         * launch type takes the same as the task's ipcMode. */
        cJSON_AddStringToObject(td, "ipcMode", "host");
    if ((long)p->inst->vcpu * ECS_CPU_UNITS_PER_VCPU <= ECS_TASK_CPU_MAX_UNITS) {
        snprintf(buf, sizeof(buf), "%ld",
                 (long)p->inst->vcpu * ECS_CPU_UNITS_PER_VCPU);
        cJSON_AddStringToObject(td, "cpu", buf);
    }
    snprintf(buf, sizeof(buf), "%ld", task_mib);
    cJSON_AddStringToObject(td, "memory", buf);
    arr = cJSON_AddArrayToObject(td, "containerDefinitions");
    cJSON_AddItemToArray(arr, container(v, &nm, st, &en, region));
    arr = cJSON_AddArrayToObject(td, "placementConstraints");
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "memberOf");
    snprintf(buf, sizeof(buf), "attribute:ecs.instance-type == %s",
             p->inst->type);
    cJSON_AddStringToObject(o, "expression", buf);
    cJSON_AddItemToArray(arr, o);

    cp = cJSON_AddObjectToObject(root, "capacityProvider");
    cJSON_AddStringToObject(cp, "name", nm.capacity_provider);
    asgp = cJSON_AddObjectToObject(cp, "autoScalingGroupProvider");
    snprintf(buf, sizeof(buf),
             "arn:aws:autoscaling:%s:<account-id>:autoScalingGroup:<uuid>:"
             "autoScalingGroupName/%s",
             p->region, nm.asg);
    cJSON_AddStringToObject(asgp, "autoScalingGroupArn", buf);
    ms = cJSON_AddObjectToObject(asgp, "managedScaling");
    cJSON_AddStringToObject(ms, "status", "ENABLED");
    cJSON_AddNumberToObject(ms, "targetCapacity", target_pct);
    cJSON_AddNumberToObject(ms, "minimumScalingStepSize", 1);
    step = r->asg_max - r->asg_min;
    cJSON_AddNumberToObject(ms, "maximumScalingStepSize", step > 1 ? step : 1);
    cJSON_AddNumberToObject(ms, "instanceWarmupPeriod", ECS_INSTANCE_WARMUP_S);
    cJSON_AddStringToObject(asgp, "managedTerminationProtection", "DISABLED");
    cJSON_AddStringToObject(asgp, "managedDraining", "ENABLED");

    svc = cJSON_AddObjectToObject(root, "service");
    cJSON_AddStringToObject(svc, "cluster", nm.base);
    cJSON_AddStringToObject(svc, "serviceName", nm.base);
    cJSON_AddStringToObject(svc, "taskDefinition", nm.base);
    cJSON_AddNumberToObject(svc, "desiredCount", tasks_min);
    if (!r->opts.async) {
        /* requests reach the tasks through the load balancer's target
         * group (instance targets: networkMode host) */
        arr = cJSON_AddArrayToObject(svc, "loadBalancers");
        o = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "targetGroupArn", IN_TARGET_GROUP);
        cJSON_AddStringToObject(o, "containerName", "engine");
        cJSON_AddNumberToObject(o, "containerPort", en.port);
        cJSON_AddItemToArray(arr, o);
    }
    cJSON_AddNumberToObject(svc, "healthCheckGracePeriodSeconds", en.grace_s);
    arr = cJSON_AddArrayToObject(svc, "capacityProviderStrategy");
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "capacityProvider", nm.capacity_provider);
    cJSON_AddNumberToObject(o, "weight", 1);
    cJSON_AddNumberToObject(o, "base", 0);
    cJSON_AddItemToArray(arr, o);
    arr = cJSON_AddArrayToObject(svc, "placementConstraints");
    o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "type", "distinctInstance");
    cJSON_AddItemToArray(arr, o);

    autoscaling(root, v, &nm, tasks_min, tasks_max);

    meta = cJSON_AddObjectToObject(root, "ec2fit");
    cJSON_AddStringToObject(meta, "instance_type", p->inst->type);
    cJSON_AddStringToObject(meta, "region", p->region);
    cJSON_AddStringToObject(meta, "purchase", p->spot ? "spot" : "on-demand");
    cJSON_AddNumberToObject(meta, "min_instances", r->asg_min);
    cJSON_AddNumberToObject(meta, "max_instances", r->asg_max);
    cJSON_AddNumberToObject(meta, "min_tasks", tasks_min);
    cJSON_AddNumberToObject(meta, "max_tasks", tasks_max);
    cJSON_AddStringToObject(meta, "auto_scaling_group", nm.asg);
    o = cJSON_AddObjectToObject(meta, "image");
    cJSON_AddStringToObject(o, "family", im->family);
    cJSON_AddStringToObject(o, "ssm_parameter", im->ssm_parameter);
    o = cJSON_AddObjectToObject(meta, "engine");
    cJSON_AddStringToObject(o, "name", en.engine);
    if (en.img) {
        cJSON_AddStringToObject(o, "image", en.img->image);
        cJSON_AddStringToObject(o, "version", en.img->version);
        cJSON_AddStringToObject(o, "source", en.img->source);
        cJSON_AddStringToObject(o, "as_of", en.img->as_of);
    } else {
        cJSON_AddNullToObject(o, "image");
    }
    cJSON_AddNumberToObject(o, "port", en.port);
    cJSON_AddStringToObject(o, "health_path", en.health_path);
    ecf_render_json_add_num(o, "startup_s", p->startup_s, 1);
    cJSON_AddNumberToObject(o, "health_check_start_period_s",
                            en.start_period_s);
    cJSON_AddNumberToObject(o, "health_check_grace_period_s", en.grace_s);
    o = cJSON_AddObjectToObject(meta, "task_memory");
    cJSON_AddNumberToObject(o, "installed_mib", (double)inst_mib);
    cJSON_AddNumberToObject(o, "registered_mib", (double)reg_mib);
    cJSON_AddNumberToObject(o, "ecs_reserved_memory_mib",
                            ECS_RESERVED_MEMORY_MIB);
    cJSON_AddNumberToObject(o, "task_mib", (double)task_mib);
    ecf_render_json_add_num(meta, "target_utilization_pct",
                     nm.target_fraction * 100, 1);
    inputs = cJSON_AddArrayToObject(meta, "inputs");
    add_input(inputs, "EXECUTION_ROLE_ARN", "taskDefinition.executionRoleArn",
              "IAM role ECS uses to pull the image and read the secret "
              "(AmazonECSTaskExecutionRolePolicy + secretsmanager:"
              "GetSecretValue on the secret)");
    if (nm.llm)
        add_input(inputs, "HF_TOKEN_SECRET_ARN",
                  "taskDefinition.containerDefinitions[0].secrets",
                  "Secrets Manager secret (or SSM parameter) ARN holding a "
                  "Hugging Face token; gated models need it");
    if (!r->opts.async) {
        add_input(inputs, "TARGET_GROUP_ARN", "service.loadBalancers",
                  "target group (target type instance) of the load balancer "
                  "in front of the service");
        add_input(inputs, "ALB_RESOURCE_LABEL",
                  "scalingPolicy ResourceLabel",
                  "app/<load-balancer-name>/<id>/targetgroup/"
                  "<target-group-name>/<id>");
    }
    if (en.img && strcmp(en.engine, "triton") == 0)
        add_input(inputs, "MODEL_REPOSITORY",
                  "taskDefinition.containerDefinitions[0].environment",
                  "Triton model repository, e.g. s3://bucket/models");
    if (!en.img)
        add_input(inputs, "SERVING_IMAGE",
                  "taskDefinition.containerDefinitions[0].image",
                  "your serving image, pinned to a tag, listening on port "
                  "8000 and answering GET /health when ready (curl in the "
                  "image)");
    notes = cJSON_AddArrayToObject(meta, "notes");
    snprintf(buf, sizeof(buf),
             "set ECS_RESERVED_MEMORY=%d in /etc/ecs/ecs.config: the task "
             "memory leaves it free",
             ECS_RESERVED_MEMORY_MIB);
    cJSON_AddItemToArray(notes, cJSON_CreateString(buf));
    if ((long)p->inst->vcpu * ECS_CPU_UNITS_PER_VCPU > ECS_TASK_CPU_MAX_UNITS) {
        snprintf(buf, sizeof(buf),
                 "task cpu left unset: %s's %d vCPUs are more than the 192 "
                 "(196608 CPU units) a task definition accepts; the one "
                 "task per instance uses them all",
                 p->inst->type, p->inst->vcpu);
        cJSON_AddItemToArray(notes, cJSON_CreateString(buf));
    }
    if (st == ECF_STACK_NEURON)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "TENSOR_PARALLEL_SIZE counts NeuronCores"));
    snprintf(buf, sizeof(buf),
             "create the log group first: aws logs create-log-group "
             "--log-group-name /ecs/%s --region %s",
             nm.base, region);
    cJSON_AddItemToArray(notes, cJSON_CreateString(buf));
    if (r->opts.async)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "--async: the scaling policy reads Container "
                       "Insights' RunningTaskCount (enable containerInsights "
                       "on the cluster)"));
    if (p->spot)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "rank 1 is spot: give the Auto Scaling group spot "
                       "capacity (launch template InstanceMarketOptions or "
                       "a mixed instances policy)"));
    ecf_render_json_print(f, root);
    free(imgs);
    return 0;
}
