#!/usr/bin/env bash
# Habits users bring (issue 28, point 8): a mistyped long flag gets the
# closest flag of that command by edit distance, on every command; the
# amazon-ec2-instance-selector spellings `list` takes where the meaning is
# the same (--gpus*, --cpu-architecture, --efa-support, --allow-list,
# --deny-list, --sort-by, --sort-direction; docs/coming-from.md), checked
# against data/catalog.json with jq; config.json's "output" takes every
# format --output does (ecs, cloudwatch: docs/config.md).
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK" "$XDG_CONFIG_HOME/ec2fit"
CAT="$SRC_DIR/data/catalog.json"
ERR="$WORK/err"
# run: stdout to $WORK/out, stderr to $ERR, exit status in $rc
run() { "$EC2FIT" "$@" > "$WORK/out" 2> "$ERR"; rc=$?; }
# usage CASE WANT ARGS...: exit 2, nothing on stdout, exactly WANT on stderr
usage() {
  local what=$1 want=$2; shift 2
  run "$@"
  check "$what: exit 2 (got $rc)" test "$rc" = 2
  check "$what: nothing on stdout" test ! -s "$WORK/out"
  check "$what: message (got '$(cat "$ERR")')" test "$(cat "$ERR")" = "$want"
}

# ---- unknown flags: a suggestion on every command ----
usage "list --regoin" "ec2fit: list: --regoin: unknown flag (did you mean --region?)" list --regoin us-east-1
usage "list --regoin=X" "ec2fit: list: --regoin: unknown flag (did you mean --region?)" list --regoin=us-east-1
usage "recommend --modle" "ec2fit: recommend: --modle: unknown flag (did you mean --model?)" recommend --modle resnet50 --task train
usage "recommend --tsak" "ec2fit: recommend: --tsak: unknown flag (did you mean --task?)" recommend --model resnet50 --tsak train
usage "estimate --modle" "ec2fit: estimate: --modle: unknown flag (did you mean --model?)" estimate --modle resnet50
usage "show --regoin" "ec2fit: show: --regoin: unknown flag (did you mean --region?)" show p5.48xlarge --regoin us-east-1
usage "models --outptu" "ec2fit: models: --outptu: unknown flag (did you mean --output?)" models --outptu json
usage "update --dry-runn" "ec2fit: update: --dry-runn: unknown flag (did you mean --dry-run?)" update --dry-runn
usage "recommend --batch --regoin" "ec2fit: recommend: --regoin: unknown flag (did you mean --region?)" recommend --batch /dev/null --regoin us-east-1
usage "global --verison" "ec2fit: --verison: unknown flag (did you mean --version?)" --verison
usage "nothing close: --help hint" "ec2fit: list: --zzzzzzzz: unknown flag (see 'ec2fit list --help')" list --zzzzzzzz
usage "short flag: --help hint" "ec2fit: list: -x: unknown flag (see 'ec2fit list --help')" list -x
usage "ambiguous abbreviation" "ec2fit: list: --gpus-m: ambiguous flag (could be --gpus-min, --gpus-max)" list --gpus-m 2
usage "ambiguous, three or more" "ec2fit: list: --max-a: ambiguous flag (could be --max-accelerators, --max-accel-memory)" list --max-a 2
usage "missing value unchanged" "ec2fit: list: --region: missing value" list --region

# every long flag of every command, its last two letters swapped: the
# message names that flag (or, when another is as close, some flag)
total=0 named=0 hinted=0
for c in list show models estimate recommend update; do
  for fl in $("$EC2FIT" "$c" --help | grep -oE -- '--[a-z][a-z0-9-]{3,}' | sort -u); do
    n=${#fl}; a=${fl:n-2:1}; b=${fl:n-1:1}
    [ "$a" = "$b" ] && continue
    typo="${fl:0:n-2}$b$a"
    "$EC2FIT" "$c" "$typo" x > /dev/null 2> "$ERR" < /dev/null
    total=$((total + 1))
    grep -qF "(did you mean $fl?)" "$ERR" && named=$((named + 1))
    grep -qE "\\(did you mean --[a-z0-9-]+\\?\\)" "$ERR" && hinted=$((hinted + 1))
  done
done
echo "swapped-letter typos: $total; the flag named: $named; some flag suggested: $hinted"
check "at least 150 typos tried (got $total)" test "$total" -ge 150
check "every swapped-letter typo gets a suggestion ($hinted of $total)" test "$hinted" = "$total"
check "at least 95% name the intended flag ($named of $total)" test $((named * 100)) -ge $((total * 95))

# ---- amazon-ec2-instance-selector spellings on list ----
count() { "$EC2FIT" list "$@" -o json 2> "$ERR" | jq '.count'; }
types() { "$EC2FIT" list "$@" -o json 2> "$ERR" | jq -c '[.instances[].instance_type]'; }
cat_count() { jq "(.accelerators | map({key: .id, value: .kind}) | from_entries) as \$k | [.instances[] | $1] | length" "$CAT"; }
g8=$(cat_count 'select(.accelerator != null and $k[.accelerator.id] == "gpu" and .accelerator.count == 8)')
check "--gpus 8 = catalog types with 8 GPUs ($g8)" test "$(count --gpus 8)" = "$g8"
check "... at least 10 such types" test "$g8" -ge 10
check "--gpus 8 = --accelerators 8 --accelerator gpu" test "$(types --gpus 8)" = "$(types --accelerators 8 --accelerator gpu)"
g48=$(cat_count 'select(.accelerator != null and $k[.accelerator.id] == "gpu" and .accelerator.count >= 4 and .accelerator.count <= 8)')
check "--gpus-min 4 --gpus-max 8 ($g48)" test "$(count --gpus-min 4 --gpus-max 8)" = "$g48"
check "--gpus 4-8 = --gpus-min 4 --gpus-max 8" test "$(types --gpus 4-8)" = "$(types --gpus-min 4 --gpus-max 8)"
check "--gpus 1 has no Neuron type" bash -c "'$EC2FIT' list --gpus 1 -o json | jq -e '[.instances[].instance_type | select(startswith(\"inf\") or startswith(\"trn\"))] | length == 0'"
usage "--gpus 0" "ec2fit: list: --gpus: a GPU count range from 0 is not supported (it would take CPU-only and Neuron types too): use --accelerators RANGE (0 = CPU only), or add --gpus-min 1" list --gpus 0
usage "--gpus-max alone" "ec2fit: list: --gpus-max: a GPU count range from 0 is not supported (it would take CPU-only and Neuron types too): use --accelerators RANGE (0 = CPU only), or add --gpus-min 1" list --gpus-max 4
usage "--gpus two" "ec2fit: list: --gpus: expected a whole number or a range like 8, 8-32, 8- or -32, got 'two'" list --gpus two
arm=$(cat_count 'select(.arch == "arm64")')
check "--cpu-architecture arm64 = catalog arm64 types ($arm)" test "$(count --cpu-architecture arm64)" = "$arm"
check "--cpu-architecture amd64 = --arch x86_64" test "$(types --cpu-architecture amd64)" = "$(types --arch x86_64)"
usage "--cpu-architecture i386" "ec2fit: list: --cpu-architecture: expected x86_64 or arm64, got 'i386'" list --cpu-architecture i386
efa=$(cat_count 'select((.efa_interfaces // 0) > 0)')
check "--efa-support = --efa" test "$(types --efa-support)" = "$(types --efa)"
check "--efa-support: catalog types with EFA ($efa)" test "$(count --efa-support)" = "$efa"
p5=$(cat_count 'select(.type | test("^p5"))')
check "--allow-list '^p5' ($p5)" test "$(count --allow-list '^p5')" = "$p5"
pg=$(cat_count 'select(.type | test("p5|g6e"))')
check "--allow-list 'p5|g6e' (unanchored, $pg)" test "$(count --allow-list 'p5|g6e')" = "$pg"
nd=$(cat_count 'select(.type | test("^(t|m)[0-9]") | not)')
check "--deny-list '^(t|m)[0-9]' ($nd)" test "$(count --deny-list '^(t|m)[0-9]')" = "$nd"
ad=$(cat_count 'select((.type | test("^g6")) and (.type | test("xlarge$") | not))')
check "--allow-list '^g6' --deny-list 'xlarge\$' ($ad)" test "$(count --allow-list '^g6' --deny-list 'xlarge$')" = "$ad"
check "--allow-list with --region all" test "$(count --allow-list '^p5\.48xlarge$' --region all)" = \
  "$(jq '.instances[] | select(.type == "p5.48xlarge") | .prices | length' "$CAT")"
run list --allow-list 'p5('
check "--allow-list bad regex: exit 2" test "$rc" = 2
check "--allow-list bad regex names the flag" grep -q "^ec2fit: list: --allow-list: invalid regular expression 'p5(': " "$ERR"
usage "--deny-list RE2 \\d" "ec2fit: list: --deny-list: 'm\\d': RE2-only syntax (\\d, (?...), lazy quantifiers) is not supported; use POSIX extended syntax such as [0-9]" list --deny-list 'm\d'
mem() { "$EC2FIT" list --family c7i "$@" -o json | jq -c '[.instances[].memory_gib]'; }
check "--sort-by memory: ascending (instance-selector's default)" test "$(mem --sort-by memory)" = "$(mem --sort-by memory | jq -c sort)"
check "--sort-by memory --sort-direction descending" test "$(mem --sort-by memory --sort-direction descending)" = "$(mem --sort-by memory | jq -c 'sort | reverse')"
check "--sort-by .MemoryInfo.SizeInMiB = --sort-by memory" test "$(types --family c7i --sort-by .MemoryInfo.SizeInMiB)" = "$(types --family c7i --sort-by memory)"
check "--sort-by .InstanceType = --sort name --order asc" test "$(types --family g6e --sort-by .InstanceType)" = "$(types --family g6e --sort name --order asc)"
check "--sort-by gpus = --sort accelerators --order asc" test "$(types --gpus 1- --sort-by gpus)" = "$(types --gpus 1- --sort accelerators --order asc)"
check "--sort-by price-per-hour = --sort price" test "$(types --family p5 --sort-by price-per-hour)" = "$(types --family p5 --sort price --order asc)"
check "--sort-by savings (an ec2fit key) ascending" test "$(types --sort-by savings)" = "$(types --sort savings --order asc)"
run list --sort-by gpu-memory-total
check "--sort-by gpu-memory-total (no same-meaning key): exit 2" test "$rc" = 2
check "... names --sort-by and the keys" grep -q "^ec2fit: list: --sort-by: expected instance-type, vcpus, memory, gpus, price-per-hour or .*, got 'gpu-memory-total'$" "$ERR"
usage "--sort-direction up" "ec2fit: list: --sort-direction: expected asc or desc, got 'up'" list --sort-direction up
check "--order ascending" test "$(types --family p5 --order ascending)" = "$(types --family p5 --order asc)"
help=$("$EC2FIT" list --help)
for fl in --gpus --gpus-min --gpus-max --cpu-architecture --efa-support --allow-list --deny-list --sort-by --sort-direction; do
  check "list --help names $fl" grep -qE -- "$fl([^a-z-]|$)" <<< "$help"
done

# ---- config.json "output": every format --output takes ----
CONF="$XDG_CONFIG_HOME/ec2fit/config.json"
INFER=(recommend --model llama-3.1-8b --task infer --qps 5 --top 1)
for fmt in ecs cloudwatch; do
  rm -f "$CONF"
  "$EC2FIT" "${INFER[@]}" -o "$fmt" > "$WORK/want.$fmt" 2>/dev/null
  echo "{\"output\": \"$fmt\"}" > "$CONF"
  run "${INFER[@]}"
  check "config output=$fmt: exit 0 (got $rc: $(head -1 "$ERR"))" test "$rc" = 0
  check "config output=$fmt: the bytes of -o $fmt" cmp -s "$WORK/out" "$WORK/want.$fmt"
  check "config output=$fmt: JSON" jq -e . "$WORK/out"
  run recommend --model resnet50 --task train --top 1
  check "config output=$fmt, --task train: exit 0 (table)" test "$rc" = 0
  rm -f "$CONF"
  "$EC2FIT" recommend --model resnet50 --task train --top 1 > "$WORK/table" 2>/dev/null
  check "config output=$fmt, --task train: the table" cmp -s "$WORK/out" "$WORK/table"
  echo "{\"output\": \"$fmt\"}" > "$CONF"
  run list --family p5
  check "config output=$fmt: list keeps its table" bash -c "head -1 '$WORK/out' | grep -q '^TYPE'"
  usage "config output=$fmt, -o $fmt with --task train" "ec2fit: recommend: --output $fmt: only for --task infer (it deploys and watches a serving fleet)" recommend --model resnet50 --task train -o "$fmt"
done
rm -f "$CONF"
finish
