#!/bin/bash
# test_update.sh - `ec2fit update` end to end against tests/tools/fake_aws.py,
# a local HTTP server on 127.0.0.1 that recomputes every SigV4 signature.
# Each failure case asserts the exit code and the exact one-line message,
# and that the previous cache is byte-identical (cmp) with no temporary
# file left behind. All offline; about 15 s.
set -u
. "${SRC_DIR:?}/tests/scripts/update_env.sh"
# no instance metadata service: the chain would try 169.254.169.254
export AWS_EC2_METADATA_DISABLED=true
AK=AKIDTESTEXAMPLE
SK='test/secret+KEY'

update() { # runs `ec2fit update` with test credentials; sets RC
    AWS_ACCESS_KEY_ID=${KEY-$AK} AWS_SECRET_ACCESS_KEY=${SECRET-$SK} \
        "$EC2FIT" update --catalog "$BASE" --endpoint-url "$URL" \
        --spot-advisor-url "$URL/spot-advisor-data.json" "$@" \
        >"$WORK/out" 2>"$WORK/err"
    RC=$?
}

snapshot() {
    rm -rf "$WORK/snap"
    cp -a "$CACHE" "$WORK/snap"
}

cache_unchanged() { # name
    cmp -s "$CACHE/catalog.json" "$WORK/snap/catalog.json" ||
        fail "$1: catalog.json changed"
    cmp -s "$CACHE/catalog.json.meta" "$WORK/snap/catalog.json.meta" ||
        fail "$1: catalog.json.meta changed"
    [ "$(ls -A "$CACHE" | sort | tr '\n' ' ')" = \
      "catalog.json catalog.json.meta update.lock " ] ||
        fail "$1: stray files in the cache: $(ls -A "$CACHE")"
}

expect_fail() { # name rc exact-stderr-regex
    [ "$RC" = "$2" ] || fail "$1: exit $RC, expected $2"
    [ "$(wc -l <"$WORK/err")" = 1 ] || fail "$1: stderr is not one line"
    grep -Eqx -- "$3" "$WORK/err" || fail "$1: stderr: $(cat "$WORK/err")"
    cache_unchanged "$1"
}

price() { # type region field
    python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = [x for x in d["instances"] if x["type"] == sys.argv[2]][0]
print(i["prices"][sys.argv[3]].get(sys.argv[4]))' "$CACHE/catalog.json" "$@"
}

# ---- happy path: pagination, signature, sidecar ----------------------------
start_server ok
update
[ "$RC" = 0 ] || fail "happy: exit $RC: $(cat "$WORK/err")"
[ "$(grep -c '^POST / .* sig=ok target=AWSPriceListService.GetProducts ua=ec2fit/' "$WORK/log")" = 5 ] ||
    fail "happy: expected 5 signed GetProducts pages: $(cat "$WORK/log")"
grep -q 'token=page-us-east-1-6' "$WORK/log" || fail "happy: no third page"
grep -q '^GET /spot-advisor-data.json ua=ec2fit/[0-9.]* auth=no$' "$WORK/log" ||
    fail "happy: spot feed request"
grep -qx 'ec2fit: update: wrote .*/catalog.json (prices as of [0-9-]*)' "$WORK/err" ||
    fail "happy: summary: $(cat "$WORK/err")"
want=$(sha256sum <"$CACHE/catalog.json" | cut -d' ' -f1)
grep -q "\"sha256\":.*\"$want\"" "$CACHE/catalog.json.meta" ||
    fail "happy: sidecar sha256"
[ "$(price m5.large us-east-1 ondemand_usd_per_hour)" = 0.097 ] ||
    fail "happy: m5.large price not updated"
[ "$(price m5.large us-west-2 ondemand_usd_per_hour)" = 0.096 ] ||
    fail "happy: m5.large us-west-2 not added"
[ "$(price c5.large us-east-1 spot_savings_pct)" = 60 ] ||
    fail "happy: spot savings not updated"
# Reserved terms come on the same GetProducts pages (issue 26): the 1-year
# standard No Upfront rate replaces the catalog's (g5.xlarge 0.63378 ->
# 0.6; the convertible 0.55 and the 3-year 0.4 beside it are not that term)
[ "$(price g5.xlarge us-east-1 reserved_1y_usd_per_hour)" = 0.6 ] ||
    fail "happy: g5.xlarge 1-year reserved not refreshed: $(price g5.xlarge us-east-1 reserved_1y_usd_per_hour)"
[ "$(price g5.xlarge us-west-2 reserved_1y_usd_per_hour)" = 0.63378 ] ||
    fail "happy: g5.xlarge us-west-2 reserved changed without a term"
[ "$(price m5.large us-east-1 reserved_1y_usd_per_hour)" = None ] ||
    fail "happy: m5.large got a reserved rate the server does not list"
# p4d.24xlarge us-east-1 goes from 67% to 25% in the feed: 42 points, more
# than the 30 allowed without --force (taken with --force further down).
[ "$(price p4d.24xlarge us-east-1 spot_savings_pct)" = 67 ] ||
    fail "happy: a 42-point spot move was taken without --force"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: spot savings moved 42 points (67% -> 25%); kept 67% (use --force to accept)' "$WORK/err" ||
    fail "happy: spot move not reported: $(cat "$WORK/err")"
# Savings Plan rates (issue 26): DescribeSavingsPlansOfferingRates, signed
# for service savingsplans, 3 pages of us-east-1 and 1 of us-west-2 (4 per
# page). Per term the lowest No Upfront rate: p4d.24xlarge's EC2 Instance
# plan (14.1423 / 9.6, not the Compute 15.2 / 10.9), g5.xlarge's Compute
# plan (its only one); the 0.001 "UnusedBox" rows are not instance-hours.
[ "$(grep -c '^SP POST /DescribeSavingsPlansOfferingRates region=us-east-1 .* sig=ok ua=ec2fit/' "$WORK/log")" = 3 ] ||
    fail "happy: expected 3 signed us-east-1 Savings Plans pages: $(grep SP "$WORK/log")"
[ "$(grep -c '^SP POST /DescribeSavingsPlansOfferingRates region=us-west-2 .* sig=ok' "$WORK/log")" = 1 ] ||
    fail "happy: expected 1 us-west-2 Savings Plans page"
[ "$(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)" = "14.1423 9.6" ] ||
    fail "happy: p4d.24xlarge us-east-1 Savings Plan rates: $(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)"
[ "$(price p4d.24xlarge us-west-2 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-west-2 savings_plan_3y_usd_per_hour)" = "14.1 9.7" ] ||
    fail "happy: p4d.24xlarge us-west-2 Savings Plan rates"
[ "$(price g5.xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price g5.xlarge us-east-1 savings_plan_3y_usd_per_hour)" = "0.7242 0.4628" ] ||
    fail "happy: g5.xlarge us-east-1 Compute Savings Plan rates"
[ "$(price m5.large us-east-1 savings_plan_1y_usd_per_hour)" = None ] ||
    fail "happy: m5.large got a Savings Plan rate the server does not list"
grep -qx 'ec2fit: update: savings plans: 2 regions, 4 pages, 8 rates listed, 3 pairs set, 0 commitment rates dropped' "$WORK/err" ||
    fail "happy: savings plans summary: $(cat "$WORK/err")"
grep -q '"savings_plans_api"' "$CACHE/catalog.json.meta" ||
    fail "happy: sidecar lacks the savings_plans_api source"
# ... and the commands that read the cache show them
"$EC2FIT" show p4d.24xlarge -o json >"$WORK/show.json" 2>"$WORK/show.err" ||
    fail "happy: show: $(cat "$WORK/show.err")"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
def find(o):
    if isinstance(o, dict):
        if "savings_plan_1y_usd_per_hour" in o and o.get("ondemand_usd_per_hour") == 21.957642:
            return o
        for v in o.values():
            r = find(v)
            if r: return r
    if isinstance(o, list):
        for v in o:
            r = find(v)
            if r: return r
p = find(d)
sys.exit(0 if p and p["savings_plan_1y_usd_per_hour"] == 14.1423 and p["savings_plan_3y_usd_per_hour"] == 9.6 else 1)' "$WORK/show.json" ||
    fail "happy: show -o json lacks the refreshed Savings Plan rates: $(head -c 600 "$WORK/show.json")"
"$EC2FIT" recommend --model llama-3.1-70b --task infer --qps 2 --families p4d \
    --purchase savings-plan-1y -o json >"$WORK/rec.json" 2>"$WORK/rec.err" ||
    fail "happy: recommend: $(cat "$WORK/rec.err")"
python3 -c 'import json,sys
r = json.load(open(sys.argv[1]))["recommendations"][0]
po = r["purchase_options"]
got = (r["instance_type"], po["savings-plan-1y"]["usd_per_hour"], po["savings-plan-1y"]["estimated"],
       po["savings-plan-3y"]["usd_per_hour"], po["savings-plan-3y"]["estimated"])
sys.exit(0 if got == ("p4d.24xlarge", 14.1423, False, 9.6, False) else "got %r" % (got,))' "$WORK/rec.json" ||
    fail "happy: recommend purchase_options do not carry the fetched Savings Plan rates"
[ "$(stat -c %a "$CACHE/catalog.json") $(stat -c %a "$CACHE/catalog.json.meta")" = "600 600" ] ||
    fail "happy: cache modes $(stat -c %a "$CACHE"/catalog.json*)"
"$EC2FIT" --version >"$WORK/out" 2>"$WORK/err"
grep -qx "catalog: cache:$CACHE/catalog.json (prices as of [0-9-]*)" "$WORK/out" ||
    fail "happy: later commands do not use the cache: $(cat "$WORK/out")"

# ---- 500, then success: retried ---------------------------------------------
start_server retry500
update
[ "$RC" = 0 ] || fail "retry500: exit $RC: $(cat "$WORK/err")"
[ "$(grep -c '^POST / region=us-east-1 token=- ' "$WORK/log")" = 2 ] ||
    fail "retry500: first page not retried: $(cat "$WORK/log")"
snapshot

# ---- 429 with Retry-After: 2 s waited, not the 250-500 ms backoff ------------
start_server retryafter
t0=$(date +%s%N)
update
t1=$(date +%s%N)
[ "$RC" = 0 ] || fail "retryafter: exit $RC: $(cat "$WORK/err")"
[ "$(grep -c '^POST / region=us-east-1 token=- ' "$WORK/log")" = 2 ] ||
    fail "retryafter: first page not retried: $(cat "$WORK/log")"
[ $(( (t1 - t0) / 1000000 )) -ge 2000 ] ||
    fail "retryafter: Retry-After ignored ($(( (t1 - t0) / 1000000 )) ms)"
snapshot

# ---- failures: exit 1, one line, previous cache kept ------------------------
start_server ok
SECRET=wrong update
expect_fail badsig 1 'ec2fit: update: GetProducts us-east-1: HTTP 403: The request signature we calculated does not match the signature you provided\. Check your AWS Secret Access Key and signing method\. Consult the service documentation for details\.'

# ---- the cache directory is a dangling symlink: named as such --------------
mkdir -p "$WORK/dlcache" && ln -sfn "$WORK/no_such_dir" "$WORK/dlcache/ec2fit"
XDG_CACHE_HOME=$WORK/dlcache AWS_ACCESS_KEY_ID=$AK AWS_SECRET_ACCESS_KEY=$SK \
    "$EC2FIT" update --endpoint-url "$URL" \
    --spot-advisor-url "$URL/spot-advisor-data.json" >"$WORK/out" 2>"$WORK/err"
[ $? = 1 ] && grep -qx "ec2fit: update: $WORK/dlcache/ec2fit: a symbolic link to a directory that does not exist" "$WORK/err" ||
    fail "dangling cache dir: $(cat "$WORK/err")"

start_server redirect
update
expect_fail redirect 1 'ec2fit: update: GetProducts us-east-1: HTTP 307: a redirect to http://elsewhere.invalid, which ec2fit does not follow \(point the endpoint at the final URL\)'

start_server truncated
update --retries 1
expect_fail truncated 1 'ec2fit: update: GetProducts us-east-1: transfer closed with [0-9]+ bytes remaining to read \(2 attempts\)'

start_server badjson
update
expect_fail badjson 1 'ec2fit: update: GetProducts us-east-1: invalid JSON at byte offset [0-9]+'

start_server badinner
update
expect_fail badinner 1 'ec2fit: update: GetProducts us-east-1: PriceList\[1\]: invalid JSON at byte offset 26'

start_server big
EC2FIT_HTTP_MAX_BYTES=100000 update
expect_fail over-cap 1 "ec2fit: update: spot advisor $URL/spot-advisor-data.json: response larger than 100000 bytes"

start_server stall
t0=$(date +%s)
update --timeout 1 --retries 1
expect_fail stall 1 'ec2fit: update: GetProducts us-east-1: Operation timed out after [0-9]+ milliseconds with 0 bytes received \(2 attempts\)'
[ $(($(date +%s) - t0)) -le 6 ] || fail "stall: took $(($(date +%s) - t0)) s"

start_server drop
update --retries 1
expect_fail drop 1 'ec2fit: update: GetProducts us-east-1: .+ \(2 attempts\)'

start_server spothalf
update
expect_fail spot-coverage 1 'ec2fit: update: spot advisor: coverage would shrink from 11 to 6 \(type, region\) pairs; use --force to accept'

start_server ok
update --endpoint-url http://example.com/
expect_fail plain-http 2 "ec2fit: update: endpoint: http://example.com/: plain http is only allowed to 127.0.0.1, localhost and \[::1\]; use https"

KEY= update
expect_fail half-env 2 'ec2fit: update: credentials: AWS_SECRET_ACCESS_KEY is set but AWS_ACCESS_KEY_ID is not'

: >"$WORK/log"
AWS_SESSION_TOKEN=$'tok\r\nX-Injected: 1' update
expect_fail creds-linebreak 2 'ec2fit: update: credentials: AWS_SESSION_TOKEN contains a line break'
grep -q '^POST' "$WORK/log" && fail "creds-linebreak: a request was sent"

update --retries 11
expect_fail usage 2 "ec2fit: update: --retries: expected an integer from 0 to 10, got '11'"

update --bogus
expect_fail unknown-flag 2 "ec2fit: update: --bogus: unknown flag \(see 'ec2fit update --help'\)"

update --regions 'us-east-1,EU WEST'
expect_fail bad-region 2 "ec2fit: update: --regions: 'EU WEST' is not a region name \(e\.g\. us-east-1\)"

# ---- a Capacity Blocks for ML product is a capacity-block rate -------------
# (never the on-demand price: the pair would otherwise have two prices)
start_server capblock
update
[ "$RC" = 0 ] || fail "capblock: exit $RC: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 capacity_block_usd_per_hour)" = 14.75 ] ||
    fail "capblock: rate not stored: $(price p4d.24xlarge us-east-1 capacity_block_usd_per_hour)"
[ "$(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)" = 21.957642 ] ||
    fail "capblock: on-demand changed: $(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)"
grep -q 'ambiguous\|CAPBLOCK' "$WORK/err" &&
    fail "capblock: taken as a second on-demand price: $(cat "$WORK/err")"

# ---- a reserved rate at or above on-demand is dropped, naming the row --------
start_server reservedhigh
update
[ "$RC" = 0 ] || fail "reservedhigh: exit $RC: $(cat "$WORK/err")"
[ "$(price m5.large us-east-1 reserved_1y_usd_per_hour)" = None ] ||
    fail "reservedhigh: a reserved rate above on-demand was taken"
[ "$(price g5.xlarge us-east-1 reserved_1y_usd_per_hour)" = 0.6 ] ||
    fail "reservedhigh: g5.xlarge reserved not refreshed"
grep -qx 'ec2fit: warning: update: m5.large us-east-1: 1-year reserved rate 0.12 is not below on-demand 0.097; dropped' "$WORK/err" ||
    fail "reservedhigh: not reported: $(cat "$WORK/err")"

# ---- commitment rates not below on-demand are dropped (issue 26) -------------
# A fetched 1-year Savings Plan rate above on-demand: dropped with its row,
# the rest lands (the 3-year 9.6 has no 1-year rate to exceed).
start_server sphigh
update
[ "$RC" = 0 ] || fail "sphigh: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: 1-year Savings Plan rate 25 is not below on-demand 21.9576; dropped' "$WORK/err" ||
    fail "sphigh: not reported: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)" = "None 9.6" ] ||
    fail "sphigh: rates $(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)"
[ "$(price g5.xlarge us-east-1 savings_plan_1y_usd_per_hour)" = 0.7242 ] ||
    fail "sphigh: the other rates did not land"
grep -qx 'ec2fit: update: savings plans: 2 regions, 4 pages, 8 rates listed, 3 pairs set, 1 commitment rates dropped' "$WORK/err" ||
    fail "sphigh: summary: $(cat "$WORK/err")"

# A fetched 3-year rate above the 1-year one: the 3-year rate is dropped.
start_server sp3over1
update
[ "$RC" = 0 ] || fail "sp3over1: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: 3-year Savings Plan rate 16 is above the 1-year rate 14.1423; dropped' "$WORK/err" ||
    fail "sp3over1: not reported: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)" = "14.1423 None" ] ||
    fail "sp3over1: rates $(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)"

# Kept rates against a lowered on-demand price: a catalog whose
# p4d.24xlarge us-east-1 carries vendored-style Savings Plan rates (13.9 /
# 9.5, beside its 1-year reserved 13.921094); the refresh cuts on-demand to
# 12 and lists no commitment rate for the pair. The two rates now above it
# go, each with the "kept" wording; the 3-year 9.5 stays.
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = [x for x in d["instances"] if x["type"] == "p4d.24xlarge"][0]
i["prices"]["us-east-1"].update(savings_plan_1y_usd_per_hour=13.9, savings_plan_3y_usd_per_hour=9.5)
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$BASE" "$WORK/base_sp.json"
start_server odcut
BASE="$WORK/base_sp.json" update
[ "$RC" = 0 ] || fail "odcut: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: kept 1-year reserved rate 13.9211 is now at or above the fetched on-demand 12; dropped' "$WORK/err" ||
    fail "odcut: kept reserved rate not reported: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: kept 1-year Savings Plan rate 13.9 is now at or above the fetched on-demand 12; dropped' "$WORK/err" ||
    fail "odcut: kept Savings Plan rate not reported: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 ondemand_usd_per_hour) $(price p4d.24xlarge us-east-1 reserved_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)" = "12 None None 9.5" ] ||
    fail "odcut: p4d.24xlarge us-east-1 $(price p4d.24xlarge us-east-1 ondemand_usd_per_hour) $(price p4d.24xlarge us-east-1 reserved_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_1y_usd_per_hour) $(price p4d.24xlarge us-east-1 savings_plan_3y_usd_per_hour)"

# A policy with pricing:GetProducts only (docs/update.md "Permissions"):
# the Savings Plans API refuses (HTTP 403 AccessDeniedException, as AWS
# answers an IAM denial; then HTTP 400 with the type in the body). The
# update still lands (exit 0) with one warning: on-demand prices refreshed
# (m5.large us-east-1 0.097, p4d.24xlarge us-east-1 cut to 12), the
# catalog's Savings Plan rates kept (p4d us-west-2 14 / 9.8, not the 14.1 /
# 9.7 the API would list; g5.xlarge us-east-1 none, not 0.7242) and judged
# against the new on-demand price (p4d us-east-1's 13.9 dropped, 9.5 kept),
# and no savings_plans_api source in the catalog or the sidecar; the
# catalog's own savings_plans source keeps its date.
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = [x for x in d["instances"] if x["type"] == "p4d.24xlarge"][0]
i["prices"]["us-east-1"].update(savings_plan_1y_usd_per_hour=13.9, savings_plan_3y_usd_per_hour=9.5)
i["prices"]["us-west-2"].update(savings_plan_1y_usd_per_hour=14.0, savings_plan_3y_usd_per_hour=9.8)
d["sources"].append({"id": "savings_plans", "file": "ec2_savings_plans.csv", "as_of": "2026-09-25", "origin": "test fixture"})
json.dump(d, open(sys.argv[2], "w"), indent=1)' "$BASE" "$WORK/base_spd.json"
sp_fields() { # type region
    echo "$(price "$1" "$2" savings_plan_1y_usd_per_hour) $(price "$1" "$2" savings_plan_3y_usd_per_hour)"
}
for sc in spdenied spdenied400; do
    start_server $sc
    BASE="$WORK/base_spd.json" update
    [ "$RC" = 0 ] || fail "$sc: exit $RC: $(cat "$WORK/err")"
    case $sc in
    spdenied) why='HTTP 403' ;;
    *) why='HTTP 400 AccessDeniedException' ;;
    esac
    [ "$(grep -c 'savings plans' "$WORK/err")" = 1 ] ||
        fail "$sc: expected one savings plans line: $(cat "$WORK/err")"
    grep -qx "ec2fit: warning: update: savings plans: access denied ($why; the policy needs savingsplans:DescribeSavingsPlansOfferingRates); Savings Plan rates not refreshed" "$WORK/err" ||
        fail "$sc: warning: $(cat "$WORK/err")"
    [ "$(grep -c '^SP POST /DescribeSavingsPlansOfferingRates region=us-east-1 token=- sig=ok ' "$WORK/log")" = 1 ] ||
        fail "$sc: expected one signed Savings Plans request: $(grep '^SP' "$WORK/log")"
    grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: kept 1-year Savings Plan rate 13.9 is now at or above the fetched on-demand 12; dropped' "$WORK/err" ||
        fail "$sc: kept rate above the new on-demand not dropped: $(cat "$WORK/err")"
    grep -qx 'ec2fit: update: on-demand: 2 regions, 5 pages, .*' "$WORK/err" ||
        fail "$sc: on-demand summary: $(cat "$WORK/err")"
    grep -qx 'ec2fit: update: wrote .*/catalog.json (prices as of [0-9-]*)' "$WORK/err" ||
        fail "$sc: not written: $(cat "$WORK/err")"
    [ "$(price m5.large us-east-1 ondemand_usd_per_hour) $(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)" = "0.097 12" ] ||
        fail "$sc: on-demand not refreshed: $(price m5.large us-east-1 ondemand_usd_per_hour) $(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)"
    [ "$(sp_fields p4d.24xlarge us-east-1)" = "None 9.5" ] ||
        fail "$sc: p4d.24xlarge us-east-1 rates $(sp_fields p4d.24xlarge us-east-1)"
    [ "$(sp_fields p4d.24xlarge us-west-2)" = "14 9.8" ] ||
        fail "$sc: p4d.24xlarge us-west-2 rates not kept: $(sp_fields p4d.24xlarge us-west-2)"
    [ "$(sp_fields g5.xlarge us-east-1)" = "None None" ] ||
        fail "$sc: g5.xlarge us-east-1 got rates: $(sp_fields g5.xlarge us-east-1)"
    got=$(python3 -c 'import json,sys
c = json.load(open(sys.argv[1])); m = json.load(open(sys.argv[2]))
print(" ".join(sorted(s["id"] + "@" + s["as_of"] for s in c["sources"] if "savings" in s["id"] or s["id"] == "pricing_api")),
      "|", " ".join(sorted(s["id"] for s in m["sources"])))' "$CACHE/catalog.json" "$CACHE/catalog.json.meta")
    [ "$got" = "pricing_api@$(date -u +%F) savings_plans@2026-09-25 | pricing_api spot_advisor" ] ||
        fail "$sc: sources: $got"
done

# A malformed Savings Plans reply fails the update: one line, exit 1, the
# previous cache byte for byte (sha256 before and after).
snapshot
sum_before=$(sha256sum "$CACHE/catalog.json" "$CACHE/catalog.json.meta")
start_server spbadjson
update
expect_fail spbadjson 1 'ec2fit: update: DescribeSavingsPlansOfferingRates us-east-1: invalid JSON at byte offset 18'
start_server spbadrate
update
expect_fail spbadrate 1 'ec2fit: update: DescribeSavingsPlansOfferingRates us-east-1: searchResults\[0\]: c6i\.large: rate "1e3" is not a decimal number'
[ "$(sha256sum "$CACHE/catalog.json" "$CACHE/catalog.json.meta")" = "$sum_before" ] ||
    fail "spbad*: cache checksum changed"

# ---- a 10x price move is reported and kept; --force takes it ----------------
start_server bigmove
update
[ "$RC" = 0 ] || fail "bigmove: exit $RC"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: on-demand price moved 10.0x (21.9576 -> 219.576); kept 21.9576 (use --force to accept)' "$WORK/err" ||
    fail "bigmove: warning: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)" = 21.957642 ] ||
    fail "bigmove: price taken without --force"
update --force
[ "$(price p4d.24xlarge us-east-1 ondemand_usd_per_hour)" = 219.57642 ] ||
    fail "bigmove: --force did not take the price"
grep -q 'accepted because of --force' "$WORK/err" || fail "bigmove: force note"

# ---- untrusted values (docs/update.md, "Safety checks") ----------------------
# A spot move over 30 points is taken with --force, and says so.
start_server ok
update --force
[ "$RC" = 0 ] || fail "spot move --force: exit $RC: $(cat "$WORK/err")"
[ "$(price p4d.24xlarge us-east-1 spot_savings_pct)" = 25 ] ||
    fail "spot move --force: not taken"
grep -qx 'ec2fit: warning: update: p4d.24xlarge us-east-1: spot savings moved 42 points (67% -> 25%); accepted because of --force' "$WORK/err" ||
    fail "spot move --force: note: $(cat "$WORK/err")"

# A new price 10x its family's median per vCPU (m5: 0.096 / 2 vCPU) is not
# added without --force; with it, it is, and says so.
start_server newfar
update
[ "$RC" = 0 ] || fail "newfar: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: m5.large us-west-2: new on-demand price 0.96 is 10x the m5 median of 0.048 per vCPU (allowed 0.2x-5x); not added (use --force to accept)' "$WORK/err" ||
    fail "newfar: note: $(cat "$WORK/err")"
python3 -c 'import json,sys
d = json.load(open(sys.argv[1]))
i = [x for x in d["instances"] if x["type"] == "m5.large"][0]
sys.exit("us-west-2" in i["prices"])' "$CACHE/catalog.json" ||
    fail "newfar: m5.large us-west-2 added without --force"
update --force
[ "$(price m5.large us-west-2 ondemand_usd_per_hour)" = 0.96 ] ||
    fail "newfar --force: not added"
grep -qx 'ec2fit: warning: update: m5.large us-west-2: new on-demand price 0.96 is 10x the m5 median of 0.048 per vCPU (allowed 0.2x-5x); accepted because of --force' "$WORK/err" ||
    fail "newfar --force: note: $(cat "$WORK/err")"

# Spot savings outside 1..95 are rejected even with --force.
start_server spotrange
update --force
[ "$RC" = 0 ] || fail "spotrange: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: warning: update: t3.micro us-east-1: spot savings 97% outside 1..95%; rejected, kept the previous spot data' "$WORK/err" ||
    fail "spotrange: note: $(cat "$WORK/err")"
[ "$(price t3.micro us-east-1 spot_savings_pct)" = 69 ] ||
    fail "spotrange: 97% taken"

# NextToken going back to an earlier page (not just the last one) stops.
cp "$WORK/snap/catalog.json" "$WORK/snap/catalog.json.meta" "$CACHE/"
start_server tokenloop
update
expect_fail tokenloop 1 'ec2fit: update: GetProducts us-east-1 page 3: NextToken repeats a token of an earlier page; giving up'

# Plain http to loopback never goes through a proxy (the request carries
# Authorization): a dead proxy in every variable must not matter.
start_server ok
http_proxy=http://127.0.0.1:9 HTTP_PROXY=http://127.0.0.1:9 \
    https_proxy=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 \
    ALL_PROXY=http://127.0.0.1:9 NO_PROXY= no_proxy= update --force
[ "$RC" = 0 ] || fail "proxy: exit $RC: $(cat "$WORK/err")"

# A password in an endpoint URL is redacted in --verbose, errors, the
# catalog's sources and the .meta.
update --force --verbose --endpoint-url "http://user:hunter2@127.0.0.1:$PORT/"
[ "$RC" = 0 ] || fail "url password: exit $RC: $(cat "$WORK/err")"
grep -qx "ec2fit: update: > POST http://user:<redacted>@127.0.0.1:$PORT/" "$WORK/err" ||
    fail "url password: verbose: $(grep POST "$WORK/err" | head -2)"
grep -q "http://user:<redacted>@127.0.0.1:$PORT/" "$CACHE/catalog.json.meta" ||
    fail "url password: meta has no redacted origin"
if grep -q hunter2 "$WORK/err" "$CACHE/catalog.json" "$CACHE/catalog.json.meta"; then
    fail "url password: the password was printed or stored"
fi
snapshot
update --spot-advisor-url "http://user:hunter2@127.0.0.1:$PORT/nope.json"
expect_fail url-password-error 1 "ec2fit: update: spot advisor http://user:<redacted>@127.0.0.1:$PORT/nope.json: HTTP 404"

# ---- --force accepts the shrinking spot feed ---------------------------------
start_server spothalf
update --force
[ "$RC" = 0 ] || fail "spothalf --force: exit $RC"
grep -qx 'ec2fit: update: spot: 6 entries updated, 5 removed' "$WORK/err" ||
    fail "spothalf --force: $(cat "$WORK/err")"

# ---- temporary credentials from a profile; --verbose redacts secrets --------
mkdir -p "$HOME/.aws"
printf '[ci]\naws_access_key_id = AKIDPROFILE\naws_secret_access_key = pr0file/SECRET\naws_session_token = SESSIONTOKEN123\n' \
    >"$HOME/.aws/credentials"
start_server ok --access-key AKIDPROFILE --secret pr0file/SECRET --token SESSIONTOKEN123
AWS_PROFILE=ci "$EC2FIT" update --catalog "$BASE" --endpoint-url "$URL" \
    --spot-advisor-url "$URL/spot-advisor-data.json" --verbose \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
[ "$RC" = 0 ] || fail "profile: exit $RC: $(cat "$WORK/err")"
grep -qx 'ec2fit: update: > Authorization: <redacted>' "$WORK/err" ||
    fail "verbose: no redacted Authorization line"
grep -qx 'ec2fit: update: > X-Amz-Security-Token: <redacted>' "$WORK/err" ||
    fail "verbose: no redacted token line"
grep -q 'ec2fit: update: > POST http://127.0.0.1' "$WORK/err" ||
    fail "verbose: no request line"
if grep -q -e 'pr0file/SECRET' -e SESSIONTOKEN123 -e 'Signature=' -e AKIDPROFILE "$WORK/err"; then
    fail "verbose: a secret was printed"
fi
rm -rf "$HOME/.aws"

# ---- two concurrent updates are serialised by the lock ----------------------
start_server ok
update --quiet &
p1=$!
update --quiet
wait $p1 || fail "concurrent: first update failed"
[ "$RC" = 0 ] || fail "concurrent: second update failed"
want=$(sha256sum <"$CACHE/catalog.json" | cut -d' ' -f1)
grep -q "\"$want\"" "$CACHE/catalog.json.meta" || fail "concurrent: torn cache"

# ---- without credentials: spot only, and it says what it skipped ------------
snapshot
: >"$WORK/log"
"$EC2FIT" update --catalog "$BASE" --spot-advisor-url "$URL/spot-advisor-data.json" \
    >"$WORK/out" 2>"$WORK/err"
RC=$?
[ "$RC" = 0 ] || fail "nocreds: exit $RC: $(cat "$WORK/err")"
grep -qx "ec2fit: warning: update: skipped on-demand prices (Pricing API): no AWS credentials: AWS_ACCESS_KEY_ID is not set and profile 'default' is not in $HOME/.aws/credentials or $HOME/.aws/config" "$WORK/err" ||
    fail "nocreds: message: $(cat "$WORK/err")"
grep -q '^POST' "$WORK/log" && fail "nocreds: GetProducts was called"

# ---- --dry-run prints and writes nothing -------------------------------------
snapshot
update --dry-run --quiet
[ "$RC" = 0 ] || fail "dry-run: exit $RC"
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$WORK/out" ||
    fail "dry-run: stdout is not JSON"
cache_unchanged dry-run

"$EC2FIT" update --help >"$WORK/out" 2>"$WORK/err" || fail "help: exit $?"
grep -q '^usage: ec2fit update' "$WORK/out" || fail "help: stdout"

stop_server
if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all update cases passed"
