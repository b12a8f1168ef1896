#!/usr/bin/env bash
# bench/callgrind.sh - instruction count (callgrind "Ir") of the main job,
# `ec2fit recommend --model resnet50 --task train`: a figure that does not
# move with machine load, so a regression shows even on a noisy machine.
#
#   bench/callgrind.sh [path/to/ec2fit] [extra recommend args...]
#   needs valgrind (apt-get install -y valgrind)
# Prints "Ir <total>" and, with VERBOSE=1, the inclusive profile's top.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
EC2FIT=$(realpath "${1:-$here/../build/ec2fit}")
shift || true
args=("$@")
[ ${#args[@]} -gt 0 ] || args=(--model resnet50 --task train)
out=$(mktemp)
trap 'rm -f "$out" "$out.log"' EXIT
export EC2FIT_CATALOG= XDG_CACHE_HOME=$out.nocache XDG_CONFIG_HOME=$out.noconfig NO_COLOR=1
unset AWS_REGION AWS_DEFAULT_REGION
valgrind --tool=callgrind --callgrind-out-file="$out" "$EC2FIT" recommend "${args[@]}" \
  >/dev/null 2>"$out.log"
ir=$(awk '/^summary:/ {print $2}' "$out")
echo "Ir $ir"
if [ "${VERBOSE:-0}" = 1 ]; then
  callgrind_annotate --inclusive=yes "$out" | sed -n '1,60p'
fi
