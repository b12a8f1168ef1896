#!/usr/bin/env bash
# test_self_contained.sh - the source data the generators read is in the
# repository: every file in data/sources/ is listed in data/sources/SOURCES.md
# with its sha256 and matches it, and the generators default to that folder
# and rebuild the committed data byte for byte. (That nothing outside the
# checkout is read is shown by .ci/run, which runs every test in a copy of
# the tree with nothing beside it.)
set -u
. "$(dirname "$0")/checks.sh"
: "${SRC_DIR:?SRC_DIR must point at the repository root}"
: "${WORK:?WORK must name a scratch directory}"
PY="${PYTHON:-python3}"
mkdir -p "$WORK"

# 1. every vendored file is listed with its sha256, and matches it
listed=$(sed -n 's/^| `\([^`]*\)` | .* | `\([0-9a-f]\{64\}\)` |$/\2  \1/p' \
    "$SRC_DIR/data/sources/SOURCES.md")
n=$(printf '%s\n' "$listed" | grep -c .)
check "SOURCES.md lists 15 files with a sha256 (got $n)" test "$n" -eq 15
check "every vendored file matches its sha256" \
    bash -c 'cd "$1" && printf "%s\n" "$2" | sha256sum --quiet -c -' _ \
    "$SRC_DIR/data/sources" "$listed"
unlisted=$(cd "$SRC_DIR/data/sources" && find . -type f ! -name SOURCES.md | sed 's#^\./##' | sort |
    while read -r f; do printf '%s\n' "$listed" | grep -q "  $f\$" || echo "$f"; done)
check "no unlisted file in data/sources (got: $unlisted)" test -z "$unlisted"

# 2. the generators default to data/sources and rebuild the committed files
"$PY" "$SRC_DIR/tools/gen_catalog.py" -o "$WORK/catalog.json" 2>"$WORK/gen.err"
check "gen_catalog.py with default inputs rebuilds data/catalog.json" \
    cmp -s "$WORK/catalog.json" "$SRC_DIR/data/catalog.json"
"$PY" "$SRC_DIR/tools/gen_light.py" -o "$WORK/light.json" 2>"$WORK/gen.err"
check "gen_light.py with default inputs rebuilds data/light.json" \
    cmp -s "$WORK/light.json" "$SRC_DIR/data/light.json"
finish
