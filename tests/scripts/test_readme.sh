#!/usr/bin/env bash
# README.md "Use with Terraform, Karpenter and CI": every ```sh block runs as
# written (with ec2fit on PATH, in an empty folder, offline) and produces
# what the text says; the ```terraform block runs where Terraform is
# installed (it is not a Debian package: where it is missing that block is
# reported and not run, and the checks below still read the files it uses).
set -u
. "$(dirname "$0")/checks.sh"
[ -n "${WORK:-}" ] || exit 2
rm -rf "$WORK" && mkdir -p "$WORK/bin" "$WORK/run" && cd "$WORK/run" || exit 1
ln -s "$EC2FIT" "$WORK/bin/ec2fit"
export PATH="$WORK/bin:$PATH"
unset GITHUB_STEP_SUMMARY

# the section's fenced blocks, in order: "<lang>\t<file>"
python3 - "$SRC_DIR/README.md" "$WORK" > "$WORK/blocks.tsv" <<'PY'
import re, sys
text = open(sys.argv[1], encoding="utf-8").read()
sec = text.split("## Use with Terraform, Karpenter and CI", 1)[1].split("\n## ", 1)[0]
for i, (lang, body) in enumerate(re.findall(r"```(\w+)\n(.*?)```", sec, re.S)):
    path = f"{sys.argv[2]}/block{i}.{lang}"
    open(path, "w").write(body)
    print(f"{lang}\t{path}")
PY
check "README has the section: 3 sh blocks and 1 terraform block" test "$(cut -f1 "$WORK/blocks.tsv" | sort | uniq -c | awk '{print $2":"$1}' | tr '\n' ' ')" = "sh:3 terraform:1 "
i=0
while IFS=$'\t' read -r lang path; do
  i=$((i + 1))
  if [ "$lang" = sh ]; then
    bash -euo pipefail "$path" > "$WORK/out$i" 2> "$WORK/err$i"
    check "block $i (sh) runs: exit 0" test $? -eq 0
  elif command -v terraform > /dev/null; then
    TF_CLI_CONFIG_FILE=/dev/null TF_IN_AUTOMATION=1 bash -euo pipefail "$path" > "$WORK/out$i" 2> "$WORK/err$i"
    check "block $i (terraform) runs: exit 0" test $? -eq 0
    check "terraform output: rank 1 of the tfvars" test "$(tail -1 "$WORK/out$i")" = \
      "$(jq -r '"\(.instance_count) x \(.instance_type) in \(.region)"' ec2fit.auto.tfvars.json)"
  else
    echo "NOTE: terraform not installed: block $i not run"
  fi
done < "$WORK/blocks.tsv"

# what the blocks wrote
check "tfvars: the declared keys, a region" jq -e '(keys - ["instance_type","instance_count","use_spot","region","zone_group","hourly_usd","purchase","ami_ssm_parameter","asg_min_size","asg_max_size","asg_desired_capacity","scaling_policy","target_value","warm_pool_size","monthly_usd","total_usd","node_hourly_usd","fleet_hourly_usd","efa_interfaces","placement_group_strategy","single_availability_zone","availability_zone","monthly_usd_high","time_hours_high","total_usd_high","prices_as_of","prices_age_days"]) == [] and .region == "us-east-1"' ec2fit.auto.tfvars.json
check "karpenter: valid NodePools and EC2NodeClass" python3 "$SRC_DIR/tests/tools/validate_karpenter.py" "$SRC_DIR/tests/fixtures/karpenter" nodepools-my-cluster.yaml "$SRC_DIR/data/catalog.json"
check "karpenter: the cluster substituted" grep -qx '  role: "KarpenterNodeRole-my-cluster"' nodepools-my-cluster.yaml
check "CI: rank 1 within the budget" jq -e '.recommendations[0].total_usd <= 500' plan.json
check "CI: Markdown summary written" grep -q '^## EC2 recommendation: llama-3.1-8b' summary.md
# and the exit status the CI step relies on: 3 when nothing fits
ec2fit recommend --model llama-3.1-8b --task lora --dataset 100M --budget 1 --output json > none.json 2> /dev/null
check "CI: exit 3 when nothing fits" test $? -eq 3
finish
