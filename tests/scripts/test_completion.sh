#!/usr/bin/env bash
# `ec2fit completion bash|zsh|fish`: every subcommand of `ec2fit --help`,
# every flag of every command's --help, every zoo model and every catalog
# type appear in each script; the bash one completes as a user would see it;
# each script parses in its shell (zsh, fish and Debian's bash-completion:
# the README installs them; a missing one is reported as skipped).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
for sh in bash zsh fish; do
  "$EC2FIT" completion "$sh" > "$WORK/c.$sh"
  check "$sh: exit 0" test $? -eq 0
done
check "bash: syntax" bash -n "$WORK/c.bash"
skip=0
for sh in zsh fish; do
  if command -v "$sh" >/dev/null; then check "$sh: syntax" "$sh" -n "$WORK/c.$sh"
  else echo "SKIP: $sh not installed (apt-get install $sh): syntax not checked"; skip=$((skip + 1)); fi
done

cmds=$("$EC2FIT" --help | awk '/^Commands:/ {on=1; next} on && /^  [a-z]/ {print $1} on && /^$/ {on=0}')
check "commands listed in --help" test -n "$cmds"
missing=""
for c in $cmds; do
  flags=$("$EC2FIT" "$c" --help | grep -oE -- '(^|[^a-z0-9-])--[a-z0-9][a-z0-9-]*' | grep -oE -- '--[a-z0-9-]+' | sort -u)
  for sh in bash zsh fish; do
    grep -qw -- "$c" "$WORK/c.$sh" || missing="$missing $sh:$c"
    for f in $flags; do
      if [ "$sh" = fish ]; then
        grep -q -- "__fish_seen_subcommand_from $c' -l ${f#--}\\b" "$WORK/c.fish" || missing="$missing fish:$c:$f"
      else
        grep -q -- "$f\\b" "$WORK/c.$sh" || missing="$missing $sh:$c:$f"
      fi
    done
  done
done
check "every command and every --help flag in every script:$missing" test -z "$missing"

models=$("$EC2FIT" models --output json | jq -r '.models[].name')
types=$("$EC2FIT" list --output json --catalog embedded | jq -r '.instances[].instance_type')
check "zoo and catalog read" test -n "$models" -a -n "$types"
# catalog and zoo values are asked of the program at completion time
check "__complete models = the zoo" test "$("$EC2FIT" __complete models)" = "$models"
check "__complete types = the catalog" test "$("$EC2FIT" __complete types | sort)" = "$(echo "$types" | sort)"
check "__complete regions = the catalog's regions (no zone groups)" test "$("$EC2FIT" __complete regions)" = "$(jq -r '[.instances[].prices | keys[]] | unique[] | select(test("^[a-z]{2}(-[a-z]+)+-[0-9]+$"))' "$SRC_DIR/data/catalog.json")"
check "__complete regions: us-west-2, not us-west-2-lax-1" test "$("$EC2FIT" __complete regions us-west-2)" = "us-west-2"
check "__complete accelerators = ids + kinds" test "$("$EC2FIT" __complete accelerators)" = "$(jq -r '.accelerators | if type == "array" then .[].id else keys[] end' "$SRC_DIR/data/catalog.json"; printf 'gpu\nneuron\nother')"
check "__complete with a prefix" test "$("$EC2FIT" __complete types p4d)" = "$(printf 'p4d.24xlarge\np4de.24xlarge')"
"$EC2FIT" __complete nonsense > "$WORK/out" 2>&1; rc=$?
check "__complete unknown kind: exit 2, silent" test "$rc" = 2 -a ! -s "$WORK/out"
check "__complete is hidden from --help" bash -c "! '$EC2FIT' --help | grep -q __complete"
for sh in bash zsh fish; do
  check "$sh: no catalog baked into the script" test "$(grep -c 'p4d.24xlarge' "$WORK/c.$sh")" = 0
done

# bash, as the shell calls it, with Debian's bash-completion loaded
BC=/usr/share/bash-completion/bash_completion
[ -r "$BC" ] || { echo "SKIP: bash-completion not installed (apt-get install bash-completion): sourcing the script alone"; BC=/dev/null; skip=$((skip + 1)); }
complete_bash() { # words... ; prints COMPREPLY one per line (word 0 is the binary)
  bash -c 'source "$1"; source "$2"; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _ec2fit; printf "%s\n" "${COMPREPLY[@]}"' _ "$BC" "$WORK/c.bash" "$@" 2>/dev/null
}
export -f complete_bash; export WORK BC
X=$EC2FIT
check "bash-completion: the script registers _ec2fit" bash -c "source '$BC'; source '$WORK/c.bash'; complete -p ec2fit | grep -q -- '-F _ec2fit'"
check "bash: subcommand" test "$(complete_bash "$X" reco)" = recommend
check "bash: tf-external listed" bash -c 'complete_bash "$0" "" | grep -qx tf-external' "$X"
check "bash: help COMMAND" test "$(complete_bash "$X" help li)" = list
check "bash: flag" bash -c 'complete_bash "$0" recommend --mod | grep -qx -- --model' "$X"
check "bash: model names" bash -c 'complete_bash "$0" recommend --model resnet | grep -qx resnet50' "$X"
check "bash: task names" test "$(complete_bash "$X" estimate --task inf)" = infer
check "bash: instance types for show" test "$(complete_bash "$X" show p4d.24x)" = p4d.24xlarge
check "bash: --instance types" test "$(complete_bash "$X" estimate --instance g6e.x)" = g6e.xlarge
check "bash: -i types" test "$(complete_bash "$X" estimate --model resnet50 -i p5.4x)" = p5.4xlarge
# the short flags (docs/cli.md) complete like their long spellings
check "bash: -m model names" bash -c 'complete_bash "$0" recommend -m resnet | grep -qx resnet50' "$X"
check "bash: -t task names" test "$(complete_bash "$X" estimate -m resnet50 -t inf)" = infer
check "bash: -r regions" test "$(complete_bash "$X" recommend -r us-west-2)" = us-west-2
check "fish: -s m on recommend --model" grep -q -- "__fish_seen_subcommand_from recommend' -l model -s m " "$WORK/c.fish"
check "fish: no -s r on update (--regions has no letter)" bash -c "! grep -q -- \"from update' -l regions -s\" '$WORK/c.fish'"
check "bash: accelerators after list --accelerator" test "$(complete_bash "$X" list --accelerator a10 | sort | tr '\n' ' ')" = "a100-40gb a100-80gb a10g "
# fixed-value workload flags complete to exactly the words their parser
# accepts (read from its "expected a, b or c" error)
for f in master-weights cross-entropy data-loader conv-kernels attention; do
  want=$("$X" estimate --model resnet50 --task train --$f bogus 2>&1 >/dev/null | sed -E 's/.*expected (.*), got.*/\1/; s/,| or / /g' | tr -s ' ' '\n' | sort | tr '\n' ' ')
  got=$(complete_bash "$X" estimate --$f "" | sort | tr '\n' ' ')
  check "bash: --$f values = the parser's ($want)" test -n "$want" -a "$got" = "$want"
done
check "bash: regions" bash -c 'complete_bash "$0" list --region us-we | grep -qx us-west-2' "$X"
check "bash: list --region offers all" bash -c 'complete_bash "$0" list --region a | grep -qx all' "$X"
check "bash: families" bash -c 'complete_bash "$0" list --family g6 | grep -qx g6e' "$X"
check "bash: sort keys" test "$(complete_bash "$X" list --sort int)" = interruption
check "bash: shells" test "$(complete_bash "$X" completion fi)" = fish
# only the formats each command takes; every one offered is accepted, the others refused
check "bash: show -o: table json" test "$(complete_bash "$X" show g5.xlarge -o "" | tr '\n' ' ')" = "table json "
check "bash: list --output: table json csv" test "$(complete_bash "$X" list --output "" | tr '\n' ' ')" = "table json csv "
check "bash: models -o: table json" test "$(complete_bash "$X" models -o "" | tr '\n' ' ')" = "table json "
check "bash: estimate -o: table json" test "$(complete_bash "$X" estimate -o "" | tr '\n' ' ')" = "table json "
check "bash: recommend --output kar" test "$(complete_bash "$X" recommend --output kar)" = karpenter
check "bash: recommend formats: 9 (with ecs, cloudwatch)" test "$(complete_bash "$X" recommend -o "" | wc -l)" = 9
declare -A run=([list]="list --family p5" [show]="show g5.xlarge" [models]="models"
  [estimate]="estimate --model resnet50 --task train --instance g5.xlarge"
  [recommend]="recommend --model resnet50 --task train")
for c in "${!run[@]}"; do
  for fmt in table json csv markdown tfvars karpenter html; do
    "$EC2FIT" ${run[$c]} -o "$fmt" > /dev/null 2>&1; rc=$?
    if complete_bash "$X" "$c" -o "" | grep -qx "$fmt"; then
      check "$c -o $fmt is offered and accepted (exit $rc)" test "$rc" = 0
    else
      check "$c -o $fmt is not offered and refused (exit $rc)" test "$rc" = 2
    fi
  done
done
# file names for the file flags
touch "$WORK/plan-out.json"
check "bash: --output-file completes file names" test "$(complete_bash "$X" recommend --output-file "$WORK/plan-o")" = "$WORK/plan-out.json"
check "bash: --catalog completes file names" test "$(complete_bash "$X" list --catalog "$WORK/plan-o")" = "$WORK/plan-out.json"
# the catalog in use at completion time: a renamed type appears without regenerating the script
jq '.instances |= map(if .type == "p4d.24xlarge" then .type = "p9z.48xlarge" | .family = "p9z" else . end)' \
  "$SRC_DIR/data/catalog.json" > "$WORK/renamed.json"
check "bash: EC2FIT_CATALOG's types are completed" test "$(EC2FIT_CATALOG="$WORK/renamed.json" complete_bash "$X" show p9z)" = p9z.48xlarge
check "bash: ... and the old name is gone" test -z "$(EC2FIT_CATALOG="$WORK/renamed.json" complete_bash "$X" show p4d.24)"

"$EC2FIT" completion tcsh > /dev/null 2> "$WORK/err"
check "unknown shell: exit 2" test $? -eq 2
check "unknown shell: message" grep -q "unknown shell 'tcsh'" "$WORK/err"
"$EC2FIT" completion > /dev/null 2>&1
check "no shell: exit 2" test $? -eq 2

finish
