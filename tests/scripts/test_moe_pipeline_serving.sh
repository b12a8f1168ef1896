#!/usr/bin/env bash
# Issue 24, point 3 ("deepseek-v3 fp8 at qps 2 on one node"): the physics
# of multi-node serving. DeepSeek-V3 (671B, h 7168) in fp8 at 2 req/s:
#  - on 3 x p4de.24xlarge (A100: no fp8, bf16 weights, 1342 GB: 3 nodes of
#    8 x 80 GB), TP 8 inside a node and PP 3 across nodes; each decode
#    step's 2 pipeline hops carry the hidden states of its 256 decode and
#    255/256 x 512 = 510 fused prompt tokens: 766 x 7168 x 2 B = 10.98 MB
#    at 400 Gbps = 50 GB/s of EFA, plus 15 us: 2 x 234.6 us = 0.469 ms
#    (docs/estimation.md 5.4);
#  - the default service level (TTFT 2 s, TPOT 200 ms) holds there;
#  - bought on equal terms (on-demand), one p5en.48xlarge (8 x H200 141 GB:
#    671 GB of fp8 weights in one node) is rank 1.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
P="$WORK/p4de.json" R="$WORK/od.json"
"$EC2FIT" estimate --model deepseek-v3 --task infer --precision fp8 --qps 2 --instance p4de.24xlarge --nodes 3 --explain --output json > "$P"
check "p4de x 3: tp 8, pp 3" jq -e '.tp_degree == 8 and .pp_degree == 3' "$P"
check "p4de x 3: hops 0.469 ms = 2 x (15 us + 10.98 MB / 50 GB/s)" jq -e '.serving_breakdown.pipeline_hops_ms > 0.468 and .serving_breakdown.pipeline_hops_ms < 0.470' "$P"
check "p4de x 3: TPOT within 200 ms, TTFT within 2 s (the default service level)" jq -e '.serving_breakdown.tpot_ms <= 200 and .ttft_ms <= 2000 and .serving_breakdown.service_level.tpot_ms == 200 and .serving_breakdown.service_level.ttft_ms == 2000' "$P"
"$EC2FIT" recommend --model deepseek-v3 --task infer --precision fp8 --qps 2 --purchase on-demand --output json > "$R"
check "on-demand: rank 1 is one p5en.48xlarge" jq -e '.recommendations[0] | .instance_type == "p5en.48xlarge" and .nodes == 1' "$R"
finish
