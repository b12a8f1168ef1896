#!/usr/bin/env bash
# --fields (issue 28, point 8; docs/cli.md "Field selection"): the JSON
# document pruned to the listed paths, arrays crossed, original order and
# formatting; exact outputs from catalog facts; the pruned document equals
# jq's projection of the full one; an unknown field is exit 2 naming it
# (with the closest key), a non-JSON output or --batch is refused, and
# nothing reaches stdout or --output-file then.
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK"
E=$EC2FIT
cd "$WORK" || exit 1

run() { # want_rc want_stdout(file or -) want_stderr args...
  local rc=$1 out=$2 err=$3; shift 3
  "$E" "$@" > got.out 2> got.err; local got=$?
  [ "$got" = "$rc" ] || { echo "  exit $got, want $rc: $*"; cat got.err; return 1; }
  if [ "$out" = - ]; then [ ! -s got.out ] || return 1; else cmp -s got.out "$out" || { diff got.out "$out" | head; return 1; }; fi
  [ "$(cat got.err)" = "$err" ] || { echo "  stderr: $(cat got.err)"; return 1; }
}

cat > want_show <<'J'
{
  "instance": {
    "instance_type": "p5.48xlarge",
    "vcpu": 192,
    "accelerator": {
      "count": 8
    }
  }
}
J
check "show: nested fields, the document's order (not the list's)" \
  run 0 want_show "" show p5.48xlarge -o json --fields instance.accelerator.count,instance.instance_type,instance.vcpu

cat > want_list <<'J'
{
  "count": 2,
  "instances": [{
      "instance_type": "p5.4xlarge",
      "accelerator": {
        "count": 1
      }
    }, {
      "instance_type": "p5.48xlarge",
      "accelerator": {
        "count": 8
      }
    }]
}
J
check "list: an array is crossed (instances.instance_type)" \
  run 0 want_list "" list --accelerator h100 -o json --fields count,instances.instance_type,instances.accelerator.count

# the same bytes as jq's projection of the full document
"$E" recommend -m llama-3.1-8b -t infer --qps 5 --top 3 -o json > full.json
"$E" recommend -m llama-3.1-8b -t infer --qps 5 --top 3 -o json \
  --fields catalog.as_of,recommendations.instance_type,recommendations.monthly_usd,recommendations.memory.required_per_device_gib > sel.json
check "recommend: --fields = jq projection" bash -c "cmp -s <(jq -S . sel.json) <(jq -S '{catalog: {as_of: .catalog.as_of}, recommendations: [.recommendations[] | {instance_type, monthly_usd, memory: {required_per_device_gib: .memory.required_per_device_gib}}]}' full.json)"
check "recommend: 3 plans kept" test "$(jq '.recommendations | length' sel.json)" = 3
check "recommend: formatted like --output json (2-space indent)" grep -q '^  "catalog": {$' sel.json
"$E" estimate -m resnet50 -t train -i g6e.xlarge -o json > full.json
"$E" estimate -m resnet50 -t train -i g6e.xlarge -o json --fields fits,memory > sel.json
check "estimate: whole subtrees" bash -c "cmp -s <(jq -S . sel.json) <(jq -S '{fits, memory}' full.json)"
check "models: models.name = the zoo's names" bash -c "test \"\$('$E' models -o json --fields models.name | jq -c '[.models[].name]')\" = \"\$('$E' models -o json | jq -c '[.models[].name]')\""

# a field that stops at an empty array cannot be checked (no plan: exit 3)
printf '{\n  "recommendations": []\n}\n' > want_empty
check "exit 3: the empty array, exit kept" \
  run 3 want_empty "ec2fit: recommend: no instance type satisfies the constraints; closest: t2.small (budget-hourly): costs \$0.0071/h on 1 node(s), budget \$0.0001/h" \
  recommend -m resnet50 -t train --budget-hourly 0.0001 -o json --fields recommendations.instance_type

# errors: exit 2, one line naming the field, nothing on stdout
check "unknown field, closest key" run 2 - "ec2fit: recommend: --fields: unknown field 'recommendations.instance_typ' (did you mean recommendations.instance_type?)" \
  recommend -m resnet50 -t train -o json --fields recommendations.instance_typ
check "unknown top-level field" run 2 - "ec2fit: list: --fields: unknown field 'nosuch'" \
  list -o json --fields count,nosuch
check "unknown field under a kept one" run 2 - "ec2fit: models: --fields: unknown field 'models.nam' (did you mean models.name?)" \
  models -o json --fields models,models.nam
check "a path through a number" run 2 - "ec2fit: show: --fields: unknown field 'instance.vcpu.count'" \
  show p5.48xlarge -o json --fields instance.vcpu.count
check "syntax" run 2 - "ec2fit: estimate: --fields: 'a b': a field is keys of letters, digits, '_' and '-' joined by '.'" \
  estimate -m resnet50 -t train -i g6e.xlarge -o json --fields 'a b'
check "empty key" run 2 - "ec2fit: list: --fields: 'a..b': empty key" list -o json --fields a..b
check "table output refused" run 2 - "ec2fit: estimate: --fields: selects from --output json only" \
  estimate -m resnet50 -t train -i g6e.xlarge --fields fits
check "csv output refused" run 2 - "ec2fit: list: --fields: selects from --output json only" list -o csv --fields count
check "tfvars output refused" run 2 - "ec2fit: recommend: --fields: selects from --output json only" \
  recommend -m resnet50 -t train -o tfvars --fields rank
echo '{"model": "resnet50", "task": "train"}' > b.jsonl
check "--batch refused" run 2 - "ec2fit: recommend: --fields: not with --batch (each line prints its whole object; select with jq)" \
  recommend --batch b.jsonl --fields line
check "unknown field with --output-file: exit 2, no file" \
  bash -c "! '$E' list -o json --fields nosuch --output-file o.json 2>/dev/null && test ! -e o.json"
"$E" list --accelerator h100 -o json --fields count,instances.instance_type,instances.accelerator.count --output-file o.json
check "--output-file gets the pruned document" cmp -s o.json want_list
finish
