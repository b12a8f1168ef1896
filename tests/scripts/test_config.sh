#!/usr/bin/env bash
# User defaults (docs/config.md): $XDG_CONFIG_HOME/ec2fit/config.json, else
# ~/.config/ec2fit/config.json. Precedence flag > environment > config file
# > built-in, for region, spot, output and rules; a malformed file or an
# unknown key is exit 1 with a message naming the file.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
CFG="$WORK/xdg"
export XDG_CONFIG_HOME="$CFG"
unset AWS_REGION AWS_DEFAULT_REGION AWS_PROFILE
export AWS_CONFIG_FILE="$WORK/no-aws-config"
mkdir -p "$CFG/ec2fit"
F="$CFG/ec2fit/config.json" OUT="$WORK/out" ERR="$WORK/err"
REC=(recommend --model resnet50 --task train)

# no file: built-in defaults
rm -f "$F"
"$EC2FIT" "${REC[@]}" --output json > "$OUT"
check "no config: us-east-1" jq -e '.workload.regions == ["us-east-1"]' "$OUT"

# region + output from the file
echo '{"region": "us-west-2", "output": "json"}' > "$F"
"$EC2FIT" "${REC[@]}" > "$OUT"
check "config output json" jq -e '.schema_version == 2' "$OUT"
check "config region" jq -e '.workload.regions == ["us-west-2"]' "$OUT"
"$EC2FIT" list --accelerator a100 > "$OUT"
check "list: config output and region" jq -e '.region == "us-west-2"' "$OUT"
AWS_DEFAULT_REGION=eu-west-1 "$EC2FIT" "${REC[@]}" > "$OUT"
check "AWS_DEFAULT_REGION beats config" jq -e '.workload.regions == ["eu-west-1"]' "$OUT"
AWS_REGION=us-east-2 AWS_DEFAULT_REGION=eu-west-1 "$EC2FIT" "${REC[@]}" > "$OUT"
check "AWS_REGION beats AWS_DEFAULT_REGION" jq -e '.workload.regions == ["us-east-2"]' "$OUT"
AWS_REGION=us-east-2 "$EC2FIT" "${REC[@]}" --region ap-northeast-1 > "$OUT"
check "--region beats environment" jq -e '.workload.regions == ["ap-northeast-1"]' "$OUT"
"$EC2FIT" "${REC[@]}" --output csv > "$OUT"
check "--output beats config" grep -q '^rank,instance_type' "$OUT"

# the AWS profile's region (~/.aws/config), after the two variables and
# before ec2fit's own file (an AWS profile switched to another region is
# not overridden by a file written months ago), as the AWS CLI reads it
A="$WORK/aws-config"
printf '[default]\nregion = eu-west-1\n\n[profile dev]\nregion = ap-south-1\n' > "$A"
echo '{"output": "json"}' > "$F"
AWS_CONFIG_FILE="$A" "$EC2FIT" "${REC[@]}" > "$OUT"
check "AWS config [default] region" jq -e '.workload.regions == ["eu-west-1"]' "$OUT"
AWS_CONFIG_FILE="$A" AWS_PROFILE=dev "$EC2FIT" "${REC[@]}" > "$OUT"
check "AWS_PROFILE=dev: [profile dev] region" jq -e '.workload.regions == ["ap-south-1"]' "$OUT"
AWS_CONFIG_FILE="$A" AWS_PROFILE=dev AWS_DEFAULT_REGION=us-east-2 "$EC2FIT" "${REC[@]}" > "$OUT"
check "AWS_DEFAULT_REGION beats the profile" jq -e '.workload.regions == ["us-east-2"]' "$OUT"
echo '{"output": "json", "region": "us-west-2"}' > "$F"
AWS_CONFIG_FILE="$A" "$EC2FIT" "${REC[@]}" > "$OUT"
check "the profile beats ec2fit's config region" jq -e '.workload.regions == ["eu-west-1"]' "$OUT"
mkdir -p "$WORK/home/.aws"
printf '[default]\nregion = ca-central-1\n' > "$WORK/home/.aws/config"
echo '{"output": "json"}' > "$F"
HOME="$WORK/home" AWS_CONFIG_FILE= "$EC2FIT" "${REC[@]}" > "$OUT"
check "~/.aws/config region" jq -e '.workload.regions == ["ca-central-1"]' "$OUT"
printf '[default]\nregion = xx-east-9\n' > "$A"
AWS_CONFIG_FILE="$A" "$EC2FIT" "${REC[@]}" > "$OUT" 2> "$ERR"
check "bad profile region: exit 2" test $? -eq 2
check "bad profile region: message names the file" grep -qx "ec2fit: recommend: $A: \[default\] region: unknown region 'xx-east-9' (did you mean ap-east-1?)" "$ERR"

# an output a command lacks is ignored there, used where it exists
echo '{"output": "markdown"}' > "$F"
"$EC2FIT" list --accelerator a100 > "$OUT"
check "list falls back to table for markdown" grep -q '^INSTANCE\|^TYPE' "$OUT"
"$EC2FIT" "${REC[@]}" > "$OUT"
check "recommend uses markdown" grep -q '^## EC2 recommendation' "$OUT"

# spot policy
echo '{"spot": false, "output": "json"}' > "$F"
"$EC2FIT" "${REC[@]}" > "$OUT"
check "config spot false" jq -e '.workload.spot_considered == false and all(.recommendations[]; .purchase == "on-demand")' "$OUT"
"$EC2FIT" "${REC[@]}" --spot > "$OUT"
check "--spot beats config" jq -e '.workload.spot_considered == true' "$OUT"
echo '{"spot": true, "output": "json"}' > "$F"
"$EC2FIT" recommend --model distilbert --task infer --qps 2 > "$OUT"
check "config spot true applies to serving" jq -e '.workload.spot_considered == true' "$OUT"

# framework: TensorFlow users get no Neuron plan; --framework beats it
echo '{"framework": "tensorflow", "output": "json"}' > "$F"
"$EC2FIT" "${REC[@]}" --families 'trn*' > "$OUT"
check "config framework tensorflow: no trn plan (exit 3)" test $? -eq 3
"$EC2FIT" recommend --model bert-base --task train --families 'trn*' --framework pytorch > "$OUT"
check "--framework beats config" jq -e '.recommendations[0].instance_type | startswith("trn")' "$OUT"
echo '{"framework": "keras"}' > "$F"
"$EC2FIT" "${REC[@]}" > "$OUT" 2> "$ERR"
check "config framework keras: exit 1" test $? -eq 1
check "config framework keras: message" grep -qF "config.json: \"framework\": expected pytorch, tensorflow or jax, got 'keras'" "$ERR"

# rules: a relative path is taken from the config directory
cp "$FIXTURES/rules_no_headroom.json" "$CFG/ec2fit/myrules.json"
echo '{"rules": "myrules.json", "output": "json"}' > "$F"
(cd "$WORK" && "$EC2FIT" "${REC[@]}" > "$OUT")
# (.rules holds at most 63 characters of the path: compare loosely)
check "config rules used" jq -e '.rules != "embedded" and (.rules | startswith("/"))' "$OUT"
(cd "$FIXTURES" && "$EC2FIT" "${REC[@]}" --rules rules_no_headroom.json > "$OUT")
check "--rules beats config" jq -e '.rules | endswith("rules_no_headroom.json")' "$OUT"
echo '{"rules": "missing.json"}' > "$F"
"$EC2FIT" "${REC[@]}" > "$OUT" 2> "$ERR"
check "missing rules file: exit 1" test $? -eq 1
check "missing rules file named" grep -q "missing.json" "$ERR"

# tf-external honours the config too (region), a query key wins
echo '{"region": "us-west-2"}' > "$F"
echo '{"model":"resnet50","task":"train"}' | "$EC2FIT" tf-external > "$OUT"
check "tf-external: config region" jq -e '.region == "us-west-2"' "$OUT"

# HOME fallback when XDG_CONFIG_HOME is unset
mkdir -p "$WORK/home/.config/ec2fit"
echo '{"region": "eu-central-1", "output": "json"}' > "$WORK/home/.config/ec2fit/config.json"
env -u XDG_CONFIG_HOME HOME="$WORK/home" "$EC2FIT" "${REC[@]}" > "$OUT"
check "~/.config fallback" jq -e '.workload.regions == ["eu-central-1"]' "$OUT"

# errors: exit 1, one line naming the file, for every command
while IFS='|' read -r what text want; do
  printf '%s' "$text" > "$F"
  "$EC2FIT" "${REC[@]}" > "$OUT" 2> "$ERR"
  check "$what: exit 1" test $? -eq 1
  check "$what: names the file" grep -qF "ec2fit: $F: " "$ERR"
  check "$what: says why" grep -qF "$want" "$ERR"
  check "$what: nothing on stdout" test ! -s "$OUT"
done <<'CASES'
malformed JSON|{"region": "us-west-2",|invalid JSON at byte offset
not an object|["us-west-2"]|expected a JSON object
unknown key|{"regoin": "us-west-2"}|unknown key "regoin"
spot not a boolean|{"spot": "yes"}|"spot": expected true or false
region not a string|{"region": 5}|"region": expected a non-empty string
unknown output|{"output": "yaml"}|"output": expected table|json|csv|markdown|tfvars|karpenter|html|ecs|cloudwatch, got 'yaml'
CASES
echo '{"regoin": "x"}' > "$F"
"$EC2FIT" models > "$OUT" 2> "$ERR"
check "models also reports it" test $? -eq 1
"$EC2FIT" --help > "$OUT"
check "--help still works" test $? -eq 0
"$EC2FIT" --version > "$OUT"
check "--version still works" test $? -eq 0
# an unknown region in the config is caught like --region's
echo '{"region": "us-west-9"}' > "$F"
"$EC2FIT" "${REC[@]}" > "$OUT" 2> "$ERR"
check "unknown config region: exit 2" test $? -eq 2
rm -f "$F"

finish
