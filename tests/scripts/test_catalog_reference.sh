#!/usr/bin/env bash
# Cross-checks every instance the CLI reports against the reference files in
# data/sources (provenance in data/sources/SOURCES.md): vCPU, memory,
# accelerator count and every on-demand price in every region. Reads the references directly, so a generator or
# loader bug cannot hide behind a golden file.
set -eu
REF="$SRC_DIR/data/sources"
mkdir -p "$WORK"
python3 - "$EC2FIT" "$REF" <<'PY'
import csv, subprocess, sys, io, json
exe, ref = sys.argv[1], sys.argv[2]
def run(*args):
    return subprocess.run([exe, *args], check=True, capture_output=True, text=True).stdout
passed = failed = 0
def check(cond, what):
    global passed, failed
    if cond: passed += 1
    else:
        failed += 1
        print("FAIL:", what)

extras = {r["instance_type"]: r for r in csv.DictReader(open(f"{ref}/instance_extras.csv", newline=""))}
od = {r["instance_type"]: float(r["ondemand_usd_per_hour_linux"]) for r in csv.DictReader(open(f"{ref}/ec2_ondemand_us-east-1.csv", newline=""))}
regional = {}
for r in csv.DictReader(open(f"{ref}/ec2_gpu_prices_by_region.csv", newline="")):
    regional.setdefault(r["region"], {})[r["instance_type"]] = float(r["ondemand_usd_per_hour_linux"])

rows = list(csv.DictReader(io.StringIO(run("list", "--output", "csv", "--sort", "name", "--region", "us-east-1"))))
check(len(rows) == 1367, f"instance count {len(rows)}")
bad = 0
for r in rows:
    e = extras.get(r["instance_type"])
    if e is None:
        bad += 1; print("FAIL: not in instance_extras:", r["instance_type"]); continue
    if int(r["vcpu"]) != int(e["vcpu"]) or abs(float(r["memory_gib"]) - int(e["memory_mib"]) / 1024) > 1e-3:
        bad += 1; print("FAIL: host facts", r["instance_type"])
    n = e["gpu_count"] or e["accelerator_count"] or "0"
    if int(n) != int(r["accelerator_count"]) and not r["instance_type"].startswith(("g6f", "gr6f")):
        bad += 1; print("FAIL: accelerator count", r["instance_type"], n, r["accelerator_count"])
    want = od.get(r["instance_type"])
    got = float(r["ondemand_usd_per_hour"]) if r["ondemand_usd_per_hour"] else None
    if want != got and not (want is None and got is None):
        bad += 1; print("FAIL: us-east-1 price", r["instance_type"], want, got)
check(bad == 0, f"{bad} us-east-1 rows differ from the reference")

bad = 0
for region, prices in sorted(regional.items()):
    got = {r["instance_type"]: r["ondemand_usd_per_hour"] for r in
           csv.DictReader(io.StringIO(run("list", "--output", "csv", "--region", region, "--accelerator", "any")))}
    for t, p in prices.items():
        if t not in extras: continue  # g2/cr1: no hardware facts, left out
        if not got.get(t) or abs(float(got[t]) - p) > 1e-9:
            bad += 1; print("FAIL: price", region, t, p, got.get(t))
check(bad == 0, f"{bad} regional GPU prices differ from the reference")

# Facts named in the issue: p4d.24xlarge
s = json.loads(run("show", "p4d.24xlarge", "--output", "json"))["instance"]
check(s["accelerator"]["count"] == 8 and s["accelerator"]["memory_gib"] == 40, "p4d accelerators")
check(s["vcpu"] == 96 and s["memory_gib"] == 1152 and s["efa_gbps"] == 400, "p4d host")
check(s["prices"]["us-east-1"]["ondemand_usd_per_hour"] == 21.957642, "p4d price")
print(f"{passed} passed, {failed} failed")
sys.exit(1 if failed else 0)
PY
