#!/usr/bin/env bash
# test_self_contained.sh - the repository needs nothing beside it: the
# vendored source data in data/sources/ matches the sha256 listed in
# data/sources/SOURCES.md, the generators default to it and rebuild the
# committed data byte for byte, and no file in the tree points at a folder
# outside the repository or at a path on a developer's machine.
set -eu
: "${SRC_DIR:?SRC_DIR must point at the repository root}"
: "${WORK:?WORK must name a scratch directory}"
PY="${PYTHON:-python3}"
mkdir -p "$WORK"
pass=0
fail=0
ok()  { pass=$((pass + 1)); echo "ok   - $1"; }
bad() { fail=$((fail + 1)); echo "FAIL - $1"; }

# 1. every vendored file is listed with its sha256, and matches it
listed=$(sed -n 's/^| `\([^`]*\)` | .* | `\([0-9a-f]\{64\}\)` |$/\2  \1/p' \
    "$SRC_DIR/data/sources/SOURCES.md")
n=$(printf '%s\n' "$listed" | grep -c .)
[ "$n" -eq 10 ] && ok "SOURCES.md lists 10 files with a sha256" || bad "SOURCES.md lists $n files"
if (cd "$SRC_DIR/data/sources" && printf '%s\n' "$listed" | sha256sum --quiet -c -); then
    ok "every vendored file matches its sha256"
else
    bad "a vendored file differs from its sha256 in SOURCES.md"
fi
unlisted=$(cd "$SRC_DIR/data/sources" && find . -type f ! -name SOURCES.md | sed 's#^\./##' | sort |
    while read -r f; do printf '%s\n' "$listed" | grep -q "  $f\$" || echo "$f"; done)
[ -z "$unlisted" ] && ok "no unlisted file in data/sources" || bad "unlisted: $unlisted"

# 2. the generators default to data/sources and rebuild the committed files
if "$PY" "$SRC_DIR/tools/gen_catalog.py" -o "$WORK/catalog.json" 2>"$WORK/gen.err" &&
    cmp -s "$WORK/catalog.json" "$SRC_DIR/data/catalog.json"; then
    ok "gen_catalog.py with default inputs rebuilds data/catalog.json"
else
    bad "gen_catalog.py with default inputs"; cat "$WORK/gen.err"
fi
if "$PY" "$SRC_DIR/tools/gen_light.py" -o "$WORK/light.json" 2>"$WORK/gen.err" &&
    cmp -s "$WORK/light.json" "$SRC_DIR/data/light.json"; then
    ok "gen_light.py with default inputs rebuilds data/light.json"
else
    bad "gen_light.py with default inputs"; cat "$WORK/gen.err"
fi

# 3. no file reads or names a folder outside the repository. Build trees
# inside the checkout are skipped; this script is the one file that names
# the patterns.
pat_up='\.\./shared'
# (/home/u and /home/me in docs and tests are made-up example homes.)
pat_abs='(^|[^A-Za-z0-9_.])/(work|root|srv)/|/tmp/iss'
hits=$(cd "$SRC_DIR" && grep -rIlE "$pat_up|$pat_abs" --exclude-dir=.git \
    --exclude-dir='build*' --exclude=test_self_contained.sh . || true)
[ -z "$hits" ] && ok "no ../shared or machine path in the tree" || bad "outside paths in: $hits"

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
