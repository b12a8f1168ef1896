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
 *                    per instance
 *   ec2fit           not an API input: the plan, image and arithmetic
 */
#include "recommend_render.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

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
/* vLLM's OpenAI-compatible server listens on 8000 by default. */
#define ENGINE_PORT 8000
/* CreateCapacityProvider managedScaling.instanceWarmupPeriod default. */
#define ECS_INSTANCE_WARMUP_S 300

#define VLLM_IMAGE "vllm/vllm-openai:latest"
#define NEURON_VLLM_IMAGE "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx"
#define OWN_IMAGE "<your serving image>"

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

static cJSON *container(const rr_view *v, const rd_names *nm, ecf_stack st)
{
    const ecf_plan *p = &v->rec->plans[0];
    cJSON *c = cJSON_CreateObject(), *e, *pm, *port;
    char buf[32];
    int k;

    cJSON_AddStringToObject(c, "name", "engine");
    cJSON_AddStringToObject(c, "image",
                            !nm->llm                ? OWN_IMAGE
                            : st == ECF_STACK_NEURON ? NEURON_VLLM_IMAGE
                                                     : VLLM_IMAGE);
    cJSON_AddBoolToObject(c, "essential", true);
    if (nm->llm) {
        /* The engine reads its settings from the environment below, so
         * they can be changed without touching the command. */
        static const char *const ep[] = {"/bin/sh", "-c"};
        static const char *const cmd[] = {
            "exec vllm serve \"$MODEL_ID\" --tensor-parallel-size "
            "\"$TENSOR_PARALLEL_SIZE\" --port \"$PORT\""};
        cJSON_AddItemToObject(c, "entryPoint", strings(ep, 2));
        cJSON_AddItemToObject(c, "command", strings(cmd, 1));
    }
    e = cJSON_AddArrayToObject(c, "environment");
    env(e, "MODEL_ID", nm->model_id);
    snprintf(buf, sizeof(buf), "%d", nm->tensor_parallel);
    env(e, "TENSOR_PARALLEL_SIZE", buf);
    snprintf(buf, sizeof(buf), "%d", ENGINE_PORT);
    env(e, "PORT", buf);
    pm = cJSON_AddArrayToObject(c, "portMappings");
    port = cJSON_CreateObject();
    cJSON_AddNumberToObject(port, "containerPort", ENGINE_PORT);
    cJSON_AddNumberToObject(port, "hostPort", ENGINE_PORT);
    cJSON_AddStringToObject(port, "protocol", "tcp");
    cJSON_AddItemToArray(pm, port);
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

int rr_print_ecs(FILE *f, FILE *errf, const rr_view *v)
{
    const ecf_recommendation *r = v->rec;
    const ecf_plan *p = &r->plans[0];
    ecf_stack st = ecf_images_stack(p->inst);
    const ecf_image *im =
        ecf_images_for(v->images, ECF_IMAGE_USE_ECS, p->inst);
    rd_names nm;
    cJSON *root, *td, *cp, *asgp, *ms, *svc, *meta, *arr, *o, *notes;
    char buf[256];
    long inst_mib, reg_mib, task_mib;
    int target_pct, step;

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
    rd_names_init(&nm, v);
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
    arr = cJSON_AddArrayToObject(td, "requiresCompatibilities");
    cJSON_AddItemToArray(arr, cJSON_CreateString("EC2"));
    cJSON_AddStringToObject(td, "networkMode", "host");
    if (nm.llm && nm.tensor_parallel > 1)
        /* Tensor-parallel workers exchange tensors through shared memory,
         * which a container's 64 MB /dev/shm cannot hold: vLLM's Docker
         * guide asks for --ipc=host (or a large --shm-size); ECS's EC2
         * launch type takes the same as the task's ipcMode. */
        cJSON_AddStringToObject(td, "ipcMode", "host");
    snprintf(buf, sizeof(buf), "%d", p->inst->vcpu * ECS_CPU_UNITS_PER_VCPU);
    cJSON_AddStringToObject(td, "cpu", buf);
    snprintf(buf, sizeof(buf), "%ld", task_mib);
    cJSON_AddStringToObject(td, "memory", buf);
    arr = cJSON_AddArrayToObject(td, "containerDefinitions");
    cJSON_AddItemToArray(arr, container(v, &nm, st));
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
    cJSON_AddNumberToObject(svc, "desiredCount",
                            r->asg_min / (p->nodes_per_group > 0
                                              ? p->nodes_per_group
                                              : 1));
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

    meta = cJSON_AddObjectToObject(root, "ec2fit");
    cJSON_AddStringToObject(meta, "instance_type", p->inst->type);
    cJSON_AddStringToObject(meta, "region", p->region);
    cJSON_AddStringToObject(meta, "purchase", p->spot ? "spot" : "on-demand");
    cJSON_AddNumberToObject(meta, "min_instances", r->asg_min);
    cJSON_AddNumberToObject(meta, "max_instances", r->asg_max);
    cJSON_AddStringToObject(meta, "auto_scaling_group", nm.asg);
    o = cJSON_AddObjectToObject(meta, "image");
    cJSON_AddStringToObject(o, "family", im->family);
    cJSON_AddStringToObject(o, "ssm_parameter", im->ssm_parameter);
    o = cJSON_AddObjectToObject(meta, "task_memory");
    cJSON_AddNumberToObject(o, "installed_mib", (double)inst_mib);
    cJSON_AddNumberToObject(o, "registered_mib", (double)reg_mib);
    cJSON_AddNumberToObject(o, "ecs_reserved_memory_mib",
                            ECS_RESERVED_MEMORY_MIB);
    cJSON_AddNumberToObject(o, "task_mib", (double)task_mib);
    cli_json_add_num(meta, "target_utilization_pct",
                     nm.target_fraction * 100, 1);
    notes = cJSON_AddArrayToObject(meta, "notes");
    snprintf(buf, sizeof(buf),
             "set ECS_RESERVED_MEMORY=%d in /etc/ecs/ecs.config: the task "
             "memory leaves it free",
             ECS_RESERVED_MEMORY_MIB);
    cJSON_AddItemToArray(notes, cJSON_CreateString(buf));
    if (st == ECF_STACK_NEURON)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "pin a tag of the Neuron vLLM image from "
                       "github.com/aws-neuron/deep-learning-containers; "
                       "TENSOR_PARALLEL_SIZE counts NeuronCores"));
    if (nm.llm)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "gated models (Llama) need HF_TOKEN: add it to the "
                       "container's secrets (valueFrom Secrets Manager)"));
    if (p->spot)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "rank 1 is spot: give the Auto Scaling group spot "
                       "capacity (launch template InstanceMarketOptions or "
                       "a mixed instances policy)"));
    if (!nm.llm)
        cJSON_AddItemToArray(
            notes, cJSON_CreateString(
                       "not an LLM: put your own serving image in "
                       "containerDefinitions[0].image"));
    cli_json_print(f, root);
    return 0;
}
