#!/usr/bin/env bash
# Serving by engine (issues 13 and 14), with the issues' exact commands:
# one fit rule for estimate and recommend, TTFT as one request's own
# prefill, per-engine decode overheads, pipeline stages adding latency, MoE
# expert reads, and the --ttft-ms / --tpot-ms targets. Figures and their
# sources: docs/estimation.md, "LLM serving" and "Serving engines".
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
R="$WORK/rec.json" E="$WORK/est.json"

# 8B serving at 0.5 req/s: a single 24-48 GB GPU (A10G, L4, L40S) is in
# the top 3, and Inferentia1 (no decoder LLMs) nowhere.
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 0.5 --output json > "$R"
check "recommend 8B exit 0" test $? -eq 0
check "top 3 has a 1-GPU A10G/L4/L40S type" jq -e '[.recommendations[:3][]
  | select(.accelerator.count == 1 and (.accelerator.model | test("A10G|L4|L40S")))] | length >= 1' "$R"
check "no inf1 ranked" jq -e '[.recommendations[] | select(.instance_type | startswith("inf1."))] | length == 0' "$R"

# estimate and recommend agree on g5.xlarge's memory fit: the estimator
# applies the memory-fit rule's 10% headroom itself
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g5.xlarge --output json > "$E"
check "g5.xlarge fits in estimate, with the 10% headroom" jq -e '.fits == true and
  .memory.total_per_device_gib * 1.1 <= .memory.available_per_device_gib' "$E"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 0.5 --families g5 --explain > "$WORK/explain.txt" 2>&1
check "recommend does not reject g5.xlarge for memory" bash -c "! grep -E '^ +g5.xlarge .*needs .* GiB per device' '$WORK/explain.txt'"

# TTFT is the request's own prefill plus queueing (was 2.9 s)
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g6e.xlarge --qps 1 --output json > "$E"
check "8B on g6e.xlarge: TTFT under 150 ms" jq -e '.ttft_ms > 0 and .ttft_ms < 150' "$E"
check "engine is vLLM by default" jq -e '.stack.engine == "vllm"' "$E"

# eager TGI pays tens of ms per decode step at TP8; vLLM a few ms (at one
# batch, 8: without it each engine takes its own admission limit, TGI 128
# and vLLM 256, docs/estimation.md 5.4)
for m in llama-2-13b; do
  "$EC2FIT" estimate --model $m --task infer --instance p4d.24xlarge --engine tgi --tensor-parallel 8 --batch-size 8 --output json > "$E"
  check "$m TGI TP8 on p4d: tens of ms per token" jq -e '.per_token_ms >= 15 and .per_token_ms < 100' "$E"
  "$EC2FIT" estimate --model $m --task infer --instance p4d.24xlarge --engine vllm --tensor-parallel 8 --batch-size 8 --output json > "$E"
  check "$m vLLM TP8 on p4d: a few ms per token" jq -e '.per_token_ms > 1 and .per_token_ms < 10' "$E"
done
# SageMaker TGI benchmark (philschmid/text-generation-inference-tests,
# results/sagemaker.csv): llama-2-13b on ml.p4d.24xlarge, 1 user: 21.6 ms
"$EC2FIT" estimate --model llama-2-13b --task infer --instance p4d.24xlarge --engine tgi --tensor-parallel 8 --batch-size 1 --input-tokens 10 --output-tokens 50 --output json > "$E"
check "13B TGI batch 1 within 35% of 21.6 ms/token" jq -e '.per_token_ms > 14.0 and .per_token_ms < 29.2' "$E"

# TGI 1.x pauses the batch for a forward pass per joining request (its
# router "pass[es] new prefill requests and paus[es] decode requests"):
# SageMaker TGI 1.0.3, llama-2-7b fp16 on ml.g5.2xlarge, 20 closed-loop
# users, 10-token prompt, 50 new tokens: 313.5 tokens/s (results/
# sagemaker.csv). Charging the prompts' FLOPs only gave 557 (+78%).
"$EC2FIT" estimate --model llama-2-7b --task infer --instance g5.2xlarge --engine tgi --precision fp16 --batch-size 20 --input-tokens 10 --output-tokens 50 --output json > "$E"
check "TGI 7B g5.2xlarge 20 users within 35% of 313.5 tokens/s" jq -e '.tokens_per_s > 203.8 and .tokens_per_s < 423.2' "$E"
"$EC2FIT" estimate --model llama-2-7b --task infer --instance g5.2xlarge --engine vllm --precision fp16 --batch-size 20 --input-tokens 10 --output-tokens 50 --output json > "$WORK/est_vllm.json"
check "vLLM (chunked prefill in the step) out-serves TGI at 20 users" jq -e --slurpfile t "$E" '.tokens_per_s > $t[0].tokens_per_s' "$WORK/est_vllm.json"

# N prompts arriving at once: the last one's first token comes after all N
# prefills (vLLM RTX 4090 sweep: P99 TTFT = 31-39 ms x N for N = 4..48,
# docs/estimation.md "Open and closed loops"); 512-token prompts on an
# L40S are compute-bound, so the burst is ~64 x the own prefill
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g6e.xlarge --batch-size 64 --output json > "$E"
check "burst of 64 prompts: 0.9-1.05 x 64 own prefills" jq -e '.assumptions[]
  | select(test("64 arriving at once")) | capture("own prefill (?<p>[0-9]+) ms.*last waits (?<b>[0-9]+) ms")
  | (.b | tonumber) as $b | (.p | tonumber) as $p | $b >= 0.9 * 64 * $p and $b <= 1.05 * 64 * $p' "$E"

# the TTFT the assumption line states is the one reported (it read "TTFT =
# own prefill 44 ms + queueing (...the last waits 10356 ms)" beside a first
# token of 112.6 ms), and its terms add up to it
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g6e.xlarge --qps 10 --output json > "$E"
check "TTFT assumption = reported ttft_ms = prefill + join + queueing" jq -e '(.ttft_ms | round) as $t
  | [.assumptions[] | select(test("in flight; TTFT"))
     | capture("TTFT (?<t>[0-9]+) ms = own prefill (?<p>[0-9]+) ms \\+ join (?<j>[0-9]+) ms \\+ queueing (?<q>[0-9]+) ms")
     | (.t | tonumber) as $a | ((.p | tonumber) + (.j | tonumber) + (.q | tonumber)) as $s
     | ($a - $t | fabs) <= 1 and ($s - $a | fabs) <= 2] == [true]' "$E"

# pipeline stages run in sequence for one token, plus a hop each
"$EC2FIT" estimate --model llama-3.1-70b --task infer --instance p5.4xlarge --nodes 3 --batch-size 1 --output json > "$E"
pp=$(jq '.per_token_ms' "$E")
check "70B on 3 x p5.4xlarge is tp+pp over 3 stages" jq -e '.parallelism == "tp+pp" and .pp_degree == 3' "$E"
"$EC2FIT" estimate --model llama-3.1-70b --task infer --instance p5.48xlarge --tensor-parallel 8 --batch-size 1 --output json > "$E"
tp=$(jq '.per_token_ms' "$E")
check "PP ms/token ($pp) > TP8 ms/token ($tp)" awk -v a="$pp" -v b="$tp" 'BEGIN{exit !(a > b)}'

# MoE: total parameters in memory, the experts a batch touches per step
"$EC2FIT" estimate --model mixtral-8x7b --task infer --instance p5.48xlarge --tpot-ms 100 --output json > "$E"
check "Mixtral on p5.48xlarge: >= 2000 tokens/s at 100 ms/token" jq -e '.tokens_per_s >= 2000 and .per_token_ms <= 100' "$E"

# --ttft-ms / --tpot-ms: rules with their own messages, exit 3 when unmet
"$EC2FIT" recommend --model llama-3.1-8b --task infer --ttft-ms 0.01 > "$WORK/out" 2> "$WORK/err"
check "unreachable --ttft-ms exits 3" test $? -eq 3
check "ttft rule named" grep -q "(ttft): time to first token .* ms, target 0.01 ms" "$WORK/out"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --tpot-ms 0.01 > "$WORK/out" 2> "$WORK/err"
check "unreachable --tpot-ms exits 3" test $? -eq 3
check "tpot rule named" grep -q "(tpot): .* ms per output token, target 0.01 ms" "$WORK/out"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --tpot-ms 20 --output json > "$R"
check "every plan meets --tpot-ms 20" jq -e 'all(.recommendations[]; .per_token_ms <= 20) and .workload.tpot_ms == 20' "$R"
"$EC2FIT" estimate --model llama-3.1-8b --task infer --ttft-ms abc > /dev/null 2> "$WORK/err"
check "bad --ttft-ms exits 2" test $? -eq 2
# KV capacity (docs/estimation.md "KV capacity"), shown by estimate: the
# pool vLLM logs as '# GPU blocks' x 16. Each calibration row with a
# vLLM KV log is run on its hardware and checked within the row's own
# tolerance; table and JSON print the same integer.
CAL="$FIXTURES/calibration.json"
kv_row() { # id -> "expect tolerance_pct"
  jq -r --arg id "$1" '.rows[] | select(.id == $id) | "\(.expect) \(.tolerance_pct)"' "$CAL"
}
read -r want tol <<< "$(kv_row vllm-pr2031-kvcap-llama-2-7b-a100-80gb-tp1)"
check "calibration row vllm-pr2031 7B: 117616 tokens" test "$want" = 117616
"$EC2FIT" estimate --model llama-2-7b --task infer --precision fp16 --instance p4de.24xlarge --tensor-parallel 1 --batch-size 1 --output json > "$E"
got=$(jq '.memory.kv_capacity_tokens' "$E")
check "llama-2-7b fp16 on one A100-80GB: KV capacity $got within $tol% of vLLM's $want" awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN{d = g / w - 1; exit !(g > 0 && d < t / 100 && d > -t / 100)}'
check "KV capacity is an integer" jq -e '.memory.kv_capacity_tokens | . == floor' "$E"
"$EC2FIT" estimate --model llama-2-7b --task infer --precision fp16 --instance p4de.24xlarge --tensor-parallel 1 --batch-size 1 > "$WORK/table"
commas=$(echo "$got" | sed -E ':a;s/^([0-9]+)([0-9]{3})/\1,\2/;ta')
check "table prints the same figure ($commas)" grep -qE "^KV capacity +$commas tokens per replica" "$WORK/table"
read -r want tol <<< "$(kv_row dataoneks-vllm-r1-distill-8b-g5.4xlarge-kvcap)"
"$EC2FIT" estimate --model llama-3.1-8b --task infer --precision bf16 --instance g5.4xlarge --batch-size 1 --output json > "$E"
got=$(jq '.memory.kv_capacity_tokens' "$E")
check "llama-3.1-8b bf16 on g5.4xlarge: KV capacity $got within $tol% of vLLM's $want" awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN{d = g / w - 1; exit !(g > 0 && d < t / 100 && d > -t / 100)}'
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g5.4xlarge --explain --output json > "$E"
check "serving_breakdown carries the same KV capacity" jq -e '.serving_breakdown.kv_capacity_tokens == .memory.kv_capacity_tokens and .memory.kv_capacity_tokens > 0' "$E"
"$EC2FIT" estimate --model llama-3.1-8b --task train --instance p4d.24xlarge --output json > "$E"
check "training: kv_capacity_tokens is null" jq -e '.memory.kv_capacity_tokens == null' "$E"
"$EC2FIT" estimate --model resnet50 --task infer --instance g5.xlarge --output json > "$E"
check "non-LLM serving: kv_capacity_tokens is null" jq -e '.memory.kv_capacity_tokens == null' "$E"
"$EC2FIT" estimate --model resnet50 --task infer --instance g5.xlarge > "$WORK/table"
check "non-LLM serving: no KV capacity line" bash -c "! grep -q '^KV capacity' '$WORK/table'"
# recommend carries it on every plan without --explain (a script sizing a
# fleet by KV tokens reads it): the vllm-pr2031 row on p4de (A100-80GB)
read -r want tol <<< "$(kv_row vllm-pr2031-kvcap-llama-2-7b-a100-80gb-tp1)"
"$EC2FIT" recommend --model llama-2-7b --task infer --precision fp16 --families p4de --tensor-parallel 1 --batch-size 1 --output json > "$R"
got=$(jq '.recommendations[0].memory.kv_capacity_tokens' "$R")
check "recommend: llama-2-7b fp16 on p4de TP1: KV capacity $got within $tol% of vLLM's $want" awk -v g="$got" -v w="$want" -v t="$tol" 'BEGIN{d = g / w - 1; exit !(g > 0 && d < t / 100 && d > -t / 100)}'
check "recommend: no serving_breakdown without --explain" jq -e '.recommendations[0] | has("serving_breakdown") | not' "$R"
"$EC2FIT" estimate --model llama-2-7b --task infer --precision fp16 --instance p4de.24xlarge --tensor-parallel 1 --batch-size 1 --output json > "$E"
check "recommend: the same integer as estimate ($got)" jq -e --argjson g "$got" '.memory.kv_capacity_tokens == $g' "$E"
printf '%s\n' '{"model":"llama-2-7b","task":"infer","precision":"fp16","families":"p4de","tensor-parallel":1,"batch-size":1}' > "$WORK/kv.jsonl"
"$EC2FIT" recommend --batch "$WORK/kv.jsonl" > "$WORK/kv.out"
check "recommend --batch: the same figure on the line" jq -e --argjson g "$got" '.recommendations[0].memory.kv_capacity_tokens == $g' "$WORK/kv.out"
"$EC2FIT" recommend --model llama-3.1-8b --task infer --qps 5 --output json > "$R"
check "recommend: every LLM serving plan has an integer KV capacity" jq -e 'all(.recommendations[]; .memory.kv_capacity_tokens | type == "number" and . > 0 and . == floor)' "$R"
"$EC2FIT" recommend --model resnet50 --task infer --output json > "$R"
check "recommend: non-LLM serving: null" jq -e 'all(.recommendations[]; .memory | has("kv_capacity_tokens") and .kv_capacity_tokens == null)' "$R"
"$EC2FIT" recommend --model llama-3.1-8b --task lora --output json > "$R"
check "recommend: training: null" jq -e 'all(.recommendations[]; .memory.kv_capacity_tokens == null)' "$R"
finish
