#!/usr/bin/env bash
# `recommend --output html`: a self-contained page (no external asset, no
# script) with one SVG point per plan: the --top plans plus any marked
# (cheapest / fastest / best-value) plan ranked below them. Rendered in
# headless Chromium when it is installed (CI installs it); skipped, not
# failed, where it is not.
set -u
. "$(dirname "$0")/checks.sh"
skip=0
mkdir -p "$WORK"
H="$WORK/report.html"
ARGS=(recommend --model llama-3.1-8b --task lora --dataset 100M --epochs 1)

"$EC2FIT" "${ARGS[@]}" --top 10 --output html > "$H"
check "exit 0" test $? -eq 0
check "one html document" bash -c "head -1 '$H' | grep -qx '<!DOCTYPE html>' && tail -1 '$H' | grep -qx '</html>'"
check "no script" bash -c "! grep -qi '<script' '$H'"
check "no external asset" bash -c "! grep -Eqi '(src|href)=\"?(https?:)?//' '$H' && ! grep -qi '@import\|url(' '$H'"
want=$("$EC2FIT" "${ARGS[@]}" --top 10000 --output json | jq '[.recommendations | to_entries[] | select(.key < 10 or (.value.marks | length) > 0)] | length')
got=$(grep -c '<circle class="plan' "$H")
check "one point per plan ($got, want $want)" test "$got" -eq "$want"
for m in cheapest fastest best-value; do
  check "$m highlighted" grep -q "<circle class=\"plan[a-z -]*$m" "$H"
done
check "memory breakdown of rank 1" grep -q 'class="membar"' "$H"
check "weights segment" grep -q '<title>weights [0-9.]* GiB</title>' "$H"
check "catalog date" grep -q 'prices as of 2026-07-20' "$H"
check "assumptions" grep -q '<h2>Assumptions</h2>' "$H"
# serving and no-plan pages are well formed too
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --output html > "$WORK/serve.html"
check "serving page" grep -q 'latency per request' "$WORK/serve.html"
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output html > "$WORK/none.html" 2> "$WORK/err"
check "no plan: exit 3" test $? -eq 3
check "no plan: page says so" grep -q 'No instance type satisfies every constraint' "$WORK/none.html"
check "no plan: no points" bash -c "! grep -q '<circle' '$WORK/none.html'"

chrome=$(command -v chromium || command -v chromium-browser || command -v google-chrome || true)
if [ -z "$chrome" ]; then
  echo "SKIP: chromium not installed (apt-get install chromium); rendering not checked"
  skip=1
else
  prof=$(mktemp -d)
  flags=(--headless --no-sandbox --disable-gpu --disable-quic --no-first-run
         --disable-background-networking --disable-component-update --disable-sync
         --user-data-dir="$prof")
  rm -f "$WORK/report.png"
  timeout 120 "$chrome" "${flags[@]}" --screenshot="$WORK/report.png" --window-size=1200,900 "file://$H" > /dev/null 2>&1
  check "screenshot written" test -f "$WORK/report.png"
  check "screenshot non-trivial (> 20 kB)" test "$(stat -c %s "$WORK/report.png" 2>/dev/null || echo 0)" -gt 20000
  timeout 120 "$chrome" "${flags[@]}" --dump-dom "file://$H" > "$WORK/dom.html" 2> /dev/null
  got=$(grep -o '<circle class="plan' "$WORK/dom.html" | wc -l)
  check "DOM after load: one point per plan ($got, want $want)" test "$got" -eq "$want"
  check "DOM: svg parsed" grep -q '<svg class="scatter"' "$WORK/dom.html"
  rm -rf "$prof"
fi

finish
