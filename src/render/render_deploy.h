/* render_deploy.h - what the ECS and CloudWatch renderers share: the names
 * of the AWS resources they refer to, the rank-1 plan's per-instance
 * figures, and the serving engine's parameters (docs/deploy.md). */
#ifndef EC2FIT_RENDER_DEPLOY_H
#define EC2FIT_RENDER_DEPLOY_H

#include <stdbool.h>
#include <stddef.h>

#include "recommend_render.h"

typedef struct {
    char base[96];       /* "ec2fit-llama-3-1-8b": family, service, cluster */
    char asg[112];       /* "<base>-asg": the Auto Scaling group */
    char queue[112];     /* "<base>-requests": the SQS queue (async) */
    char capacity_provider[112]; /* "<base>-cp" */
    char model_id[128];  /* Hugging Face repo id, or the zoo name */
    bool llm;            /* decoder / moe: served by vLLM */
    double per_instance_qps;   /* rank 1 capacity / instances */
    double target_fraction;    /* Auto Scaling target / per-instance capacity */
    double expected_fraction;  /* --qps / fleet capacity (0 without --qps) */
    int tensor_parallel;       /* devices per node; on Neuron the NeuronCores
                                  the runtime exposes
                                  (ecf_estimate_neuron_cores) */
    const char *engine;        /* the serving engine rank 1 was estimated
                                  with ("vllm", "tgi", "neuron", "triton",
                                  ...; static), from its estimate */
} rd_names;

/** Fills `out` for the rank-1 plan (the view must hold one). */
void ecf_deploy_names_init(rd_names *out, const rr_view *v);

/* How a plan's nodes are placed, the same in JSON, tfvars, tf-external and
 * Karpenter (docs/terraform.md "Placement"). A multi-node training plan
 * exchanges gradients every step: its nodes get every EFA interface of
 * the type and a cluster placement group, which holds one Availability
 * Zone. A zone-group plan (Local or Wavelength Zone) runs in that zone. */
typedef struct {
    bool multi_node;         /* training over more than one node */
    int efa_interfaces;      /* multi-node: the type's EFA count; else 0 */
    bool cluster_placement;  /* multi-node: a "cluster" placement group */
    bool single_az;          /* all nodes in one Availability Zone */
    char zone[80];           /* the zone name of a zone-group plan, or "" */
} rd_placement;

/** Fills `out` for plan p of the view. */
void ecf_deploy_placement_init(rd_placement *out, const rr_view *v,
                       const ecf_plan *p);

#endif
