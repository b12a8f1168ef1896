#!/usr/bin/env bash
# The customer reports (Markdown, HTML) carry no command-line flag and
# show why a plan is ranked above a cheaper one ("ranked +N%"), over a
# sweep of generated workloads (tests/tools/report_text.py).
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && cd "$WORK" || exit 1
python3 "$SRC_DIR/tests/tools/report_text.py" "$EC2FIT" "$WORK/out" > sweep.txt 2>&1
rc=$?
tail -n 25 sweep.txt
check "report text: no flag in either report, every penalty shown in HTML" test $rc -eq 0
check "report text: at least 40 workloads" grep -qE '^report text: ([4-9][0-9]|[0-9]{3,}) workloads' sweep.txt
finish
