#!/usr/bin/env bash
# recommend's machine outputs checked with jq, as a CI script would use them:
# the documented JSON fields and types (docs/output-schema.md), the exact
# tfvars keys, and exit codes. Values are cross-checked against the catalog
# prices (ec2_ondemand_us-east-1.csv: p4d.24xlarge 21.957642).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
J="$WORK/rec.json"

"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output json --top 10 > "$J"
check "exit 0 with a plan" test $? -eq 0
check "schema_version 2" jq -e '.schema_version == 2' "$J"
check "catalog fields" jq -e '.catalog.as_of == "2026-07-20" and .catalog.source == "embedded"' "$J"
check "workload echo" jq -e '.workload.model == "resnet50" and .workload.task == "train" and .workload.dataset_samples == 1280000 and .workload.epochs == 90' "$J"
check "10 recommendations ranked 1..10" jq -e '[.recommendations[].rank] == [1,2,3,4,5,6,7,8,9,10]' "$J"
check "every documented field present" jq -e 'all(.recommendations[];
  has("rank") and has("instance_type") and has("nodes") and has("purchase") and has("region")
  and has("accelerator") and (.memory | has("required_per_device_gib") and has("available_per_device_gib"))
  and has("time_hours") and has("hourly_usd") and has("total_usd") and has("monthly_usd")
  and has("bottleneck") and has("warnings"))' "$J"
check "types" jq -e 'all(.recommendations[]; (.nodes|type) == "number" and (.purchase == "on-demand" or .purchase == "spot")
  and (.warnings|type) == "array" and (.accelerator.count|type) == "number" and (.time_hours|type) == "number")' "$J"
check "total = hourly x hours + storage" jq -e 'all(.recommendations[]; ((.total_usd - .hourly_usd * .time_hours - .cost_breakdown.storage_usd) | fabs) < 0.01)' "$J"
check "breakdown adds up" jq -e 'all(.recommendations[]; ((.total_usd - .cost_breakdown.instances_usd - .cost_breakdown.storage_usd) | fabs) < 0.011)' "$J"
check "required fits available" jq -e 'all(.recommendations[]; .memory.required_per_device_gib * 1.1 <= .memory.available_per_device_gib + 0.001)' "$J"
check "marks present once each" jq -e '[.recommendations[].marks[]] | (index("cheapest") != null)' "$J"

# p4d on-demand only: the hourly price is the catalog's
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --families p4d --no-spot --output json > "$J"
check "p4d hourly price from the catalog" jq -e '.recommendations[0].instance_type == "p4d.24xlarge" and .recommendations[0].hourly_usd == 21.957642' "$J"

# tfvars: exactly the documented keys, with types Terraform expects
"$EC2FIT" recommend --model distilbert --task infer --qps 2 --output tfvars > "$J"
check "tfvars exit 0" test $? -eq 0
check "tfvars keys" jq -e 'keys == ["ami_ssm_parameter","asg_desired_capacity","asg_max_size","asg_min_size","availability_zone","efa_interfaces","fleet_hourly_usd","hourly_usd","instance_count","instance_type","monthly_usd","monthly_usd_high","node_hourly_usd","placement_group_strategy","prices_age_days","prices_as_of","purchase","region","scaling_policy","single_availability_zone","target_value","time_hours_high","total_usd","total_usd_high","use_spot","warm_pool_size","zone_group"] and .prices_as_of == "2026-07-20"' "$J"
check "tfvars: prices_as_of is the catalog's price date" jq -e '.prices_as_of == "2026-07-20"' "$J"
# the catalog's age from a pinned "today" (EC2FIT_NOW, docs/update.md):
# 2026-12-01T12:00:00Z is 134 days after 2026-07-20; a second before the
# as_of day ends it is 0
EC2FIT_NOW=1796126400 "$EC2FIT" recommend --model distilbert --task infer --qps 2 --output tfvars > "$J"
check "tfvars: prices_age_days from EC2FIT_NOW (2026-12-01: 134)" jq -e '.prices_age_days == 134' "$J"
EC2FIT_NOW=1784591999 "$EC2FIT" recommend --model distilbert --task infer --qps 2 --output tfvars > "$J"
check "tfvars: prices_age_days 0 on the as_of day (2026-07-20T23:59:59Z)" jq -e '.prices_age_days == 0' "$J"
EC2FIT_NOW=1796126400 "$EC2FIT" recommend --model distilbert --task infer --qps 2 --output json > "$J"
check "json: catalog.age_days beside as_of" jq -e '.catalog.as_of == "2026-07-20" and .catalog.age_days == 134 and (.catalog | keys_unsorted) == ["source","as_of","age_days","generated_at"]' "$J"
EC2FIT_NOW=1796126400 "$EC2FIT" estimate --model distilbert --task infer --instance c7i.large --output json > "$J"
check "estimate json: catalog.age_days" jq -e '.catalog.source == "embedded" and .catalog.as_of == "2026-07-20" and .catalog.age_days == 134' "$J"
EC2FIT_NOW=1796126400 "$EC2FIT" list --family c7i --region eu-west-1 --output json > "$J"
check "list json: catalog.age_days" jq -e '.catalog.age_days == 134' "$J"
EC2FIT_NOW=1796126400 "$EC2FIT" show c7i.large --output json > "$J"
check "show json: catalog.age_days" jq -e '.catalog.age_days == 134' "$J"
printf '{"model":"distilbert","task":"infer","qps":2}\n' | EC2FIT_NOW=1796126400 "$EC2FIT" recommend --batch - > "$J"
check "batch line: catalog.age_days" jq -e '.catalog.age_days == 134' "$J"
"$EC2FIT" recommend --model distilbert --task infer --qps 2 --output tfvars > "$J"
check "tfvars: the likely range's high end is above the figure" jq -e '.monthly_usd_high >= .monthly_usd' "$J"
check "tfvars: zone_group null for a region" jq -e '.zone_group == null' "$J"
# a Local Zone is not a region: `provider "aws" { region = var.region }`
# gets the parent, the zone group its own variable (docs/terraform.md)
"$EC2FIT" recommend --model resnet50 --task train --region us-west-2-lax-1 --output tfvars > "$WORK/lz.json"
check "tfvars Local Zone: region us-west-2, zone_group us-west-2-lax-1" jq -e '.region == "us-west-2" and .zone_group == "us-west-2-lax-1"' "$WORK/lz.json"
"$EC2FIT" recommend --model resnet50 --task train --region us-east-1-wl1-bna1 --output json > "$WORK/wl.json"
check "json Wavelength: plans carry region us-east-1 and zone_group" jq -e '.workload.regions == ["us-east-1-wl1-bna1"] and all(.recommendations[]; .region == "us-east-1" and .zone_group == "us-east-1-wl1-bna1")' "$WORK/wl.json"
"$EC2FIT" recommend --model resnet50 --task train --output json > "$WORK/r.json"
check "json: no zone_group for a region" jq -e 'all(.recommendations[]; has("zone_group") | not)' "$WORK/r.json"
check "tfvars types" jq -e '(.instance_type|type)=="string" and (.instance_count|type)=="number" and (.use_spot|type)=="boolean" and .region=="us-east-1"' "$J"

# serving JSON: autoscaling and alternatives
"$EC2FIT" recommend --model distilbert --task infer --qps 2 --peak-qps 10 --output json > "$J"
check "autoscaling" jq -e '.autoscaling.min_instances >= 1 and .autoscaling.max_instances >= .autoscaling.min_instances' "$J"
check "alternatives listed" jq -e '[.alternatives[].kind] == ["lambda","lightsail"]' "$J"
check "monthly = hourly x 730" jq -e 'all(.recommendations[]; ((.monthly_usd - .hourly_usd * 730)|fabs) < 0.01)' "$J"

# --explain adds the rejected list, each with rule and reason
"$EC2FIT" recommend --model llama-3.1-70b --task infer --explain --output json > "$J"
check "rejected present" jq -e '(.rejected | length) > 100 and all(.rejected[]; has("instance_type") and has("rule") and has("reason"))' "$J"
check "g5.xlarge rejected by memory-fit" jq -e 'any(.rejected[]; .instance_type == "g5.xlarge" and .rule == "memory-fit")' "$J"

# exit 3: no plan; JSON still printed with closest misses, tfvars prints nothing
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output json > "$J" 2>/dev/null
check "exit 3 when nothing fits" test $? -eq 3
check "closest misses" jq -e '(.recommendations | length) == 0 and .closest_misses[0].rule == "budget"' "$J"
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output tfvars > "$J" 2>/dev/null
check "tfvars exit 3" test $? -eq 3
check "tfvars empty on exit 3" test ! -s "$J"

finish
