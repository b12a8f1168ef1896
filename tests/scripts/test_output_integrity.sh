#!/usr/bin/env bash
# Output integrity (docs/exit-codes.md, "Write errors"): a full disk and a
# closed pipe are reported, and --output-file never leaves a partial file.
set -euo pipefail
: "${EC2FIT:?}" "${WORK:?}"
rm -rf "$WORK" && mkdir -p "$WORK"
cd "$WORK"
fail() { echo "FAIL: $*"; exit 1; }

# /dev/full: ENOSPC at the final flush (or earlier) -> exit 1, one line.
if [ -w /dev/full ]; then
  set +e; "$EC2FIT" list >/dev/full 2>err; rc=$?; set -e
  [ "$rc" = 1 ] || fail "list > /dev/full: exit $rc"
  [ "$(cat err)" = "ec2fit: error writing output: No space left on device" ] ||
    fail "list > /dev/full: $(cat err)"
  set +e; "$EC2FIT" models --output json >/dev/full 2>/dev/null; rc=$?; set -e
  [ "$rc" = 1 ] || fail "models > /dev/full: exit $rc"
fi

# Closed pipe, default disposition: SIGPIPE ends the process silently,
# as for cat or grep (the shell reports 141 = 128 + SIGPIPE).
set +e
"$EC2FIT" list 2>err | head -c 10 >/dev/null
rc=${PIPESTATUS[0]}
set -e
[ "$rc" = 141 ] || fail "list | head: exit $rc (want 141, killed by SIGPIPE)"
[ ! -s err ] || fail "list | head: stderr: $(cat err)"

# Closed pipe with SIGPIPE ignored by the parent (Python's subprocess with
# restore_signals=False, some CI runners): EPIPE -> exit 1 and one line.
set +e
(trap '' PIPE; "$EC2FIT" list 2>err | head -c 10 >/dev/null; exit "${PIPESTATUS[0]}")
rc=$?
set -e
[ "$rc" = 1 ] || fail "list | head (SIGPIPE ignored): exit $rc"
[ "$(cat err)" = "ec2fit: error writing output: Broken pipe" ] ||
  fail "list | head (SIGPIPE ignored): $(cat err)"

# --output-file: complete file on success, same bytes as stdout.
"$EC2FIT" list --accelerator h100 --output json >want.json
"$EC2FIT" list --accelerator h100 --output json --output-file got.json >stdout.txt
cmp want.json got.json || fail "--output-file content differs"
[ ! -s stdout.txt ] || fail "--output-file also wrote stdout"
for cmd in "show p4d.24xlarge" "models" \
           "estimate --model resnet50 --task train --instance g5.xlarge" \
           "recommend --model resnet50 --task train --output json"; do
  rm -f out.txt
  # shellcheck disable=SC2086
  "$EC2FIT" $cmd --output-file out.txt
  [ -s out.txt ] || fail "$cmd --output-file: empty or missing"
done

# A failure after --output-file leaves the old file untouched and no
# temporary behind.
echo "old content" >keep.txt
set +e; "$EC2FIT" list --region us-east-7 --output-file keep.txt 2>/dev/null; rc=$?; set -e
[ "$rc" = 2 ] || fail "bad region: exit $rc"
[ "$(cat keep.txt)" = "old content" ] || fail "keep.txt was overwritten"
set +e; "$EC2FIT" list --catalog missing.json --output-file keep.txt 2>/dev/null; rc=$?; set -e
[ "$rc" = 1 ] || fail "missing catalog: exit $rc"
[ "$(cat keep.txt)" = "old content" ] || fail "keep.txt was overwritten"
# Exit 3 still renders its document, so the file is written.
set +e; "$EC2FIT" recommend --model llama-3.1-70b --task finetune --dataset 1B \
  --budget 1 --output json --output-file miss.json 2>/dev/null; rc=$?; set -e
[ "$rc" = 3 ] || fail "no-fit recommend: exit $rc"
jq -e '.summary' miss.json >/dev/null || fail "no-fit document not written"
# Unwritable directory, and a directory as the target.
set +e
"$EC2FIT" models --output-file no/such/dir.txt 2>err; rc=$?
set -e
[ "$rc" = 1 ] || fail "missing dir: exit $rc"
[ "$(cat err)" = "ec2fit: --output-file: no/such/dir.txt: No such file or directory" ] ||
  fail "missing dir: $(cat err)"
mkdir -p adir
set +e; "$EC2FIT" models --output-file adir 2>err; rc=$?; set -e
[ "$rc" = 1 ] || fail "directory target: exit $rc"
[ -d adir ] || fail "directory target replaced"
leftover=$(find . -name '.*.??????' | head -1)
[ -z "$leftover" ] || fail "temporary left behind: $leftover"
echo "output integrity: ok"
