#!/usr/bin/env bash
# Issue 24, point 3 ("deepseek-v3 fp8 at qps 2 on one node"): the physics
# of multi-node serving. DeepSeek-V3 (671B, h 7168) in fp8 at 2 req/s:
#  - on 2 x p4de.24xlarge (A100: no fp8 math; vLLM serves the fp8
#    checkpoint weight-only through its fused Marlin MoE, 1 B per weight:
#    671 GB, more than one node's 8 x 80 GB = 640 GB, so 2 nodes; it was 3
#    when MoE fp8 ran as bf16, 1342 GB; docs/estimation.md 5.5
#    "Weight-only fp8"), TP 8 inside a node and PP 2 across nodes; each
#    decode step's pipeline hop carries the hidden states of its 256 decode
#    and 255/256 x 512 = 510 fused prompt tokens: 766 x 7168 x 2 B =
#    10.98 MB at 400 Gbps = 50 GB/s of EFA, plus 15 us: 234.6 us
#    (docs/estimation.md 5.4); 39.06 GiB of weights per GPU (671e9 / 16);
#  - the default service level (TTFT 2 s, TPOT 200 ms) holds there;
#  - bought on equal terms (on-demand), one p5en.48xlarge (8 x H200 141 GB:
#    671 GB of fp8 weights in one node, $63.30/h) costs more than the two
#    p4de ($27.45/h each): it ranks second, at one node.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
P="$WORK/p4de.json" R="$WORK/od.json"
"$EC2FIT" estimate --model deepseek-v3 --task infer --precision fp8 --qps 2 --instance p4de.24xlarge --nodes 2 --explain --output json > "$P"
check "p4de x 2: tp 8, pp 2" jq -e '.tp_degree == 8 and .pp_degree == 2' "$P"
check "p4de x 2: fp8 weight-only, 39.06 GiB of weights per GPU" jq -e '.memory.weights_gib > 39.05 and .memory.weights_gib < 39.07' "$P"
check "p4de x 2: hop 0.2346 ms = 15 us + 10.98 MB / 50 GB/s" jq -e '.serving_breakdown.pipeline_hops_ms > 0.2345 and .serving_breakdown.pipeline_hops_ms < 0.2347' "$P"
check "p4de x 2: TPOT within 200 ms, TTFT within 2 s (the default service level)" jq -e '.serving_breakdown.tpot_ms <= 200 and .ttft_ms <= 2000 and .serving_breakdown.service_level.tpot_ms == 200 and .serving_breakdown.service_level.ttft_ms == 2000' "$P"
"$EC2FIT" recommend --model deepseek-v3 --task infer --precision fp8 --qps 2 --purchase on-demand --output json > "$R"
check "on-demand: rank 1 is two p4de.24xlarge" jq -e '.recommendations[0] | .instance_type == "p4de.24xlarge" and .nodes == 2' "$R"
check "on-demand: one p5en.48xlarge is rank 2, dearer than rank 1" jq -e '.recommendations[1].instance_type == "p5en.48xlarge" and .recommendations[1].nodes == 1 and .recommendations[1].monthly_usd > .recommendations[0].monthly_usd' "$R"
finish
