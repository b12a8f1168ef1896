#!/usr/bin/env python3
"""bench/sample_groups.py - every K-th estimate group of a batch file.

`recommend --batch` groups lines by the fields the estimator reads (batch.c,
estimate_free(): all fields but region(s), budget, budget_hourly, deadline,
spot, optimize, qps, epochs, peak_qps, max_nodes, checkpoint_every,
families, exclude_families) and estimates each instance type once per
group. The first N lines of a file have nearly as many groups as the whole
file (the 10k bench file: 286 groups; its first 1,000 lines: 254), so their
instruction profile is mostly estimates; every K-th group, all of its lines,
keeps the whole file's mix of estimates and per-profile work at 1/K of the
cost (a callgrind run of the 10k file under load took 20 minutes).

    bench/sample_groups.py FILE [K] > sample.jsonl   (K: 10 by default)
"""
import json
import sys

FREE = {"region", "regions", "budget", "budget_hourly", "deadline", "spot",
        "optimize", "qps", "epochs", "peak_qps", "max_nodes",
        "checkpoint_every", "families", "exclude_families"}


def group_key(line):
    d = json.loads(line)
    return tuple(sorted((k.replace("-", "_"), json.dumps(v, sort_keys=True))
                        for k, v in d.items()
                        if k.replace("-", "_") not in FREE))


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip().splitlines()[-1].strip())
    k = int(sys.argv[2]) if len(sys.argv) == 3 else 10
    with open(sys.argv[1], encoding="utf-8") as f:
        lines = [l.rstrip("\n") for l in f if l.strip()]
    keys = [group_key(l) for l in lines]
    chosen = set(sorted(set(keys))[::k])
    for line, key in zip(lines, keys):
        if key in chosen:
            print(line)


if __name__ == "__main__":
    main()
