#!/bin/bash
# test_update_cache.sh - which catalog commands use after `ec2fit update`:
# the cache when valid and newer than the built-in one, never a tampered
# cache, `--catalog embedded` on request; and the staleness warning
# (always for the cache, only on a terminal for built-in and --catalog
# files). "Today" is pinned with EC2FIT_NOW. About 3 s.
set -u
. "${SRC_DIR:?}/tests/scripts/update_env.sh"
# no instance metadata service: the chain would try 169.254.169.254
export AWS_EC2_METADATA_DISABLED=true
OCT1=1790812800      # 2026-10-01T00:00:00Z (after the embedded catalog's generated_at)
NOV29=1795953600     # 2026-11-29T12:00:00Z

start_server ok --last-modified "$OCT1"

source_of() { # [ec2fit list args...] -> catalog.source of `list --output json`
    "$EC2FIT" list --output json "$@" 2>"$WORK/err" |
        python3 -c 'import json,sys; c = json.load(sys.stdin)["catalog"]; print(c["source"], c["as_of"])'
}

# No cache yet: the built-in catalog. Its staleness warning reaches stderr
# even in a pipe (issue 26: CI must see it); --quiet suppresses it.
[ "$(EC2FIT_NOW=$NOV29 "$EC2FIT" --version 2>"$WORK/err" | sed -n 2p)" = \
  "catalog: embedded (prices as of $(EC2FIT_CATALOG=embedded "$EC2FIT" --version | sed -n 's/.*as of \(.*\))/\1/p'))" ] ||
    fail "no cache: not embedded"
[ "$(cat "$WORK/err")" = "ec2fit: warning: the built-in catalog has prices as of 2026-07-20, 132 days old; run 'ec2fit update' to refresh" ] ||
    fail "no cache: stale warning in a pipe: $(cat "$WORK/err")"
EC2FIT_NOW=$NOV29 "$EC2FIT" list --family c7i 2>&1 >/dev/null | cat >"$WORK/pipe"
[ "$(cat "$WORK/pipe")" = "ec2fit: warning: the built-in catalog has prices as of 2026-07-20, 132 days old; run 'ec2fit update' to refresh" ] ||
    fail "list | cat: stale warning: $(cat "$WORK/pipe")"
EC2FIT_NOW=$NOV29 "$EC2FIT" --quiet list --family c7i 2>&1 >/dev/null | cat >"$WORK/pipe"
[ -s "$WORK/pipe" ] && fail "--quiet: stderr: $(cat "$WORK/pipe")"
EC2FIT_NOW=$NOV29 EC2FIT_STALE_DAYS=200 "$EC2FIT" list 2>"$WORK/err" >/dev/null
[ -s "$WORK/err" ] && fail "132 days under a 200-day limit: $(cat "$WORK/err")"

# An update "on 2026-10-01" (spot only: no credentials).
EC2FIT_NOW=$OCT1 "$EC2FIT" update --quiet --catalog "$BASE" \
    --spot-advisor-url "$URL/spot-advisor-data.json" 2>"$WORK/err" ||
    fail "update: $(cat "$WORK/err")"
grep -q '"as_of":.*"2026-10-01"' "$CACHE/catalog.json.meta" ||
    fail "update: sidecar as_of"

# Used by every command on the same day: no warning.
EC2FIT_NOW=$OCT1 "$EC2FIT" --version >"$WORK/out" 2>"$WORK/err"
grep -qx "catalog: cache:$CACHE/catalog.json (prices as of 2026-10-01)" "$WORK/out" ||
    fail "fresh cache: $(cat "$WORK/out")"
[ -s "$WORK/err" ] && fail "fresh cache: stderr: $(cat "$WORK/err")"
[ "$(EC2FIT_NOW=$OCT1 source_of)" = "cache:$CACHE/catalog.json 2026-10-01" ] ||
    fail "list does not use the cache"

# Seen from 2026-09-29, two days before its as_of, the cache is dated in
# the future (more than one day ahead): ignored with a warning.
EC2FIT_NOW=$((OCT1 - 2 * 86400)) "$EC2FIT" --quiet --version >"$WORK/out" 2>"$WORK/err"
grep -q '^catalog: embedded ' "$WORK/out" || fail "future cache used: $(cat "$WORK/out")"
[ "$(cat "$WORK/err")" = "ec2fit: warning: ignoring the catalog cache: cache:$CACHE/catalog.json: as_of: 2026-10-01 is in the future (more than a day ahead of today)" ] ||
    fail "future cache: stderr: $(cat "$WORK/err")"
# One day ahead is clock skew, not an error.
EC2FIT_NOW=$((OCT1 - 86400)) "$EC2FIT" --version >"$WORK/out" 2>"$WORK/err"
grep -qx "catalog: cache:$CACHE/catalog.json (prices as of 2026-10-01)" "$WORK/out" ||
    fail "cache one day ahead: $(cat "$WORK/out") $(cat "$WORK/err")"

# 59 days later: the cache is stale, and says so even without a terminal.
EC2FIT_NOW=$NOV29 "$EC2FIT" --version >"$WORK/out" 2>"$WORK/err"
[ "$(cat "$WORK/err")" = "ec2fit: warning: the cached catalog has prices as of 2026-10-01, 59 days old; run 'ec2fit update' to refresh" ] ||
    fail "stale cache: stderr: $(cat "$WORK/err")"
EC2FIT_NOW=$NOV29 EC2FIT_STALE_DAYS=0 "$EC2FIT" --version >/dev/null 2>"$WORK/err"
[ -s "$WORK/err" ] && fail "EC2FIT_STALE_DAYS=0: $(cat "$WORK/err")"
EC2FIT_NOW=$NOV29 EC2FIT_STALE_DAYS=90 "$EC2FIT" --version >/dev/null 2>"$WORK/err"
[ -s "$WORK/err" ] && fail "EC2FIT_STALE_DAYS=90: $(cat "$WORK/err")"

# --catalog embedded / EC2FIT_CATALOG=embedded force the built-in catalog;
# a stale one warns on stderr, terminal or not.
case "$(EC2FIT_NOW=$NOV29 source_of --catalog embedded)" in
embedded\ *) ;;
*) fail "--catalog embedded: $(EC2FIT_NOW=$NOV29 source_of --catalog embedded)" ;;
esac
[ "$(cat "$WORK/err")" = "ec2fit: warning: the built-in catalog has prices as of 2026-07-20, 132 days old; run 'ec2fit update' to refresh" ] ||
    fail "--catalog embedded: stderr: $(cat "$WORK/err")"
EC2FIT_CATALOG=embedded "$EC2FIT" --version | grep -q '^catalog: embedded ' ||
    fail "EC2FIT_CATALOG=embedded"
[ "$(EC2FIT_NOW=$NOV29 source_of --catalog "$BASE")" = "$BASE 2026-07-20" ] ||
    fail "--catalog FILE"
[ "$(cat "$WORK/err")" = "ec2fit: warning: the $BASE catalog has prices as of 2026-07-20, 132 days old; run 'ec2fit update' to refresh" ] ||
    fail "--catalog FILE: stderr: $(cat "$WORK/err")"

# On a terminal the stale built-in catalog warns (script(1) gives a pty).
if command -v script >/dev/null; then
    EC2FIT_NOW=$NOV29 script -qec "$EC2FIT --version --catalog embedded >/dev/null; $EC2FIT list --catalog embedded >/dev/null" /dev/null \
        >"$WORK/tty" 2>&1 </dev/null
    grep -q "ec2fit: warning: the built-in catalog has prices as of .*, [0-9]* days old; run 'ec2fit update' to refresh" "$WORK/tty" ||
        fail "tty: no staleness warning: $(cat "$WORK/tty")"
fi

# A tampered cache is ignored with a warning; the built-in one is used.
cp "$CACHE/catalog.json" "$WORK/good.json"
sed -i 's/"m5.large"/"m5.lARGE"/' "$CACHE/catalog.json"
EC2FIT_NOW=$OCT1 "$EC2FIT" --quiet --version >"$WORK/out" 2>"$WORK/err"
grep -q '^catalog: embedded ' "$WORK/out" || fail "tampered: $(cat "$WORK/out")"
[ "$(cat "$WORK/err")" = "ec2fit: warning: ignoring the catalog cache: $CACHE/catalog.json: SHA-256 does not match catalog.json.meta" ] ||
    fail "tampered: stderr: $(cat "$WORK/err")"
cp "$WORK/good.json" "$CACHE/catalog.json"

# A cache older than the built-in catalog (e.g. after an upgrade) is not
# used: same as_of as the base sources, generated before the embedded one.
# "Now" is 2026-07-19T12:00:00Z, half a day before the base's as_of
# (2026-07-20): a catalog date may be at most one day ahead of now.
emb_gen=$(EC2FIT_CATALOG=embedded "$EC2FIT" list --output json 2>/dev/null |
    python3 -c 'import json,sys; print(json.load(sys.stdin)["catalog"]["generated_at"])')
EC2FIT_NOW=1784462400 "$EC2FIT" update --quiet --catalog "$BASE" \
    --spot-advisor-url "$URL/spot-advisor-data.json" 2>"$WORK/err" ||
    fail "old update: $(cat "$WORK/err")"
if [ "$emb_gen" \> "2026-07-19T12:00:00Z" ]; then
    "$EC2FIT" --version | grep -q '^catalog: embedded ' ||
        fail "older cache used: $("$EC2FIT" --version)"
fi

if [ "$failures" -gt 0 ]; then
    echo "$failures failure(s)"
    exit 1
fi
echo "all cache selection cases passed"
