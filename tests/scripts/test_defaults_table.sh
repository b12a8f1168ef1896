#!/usr/bin/env bash
# docs/estimation.md 3.1 lists every default a no-flag run assumes, with
# what --explain prints for it (issue 24: "the defaults must be what a
# current stack does", and the user must be able to see them). This test
# parses that table and checks each row's pattern (grep -E) against the
# two no-flag runs the section names; a pattern starting with "no " must
# be absent. The table must have rows for both paths.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK"
DOC="$SRC_DIR/docs/estimation.md"
S="$WORK/serving.txt" T="$WORK/training.txt" ROWS="$WORK/rows.tsv"
"$EC2FIT" estimate --model llama-3.1-8b --task infer --instance g6e.xlarge --explain > "$S"
"$EC2FIT" estimate --model llama-3.1-8b --task finetune --instance p5.48xlarge --explain > "$T"
# rows between the markers, header and rule skipped: path, setting, pattern
# (the backticked text of the fourth cell; "\|" never occurs in them)
awk '/<!-- defaults-table:begin -->/{on=1; next} /<!-- defaults-table:end -->/{on=0} on && /^\| (serving|training) \|/' "$DOC" |
  awk -F' \\| ' '{p=$4; sub(/^`/, "", p); sub(/`$/, "", p); sub(/^\| /, "", $1); print $1 "\t" $2 "\t" p}' > "$ROWS"
check "the table has serving rows" test "$(grep -c '^serving' "$ROWS")" -ge 6
check "the table has training rows" test "$(grep -c '^training' "$ROWS")" -ge 6
while IFS=$'\t' read -r path setting pat; do
  out=$S; [ "$path" = training ] && out=$T
  case $pat in
    "no "*) check "$path $setting: no line /${pat#no }/" bash -c '! grep -Eq -- "$1" "$2"' _ "${pat#no }" "$out" ;;
    *) check "$path $setting: /$pat/" grep -Eq -- "$pat" "$out" ;;
  esac
done < "$ROWS"
finish
