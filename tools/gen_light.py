#!/usr/bin/env python3
"""gen_light.py - build data/light.json (AWS Lambda pricing and limits,
Lightsail Linux bundles) for ec2fit from the reference CSVs.

Python 3 standard library only. Deterministic: the same inputs give
byte-identical output (no clock; numbers are rendered from the CSV's decimal
text, never through a float). Fails loudly (exit 1, nothing written) on a
missing required row or column, a duplicate row, an unexpected unit, or a
price that is not a positive number. See docs/light.md for the schema.

The inputs default to the vendored copies in data/sources/ (provenance in
data/sources/SOURCES.md), so from the repository root:

  python3 tools/gen_light.py -o data/light.json
"""

import argparse
import csv
import json
import os
import re
import sys
from decimal import Decimal, InvalidOperation

from toolio import write_atomic

SCHEMA_VERSION = 1

# SOURCES.md gives no date more precise than "AWS pages as indexed
# 2025-2026"; AS_OF is the day the figures were gathered into ec2fit, and
# AS_OF_NOTE says so in the file itself. Override with --as-of.
AS_OF = "2026-11-29"
AS_OF_NOTE = ("gathering date; the values come from AWS pages as indexed "
              "2025-2026 (SOURCES.md), no more precise date is known")

LAMBDA_SOURCE = "https://aws.amazon.com/lambda/pricing/"

# Lightsail bills "the fixed hourly price, up to the maximum monthly plan
# cost" (Lightsail FAQ); the published hourly prices are the monthly price
# over a 31-day month ($5 -> $0.0067/hour). Checked against any "$X/hour"
# figure in the CSV notes; src/data/light.c uses the same constant.
LIGHTSAIL_BILLING_HOURS = 744

# lambda_pricing.csv item -> (json key, expected unit, kind)
# kind: "price" = decimal > 0; "count" = integer >= 0; "pos" = integer > 0;
# "vcpu_mb", "gpu", "region": special parsers below.
LAMBDA_ROWS = [
    ("request_price", "request_usd_per_million", "USD per 1M requests", "price"),
    ("duration_price_x86_tier1", "gb_second_usd_x86", "USD per GB-second", "price"),
    ("duration_price_arm_tier1", "gb_second_usd_arm64", "USD per GB-second", "price"),
    ("free_tier_requests", "free_requests_per_month", "requests per month", "count"),
    ("free_tier_compute", "free_gb_seconds_per_month", "GB-seconds per month", "count"),
    ("memory_min", "min_memory_mb", "MB", "pos"),
    ("memory_max", "max_memory_mb", "MB", "pos"),
    ("timeout_max", "max_timeout_s", "seconds", "pos"),
    ("vcpu_per_memory", "mb_per_vcpu", "", "vcpu_mb"),
    ("vcpu_max", "max_vcpus", "vCPU", "pos"),
    ("ephemeral_storage_max", "ephemeral_storage_max_mb", "MB", "pos"),
    ("billing_granularity", "billing_granularity_ms", "ms", "pos"),
    ("gpu_support", "gpu", "", "gpu"),
]
LAMBDA_COLUMNS = ["service", "item", "value", "unit", "scope", "confidence", "source",
                  "notes"]
LIGHTSAIL_COLUMNS = ["bundle_id", "platform", "price_usd_month_dualstack", "vcpu",
                     "memory_gb", "ssd_gb", "transfer_tb_month",
                     "baseline_cpu_pct_per_vcpu", "gpu", "confidence", "source", "notes"]


class GenError(Exception):
    pass


def die(msg):
    raise GenError(msg)


class Num:
    """A JSON number printed verbatim from a Decimal: no exponent, no
    trailing zeros ("0.20" -> 0.2, "0.0000166667" stays as written)."""
    __slots__ = ("text",)

    def __init__(self, d):
        text = format(d, "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        self.text = text


def dec(text, where, positive=False):
    t = (text or "").strip()
    if not re.fullmatch(r"-?\d+(\.\d+)?", t):
        die(f"{where}: not a plain decimal number: {text!r}")
    try:
        d = Decimal(t)
    except InvalidOperation:
        die(f"{where}: not a number: {text!r}")
    if positive and d <= 0:
        die(f"{where}: must be > 0, got {text!r}")
    if d < 0:
        die(f"{where}: must not be negative, got {text!r}")
    return d


def integer(text, where, positive):
    t = (text or "").strip()
    if not re.fullmatch(r"\d+", t):
        die(f"{where}: not a non-negative integer: {text!r}")
    v = int(t)
    if positive and v == 0:
        die(f"{where}: must be > 0")
    return v


def read_csv(path, required):
    try:
        with open(path, newline="", encoding="utf-8") as f:
            reader = csv.DictReader(f)
            missing = [c for c in required if c not in (reader.fieldnames or [])]
            if missing:
                die(f"{path}: missing column(s): {', '.join(missing)}")
            return list(reader)
    except OSError as e:
        die(f"{path}: {e.strerror}")


# ---------------------------------------------------------------------------
# Lambda
# ---------------------------------------------------------------------------
def load_lambda(path):
    base = os.path.basename(path)
    rows = {}
    for i, r in enumerate(read_csv(path, LAMBDA_COLUMNS), start=2):
        if r["service"].strip() != "lambda":
            continue
        item = r["item"].strip()
        if item in rows:
            die(f"{base}:{i}: duplicate item {item!r}")
        rows[item] = (i, r)

    out = {}
    medium = []
    region = None
    for item, key, unit, kind in LAMBDA_ROWS:
        if item not in rows:
            die(f"{base}: missing required row {item!r}")
        i, r = rows[item]
        where = f"{base}:{i}:{item}"
        if r["unit"].strip() != unit:
            die(f"{where}: expected unit {unit!r}, got {r['unit']!r}")
        value = r["value"]
        if kind == "price":
            out[key] = Num(dec(value, where, positive=True))
            # Every price must be for the same region; the region is the
            # first word of the scope ("us-east-1; first 6 billion ...").
            m = re.match(r"([a-z]{2}-[a-z]+-\d+)\b", r["scope"].strip())
            if not m:
                die(f"{where}: scope {r['scope']!r} does not start with a region")
            if region is not None and m.group(1) != region:
                die(f"{where}: region {m.group(1)!r} differs from {region!r}")
            region = m.group(1)
        elif kind in ("count", "pos"):
            out[key] = integer(value, where, positive=(kind == "pos"))
        elif kind == "vcpu_mb":
            m = re.fullmatch(r"1 vCPU at (\d+) MB", value.strip())
            if not m:
                die(f"{where}: expected '1 vCPU at N MB', got {value!r}")
            out[key] = integer(m.group(1), where, positive=True)
        elif kind == "gpu":
            if value.strip() != "none":
                die(f"{where}: expected 'none' (ec2fit models no Lambda GPU), "
                    f"got {value!r}")
            out[key] = False
        conf = r["confidence"].strip()
        if conf not in ("high", "medium", "low"):
            die(f"{where}: confidence must be high|medium|low, got {conf!r}")
        if conf != "high":
            # SOURCES.md section 6 says why these rows are medium.
            note = r["notes"].strip() or ("not visible in the retrieved excerpts, "
                                          "from the AWS pages as remembered; "
                                          "verify before relying on it")
            medium.append(f"{key} ({item}) is {conf} confidence: {note}")

    if out["max_memory_mb"] < out["min_memory_mb"]:
        die(f"{base}: memory_max {out['max_memory_mb']} < memory_min "
            f"{out['min_memory_mb']}")
    if out["billing_granularity_ms"] != 1:
        # src/data/light.c rounds billed duration up to whole milliseconds.
        die(f"{base}: billing_granularity is {out['billing_granularity_ms']} ms; "
            "ec2fit assumes 1 ms")

    def tier(item):  # "us-east-1; first 6 billion GB-s/month" -> the tier
        return rows[item][1]["scope"].partition(";")[2].strip()

    notes = [f"{region} prices; duration prices are the first tier (x86: "
             f"{tier('duration_price_x86_tier1')}, arm64: "
             f"{tier('duration_price_arm_tier1')}), far above any light workload",
             "limits from docs.aws.amazon.com/lambda (gettingstarted-limits, "
             "configuration-memory, API_EphemeralStorage)"] + medium
    return {
        "region": region,
        "as_of": None,  # filled in by main
        "as_of_note": AS_OF_NOTE,
        "source": LAMBDA_SOURCE,
        "notes": "; ".join(notes),
        **{key: out[key] for _, key, _, _ in LAMBDA_ROWS},
    }


# ---------------------------------------------------------------------------
# Lightsail
# ---------------------------------------------------------------------------
def load_lightsail(path):
    base = os.path.basename(path)
    bundles = []
    seen = set()
    sources = []
    skipped = 0
    for i, r in enumerate(read_csv(path, LIGHTSAIL_COLUMNS), start=2):
        bid = r["bundle_id"].strip()
        where = f"{base}:{i}:{bid}"
        if not re.fullmatch(r"[a-z0-9_]+", bid):
            die(f"{where}: bad bundle_id {bid!r}")
        if r["platform"].strip() != "linux":
            skipped += 1
            continue
        if bid in seen:
            die(f"{where}: duplicate bundle_id")
        seen.add(bid)
        if r["gpu"].strip() != "none":
            die(f"{where}: expected gpu 'none', got {r['gpu']!r}")
        price = dec(r["price_usd_month_dualstack"], f"{where}:price_usd_month_dualstack",
                    positive=True)
        baseline = dec(r["baseline_cpu_pct_per_vcpu"],
                       f"{where}:baseline_cpu_pct_per_vcpu", positive=True)
        if baseline > 100:
            die(f"{where}: baseline_cpu_pct_per_vcpu over 100: {baseline}")
        notes = r["notes"].strip()
        # Cross-check the hourly figure AWS publishes, where the CSV quotes it.
        for m in re.finditer(r"\$(\d+\.\d+)/hour", notes):
            quoted = Decimal(m.group(1))
            places = Decimal(1).scaleb(-len(m.group(1).split(".")[1]))
            derived = (price / LIGHTSAIL_BILLING_HOURS).quantize(places)
            if derived != quoted:
                die(f"{where}: notes quote ${quoted}/hour but "
                    f"{price}/{LIGHTSAIL_BILLING_HOURS} = ${derived}")
        src = r["source"].strip()
        if not src:
            die(f"{where}: empty source")
        if src not in sources:
            sources.append(src)
        bundles.append({
            "id": bid,
            "usd_per_month": Num(price),
            "vcpu": integer(r["vcpu"], f"{where}:vcpu", positive=True),
            "memory_gb": Num(dec(r["memory_gb"], f"{where}:memory_gb", positive=True)),
            "ssd_gb": Num(dec(r["ssd_gb"], f"{where}:ssd_gb", positive=True)),
            "transfer_tb_month": Num(dec(r["transfer_tb_month"],
                                         f"{where}:transfer_tb_month")),
            "baseline_cpu_pct_per_vcpu": Num(baseline),
            "confidence": r["confidence"].strip(),
            "notes": notes,
            "_price": price,
        })
    if not bundles:
        die(f"{base}: no Linux bundles")
    if len(sources) != 1:
        die(f"{base}: expected one source for all bundles, got {len(sources)}")
    bundles.sort(key=lambda b: (b["_price"], b["id"]))
    for b in bundles:
        del b["_price"]
    return {
        "as_of": None,
        "as_of_note": AS_OF_NOTE,
        "source": sources[0],
        "notes": ("Linux prices with a public IPv4 address (dual-stack); IPv6-only "
                  "and Windows prices are left out; billed hourly at "
                  f"usd_per_month/{LIGHTSAIL_BILLING_HOURS} up to the monthly price; "
                  "transfer allowances are for most regions (lower in some APAC "
                  "regions), overage $0.09/GB in US/Canada/EU (SOURCES.md); the newer "
                  "memory- and compute-optimized bundles are not included; "
                  "per-bundle confidence is copied from the CSV"),
        "bundles": bundles,
    }, skipped


# ---------------------------------------------------------------------------
# Output: fixed key order, two-space indent, one bundle per line.
# ---------------------------------------------------------------------------
def scalar(v):
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, Num):
        return v.text
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return json.dumps(v, ensure_ascii=False)
    if isinstance(v, dict):
        return "{" + ",".join(json.dumps(k) + ":" + scalar(x) for k, x in v.items()) + "}"
    raise TypeError(f"cannot serialise {type(v).__name__}")


def render(doc):
    lines = ["{", f'  "schema_version": {doc["schema_version"]},']
    sections = [k for k in doc if k != "schema_version"]
    for si, sec in enumerate(sections):
        obj = doc[sec]
        lines.append(f'  "{sec}": {{')
        keys = list(obj)
        for ki, k in enumerate(keys):
            comma = "," if ki + 1 < len(keys) else ""
            v = obj[k]
            if isinstance(v, list):
                lines.append(f'    "{k}": [')
                for bi, b in enumerate(v):
                    lines.append("      " + scalar(b) + ("," if bi + 1 < len(v) else ""))
                lines.append("    ]" + comma)
            else:
                lines.append(f'    "{k}": {scalar(v)}{comma}')
        lines.append("  }" + ("," if si + 1 < len(sections) else ""))
    lines.append("}")
    return "\n".join(lines) + "\n"




def main(argv=None):
    ap = argparse.ArgumentParser(description="Build ec2fit's data/light.json.")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "sources")
    ap.add_argument("--lambda", dest="lambda_csv",
                    default=os.path.normpath(os.path.join(src, "lambda_pricing.csv")),
                    help="lambda_pricing.csv (default data/sources/lambda_pricing.csv)")
    ap.add_argument("--lightsail",
                    default=os.path.normpath(os.path.join(src, "lightsail_bundles.csv")),
                    help="lightsail_bundles.csv (default data/sources/lightsail_bundles.csv)")
    ap.add_argument("-o", "--output", required=True, help="output file (written atomically)")
    ap.add_argument("--as-of", default=AS_OF, help=f"YYYY-MM-DD (default {AS_OF})")
    args = ap.parse_args(argv)

    try:
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", args.as_of):
            die(f"--as-of {args.as_of!r}: expected YYYY-MM-DD")
        lam = load_lambda(args.lambda_csv)
        ls, skipped = load_lightsail(args.lightsail)
    except GenError as e:
        print(f"gen_light: error: {e}", file=sys.stderr)
        return 1
    lam["as_of"] = args.as_of
    ls["as_of"] = args.as_of
    text = render({"schema_version": SCHEMA_VERSION, "lambda": lam, "lightsail": ls})
    json.loads(text)  # self-check: must be valid JSON
    write_atomic(args.output, text, prefix=".light.")
    print(f"gen_light: wrote {args.output}: lambda {lam['region']}, "
          f"{len(ls['bundles'])} Lightsail bundles"
          + (f" ({skipped} non-Linux rows skipped)" if skipped else ""), file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
