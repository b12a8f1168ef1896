#!/usr/bin/env python3
"""Writes a synthetic catalog of K times data/catalog.json's instances.

    bench/gen_synthetic_catalog.py K [IN] > OUT.json

Copy k (k >= 1) of every instance gets the family "<family>s<k>" and the
type "<family>s<k>.<size>", so every type stays unique and globs such as
"p5*" still select the copies; copy 0 is the original. Accelerators,
sources and prices are kept as they are, so the result is a valid catalog
(`ec2fit list --catalog OUT.json` loads it through the JSON loader) with K
times the instance-region rows.
"""
import json
import os
import sys


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: gen_synthetic_catalog.py K [IN]")
    k = int(sys.argv[1])
    src = sys.argv[2] if len(sys.argv) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "..", "data", "catalog.json")
    with open(src) as f:
        cat = json.load(f)
    base = cat["instances"]
    # Null prices are optional in the schema: dropping them keeps a 100x
    # catalog under the loader's 64 MiB file limit (same rows, fewer bytes).
    for inst in base:
        for p in inst.get("prices", {}).values():
            for key in [k for k, v in p.items() if v is None]:
                del p[key]
    out = []
    for copy in range(k):
        for inst in base:
            if copy == 0:
                out.append(inst)
                continue
            c = dict(inst)
            fam = inst["family"]
            size = inst["type"].split(".", 1)[1]
            c["family"] = "%ss%d" % (fam, copy)
            c["type"] = "%s.%s" % (c["family"], size)
            out.append(c)
    cat["instances"] = out
    json.dump(cat, sys.stdout, separators=(",", ":"), sort_keys=True)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
