#!/usr/bin/env bash
# test_gen_catalog.sh - tools/gen_catalog.py is deterministic, matches the
# committed data/catalog.json, and a few known facts hold.
# Environment (set by ctest): SRC_DIR = repository root, WORK = scratch dir.
set -eu

: "${SRC_DIR:?SRC_DIR must point at the repository root}"
: "${WORK:?WORK must name a scratch directory}"
REF="$SRC_DIR/data/sources"
PY="${PYTHON:-python3}"
mkdir -p "$WORK"

pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "ok   - $1"; }
bad() { fail=$((fail + 1)); echo "FAIL - $1"; }
check() { # check NAME COMMAND...
    local name=$1; shift
    if "$@"; then ok "$name"; else bad "$name"; fi
}

gen() { # gen OUTPUT
    "$PY" "$SRC_DIR/tools/gen_catalog.py" \
        --ondemand "$REF/ec2_ondemand_us-east-1.csv" \
        --regional "$REF/ec2_gpu_prices_by_region.csv" \
        --extras "$REF/instance_extras.csv" \
        --accelerators "$REF/accelerators.csv" \
        --spot "$REF/spot-advisor-sample.json" \
        -o "$1" 2>"$1.stderr"
}

if [ ! -d "$REF" ]; then
    echo "reference data not found at $REF" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

check "generator run 1 succeeds" gen "$WORK/catalog1.json"
check "generator run 2 succeeds" gen "$WORK/catalog2.json"
check "two runs are byte-identical" cmp "$WORK/catalog1.json" "$WORK/catalog2.json"
check "output matches committed data/catalog.json" \
    cmp "$WORK/catalog1.json" "$SRC_DIR/data/catalog.json"

# fact NAME PYTHON-EXPR  (c = parsed catalog, I = instances by type)
fact() {
    local name=$1 expr=$2
    if "$PY" -c '
import json, sys
c = json.load(open(sys.argv[1]))
I = {i["type"]: i for i in c["instances"]}
sys.exit(0 if eval(sys.argv[2]) else 1)
' "$WORK/catalog1.json" "$expr" 2>/dev/null; then ok "$name"; else bad "$name"; fi
}

fact "schema_version is 1" 'c["schema_version"] == 1'
fact "p4d.24xlarge has 8 x a100-40gb" \
    'I["p4d.24xlarge"]["accelerator"]["id"] == "a100-40gb" and I["p4d.24xlarge"]["accelerator"]["count"] == 8'
fact "p4d.24xlarge has 96 vcpu and 1152 GiB" \
    'I["p4d.24xlarge"]["vcpu"] == 96 and I["p4d.24xlarge"]["memory_gib"] == 1152'
fact "p4d.24xlarge efa_gbps is 400" 'I["p4d.24xlarge"]["efa_gbps"] == 400'
fact "p4d.24xlarge us-east-1 on-demand is 21.957642" \
    'I["p4d.24xlarge"]["prices"]["us-east-1"]["ondemand_usd_per_hour"] == 21.957642'
fact "p5e.48xlarge has prices {}" 'I["p5e.48xlarge"]["prices"] == {}'
fact "more than 1,000 instances" 'len(c["instances"]) > 1000'
fact "c7i.large is priced in 23 regions (15 SkyPilot, 8 anycloud: ec2_ondemand_by_region.csv)" 'len(I["c7i.large"]["prices"]) == 23'
fact "c7i.large eu-west-1 on-demand is 0.09576 (SkyPilot vms.csv row)" \
    'I["c7i.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.09576'
fact "c7i.large us-east-1 keeps the us-east-1 file's 0.08925" \
    'I["c7i.large"]["prices"]["us-east-1"]["ondemand_usd_per_hour"] == 0.08925'
fact "c7i.metal-24xl (us-east-1 cross-check failed, not vendored) is us-east-1 only" \
    'list(I["c7i.metal-24xl"]["prices"]) == ["us-east-1"]'
fact "g5.xlarge eu-west-1 keeps the GPU file's price (precedence)" \
    'I["g5.xlarge"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 1.123'
fact "m7i.large is priced in the 16 regions the SkyPilot snapshot offers it in and 7 from anycloud" \
    'len(I["m7i.large"]["prices"]) == 23'
fact "m7i.large eu-west-1 on-demand is 0.11235 (SkyPilot vms.csv @27f67dd4 row)" \
    'I["m7i.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.11235'
fact "m7i.large af-south-1 is 0.13335 (anycloud row; the SkyPilot snapshot lists no offering there)" \
    'I["m7i.large"]["prices"]["af-south-1"]["ondemand_usd_per_hour"] == 0.13335'
fact "m5.large me-central-1 is 0.118 and c5.large 0.106 (3-decimal rows)" \
    'I["m5.large"]["prices"]["me-central-1"]["ondemand_usd_per_hour"] == 0.118 and I["c5.large"]["prices"]["me-central-1"]["ondemand_usd_per_hour"] == 0.106'
fact "m7i.metal-24xl (us-east-1 cross-check failed, not vendored) is us-east-1 only" \
    'list(I["m7i.metal-24xl"]["prices"]) == ["us-east-1"]'
fact "t3.micro eu-west-1 is 0.0114 (burstable, checked against memory)" \
    'I["t3.micro"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.0114'
fact "r5.large is priced in 22 regions; me-central-1 r5.large 0.155 and r5.16xlarge 4.963 (3-decimal rows)" \
    'len(I["r5.large"]["prices"]) == 22 and I["r5.large"]["prices"]["me-central-1"]["ondemand_usd_per_hour"] == 0.155 and I["r5.16xlarge"]["prices"]["me-central-1"]["ondemand_usd_per_hour"] == 4.963'
fact "r6i.large is priced in the 21 regions the SkyPilot snapshot offers it in" \
    'len(I["r6i.large"]["prices"]) == 21'
fact "r6i.large eu-west-1 is 0.141 and af-south-1 0.168 (SkyPilot vms.csv @27f67dd4 rows)" \
    'I["r6i.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.141 and I["r6i.large"]["prices"]["af-south-1"]["ondemand_usd_per_hour"] == 0.168'
fact "r7i.large is priced in 20 regions, eu-west-1 0.14805, none in af-south-1" \
    'len(I["r7i.large"]["prices"]) == 20 and I["r7i.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.14805 and "af-south-1" not in I["r7i.large"]["prices"]'
fact "r7i.metal-24xl (us-east-1 row 6.3504 vs 6.98544 in the us-east-1 file, not vendored) is us-east-1 only" \
    'list(I["r7i.metal-24xl"]["prices"]) == ["us-east-1"]'
fact "t3a.large is priced in 15 regions, eu-west-1 0.0816, none in af-south-1 (burstable, checked against memory)" \
    'len(I["t3a.large"]["prices"]) == 15 and I["t3a.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.0816 and "af-south-1" not in I["t3a.large"]["prices"]'
fact "t4g.micro eu-west-1 is 0.0092 and t4g.2xlarge ap-south-1 0.1792 (24 regions)" \
    'I["t4g.micro"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.0092 and I["t4g.2xlarge"]["prices"]["ap-south-1"]["ondemand_usd_per_hour"] == 0.1792 and len(I["t4g.micro"]["prices"]) == 24'
fact "m7g.medium is priced in 23 regions, eu-west-1 0.0455, af-south-1 0.054 (anycloud row)" \
    'len(I["m7g.medium"]["prices"]) == 23 and I["m7g.medium"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.0455 and I["m7g.medium"]["prices"]["af-south-1"]["ondemand_usd_per_hour"] == 0.054'
fact "c6g.large is priced in 24 regions, eu-west-1 0.073" \
    'len(I["c6g.large"]["prices"]) == 24 and I["c6g.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.073'
fact "c6g.metal (us-east-1 row 2.176 vs 2.3066 in the us-east-1 file, not vendored) is us-east-1 only" \
    'list(I["c6g.metal"]["prices"]) == ["us-east-1"]'
fact "m7a.medium is priced in the 8 regions the snapshot offers it in and 2 from anycloud, eu-west-1 0.0646 (5-decimal family)" \
    'len(I["m7a.medium"]["prices"]) == 10 and I["m7a.medium"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.0646 and I["m7a.large"]["prices"]["eu-central-1"]["ondemand_usd_per_hour"] == 0.13886'
fact "c8i.large (newer than the SkyPilot snapshot) is priced in 17 regions from anycloud, eu-west-1 0.10055" \
    'len(I["c8i.large"]["prices"]) == 17 and I["c8i.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.10055'
fact "c8i.metal-48xl (anycloud us-east-1 row 8.99616 vs 9.89578 in the us-east-1 file, not vendored) is us-east-1 only" \
    'list(I["c8i.metal-48xl"]["prices"]) == ["us-east-1"]'
fact "c6a.large is priced in the 13 regions the snapshot offers it in, eu-west-1 0.08208, ap-south-1 0.04675 (session 10)" \
    'len(I["c6a.large"]["prices"]) == 13 and I["c6a.large"]["prices"]["eu-west-1"]["ondemand_usd_per_hour"] == 0.08208 and I["c6a.large"]["prices"]["ap-south-1"]["ondemand_usd_per_hour"] == 0.04675'
fact "instance types are unique and sorted" \
    '[i["type"] for i in c["instances"]] == sorted(set(I))'

# The generator must refuse bad input (exit 1) and leave no output behind.
rejects() { # rejects NAME BAD-ONDEMAND-CSV
    local out="$WORK/reject.json"
    rm -f "$out"
    if "$PY" "$SRC_DIR/tools/gen_catalog.py" --ondemand "$2" \
        --regional "$REF/ec2_gpu_prices_by_region.csv" --extras "$REF/instance_extras.csv" \
        --accelerators "$REF/accelerators.csv" --spot "$REF/spot-advisor-sample.json" \
        -o "$out" 2>"$WORK/reject.stderr"; then
        bad "$1 (exit 0)"
    elif [ -e "$out" ]; then
        bad "$1 (output written)"
    else
        ok "$1"
    fi
}
sed -E 's/^(a1\.large,a1,us-east-1,)[0-9.]+/\10.000000/' "$REF/ec2_ondemand_us-east-1.csv" \
    >"$WORK/zero_price.csv"
rejects "a zero price is rejected" "$WORK/zero_price.csv"
sed -E 's/^(a1\.large,a1,us-east-1,)[0-9.]+/\1n\/a/' "$REF/ec2_ondemand_us-east-1.csv" \
    >"$WORK/text_price.csv"
rejects "a non-numeric price is rejected" "$WORK/text_price.csv"

# ec2_ondemand_by_region.csv: vendored-data rules fail the build.
rejects_byregion() { # rejects_byregion NAME BAD-BYREGION-CSV EXPECTED-STDERR
    local out="$WORK/reject.json"
    rm -f "$out"
    if "$PY" "$SRC_DIR/tools/gen_catalog.py" --byregion "$2" -o "$out" \
        2>"$WORK/reject.stderr"; then
        bad "$1 (exit 0)"
    elif [ -e "$out" ]; then
        bad "$1 (output written)"
    elif ! grep -qF -- "$3" "$WORK/reject.stderr"; then
        bad "$1 (stderr: $(cat "$WORK/reject.stderr"))"
    else
        ok "$1"
    fi
}
BYREG="$SRC_DIR/data/sources/ec2_ondemand_by_region.csv"
sed -E 's/^(c7i\.large,us-east-1,)[0-9.]+/\10.09/' "$BYREG" >"$WORK/byreg_use1.csv"
rejects_byregion "a us-east-1 row disagreeing with the us-east-1 file is rejected" \
    "$WORK/byreg_use1.csv" "c7i.large us-east-1 on-demand 0.09 disagrees with 0.08925"
sed -E 's/^(c7i\.xlarge,eu-west-1,)[0-9.]+/\10.29152/' "$BYREG" >"$WORK/byreg_lin.csv"
rejects_byregion "a price not proportional to size is rejected" \
    "$WORK/byreg_lin.csv" "c7i.xlarge in eu-west-1 costs 0.29152/h"
sed -E 's/^(t3\.small,eu-west-1,)[0-9.]+/\10.0238/' "$BYREG" >"$WORK/byreg_t3.csv"
rejects_byregion "a burstable price not proportional to memory is rejected" \
    "$WORK/byreg_t3.csv" "t3.small in eu-west-1 costs 0.0238/h"
{ cat "$BYREG"; grep '^c7i\.large,eu-west-1,' "$BYREG"; } >"$WORK/byreg_dup.csv"
rejects_byregion "a duplicate (type, region) row is rejected" \
    "$WORK/byreg_dup.csv" "duplicate row for c7i.large in eu-west-1"

# Accelerated types are exempt from the vCPU rule (g6e.xlarge 1.861 for 4 vCPUs,
# g6e.48xlarge 30.13118 for 192: 0.465 vs 0.157 per vCPU-hour) but must agree with
# the GPU file where it prices the same pair, within half a unit of the coarser
# last decimal (1.861 has 3: 0.0005).
accepts_byregion() { # accepts_byregion NAME BYREGION-CSV EXPECTED-STDERR
    local out="$WORK/accept.json"
    rm -f "$out"
    if ! "$PY" "$SRC_DIR/tools/gen_catalog.py" --byregion "$2" -o "$out" \
        2>"$WORK/accept.stderr"; then
        bad "$1 (stderr: $(cat "$WORK/accept.stderr"))"
    elif ! grep -qF -- "$3" "$WORK/accept.stderr"; then
        bad "$1 (stderr: $(cat "$WORK/accept.stderr"))"
    else
        ok "$1"
    fi
}
{ cat "$BYREG"; printf 'g6e.48xlarge,us-west-2,30.13118\ng6e.xlarge,us-west-2,1.861\n'; } \
    >"$WORK/byreg_gpu.csv"
accepts_byregion "an accelerated family is exempt from vCPU proportionality and cross-checked" \
    "$WORK/byreg_gpu.csv" "2 prices agree with ec2_gpu_prices_by_region.csv (pairs both list)"
{ cat "$BYREG"; printf 'g6e.xlarge,us-west-2,1.8615\n'; } >"$WORK/byreg_gpu_half.csv"
accepts_byregion "a price half a unit of the last decimal away agrees" \
    "$WORK/byreg_gpu_half.csv" "1 prices agree with ec2_gpu_prices_by_region.csv"
{ cat "$BYREG"; printf 'g6e.xlarge,us-west-2,1.862\n'; } >"$WORK/byreg_gpu_bad.csv"
rejects_byregion "a price disagreeing with the GPU file is rejected, naming both" \
    "$WORK/byreg_gpu_bad.csv" \
    "byreg_gpu_bad.csv: g6e.xlarge us-west-2 on-demand 1.862 disagrees with 1.861 in ec2_gpu_prices_by_region.csv (more than 0.0005 apart)"
{ cat "$BYREG"; printf 'g6e.xlarge,us-east-1,1.9\n'; } >"$WORK/byreg_gpu_use1.csv"
rejects_byregion "an accelerated us-east-1 row disagreeing with the us-east-1 file is rejected" \
    "$WORK/byreg_gpu_use1.csv" "g6e.xlarge us-east-1 on-demand 1.9 disagrees with 1.861000"
{ cat "$BYREG"; printf 'c7i.large,zz-test-1,0.1000\nc7i.xlarge,zz-test-1,0.3000\n'; } \
    >"$WORK/byreg_cpu_lin.csv"
rejects_byregion "a CPU family still has to be proportional to size" \
    "$WORK/byreg_cpu_lin.csv" "in zz-test-1 costs"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
