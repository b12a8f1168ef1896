#!/usr/bin/env bash
# `recommend --output html`: a self-contained page (no external asset, no
# script) with one SVG point per plan: the --top plans plus any marked
# (cheapest / fastest / best-value) plan ranked below them. Rendered in
# headless Chromium when it is installed (CI installs it); skipped, not
# failed, where it is not. In the rendered DOM: every note of --output json
# appears, chart labels sit inside the SVG viewBox and clear of each other,
# ticks are round, short table cells do not wrap; printed to PDF, the chart
# and its heading share a page (pdftotext, poppler-utils). Markdown: the
# same notes, a Region column for several regions.
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
# the purchase column is the JSON's purchase (one source, ecf_rr_purchase_):
# a reserved-1y serving plan is not "on-demand" (issue 25)
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --output json > "$WORK/serve.json"
check "serving page: rank 1 purchase as in JSON" bash -c "grep -o '<td class=\"nw\">[a-z0-9-]*</td>' '$WORK/serve.html' | sed -n 1p | grep -qF \">\$(jq -r '.recommendations[0].purchase' '$WORK/serve.json')<\""
check "serving page: every purchase cell is a JSON purchase" bash -c "diff <(grep -oE '</code></td><td class=\"num\">[0-9]+</td><td class=\"nw\">[a-z0-9-]+' '$WORK/serve.html' | sed 's/.*>//') <(jq -r '.recommendations[].purchase' '$WORK/serve.json')"
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output html > "$WORK/none.html" 2> "$WORK/err"
check "no plan: exit 3" test $? -eq 3
check "no plan: page says so" grep -q 'No instance type satisfies every constraint' "$WORK/none.html"
check "no plan: no points" bash -c "! grep -q '<circle' '$WORK/none.html'"
check "no plan: closest misses, not 'run --explain'" bash -c "grep -q '<h2>Closest misses</h2>' '$WORK/none.html' && ! grep -q 'recommend --explain' '$WORK/none.html'"
# numbers: no exponent, parameters in words, thousands separators
"$EC2FIT" recommend --model resnet50 --task train --output html > "$WORK/resnet.html"
for f in "$H" "$WORK/serve.html" "$WORK/resnet.html"; do
  check "no exponent notation in $(basename "$f")" bash -c "! grep -Eq '[0-9]e[+-][0-9]' '$f'"
done
check "parameters in words (resnet50: 25.6 million)" grep -q '(cnn, 25.6 million parameters)' "$WORK/resnet.html"
check "no '0.0256 B parameters'" bash -c "! grep -q 'B parameters' '$WORK/resnet.html'"
check "thousands separators (candidates)" grep -Eq '^<p class="sub">[0-9]{1,3}(,[0-9]{3})+ candidates' "$H"
check "numeric cells right-aligned" grep -q 'td.num{text-align:right' "$H"
check "cost exclusions stated" grep -q 'they exclude EBS volumes and snapshots, S3, data transfer, other AWS services, support plans and taxes' "$H"
check "chart heading and chart kept together" grep -q '.chart{break-inside:avoid' "$H"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --output json > "$WORK/serve.json"
"$EC2FIT" "${ARGS[@]}" --top 10 --output json > "$WORK/report.json"
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output json > "$WORK/none.json" 2> /dev/null
"$EC2FIT" recommend --model resnet50 --task train --output json > "$WORK/resnet.json"

# Markdown: the same notes, a Region column with several regions
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 20 --output markdown > "$WORK/serve.md"
check "markdown: every note of the JSON" python3 "$SRC_DIR/tests/tools/html_check.py" notes "$WORK/serve.md" "$WORK/serve.json"
check "markdown: Auto Scaling, once" test "$(grep -c 'Auto Scaling' "$WORK/serve.md")" -eq 1
"$EC2FIT" recommend --model resnet50 --task train --output markdown > "$WORK/resnet.md"
check "markdown: resnet50 notes" python3 "$SRC_DIR/tests/tools/html_check.py" notes "$WORK/resnet.md" "$WORK/resnet.json"
"$EC2FIT" recommend --model llama-3.1-70b --task lora --dataset 100M --budget 1 --output markdown > "$WORK/none.md" 2> /dev/null
check "markdown no plan: the closest misses of the JSON" python3 "$SRC_DIR/tests/tools/html_check.py" notes "$WORK/none.md" "$WORK/none.json"
"$EC2FIT" recommend --model resnet50 --task train --regions us-east-1,us-west-2,eu-west-1 --output markdown > "$WORK/regions.md"
"$EC2FIT" recommend --model resnet50 --task train --regions us-east-1,us-west-2,eu-west-1 --output json > "$WORK/regions.json"
check "markdown: Region column with several regions" grep -q '^| # | Instance | Region | Nodes |' "$WORK/regions.md"
check "markdown: each row's region is the JSON's" test "$(grep -E '^\| [0-9]+ \|' "$WORK/regions.md" | cut -d'|' -f4 | tr -d ' ')" = "$(jq -r '.recommendations[:5][].region' "$WORK/regions.json")"
check "markdown: no Region column for one region" bash -c "! grep -q '| Region |' '$WORK/resnet.md'"

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
  # notes, labels, ticks, wrapping: a copy of each page with the probe
  # script (the pages themselves carry none), at a narrow window
  for name in report serve resnet none; do
    page="$WORK/$name.html"; [ "$name" = report ] && page="$H"
    { sed '$d' "$page"; printf '<script>\n'; cat "$SRC_DIR/tests/tools/html_probe.js"; printf '</script>\n</html>\n'; } > "$WORK/$name-probe.html"
    timeout 120 "$chrome" "${flags[@]}" --window-size=900,1200 --dump-dom "file://$WORK/$name-probe.html" > "$WORK/$name-dom.html" 2> /dev/null
    check "$name: every note of the JSON in the DOM" python3 "$SRC_DIR/tests/tools/html_check.py" notes "$WORK/$name-dom.html" "$WORK/$name.json" $([ "$name" = report ] && echo 10)
    if [ "$name" != none ]; then
      check "$name: labels inside the viewBox, one per point, ticks on 1-2-5, no wrapped cell" python3 "$SRC_DIR/tests/tools/html_check.py" chart "$WORK/$name-dom.html"
    fi
  done
  # the page against the JSON of the same run, one workload per kind
  # (issue 25): each row's instance, region, purchase, $/hour and cost;
  # every label on its own point; the counts; at an 800 px window nothing
  # but a table's own scroll container is wider than the window
  cases=(
    "train|recommend --model resnet50 --task train"
    "train-ondemand|recommend --model resnet50 --task train --no-spot"
    "spot|recommend --model llama-3.1-8b --task lora --dataset 100M --epochs 1 --purchase spot"
    "serve|recommend --model llama-3.1-8b --task infer --qps 50"
    "fallback|recommend --model llama-3.1-8b --task infer --qps 50 --fallback cpu"
    "reserved|recommend --model bert-base --task infer --qps 200 --purchase reserved-1y"
    "regions|recommend --model resnet50 --task train --regions us-east-1,sa-east-1"
  )
  for c in "${cases[@]}"; do
    name=${c%%|*}; read -r -a args <<< "${c#*|}"
    "$EC2FIT" "${args[@]}" --top 10 --output html > "$WORK/c-$name.html" 2> /dev/null
    "$EC2FIT" "${args[@]}" --top 10 --output json > "$WORK/c-$name.json" 2> /dev/null
    { sed '$d' "$WORK/c-$name.html"; printf '<script>\n'; cat "$SRC_DIR/tests/tools/html_probe.js"; printf '</script>\n</html>\n'; } > "$WORK/c-$name-probe.html"
    timeout 120 "$chrome" "${flags[@]}" --window-size=800,1200 --dump-dom "file://$WORK/c-$name-probe.html" > "$WORK/c-$name-dom.html" 2> /dev/null
    check "$name: rows equal the JSON plans" python3 "$SRC_DIR/tests/tools/html_check.py" rows "$WORK/c-$name-dom.html" "$WORK/c-$name.json"
    check "$name: every label on its own point" python3 "$SRC_DIR/tests/tools/html_check.py" labels "$WORK/c-$name-dom.html"
    check "$name: counts as the JSON summary, adding up" python3 "$SRC_DIR/tests/tools/html_check.py" counts "$WORK/c-$name-dom.html" "$WORK/c-$name.json"
    check "$name: nothing wider than an 800 px window" python3 "$SRC_DIR/tests/tools/html_check.py" layout "$WORK/c-$name-dom.html"
    check "$name: every note of the JSON" python3 "$SRC_DIR/tests/tools/html_check.py" notes "$WORK/c-$name-dom.html" "$WORK/c-$name.json" 10
    check "$name: no flag or backtick in the page text" bash -c "! python3 -c 'import sys; sys.path.insert(0, \"$SRC_DIR/tests/tools\"); import html_check; print(html_check.page_text(sys.argv[1]))' '$WORK/c-$name-dom.html' | grep -E '\`| --[a-z]'"
  done
  check "fallback: the CPU group of the JSON" grep -q "<dt>CPU fallback group</dt><dd>$(jq -r '.autoscaling.fallback_cpu.instance_type' "$WORK/c-fallback.json")," "$WORK/c-fallback-dom.html"
  check "serve: no 'below --qps' for a fleet that meets the load" bash -c "! grep -q 'below --qps' '$WORK/c-serve-dom.html' && grep -q 'instances meet the 50 requests/s load' '$WORK/c-serve-dom.html'"
  check "reserved: rank 1 reserved-1y in the JSON (the case tests a non-spot, non-on-demand label)" test "$(jq -r '.recommendations[0].purchase' "$WORK/c-reserved.json")" = reserved-1y
  check "spot: every plan spot in the JSON" test "$(jq -r '[.recommendations[].purchase] | unique | join(",")' "$WORK/c-spot.json")" = spot
  check "regions: missing prices in customer wording, once" bash -c "test \$(grep -c 'The built-in catalog has no sa-east-1 price' '$WORK/c-regions-dom.html') -eq 1"
  check "serve: no Lightsail row dearer than rank 1" bash -c "! grep -qi 'dearer than rank 1' '$WORK/c-serve-dom.html'"
  # the checkers catch what they are for: a swapped purchase cell, a label
  # moved onto another point, a table outside its scroll container
  python3 - "$WORK/c-serve-dom.html" "$WORK/bad-rows.html" <<'PY'
import html, json, re, sys
t = open(sys.argv[1], encoding="utf-8").read()
p = json.loads(html.unescape(re.findall(r'<pre id="probe">(\{.*?)</pre>', t, re.S)[-1]))
p["rows"][0][3] = "on-demand"
open(sys.argv[2], "w", encoding="utf-8").write('<pre id="probe">' + html.escape(json.dumps(p)) + '</pre>')
PY
  check "checker catches a purchase cell unlike the JSON" bash -c "python3 '$SRC_DIR/tests/tools/html_check.py' rows '$WORK/bad-rows.html' '$WORK/c-serve.json' | grep -q \"purchase 'on-demand' != JSON 'reserved-1y'\""
  python3 - "$WORK/c-train-probe.html" "$WORK/bad-label-probe.html" <<'PY'
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
# rank 2's label put right beside rank 4's point, on the side away from
# rank 2's own point
c2 = re.search(r'<circle class="[^"]*" data-rank="2" cx="([0-9.]+)" cy="([0-9.]+)"', t)
c4 = re.search(r'<circle class="[^"]*" data-rank="4" cx="([0-9.]+)" cy="([0-9.]+)"', t)
x4, y4 = float(c4.group(1)), float(c4.group(2))
right = x4 >= float(c2.group(1))
t = re.sub(r'<line class="leader" data-rank="2"[^>]*/>', '', t)
t = re.sub(r'(<text class="label" data-rank="2") x="[0-9.]+" y="[0-9.]+"( text-anchor="end")?',
           r'\1 x="%.1f" y="%.1f"%s' % (x4 + 10 if right else x4 - 10, y4 + 4,
                                       '' if right else ' text-anchor="end"'), t)
open(sys.argv[2], "w", encoding="utf-8").write(t)
PY
  timeout 120 "$chrome" "${flags[@]}" --window-size=800,1200 --dump-dom "file://$WORK/bad-label-probe.html" > "$WORK/bad-label-dom.html" 2> /dev/null
  check "checker catches '#2' over #4's point" bash -c "python3 '$SRC_DIR/tests/tools/html_check.py' labels '$WORK/bad-label-dom.html' | grep -q \"label '#2 .*nearer to point(s) #\[4[],]\""
  sed 's#<div class="wide"><table class="plans">#<div><table class="plans">#; s#\.wide{overflow-x:auto#.x{overflow-x:auto#' "$WORK/c-train-probe.html" > "$WORK/bad-wide-probe.html"
  timeout 120 "$chrome" "${flags[@]}" --window-size=800,1200 --dump-dom "file://$WORK/bad-wide-probe.html" > "$WORK/bad-wide-dom.html" 2> /dev/null
  check "checker catches a table wider than the window" bash -c "! python3 '$SRC_DIR/tests/tools/html_check.py' layout '$WORK/bad-wide-dom.html' > /dev/null"
  # a screenshot at 800 px: the PNG is 800 px wide (IHDR), the page above
  # shows nothing wider
  rm -f "$WORK/narrow.png"
  timeout 120 "$chrome" "${flags[@]}" --screenshot="$WORK/narrow.png" --window-size=800,1200 "file://$WORK/c-train.html" > /dev/null 2>&1
  check "800 px screenshot written, 800 px wide" python3 -c "import struct,sys; d=open(sys.argv[1],'rb').read(24); sys.exit(0 if struct.unpack('>I', d[16:20])[0] == 800 else 1)" "$WORK/narrow.png"

  # the checker itself: a label pushed past the right edge is caught
  sed 's/<text class="label" data-rank="\([0-9]*\)" x="[0-9.]*" y="\([0-9.]*\)"\( text-anchor="end"\)\{0,1\}/<text class="label" data-rank="\1" x="860" y="\2"/' "$WORK/report-probe.html" > "$WORK/bad-probe.html"
  timeout 120 "$chrome" "${flags[@]}" --window-size=900,1200 --dump-dom "file://$WORK/bad-probe.html" > "$WORK/bad-dom.html" 2> /dev/null
  check "checker catches a label outside the viewBox" bash -c "! python3 '$SRC_DIR/tests/tools/html_check.py' chart '$WORK/bad-dom.html' > '$WORK/bad.txt' && grep -q 'label outside the viewBox' '$WORK/bad.txt'"
  # print: the chart heading and the chart's axis title on one PDF page
  if command -v pdftotext > /dev/null; then
    for name in report serve; do
      page="$WORK/$name.html"; [ "$name" = report ] && page="$H"
      rm -f "$WORK/$name.pdf"
      timeout 120 "$chrome" "${flags[@]}" --no-pdf-header-footer --print-to-pdf="$WORK/$name.pdf" "file://$page" > /dev/null 2>&1
      check "$name: PDF written" test -s "$WORK/$name.pdf"
      pdftotext -layout "$WORK/$name.pdf" "$WORK/$name.txt"
      axis=$([ "$name" = serve ] && echo 'latency per request' || echo 'job time (hours)')
      same_page() {
        python3 - "$1" "$2" <<'PY'
import sys
pages = open(sys.argv[1], encoding="utf-8").read().split("\f")
hit = [i for i, p in enumerate(pages) if "Cost versus time" in p]
sys.exit(0 if hit and sys.argv[2] in pages[hit[0]] else 1)
PY
      }
      check "$name: PDF page with 'Cost versus time' also has the chart ('$axis')" same_page "$WORK/$name.txt" "$axis"
      check "$name: PDF region cells not split (us-east-1 whole)" grep -q 'us-east-1' "$WORK/$name.txt"
      check "$name: PDF table not cut at the page edge (rank 1's Note cell)" grep -Eq '^ *1 +[a-z0-9.-]+ .*cheapest' "$WORK/$name.txt"
    done
  else
    echo "SKIP: pdftotext not installed (apt-get install poppler-utils); print not checked"
    skip=1
  fi
  rm -rf "$prof"
fi

# The Markdown report is customer-facing too: no flag and no command line
# in its text (missing-price notes in customer wording, as the page), and
# the Auto Scaling group said once (a bullet list, no second prose line).
md_cases=(
  "serve|recommend --model llama-3.1-8b --task infer --qps 50"
  "reserved|recommend --model bert-base --task infer --qps 200 --purchase reserved-1y"
  "regions|recommend --model resnet50 --task train --regions us-east-1,us-west-2"
  "region-missing|recommend --model llama-3.1-8b --task infer --qps 10 --region ap-south-2"
  "spot|recommend --model llama-3.1-8b --task lora --dataset 100M --epochs 1 --purchase spot"
  "none|recommend --model llama-3.1-70b --task infer --qps 10 --max-hourly 1"
)
for c in "${md_cases[@]}"; do
  name=${c%%|*}; read -r -a args <<< "${c#*|}"
  "$EC2FIT" "${args[@]}" --top 10 --output markdown > "$WORK/md-$name.md" 2> /dev/null
  check "markdown $name: no flag or command in the text" bash -c "! grep -nE '(^|[ (])--[a-z]|ec2fit (update|recommend)' '$WORK/md-$name.md'"
done
check "markdown serve: Auto Scaling once" test "$(grep -c 'Auto Scaling' "$WORK/md-serve.md")" -eq 1
check "markdown serve: no --peak-qps: the maximum for twice the load, in words" \
  grep -qF -- '- Auto Scaling: minimum 8, maximum 15 instances (desired 8; the maximum serves twice the expected load: no peak load was given); expected 8.00 over the day' "$WORK/md-serve.md"
check "markdown region-missing: the note in customer wording" grep -q '^- .*ap-south-2' "$WORK/md-region-missing.md"

finish
