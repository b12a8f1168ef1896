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
fact "c7i.large is priced in us-east-1 only" 'list(I["c7i.large"]["prices"]) == ["us-east-1"]'
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

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
