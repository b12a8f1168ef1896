#!/usr/bin/env bash
# From plan to fleet (docs/deploy.md): the image per stack in JSON and
# tfvars, `--output ecs` and `--output cloudwatch` validated against the AWS
# API input shapes of botocore's service models (offline: botocore reads
# them from disk), and their numbers recomputed here from the plan and the
# catalog. The commands are the ones docs/deploy.md runs.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
cd "$WORK" || exit 1
VALIDATE="$SRC_DIR/tests/tools/validate_aws.py"
have_botocore() { python3 -c 'import botocore.validate' 2>/dev/null; }

DLAMI_X86=/aws/service/deeplearning/ami/x86_64/base-oss-nvidia-driver-gpu-amazon-linux-2023/latest/ami-id
DLAMI_ARM=/aws/service/deeplearning/ami/arm64/base-oss-nvidia-driver-gpu-amazon-linux-2023/latest/ami-id
NEURON=/aws/service/neuron/dlami/base/amazon-linux-2023/latest/image_id
AL2023_ARM=/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-arm64
ECS_GPU=/aws/service/ecs/optimized-ami/amazon-linux-2023/gpu/recommended/image_id
ECS_INF=/aws/service/ecs/optimized-ami/amazon-linux-2023/inf/recommended/image_id

# ---- image per stack: NVIDIA and Neuron plans differ, Graviton is arm64 ----
# (16 GiB inf2 hosts serve 8B from memory-mapped shards, so the unfiltered
# list mixes both stacks; the NVIDIA checks pin NVIDIA families and
# keep Trainium in the list: --top 20, trn1 ranks below the five L40S/A10G
# types)
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --top 20 --output json > gpu.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families inf2 --output json > inf2.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --output tfvars > gpu.tfvars.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families inf2 --output tfvars > inf2.tfvars.json
check "json: every NVIDIA plan has the x86_64 DLAMI" jq -e --arg p "$DLAMI_X86" \
  '[.recommendations[] | select(.accelerator.id | test("^(inferentia|trainium)") | not)] | length > 0
   and all(.image.ssm_parameter == $p and .image.family == "Deep Learning Base OSS Nvidia Driver GPU AMI (Amazon Linux 2023)")' gpu.json
check "json: a Trainium plan in the same list has the Neuron DLAMI" jq -e --arg p "$NEURON" \
  '[.recommendations[] | select(.accelerator.id == "trainium")] | length > 0 and all(.image.ssm_parameter == $p)' gpu.json
check "json: every inf2 plan has the Neuron DLAMI" jq -e --arg p "$NEURON" \
  '(.recommendations | length) > 0 and all(.recommendations[]; .image.ssm_parameter == $p
   and .image.family == "Deep Learning Base Neuron AMI (Amazon Linux 2023)")' inf2.json
check "json: NVIDIA and Neuron rank 1 get different parameters" jq -e -n --slurpfile g gpu.json --slurpfile n inf2.json \
  '$g[0].recommendations[0].image.ssm_parameter != $n[0].recommendations[0].image.ssm_parameter'
check "tfvars: NVIDIA ami_ssm_parameter" jq -e --arg p "$DLAMI_X86" '.ami_ssm_parameter == $p' gpu.tfvars.json
check "tfvars: Neuron ami_ssm_parameter" jq -e --arg p "$NEURON" '.ami_ssm_parameter == $p' inf2.tfvars.json
check "tfvars: the same parameter as JSON rank 1" jq -e -n --slurpfile t gpu.tfvars.json --slurpfile j gpu.json \
  '$t[0].ami_ssm_parameter == $j[0].recommendations[0].image.ssm_parameter'
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families g5g --output json > g5g.json
check "json: g5g (Graviton + T4G) gets the arm64 DLAMI" jq -e --arg p "$DLAMI_ARM" \
  '(.recommendations|length) > 0 and all(.recommendations[]; .image.ssm_parameter == $p)' g5g.json
"$EC2FIT" recommend --model distilbert --task infer --qps 2 --families c7g --output json > c7g.json
check "json: CPU-only Graviton gets Amazon Linux 2023 arm64" jq -e --arg p "$AL2023_ARM" \
  '(.recommendations|length) > 0 and all(.recommendations[]; .accelerator == null and .image.ssm_parameter == $p)' c7g.json

# ---- --output ecs (the issue's command, validated below as ecs-issue.json) ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --output ecs > ecs-issue.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --output ecs > ecs.json 2> ecs.err
check "ecs: exit 0, nothing on stderr" test $? -eq 0 -a ! -s ecs.err
type=$(jq -r '.recommendations[0].instance_type' gpu.json)
"$EC2FIT" show "$type" --output json > inst.json
check "ecs: rank-1 type" jq -e --arg t "$type" '.ec2fit.instance_type == $t' ecs.json
check "ecs: cpu = vCPUs x 1024" jq -e -n --slurpfile e ecs.json --slurpfile i inst.json \
  '$e[0].taskDefinition.cpu == (($i[0].instance.vcpu * 1024) | tostring)'
check "ecs: memory = installed MiB x 7985/8192 - 256" jq -e -n --slurpfile e ecs.json --slurpfile i inst.json \
  '$e[0].taskDefinition.memory == ((($i[0].instance.memory_gib * 1024 * 7985 / 8192) | floor) - 256 | tostring)'
# a type above ECS's task maximum, 196608 CPU units (192 vCPUs; RegisterTaskDefinition, cpu: "Supported
# values are between 128 CPU units (0.125 vCPUs) and 196608 CPU units (192 vCPUs)"): c8i.96xlarge has 384.
# The task-level cpu is left out (optional on the EC2 launch type), not 393216, which ECS refuses
"$EC2FIT" recommend --model bert-large --task infer --qps 3000 --families c8i --optimize time --output ecs > ecs-big.json
check "ecs: 384-vCPU rank 1 (c8i.96xlarge), exit 0" jq -e '.ec2fit.instance_type == "c8i.96xlarge"' ecs-big.json
check "ecs: no task cpu above 196608 units, and a note says why" jq -e '(.taskDefinition | has("cpu") | not)
  and (.taskDefinition.memory | tonumber) > 0
  and any(.ec2fit.notes[]; . == "task cpu left unset: c8i.96xlarge'"'"'s 384 vCPUs are more than the 192 (196608 CPU units) a task definition accepts; the one task per instance uses them all")' ecs-big.json
check "ecs: GPU count = rank 1's devices per node" jq -e -n --slurpfile e ecs.json --slurpfile j gpu.json \
  '$e[0].taskDefinition.containerDefinitions[0].resourceRequirements == [{"type":"GPU","value":($j[0].recommendations[0].accelerator.used_per_node|tostring)}]'
check "ecs: vLLM environment" jq -e '.taskDefinition.containerDefinitions[0].environment ==
  [{"name":"MODEL_ID","value":"meta-llama/Llama-3.1-8B"},{"name":"TENSOR_PARALLEL_SIZE","value":"1"},{"name":"PORT","value":"8000"}]' ecs.json
check "ecs: targetCapacity = the 70% Auto Scaling target" jq -e '.capacityProvider.autoScalingGroupProvider.managedScaling.targetCapacity == 70' ecs.json
check "ecs: desiredCount = autoscaling.min_instances" jq -e -n --slurpfile e ecs.json --slurpfile j gpu.json \
  '$e[0].service.desiredCount == $j[0].autoscaling.min_instances'
check "ecs: ECS-optimized GPU AMI" jq -e --arg p "$ECS_GPU" '.ec2fit.image.ssm_parameter == $p' ecs.json
# the engine image pinned to a release of data/engine_images.json
check "ecs: vLLM image pinned to v0.28.0 (engine_images.json)" jq -e '.taskDefinition.containerDefinitions[0].image == "vllm/vllm-openai:v0.28.0"
  and .ec2fit.engine.name == "vllm" and .ec2fit.engine.version == "0.28.0"' ecs.json
check "ecs: HF_TOKEN from the secret input, execution role input" jq -e '.taskDefinition.executionRoleArn == "${EXECUTION_ROLE_ARN}"
  and .taskDefinition.containerDefinitions[0].secrets == [{"name":"HF_TOKEN","valueFrom":"${HF_TOKEN_SECRET_ARN}"}]' ecs.json
check "ecs: awslogs to /ecs/<family> in the plan's region" jq -e '.taskDefinition.containerDefinitions[0].logConfiguration ==
  {"logDriver":"awslogs","options":{"awslogs-group":"/ecs/ec2fit-llama-3-1-8b","awslogs-region":"us-east-1","awslogs-stream-prefix":"engine"}}' ecs.json
# start-up: the plan's startup_s (209 s for g6e.xlarge: boot, image pull,
# weights) is the grace period; the health check's startPeriod is the same
# up to ECS's 300 s limit
check "ecs: grace period = ceil(rank 1 startup_s), startPeriod = min(300, it)" jq -e -n --slurpfile e ecs.json --slurpfile j gpu.json \
  '($j[0].recommendations[0].startup_s | ceil) as $s | $s == 209
   and $e[0].service.healthCheckGracePeriodSeconds == $s
   and $e[0].taskDefinition.containerDefinitions[0].healthCheck.startPeriod == ([$s, 300] | min)'
check "ecs: health check on vLLM's /health" jq -e '.taskDefinition.containerDefinitions[0].healthCheck
  | .command[0] == "CMD-SHELL" and (.command[1] | contains("http://localhost:8000/health")) and .interval == 30 and .retries == 3' ecs.json
check "ecs: load balancer target group input on port 8000" jq -e '.service.loadBalancers == [{"targetGroupArn":"${TARGET_GROUP_ARN}","containerName":"engine","containerPort":8000}]' ecs.json
check "ecs: scalable target min/max = autoscaling min/max (8/15)" jq -e -n --slurpfile e ecs.json --slurpfile j gpu.json \
  '$e[0].scalableTarget | .MinCapacity == $j[0].autoscaling.min_instances and .MaxCapacity == $j[0].autoscaling.max_instances
   and .MinCapacity == 8 and .MaxCapacity == 15 and .ResourceId == "service/ec2fit-llama-3-1-8b/ec2fit-llama-3-1-8b"
   and .ScalableDimension == "ecs:service:DesiredCount"'
check "ecs: target tracking on ALBRequestCountPerTarget at the plan's target" jq -e -n --slurpfile e ecs.json --slurpfile j gpu.json \
  '$e[0].scalingPolicy.TargetTrackingScalingPolicyConfiguration
   | .PredefinedMetricSpecification.PredefinedMetricType == "ALBRequestCountPerTarget"
   and ((.TargetValue - $j[0].autoscaling.target_value) | fabs) < 0.01
   and .ScaleOutCooldown == $j[0].autoscaling.scale_out_cooldown_s'
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --async --output ecs > ecs-async.json
check "ecs --async: no load balancer, backlog per task (SQS / RunningTaskCount)" jq -e '(.service | has("loadBalancers") | not)
  and (.scalingPolicy.TargetTrackingScalingPolicyConfiguration.CustomizedMetricSpecification.Metrics[2].Expression == "m1 / m2")' ecs-async.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --engine tgi --output ecs > ecs-tgi.json
check "ecs --engine tgi: TGI 3.3.5 launcher" jq -e '.taskDefinition.containerDefinitions[0]
  | .image == "ghcr.io/huggingface/text-generation-inference:3.3.5" and (.command[0] | startswith("exec text-generation-launcher"))' ecs-tgi.json
"$EC2FIT" recommend --model resnet50 --task infer --qps 100 --families 'g5,g6' --output ecs > ecs-triton.json
check "ecs resnet50 on GPU: Triton 26.06, /v2/health/ready, model repository input" jq -e '.taskDefinition.containerDefinitions[0]
  | .image == "nvcr.io/nvidia/tritonserver:26.06-py3" and (.healthCheck.command[1] | contains("/v2/health/ready"))
  and ([.environment[] | select(.name == "MODEL_REPOSITORY").value] == ["${MODEL_REPOSITORY}"]) and (has("secrets") | not)' ecs-triton.json
# the inputs substituted as docs/deploy.md does: only the listed names,
# so the engine command's own $MODEL_ID and $PORT survive
subst_ok() {
  EXECUTION_ROLE_ARN=arn:aws:iam::123456789012:role/ecsTaskExecutionRole \
  HF_TOKEN_SECRET_ARN=arn:aws:secretsmanager:us-east-1:123456789012:secret:hf-token \
  envsubst '$EXECUTION_ROLE_ARN $HF_TOKEN_SECRET_ARN $TARGET_GROUP_ARN $ALB_RESOURCE_LABEL' < ecs.json > ecs-subst.json &&
  jq -e '.taskDefinition.executionRoleArn == "arn:aws:iam::123456789012:role/ecsTaskExecutionRole"
    and (.taskDefinition.containerDefinitions[0].command[0] | contains("\"$MODEL_ID\""))' ecs-subst.json
}
check "ecs: envsubst with the input names keeps the command's \$MODEL_ID" subst_ok
# the splitting commands of docs/deploy.md
jq .taskDefinition ecs.json > taskdef.json && jq .capacityProvider ecs.json > cp.json && jq .service ecs.json > service.json
jq .scalableTarget ecs.json > target.json && jq .scalingPolicy ecs.json > policy.json
check "ecs: jq split gives five objects" jq -e -s 'length == 5 and all(type == "object")' taskdef.json cp.json service.json target.json policy.json

# tensor parallelism needs the host's shared memory (vLLM's Docker guide:
# --ipc=host): the TP 8 task of the issue's llama-3.1-70b case has ipcMode
# host, the TP 1 tasks none
"$EC2FIT" recommend --model llama-3.1-70b --task infer --qps 5 --output ecs > ecs-tp8.json
check "ecs tp8: exit 0" test $? -eq 0
check "ecs tp8: TENSOR_PARALLEL_SIZE 8 and ipcMode host" jq -e '.taskDefinition.ipcMode == "host"
  and ([.taskDefinition.containerDefinitions[0].environment[] | select(.name == "TENSOR_PARALLEL_SIZE").value] == ["8"])' ecs-tp8.json
check "ecs tp1: no ipcMode" jq -e '.taskDefinition | has("ipcMode") | not' ecs-issue.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families inf2 --output ecs > ecs-inf2.json
check "ecs neuron: exit 0" test $? -eq 0
check "ecs neuron: /dev/neuron0.. one per device, no GPU requirement" jq -e -n --slurpfile e ecs-inf2.json --slurpfile j inf2.json \
  '($j[0].recommendations[0].accelerator.used_per_node) as $n
   | $e[0].taskDefinition.containerDefinitions[0]
   | (.resourceRequirements == null) and (.linuxParameters.devices | length == $n
     and .[0].hostPath == "/dev/neuron0" and .[-1].containerPath == "/dev/neuron\($n - 1)")'
check "ecs neuron: ECS Neuron AMI" jq -e --arg p "$ECS_INF" '.ec2fit.image.ssm_parameter == $p' ecs-inf2.json
check "ecs neuron: the Neuron vLLM DLC of SDK 2.31.1 (the newest listing inf2)" jq -e '.taskDefinition.containerDefinitions[0].image
  == "public.ecr.aws/neuron/pytorch-inference-vllm-neuronx:0.16.0-neuronx-py312-sdk2.31.1-ubuntu24.04"' ecs-inf2.json
check "ecs neuron: TENSOR_PARALLEL_SIZE = 2 NeuronCores per Inferentia2" jq -e -n --slurpfile e ecs-inf2.json --slurpfile j inf2.json \
  '$e[0].taskDefinition.containerDefinitions[0].environment[1].value == ($j[0].recommendations[0].accelerator.used_per_node * 2 | tostring)'

"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families g5g --output ecs > g5g-ecs.json 2> g5g-ecs.err
rc=$?
check "ecs g5g: exit 1 (no ECS GPU AMI for arm64)" test "$rc" -eq 1 -a ! -s g5g-ecs.json
check "ecs g5g: one-line message" test "$(cat g5g-ecs.err)" = "ec2fit: recommend: --output ecs: no ECS-optimized AMI for nvidia arm64 ($(jq -r '.recommendations[0].instance_type' g5g.json)) in images.json; see docs/deploy.md#images"
"$EC2FIT" recommend --model resnet50 --task train --output ecs > /dev/null 2> train.err
rc=$?
check "ecs train: usage error" test "$rc" -eq 2 -a "$(cat train.err)" = "ec2fit: recommend: --output ecs: only for --task infer (it deploys and watches a serving fleet)"

# ---- EKS: the NodePools of docs/deploy.md, built offline (schema: test_karpenter.sh) ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --node-class-spec --output karpenter > nodepool.yaml
nodepool_ok() {
  grep -q '^      nodeClassRef:' nodepool.yaml && grep -q '^      requirements:' nodepool.yaml &&
    grep -qF "            - \"$type\"" nodepool.yaml && grep -qx 'kind: EC2NodeClass' nodepool.yaml
}
check "eks: NodePool with nodeClassRef and the requirements, rank-1 type listed, EC2NodeClass" nodepool_ok
for cmd in "ec2fit recommend --model llama-3.1-8b --task infer --qps 50 --output ecs > ecs.json" \
           "jq .taskDefinition   ecs.json > taskdef.json" \
           "ec2fit recommend --model llama-3.1-8b --task infer --qps 50 --node-class-spec --output karpenter > nodepool.yaml" \
           "ec2fit recommend --model llama-3.1-8b --task infer --qps 50 --output cloudwatch > cw.json"; do
  check "docs/deploy.md shows the tested command: $cmd" grep -qF -- "$cmd" "$SRC_DIR/docs/deploy.md"
done

# ---- --output cloudwatch ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --output cloudwatch > cw.json
check "cloudwatch: exit 0" test $? -eq 0
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --output cloudwatch > cw-issue.json
check "cloudwatch: the issue's command (a Neuron rank 1) exits 0" test $? -eq 0
check "cloudwatch: the four alarms, no SQS backlog without --async" jq -e '[.alarms[].AlarmName] == ["ec2fit-llama-3-1-8b-gpu-utilization-low",
  "ec2fit-llama-3-1-8b-gpu-utilization-high","ec2fit-llama-3-1-8b-gpu-memory-high","ec2fit-llama-3-1-8b-engine-queue-high"]' cw.json
check "cloudwatch: every alarm notifies the SNS topic input" jq -e 'all(.alarms[]; .AlarmActions == ["${ALARM_TOPIC_ARN}"])' cw.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --async --output cloudwatch > cw-async.json
check "cloudwatch --async: the SQS backlog alarm fifth" jq -e '[.alarms[].AlarmName][4] == "ec2fit-llama-3-1-8b-sqs-backlog-per-instance-high"
  and .alarms[4].AlarmActions == ["${ALARM_TOPIC_ARN}"]' cw-async.json
check "cloudwatch: high = 70% target, 3 one-minute periods" jq -e '.alarms[1] | .Threshold == 70 and .Period == 60
  and .EvaluationPeriods == 3 and .MetricName == "nvidia_smi_utilization_gpu" and .Namespace == "CWAgent"' cw.json
check "cloudwatch: low = 70 x (n-1)/n over 15 min" jq -e -n --slurpfile c cw.json --slurpfile j gpu.json \
  '($j[0].autoscaling.min_instances) as $n | $c[0].alarms[0]
   | ((.Threshold - 70 * ($n - 1) / $n) | fabs) <= 0.05 and .EvaluationPeriods == 15 and .ComparisonOperator == "LessThanThreshold"'
check "cloudwatch: memory above vLLM's 90% pre-allocation, halfway to full" jq -e '.alarms[2].Threshold == 95
  and ([.alarms[2].Metrics[].MetricStat.Metric.MetricName | select(. != null)] == ["nvidia_smi_memory_used","nvidia_smi_memory_total"])' cw.json
# (the JSON rounds capacity and latency to 3 decimals, so the product can
# exceed the ceiling taken from the unrounded values by a few thousandths)
check "cloudwatch: backlog = per-instance req/s x latency" jq -e -n --slurpfile c cw-async.json --slurpfile j gpu.json \
  '$j[0].recommendations[0] as $p | ($p.capacity_qps / $p.nodes * $p.latency_ms / 1000) as $b
   | ($c[0].alarms[4].Threshold - $b) >= -0.01 and ($c[0].alarms[4].Threshold - $b) < 1.001'
check "cloudwatch: every alarm says why" jq -e 'all(.alarms[]; (.AlarmDescription | length) > 60 and (.AlarmDescription | length) <= 1024)' cw.json
check "cloudwatch: the group's capacity events, scoped to the group" jq -e '[.event_rules[].EventPattern | fromjson
  | [.source[0], .["detail-type"][0], .detail.AutoScalingGroupName]]
  == [["aws.autoscaling","EC2 Instance Launch Unsuccessful",["ec2fit-llama-3-1-8b-asg"]],
      ["aws.autoscaling","EC2 Instance Terminate Successful",["ec2fit-llama-3-1-8b-asg"]]]' cw.json
check "cloudwatch: every rule has the SNS topic input as its target" jq -e '[.event_rules[].Name] == [.event_targets[].Rule]
  and all(.event_targets[]; .Targets == [{"Id":"alarm-topic","Arn":"${ALARM_TOPIC_ARN}"}])' cw.json
# the engine's queue: vLLM's gauge through the agent's Prometheus scrape;
# threshold = per-instance req/s x (2000 ms service-level TTFT - plan TTFT)
check "cloudwatch: queue alarm = ceil(per-instance req/s x TTFT slack)" jq -e -n --slurpfile c cw.json --slurpfile j gpu.json \
  '$j[0].recommendations[0] as $p | ($p.capacity_qps / $p.nodes * (2000 - $p.ttft_ms) / 1000) as $q
   | [$c[0].alarms[] | select(.MetricName == "vllm:num_requests_waiting")][0]
   | .Namespace == "CWAgent" and .Threshold == 19 and (.Threshold - $q) > -0.01 and (.Threshold - $q) < 1.01'
check "cloudwatch: agent scrapes the engine's /metrics and publishes the gauge per group" jq -e '
  (.prometheus_scrape_config.scrape_configs[0] | .job_name == "engine" and .static_configs[0].targets == ["localhost:8000"]
    and .static_configs[0].labels.AutoScalingGroupName == "ec2fit-llama-3-1-8b-asg")
  and (.cloudwatch_agent.logs.metrics_collected.prometheus.emf_processor.metric_declaration[0]
    | .metric_selectors == ["^vllm:num_requests_waiting$"] and .dimensions == [["AutoScalingGroupName"]])' cw.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,trn1' --engine tgi --output cloudwatch > cw-tgi.json
check "cloudwatch --engine tgi: tgi_queue_size" jq -e '[.alarms[].MetricName | select(. == "tgi_queue_size")] | length == 1' cw-tgi.json
check "cloudwatch: agent publishes nvidia_gpu per Auto Scaling group" jq -e '.cloudwatch_agent.metrics
  | .aggregation_dimensions == [["AutoScalingGroupName"]] and (.metrics_collected.nvidia_gpu.measurement | index("utilization_gpu") != null)' cw.json
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families inf2 --output cloudwatch > cw-inf2.json
check "cloudwatch neuron: no nvidia_smi alarm (a note), the engine's queue alarm" jq -e '([.alarms[].AlarmName | select(test("gpu"))] | length == 0)
  and (.notes | length == 1) and (.cloudwatch_agent | has("metrics") | not)
  and ([.alarms[].MetricName] == ["vllm:num_requests_waiting"])' cw-inf2.json

# ---- botocore: the API input shapes, from the models vendored in
# tests/fixtures/botocore (botocore 1.43.67), whatever botocore is installed ----
if have_botocore; then
  sums_ok() { # every vendored model has the sha256 SOURCE.md states
    local f n=0
    for f in ecs/2014-11-13 cloudwatch/2010-08-01 events/2015-10-07 application-autoscaling/2016-02-06; do
      grep -q "^| \`$f/service-2.json\` |.* | \`$(sha256sum "$SRC_DIR/tests/fixtures/botocore/$f/service-2.json" | cut -d' ' -f1)\` |$" \
        "$SRC_DIR/tests/fixtures/botocore/SOURCE.md" && n=$((n + 1))
    done
    [ "$n" -eq 4 ]
  }
  check "botocore: the four vendored models match SOURCE.md's sha256" sums_ok
  check "botocore: the capacity provider has managedDraining (unknown to Debian 12's botocore 1.29.27)" \
    jq -e '.capacityProvider.autoScalingGroupProvider.managedDraining == "ENABLED"' ecs.json
  check "botocore: ecs RegisterTaskDefinition, CreateCapacityProvider, CreateService" python3 "$VALIDATE" ecs ecs.json
  check "botocore: ecs (Neuron)" python3 "$VALIDATE" ecs ecs-inf2.json
  check "botocore: ecs, the issue's command as written" python3 "$VALIDATE" ecs ecs-issue.json
  check "botocore: ecs with ipcMode (TP 8)" python3 "$VALIDATE" ecs ecs-tp8.json
  check "botocore: ecs --async (customized metric math policy)" python3 "$VALIDATE" ecs ecs-async.json
  check "botocore: ecs TGI" python3 "$VALIDATE" ecs ecs-tgi.json
  check "botocore: ecs Triton" python3 "$VALIDATE" ecs ecs-triton.json
  check "botocore: cloudwatch TGI" python3 "$VALIDATE" cloudwatch cw-tgi.json
  jq '.scalableTarget.MinCapacity = "8"' ecs.json > bad3.json
  check "botocore: refuses a string MinCapacity (application-autoscaling model)" test "$(python3 "$VALIDATE" ecs bad3.json > /dev/null; echo $?)" -eq 1
  check "botocore: every alarm a PutMetricAlarm, every rule a PutRule" python3 "$VALIDATE" cloudwatch cw.json
  check "botocore: the --async alarms too" python3 "$VALIDATE" cloudwatch cw-async.json
  # without --async a Neuron plan has no alarm yet (no GPU metrics, no queue)
  "$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families inf2 --async --output cloudwatch > cw-inf2-async.json
  check "botocore: cloudwatch (Neuron, --async)" python3 "$VALIDATE" cloudwatch cw-inf2-async.json
  check "botocore: cloudwatch, the issue's command as written" python3 "$VALIDATE" cloudwatch cw-issue.json
  "$EC2FIT" recommend --model distilbert --task infer --qps 2 --output cloudwatch > cw-cpu.json
  check "botocore: cloudwatch (CPU-only plan)" python3 "$VALIDATE" cloudwatch cw-cpu.json
  # the validator can fail: an unknown member and a wrong type are refused
  jq '.taskDefinition.gpuCount = 1' ecs.json > bad1.json
  check "botocore: refuses an unknown RegisterTaskDefinition member" test "$(python3 "$VALIDATE" ecs bad1.json > /dev/null; echo $?)" -eq 1
  jq '.alarms[0].Threshold = "63"' cw.json > bad2.json
  check "botocore: refuses a string Threshold" test "$(python3 "$VALIDATE" cloudwatch bad2.json > /dev/null; echo $?)" -eq 1
else
  echo "SKIP: python3-botocore not installed (apt-get install python3-botocore)"
  skip=15
fi
# a replica that spans instances cannot be an ECS task: refused, exit 3
# (issue 25: deepseek-v3 at 1 request/s needs 3 p4de.24xlarge per replica)
"$EC2FIT" recommend --model deepseek-v3 --task infer --qps 1 --output ecs > span.json 2> span.err
check "ecs: a spanning replica exits 3" test $? -eq 3
check "ecs: nothing on stdout for a spanning replica" test ! -s span.json
check "ecs: one line naming the flag and the reason" sh -c 'test "$(wc -l < span.err)" -eq 1 && grep -qx "ec2fit: recommend: --output ecs: rank 1 (p4de.24xlarge) needs 3 instances per model replica and an ECS task runs on one instance; use --output karpenter (LeaderWorkerSet) or a type that holds a replica (--families)" span.err'

finish
