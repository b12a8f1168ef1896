#!/usr/bin/env bash
# The flags users bring from amazon-ec2-instance-selector and spotinfo
# (docs/coming-from.md): unit suffixes, ranges, family globs, --max-results,
# --sort/--order, --region all, -o everywhere, `ec2fit help CMD`,
# --params 7b. Counts are checked against data/catalog.json with jq.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
CAT="$SRC_DIR/data/catalog.json"
E() { "$EC2FIT" "$@" 2> "$WORK/err"; }
count() { E list "$@" -o json | jq '.count'; }
cat_count() { jq "[.instances[] | $1] | length" "$CAT"; }

# family globs: g6* = every g6, g6e, g6f ... type (was silently 0)
check "g6* matches the catalog's g6-prefixed types (20)" test "$(count --family 'g6*')" = "$(cat_count 'select(.family|startswith("g6"))')"
check "g6* = g6,g6e,g6f listed by name" test "$(count --family 'g6*')" = "$(count --family g6,g6e,g6f)"
check "glob is case-insensitive" test "$(count --family 'G6*')" = 20
check "p[45]* class" test "$(count --family 'p[45]*')" = "$(cat_count 'select(.family|test("^p[45]"))')"
E list --family 'zz*' > /dev/null; rc=$?
check "a glob that matches nothing: exit 2" test "$rc" = 2
check "... with a message" grep -qx "ec2fit: list: --family: no family matches 'zz\*'" "$WORK/err"

# ranges and sizes
check "--vcpus 8-32 = types with 8..32 vCPUs" test "$(count --vcpus 8-32)" = "$(cat_count 'select(.vcpu >= 8 and .vcpu <= 32)')"
check "--vcpus 8 = exactly 8" test "$(count --vcpus 8)" = "$(cat_count 'select(.vcpu == 8)')"
check "--vcpus-min 8 --vcpus-max 32 = --vcpus 8-32" test "$(count --vcpus-min 8 --vcpus-max 32)" = "$(count --vcpus 8-32)"
check "--max-vcpus 4 = --vcpus -4" test "$(count --max-vcpus 4)" = "$(cat_count 'select(.vcpu <= 4)')"
check "--memory 16GiB-64GiB" test "$(count --memory 16-64GiB)" = "$(cat_count 'select(.memory_gib >= 16 and .memory_gib <= 64)')"
# 16gb = 16e9 bytes = 14.90 GiB (SI GB, as docs/output-schema.md uses _gb)
check "--min-memory 16gb = >= 14.9012 GiB" test "$(count --min-memory 16gb)" = "$(cat_count 'select(.memory_gib >= 16e9/1073741824)')"
check "--min-memory 16gb keeps c7i.2xlarge (16 GiB)" bash -c "'$EC2FIT' list --min-memory 16gb --family c7i -o json | jq -e '[.instances[].instance_type] | index(\"c7i.2xlarge\")'"
check "--min-accel-memory 40GiB" test "$(count --min-accel-memory 40GiB)" = "$(cat_count 'select(.accelerator != null and .accelerator.memory_gib >= 40)')"
check "--min-accel-memory 40gb (37.25 GiB)" test "$(count --min-accel-memory 40gb)" = "$(cat_count 'select(.accelerator != null and .accelerator.memory_gib >= 40e9/1073741824)')"
check "--accelerators 0 = CPU-only" test "$(count --accelerators 0)" = "$(cat_count 'select(.accelerator == null)')"
check "--accelerators 2-8" test "$(count --accelerators 2-8)" = "$(cat_count 'select(.accelerator != null and .accelerator.count >= 2 and .accelerator.count <= 8)')"

# --max-results, --sort, --order
check "--max-results 3: 3 rows" test "$(count --max-results 3)" = 3
check "--max-results above the total: all" test "$(count --family p5 --max-results 99)" = "$(cat_count 'select(.family == "p5")')"
E list --sort savings -o json > "$WORK/sav.json"
check "--sort savings: largest first, unknown last" jq -e '[.instances[] | .price.spot_savings_pct] as $s
  | ($s | map(select(. != null))) as $k | $k == ($k | sort | reverse) and ($s[($k|length):] | all(. == null))' "$WORK/sav.json"
E list --sort savings --order asc -o json > "$WORK/sav_asc.json"
check "--order asc reverses the known part" jq -e '[.instances[] | .price.spot_savings_pct | select(. != null)] as $k | $k == ($k | sort)' "$WORK/sav_asc.json"
E list --sort interruption -o json > "$WORK/int.json"
check "--sort interruption: band ascending" jq -e '[.instances[] | .price.interruption_band | select(. != null)] as $k | $k == ($k | sort)' "$WORK/int.json"
E list --sort price --order desc --max-results 1 -o json > "$WORK/top.json"
check "--sort price --order desc: the dearest type first" test \
  "$(jq -r '.instances[0].price.ondemand_usd_per_hour' "$WORK/top.json")" = \
  "$(jq '[.instances[] | .prices["us-east-1"].ondemand_usd_per_hour // empty] | max' "$CAT")"
E list --sort memory --max-results 1 -o json > "$WORK/mem.json"
check "--sort memory: largest host memory first" test "$(jq '.instances[0].memory_gib' "$WORK/mem.json")" = "$(jq '[.instances[].memory_gib] | max' "$CAT")"

# --region all: one row per (type, region) with a price
check "--region all: rows = priced (type, region) pairs" test "$(count --region all --family 'p5*')" = "$(jq '[.instances[] | select(.family|startswith("p5")) | .prices | length] | add' "$CAT")"
E list --region all --family p5 -o json > "$WORK/all.json"
check "--region all: each row names its region" jq -e '.region == "all" and all(.instances[]; .region | type == "string")' "$WORK/all.json"
E list --region all --family p5 > "$WORK/all.txt"
check "--region all table has a REGION column" grep -q '^TYPE  *REGION ' "$WORK/all.txt"
E list --region all --family p5 -o csv > "$WORK/all.csv"
check "--region all csv: a row per region" test "$(($(wc -l < "$WORK/all.csv") - 1))" = "$(jq '[.instances[] | select(.family == "p5") | .prices | length] | add' "$CAT")"

# -o on every command that prints a format
same() { cmp -s <(E "$@" -o json) <(E "$@" --output json); }
check "-o: list" same list --accelerator l4
check "-o: show" same show g5.xlarge
check "-o: models" same models
check "-o: estimate" same estimate --model resnet50 --task train --instance g5.xlarge
check "-o: recommend" same recommend --model resnet50 --task train
printf '%s\n' '{"model":"resnet50","task":"train"}' > "$WORK/b.jsonl"
check "-o: recommend --batch" cmp -s <(E recommend --batch "$WORK/b.jsonl" -o json) <(E recommend --batch "$WORK/b.jsonl")

# help
for c in recommend estimate list show models update tf-external completion; do
  check "help $c = $c --help" cmp -s <(E help "$c") <(E "$c" --help)
done
check "help = --help" cmp -s <(E help) <(E --help)
E help lst > /dev/null; rc=$?
check "help of an unknown command: exit 2" test "$rc" = 2

# --params 7b as 7B (lowercase suffixes, as --dataset 1.28m)
check "--params 7b = 7B" cmp -s <(E estimate --params 7b --task infer --instance g5.xlarge -o json) <(E estimate --params 7B --task infer --instance g5.xlarge -o json)
check "--params 7b: 7e9 parameters" test "$(E estimate --params 7b --task infer --instance g5.xlarge -o json | jq .model.params)" = 7000000000
finish
