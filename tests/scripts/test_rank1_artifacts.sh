#!/usr/bin/env bash
# Every artifact launches what rank 1 says (issue 25), over a sweep of
# >= 200 generated workloads (tests/tools/sweep_rank1.py): the image each
# format names supports rank 1's family by the support matrix in
# data/images.json, and Karpenter's scheduling over the emitted NodePools
# (highest weight first, cheapest admitted type at catalog prices) launches
# rank 1's type, with a non-default EC2NodeClass whose root volume holds
# the image and the weights.
set -u
. "$(dirname "$0")/checks.sh"
mkdir -p "$WORK" && cd "$WORK" || exit 1
if ! python3 -c 'import yaml' 2>/dev/null; then
  echo "python3-yaml missing"; skip=1; finish; fi
python3 "$SRC_DIR/tests/tools/sweep_rank1.py" "$EC2FIT" "$SRC_DIR" sweep 200 > sweep.txt 2>&1
rc=$?
tail -n 20 sweep.txt
check "sweep: every rank 1 of >= 200 workloads launched by every format" test $rc -eq 0
check "sweep: at least 200 workloads had a rank 1" grep -qE '^([2-9][0-9]{2}|[0-9]{4,}) workloads with a rank 1' sweep.txt
check "sweep: at least 200 HTML reports checked row by row" grep -qE '^html: ([2-9][0-9]{2}|[0-9]{4,}) reports checked' sweep.txt
# the sweep reaches the families the issue names
for fam in p3 inf1 g6e trn1; do
  check "sweep: rank 1 on $fam is covered" grep -qE "rank-1 families:.* $fam [0-9]+" sweep.txt
done
finish
