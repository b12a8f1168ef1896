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

# a job on NVIDIA (resnet50 training): one NodePool per ranked choice
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output karpenter > train.yaml
check "train: exit 0" test $? -eq 0
check "train: valid against the v1 CRDs" valid train.yaml
y train.yaml > train.json
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output json > train-rec.json
# the pools: the ranked (type, capacity type) choices in rank order, each
# pinned to its one type, weights 100, 99, ...
check "train: one pool per ranked choice, one type each, weights by rank" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json '
  ([$r[0].recommendations[] | {t: .instance_type, c: (if .purchase == "spot" then "spot" else "on-demand" end)}]
   | reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end)) as $want |
  [$a[0][] | {t: (.spec.template.spec.requirements[] | select(.key == "node.kubernetes.io/instance-type").values | if length == 1 then .[0] else "MANY" end),
              c: (.spec.template.spec.requirements[] | select(.key == "karpenter.sh/capacity-type").values[0])}] == $want
  and [$a[0][].spec.weight] == [range(100; 100 - ($want | length); -1)]'
check "train: rank 1 pool named from the plan, its own node class (never default)" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json '
  $a[0][0].metadata.name == ("ec2fit-resnet50-" + ($r[0].recommendations[0].instance_type | gsub("\\."; "-")) + (if $r[0].recommendations[0].purchase == "spot" then "-spot" else "" end))
  and all($a[0][]; .spec.template.spec.nodeClassRef == {"group":"karpenter.k8s.aws","kind":"EC2NodeClass","name":.metadata.name})
  and all($a[0][]; .spec.template.spec.taints == [{"key":"nvidia.com/gpu","value":"true","effect":"NoSchedule"}])'
check "train: job disruption (WhenEmpty, never expires, drift budget 0)" jq -e '.[0] |
  .spec.disruption.consolidationPolicy == "WhenEmpty" and .spec.template.spec.expireAfter == "Never"
  and .spec.disruption.budgets[0] == {"nodes":"0","reasons":["Drifted"]}' train.json
# limits: the pool's plan (nodes x the catalog's figures)
check "train: limits = nodes x vCPU / memory / GPUs of the pool's plan" jq -e -n --slurpfile a train.json --slurpfile r train-rec.json --slurpfile c "$CAT" '
  ($c[0].instances | map({(.type): .}) | add) as $t | $r[0].recommendations[0] as $p | $a[0][0].spec.limits as $l |
  ($p.nodes * $t[$p.instance_type].vcpu | tostring) == $l.cpu and
  (($p.nodes * $t[$p.instance_type].memory_gib | tostring) + "Gi") == $l.memory and
  ($p.nodes * $t[$p.instance_type].accelerator.count | tostring) == $l["nvidia.com/gpu"]'

# serving on NVIDIA and Neuron: a shared --node-class
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --top 8 --node-class gpu-al2023 --node-class-spec --output karpenter > serve.yaml
check "serve: exit 0" test $? -eq 0
check "serve: valid against the v1 CRDs (NodePools and EC2NodeClass)" valid serve.yaml
y serve.yaml > serve.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --top 8 --output json > serve-rec.json
check "serve: NodePools, then the one EC2NodeClass named by --node-class" jq -e '(.[:-1] | all(.kind == "NodePool")) and (.[-1].kind + ":" + .[-1].metadata.name) == "EC2NodeClass:gpu-al2023"' serve.json
check "serve: Neuron pools tainted and limited on aws.amazon.com/neuron" jq -e '[.[] | select(.kind == "NodePool" and (.metadata.name | test("inf2|trn")))] | length > 0 and all(.[]; .spec.template.spec.taints[0].key == "aws.amazon.com/neuron"
  and (.spec.limits | has("aws.amazon.com/neuron")) and (.spec.limits | has("nvidia.com/gpu") | not))' serve.json
check "serve: nodeClassRef from --node-class" jq -e 'all(.[:-1][]; .spec.template.spec.nodeClassRef.name == "gpu-al2023")' serve.json
check "serve: serving disruption (consolidate when under-used, 720h expiry)" jq -e '.[0] |
  .spec.disruption.consolidationPolicy == "WhenEmptyOrUnderutilized" and .spec.template.spec.expireAfter == "720h"' serve.json
check "serve: on-demand only (serving default: no spot)" jq -e 'all(.[:-1][]; (.spec.template.spec.requirements[] | select(.key == "karpenter.sh/capacity-type").values) == ["on-demand"])' serve.json
check "serve: rank 1 limits admit the Auto Scaling maximum" jq -e -n --slurpfile a serve.json --slurpfile r serve-rec.json --slurpfile c "$CAT" '
  ($c[0].instances | map({(.type): .}) | add) as $t | $r[0].recommendations[0] as $p |
  ($p.auto_scaling.max_instances * $t[$p.instance_type].vcpu | tostring) == $a[0][0].spec.limits.cpu'
check "serve: EC2NodeClass AL2023 alias, role, selectors" jq -e '.[-1].spec.amiSelectorTerms == [{"alias":"al2023@latest"}]
  and .[-1].spec.role == "KarpenterNodeRole-${CLUSTER_NAME}"' serve.json
check "serve: the EKS AMI parameters of images.json in the comments" grep -qF "/aws/service/eks/optimized-ami/{kubernetes_version}/amazon-linux-2023/x86_64/neuron/recommended/image_id" serve.yaml
# root volume: 20 GiB (Karpenter's AL2023 default) + 2 x the 9 GB image
# + the weights at bf16 (params x 2 B), rounded up to 10 GiB
check "serve: root volume sized for image + weights (docs/karpenter.md)" jq -e -n --slurpfile a serve.json --slurpfile r serve-rec.json '
  (20 + 2 * 9e9 / 1073741824 + $r[0].workload.params * 2 / 1073741824) as $g | (($g / 10 | ceil) * 10 | tostring + "Gi") as $want |
  $a[0][-1].spec.blockDeviceMappings == [{"deviceName":"/dev/xvda","rootVolume":true,"ebs":{"volumeSize":$want,"volumeType":"gp3","encrypted":true,"deleteOnTermination":true}}]'
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --top 8 --node-class-spec=bottlerocket --output karpenter > br.yaml
check "bottlerocket: valid" valid br.yaml
check "bottlerocket: alias and the nvidia image" sh -c 'grep -qx "    - alias: \"bottlerocket@latest\"" br.yaml && grep -qF "aws-k8s-{kubernetes_version}-nvidia/x86_64" br.yaml'
y br.yaml > br.json
check "bottlerocket: one node class per pool, 4 GiB OS + data volume as kubelet root" jq -e '[.[] | select(.kind == "EC2NodeClass")] as $c | ($c | length) == ([.[] | select(.kind == "NodePool")] | length)
  and all($c[]; .spec.blockDeviceMappings[0] == {"deviceName":"/dev/xvda","ebs":{"volumeSize":"4Gi","volumeType":"gp3","encrypted":true,"deleteOnTermination":true}}
    and .spec.blockDeviceMappings[1].deviceName == "/dev/xvdb" and .spec.blockDeviceMappings[1].rootVolume)' br.json

# the issue's case: rank 1 g6e.xlarge, not the cheaper g5.xlarge, is what
# Karpenter launches (its pool outweighs every other, and admits one type)
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --output karpenter > q50.yaml
y q50.yaml > q50.json
check "qps 50: the heaviest pool admits only g6e.xlarge" jq -e 'max_by(.spec.weight) | [.spec.template.spec.requirements[] | select(.key == "node.kubernetes.io/instance-type").values] == [["g6e.xlarge"]]' q50.json
check "qps 50: no pool admits both g6e.xlarge and g5.xlarge" jq -e 'all(.[]; [.spec.template.spec.requirements[] | select(.key == "node.kubernetes.io/instance-type").values[]] | length == 1)' q50.json

# multi-node training (llama-3.1-70b training on 1B tokens pinned to trn1: 4
# trn1.32xlarge, 8 EFA interfaces each; the 405B case this pinned before no
# longer fits trn1 now that Neuron plans are sized per NeuronCore): EFA on
# every network card and a cluster placement group
"$EC2FIT" recommend --model llama-3.1-70b --task train --dataset 1B --families trn1 --top 1 --node-class-spec --output karpenter > mn.yaml
check "multi-node: valid" valid mn.yaml
y mn.yaml > mn.json
check "multi-node: placement group + primary interface + 8 EFA-only interfaces" jq -e '.[1] | .kind == "EC2NodeClass"
  and .spec.placementGroupSelector == {"name": .metadata.name}
  and .spec.networkInterfaces[0] == {"networkCardIndex":0,"deviceIndex":0,"interfaceType":"interface"}
  and ([.spec.networkInterfaces[] | select(.interfaceType == "efa-only")] | length) == 8' mn.json
check "multi-node: the placement group command in the comments" grep -qF -- "--strategy cluster" mn.yaml

# Local Zone plan: a zone requirement; regions: one pool set per region
"$EC2FIT" recommend --model resnet50 --task train --region us-west-2-lax-1 --top 3 --output karpenter > lz.yaml
check "local zone: valid" valid lz.yaml
y lz.yaml > lz.json
check "local zone: every pool requires zone us-west-2-lax-1a" jq -e 'all(.[]; [.spec.template.spec.requirements[] | select(.key == "topology.kubernetes.io/zone").values] == [["us-west-2-lax-1a"]])' lz.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --regions us-east-1,eu-west-1,ap-south-1 --top 12 --output json > reg-rec.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --regions us-east-1,eu-west-1,ap-south-1 --top 12 --output karpenter > reg.yaml
y reg.yaml > reg.json
check "regions: pools only for plans in rank 1's region, the others named" jq -e -n --slurpfile a reg.json --slurpfile r reg-rec.json '
  $r[0].recommendations[0].region as $reg |
  ([$r[0].recommendations[] | select(.region != $reg)] | length) > 0 and
  ([$r[0].recommendations[] | select(.region == $reg) | .instance_type] | unique | length) == ($a[0] | length)'
check "regions: the other region's plans in a comment" grep -q "^# Ranked in other regions" reg.yaml

# a serving replica that spans nodes is warned about
"$EC2FIT" recommend --model deepseek-v3 --task infer --qps 1 --output karpenter > span.yaml
check "spanning replica: a WARNING comment" grep -q "^# WARNING: one replica of rank 1 spans" span.yaml

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
d = [x for x in yaml.safe_load_all(open(sys.argv[1])) if x and x["kind"] == "NodePool"]
nv = [x for x in d if x["spec"]["template"]["spec"]["taints"][0]["key"] == "nvidia.com/gpu"][0]
ne = [x for x in d if x["spec"]["template"]["spec"]["taints"][0]["key"] == "aws.amazon.com/neuron"][0]
nv["spec"]["template"]["spec"]["requirements"][0]["values"] += ne["spec"]["template"]["spec"]["requirements"][0]["values"]
print(yaml.safe_dump(nv))
PY
check "validator: a NodePool mixing NVIDIA and Neuron is refused" sh -c "! python3 '$V' '$CRD' mixed.yaml '$CAT'"
python3 - train.yaml > typo.yaml <<'PY'
import sys, yaml
d = list(yaml.safe_load_all(open(sys.argv[1])))[0]
d["spec"]["disruption"]["consolidateAfterr"] = "1m"
print(yaml.safe_dump(d))
PY
check "validator: an unknown field is refused (strict)" sh -c "! python3 '$V' '$CRD' typo.yaml"

# a Capacity Block plan launches into its block (Karpenter v1.6+: capacity
# type "reserved", capacity-reservation-type capacity-block, the block
# selected by the tag it is bought with), not as on-demand instances outside
# it (session 10 review: the pool said "on-demand")
"$EC2FIT" recommend --params 70B --task train --dataset 1T --deadline 14d --purchase capacity-block --top 1 --node-class-spec --output karpenter > cb.yaml
check "capacity block: exit 0" test $? -eq 0
check "capacity block: valid against the v1 CRDs" valid cb.yaml
y cb.yaml > cb.json
check "capacity block: rank 1's pool is reserved capacity from a capacity block" jq -e '[.[] | select(.kind == "NodePool")][0] |
  ([.spec.template.spec.requirements[] | {(.key): .values}] | add) as $r |
  $r["karpenter.sh/capacity-type"] == ["reserved"] and $r["karpenter.k8s.aws/capacity-reservation-type"] == ["capacity-block"]
  and $r["node.kubernetes.io/instance-type"] == ["p5.48xlarge"] and (.metadata.name | endswith("-block"))' cb.json
check "capacity block: its EC2NodeClass selects the block by the tag the comment buys it with" bash -c "
  jq -e '[.[] | select(.kind == \"EC2NodeClass\")][0] | .spec.capacityReservationSelectorTerms == [{\"tags\": {\"ec2fit/node-class\": .metadata.name}}]' cb.json &&
  grep -q \"purchase-capacity-block .*Key=ec2fit/node-class,Value=\$(jq -r '[.[] | select(.kind == \"EC2NodeClass\")][0].metadata.name' cb.json)}\" cb.yaml &&
  grep -q 'capacity-duration-hours 336' cb.yaml"

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
    == [range([.[] | select(.kind == "NodePool")] | length) | ["node.kubernetes.io/instance-type","karpenter.sh/capacity-type","kubernetes.io/arch","topology.kubernetes.io/zone"]]' merged.json
  check "docs/karpenter.md shows the tested merge" grep -qF "yq -y -s '.[0] as \$mine | .[1:][] | if .kind == \"NodePool\" then .spec.template.spec.requirements += \$mine.spec.template.spec.requirements else . end' mine.yaml ec2fit.yaml" "$SRC_DIR/docs/karpenter.md"
else
  echo "yq missing"; skip=1
fi
finish
