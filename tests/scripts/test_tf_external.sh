#!/usr/bin/env bash
# `ec2fit tf-external` driven exactly as Terraform's `data "external"` does:
# one JSON object of strings on stdin; on success stdout must be one flat
# JSON object whose values are all strings (Terraform rejects anything
# else), on failure a non-zero exit and one line on stderr.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
OUT="$WORK/out.json" ERR="$WORK/err.txt"
run() { # stdin-text: runs tf-external, sets rc
  printf '%s' "$1" | "$EC2FIT" tf-external > "$OUT" 2> "$ERR"
  rc=$?
}
flat_strings() { jq -e 'type == "object" and all(.[]; type == "string")' "$OUT"; }
keys_ok() {
  jq -e 'keys == ["ami_ssm_parameter","asg_desired_capacity","asg_max_size","asg_min_size","availability_zone","catalog_age_days","catalog_as_of","efa_interfaces","fleet_hourly_usd","hourly_usd","instance_count","instance_type","monthly_usd","monthly_usd_high","node_hourly_usd","placement_group_strategy","purchase","region","scaling_policy","schema_version","single_availability_zone","target_value","time_hours_high","total_usd","total_usd_high","use_spot","warm_pool_size","zone_group"] and .asg_min_size == "" and .scaling_policy == ""' "$OUT"
}
# serving: the same keys (one module declares them once), the Auto
# Scaling group filled in (docs/terraform.md)
keys_serve_ok() {
  jq -e 'keys == ["ami_ssm_parameter","asg_desired_capacity","asg_max_size","asg_min_size","availability_zone","catalog_age_days","catalog_as_of","efa_interfaces","fleet_hourly_usd","hourly_usd","instance_count","instance_type","monthly_usd","monthly_usd_high","node_hourly_usd","placement_group_strategy","purchase","region","scaling_policy","schema_version","single_availability_zone","target_value","time_hours_high","total_usd","total_usd_high","use_spot","warm_pool_size","zone_group"] and (.asg_min_size | tonumber) >= 1 and .scaling_policy == "alb-request-count-per-target"
    and ((.node_hourly_usd | tonumber) * (.instance_count | tonumber) - (.fleet_hourly_usd | tonumber) | fabs) < 0.00001
    and .fleet_hourly_usd == .hourly_usd' "$OUT"
}
one_line_err() { test "$(wc -l < "$ERR")" -eq 1 && grep -q '^ec2fit: ' "$ERR"; }

# training job with a dataset: total_usd set, monthly_usd empty
run '{"model":"resnet50","task":"train","dataset":"1.28M","epochs":"90","region":"us-west-2"}'
check "train: exit 0" test "$rc" -eq 0
check "train: one flat object of strings" flat_strings
check "train: exactly the documented keys" keys_ok
check "train: values" jq -e '.region == "us-west-2" and (.instance_count|tonumber) >= 1
  and (.use_spot == "true" or .use_spot == "false") and (.hourly_usd|tonumber) > 0
  and (.total_usd|tonumber) > 0 and .monthly_usd == "" and .catalog_as_of == "2026-07-20"' "$OUT"
check "train: no stderr" test ! -s "$ERR"
# the same plan as recommend's rank 1
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --region us-west-2 --output tfvars > "$WORK/tfvars.json"
check "train: agrees with recommend --output tfvars" jq -e --slurpfile t "$WORK/tfvars.json" \
  '.instance_type == $t[0].instance_type and (.instance_count|tonumber) == $t[0].instance_count
   and (.use_spot == "true") == $t[0].use_spot and ((.hourly_usd|tonumber) - $t[0].hourly_usd | fabs) < 1e-6' "$OUT"

# a Local Zone: region is the parent region (the provider's argument), the
# zone group in its own key; "" for a region
check "train: zone_group empty for a region" jq -e '.zone_group == ""' "$OUT"
run '{"model":"resnet50","task":"train","region":"us-west-2-lax-1"}'
check "Local Zone: region us-west-2, zone_group us-west-2-lax-1" jq -e '.region == "us-west-2" and .zone_group == "us-west-2-lax-1"' "$OUT"

# serving: monthly_usd set, total_usd empty; underscores and "" (unset)
run '{"model":"llama-3.1-8b","task":"infer","qps":"5","latency_ms":"","spot":"false"}'
check "serve: exit 0" test "$rc" -eq 0
check "serve: flat strings and keys" keys_serve_ok
check "serve: monthly set, total empty, on-demand" jq -e '(.monthly_usd|tonumber) > 0 and .total_usd == "" and .use_spot == "false"' "$OUT"
run '{"model":"resnet50","task":"train","batch_size":"64","budget-hourly":"100"}'
check "underscore and dash keys both accepted" test "$rc" -eq 0

# --framework as a query key: TensorFlow never trains on Trainium
run '{"model":"bert-base","task":"train","framework":"tensorflow","families":"trn*"}'
check "framework tensorflow on trn*: no plan, exit 3" test "$rc" -eq 3
run '{"model":"bert-base","task":"train","framework":"pytorch","families":"trn*"}'
check "framework pytorch on trn*: a Trainium plan" jq -e '.instance_type | startswith("trn")' "$OUT"
run '{"model":"llama-3.1-8b","task":"infer","engine":"trtllm","families":"inf*"}'
check "engine trtllm on inf*: no plan, exit 3" test "$rc" -eq 3

# errors: non-zero exit, nothing on stdout, exactly one line on stderr
while IFS='|' read -r what want input; do
  run "$input"
  check "$what: exit $want" test "$rc" -eq "$want"
  check "$what: empty stdout" test ! -s "$OUT"
  check "$what: one line on stderr" one_line_err
done <<'CASES'
array instead of object|2|["resnet50"]
string instead of object|2|"resnet50"
malformed JSON|2|{"model": "resnet50",
trailing text|2|{"model":"resnet50","task":"train"} x
empty stdin|2|
number value|2|{"model":"resnet50","task":"train","epochs":3}
boolean value|2|{"model":"resnet50","task":"train","spot":true}
nested object|2|{"model":"resnet50","task":"train","x":{"a":"b"}}
unknown key|2|{"model":"resnet50","task":"train","instance":"p4d.24xlarge"}
refused key output|2|{"model":"resnet50","task":"train","output":"json"}
bad switch value|2|{"model":"resnet50","task":"train","spot":"yes"}
unknown framework|2|{"model":"resnet50","task":"train","framework":"keras"}
unknown model|2|{"model":"resnet5","task":"train"}
missing task|2|{"model":"resnet50"}
bad number|2|{"model":"resnet50","task":"train","budget_hourly":"lots"}
unknown region|2|{"model":"resnet50","task":"train","region":"us-east-9"}
no plan|3|{"model":"llama-3.1-405b","task":"train","budget_hourly":"1"}
duplicate key|2|{"model":"resnet50","task":"train","model":"bert-base"}
two spellings of one flag|2|{"model":"resnet50","task":"train","batch_size":"8","batch-size":"16"}
escaped NUL|2|{"model":"resnet50\u0000x","task":"train"}
two objects|2|{"model":"resnet50","task":"train"}{"model":"bert-base"}
CASES
run '{"model":"resnet50","task":"train","model":"bert-base"}'
check "duplicate key message" grep -qx 'ec2fit: tf-external: stdin: duplicate key "model"' "$ERR"
run '{"model":"resnet50","task":"train","batch_size":"8","batch-size":"16"}'
check "two spellings message" grep -qx "ec2fit: tf-external: keys 'batch_size' and 'batch-size' name the same flag" "$ERR"
run '{"model":"resnet50\u0000x","task":"train"}'
check "escaped NUL message" grep -qx 'ec2fit: tf-external: stdin: \\u0000 in a string at byte offset 18' "$ERR"
printf '{"model":"res\377net","task":"train"}' | "$EC2FIT" tf-external >"$OUT" 2>"$ERR"
rc=$?
check "raw 0xFF: exit 2" test "$rc" -eq 2
check "raw 0xFF: not echoed" grep -qx 'ec2fit: tf-external: stdin: model: invalid UTF-8 in a string' "$ERR"
run '{"model":"resnet5","task":"train"}'
check "unknown model message" grep -q "unknown model 'resnet5' (did you mean resnet50?)" "$ERR"
run '{"model":"resnet50","task":"train","instance":"p4d.24xlarge"}'
check "unknown key message names the key" grep -q "unknown key 'instance'" "$ERR"
run '{"model":"resnet50","task":"train","epochs":3}'
check "non-string message" grep -q "key 'epochs': expected a string, got a number" "$ERR"
"$EC2FIT" tf-external extra < /dev/null > "$OUT" 2> "$ERR"
check "arguments refused (exit 2)" test $? -eq 2
"$EC2FIT" tf-external --help > "$OUT"
check "--help exit 0" test $? -eq 0

# the catalog's age, a string of whole days from a pinned "today"
# (EC2FIT_NOW 2026-12-01T12:00:00Z: 134 days after 2026-07-20)
printf '%s' '{"model":"distilbert","task":"infer","qps":"2"}' | EC2FIT_NOW=1796126400 "$EC2FIT" tf-external > "$OUT" 2> "$ERR"
check "catalog_age_days from EC2FIT_NOW" jq -e '.catalog_as_of == "2026-07-20" and .catalog_age_days == "134"' "$OUT"

# a load no fleet meets (found by fuzz_tf_external: the Lightsail
# alternative's instance count, ~7.8e10, overflowed an int before it was
# saturated): exit 3, one line naming the closest miss, nothing on stdout
run '{"model":"llama-3.1-8b","task":"infer","qps":"88888882"}'
check "huge qps: exit 3" test "$rc" -eq 3
check "huge qps: one line" one_line_err
check "huge qps: closest miss named" grep -q 'closest: .*instances for 8.89e+07 req/s' "$ERR"
# the line names the command Terraform ran, as every other tf-external
# error does (docs/terraform.md), not the recommend pipeline it reuses
check "no plan: the line says tf-external, not recommend" grep -q '^ec2fit: tf-external: no instance type satisfies the constraints; closest: ' "$ERR"
check "huge qps: no stdout" test ! -s "$OUT"

finish
