#!/usr/bin/env bash
# Purchase options and Auto Scaling (issue 15, docs/rules.md "Purchase
# options", "Auto Scaling"). Prices from the embedded catalog, us-east-1
# (data/catalog.json): g6e.xlarge on-demand 1.861, reserved_1y 1.17243.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
J="$WORK/fleet.json"
T="$WORK/fleet.tfvars.json"
ERR="$WORK/fleet.err"

# ---- purchase options, 24/7 serving ----
# NVIDIA families, so rank 1 is g6e.xlarge (unfiltered, inf2.xlarge ranks
# first: its figures are checked by the purchase rules, not here)
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,p5' --output json --top 10 > "$J"
check "qps 50: exit 0" test $? -eq 0
check "every plan has purchase_options with on-demand, reserved-1y, savings plans" jq -e 'all(.recommendations[];
  .purchase_options | has("on-demand") and has("reserved-1y") and has("savings-plan-1y") and has("savings-plan-3y")
  and (.["on-demand"].monthly_usd|type) == "number" and has("chosen") and has("monthly_saving_usd"))' "$J"
check "plans with a catalog reserved rate: monthly costs and a break-even below 100%" jq -e '[.recommendations[]
  | select(.purchase_options["reserved-1y"].usd_per_hour != null) | .purchase_options]
  | length > 0 and all(.[]; (.["reserved-1y"].monthly_usd|type) == "number" and (.["savings-plan-1y"].monthly_usd|type) == "number"
    and .["reserved-1y"].break_even_utilization_pct < 100 and .["reserved-1y"].break_even_utilization_pct > 0)' "$J"
check "auto: 24/7 serving with a reserved rate is bought reserved-1y" jq -e 'all(.recommendations[]
  | select(.purchase_options["reserved-1y"].usd_per_hour != null); .purchase == "reserved-1y" and .purchase_options.chosen == "reserved-1y")' "$J"
check "auto: no reserved rate -> on-demand" jq -e 'all(.recommendations[]
  | select(.purchase_options["reserved-1y"].usd_per_hour == null); .purchase == "on-demand")' "$J"
# rank 1 exactly: 50 req/s / (9.555 req/s x 0.7) -> 8 g6e.xlarge (batch 256,
# vLLM's max_num_seqs, within the default service level: docs/estimation.md 5.4)
check "rank 1 g6e.xlarge, 8 instances" jq -e '.recommendations[0] | .instance_type == "g6e.xlarge" and .nodes == 8' "$J"
check "rank 1 reserved rate is the catalog's 1.17243" jq -e '.recommendations[0].purchase_options["reserved-1y"].usd_per_hour == 1.17243' "$J"
check "rank 1 monthly = 8 x 1.17243 x 730 = 6846.99" jq -e '.recommendations[0].monthly_usd == 6846.99' "$J"
check "rank 1 on-demand monthly = 8 x 1.861 x 730 = 10868.24" jq -e '.recommendations[0].purchase_options["on-demand"].monthly_usd == 10868.24' "$J"
check "rank 1 break-even 1.17243 / 1.861 = 63.0%" jq -e '.recommendations[0].purchase_options["reserved-1y"].break_even_utilization_pct == 63' "$J"
check "rank 1 saving = 10868.24 - 6846.99" jq -e '.recommendations[0].purchase_options.monthly_saving_usd == 4021.25' "$J"
check "savings-plan-3y is the published 66% bound, marked estimated" jq -e '.recommendations[0].purchase_options["savings-plan-3y"]
  | .estimated == true and ((.usd_per_hour - 1.861 * 0.34) | fabs) < 1e-5' "$J"
check "no --peak-qps: max for 2 x qps, said so" jq -e '.autoscaling | .peak_qps_defaulted == true and .max_instances == 15' "$J"

"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,p5' --purchase on-demand --output json > "$J"
check "--purchase on-demand: priced on-demand" jq -e '.recommendations[0] | .purchase == "on-demand"
  and .monthly_usd == .purchase_options["on-demand"].monthly_usd and .monthly_usd == 10868.24' "$J"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --purchase spot --output json --top 20 > "$J"
check "--purchase spot: serving considers spot" jq -e '[.recommendations[] | select(.purchase == "spot")] | length > 0' "$J"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --purchase savings-plan-3y --output json > "$J"
check "--purchase savings-plan-3y: priced at the bound" jq -e '.recommendations[0] | .purchase == "savings-plan-3y"
  and .monthly_usd == .purchase_options["savings-plan-3y"].monthly_usd' "$J"

# ---- Auto Scaling that adds up: --qps 20 --peak-qps 200 ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --peak-qps 200 --families 'g6e,g6,g5,p5' --output json > "$J"
check "peak: exit 0" test $? -eq 0
check "min x capacity x target >= 20" jq -e '.recommendations[0] as $p | ($p.capacity_qps / $p.nodes) as $c
  | .autoscaling.min_instances * $c * 0.7 >= 20 and (.autoscaling.min_instances - 1) * $c * 0.7 < 20' "$J"
check "max x capacity x target >= 200" jq -e '.recommendations[0] as $p | ($p.capacity_qps / $p.nodes) as $c
  | .autoscaling.max_instances * $c * 0.7 >= 200 and (.autoscaling.max_instances - 1) * $c * 0.7 < 200' "$J"
# the diurnal profile recomputed here: hourly load qps + (peak - qps)(1 - cos(2 pi (h + 0.5) / 24)) / 2
check "expected fleet = mean of the hourly fleets over the profile" jq -e '.recommendations[0] as $p | ($p.capacity_qps / $p.nodes * 0.7) as $c
  | ([range(0; 24) | 20 + 180 * (1 - ((2 * 3.141592653589793 * (. + 0.5) / 24) | cos)) / 2 | (. / $c - 1e-9 | ceil)] | add / 24) as $e
  | ((.autoscaling.expected_instances - $e) | fabs) < 0.001' "$J"
check "monthly = min at reserved + the rest of the expected fleet on-demand, x 730" jq -e '.recommendations[0] | .auto_scaling as $a
  | (.capacity_qps / .nodes * 0.7) as $c
  | ([range(0; 24) | 20 + 180 * (1 - ((2 * 3.141592653589793 * (. + 0.5) / 24) | cos)) / 2 | (. / $c - 1e-9 | ceil)] | add / 24) as $e
  | (($a.min_instances * 1.17243 + ($e - $a.min_instances) * 1.861) * 730) as $m
  | ((.monthly_usd - $m) | fabs) < 0.05 and .instance_type == "g6e.xlarge"' "$J"
check "target value = requests per target per minute at 70%" jq -e '.recommendations[0] as $p
  | ((.autoscaling.target_value - $p.capacity_qps / $p.nodes * 0.7 * 60) | fabs) < 0.01 and .autoscaling.policy == "alb-request-count-per-target"' "$J"
check "warm pool within min..max" jq -e '.autoscaling | .warm_pool_size >= 1 and .warm_pool_size <= .max_instances - .min_instances' "$J"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --peak-qps 200 --families 'g6e,g6,g5,p5' --output tfvars > "$T"
check "tfvars carries the same group" jq -e --slurpfile j "$J" '.asg_min_size == $j[0].autoscaling.min_instances
  and .asg_max_size == $j[0].autoscaling.max_instances and .asg_desired_capacity == $j[0].autoscaling.min_instances
  and .target_value == $j[0].autoscaling.target_value and .warm_pool_size == $j[0].autoscaling.warm_pool_size
  and .monthly_usd == $j[0].recommendations[0].monthly_usd' "$T"

"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --peak-qps 200 --families 'g6e,g6,g5,p5' --output html > "$WORK/fleet.html"
check "html: purchase options and the group" grep -q "<dt>Instances</dt><dd>min $(jq .autoscaling.min_instances "$J"), desired $(jq .autoscaling.min_instances "$J"), max $(jq .autoscaling.max_instances "$J");" "$WORK/fleet.html"
check "html: reserved-1y chosen" grep -q "<tr><td>reserved-1y &#10003;</td><td>\$1.1724</td>" "$WORK/fleet.html"
check "html: warm pool" grep -q "<dt>Warm pool</dt><dd>$(jq .autoscaling.warm_pool_size "$J") instance(s)</dd>" "$WORK/fleet.html"

# ---- --target-utilization, --async, --fallback cpu ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,p5' --target-utilization 50% --output json > "$J"
check "target 50%: 50 / (9.555 x 0.5) -> 11 instances" jq -e '.recommendations[0].nodes == 11 and .autoscaling.target_utilization_pct == 50' "$J"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 50 --families 'g6e,g6,g5,p5' --async --max-wait 30s --output json > "$J"
check "--async: SQS backlog target = capacity x 0.7 x 30 s" jq -e '.recommendations[0] as $p | .autoscaling
  | .policy == "sqs-backlog-per-instance" and .max_wait_s == 30 and ((.target_value - $p.capacity_qps / $p.nodes * 0.7 * 30) | fabs) < 0.01
  and .scale_out_cooldown_s == 300' "$J"
"$EC2FIT" recommend --model distilbert --task infer --qps 20 --fallback cpu --output json > "$J"
check "--fallback cpu: a CPU-only group" jq -e '.autoscaling.fallback_cpu | .instance_type != null and .min_instances >= 1' "$J"

# ---- spot risk filter ----
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --max-interruption '<5%' --top 30 --output json > "$J"
check "--max-interruption <5%: spot plans only in band 0" jq -e '[.recommendations[] | select(.purchase == "spot")]
  | length > 0 and all(.[]; .interruption_band == 0)' "$J"

# ---- hazard model: band -> per node-hour rate -ln(1 - p) / 730 (p = band midpoint, 25% for >20%) ----
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --top 40 --output json > "$J"
check "spot job: expected interruptions = lambda x nodes x hours, probability = 1 - exp(-that)" jq -e '[0.025, 0.075, 0.125, 0.175, 0.25] as $p
  | [.recommendations[] | select(.purchase == "spot" and .interruption_band != null)]
  | length > 0 and all(.[]; (-((1 - $p[.interruption_band]) | log) / 730 * .nodes * .time_hours) as $x
    | ((.expected_interruptions - $x) | fabs) < 0.0006 and ((.interruption_probability - (1 - ((-.expected_interruptions) | exp))) | fabs) < 0.001)' "$J"
check "one region: no capacity caveat" jq -e 'all(.recommendations[]; has("capacity_caveat") | not)' "$J"
"$EC2FIT" recommend --model resnet50 --task train --dataset 1.28M --epochs 90 --regions us-east-1,us-west-2 --spot --output json > "$J"
check "several regions: spot plans carry the capacity caveat" jq -e '[.recommendations[] | select(.purchase == "spot")]
  | length > 0 and all(.[]; .capacity_caveat | test("get-spot-placement-scores"))' "$J"

# ---- bad input: one line, exit 2 ----
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --purchase monthly > /dev/null 2> "$ERR"
check "--purchase bad: exit 2" test $? -eq 2
check "--purchase bad: message" grep -qx "ec2fit: recommend: --purchase: expected auto, on-demand, spot, reserved-1y, savings-plan-1y, savings-plan-3y or capacity-block, got 'monthly'" "$ERR"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --target-utilization 2% > /dev/null 2> "$ERR"
check "--target-utilization 2%: exit 2" test $? -eq 2
"$EC2FIT" recommend --model resnet50 --task train --async > /dev/null 2> "$ERR"
check "--async on a job: exit 2" test $? -eq 2
check "--async on a job: message" grep -qx "ec2fit: recommend: --async: only for --task infer" "$ERR"
"$EC2FIT" recommend --model resnet50 --task train --max-interruption 30% > /dev/null 2> "$ERR"
check "--max-interruption bad: exit 2" test $? -eq 2
# issue 28: a peak far beyond the fleet cap. ceil(need / per) was cast to
# int: warm_pool_size -2147483648 in tfvars, tf-external and the table.
# Now every count saturates (ecf_sat_int) and stays within min..max.
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 1 --peak-qps 1e9 \
  --start-time 24h -o tfvars > "$WORK/huge.tfvars" 2> "$ERR"
check "peak 1e9: tfvars exit 0" test $? -eq 0
check "peak 1e9: warm pool within min..max" jq -e '.warm_pool_size >= 0 and .warm_pool_size <= .asg_max_size - .asg_min_size and .asg_max_size <= 1000000' "$WORK/huge.tfvars"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 1 --peak-qps 1e9 \
  --start-time 24h -o json > "$WORK/huge.json" 2> "$ERR"
check "peak 1e9: json counts non-negative" jq -e '[.. | numbers] | all(. >= 0)' "$WORK/huge.json"

# ---- spot serving keeps no warm pool (docs/rules.md "Auto Scaling", Warm pool) ----
# EC2 Auto Scaling's PutWarmPool "cannot be called on an Auto Scaling group that has a mixed instances
# policy or a launch template or launch configuration that requests Spot Instances" (API reference), so a
# spot rank 1's warm_pool_size is 0 in JSON, tfvars and tf-external (docs/terraform.md builds the
# warm_pool block from it) and the table says none. Over every zoo model x 3 rates x 2 regions with --spot.
cd "$WORK" || exit 1
: > spotwarm.txt
for m in $("$EC2FIT" models --output json | jq -r '.models[].name'); do
  for q in 2 40; do
    for reg in us-east-1 eu-west-1; do
      "$EC2FIT" -q recommend --model "$m" --task infer --qps "$q" --region "$reg" --spot --output json > sw.json 2>/dev/null || continue
      jq -e '.recommendations[0].purchase == "spot"' sw.json > /dev/null || continue
      "$EC2FIT" -q recommend --model "$m" --task infer --qps "$q" --region "$reg" --spot --output tfvars > sw.tfvars.json 2>/dev/null
      "$EC2FIT" -q recommend --model "$m" --task infer --qps "$q" --region "$reg" --spot > sw.txt 2>/dev/null
      printf '{"model":"%s","task":"infer","qps":"%s","region":"%s","spot":"true"}' "$m" "$q" "$reg" | "$EC2FIT" -q tf-external > sw.tfx.json 2>/dev/null
      w=$(jq -n --slurpfile j sw.json --slurpfile t sw.tfvars.json --slurpfile x sw.tfx.json \
        '[$j[0].autoscaling.warm_pool_size, $j[0].recommendations[0].auto_scaling.warm_pool_size,
          $t[0].warm_pool_size, ($x[0].warm_pool_size | tonumber)] | map(tostring) | join(",")')
      g=$(grep -c '^  Warm pool: none (EC2 Auto Scaling keeps no warm pool for a group that launches Spot Instances)$' sw.txt)
      echo "$m $q $reg $w $g" >> spotwarm.txt
    done
  done
done
check "spot warm pool: at least 100 spot rank-1 serving plans" test "$(wc -l < spotwarm.txt)" -ge 100
check "spot warm pool: every one has warm pool 0 in JSON, tfvars, tf-external and none in the table" \
  test "$(grep -c ' "0,0,0,0" 1$' spotwarm.txt)" -eq "$(wc -l < spotwarm.txt)"
bad=$(grep -v ' "0,0,0,0" 1$' spotwarm.txt | head -3); [ -n "$bad" ] && echo "$bad"

finish
