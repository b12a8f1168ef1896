#!/usr/bin/env python3
"""validate_karpenter.py - checks `ec2fit recommend --output karpenter` YAML
against Karpenter's v1 CRD schemas (tests/fixtures/karpenter, vendored from
aws/karpenter-provider-aws; SOURCES.md there).

Usage: validate_karpenter.py CRD_DIR FILE.yaml [CATALOG.json]

Each document is validated with python3-jsonschema against the CRD's v1
openAPIV3Schema, made strict as `kubectl apply --validate=strict` is (an
unknown field is an error, not pruned), plus the CEL rules
(x-kubernetes-validations) that matter here, which jsonschema cannot run:
the restricted requirement keys, EC2NodeClass role xor instanceProfile and
the alias family. With the catalog it also checks that no NodePool mixes
NVIDIA and Neuron types and that the taint matches the types' accelerator.
Prints one line per problem; exit 1 if any, 0 otherwise.
"""
import json
import sys

import jsonschema
import yaml


def strict(s):
    """additionalProperties: false wherever the CRD lists properties and does
    not preserve unknown fields (the server prunes them; kubectl strict
    validation refuses them)."""
    if isinstance(s, dict):
        if ("properties" in s and "additionalProperties" not in s
                and not s.get("x-kubernetes-preserve-unknown-fields")):
            s["additionalProperties"] = False
        for v in s.values():
            strict(v)
    elif isinstance(s, list):
        for v in s:
            strict(v)
    return s


def crd_schema(path):
    crd = yaml.safe_load(open(path))
    v1 = [v for v in crd["spec"]["versions"] if v["name"] == "v1"][0]
    s = strict(v1["schema"]["openAPIV3Schema"])
    # metadata is ObjectMeta, checked by the API server itself
    s["properties"]["metadata"] = {"type": "object"}
    return crd["spec"]["group"], crd["spec"]["names"]["kind"], s


ALLOWED_KARPENTER_KEYS = {"karpenter.sh/capacity-type"}


def cel_nodepool(doc, err):
    for r in doc["spec"]["template"]["spec"].get("requirements", []):
        k = r["key"]
        dom = k.split("/")[0] if "/" in k else ""
        if dom.endswith("karpenter.sh") and k not in ALLOWED_KARPENTER_KEYS:
            err(f"requirement key {k}: label domain karpenter.sh is restricted")
        if k == "kubernetes.io/hostname":
            err("requirement key kubernetes.io/hostname is restricted")
        if r["operator"] == "In" and not r.get("values"):
            err(f"requirement {k}: In needs values")
    ref = doc["spec"]["template"]["spec"]["nodeClassRef"]
    for f in ("group", "kind", "name"):
        if not ref.get(f):
            err(f"nodeClassRef.{f} may not be empty")


def cel_nodeclass(doc, err):
    spec = doc["spec"]
    if ("role" in spec) == ("instanceProfile" in spec):
        err("must specify exactly one of ['role', 'instanceProfile']")
    for t in spec["amiSelectorTerms"]:
        if "alias" in t:
            fam = t["alias"].split("@")[0]
            if fam not in ("al2", "al2023", "bottlerocket", "windows2019",
                           "windows2022", "windows2025"):
                err(f"alias family {fam} is not supported")


def main():
    crd_dir, path = sys.argv[1], sys.argv[2]
    catalog = json.load(open(sys.argv[3])) if len(sys.argv) > 3 else None
    schemas = {}
    for f in ("karpenter.sh_nodepools.yaml",
              "karpenter.k8s.aws_ec2nodeclasses.yaml"):
        g, kind, s = crd_schema(f"{crd_dir}/{f}")
        schemas[(f"{g}/v1", kind)] = s
    problems = []
    docs = [d for d in yaml.safe_load_all(open(path)) if d is not None]
    if not docs:
        problems.append("no YAML document")
    for i, doc in enumerate(docs):
        def err(msg, i=i):
            problems.append(f"document {i + 1}: {msg}")
        key = (doc.get("apiVersion"), doc.get("kind"))
        if key not in schemas:
            err(f"unexpected apiVersion/kind {key}")
            continue
        v = jsonschema.Draft7Validator(schemas[key])
        for e in sorted(v.iter_errors(doc), key=lambda e: list(e.path)):
            err(f"{'.'.join(map(str, e.path)) or '(root)'}: {e.message}")
        if key[1] == "NodePool" and "spec" in doc:
            try:
                cel_nodepool(doc, err)
            except KeyError as e:
                err(f"missing {e}")
            if catalog is not None:
                check_devices(doc, catalog, err)
        elif key[1] == "EC2NodeClass" and "spec" in doc:
            cel_nodeclass(doc, err)
    for p in problems:
        print(f"{path}: {p}")
    return 1 if problems else 0


def check_devices(doc, catalog, err):
    """One device plugin per NodePool, and the taint/limit that names it."""
    accel = {a["id"]: a for a in catalog.get("accelerators", [])}
    by_type = {i["instance_type"] if "instance_type" in i else i["type"]: i
               for i in catalog["instances"]}
    kinds = set()
    spec = doc["spec"]["template"]["spec"]
    for r in spec["requirements"]:
        if r["key"] != "node.kubernetes.io/instance-type":
            continue
        for t in r["values"]:
            inst = by_type.get(t)
            if inst is None:
                err(f"{t}: not in the catalog")
                continue
            a = inst.get("accelerator") or {}
            aid = a.get("id") if isinstance(a, dict) else a
            vendor = (accel.get(aid, {}).get("vendor") or "").lower() if aid else ""
            kinds.add("nvidia" if vendor == "nvidia" else
                      "neuron" if vendor in ("aws", "amazon") else
                      "cpu" if not aid else "other")
    if len(kinds) > 1:
        err(f"NodePool mixes device plugins: {sorted(kinds)}")
    taints = {t["key"] for t in spec.get("taints", [])}
    want = {"nvidia": {"nvidia.com/gpu"}, "neuron": {"aws.amazon.com/neuron"}}
    for k in kinds:
        if want.get(k, set()) != taints:
            err(f"{k} NodePool has taints {sorted(taints)}")
        for res in want.get(k, set()):
            if res not in doc["spec"].get("limits", {}):
                err(f"{k} NodePool has no limit on {res}")


if __name__ == "__main__":
    sys.exit(main())
