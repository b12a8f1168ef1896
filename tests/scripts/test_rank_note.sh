#!/usr/bin/env bash
# Issue 24, point 6: a plan the penalty rules weigh says so beside its
# cost ("ranked +N%" in the table's and Markdown's NOTE), so a cheaper plan
# listed below a dearer one is explained by what is shown; JSON's "score"
# is the objective column x (1 + that weight). The case of the issue:
# flux-1-dev over 1M images, where g6e.2xlarge spot ranks below dearer
# plans: interruption band 2 weighs it +20%.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
J="$WORK/flux.json" T="$WORK/flux.txt" M="$WORK/flux.md"
"$EC2FIT" recommend --model flux-1-dev --task batch --dataset 1M --output json > "$J"
"$EC2FIT" recommend --model flux-1-dev --task batch --dataset 1M > "$T"
"$EC2FIT" recommend --model flux-1-dev --task batch --dataset 1M --output markdown > "$M"
check "json: scores non-decreasing down the ranks" jq -e '[.recommendations[].score] | . == sort' "$J"
check "json: rank 5 g6e.2xlarge spot scores its total x 1.2" jq -e '.recommendations[4] | .instance_type == "g6e.2xlarge" and .purchase == "spot" and ((.score - .total_usd * 1.2) | fabs) < 0.01' "$J"
total5=$(jq -r '.recommendations[4].total_usd | tostring' "$J")
check "json: rank 4 costs more than rank 5 and scores less" jq -e '.recommendations[3].total_usd > .recommendations[4].total_usd and .recommendations[3].score < .recommendations[4].score' "$J"
check "table: rank 5's NOTE says ranked +20%" grep -Eq "^5 +g6e\\.2xlarge .*\\\$${total5//./\\.} .* ranked \\+20%\$" "$T"
check "table: unpenalised ranks carry no ranked note" test "$(grep -c 'ranked +' "$T")" -eq 1
check "table: the Notes section names the rule" grep -q '^  5\. g6e\.2xlarge (spot-interruption): ' "$T"
check "markdown: rank 5's Note says ranked +20%" grep -Eq '^\| 5 \| `g6e\.2xlarge` .*\| ranked \+20% \|$' "$M"
finish
