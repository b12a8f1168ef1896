#!/usr/bin/env bash
# Findings of the session-11 default-path review (a new user's commands
# outside us-east-1), each checked at the command line with its exact text.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && cd "$WORK" || exit 1

# estimate in a region without a price for the type: the job has a time,
# and the Cost line says why there is no cost instead of vanishing
# (c7i.xlarge is priced in 15 regions, not sa-east-1: SOURCES.md 9a)
"$EC2FIT" estimate --model bert-base --task infer --instance c7i.xlarge --region sa-east-1 --dataset 1M > est_sa.txt 2> est_sa.err
check "estimate sa-east-1: exit 0" test $? -eq 0
check "estimate sa-east-1: the Cost line names the missing price and the fix" grep -qxF \
  "Cost             - (the catalog has no sa-east-1 price for c7i.xlarge; 'ec2fit update --regions sa-east-1' fetches it, 'ec2fit show c7i.xlarge' lists where it is priced)" est_sa.txt
check "estimate sa-east-1: JSON cost is null" test "$("$EC2FIT" estimate --model bert-base --task infer --instance c7i.xlarge --region sa-east-1 --dataset 1M -o json | jq -c .cost)" = null
"$EC2FIT" estimate --model bert-base --task infer --instance c7i.xlarge --region eu-west-1 --dataset 1M > est_eu.txt
check "estimate eu-west-1 (priced): the usual Cost line" grep -qE '^Cost             \$[0-9.]+ on-demand in eu-west-1 \(\$0\.1915/h x 1 node\)$' est_eu.txt

finish
