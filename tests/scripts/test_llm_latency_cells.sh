#!/usr/bin/env bash
# LLM serving plans show time to first token and time per output token in
# the table, Markdown and HTML reports ("113 / 105 ms", docs/cli.md
# "Latency column"), and the whole request on one line under the table; the
# figures are the JSON's ttft_ms / per_token_ms / latency_ms of the same
# plan. Non-LLM serving keeps the request latency.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
J="$WORK/llm.json"
ARGS=(recommend --model llama-3.1-8b --task infer --qps 10 --top 3)

"$EC2FIT" "${ARGS[@]}" --output json > "$J" 2> /dev/null
check "json: exit 0" test $? -eq 0
ms() { jq -r ".recommendations[$1].$2 | if . < 10 then (.*10|round/10|tostring) else (round|tostring) end" "$J"; }
T1=$(ms 0 ttft_ms); P1=$(ms 0 per_token_ms); T3=$(ms 2 ttft_ms); P3=$(ms 2 per_token_ms)
S1=$(jq -r '.recommendations[0].latency_ms / 1000 * 10 | round / 10 | tostring' "$J")
check "json: rank 1 has ttft_ms and per_token_ms" test -n "$T1" -a "$T1" != null -a -n "$P1" -a "$P1" != null
check "json: a whole request is longer than 10 tokens at TPOT" jq -e '.recommendations[0] | .latency_ms > 10 * .per_token_ms' "$J"
LAT1=$(jq -r '.recommendations[0].latency_ms | round' "$J")

"$EC2FIT" "${ARGS[@]}" > "$WORK/llm.txt" 2> /dev/null
check "table: header TTFT / TPOT, no LATENCY" bash -c "grep -q '^RANK .* TTFT / TPOT ' '$WORK/llm.txt' && ! grep -q ' LATENCY ' '$WORK/llm.txt'"
check "table: rank 1 cell '$T1 / $P1 ms'" bash -c "grep -E '^1 ' '$WORK/llm.txt' | grep -qF ' $T1 / $P1 ms '"
check "table: rank 3 cell '$T3 / $P3 ms'" bash -c "grep -E '^3 ' '$WORK/llm.txt' | grep -qF ' $T3 / $P3 ms '"
check "table: the whole request ($LAT1 ms) is not in a row" bash -c "! grep -E '^[0-9] ' '$WORK/llm.txt' | grep -qF ' $LAT1 ms'"
check "table: the request line: first token $T1 ms, $P1 ms per token, 256 tokens in $S1 s" \
  bash -c "grep -E '^Latency \\(rank 1\\): the first token after $T1 ms .*, then $P1 ms .*per output token; a whole answer of 256 tokens takes $S1 s .*end to end\\.\$' '$WORK/llm.txt'"

"$EC2FIT" "${ARGS[@]}" --output markdown > "$WORK/llm.md" 2> /dev/null
check "markdown: header column TTFT / TPOT" grep -qF '| Memory (GiB/device) | TTFT / TPOT | $/hour |' "$WORK/llm.md"
check "markdown: rank 1 cell" grep -qF "| $T1 / $P1 ms |" "$WORK/llm.md"
check "markdown: request line" grep -qE "^Latency \\(rank 1\\): the first token after $T1 ms .* a whole answer of 256 tokens takes $S1 s" "$WORK/llm.md"

"$EC2FIT" "${ARGS[@]}" --output html > "$WORK/llm.html" 2> /dev/null
check "html: header TTFT / TPOT" grep -qF '<th class="num">TTFT / TPOT</th>' "$WORK/llm.html"
check "html: rank 1 cell" grep -qF "<td class=\"num\">$T1 / $P1 ms</td>" "$WORK/llm.html"
check "html: request paragraph" grep -qE "^<p>Latency \\(rank 1\\): the first token after $T1 ms .* takes $S1 s .*end to end\\.</p>\$" "$WORK/llm.html"

# non-LLM serving: the request latency, as before
"$EC2FIT" recommend --model distilbert --task infer --qps 2 > "$WORK/enc.txt" 2> /dev/null
check "distilbert: LATENCY column kept" grep -qE '^RANK .* LATENCY ' "$WORK/enc.txt"
check "distilbert: no TTFT line" bash -c "! grep -q 'TTFT\\|first token' '$WORK/enc.txt'"
finish
