#!/usr/bin/env bash
# One flag table per command (issue 28, point 8): every flag the parser
# accepts (its getopt_long table, printed by the hidden `__complete
# flags:CMD`) is listed exactly once in the command's --help and in
# docs/ec2fit.1, nothing else is listed, a short flag sits on its long
# flag's entry, no group heading repeats, and the man page's COMMAND
# OPTIONS section is what tools/gen_man_options.py makes of the --help
# texts. Short letters mean the same flag in every command (docs/cli.md);
# each gives the same bytes as its long spelling. Every "Examples:" line
# of every --help runs (exit 0, or 3 = no plan, never a usage error).
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK"
E=$EC2FIT

python3 "$SRC_DIR/tools/gen_man_options.py" --check "$E" "$SRC_DIR/docs/ec2fit.1" > "$WORK/check" 2>&1
rc=$?
cat "$WORK/check"
check "flag table vs --help and man page ($(tail -1 "$WORK/check"))" test "$rc" = 0
check "flags of every command counted" grep -qE '^flag table: ([2-9][0-9]{2}|1[0-9]{3}) flags over 9 commands, 0 problems$' "$WORK/check"

# the parser's own table, not a copy of the help
check "recommend's table: --model-config, -m = --model" bash -c "'$E' __complete flags:recommend | grep -qx -- --model-config && '$E' __complete flags:recommend | grep -qx -- '-m --model'"
check "list's table has the instance-selector spellings" bash -c "'$E' __complete flags:list | grep -qx -- --efa-support"
"$E" __complete flags:nosuch > "$WORK/out" 2>&1; rc=$?
check "__complete flags:unknown: exit 2, silent" test "$rc" = 2 -a ! -s "$WORK/out"

# the same letter means the same flag everywhere
want="-m --model|-t --task|-i --instance|-n --nodes|-r --region|-c --catalog|-o --output|-q --quiet|-v --verbose|-h --help|-V --version"
for c in main recommend estimate list show models update tf-external completion; do
  while read -r s l; do
    case "|$want|" in *"|$s $l|"*) ;; *) check "$c: $s $l is in the documented set" false ;; esac
  done < <("$E" __complete flags:$c | grep -E '^-[a-zA-Z]')
done
check "docs/cli.md documents every short letter" bash -c "for p in \$(echo '$want' | tr ' |' '=\n'); do grep -qF -- \"\\\`\${p%%=*}\\\`\" '$SRC_DIR/docs/cli.md' || exit 1; done"

same() { # name, then the two commands separated by ::
  local name=$1; shift
  local a=() b=()
  while [ "$1" != :: ]; do a+=("$1"); shift; done; shift
  b=("$@")
  "$E" "${a[@]}" > "$WORK/a" 2> "$WORK/ae"; local ra=$?
  "$E" "${b[@]}" > "$WORK/b" 2> "$WORK/be"; local rb=$?
  check "$name: short = long (exit $ra)" bash -c "test $ra = $rb && test $ra = 0 && cmp -s '$WORK/a' '$WORK/b' && cmp -s '$WORK/ae' '$WORK/be' && test -s '$WORK/a'"
}
same "recommend -m -t -r -c -o" recommend -m llama-3.1-8b -t infer --qps 5 -r us-west-2 -c embedded -o json \
  :: recommend --model llama-3.1-8b --task infer --qps 5 --region us-west-2 --catalog embedded --output json
same "estimate -m -t -i -n -r -c -o" estimate -m resnet50 -t train -i g6e.xlarge -n 2 -r eu-west-1 -c embedded -o json \
  :: estimate --model resnet50 --task train --instance g6e.xlarge --nodes 2 --region eu-west-1 --catalog embedded --output json
same "list -r -c -o" list --accelerator h100 -r us-west-2 -c embedded -o csv \
  :: list --accelerator h100 --region us-west-2 --catalog embedded --output csv
same "show -r -c -o" show p5.48xlarge -r us-east-1 -c embedded -o json \
  :: show p5.48xlarge --region us-east-1 --catalog embedded --output json
same "models -o" models -o json :: models --output json
echo '{"model": "resnet50", "task": "train"}' > "$WORK/b.jsonl"
same "recommend --batch -c -o" recommend --batch "$WORK/b.jsonl" -c embedded -o json \
  :: recommend --batch "$WORK/b.jsonl" --catalog embedded --output json
"$E" update -c "$WORK/nosuch.json" -q --dry-run > /dev/null 2> "$WORK/err"; rc=$?
check "update -c names --catalog's file (exit $rc)" grep -q "nosuch.json" "$WORK/err"
"$E" recommend -x > /dev/null 2> "$WORK/err"; rc=$?
check "recommend -x: exit 2, unknown flag" bash -c "test $rc = 2 && grep -q -- '-x' '$WORK/err'"

# every example in every --help runs
n=0
for c in recommend estimate list show models update; do
  "$E" $c --help | awk '/^Examples:$/ {on=1; next} on && /^  ec2fit / {print; next} {on=0}' > "$WORK/ex"
  while read -r line; do
    n=$((n + 1))
    # shellcheck disable=SC2086
    set -- ${line#  }
    shift
    "$E" "$@" > "$WORK/ex.out" 2> "$WORK/ex.err"; rc=$?
    check "example runs (exit $rc): $line" bash -c "test $rc = 0 -o $rc = 3 && test -s '$WORK/ex.out'"
  done < "$WORK/ex"
done
check "examples found in the help ($n)" test "$n" -ge 9
finish
