#!/usr/bin/env python3
# Validates ec2fit JSON output against docs/schema/*.schema.json with the
# python3-jsonschema validator (draft 2020-12, formats not asserted).
#   validate_json.py SCHEMA FILE [--lines]   (--lines: JSON Lines, each line)
# Prints every error as FILE[:LINE]: PATH: MESSAGE and exits 1 on any.
import json
import sys

from jsonschema import Draft202012Validator


def main():
    schema_path, path = sys.argv[1], sys.argv[2]
    lines = "--lines" in sys.argv[3:]
    with open(schema_path) as f:
        schema = json.load(f)
    Draft202012Validator.check_schema(schema)
    v = Draft202012Validator(schema)
    with open(path) as f:
        text = f.read()
    docs = ([(i + 1, l) for i, l in enumerate(text.splitlines()) if l.strip()]
            if lines else [(None, text)])
    if not docs:
        print(f"{path}: no JSON document")
        return 1
    bad = 0
    for n, t in docs:
        where = f"{path}:{n}" if n else path
        try:
            d = json.loads(t)
        except ValueError as e:
            print(f"{where}: not JSON: {e}")
            bad += 1
            continue
        for e in sorted(v.iter_errors(d), key=lambda e: list(e.absolute_path)):
            p = "/".join(str(x) for x in e.absolute_path)
            print(f"{where}: /{p}: {e.message[:300]}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
