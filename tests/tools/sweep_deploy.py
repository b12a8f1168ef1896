#!/usr/bin/env python3
"""sweep_deploy.py - `--output ecs` and `--output cloudwatch` over a sweep
of generated serving workloads (issue 25).

Usage: sweep_deploy.py EC2FIT SRC_DIR OUT_DIR [MIN_WORKLOADS]

Generates a deterministic sweep of serving workloads (every zoo model x
request rates x, for LLMs, the engines vllm/tgi and --async) and, for each
with a rank 1 (--output json exits 0), renders ecs and cloudwatch and
checks, against the data files and the JSON of the same run:

  ecs (exit 0)  every input validates against the vendored botocore models
                (RegisterTaskDefinition, CreateCapacityProvider,
                CreateService, RegisterScalableTarget, PutScalingPolicy);
                the scalable target's MinCapacity/MaxCapacity equal the JSON
                autoscaling min_instances/max_instances (one task per
                instance) and desiredCount the minimum; the image is pinned
                (a tag, not latest) and is the data/engine_images.json entry
                of the engine for rank 1's family, or the ${SERVING_IMAGE}
                input for a non-LLM no entry covers; every required field
                is present (executionRoleArn, logConfiguration, healthCheck
                with startPeriod <= 300, healthCheckGracePeriodSeconds >=
                startPeriod, loadBalancers unless --async, HF_TOKEN secret
                for LLMs, scaling policy target = JSON target_value).
  ecs (exit 3)  only when rank 1 spans instances (nodes_per_replica > 1 in
                the JSON); exit 1 only for an LLM whose engine has no pinned
                image for the family, or no ECS AMI (arm64 GPU).
  cloudwatch    validates (PutMetricAlarm, PutRule, PutTargets); every
                alarm has AlarmActions; every rule has a target (the SNS
                input) and its pattern is scoped to the group by
                detail.AutoScalingGroupName; LLM plans of vllm/neuron/tgi
                carry the engine queue alarm.

Prints one line per failure and a summary; exit 1 on any failure or when
fewer than MIN_WORKLOADS (default 200) workloads had a rank 1.
"""
import json
import os
import re
import subprocess
import sys

from botocore.model import ServiceModel
from botocore.validate import ParamValidator

EC2FIT, SRC, OUT = sys.argv[1], sys.argv[2], sys.argv[3]
MIN_N = int(sys.argv[4]) if len(sys.argv) > 4 else 200
MODELS_DIR = os.path.join(SRC, "tests", "fixtures", "botocore")
VERSIONS = {"ecs": "2014-11-13", "cloudwatch": "2010-08-01", "events": "2015-10-07",
            "application-autoscaling": "2016-02-06"}
ENGINE_IMAGES = json.load(open(os.path.join(SRC, "data/engine_images.json")))["images"]
CAT = json.load(open(os.path.join(SRC, "data/catalog.json")))
ACC = {a["id"]: a for a in CAT["accelerators"]}
TYPES = {i["type"]: i for i in CAT["instances"]}
ZOO = json.load(open(os.path.join(SRC, "data/models.json")))["models"]
LLM_KINDS = ("decoder", "moe")
QUEUE = {"vllm": "vllm:num_requests_waiting", "neuron": "vllm:num_requests_waiting",
         "tgi": "tgi_queue_size"}

models = {}
failures = []


def shape(service, op):
    if service not in models:
        path = os.path.join(MODELS_DIR, service, VERSIONS[service], "service-2.json")
        models[service] = ServiceModel(json.load(open(path)), service_name=service)
    return models[service].operation_model(op).input_shape


def invalid(service, op, params):
    report = ParamValidator().validate(params, shape(service, op))
    return report.generate_report() if report.has_errors() else None


def stack_of(t):
    a = t.get("accelerator")
    if not a:
        return "cpu"
    acc = ACC[a["id"]]
    if acc["kind"] == "neuron":
        return "neuron"
    if acc["kind"] == "gpu" and acc["vendor"] == "NVIDIA":
        return "nvidia"
    return None


def engine_entry(engine, llm, t):
    """engine_images.c ecf_engine_images_for, from the data file itself."""
    same = [e for e in ENGINE_IMAGES if e["engine"] == engine
            and (e["models"] == "llm") == llm and e["stack"] == stack_of(t)
            and e["arch"] == t["arch"]]
    listed = [e for e in same if t["family"] in e["families"]]
    anyf = [e for e in same if e["families"] == ["*"]]
    return (listed or anyf or [None])[0]


def pinned(image):
    if "@" in image:
        return True
    tail = image.rsplit("/", 1)[-1]
    return ":" in tail and tail.split(":", 1)[1] not in ("", "latest")


def run(args):
    p = subprocess.run([EC2FIT] + args, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def fail(wl, what):
    failures.append(f"{' '.join(wl)}: {what}")


def check_ecs(wl, rec, auto, llm, async_):
    rc, out, err = run(wl + ["--output", "ecs"])
    t = TYPES[rec["instance_type"]]
    if rc == 3:
        if rec.get("nodes_per_replica", 1) <= 1:
            fail(wl, "ecs exit 3 without a spanning replica")
        return "spans"
    if rc == 1:
        if not ("no ECS-optimized AMI" in err or (llm and "no pinned" in err)):
            fail(wl, f"ecs exit 1: {err.strip()}")
        return "no-image"
    if rc != 0:
        fail(wl, f"ecs exit {rc}: {err.strip()}")
        return "error"
    doc = json.loads(out)
    for key, svc, op in (("taskDefinition", "ecs", "RegisterTaskDefinition"),
                         ("capacityProvider", "ecs", "CreateCapacityProvider"),
                         ("service", "ecs", "CreateService"),
                         ("scalableTarget", "application-autoscaling", "RegisterScalableTarget"),
                         ("scalingPolicy", "application-autoscaling", "PutScalingPolicy")):
        if key not in doc:
            fail(wl, f"ecs: no {key}")
            return "error"
        bad = invalid(svc, op, doc[key])
        if bad:
            fail(wl, f"ecs {key}: {bad}")
    st, svc, td = doc["scalableTarget"], doc["service"], doc["taskDefinition"]
    # RegisterTaskDefinition, cpu: 128 to 196608 CPU units (192 vCPUs) on
    # EC2; larger types leave it out (docs/deploy.md "cpu")
    want_cpu = t["vcpu"] * 1024
    if ("cpu" in td) != (want_cpu <= 196608) or \
            ("cpu" in td and not 128 <= int(td["cpu"]) == want_cpu):
        fail(wl, f"ecs task cpu {td.get('cpu')} for {t['vcpu']} vCPUs")
    if not 128 <= int(td["memory"]) <= t["memory_gib"] * 1024:
        fail(wl, f"ecs task memory {td['memory']} MiB on {t['memory_gib']} GiB")
    if st["MinCapacity"] != auto["min_instances"] or st["MaxCapacity"] != auto["max_instances"]:
        fail(wl, f"ecs autoscaling {st['MinCapacity']}/{st['MaxCapacity']} != plan "
                 f"{auto['min_instances']}/{auto['max_instances']}")
    if svc["desiredCount"] != auto["min_instances"]:
        fail(wl, "ecs desiredCount != min_instances")
    tv = doc["scalingPolicy"]["TargetTrackingScalingPolicyConfiguration"]["TargetValue"]
    if abs(tv - auto["target_value"]) > 0.01:
        fail(wl, f"ecs TargetValue {tv} != plan {auto['target_value']}")
    c = td["containerDefinitions"][0]
    entry = engine_entry(doc["ec2fit"]["engine"]["name"], llm, t)
    if entry:
        if c["image"] != entry["image"] or not pinned(c["image"]):
            fail(wl, f"ecs image {c['image']} is not {entry['image']}")
    elif llm or c["image"] != "${SERVING_IMAGE}":
        fail(wl, f"ecs image {c['image']} without an engine_images.json entry")
    hc = c.get("healthCheck", {})
    if not td.get("executionRoleArn") or c.get("logConfiguration", {}).get("logDriver") != "awslogs" \
            or not hc.get("command") or not (0 <= hc.get("startPeriod", -1) <= 300) \
            or svc.get("healthCheckGracePeriodSeconds", -1) < hc.get("startPeriod", 0):
        fail(wl, "ecs: execution role, awslogs, health check or grace period missing")
    if svc.get("healthCheckGracePeriodSeconds") != -(-rec["startup_s"] // 1) and \
            abs(svc.get("healthCheckGracePeriodSeconds", 0) - rec["startup_s"]) > 1:
        fail(wl, "ecs grace period is not the plan's startup_s")
    if (not async_) != ("loadBalancers" in svc):
        fail(wl, "ecs loadBalancers present iff not --async")
    if llm and [s["name"] for s in c.get("secrets", [])] != ["HF_TOKEN"]:
        fail(wl, "ecs: LLM without the HF_TOKEN secret")
    return "ok"


def check_cw(wl, llm):
    rc, out, err = run(wl + ["--output", "cloudwatch"])
    if rc != 0:
        fail(wl, f"cloudwatch exit {rc}: {err.strip()}")
        return 0
    doc = json.loads(out)
    for a in doc["alarms"]:
        if not a.get("AlarmActions"):
            fail(wl, f"alarm {a['AlarmName']} has no action")
        bad = invalid("cloudwatch", "PutMetricAlarm", a)
        if bad:
            fail(wl, f"alarm {a['AlarmName']}: {bad}")
    targets = {t["Rule"]: t for t in doc["event_targets"]}
    asg = None
    for r in doc["event_rules"]:
        bad = invalid("events", "PutRule", r)
        if bad:
            fail(wl, f"rule {r['Name']}: {bad}")
        pat = json.loads(r["EventPattern"])
        names = pat.get("detail", {}).get("AutoScalingGroupName")
        if not names or len(names) != 1:
            fail(wl, f"rule {r['Name']} not scoped to the group")
        asg = names[0] if names else asg
        t = targets.get(r["Name"])
        if not t or not t["Targets"]:
            fail(wl, f"rule {r['Name']} has no target")
            continue
        bad = invalid("events", "PutTargets", t)
        if bad:
            fail(wl, f"targets of {r['Name']}: {bad}")
    if len(targets) != len(doc["event_rules"]) or not doc["event_rules"]:
        fail(wl, "event_targets do not match event_rules one to one")
    return len(doc["alarms"])


def workloads():
    for m in ZOO:
        llm = m["kind"] in LLM_KINDS
        for qps in ("1", "5", "50"):
            yield [m["name"], qps, None, False], llm
            if llm:
                yield [m["name"], qps, "tgi", False], llm
                yield [m["name"], qps, None, True], llm


def main():
    os.makedirs(OUT, exist_ok=True)
    n = 0
    outcomes, families, alarms = {}, {}, 0
    for (name, qps, engine, async_), llm in workloads():
        wl = ["recommend", "--model", name, "--task", "infer", "--qps", qps]
        if engine:
            wl += ["--engine", engine]
        if async_:
            wl += ["--async"]
        rc, out, _ = run(wl + ["--output", "json"])
        if rc != 0:
            continue
        j = json.loads(out)
        if not j.get("recommendations"):
            continue
        rec, auto = j["recommendations"][0], j["autoscaling"]
        n += 1
        fam = TYPES[rec["instance_type"]]["family"]
        families[fam] = families.get(fam, 0) + 1
        o = check_ecs(wl, rec, auto, llm, async_)
        outcomes[o] = outcomes.get(o, 0) + 1
        alarms += check_cw(wl, llm)
    for f in failures:
        print("FAIL:", f)
    print(f"{n} workloads with a rank 1; ecs: " +
          ", ".join(f"{k} {v}" for k, v in sorted(outcomes.items())) +
          f"; cloudwatch: {alarms} alarms")
    print("rank-1 families: " + " ".join(f"{k} {v}" for k, v in sorted(families.items())))
    sys.exit(1 if failures or n < MIN_N else 0)


if __name__ == "__main__":
    main()
