#!/usr/bin/env python3
# Writes docs/schema/*.schema.json (JSON Schema draft 2020-12), the machine
# contract of every JSON document ec2fit prints. Shared objects (catalog,
# price, accelerator) are written once here and inlined into each file so
# that every schema stands alone. Run: python3 tools/gen_schemas.py
# (tests/scripts/test_json_schema.sh checks the files are up to date).
import json
import os
import sys

D = "https://json-schema.org/draft/2020-12/schema"
BASE = "https://github.com/ec2fit/ec2fit/blob/main/docs/schema/"

NUM = {"type": "number"}
INT = {"type": "integer"}
STR = {"type": "string"}
BOOL = {"type": "boolean"}
NNUM = {"type": ["number", "null"]}
NINT = {"type": ["integer", "null"]}
NONNEG = {"type": "number", "minimum": 0}
POSINT = {"type": "integer", "minimum": 1}


def obj(props, optional=(), extra=False):
    """An object whose every property is required except `optional`."""
    o = {"type": "object", "properties": props,
         "required": [k for k in props if k not in optional]}
    if not extra:
        o["additionalProperties"] = False
    return o


def enum(*vals):
    return {"enum": list(vals)}


def arr(items):
    return {"type": "array", "items": items}


def version(v):
    return {"const": v, "description": "bumped on a breaking change (docs/output-schema.md)"}


DATE = {"type": "string", "pattern": r"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
REGION = {"type": "string", "pattern": r"^[a-z]{2}(-[a-z]+)+-[0-9]+$"}
# a Local Zone ("us-west-2-lax-1") or Wavelength ("us-east-1-wl1-bos1")
# group: the catalog prices it, but it is not a region
ZONE_GROUP = {"type": "string", "pattern": r"^[a-z]{2}(-[a-z]+)+-[0-9]+-[a-z0-9-]+$"}
LOCATION = {"anyOf": [REGION, ZONE_GROUP]}
TYPE = {"type": "string", "pattern": r"^[a-z0-9-]+\.[a-z0-9-]+$"}
PRECISION = enum("fp32", "tf32", "fp16", "bf16", "fp8", "int8", "int4")
TASK = enum("train", "finetune", "lora", "qlora", "infer", "batch")
MODEL_KIND = enum("cnn", "vit", "encoder", "decoder", "moe", "speech", "diffusion")
PARALLELISM = enum("single", "dp", "fsdp", "tp", "tp+dp", "tp+pp", "tp+fsdp",
                   "zero-1", "zero-2", "nxd")
BOTTLENECK = enum("compute", "memory-bandwidth", "communication", "data",
                  "host-memory", "device-memory")
PURCHASE = enum("on-demand", "spot", "reserved-1y", "savings-plan-1y",
                "savings-plan-3y", "capacity-block")
THROUGHPUT_UNIT = enum("images/s", "samples/s", "tokens/s", "requests/s")

# age_days: whole days from as_of to the day of the run (null when the
# caller passed no date: a library client); optional, added in issue 26
CATALOG = obj({"source": STR, "as_of": DATE,
               "age_days": {"type": ["integer", "null"], "minimum": 0},
               "generated_at": STR}, optional=("age_days",))
PRICE_PROPS = {
    "ondemand_usd_per_hour": NONNEG,
    "reserved_1y_usd_per_hour": NNUM,
    "spot_usd_per_hour": NNUM,
    "spot_estimated": BOOL,
    "spot_savings_pct": {"type": ["integer", "null"], "maximum": 99,
                         "description": "Spot Advisor savings vs on-demand, whole percent"},
    "interruption_band": {"type": ["integer", "null"], "minimum": 0, "maximum": 4},
    # since issue 26, only where AWS publishes a rate (additive: optional)
    "capacity_block_usd_per_hour": dict(NONNEG, description="EC2 Capacity Blocks for ML: the published effective instance hourly rate of a reservation (docs/estimation.md)"),
    # issue 26, only where AWS publishes the rate (additive: optional)
    "savings_plan_1y_usd_per_hour": dict(NONNEG, description="the lowest published no-upfront 1-year Savings Plan rate (EC2 Instance, else Compute; docs/rules.md)"),
    "savings_plan_3y_usd_per_hour": dict(NONNEG, description="the lowest published no-upfront 3-year Savings Plan rate (docs/rules.md)"),
}
PRICE_OPTIONAL = ("capacity_block_usd_per_hour", "savings_plan_1y_usd_per_hour",
                  "savings_plan_3y_usd_per_hour")
PRICE = obj(PRICE_PROPS, optional=PRICE_OPTIONAL)
PRICE_SHOW = obj(dict(PRICE_PROPS, interruption_range=STR, region=REGION, zone_group=ZONE_GROUP),
                 optional=("interruption_range", "region", "zone_group") + PRICE_OPTIONAL)
ACCEL_PROPS = {
    "id": STR, "model": STR, "kind": enum("gpu", "neuron", "other"),
    "count": POSINT, "memory_gib": NONNEG, "total_memory_gib": NONNEG,
    "fraction": {"type": "number", "exclusiveMinimum": 0, "maximum": 1},
    "interconnect": enum("none", "pcie", "nvlink", "nvswitch", "neuronlink", "other"),
    "interconnect_gbytes_s": NONNEG,
}
ACCEL = {"oneOf": [{"type": "null"}, obj(ACCEL_PROPS)]}
TFLOPS = obj({p: NNUM for p in PRECISION["enum"]})
ACCEL_SHOW = {"oneOf": [{"type": "null"}, obj(dict(
    ACCEL_PROPS, vendor=STR, generation=STR, memory_bw_gbytes_s=NNUM,
    tflops=TFLOPS, tdp_w=NNUM))]}
INSTANCE_PROPS = {
    "instance_type": TYPE, "family": STR, "vcpu": POSINT, "memory_gib": NONNEG,
    "arch": enum("x86_64", "arm64"), "accelerator": ACCEL,
    "network_gbps": NONNEG, "efa": BOOL, "efa_gbps": NONNEG,
    "ebs_gbps": NONNEG, "nvme_gb": NONNEG,
}


def doc(name, title, body, v):
    body = dict(body)
    body["properties"] = dict({"schema_version": version(v)}, **body["properties"])
    body["required"] = ["schema_version"] + body["required"]
    return dict({"$schema": D, "$id": BASE + name, "title": title}, **body)


# --region all: top-level "all" and one entry per (type, region), each with
# its "region"
LIST = doc("list.schema.json", "ec2fit list --output json", obj({
    "catalog": CATALOG, "region": {"oneOf": [LOCATION, {"const": "all"}]},
    "purchase": enum("on-demand", "spot"),
    "count": {"type": "integer", "minimum": 0},
    "instances": arr(obj(dict(INSTANCE_PROPS, region=LOCATION, zone_group=ZONE_GROUP,
                              price={"oneOf": [{"type": "null"}, PRICE]}),
                         optional=("region", "zone_group"))),
}), 1)
LIST["allOf"] = [{
    "if": {"properties": {"region": {"const": "all"}}},
    "then": {"properties": {"instances": {"items": {"required": ["region"]}}}},
    "else": {"properties": {"instances": {"items": {"not": {"required": ["region"]}}}}},
}]

SHOW = doc("show.schema.json", "ec2fit show TYPE --output json", obj({
    "catalog": CATALOG,
    "instance": obj(dict(INSTANCE_PROPS, accelerator=ACCEL_SHOW, cpu={
        "oneOf": [{"type": "null"}, obj({
            "gflops": obj({"fp32": NONNEG, "bf16": NONNEG, "int8": NONNEG}),
            "memory_bw_gbytes_s": NONNEG})],
        "description": "host CPU peak of a CPU-only type (data/sources/cpu_families.csv); null when unknown or accelerated"}, prices={
        "type": "object", "propertyNames": LOCATION,
        "additionalProperties": PRICE_SHOW})),
}), 1)

NPOS_OR_NULL = {"type": ["integer", "null"], "minimum": 1}
MODELS = doc("models.schema.json", "ec2fit models --output json", obj({
    "models": arr(obj({
        "name": STR, "display": STR, "aliases": arr(STR), "kind": MODEL_KIND,
        "params": POSINT, "active_params": POSINT,
        "layers": NPOS_OR_NULL, "hidden": NPOS_OR_NULL, "heads": NPOS_OR_NULL,
        "kv_heads": NPOS_OR_NULL, "intermediate": NPOS_OR_NULL,
        "vocab": NPOS_OR_NULL, "max_context": NPOS_OR_NULL,
        "experts": NPOS_OR_NULL, "experts_per_tok": NPOS_OR_NULL,
        "fwd_gflops_per_sample": NNUM, "input_bytes_per_sample": NONNEG,
        "default_batch": POSINT, "default_seq_len": NPOS_OR_NULL,
        "image_size": NPOS_OR_NULL, "kv_dim_per_layer": NPOS_OR_NULL,
        "diffusion_steps": NPOS_OR_NULL, "cfg_passes": NPOS_OR_NULL,
        "source": STR,
    })),
}), 1)

# --explain only (estimate: top level; recommend: rank 1's plan): the
# training plans the search tried, or the serving terms of one step
# (docs/output-schema.md "--explain")
NNONNEG = {"type": ["number", "null"], "minimum": 0}
PLAN_TRIED = obj({
    "strategy": PARALLELISM, "tp": POSINT, "pp": POSINT, "dp": POSINT,
    "micro_batches": POSINT,
    "virtual_stages": dict(POSINT, description="interleaved 1F1B: model chunks per pipeline device (1: plain 1F1B)"),
    "batch": POSINT, "recompute": BOOL,
    "fits": dict(BOOL, description="fits with the search's headroom"),
    "gib_per_device": NONNEG,
    "step_s": dict(NNONNEG, description="null when the plan does not fit (no step runs)"),
    "samples_per_s": dict(NNONNEG, description="null when the plan does not fit"),
    "chosen": BOOL})
# LLM serving: the KV-cache tokens one replica has room for beside its
# weights and workspace (vLLM's '# GPU blocks' x 16; docs/estimation.md
# "KV capacity"); null for training and non-LLM models
KV_CAPACITY = {"type": ["integer", "null"], "minimum": 0,
               "description": "LLM serving: KV-cache tokens one replica has room for (vLLM's '# GPU blocks' x block size); null otherwise"}
# LLM online serving: the service level the batch was chosen within, the
# tighter of each target and the default (MLPerf Inference server scenario:
# TTFT 2000 ms, TPOT 200 ms; docs/estimation.md 5.4 "Default service level")
SERVICE_LEVEL = {"oneOf": [{"type": "null"}, obj({
    "ttft_ms": {"type": "number", "exclusiveMinimum": 0},
    "tpot_ms": {"type": "number", "exclusiveMinimum": 0}})],
    "description": "LLM online serving: the TTFT and TPOT bounds the batch is chosen within (the tighter of each target and the default); null otherwise"}
SERVICE_LEVEL_EXPLAIN = {"oneOf": [{"type": "null"}, obj({
    "ttft_ms": {"type": "number", "exclusiveMinimum": 0},
    "tpot_ms": {"type": "number", "exclusiveMinimum": 0},
    "admission_limit": POSINT})]}
SERVING_BREAKDOWN = obj({
    "engine": enum("vllm", "tgi", "trtllm", "hf", "tf-serving", "triton",
                   "neuron", "tensorrt"),
    "engine_reason": STR,
    "step": dict(enum("decode", "forward"), description="LLMs: one decode step at the batch; other models: one forward of the batch"),
    "host_ms_per_step": NNONNEG, "layer_dispatch_ms": NNONNEG,
    "dispatch_ms": NNONNEG, "forward_overhead_ms": NNONNEG,
    "read_gb": dict(NONNEG, description="bytes read per step per device, 10^9 (LLM: weights)"),
    "kv_read_gb": NNONNEG, "bandwidth_gbytes_s": NONNEG,
    "memory_ms": NONNEG, "compute_ms": NONNEG, "allreduce_ms": NONNEG,
    "gemm_ms": NNONNEG, "attention_ms": NNONNEG,
    "gemm_bound": {"oneOf": [{"type": "null"}, enum("memory", "compute")]},
    "attention_bound": {"oneOf": [{"type": "null"}, enum("memory", "compute")]},
    "launch_bound": {"type": ["boolean", "null"]},
    "pipeline_hops_ms": NNONNEG,
    "prefill_interleave_ms": NNONNEG, "tpot_ms": NNONNEG,
    "ttft": {"oneOf": [{"type": "null"}, obj({
        "prefill_ms": NONNEG, "join_ms": NONNEG, "queue_ms": NONNEG,
        "total_ms": NONNEG})]},
    "kv_capacity_tokens": KV_CAPACITY,
    "batch": POSINT,
    "batch_limited_by": {"oneOf": [{"type": "null"}, enum(
        "batch-size", "model-default", "memory", "latency-ms", "ttft-ms",
        "tpot-ms", "knee", "max-batch", "throughput")]},
    "knee_ms": NNONNEG, "target_ms": NNONNEG,
    "service_level": SERVICE_LEVEL_EXPLAIN,
    "next_batch": {"type": ["integer", "null"], "minimum": 1},
    "next_batch_gib_per_device": NNONNEG, "next_batch_ms": NNONNEG},
    optional=("service_level",))
EXPLAIN_PROPS = {"plans_tried": arr(PLAN_TRIED), "chosen_reason": STR,
                 "serving_breakdown": SERVING_BREAKDOWN}

STORAGE_KIND = enum("s3", "gp3", "fsx", "efs", "nvme")
# docs/estimation.md "Ranges": the likely range of a figure beside it (low
# <= the figure <= high, rounded as the figure), from the calibration rows
# of the class that set it (schema-compatible addition: optional)
RANGE = obj({
    "low": NONNEG, "high": NONNEG,
    "basis_rows": dict(POSINT, description="calibration rows behind the range"),
    "basis_kind": enum("train_throughput", "time_to_train", "infer_throughput",
                       "infer_latency", "memory"),
    "basis_class": dict(STR, description="family/task/generation/engine, * = any"),
    "basis_level": enum("class", "family-task-engine", "family-task",
                        "family", "kind"),
    "high_past_block": dict(BOOL, description="capacity-block total_usd: "
                            "the high time needs more than one 182-day "
                            "block; high is that block's cost")},
    optional=("high_past_block",))
RANGE_KEYS = ("time_hours", "throughput", "latency_ms", "ttft_ms",
              "per_token_ms", "memory_per_device_gib", "total_usd",
              "monthly_usd")
RANGES = dict(obj({k: RANGE for k in RANGE_KEYS}, optional=RANGE_KEYS),
              description="likely ranges of the figures (docs/estimation.md, Ranges)")

ESTIMATE = doc("estimate.schema.json", "ec2fit estimate --output json", obj({
    "catalog": CATALOG,
    "model": obj({"name": STR, "kind": MODEL_KIND, "params": POSINT,
                  "active_params": POSINT}),
    "task": TASK, "precision": PRECISION, "instance": TYPE, "fits": BOOL,
    "devices": POSINT, "nodes": POSINT, "parallelism": PARALLELISM,
    "strategy": dict(STR, description="the plan's strategy as run: \"nxd tp8 pp1 zero1\" for NeuronX Distributed, else the parallelism"),
    "tp_degree": POSINT, "dp_degree": POSINT, "pp_degree": POSINT,
    "batch_size": POSINT,
    "global_batch": dict(NPOS_OR_NULL, description="training: samples per optimizer step over all replicas (batch_size x dp_degree x grad_accum_steps), the user's whatever the parallelism; null for serving"),
    "grad_accum_steps": dict(NPOS_OR_NULL, description="training: micro-batches per optimizer step on each replica (pipeline or gradient accumulation); null for serving"),
    "seq_len": NPOS_OR_NULL,
    "activation_checkpointing": BOOL,
    "memory": obj(dict({k: NONNEG for k in (
        "weights_gib", "gradients_gib", "optimizer_gib", "activations_gib",
        "kv_cache_gib", "lora_gib", "overhead_gib", "total_per_device_gib",
        "available_per_device_gib")},
        kv_cache_dtype={"oneOf": [{"type": "null"}, enum("bf16", "fp16", "fp8", "fp32")],
                        "description": "LLM serving: the KV cache's element type (--kv-cache-dtype, auto resolved); null otherwise"},
        kv_capacity_tokens={"type": ["integer", "null"], "minimum": 0,
                            "description": "LLM serving: KV-cache tokens one replica has room for within the serving fit; null otherwise"})),
    "peak_tflops": NONNEG, "utilization": NONNEG,
    "step_time_s": dict(NNONNEG, description="null when the plan does not fit (fits false): no time, no cost"),
    "compute_s": NONNEG, "memory_s": NONNEG, "communication_s": NONNEG,
    "throughput": obj({"value": dict(NNONNEG, description="null when the plan does not fit"), "unit": THROUGHPUT_UNIT}),
    "samples_per_s": dict(NNONNEG, description="null when the plan does not fit"),
    "tokens_per_s": NNUM,
    "time_hours": dict(NNONNEG, description="null when the plan does not fit"),
    "startup_s": dict(NONNEG, description="per-node start-up (boot, image pull, weights read; or --startup), included in time_hours"),
    "compile_s": dict(NONNEG, description="Neuron training: the first run's graph compile (neuronx-cc, neuron_parallel_compile), s, included in time_hours; cached runs skip it; present only when positive (docs/estimation.md 7, Graph compilation)"),
    "latency_ms": NNUM, "ttft_ms": NNUM, "per_token_ms": NNUM,
    "service_level": SERVICE_LEVEL,
    "max_qps_per_replica": NNUM, "replicas": NINT,
    "bottleneck": BOTTLENECK,
    "data": obj({"required_mbytes_s": NONNEG, "available_mbytes_s": NONNEG,
                 "source": STORAGE_KIND, "dataset_gb": NONNEG,
                 "capacity_gb": NONNEG, "provisioned_mbytes_s": NONNEG,
                 "decode_slowdown": {"type": "number", "minimum": 1}}),
    "host": obj({"ram_needed_gib": NONNEG, "ram_available_gib": NONNEG,
                 "vcpus_per_accelerator": NONNEG,
                 "vcpus_per_accelerator_needed": NONNEG}),
    "cost": {"oneOf": [{"type": "null"}, obj({
        "region": LOCATION, "zone_group": ZONE_GROUP,
        "ondemand_usd_per_hour": NONNEG, "total_usd": NNUM,
        "burst_surcharge_usd_per_hour": dict(NONNEG, description="burstable type in unlimited mode (t3/t3a/t4g): a job's surplus credits above the baseline, all nodes, included in ondemand_usd_per_hour and total_usd (docs/estimation.md, Burstable CPUs); 0 otherwise")},
        optional=("zone_group", "burst_surcharge_usd_per_hour"))]},
    "warnings": arr(STR), "assumptions": arr(STR),
    "stack": obj({"framework": enum("pytorch", "tensorflow", "jax"),
                  "engine": {"oneOf": [{"type": "null"}, enum(
                      "vllm", "tgi", "trtllm", "hf", "tf-serving", "triton",
                      "neuron", "tensorrt")]},
                  "platform": STR,
                  "status": enum("supported", "unverified", "unsupported"),
                  "reason": {"type": "string"}, "source": STR}),
    "ranges": RANGES,
    **EXPLAIN_PROPS,
}, optional=("ranges", "service_level", "catalog", "compile_s", *EXPLAIN_PROPS)), 1)

NNUM_POS = {"type": ["number", "null"], "exclusiveMinimum": 0}
NNUM_POS_ = NNUM_POS
REJECTION = obj({"instance_type": TYPE, "region": LOCATION,
                 "zone_group": ZONE_GROUP, "purchase": PURCHASE,
                 "rule": STR, "reason": STR}, optional=("zone_group",))
PLAN_OPTIONAL = ("zone_group", "placement", "latency_ms", "ttft_ms", "per_token_ms", "capacity_qps",
                 "interruption_band", "expected_interruptions",
                 "spot_savings_pct", "plan_savings_pct", "storage",
                 "cost_breakdown", "purchase_options",
                 "auto_scaling", "interruption_probability", "capacity_caveat",
                 "ranges", "notes", "capacity_block", "burstable", "compile_s",
                 *EXPLAIN_PROPS)
# serving plans: what each purchase option would cost the plan's fleet
# (docs/rules.md "Purchase options")
PURCHASE_ROW = obj({
    "usd_per_hour": NNUM_POS_, "monthly_usd": NNUM_POS_,
    "break_even_utilization_pct": {"type": ["number", "null"], "minimum": 0},
    "estimated": dict(BOOL, description="a bound from a published discount, not a catalog rate")})
# since issue 26, on capacity-scarce types only (additive: optional): an
# On-Demand Capacity Reservation of the always-on instances, at on-demand
PURCHASE_ROW_ODCR = dict(obj(dict(PURCHASE_ROW["properties"], reserved_instances=POSINT,
                                  discounts_apply=BOOL)),
                         description="On-Demand Capacity Reservation of the always-on instances: the on-demand rate whether they run or not; Savings Plans and regional RIs apply (docs/rules.md)")
PURCHASE_OPTIONS = obj({
    "on-demand": PURCHASE_ROW, "reserved-1y": PURCHASE_ROW,
    "savings-plan-1y": PURCHASE_ROW, "savings-plan-3y": PURCHASE_ROW,
    "capacity-reservation": PURCHASE_ROW_ODCR,
    "chosen": PURCHASE, "monthly_saving_usd": NONNEG}, optional=("capacity-reservation",))
PLAN_ASG = obj({"min_instances": POSINT, "desired_instances": POSINT,
                "max_instances": POSINT, "expected_instances": NONNEG,
                "warm_pool_size": {"type": "integer", "minimum": 0}})
PLAN = obj({
    "rank": POSINT, "instance_type": TYPE, "family": STR, "nodes": POSINT,
    "nodes_per_replica": POSINT, "purchase": PURCHASE, "region": REGION,
    "zone_group": ZONE_GROUP,
    "accelerator": {"oneOf": [{"type": "null"}, obj({
        "model": STR, "id": STR, "count": POSINT, "memory_gib": NONNEG,
        "used_per_node": POSINT})]},
    "parallelism": PARALLELISM,
    "memory": obj({"required_per_device_gib": NONNEG,
                   "available_per_device_gib": NONNEG, "headroom_pct": NUM,
                   "kv_capacity_tokens": dict(KV_CAPACITY, description="LLM inference (infer, batch): KV-cache tokens one replica has room for within the serving fit, as estimate's memory.kv_capacity_tokens; null otherwise")}),
    "time_hours": NNUM_POS, "hourly_usd": NONNEG, "total_usd": NNUM_POS,
    "startup_s": dict(NONNEG, description="per-node start-up included in time_hours (docs/estimation.md, Fixed overheads)"),
    "compile_s": dict(NONNEG, description="Neuron training: the first run's graph compile, s, included in time_hours; cached runs skip it; present only when positive (docs/estimation.md 7, Graph compilation)"),
    "capacity": {"type": ["string", "null"], "description": "set for types usually bought through EC2 Capacity Blocks for ML or a reservation"},
    "monthly_usd": NNUM_POS, "usd_per_million": NNUM_POS,
    "per_million_unit": enum("samples", "tokens", "requests"),
    "price_estimated": dict(BOOL, description="on-demand price derived from us-east-1 x the region's median ratio (--estimate-missing-prices)"),
    "storage": obj({"kind": STORAGE_KIND, "monthly_usd": NONNEG,
                    "price_estimated": BOOL}),
    "cost_breakdown": obj({"instances_usd": NNUM, "storage_usd": NNUM}),
    "throughput": obj({"value": NONNEG, "unit": THROUGHPUT_UNIT}),
    "latency_ms": NONNEG, "ttft_ms": NNUM_POS, "per_token_ms": NNUM_POS,
    "capacity_qps": NONNEG, "bottleneck": BOTTLENECK,
    "interruption_band": {"type": ["integer", "null"], "minimum": 0, "maximum": 4},
    "expected_interruptions": NONNEG,
    "spot_savings_pct": PRICE_PROPS["spot_savings_pct"],
    "plan_savings_pct": dict(NUM, description="this plan's saving vs the on-demand plan of the same type, interruption rework included, 1 decimal"),
    "interruption_probability": {"type": "number", "minimum": 0, "maximum": 1},
    "capacity_caveat": STR,
    "burstable": dict(obj({
        "credit_mode": enum("unlimited", "standard"),
        "baseline_pct_per_vcpu": NONNEG, "load_pct_per_vcpu": NONNEG,
        "surcharge_usd_per_hour": NONNEG}),
        description="t-family types (docs/estimation.md, Burstable CPUs): the launch default's credit mode, the published baseline and the plan's mean load per vCPU (1 decimal), and in unlimited mode the surplus credits above the baseline, whole plan, included in hourly_usd"),
    "purchase_options": PURCHASE_OPTIONS,
    "auto_scaling": PLAN_ASG,
    "score": NUM,
    "image": {"oneOf": [{"type": "null"}, obj({"family": STR,
                                                 "ssm_parameter": STR,
                                                 "supported_families": dict(arr(STR), description="the image's published support matrix, EC2 families; [\"*\"] when none narrower was published (docs/deploy.md#images)"),
                                                 "note": dict({"type": ["string", "null"]}, description="end-of-support facts for this image and type, or null")},
                                                optional=("supported_families", "note"))]},
    "placement": dict(obj({
        "efa_interfaces": dict(NINT, description="multi-node training: the type's EFA interfaces, all attached; else null"),
        "placement_group_strategy": {"enum": ["cluster", None]},
        "single_availability_zone": BOOL,
        "availability_zone": {"type": ["string", "null"]},
    }), description="how the plan's nodes are placed (docs/terraform.md \"Placement\")"),
    "marks": arr(enum("cheapest", "fastest", "best-value")),
    "warnings": arr(obj({"rule": STR, "reason": STR})),
    "notes": dict(arr(STR), description="facts about the plan that are not a problem: a serving fleet's per-replica capacity and the replicas that meet the load (in place of the estimator's below-the-load warning for one replica)"),
    "ranges": RANGES,
    "capacity_block": dict(obj({
        "days": dict(POSINT, maximum=182), "instances": dict(POSINT, maximum=256),
        "blocks": POSINT, "usd_per_hour": NONNEG, "window_usd": NONNEG}),
        description="capacity-block plans: the reserved window (whole days, 1-14 then by 7 to 182), the instances it holds in blocks of 1-64, the published hourly rate per instance, and the window's cost (total_usd less storage)"),
    **EXPLAIN_PROPS,
}, optional=PLAN_OPTIONAL)
# spot plans carry the spot fields, on-demand plans none of them
PLAN["allOf"] = [{
    "if": {"properties": {"purchase": {"const": "spot"}}},
    "then": {"required": ["interruption_band", "expected_interruptions",
                          "spot_savings_pct", "plan_savings_pct"]},
    "else": {"not": {"anyOf": [{"required": [k]} for k in (
        "interruption_band", "expected_interruptions", "spot_savings_pct",
        "plan_savings_pct")]}},
}]
NPOS = NNUM_POS
RECOMMEND_PROPS = {
    "catalog": CATALOG, "rules": STR,
    "workload": obj({
        "model": STR, "model_kind": MODEL_KIND, "params": POSINT, "task": TASK,
        "precision": PRECISION, "batch_size": POSINT, "seq_len": NPOS_OR_NULL,
        "input_tokens": POSINT, "output_tokens": POSINT,
        "dataset_samples": NPOS, "epochs": {"type": "number", "exclusiveMinimum": 0},
        "qps": NPOS, "peak_qps": NPOS, "latency_ms": NPOS,
        "ttft_ms": NPOS, "tpot_ms": NPOS, "service_level": SERVICE_LEVEL,
        "deadline_hours": NPOS, "budget_usd": NPOS, "budget_hourly_usd": NPOS,
        "regions": {"type": "array", "items": LOCATION, "minItems": 1},
        "spot_considered": BOOL, "max_nodes": POSINT,
        "optimize": enum("cost", "time", "balanced"),
        "storage": enum("auto", "s3", "gp3", "fsx", "efs", "nvme"),
        "storage_throughput_mbytes_s": NPOS,
        "estimate_missing_prices": BOOL,
    }, optional=("input_tokens", "output_tokens", "service_level")),
    "cost_basis": enum("total", "per_million", "monthly"),
    "notes": arr(STR),
    "missing_prices": arr(obj({
        "region": LOCATION, "zone_group": ZONE_GROUP,
        "families": arr(STR), "median_ratio": NNUM_POS,
        "ratio_families": {"type": "integer", "minimum": 0},
        "estimated": BOOL, "fix": STR}, optional=("zone_group",))),
    "recommendations": arr(PLAN),
    "autoscaling": obj({"min_instances": POSINT, "max_instances": POSINT,
                        "target_qps_per_instance": NONNEG,
                        "desired_instances": POSINT,
                        "expected_instances": NONNEG,
                        "target_utilization_pct": {"type": "number", "exclusiveMinimum": 0, "maximum": 100},
                        "peak_qps_defaulted": BOOL,
                        "policy": enum("alb-request-count-per-target",
                                       "sqs-backlog-per-instance"),
                        "target_value": NONNEG, "max_wait_s": NONNEG,
                        "scale_out_cooldown_s": NONNEG,
                        "scale_in_cooldown_s": NONNEG,
                        "warm_pool_size": {"type": "integer", "minimum": 0},
                        "start_time_s": NONNEG,
                        "fallback_cpu": {"oneOf": [{"type": "null"}, obj({
                            "instance_type": TYPE, "min_instances": POSINT,
                            "max_instances": POSINT,
                            "capacity_qps_per_instance": NONNEG,
                            "monthly_usd": NONNEG})]}},
                       optional=("max_wait_s", "fallback_cpu")),
    "alternatives": arr({"oneOf": [
        obj({"kind": enum("lambda", "lightsail"), "name": STR,
             "feasible": {"const": True}, "memory_gib": NONNEG,
             "vcpus": NONNEG, "latency_ms": NONNEG,
             "instances": {"type": "integer", "minimum": 0},
             "monthly_usd": NONNEG, "usd_per_million": NONNEG,
             "cheaper_than_rank_1": BOOL, "price_estimated": BOOL}),
        obj({"kind": enum("lambda", "lightsail"), "name": STR,
             "feasible": {"const": False}, "reason": STR}),
    ]}),
    "summary": obj({"candidates": {"type": "integer", "minimum": 0},
                    "plans": {"type": "integer", "minimum": 0},
                    "rejected": {"type": "integer", "minimum": 0},
                    # since issue 26, only when some plan is a capacity block
                    "capacity_block_plans": {"type": "integer", "minimum": 1}},
                   optional=("capacity_block_plans",)),
    "closest_misses": {"type": "array", "items": REJECTION, "maxItems": 5},
    "rejected": arr(REJECTION),
}
RECOMMEND_OPTIONAL = ("autoscaling", "alternatives", "closest_misses", "rejected")
REC_VERSION = 2
RECOMMEND = doc("recommend.schema.json", "ec2fit recommend --output json",
                obj(RECOMMEND_PROPS, optional=RECOMMEND_OPTIONAL), REC_VERSION)

_line = obj(dict({"line": POSINT}, **RECOMMEND_PROPS), optional=RECOMMEND_OPTIONAL)
_line["properties"]["schema_version"] = version(REC_VERSION)
_line["required"] = ["line", "schema_version"] + _line["required"][1:]
BATCH = {"$schema": D, "$id": BASE + "recommend-batch-line.schema.json",
         "title": "one line of ec2fit recommend --batch (JSON Lines)",
         "oneOf": [_line, obj({"line": POSINT, "error": STR,
                               "exit_code": {"const": 2}})]}

TF_KEYS = ("schema_version", "instance_type", "instance_count", "use_spot",
           "region", "zone_group", "hourly_usd", "monthly_usd", "total_usd",
           "catalog_as_of")
TF_EXTERNAL = {"$schema": D, "$id": BASE + "tf-external.schema.json",
               "title": "ec2fit tf-external (Terraform data \"external\": every value a string)",
               **obj({
                   "schema_version": {"const": "1"},
                   "instance_type": TYPE,
                   "instance_count": {"type": "string", "pattern": "^[1-9][0-9]*$"},
                   "use_spot": enum("true", "false"),
                   "region": REGION,
                   "zone_group": {"anyOf": [ZONE_GROUP, {"const": ""}]},
                   "hourly_usd": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+$"},
                   "monthly_usd": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   "total_usd": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   # the high ends of the likely ranges ("" when none)
                   "monthly_usd_high": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   "total_usd_high": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   "time_hours_high": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   "catalog_as_of": DATE,
                   # whole days from catalog_as_of to the run ("" unknown)
                   "catalog_age_days": {"type": "string", "pattern": "^([0-9]+)?$"},
                   "purchase": PURCHASE,
                   # serving only: the Auto Scaling group
                   "asg_min_size": {"type": "string", "pattern": "^([1-9][0-9]*)?$"},
                   "asg_max_size": {"type": "string", "pattern": "^([1-9][0-9]*)?$"},
                   "asg_desired_capacity": {"type": "string", "pattern": "^([1-9][0-9]*)?$"},
                   "target_value": {"type": "string", "pattern": r"^([0-9]+\.[0-9]+)?$"},
                   "warm_pool_size": {"type": "string", "pattern": "^[0-9]*$"},
                   # since issue 25: one key set for every task ("" where
                   # not applicable); optional so older outputs still validate
                   "scaling_policy": {"enum": ["", "alb-request-count-per-target", "sqs-backlog-per-instance"]},
                   "node_hourly_usd": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+$"},
                   "fleet_hourly_usd": {"type": "string", "pattern": r"^[0-9]+\.[0-9]+$"},
                   "efa_interfaces": {"type": "string", "pattern": "^([1-9][0-9]*)?$"},
                   "placement_group_strategy": enum("", "cluster"),
                   "single_availability_zone": enum("true", "false"),
                   "availability_zone": {"type": "string"},
                   "ami_ssm_parameter": {"type": "string", "pattern": "^(/.*)?$"},
               }, optional=("asg_min_size", "asg_max_size",
                            "asg_desired_capacity", "target_value",
                            "warm_pool_size", "scaling_policy",
                            "node_hourly_usd", "fleet_hourly_usd",
                            "efa_interfaces", "placement_group_strategy",
                            "single_availability_zone", "availability_zone",
                            "ami_ssm_parameter", "catalog_age_days"))}

ALL = {"list.schema.json": LIST, "show.schema.json": SHOW,
       "models.schema.json": MODELS, "estimate.schema.json": ESTIMATE,
       "recommend.schema.json": RECOMMEND,
       "recommend-batch-line.schema.json": BATCH,
       "tf-external.schema.json": TF_EXTERNAL}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(
        os.path.dirname(__file__), "..", "docs", "schema")
    os.makedirs(out, exist_ok=True)
    for name, schema in ALL.items():
        with open(os.path.join(out, name), "w") as f:
            json.dump(schema, f, indent=2)
            f.write("\n")


if __name__ == "__main__":
    main()
