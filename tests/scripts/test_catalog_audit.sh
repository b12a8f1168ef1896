#!/usr/bin/env bash
# test_catalog_audit.sh - sanity rules over the whole committed catalog
# (issue 26; docs/catalog.md, "Sanity rules"). Prints, per rule, how many
# (type, region) prices (or accelerators) were checked, and fails on any
# violation. tools/gen_catalog.py applies the same rules when it builds the
# catalog; this re-checks the committed data/catalog.json independently,
# against the vendored sources and the C constant the Savings Plan bound uses.
set -u
: "${SRC_DIR:?SRC_DIR must point at the repository root}"
PY="${PYTHON:-python3}"

"$PY" - "$SRC_DIR" <<'PYEOF'
import csv, json, os, re, sys
from decimal import Decimal as D

src = sys.argv[1]
cat = json.load(open(os.path.join(src, "data", "catalog.json")))
hdr = open(os.path.join(src, "include", "ec2fit", "fleet.h")).read()
m = re.search(r"#define ECF_SP_COMPUTE_MAX_DISCOUNT ([0-9.]+)", hdr)
sp3_discount = D(m.group(1))

def rows(name):
    with open(os.path.join(src, "data", "sources", name), newline="") as f:
        return list(csv.DictReader(f))

listed = set()  # (type, region) pairs a price source lists
for r in rows("ec2_ondemand_us-east-1.csv"):
    listed.add((r["instance_type"], r["region"]))
for r in rows("ec2_gpu_prices_by_region.csv"):
    listed.add((r["instance_type"], r["region"]))
for r in rows("ec2_ondemand_by_region.csv"):
    listed.add((r["instance_type"], r["region"]))

checked = {k: 0 for k in (
    "spot < on-demand", "reserved-1y < on-demand", "savings-plan-1y < on-demand",
    "savings-plan-3y <= savings-plan-1y",
    "priced regions are offered regions (a source row lists the pair)",
    "by-region types: priced exactly where the snapshot offers them",
    "accelerator precisions from the vendor's datasheet")}
bad = []
num = lambda x: D(str(x))
for it in cat["instances"]:
    for reg, p in it["prices"].items():
        od = num(p["ondemand_usd_per_hour"])
        where = f"{it['type']} {reg}"
        checked["priced regions are offered regions (a source row lists the pair)"] += 1
        if (it["type"], reg) not in listed:
            bad.append(f"{where}: priced, but no price source lists it as offered there")
        if p["spot_usd_per_hour"] is not None:
            checked["spot < on-demand"] += 1
            if not num(p["spot_usd_per_hour"]) < od:
                bad.append(f"{where}: spot {p['spot_usd_per_hour']} >= on-demand {od}")
        ri = p["reserved_1y_usd_per_hour"]
        if ri is not None:
            ri = num(ri)
            checked["reserved-1y < on-demand"] += 1
            if not ri < od:
                bad.append(f"{where}: reserved-1y {ri} >= on-demand {od}")
        # ec2fit's savings-plan-1y is the published rate, else the 1-year
        # reserved rate; savings-plan-3y the published rate, else on-demand
        # x (1 - ECF_SP_COMPUTE_MAX_DISCOUNT) (include/ec2fit/fleet.h)
        sp1 = p.get("savings_plan_1y_usd_per_hour")
        sp1 = ri if sp1 is None else num(sp1)
        sp3 = p.get("savings_plan_3y_usd_per_hour")
        sp3 = od * (1 - sp3_discount) if sp3 is None else num(sp3)
        if sp1 is not None:
            checked["savings-plan-1y < on-demand"] += 1
            checked["savings-plan-3y <= savings-plan-1y"] += 1
            if not sp1 < od:
                bad.append(f"{where}: savings-plan-1y {sp1} >= on-demand {od}")
            if not sp3 <= sp1:
                bad.append(f"{where}: savings-plan-3y {sp3} > 1-year {sp1}")

# ec2_ondemand_by_region.csv lists a (type, region) only where SkyPilot's
# fetcher found the type offered in an AZ (SOURCES.md 9, 9a): a CPU type of
# that file is priced in exactly its rows' regions (plus us-east-1 from the
# us-east-1 file), no more (an invented region) and no fewer (a lost row).
gpu = {(r["instance_type"], r["region"]) for r in rows("ec2_gpu_prices_by_region.csv")}
offered = {}
for r in rows("ec2_ondemand_by_region.csv"):
    offered.setdefault(r["instance_type"], set()).add(r["region"])
use1 = {r["instance_type"] for r in rows("ec2_ondemand_us-east-1.csv")}
by_type = {i["type"]: i for i in cat["instances"]}
for t, regs in sorted(offered.items()):
    checked["by-region types: priced exactly where the snapshot offers them"] += 1
    want = regs | ({"us-east-1"} if t in use1 else set()) | {g for (u, g) in gpu if u == t}
    got = set(by_type[t]["prices"]) if t in by_type else set()
    if got != want:
        bad.append(f"{t}: priced in {sorted(got - want)} beyond its offered regions, "
                   f"missing {sorted(want - got)}")

vendor_hosts = {
    "NVIDIA": ("nvidia.com",),
    "AWS": ("aws.amazon.com", "awsdocs-neuron.readthedocs-hosted.com"),
    "AMD": ("amd.com",),
    "Intel Habana": ("habana.ai", "intel.com"),
    "Qualcomm": ("qualcomm.com", "quic.github.io"),
}
seller = {"t4g": "aws.amazon.com", "radeon-pro-v520": "aws.amazon.com"}
waived = {"a10g": "NVIDIA publishes no A10G datasheet (third-party figures)"}
notes = []
for a in cat["accelerators"]:
    if not any(v is not None for v in a["tflops"].values()):
        continue
    checked["accelerator precisions from the vendor's datasheet"] += 1
    host = (re.match(r"https?://([^/]+)/", a["source"] or "") or [None, ""])[1].lower()
    hosts = vendor_hosts.get(a["vendor"], ()) + ((seller[a["id"]],) if a["id"] in seller else ())
    if a["id"] in waived:
        notes.append(f"waived: {a['id']}: {waived[a['id']]}")
        continue
    if not any(host == h or host.endswith("." + h) for h in hosts):
        bad.append(f"accelerator {a['id']}: figures from {a['source']!r}, not a {a['vendor']} datasheet")

# every published Savings Plan row is in the catalog, as published
for r in rows("ec2_savings_plans.csv"):
    pr = by_type[r["instance_type"]]["prices"].get(r["region"], {})
    for k in ("savings_plan_1y_usd_per_hour", "savings_plan_3y_usd_per_hour"):
        if pr.get(k) is None or num(pr[k]) != D(r[k]):
            bad.append(f"{r['instance_type']} {r['region']}: {k} {pr.get(k)} is not the "
                       f"published {r[k]}")

# the known bad Spot Advisor row (-62 %: spot 1.62x on-demand) is dropped
p5 = [i for i in cat["instances"] if i["type"] == "p5.48xlarge"][0]["prices"]["ca-central-1"]
if p5["spot_usd_per_hour"] is not None:
    bad.append(f"p5.48xlarge ca-central-1: spot {p5['spot_usd_per_hour']} still present")

for rule, n in checked.items():
    print(f"rule {rule}: {n} checked")
for n in notes:
    print(n)
for b in bad:
    print(f"FAIL - {b}")
print(f"{len(checked)} rules, {sum(checked.values())} checks, {len(bad)} violations")
sys.exit(1 if bad or min(checked.values()) == 0 else 0)
PYEOF
