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

# Lambda and Lightsail are priced from us-east-1 pages (docs/rules.md): outside
# us-east-1 the customer reports mark it after the verdict, as the table does
"$EC2FIT" recommend --model distilbert --task infer --qps 5 --region sa-east-1 --output markdown > light_sa.md
check "markdown sa-east-1: the Lightsail row is marked as us-east-1 prices" grep -qxF \
  '| lightsail small_3_0 | 357 ms | 5 | $60.00 | $4.5662 | cheaper than rank 1 (at us-east-1 prices) |' light_sa.md
"$EC2FIT" recommend --model distilbert --task infer --qps 5 --region sa-east-1 --output html > light_sa.html
check "html sa-east-1: the Lightsail row is marked as us-east-1 prices" grep -qF \
  '<td>cheaper than rank 1 (at us-east-1 prices)</td></tr>' light_sa.html
"$EC2FIT" recommend --model bert-base --task infer --qps 5 --families g5 --region us-east-1 --output markdown > light_us.md
check "markdown us-east-1: no mark (its own prices)" grep -qxF \
  '| lightsail small_3_0 | 711 ms | 9 | $108.00 | $8.2192 | cheaper than rank 1 |' light_us.md

# recommend --batch --output-file: once every line is answered, exit 2 (a bad
# line) and 3 (a line without a plan) still write the whole answer, as stdout
# (docs/exit-codes.md); before, an existing file was left as it was, silently
printf '%s\n' '{"model":"resnet50","task":"train"}' '{"model":"resnet50"}' > mixed.jsonl
printf '%s\n' '{"model":"resnet50","task":"train"}' '{"model":"llama-3.1-70b","task":"lora","dataset":"100M","budget":1}' > noplan.jsonl
echo old > plans.jsonl
"$EC2FIT" recommend --batch mixed.jsonl --output-file plans.jsonl 2> mixed.err
check "batch bad line --output-file: exit 2" test $? -eq 2
check "batch bad line --output-file: both lines written, as on stdout" \
  test "$(jq -c '[.line, has("recommendations"), .exit_code]' plans.jsonl | tr '\n' ' ')" = '[1,true,null] [2,false,2] '
check "batch bad line --output-file: stderr has only the line's error" test \
  "$(cat mixed.err)" = "ec2fit: recommend: line 2: missing --task (train, finetune, lora, qlora, infer or batch)"
echo old > plans.jsonl
"$EC2FIT" recommend --batch noplan.jsonl --output-file plans.jsonl 2> noplan.err
check "batch no-plan line --output-file: exit 3" test $? -eq 3
check "batch no-plan line --output-file: both lines written" \
  test "$(jq -c '[.line, (.recommendations | length > 0)]' plans.jsonl | tr '\n' ' ')" = '[1,true] [2,false] '
echo old > plans.jsonl
"$EC2FIT" recommend --batch missing.jsonl --output-file plans.jsonl 2> /dev/null
check "batch unreadable input --output-file: exit 1" test $? -eq 1
check "batch unreadable input --output-file: the file kept" test "$(cat plans.jsonl)" = old

finish
