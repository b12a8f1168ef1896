#!/usr/bin/env bash
# test_file_safety.sh - the file rules of docs/security.md ("Files"):
# inputs must be regular files (a FIFO never hangs a command),
# --output-file follows symlinks, writes FIFOs and devices in place, keeps
# an existing file when there is no plan (exit 3) and leaves no temporary
# after SIGINT/SIGTERM; write errors are exit 1 with the real errno;
# update's lock refuses a symlink, stale temporaries are swept, and a
# failed update (unknown region, missing profile, bad credentials file)
# leaves the cache byte for byte as it was.
set -u
. "$(dirname "$0")/checks.sh"
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
export XDG_CONFIG_HOME=$WORK/xdg XDG_CACHE_HOME=$WORK/cache HOME=$WORK/home
unset AWS_REGION AWS_DEFAULT_REGION AWS_PROFILE AWS_ACCESS_KEY_ID \
      AWS_SECRET_ACCESS_KEY AWS_SESSION_TOKEN AWS_SHARED_CREDENTIALS_FILE \
      AWS_CONFIG_FILE
# no instance metadata service: the chain would try 169.254.169.254
export AWS_EC2_METADATA_DISABLED=true
mkdir -p "$HOME"
E=$EC2FIT
NOPLAN=(recommend --model llama-3.1-70b --task finetune --dataset 1B --budget 1 --output json)
# run EXPECTED-RC EXPECTED-STDERR CMD...: exact exit status and stderr,
# within 10 s (a hang is a failure, not a stuck test).
run() {
  local want_rc=$1 want_err=$2 rc; shift 2
  timeout 10 "$@" >out 2>err; rc=$?
  [ "$rc" = "$want_rc" ] && [ "$(cat err)" = "$want_err" ] && return 0
  echo "  want $want_rc '$want_err'"; echo "  got  $rc '$(cat err)'"; return 1
}

# ---- inputs: a FIFO with no writer is refused at once ----
mkfifo fifo
check "--catalog FIFO" run 1 "ec2fit: fifo: not a regular file (a FIFO)" "$E" list --catalog fifo
check "--batch FIFO" run 1 "ec2fit: --batch: fifo: not a regular file (a FIFO)" "$E" recommend --batch fifo
check "--model-config FIFO" run 1 "ec2fit: --model-config: fifo: not a regular file (a FIFO)" \
  "$E" recommend --model-config fifo --task infer
check "--rules FIFO" run 1 "ec2fit: --rules: fifo: not a regular file (a FIFO)" \
  "$E" recommend --model resnet50 --task train --rules fifo
check "credentials FIFO" run 1 "ec2fit: update: credentials: fifo: not a regular file (a FIFO)" \
  env AWS_SHARED_CREDENTIALS_FILE=fifo "$E" update --dry-run --spot-advisor-url http://127.0.0.1:9/x
mkdir -p xdg/ec2fit && mkfifo xdg/ec2fit/config.json
check "config.json FIFO" run 1 "ec2fit: $WORK/xdg/ec2fit/config.json: not a regular file (a FIFO)" "$E" list
rm xdg/ec2fit/config.json
check "--batch - still reads stdin" bash -c \
  "echo '{\"model\":\"resnet50\",\"task\":\"train\"}' | '$E' recommend --batch - --output json | jq -e '.line == 1' >/dev/null"

# ---- config.json: the loaders' strict parse, errors name the file ----
C=$WORK/xdg/ec2fit/config.json
echo '{"region": "us-east-1", "region": "eu-west-1"}' >"$C"
check "config: duplicate key" run 1 "ec2fit: $C: duplicate key \"region\"" "$E" list
echo '{"region": "us-east-1"} {}' >"$C"
check "config: trailing data" run 1 "ec2fit: $C: unexpected data after the JSON value at byte offset 24" "$E" list
echo '{"region": "us-east-7"}' >"$C"
check "config: unknown region names the file" run 2 \
  "ec2fit: recommend: $C: \"region\": unknown region 'us-east-7' (did you mean us-east-1?)" \
  "$E" recommend --model resnet50 --task train
check "--region overrides a bad config region" run 0 "" "$E" list --region us-east-1
rm -f "$C"

# ---- --output-file ----
"$E" models --output json >want.json
# a FIFO is written in place (no rename over it)
rm -f got.json; cat fifo >got.json & reader=$!
check "FIFO target: exit 0" run 0 "" "$E" models --output json --output-file fifo
wait "$reader"
check "FIFO target: still a FIFO" test -p fifo
check "FIFO target: reader got the document" cmp want.json got.json
check "/dev/null target: exit 0" run 0 "" "$E" models --output-file /dev/null
check "/dev/null still a device" test -c /dev/null
# a symlink is followed; the link stays a link
echo old >real.json; ln -s real.json link.json
check "symlink target: exit 0" run 0 "" "$E" models --output json --output-file link.json
check "symlink kept" test -L link.json
check "symlink: target replaced" cmp want.json real.json
ln -s sub/new.json dangling.json; mkdir sub
check "dangling symlink: exit 0" run 0 "" "$E" models --output json --output-file dangling.json
check "dangling symlink: target created" cmp want.json sub/new.json
chmod 600 real.json
check "mode of a replaced file kept" bash -c \
  "'$E' models --output-file link.json && [ \$(stat -c %a real.json) = 600 ]"
# no plan: an existing file is left as it was; a new file gets the document
printf 'plan = "last good"\n' >plan.tfvars; cp plan.tfvars plan.before
check "exit 3, existing file: exit 3 and a note" run 3 \
  "$(printf '%s\n%s' "ec2fit: recommend: no instance type satisfies the constraints; closest: p5en.48xlarge (budget): costs \$661.55 on 2 node(s), budget \$1.00" \
     "ec2fit: --output-file: plan.tfvars left unchanged (no plan)")" \
  "$E" "${NOPLAN[@]}" --output-file plan.tfvars
check "exit 3, existing file: byte-identical" cmp plan.tfvars plan.before
check "exit 3, karpenter: existing file kept" bash -c \
  "'$E' recommend --model llama-3.1-70b --task finetune --dataset 1B --budget 1 --output karpenter --output-file plan.tfvars 2>/dev/null; [ \$? = 3 ] && cmp plan.tfvars plan.before"
rm -f new.json
"$E" "${NOPLAN[@]}" --output-file new.json 2>/dev/null
check "exit 3, new file: document written" jq -e '.recommendations == [] and (.closest_misses | length > 0)' new.json
# write errors: exit 1 even when the result was 3, with the real errno
if [ -w /dev/full ]; then
  check "exit-3 result to /dev/full: exit 1" bash -c \
    "'$E' ${NOPLAN[*]} >/dev/full 2>err; [ \$? = 1 ] && tail -1 err | grep -qx 'ec2fit: error writing output: No space left on device'"
  for i in $(seq 2000); do echo '{"model":"resnet50","task":"train"}'; done >batch.jsonl
  check "--batch to /dev/full: ENOSPC, exit 1" run 1 \
    "ec2fit: error writing output: No space left on device" \
    bash -c "'$E' recommend --batch batch.jsonl >/dev/full"
fi
check "--batch to a closed stdout: EBADF, exit 1" run 1 \
  "ec2fit: error writing output: Bad file descriptor" \
  bash -c "'$E' recommend --batch batch.jsonl >&-"
# SIGINT / SIGTERM while --output-file is pending remove the temporary
for sig in INT TERM; do
  echo keep >sig.json
  (sleep 30 | "$E" recommend --batch - --output-file sig.json) 2>/dev/null &
  for _ in $(seq 50); do ls -A | grep -q '^\.sig\.json\.' && break; sleep 0.1; done
  check "SIG$sig: temporary exists while running" bash -c "ls -A | grep -q '^\.sig\.json\.'"
  pkill -"$sig" -P $! -x ec2fit
  for _ in $(seq 50); do ls -A | grep -q '^\.sig\.json\.' || break; sleep 0.1; done
  check "SIG$sig: temporary removed" bash -c "! ls -A | grep -q '^\.sig\.json\.'"
  check "SIG$sig: target untouched" grep -qx keep sig.json
  pkill -P $! sleep 2>/dev/null; wait $! 2>/dev/null
done

# ---- update: lock, stale temporaries, errors leave the cache as it was ----
D=$XDG_CACHE_HOME/ec2fit
mkdir -p "$D"
printf '{"fake": "cache"}\n' >"$D/catalog.json"; printf '{"fake": "meta"}\n' >"$D/catalog.json.meta"
snapshot() { cat "$D/catalog.json" "$D/catalog.json.meta" | sha256sum; }
before=$(snapshot)
U=(update --catalog "$SRC_DIR/tests/bad/catalog_ok.json" --spot-advisor-url http://127.0.0.1:9/x)
ln -s "$WORK/elsewhere" "$D/update.lock"
check "symlinked lock: exit 1" run 1 \
  "ec2fit: update: $D/update.lock: is a symbolic link (refusing to follow it)" "$E" "${U[@]}"
check "symlinked lock: nothing created at its target" test ! -e "$WORK/elsewhere"
rm "$D/update.lock"
touch -d '2 hours ago' "$D/.catalog.json.AbC123" "$D/.catalog.json.meta.XyZ789"
touch "$D/.catalog.json.new456"
ln -s "$WORK/real.json" "$D/.catalog.json.lnk999"; touch -h -d '2 hours ago' "$D/.catalog.json.lnk999"
"$E" "${U[@]}" >/dev/null 2>err
check "sweep: reported" grep -qx "ec2fit: update: removed 2 stale temporary files from $D" err
check "sweep: old temporaries removed" test ! -e "$D/.catalog.json.AbC123" -a ! -e "$D/.catalog.json.meta.XyZ789"
check "sweep: a fresh temporary is kept" test -e "$D/.catalog.json.new456"
check "sweep: a symlink is not touched" test -L "$D/.catalog.json.lnk999"
check "lock created 0600" bash -c "[ \$(stat -c %a '$D/update.lock') = 600 ]"
check "unknown region: exit 2" run 2 \
  "ec2fit: update: --regions: unknown region 'us-east-7' (did you mean us-east-1?)" \
  "$E" "${U[@]}" --regions us-east-7
mkdir -p "$HOME/.aws"
printf '[default]\naws_access_key_id = AKIDEXAMPLE\naws_secret_access_key = wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY\n' >"$HOME/.aws/credentials"
check "AWS_PROFILE=nosuch: exit 1" run 1 \
  "ec2fit: update: credentials: AWS_PROFILE: the profile 'nosuch' could not be found in $HOME/.aws/credentials or $HOME/.aws/config" \
  env AWS_PROFILE=nosuch "$E" "${U[@]}"
printf '[default]\naws_access_key_id = AKIDEXAMPLE\nnot an assignment\n' >"$HOME/.aws/credentials"
check "credentials parse error names file:line" run 1 \
  "ec2fit: update: credentials: $HOME/.aws/credentials:3: expected [section], key = value or a comment" \
  "$E" "${U[@]}"
# no HOME and no AWS_SHARED_CREDENTIALS_FILE: no file credentials, and
# ./.aws in the current directory is not read
mkdir -p .aws && printf '[default]\naws_access_key_id = AKCWD\naws_secret_access_key = S\n' >.aws/credentials
env -u HOME "$E" "${U[@]}" >/dev/null 2>err
check "no HOME: ./.aws not read" grep -qx "ec2fit: warning: update: skipped on-demand prices (Pricing API): no AWS credentials: AWS_ACCESS_KEY_ID is not set and HOME is not set (no ~/.aws files)" err
check "failed updates: cache byte-identical" test "$(snapshot)" = "$before"

finish
