#!/usr/bin/env bash
# --output karpenter: complete karpenter.sh/v1 NodePools, one per device
# plugin, that validate against Karpenter's own v1 CRD schemas (vendored in
# tests/fixtures/karpenter, python3-jsonschema + python3-yaml), with
# --node-class-spec an EC2NodeClass too; the documented merge keeps the
# user's requirements (docs/karpenter.md).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && cd "$WORK" || exit 1
if ! python3 -c 'import jsonschema, yaml' 2>/dev/null; then
  echo "python3-jsonschema or python3-yaml missing"; skip=1; finish; fi
CRD="$SRC_DIR/tests/fixtures/karpenter" V="$SRC_DIR/tests/tools/validate_karpenter.py"
CAT="$SRC_DIR/data/catalog.json"
valid() { python3 "$V" "$CRD" "$1" "$CAT"; }
y() { python3 -c 'import sys, yaml, json; print(json.dumps([d for d in yaml.safe_load_all(open(sys.argv[1])) if d]))' "$1"; }

# a job on NVIDIA (resnet50 training): one NodePool
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output karpenter > train.yaml
check "train: exit 0" test $? -eq 0
check "train: valid against the v1 CRDs" valid train.yaml
y train.yaml > train.json
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output json > train-rec.json
check "train: one NodePool, nvidia taint, default node class" jq -e 'length == 1 and .[0].kind == "NodePool"
  and .[0].spec.template.spec.nodeClassRef == {"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":"default"}
  and .[0].spec.template.spec.taints == [{"key":"nvidia.com/gpu","value":"true","effect":"NoSchedule"}]' train.json
check "train: the top 5 types of --output json, in rank order" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json '
  ($a[0][0].spec.template.spec.requirements[] | select(.key == "node.kubernetes.io/instance-type").values)
  == ([$r[0].recommendations[].instance_type] | reduce .[] as $t ([]; if index([$t]) then . else . + [$t] end))'
check "train: job disruption (WhenEmpty, never expires, drift budget 0)" jq -e '.[0] |
  .spec.disruption.consolidationPolicy == "WhenEmpty" and .spec.template.spec.expireAfter == "Never"
  and .spec.disruption.budgets[0] == {"nodes":"0","reasons":["Drifted"]}' train.json
# limits: the largest plan of the pool (nodes x the catalog's figures)
check "train: limits = max over plans of nodes x vCPU / memory / GPUs" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json --slurpfile c "$CAT" '
  ($c[0].instances | map({(.type): .}) | add) as $t | $r[0].recommendations as $p |
  ([$p[] | .nodes * $t[.instance_type].vcpu] | max | tostring) == $a[0][0].spec.limits.cpu and
  (([$p[] | .nodes * $t[.instance_type].memory_gib] | max | tostring) + "Gi") == $a[0][0].spec.limits.memory and
  ([$p[] | .nodes * $t[.instance_type].accelerator.count] | max | tostring) == $a[0][0].spec.limits["nvidia.com/gpu"]'
check "train: capacity type from the purchase options" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json '
  ($a[0][0].spec.template.spec.requirements[] | select(.key == "karpenter.sh/capacity-type").values | sort)
  == ([$r[0].recommendations[].purchase] | unique | sort)'

# serving on NVIDIA and Neuron: never one NodePool for both
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --top 8 --node-class gpu-al2023 --node-class-spec --output karpenter > serve.yaml
check "serve: exit 0" test $? -eq 0
check "serve: valid against the v1 CRDs (NodePools and EC2NodeClass)" valid serve.yaml
y serve.yaml > serve.json
# pools come in the order of their best plan's rank; the node class last
check "serve: NVIDIA and Neuron NodePools, then the EC2NodeClass" jq -e '([.[:2][] | .kind + ":" + .metadata.name] | sort) ==
  ["NodePool:ec2fit-llama-3-1-8b-neuron", "NodePool:ec2fit-llama-3-1-8b-nvidia"] and (.[2].kind + ":" + .[2].metadata.name) == "EC2NodeClass:gpu-al2023"' serve.json
check "serve: Neuron pool tainted and limited on aws.amazon.com/neuron" jq -e '.[] | select(.metadata.name == "ec2fit-llama-3-1-8b-neuron") | .spec.template.spec.taints[0].key == "aws.amazon.com/neuron"
  and (.spec.limits | has("aws.amazon.com/neuron")) and (.spec.limits | has("nvidia.com/gpu") | not)' serve.json
check "serve: nodeClassRef from --node-class" jq -e 'all(.[:2][]; .spec.template.spec.nodeClassRef.name == "gpu-al2023")' serve.json
check "serve: serving disruption (consolidate when under-used, 720h expiry)" jq -e '.[0] |
  .spec.disruption.consolidationPolicy == "WhenEmptyOrUnderutilized" and .spec.template.spec.expireAfter == "720h"' serve.json
check "serve: on-demand only (serving default: no spot)" jq -e 'all(.[:2][]; (.spec.template.spec.requirements[] | select(.key == "karpenter.sh/capacity-type").values) == ["on-demand"])' serve.json
check "serve: EC2NodeClass AL2023 alias, role, selectors" jq -e '.[2].spec.amiSelectorTerms == [{"alias":"al2023@latest"}]
  and .[2].spec.role == "KarpenterNodeRole-${CLUSTER_NAME}"' serve.json
check "serve: the EKS AMI parameters of images.json in the comments" grep -qF "/aws/service/eks/optimized-ami/{kubernetes_version}/amazon-linux-2023/x86_64/neuron/recommended/image_id" serve.yaml
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --top 8 --node-class-spec=bottlerocket --output karpenter > br.yaml
check "bottlerocket: valid" valid br.yaml
check "bottlerocket: alias and the nvidia image" sh -c 'grep -qx "    - alias: \"bottlerocket@latest\"" br.yaml && grep -qF "aws-k8s-{kubernetes_version}-nvidia/x86_64" br.yaml'

# bad flags: usage errors naming the flag
"$EC2FIT" recommend --model resnet50 --task train --output karpenter --node-class-spec=ubuntu > /dev/null 2> err.txt
check "bad --node-class-spec: exit 2" test $? -eq 2
check "bad --node-class-spec: message" \
  grep -qx "ec2fit: recommend: --node-class-spec: expected al2023 or bottlerocket, got 'ubuntu'" err.txt
"$EC2FIT" recommend --model resnet50 --task train --output karpenter --node-class My_Class > /dev/null 2> err.txt
check "bad --node-class: exit 2" test $? -eq 2
check "bad --node-class: message" grep -qF "ec2fit: recommend: --node-class: expected a Kubernetes name" err.txt

# the validator catches what the old fragment lacked, and a mixed pool
python3 - train.yaml > broken.yaml <<'PY'
import sys, yaml
d = list(yaml.safe_load_all(open(sys.argv[1])))[0]
del d["spec"]["template"]["spec"]["nodeClassRef"]
print(yaml.safe_dump(d))
PY
check "validator: a NodePool without nodeClassRef is invalid" sh -c "! python3 '$V' '$CRD' broken.yaml"
python3 - serve.yaml > mixed.yaml <<'PY'
import sys, yaml
d = list(yaml.safe_load_all(open(sys.argv[1])))
r = d[0]["spec"]["template"]["spec"]["requirements"][0]
r["values"] += d[1]["spec"]["template"]["spec"]["requirements"][0]["values"]
print(yaml.safe_dump(d[0]))
PY
check "validator: a NodePool mixing NVIDIA and Neuron is refused" sh -c "! python3 '$V' '$CRD' mixed.yaml '$CAT'"
python3 - train.yaml > typo.yaml <<'PY'
import sys, yaml
d = list(yaml.safe_load_all(open(sys.argv[1])))[0]
d["spec"]["disruption"]["consolidateAfterr"] = "1m"
print(yaml.safe_dump(d))
PY
check "validator: an unknown field is refused (strict)" sh -c "! python3 '$V' '$CRD' typo.yaml"

# the documented merge keeps the user's own requirements (docs/karpenter.md)
if command -v yq >/dev/null; then
  cat > mine.yaml <<'YAML'
apiVersion: karpenter.sh/v1
kind: NodePool
spec:
  template:
    spec:
      requirements:
        - key: topology.kubernetes.io/zone
          operator: In
          values: ["us-east-1a", "us-east-1b"]
YAML
  yq -y -s '.[0] as $mine | .[1:][] | if .kind == "NodePool" then .spec.template.spec.requirements += $mine.spec.template.spec.requirements else . end' mine.yaml serve.yaml > merged.yaml
  check "merge: still valid" valid merged.yaml
  y merged.yaml > merged.json
  check "merge: the user's zone requirement kept in every NodePool, ec2fit's too" jq -e '[.[] | select(.kind == "NodePool") | [.spec.template.spec.requirements[].key]]
    == [range(2) | ["node.kubernetes.io/instance-type","karpenter.sh/capacity-type","kubernetes.io/arch","topology.kubernetes.io/zone"]]' merged.json
  check "docs/karpenter.md shows the tested merge" grep -qF "yq -y -s '.[0] as \$mine | .[1:][] | if .kind == \"NodePool\" then .spec.template.spec.requirements += \$mine.spec.template.spec.requirements else . end' mine.yaml ec2fit.yaml" "$SRC_DIR/docs/karpenter.md"
else
  echo "yq missing"; skip=1
fi
finish
