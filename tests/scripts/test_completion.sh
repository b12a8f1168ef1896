#!/usr/bin/env bash
# `ec2fit completion bash|zsh|fish`: every subcommand of `ec2fit --help`,
# every flag of every command's --help, every zoo model and every catalog
# type appear in each script; the bash one completes as a user would see it;
# each script parses in its shell (zsh and fish when installed).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
for sh in bash zsh fish; do
  "$EC2FIT" completion "$sh" > "$WORK/c.$sh"
  check "$sh: exit 0" test $? -eq 0
done
check "bash: syntax" bash -n "$WORK/c.bash"
if command -v zsh >/dev/null; then check "zsh: syntax" zsh -n "$WORK/c.zsh"; fi
if command -v fish >/dev/null; then check "fish: syntax" fish -n "$WORK/c.fish"; fi

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
for sh in bash zsh fish; do
  miss=0
  for m in $models; do grep -qw -- "$m" "$WORK/c.$sh" || miss=$((miss + 1)); done
  check "$sh: every model ($miss missing)" test "$miss" -eq 0
  words=$(tr ' \n' '\n\n' < "$WORK/c.$sh" | tr -d "'\";" | sort -u)
  miss=$(comm -23 <(echo "$types" | sort -u) <(echo "$words") | wc -l)
  check "$sh: every instance type ($miss missing)" test "$miss" -eq 0
done

# bash, as the shell calls it
complete_bash() { # words... ; prints COMPREPLY one per line
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _ec2fit; printf "%s\n" "${COMPREPLY[@]}"' _ "$WORK/c.bash" "$@"
}
export -f complete_bash; export WORK
check "bash: subcommand" bash -c '[ "$(complete_bash ec2fit reco)" = recommend ]'
check "bash: tf-external listed" bash -c 'complete_bash ec2fit "" | grep -qx tf-external'
check "bash: flag" bash -c 'complete_bash ec2fit recommend --mod | grep -qx -- --model'
check "bash: model names" bash -c 'complete_bash ec2fit recommend --model resnet | grep -qx resnet50'
check "bash: task names" bash -c '[ "$(complete_bash ec2fit estimate --task inf)" = infer ]'
check "bash: output formats" bash -c 'complete_bash ec2fit recommend --output kar | grep -qx karpenter'
check "bash: instance types for show" bash -c 'complete_bash ec2fit show p4d.24x | grep -qx p4d.24xlarge'
check "bash: --instance types" bash -c 'complete_bash ec2fit estimate --instance g6e.x | grep -qx g6e.xlarge'
check "bash: regions" bash -c 'complete_bash ec2fit list --region us-we | grep -qx us-west-2'
check "bash: shells" bash -c '[ "$(complete_bash ec2fit completion fi)" = fish ]'

"$EC2FIT" completion tcsh > /dev/null 2> "$WORK/err"
check "unknown shell: exit 2" test $? -eq 2
check "unknown shell: message" grep -q "unknown shell 'tcsh'" "$WORK/err"
"$EC2FIT" completion > /dev/null 2>&1
check "no shell: exit 2" test $? -eq 2

finish
