#!/usr/bin/env bash
# Every JSON document ec2fit prints validates against its JSON Schema in
# docs/schema/ (python3-jsonschema, draft 2020-12): the golden outputs in
# tests/cli/golden and fresh runs of every command; the schemas are what
# tools/gen_schemas.py writes; and they are strict enough to catch drift
# (a wrong type, an unknown or missing field, an undocumented enum value).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && rm -f "$WORK"/*.json
S="$SRC_DIR/docs/schema" V="$SRC_DIR/tests/tools/validate_json.py"
valid() { python3 "$V" "$S/$1.schema.json" "$2" ${3:-}; }
invalid() { ! valid "$@"; }

python3 "$SRC_DIR/tools/gen_schemas.py" "$WORK/schema"
check "docs/schema is what tools/gen_schemas.py writes" diff -r "$WORK/schema" "$S"

# golden outputs: every case whose arguments ask for JSON
n=0
for args in "$SRC_DIR"/tests/cli/golden/*.args; do
  case=${args%.args} out=${args%.args}.out
  read -r -a argv < "$args"
  cmd=${argv[0]} json=0 lines=
  for ((i = 1; i < ${#argv[@]}; i++)); do
    case "${argv[i]}" in
      --batch) json=1 lines=--lines ;;
      --output|-o) [ "${argv[i+1]:-}" = json ] && json=1 ;;
    esac
  done
  [ "$json" = 1 ] && [ -s "$out" ] || continue
  schema=$cmd; [ -n "$lines" ] && schema=recommend-batch-line
  check "golden $(basename "$case") validates against $schema" valid "$schema" "$out" $lines
  n=$((n + 1))
done
check "golden JSON outputs validated: $n (expected 24)" test "$n" -eq 24

# fresh runs of every command
run() { # name schema args...
  local name=$1 schema=$2; shift 2
  "$EC2FIT" "$@" > "$WORK/$name.json" 2> /dev/null
  check "$name validates against $schema" valid "$schema" "$WORK/$name.json"
}
run list_gpu list list --accelerator a100 --output json
run list_cpu_spot list list --family c7i --spot --region us-west-2 --output json
run list_all list list --output json
run list_all_regions list list --region all --family "g6*" -o json
run list_sorted list list --sort savings --order asc --max-results 7 -o json
run show_p5e show show p5e.48xlarge --output json
run show_all_regions show show g5.xlarge --output json
run show_cpu show show c7i.large --output json
run models models models --output json
run est_train estimate estimate --model resnet50 --task train --instance p4d.24xlarge --dataset 1.28M --output json
run est_lora estimate estimate --model llama-3.1-8b --task lora --instance g5.xlarge --output json
run est_cpu estimate estimate --model bert-base --task infer --instance c7i.large --output json
run est_nofit estimate estimate --model llama-3.1-70b --task train --instance g5.xlarge --output json
run est_moe estimate estimate --model mixtral-8x7b --task batch --instance p5.48xlarge --output json
run rec_serve recommend recommend --model llama-3.1-8b --task infer --qps 5 --output json
run rec_small_serve recommend recommend --model distilbert --task infer --qps 2 --output json
run rec_spot_explain recommend recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --spot --explain --output json
run rec_regions recommend recommend --model llama-3.1-70b --task lora --regions us-east-1,us-west-2 --top 10 --output json
run rec_no_plan recommend recommend --model llama-3.1-405b --task train --max-nodes 1 --output json
# --explain: plans_tried/chosen_reason (training), serving_breakdown (serving)
# a Local Zone or Wavelength group wherever a location can be one (issue 25):
# show's price keys, list --region all, missing_prices and estimate's cost
run show_p5_zones show show p5.48xlarge -o json
check "show p5.48xlarge: a zone group among its price keys" jq -e '.instance.prices | keys | any(test("^us-east-1-atl-1$"))' "$WORK/show_p5_zones.json"
run list_region_all list list --region all -o json
check "list --region all: zone-group rows present, region the parent" jq -e '[.instances[] | select(.zone_group == "us-west-2-lax-1") | .region] | length > 0 and all(. == "us-west-2")' "$WORK/list_region_all.json"
check "list --region all: region is always a region" jq -e '[.instances[].region] | all(test("^[a-z]{2}(-[a-z]+)+-[0-9]+$"))' "$WORK/list_region_all.json"
check "list --region all: regions' own rows without zone_group, every zone_group inside its region" jq -e '([.instances[] | select(.region == "us-west-2" and (has("zone_group") | not))] | length > 0) and ([.instances[] | select(has("zone_group")) | select((.region + "-") as $r | .zone_group | startswith($r) | not)] | length == 0)' "$WORK/list_region_all.json"
run rec_local_zone recommend recommend --model resnet50 --task train --region us-west-2-lax-1 -o json
# since session 11 no family is priced in us-east-1 only (SOURCES.md 9a), so
# a Local Zone has no data gap to name: families it does not list are not
# offered there (h11g: Local and Wavelength zones are never "uncovered")
check "recommend in a Local Zone: no missing_prices (no us-east-1-only family left)" jq -e '.missing_prices == []' "$WORK/rec_local_zone.json"
run est_local_zone estimate estimate --model resnet50 --task train --instance g4dn.xlarge --region us-west-2-lax-1 -o json
check "estimate in a Local Zone: cost names the zone group and its region" jq -e '.cost.region == "us-west-2" and .cost.zone_group == "us-west-2-lax-1"' "$WORK/est_local_zone.json"
check "show p5.48xlarge: the zone group's price entry names its region" jq -e '.instance.prices["us-east-1-atl-1"] | .region == "us-east-1" and .zone_group == "us-east-1-atl-1"' "$WORK/show_p5_zones.json"
check "show p5.48xlarge: a region's price entry has neither key" jq -e '.instance.prices["us-east-1"] | has("region") or has("zone_group") | not' "$WORK/show_p5_zones.json"
run est_explain_train estimate estimate --model bert-large --task train --dataset 2.4M --seq-len 512 --instance p5.48xlarge --explain --output json
run est_explain_serve estimate estimate --model llama-3.1-8b --task infer --instance g6e.xlarge --qps 1 --explain --output json
run est_explain_cnn estimate estimate --model resnet50 --task infer --instance g5.xlarge --explain --output json
run est_explain_nofit estimate estimate --model llama-3.1-405b --task infer --instance g5.xlarge --explain --output json
run rec_explain_serve recommend recommend --model llama-3.1-8b --task infer --qps 5 --explain --output json
run rec_explain_pp recommend recommend --params 175B --task train --dataset 300B --optimize time --max-nodes 64 --families p4d --explain --output json
run rec_storage_fsx recommend recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --storage fsx --storage-throughput 1200 --output json
run rec_storage_efs recommend recommend --model resnet50 --task train --dataset 1.28M --epochs 3 --storage efs --output json
run rec_estimated recommend recommend --model distilbert --task infer --qps 2 --regions sa-east-1,us-east-1 --estimate-missing-prices --output json
run est_gp3 estimate estimate --model resnet50 --task train --instance p5.48xlarge --dataset 1.28M --storage gp3 --storage-throughput 500 --output json
printf '%s\n' '{"model":"resnet50","task":"train","spot":true}' '{"model":"nope","task":"train"}' \
  '{"model":"llama-3.1-8b","task":"infer","qps":3}' > "$WORK/batch.jsonl"
"$EC2FIT" recommend --batch "$WORK/batch.jsonl" > "$WORK/batch.out" 2> /dev/null
check "batch lines (plan, error, serving) validate" valid recommend-batch-line "$WORK/batch.out" --lines
check "batch: 3 lines" test "$(wc -l < "$WORK/batch.out")" -eq 3
"$EC2FIT" recommend --batch "$WORK/batch.jsonl" --explain > "$WORK/batch_explain.out" 2> /dev/null
check "batch lines with --explain validate" valid recommend-batch-line "$WORK/batch_explain.out" --lines
check "batch --explain: rank 1 of the training and serving lines explained" test \
  "$(jq -c '.recommendations[0] // {} | [has("plans_tried"), has("serving_breakdown")]' "$WORK/batch_explain.out" | tr '\n' ' ')" = "[true,false] [false,false] [false,true] "
echo '{"model":"resnet50","task":"train","dataset":"1.28M"}' | "$EC2FIT" tf-external > "$WORK/tf.json"
check "tf-external validates" valid tf-external "$WORK/tf.json"

# likely ranges (docs/estimation.md "Ranges"): the acceptance command of
# issue 27, then jobs, serving and estimates over many workloads; every
# document validates, every figure lies inside its range as printed
run rec_ranges recommend recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --output json
check "resnet50 x 90 epochs: every plan has time, total and throughput ranges around its figures" jq -e '
  (.recommendations | length) > 0 and all(.recommendations[];
    .ranges.time_hours.low <= .time_hours and .time_hours <= .ranges.time_hours.high and
    .ranges.total_usd.low <= .total_usd and .total_usd <= .ranges.total_usd.high and
    .ranges.throughput.low <= .throughput.value and .throughput.value <= .ranges.throughput.high and
    .ranges.time_hours.basis_rows >= 5 and (.time_hours | type) == "number")' "$WORK/rec_ranges.json"
inside() { # document jq-path-of-figure range-key
  jq -e --arg k "$3" "[.. | objects | select(has(\"ranges\") and (.ranges | has(\$k)))] | length > 0 and all(.[]; .ranges[\$k].low <= ($2) and ($2) <= .ranges[\$k].high)" "$1" > /dev/null
}
i=0
while read -r args; do
  i=$((i + 1))
  # shellcheck disable=SC2086
  "$EC2FIT" recommend $args --output json > "$WORK/rng_$i.json" 2> /dev/null
  check "ranges $i ($args) validate" valid recommend "$WORK/rng_$i.json"
  case "$args" in
    *--qps*)
      for k in latency_ms monthly_usd; do
        check "ranges $i: $k inside" inside "$WORK/rng_$i.json" ".$k" "$k"; done
      case "$args" in *llama*|*mistral*)
        for k in ttft_ms per_token_ms; do
          check "ranges $i: $k inside" inside "$WORK/rng_$i.json" ".$k" "$k"; done ;;
      esac ;;
    *)
      for k in time_hours total_usd; do
        check "ranges $i: $k inside" inside "$WORK/rng_$i.json" ".$k" "$k"; done ;;
  esac
  check "ranges $i: throughput inside" inside "$WORK/rng_$i.json" ".throughput.value" throughput
  check "ranges $i: memory inside" inside "$WORK/rng_$i.json" ".memory.required_per_device_gib" memory_per_device_gib
done <<'EOW'
--model llama-3.1-8b --task infer --qps 50
--model mistral-7b --task infer --qps 3 --engine trtllm
--model bert-base --task infer --qps 200
--model resnet50 --task infer --qps 20
--model llama-3.1-70b --task lora --dataset 100M
--model bert-large --task finetune --dataset 2.4M --epochs 2
--model bert-base --task batch --dataset 10M
--model vit-b-16 --task train --dataset 1.28M --epochs 3
--model llama-3.1-8b --task qlora --dataset 20M --spot
EOW
for e in est_train est_moe est_explain_serve est_explain_train; do
  check "$e: throughput inside its range" inside "$WORK/$e.json" ".throughput.value" throughput
done
check "est_train: time inside its range" inside "$WORK/est_train.json" ".time_hours" time_hours
check "est_explain_serve: latency inside its range" inside "$WORK/est_explain_serve.json" ".latency_ms" latency_ms
check "tf-external: the high ends beside the figures" jq -e '(.total_usd_high | tonumber) >= (.total_usd | tonumber) and (.time_hours_high | tonumber) > 0 and .monthly_usd_high == ""' "$WORK/tf.json"

# every document carries schema_version; recommend's is 2 (spot_savings_pct became an integer)
for f in "$WORK"/*.json; do
  check "$(basename "$f"): schema_version first" jq -e 'keys_unsorted[0] == "schema_version"' "$f"
done
check "estimated plans are marked, real ones not" jq -e '([.recommendations[] | select(.region == "sa-east-1" and .accelerator == null) | .price_estimated] | all) and ([.recommendations[] | select(.region == "us-east-1") | .price_estimated] | any | not)' "$WORK/rec_estimated.json"
check "fsx plan: breakdown adds up" jq -e 'all(.recommendations[]; ((.total_usd - .cost_breakdown.instances_usd - .cost_breakdown.storage_usd) | fabs) < 0.011 and .storage.kind == "fsx")' "$WORK/rec_storage_fsx.json"
check "recommend schema_version is 2" jq -e '.schema_version == 2' "$WORK/rec_serve.json"
# spot_savings_pct: one type and value everywhere (recommend = show = list, same type and region)
t=$(jq -r '[.recommendations[] | select(.purchase == "spot")][0] | .instance_type + " " + .region' "$WORK/rec_spot_explain.json")
"$EC2FIT" show ${t% *} --region ${t#* } --output json > "$WORK/show_spot.json"
check "recommend's spot_savings_pct equals show's for $t" test \
  "$(jq '[.recommendations[] | select(.purchase == "spot")][0].spot_savings_pct' "$WORK/rec_spot_explain.json")" = \
  "$(jq --arg r "${t#* }" '.instance.prices[$r].spot_savings_pct' "$WORK/show_spot.json")"
check "p4d.24xlarge us-east-1 spot_savings_pct is the catalog's 67" \
  jq -e '.instance.prices["us-east-1"].spot_savings_pct == 67' <("$EC2FIT" show p4d.24xlarge --region us-east-1 --output json)
check "est: tp+fsdp or another documented parallelism" jq -e '.parallelism | IN("single","dp","fsdp","tp","tp+dp","tp+pp","tp+fsdp")' "$WORK/est_moe.json"

# the schemas catch drift
mut() { # name schema jq-filter source
  jq "$3" "$WORK/$4.json" > "$WORK/mut_$1.json"
  check "drift caught: $1" invalid "$2" "$WORK/mut_$1.json"
}
mut price_string list '.instances[0].price.ondemand_usd_per_hour |= tostring' list_gpu
mut savings_fraction show '.instance.prices |= map_values(.spot_savings_pct = 51.9)' show_all_regions
mut extra_field recommend '.recommendations[0].gpu_count = 8' rec_serve
mut missing_field recommend 'del(.recommendations[0].hourly_usd)' rec_serve
mut no_version models 'del(.schema_version)' models
mut old_version recommend '.schema_version = 1' rec_serve
mut bad_parallelism estimate '.parallelism = "pp+dp"' est_train
mut spot_fields_on_demand recommend '.recommendations[0] |= (.purchase = "on-demand")' rec_spot_explain
mut plan_savings_rounded recommend '(.recommendations[] | select(.purchase=="spot") | .spot_savings_pct) |= . + 0.5' rec_spot_explain
mut tf_number tf-external '.hourly_usd |= tonumber' tf
mut estimate_extra estimate '.memory.vram_gib = 1' est_train
mut tried_no_chosen estimate 'del(.plans_tried[0].chosen)' est_explain_train
mut tried_bad_strategy recommend '.recommendations[0].plans_tried[0].strategy = "zero-4"' rec_explain_pp
mut serve_bad_limit estimate '.serving_breakdown.batch_limited_by = "budget"' est_explain_serve
mut range_string recommend '.recommendations[0].ranges.time_hours.low |= tostring' rec_ranges
mut range_unknown recommend '.recommendations[0].ranges.speed = .recommendations[0].ranges.throughput' rec_ranges
mut range_no_rows estimate 'del(.ranges.throughput.basis_rows)' est_train
mut serve_extra recommend '.recommendations[0].serving_breakdown.tokens = 1' rec_explain_serve
finish
