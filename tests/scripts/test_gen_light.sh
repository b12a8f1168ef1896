#!/usr/bin/env bash
# test_gen_light.sh - tools/gen_light.py is deterministic, matches the
# committed data/light.json, and refuses bad input without writing output.
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

gen() { # gen OUTPUT [LAMBDA-CSV [LIGHTSAIL-CSV]]
    "$PY" "$SRC_DIR/tools/gen_light.py" \
        --lambda "${2:-$REF/lambda_pricing.csv}" \
        --lightsail "${3:-$REF/lightsail_bundles.csv}" \
        -o "$1" 2>"$1.stderr"
}

if [ ! -d "$REF" ]; then
    echo "reference data not found at $REF" >&2
    echo "0 passed, 1 failed"
    exit 1
fi

check "generator run 1 succeeds" gen "$WORK/light1.json"
check "generator run 2 succeeds" gen "$WORK/light2.json"
check "two runs are byte-identical" cmp "$WORK/light1.json" "$WORK/light2.json"
check "output matches committed data/light.json" \
    cmp "$WORK/light1.json" "$SRC_DIR/data/light.json"

# fact NAME PYTHON-EXPR  (L = lambda section, B = Lightsail bundles by id)
fact() {
    local name=$1 expr=$2
    if "$PY" -c '
import json, sys
from decimal import Decimal as D
d = json.load(open(sys.argv[1]), parse_float=D)
L = d["lambda"]
B = {b["id"]: b for b in d["lightsail"]["bundles"]}
sys.exit(0 if eval(sys.argv[2]) else 1)
' "$WORK/light1.json" "$expr" 2>/dev/null; then ok "$name"; else bad "$name"; fi
}

fact "schema_version is 1" 'd["schema_version"] == 1'
fact "request price is 0.20 per million" 'L["request_usd_per_million"] == D("0.20")'
fact "x86 tier-1 GB-s price is 0.0000166667" 'L["gb_second_usd_x86"] == D("0.0000166667")'
fact "arm64 tier-1 GB-s price is 0.0000133334" 'L["gb_second_usd_arm64"] == D("0.0000133334")'
fact "memory 128..10240 MB, timeout 900 s" \
    'L["min_memory_mb"] == 128 and L["max_memory_mb"] == 10240 and L["max_timeout_s"] == 900'
fact "1769 MB per vCPU, max 6, no GPU" \
    'L["mb_per_vcpu"] == 1769 and L["max_vcpus"] == 6 and L["gpu"] is False'
fact "medium confidence of vcpu_max is recorded" '"max_vcpus (vcpu_max) is medium" in L["notes"]'
fact "as_of is the gathering date, with its note" \
    'L["as_of"] == "2026-11-29" and "2025-2026" in L["as_of_note"]'
fact "8 Linux bundles, cheapest first" \
    'len(B) == 8 and [b["usd_per_month"] for b in d["lightsail"]["bundles"]] == sorted(b["usd_per_month"] for b in B.values())'
fact "nano_3_0 is \$5, 2 vCPU, 0.5 GB, 20 GB, 5 %" \
    'B["nano_3_0"]["usd_per_month"] == 5 and B["nano_3_0"]["vcpu"] == 2 and B["nano_3_0"]["memory_gb"] == D("0.5") and B["nano_3_0"]["ssd_gb"] == 20 and B["nano_3_0"]["baseline_cpu_pct_per_vcpu"] == 5'
fact "dual-stack price, not IPv6-only or Windows" 'B["small_3_0"]["usd_per_month"] == 12'

# The generator must refuse bad input (exit 1) and leave no output behind.
rejects() { # rejects NAME LAMBDA-CSV LIGHTSAIL-CSV
    local out="$WORK/reject.json"
    rm -f "$out"
    if gen "$out" "$2" "$3"; then
        bad "$1 (exit 0)"
    elif [ -e "$out" ]; then
        bad "$1 (output written)"
    elif ! grep -q '^gen_light: error: ' "$out.stderr"; then
        bad "$1 (no error message)"
    else
        ok "$1"
    fi
}
grep -v '^lambda,timeout_max,' "$REF/lambda_pricing.csv" >"$WORK/no_timeout.csv"
rejects "a missing required Lambda row is rejected" \
    "$WORK/no_timeout.csv" "$REF/lightsail_bundles.csv"
sed -E 's/^(lambda,request_price,)0\.20,/\1-0.20,/' "$REF/lambda_pricing.csv" \
    >"$WORK/neg_price.csv"
rejects "a negative Lambda price is rejected" \
    "$WORK/neg_price.csv" "$REF/lightsail_bundles.csv"
sed -E 's/^(lambda,duration_price_x86_tier1,)[0-9.]+,/\10,/' "$REF/lambda_pricing.csv" \
    >"$WORK/zero_price.csv"
rejects "a zero Lambda price is rejected" \
    "$WORK/zero_price.csv" "$REF/lightsail_bundles.csv"
sed -E 's/^(micro_3_0,linux,)7,/\10,/' "$REF/lightsail_bundles.csv" \
    >"$WORK/zero_bundle.csv"
rejects "a zero Lightsail price is rejected" \
    "$REF/lambda_pricing.csv" "$WORK/zero_bundle.csv"
sed -E 's/^(nano_3_0,linux,)5,/\16,/' "$REF/lightsail_bundles.csv" \
    >"$WORK/hourly_mismatch.csv"
rejects "a monthly price that contradicts the quoted hourly price is rejected" \
    "$REF/lambda_pricing.csv" "$WORK/hourly_mismatch.csv"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
