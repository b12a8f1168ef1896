#!/usr/bin/env bash
# --output ecs and --output cloudwatch over >= 200 generated serving
# workloads (issue 25; tests/tools/sweep_deploy.py): every ECS output
# validates against the vendored botocore models (ecs, application-
# autoscaling), its service autoscaling min/max equal the plan's, its image
# is pinned to an engine_images.json release for rank 1's family, every
# required field is present; every CloudWatch alarm has an action, every
# EventBridge rule a target and a pattern scoped to the Auto Scaling group.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && cd "$WORK" || exit 1
if ! python3 -c 'import botocore.validate' 2>/dev/null; then
  echo "SKIP: python3-botocore not installed"; skip=1; finish; fi
python3 "$SRC_DIR/tests/tools/sweep_deploy.py" "$EC2FIT" "$SRC_DIR" sweep 200 > sweep.txt 2>&1
rc=$?
tail -n 20 sweep.txt
check "sweep: every ecs and cloudwatch output of >= 200 workloads holds" test $rc -eq 0
check "sweep: at least 200 workloads had a rank 1" grep -qE '^([2-9][0-9]{2}|[0-9]{4,}) workloads with a rank 1' sweep.txt
check "sweep: at least 200 ECS outputs rendered and checked" grep -qE 'ecs: .*ok ([2-9][0-9]{2}|[0-9]{4,})' sweep.txt
check "sweep: the spanning replicas were refused (exit 3)" grep -qE 'spans [1-9]' sweep.txt
# the sweep reaches NVIDIA, Neuron and CPU plans
for fam in g6e inf2 p4d c7g; do
  check "sweep: rank 1 on $fam is covered" grep -qE "rank-1 families:.* $fam [0-9]+" sweep.txt
done
finish
