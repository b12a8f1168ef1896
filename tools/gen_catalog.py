#!/usr/bin/env python3
"""gen_catalog.py - build data/catalog.json for ec2fit from the reference files.

Python 3 standard library only. Deterministic: the same inputs give
byte-identical output (no clock, no dict-order or float-repr dependence).
See docs/catalog.md for the schema and the meaning of every field.

The inputs default to the vendored copies in data/sources/ (provenance in
data/sources/SOURCES.md), so from the repository root:

  python3 tools/gen_catalog.py -o data/catalog.json

Each input can be replaced by a newer file (--ondemand, --regional, --extras,
--accelerators, --spot; see --help) together with --source-date.
"""

import argparse
import csv
import json
import os
import re
import sys
from decimal import Decimal, InvalidOperation, ROUND_HALF_EVEN

from toolio import write_atomic

SCHEMA_VERSION = 1

# ---------------------------------------------------------------------------
# Source metadata (from data/sources/SOURCES.md). The dates can be
# overridden with --source-date KIND=YYYY-MM-DD when newer files are used.
# ---------------------------------------------------------------------------
SOURCES = [
    # (option, id, origin, as_of, is_price_source)
    ("ondemand", "ondemand_us_east_1",
     "aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go "
     "@6fc13b52 (AWS Pricing API)", "2026-07-20", True),
    ("regional", "gpu_prices_by_region",
     "tsaol/aws-gpu data/all_gpu_instances.js @77fcd9fe (instances.vantage.sh / "
     "ec2instances.info export of the AWS Pricing API)", "2026-01-21", True),
    ("extras", "instance_extras",
     "aws/karpenter-provider-aws website/content/en/docs/reference/instance-types.md "
     "@692ccdd0 (EC2 DescribeInstanceTypes; older types from v1.12/v1.0 pages @9e1d72fd) "
     "+ AWS Neuron docs @81ce03ae + NVIDIA datasheets (interconnect)", "2026-07-11", False),
    ("accelerators", "accelerators",
     "NVIDIA / AWS Neuron / Qualcomm / AMD / Habana datasheets and docs (per-row source URL); "
     "cross-checked against koyakimu/aws-gpu-quick-reference @48c0b93b", "2026-03-23", False),
    ("byregion", "ondemand_by_region",
     "skypilot-org/skypilot-catalog catalogs/v7/aws/vms.csv @001367d2 (c7 families) and "
     "@27f67dd4 (c5, c6i, m5, m6i, m7i, t3, r5, r6i, r7i, t3a, t4g, m7g, c6g, m7a) (SkyPilot's fetch from the AWS Pricing API and EC2 "
     "type offerings), reduced to one row per type x region; "
     "fills only (type, region) pairs the other price files leave empty", "2025-06-01", True),
    ("spot", "spot_advisor",
     "AWS Spot Instance Advisor feed spot-advisor-data.json, copy in "
     "alexei-led/spotinfo internal/spot/data @5eedf20a", "2025-06-28", False),
    ("cpus", "cpu_families",
     "Intel / AMD / Arm optimization guides and AWS instance pages (per-row source): "
     "FLOPs per cycle per vCPU, bf16/int8 multipliers, DRAM channels x rate", "2026-03-23", False),
    # Not a price source for the catalog's as_of: the reservation rates
    # price only the capacity-block plans, and as_of dates the on-demand and
    # spot prices every plan uses.
    ("capacity_blocks", "capacity_blocks",
     "AWS EC2 Capacity Blocks for ML pricing page https://aws.amazon.com/ec2/capacityblocks/"
     "pricing/ (Effective Instance Hourly Rate), scraped by "
     "koyakimu/ec2-capacity-blocks-for-ml-pricing-json data/pricing.json @b3a54aee", "2026-07-22",
     False),
    # Not a price source for as_of either: the Savings Plan rates price only
    # the savings-plan options of the types they cover.
    ("savings_plans", "savings_plans",
     "AWS Price List bulk files (AmazonEC2 and AWSComputeSavingsPlan, us-east-1) published "
     "2026-09-25, as read into nativ-x/fsku fsku/sync/term_catalog.py @9751637f "
     "(no-upfront Savings Plan rates per instance-hour)", "2026-09-25", False),
]


def load_cpu_families(path):
    """family -> row of cpu_families.csv (per-vCPU FLOPs/cycle, ISA multipliers)."""
    rows = read_csv(path, ["generation", "families", "isa", "fp32_flops_per_cycle_per_vcpu",
                           "bf16_x", "int8_x", "mem_gbytes_s_per_vcpu", "confidence", "source"])
    out = {}
    for i, r in enumerate(rows, start=2):
        where = f"{os.path.basename(path)}:{i}"
        for fam in r["families"].split(","):
            fam = fam.strip()
            if fam in out:
                die(f"{where}: family {fam!r} listed twice")
            out[fam] = {
                "generation": r["generation"].strip(),
                "isa": r["isa"].strip(),
                "flops": dec(r["fp32_flops_per_cycle_per_vcpu"], f"{where}:fp32"),
                "bf16_x": dec(r["bf16_x"], f"{where}:bf16_x"),
                "int8_x": dec(r["int8_x"], f"{where}:int8_x"),
                "bw": dec(r["mem_gbytes_s_per_vcpu"], f"{where}:mem"),
                "confidence": r["confidence"].strip(),
            }
    return out


def build_cpu(r, cpus, vcpu, where):
    """Host CPU figures of a CPU-only type: vCPUs x FLOPs/cycle x sustained
    clock, and the DRAM share; None when the family or clock is unknown."""
    fam = cpus.get(r["family"].strip())
    clock = r.get("cpu_sustained_clock_mhz", "").strip()
    if fam is None or not clock or Decimal(clock) <= 0:
        return None
    fp32 = Decimal(vcpu) * fam["flops"] * Decimal(clock) / 1000
    return {
        "generation": fam["generation"],
        "isa": fam["isa"],
        "clock_ghz": Num(Decimal(clock) / 1000, 3),
        "gflops": {"fp32": Num(fp32, 1), "bf16": Num(fp32 * fam["bf16_x"], 1),
                   "int8": Num(fp32 * fam["int8_x"], 1)},
        "memory_bw_gbytes_s": Num(Decimal(vcpu) * fam["bw"], 2),
        "confidence": fam["confidence"],
    }

# accelerators.csv `accelerator` column -> (id, kind, generation, has_bf16_tf32)
ACCEL_ROWS = {
    "V100 SXM2 16GB": ("v100-16gb", "gpu", "volta", False),
    "V100 SXM2 32GB": ("v100-32gb", "gpu", "volta", False),
    "A100 SXM4 40GB": ("a100-40gb", "gpu", "ampere", True),
    "A100 SXM4 80GB": ("a100-80gb", "gpu", "ampere", True),
    "H100 SXM5 80GB": ("h100", "gpu", "hopper", True),
    "H200 SXM 141GB": ("h200", "gpu", "hopper", True),
    "B200 (HGX B200)": ("b200", "gpu", "blackwell", True),
    "B300 (HGX B300)": ("b300", "gpu", "blackwell", True),
    "GB200 (B200 GPU in NVL72)": ("gb200", "gpu", "blackwell", True),
    "A10G": ("a10g", "gpu", "ampere", True),
    "T4": ("t4", "gpu", "turing", False),
    "T4G": ("t4g", "gpu", "turing", False),
    "L4": ("l4", "gpu", "ada", True),
    "L40S": ("l40s", "gpu", "ada", True),
    "RTX PRO 6000 Blackwell Server Edition": ("rtx-pro-6000", "gpu", "blackwell", True),
    "RTX PRO 4500 Blackwell": ("rtx-pro-4500", "gpu", "blackwell", True),
    "K80 (one GK210 GPU)": ("k80", "gpu", "kepler", False),
    "M60 (one GM204 GPU)": ("m60", "gpu", "maxwell", False),
    "Radeon Pro V520": ("radeon-pro-v520", "gpu", "rdna", False),
    "Inferentia (NeuronCore-v1 x4)": ("inferentia", "neuron", "neuron-v1", True),
    "Inferentia2 (NeuronCore-v2 x2)": ("inferentia2", "neuron", "neuron-v2", True),
    "Trainium (NeuronCore-v2 x2)": ("trainium", "neuron", "neuron-v2", True),
    "Trainium2 (NeuronCore-v3 x8)": ("trainium2", "neuron", "neuron-v3", True),
    "Gaudi HL-205": ("gaudi-hl-205", "other", "gaudi1", True),
    "Cloud AI 100 Standard": ("qualcomm-ai100", "other", "ai100", True),
}

# instance_extras.csv gpu_name -> accelerator id (None = decided by memory)
GPU_NAMES = {
    "a100": None, "v100": None,
    "h100": "h100", "h200": "h200", "b200": "b200", "b300": "b300",
    "a10g": "a10g", "t4": "t4", "t4g": "t4g", "l4": "l4", "l40s": "l40s",
    "rtx-pro-server-6000": "rtx-pro-6000", "rtx-pro-4500": "rtx-pro-4500",
    "k80": "k80", "m60": "m60", "radeon-pro-v520": "radeon-pro-v520",
    "gaudi-hl-205": "gaudi-hl-205",
}
GPU_BY_MEMORY = {  # (gpu_name, gpu_memory_mib_per_gpu) -> id
    ("a100", 40960): "a100-40gb", ("a100", 81920): "a100-80gb",
    ("v100", 16384): "v100-16gb", ("v100", 32768): "v100-32gb",
}
ACCEL_NAMES = {
    "inferentia": "inferentia", "inferentia2": "inferentia2",
    "trainium": "trainium", "trainium2": "trainium2",
    "qualcomm-ai100": "qualcomm-ai100",
}
L4_FULL_MIB = 22888  # usable MiB of a whole L4 as EC2 reports it (g6)

ARCH = {"amd64": "x86_64", "arm64": "arm64"}


class GenError(Exception):
    pass


def die(msg):
    raise GenError(msg)


# ---------------------------------------------------------------------------
# Numbers: kept as Decimal / int so that output formatting is exact.
# ---------------------------------------------------------------------------
class Num:
    """A JSON number rendered from a Decimal with at most `places` decimals,
    no trailing zeros, and no exponent. Integral values print as integers."""
    __slots__ = ("text",)

    def __init__(self, value, places):
        if isinstance(value, int):
            value = Decimal(value)
        q = value.quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_EVEN)
        if q.is_zero():
            q = Decimal(0)  # no "-0"
        text = format(q, "f")
        if "." in text:
            text = text.rstrip("0").rstrip(".")
        self.text = text

    def __repr__(self):
        return self.text


def dec(text, where, positive=False, allow_zero=True):
    """Parses a plain decimal string (no exponent, no sign unless negative
    allowed) or fails loudly naming `where`."""
    t = text.strip()
    if not re.fullmatch(r"-?\d+(\.\d+)?", t):
        die(f"{where}: not a plain decimal number: {text!r}")
    try:
        d = Decimal(t)
    except InvalidOperation:
        die(f"{where}: not a number: {text!r}")
    if not d.is_finite():
        die(f"{where}: not finite: {text!r}")
    if positive and d <= 0:
        die(f"{where}: must be > 0, got {text!r}")
    if d < 0:
        die(f"{where}: must not be negative, got {text!r}")
    if not allow_zero and d == 0:
        die(f"{where}: must not be zero")
    return d


def opt_num(text, where, places=6, scale=None):
    """Empty -> None; else Num (optionally divided by `scale`)."""
    if text is None or text.strip() == "":
        return None
    d = dec(text, where)
    if scale is not None:
        d = d / Decimal(scale)
    return Num(d, places)


def int_field(text, where, default=None):
    if text is None or text.strip() == "":
        if default is None:
            die(f"{where}: required integer is empty")
        return default
    if not re.fullmatch(r"\d+", text.strip()):
        die(f"{where}: not a non-negative integer: {text!r}")
    return int(text.strip())


def price(text, where):
    d = dec(text, where, positive=True)
    if d.as_tuple().exponent < -6:
        die(f"{where}: more than 6 decimals: {text!r}")
    return d


# ---------------------------------------------------------------------------
# Deterministic compact JSON writer (sorted keys, Num verbatim).
# ---------------------------------------------------------------------------
def dumps(obj):
    if obj is None:
        return "null"
    if obj is True:
        return "true"
    if obj is False:
        return "false"
    if isinstance(obj, Num):
        return obj.text
    if isinstance(obj, int):
        return str(obj)
    if isinstance(obj, float):
        raise TypeError("raw float in output; use Num")
    if isinstance(obj, str):
        return json.dumps(obj, ensure_ascii=False)
    if isinstance(obj, dict):
        return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + dumps(obj[k])
                              for k in sorted(obj)) + "}"
    if isinstance(obj, (list, tuple)):
        return "[" + ",".join(dumps(v) for v in obj) + "]"
    raise TypeError(f"cannot serialise {type(obj).__name__}")


# ---------------------------------------------------------------------------
# Readers
# ---------------------------------------------------------------------------
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


def load_accelerators(path):
    rows = read_csv(path, ["accelerator", "vendor", "memory_gb", "memory_bandwidth_gb_s",
                           "fp32_tflops", "tf32_tflops_dense", "fp16_bf16_tflops_dense",
                           "fp8_tflops_dense", "int8_tops_dense", "tdp_w",
                           "confidence", "source"])
    out = {}
    for i, r in enumerate(rows, start=2):
        where = f"{os.path.basename(path)}:{i}"
        name = r["accelerator"].strip()
        if name not in ACCEL_ROWS:
            die(f"{where}: unmapped accelerator {name!r} (add it to ACCEL_ROWS)")
        aid, kind, gen, has_bf16_tf32 = ACCEL_ROWS[name]
        if aid in out:
            die(f"{where}: duplicate accelerator id {aid!r}")
        conf = r["confidence"].strip()
        if conf not in ("high", "medium", "low"):
            die(f"{where}: confidence must be high|medium|low, got {conf!r}")

        def f(col):
            return opt_num(r[col], f"{where}:{col}", places=4)

        fp16 = f("fp16_bf16_tflops_dense")
        tf32 = f("tf32_tflops_dense")
        if not has_bf16_tf32 and tf32 is not None:
            die(f"{where}: {name} has no TF32 but tf32_tflops_dense is set")
        mem = opt_num(r["memory_gb"], f"{where}:memory_gb", places=4)
        if mem is None:
            die(f"{where}: memory_gb is empty")
        out[aid] = {
            "id": aid,
            "name": name,
            "vendor": r["vendor"].strip(),
            "kind": kind,
            "generation": gen,
            "memory_gb": mem,
            "memory_bw_gbytes_s": f("memory_bandwidth_gb_s"),
            "tflops": {
                "fp32": f("fp32_tflops"),
                "tf32": tf32 if has_bf16_tf32 else None,
                "fp16": fp16,
                "bf16": fp16 if has_bf16_tf32 else None,
                "fp8": f("fp8_tflops_dense"),
                "int8": f("int8_tops_dense"),
                "int4": None,  # the CSV has FP4, not INT4
            },
            "tdp_w": f("tdp_w"),
            "confidence": conf,
            "source": r["source"].strip(),
            "_memory_gb_dec": dec(r["memory_gb"], f"{where}:memory_gb"),
        }
    missing = sorted(set(v[0] for v in ACCEL_ROWS.values()) - set(out))
    if missing:
        print(f"gen_catalog: note: accelerators without a CSV row: {', '.join(missing)}",
              file=sys.stderr)
    return out


def load_ondemand(path):
    rows = read_csv(path, ["instance_type", "region", "ondemand_usd_per_hour_linux"])
    out = {}
    for i, r in enumerate(rows, start=2):
        where = f"{os.path.basename(path)}:{i}"
        t = r["instance_type"].strip()
        if r["region"].strip() != "us-east-1":
            die(f"{where}: expected region us-east-1, got {r['region']!r}")
        if t in out:
            die(f"{where}: duplicate instance type {t!r}")
        out[t] = price(r["ondemand_usd_per_hour_linux"], f"{where}:ondemand_usd_per_hour_linux")
    return out


def load_regional(path):
    od_col = "ondemand_usd_per_hour_linux"
    ri_col = "reserved_1yr_standard_noupfront_usd_per_hour_linux"
    rows = read_csv(path, ["instance_type", "region", od_col, ri_col])
    out = {}  # type -> region -> (ondemand, reserved|None)
    for i, r in enumerate(rows, start=2):
        where = f"{os.path.basename(path)}:{i}"
        t = r["instance_type"].strip()
        reg = r["region"].strip()
        if not re.fullmatch(r"[a-z]{2}(-[a-z0-9]+)+", reg):
            die(f"{where}: odd region code {reg!r}")
        if reg in out.setdefault(t, {}):
            die(f"{where}: duplicate row for {t} in {reg}")
        od = price(r[od_col], f"{where}:{od_col}")
        ri = price(r[ri_col], f"{where}:{ri_col}") if r[ri_col].strip() else None
        out[t][reg] = (od, ri)
    return out


def load_byregion(path, ondemand):
    """type -> region -> on-demand price, from ec2_ondemand_by_region.csv.

    Vendored-data rules (a violation fails the build): one row per (type, region);
    a type's us-east-1 row, when present, must equal the us-east-1 file's price
    exactly (the cross-check that ties this older file to the current one); prices
    within a family and region are proportional to the vCPU count within 0.3 %
    (AWS prices sizes linearly; a transcription slip breaks it)."""
    col = "ondemand_usd_per_hour_linux"
    rows = read_csv(path, ["instance_type", "region", col])
    base = os.path.basename(path)
    out = {}
    for i, r in enumerate(rows, start=2):
        where = f"{base}:{i}"
        t, reg = r["instance_type"].strip(), r["region"].strip()
        if not re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*\.[a-z0-9-]+", t):
            die(f"{where}: odd instance type {t!r}")
        if not re.fullmatch(r"[a-z]{2}(-[a-z0-9]+)+", reg):
            die(f"{where}: odd region code {reg!r}")
        if reg in out.setdefault(t, {}):
            die(f"{where}: duplicate row for {t} in {reg}")
        out[t][reg] = price(r[col], f"{where}:{col}")
        if reg == "us-east-1" and t in ondemand and out[t][reg] != ondemand[t]:
            die(f"{where}: {t} us-east-1 on-demand {out[t][reg]} disagrees with "
                f"{ondemand[t]} in the us-east-1 file: the row set of this type is not trusted")
    return out


def size_units(t):
    """vCPU-proportional size of a type name (large = 2), None when not a plain size."""
    size = t.split(".", 1)[1]
    named = {"medium": 1, "large": 2, "xlarge": 4}
    if size in named:
        return named[size]
    m = re.fullmatch(r"(?:metal-)?(\d+)xl(?:arge)?", size)
    return int(m.group(1)) * 4 if m else None


# Burstable families: every size up to large has 2 vCPUs and AWS prices the
# sizes by memory (us-east-1 t3: 0.0104 per GiB-hour from nano to 2xlarge),
# so their proportionality check runs on memory instead of vCPUs.
MEMORY_PRICED = ("t2", "t3", "t3a", "t4g")


def check_byregion_linear(byregion, extras_vcpu, where, extras_mem=None, accelerated=()):
    """Within one family and region, price per vCPU is one number (0.3 % slack for
    AWS's rounding to 4-5 decimals, plus half a unit of the last decimal the price
    is published with: AWS rounds each size on its own, and older families to
    3 decimals, so me-central-1 c5.large is 0.106 where 2/96 of c5.24xlarge's
    5.069 is 0.1056). Accelerated types (GPU/Neuron/other accelerators) are
    exempt: their price follows the accelerators, not the vCPUs (us-east-1 g7e.2xlarge
    0.42 per vCPU-hour, g7e.48xlarge 0.173); check_byregion_crosscheck ties them
    to the GPU file instead. Returns the number of prices checked."""
    groups = {}
    for t, regs in byregion.items():
        if t in accelerated:
            continue
        v = extras_vcpu.get(t)
        if t.split(".")[0] in MEMORY_PRICED and extras_mem:
            v = extras_mem.get(t)
        if not v:
            continue
        for reg, p in regs.items():
            groups.setdefault((t.split(".")[0], reg), []).append((p / v, t, p))
    n = 0
    for (fam, reg), items in sorted(groups.items()):
        ref = max(items, key=lambda x: x[2])[0]
        for per, t, p in items:
            n += 1
            half_unit = Decimal(5).scaleb(p.as_tuple().exponent - 1)
            if abs(per / ref - 1) > Decimal("0.003") + half_unit / p:
                unit = "MiB of memory" if fam in MEMORY_PRICED and extras_mem else "vCPU"
                die(f"{where}: {t} in {reg} costs {p}/h, {per:.6g} per {unit} against "
                    f"{ref:.6g} for the rest of {fam} there (not proportional to size)")
    return n


def check_byregion_crosscheck(byregion, regional, where, regional_where):
    """Where the GPU per-region file also prices a (type, region) of the by-region
    file, the two independent sources must agree within half a unit of the last
    decimal either publishes (the coarser of the two: 3.58 and 3.5762 agree, 3.58
    and 3.5862 do not). Returns the number of pairs checked."""
    n = 0
    for t, regs in sorted(byregion.items()):
        for reg, p in sorted(regs.items()):
            other = regional.get(t, {}).get(reg)
            if other is None:
                continue
            q = other[0]
            n += 1
            half_unit = Decimal(5).scaleb(max(p.as_tuple().exponent,
                                              q.as_tuple().exponent) - 1)
            if abs(p - q) > half_unit:
                die(f"{where}: {t} {reg} on-demand {p} disagrees with {q} in "
                    f"{regional_where} (more than {half_unit} apart)")
    return n


def load_spot(path):
    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except OSError as e:
        die(f"{path}: {e.strerror}")
    except ValueError as e:
        die(f"{path}: invalid JSON: {e}")
    adv = data.get("spot_advisor") if isinstance(data, dict) else None
    if not isinstance(adv, dict):
        die(f"{path}: no 'spot_advisor' object")
    nbands = len(data.get("ranges") or []) or 5
    out = {}  # region -> type -> (s, r)
    for reg, oses in adv.items():
        linux = oses.get("Linux") if isinstance(oses, dict) else None
        if not isinstance(linux, dict):
            continue
        for t, v in linux.items():
            s, band = (v or {}).get("s"), (v or {}).get("r")
            if type(s) is not int or type(band) is not int or not (-100 < s < 100) \
                    or not (0 <= band < nbands):
                die(f"{path}: spot_advisor[{reg}][Linux][{t}]: bad entry {v!r}")
            out.setdefault(reg, {})[t] = (s, band)
    return out


# ---------------------------------------------------------------------------
# Instances
# ---------------------------------------------------------------------------
def interconnect_kind(text, count, where):
    t = text.strip()
    if count <= 1:
        return "none"  # single (or fractional) device: nothing to interconnect
    if t == "":
        return "pcie"
    low = t.lower()
    if low.startswith("n/a"):
        die(f"{where}: gpu_interconnect {t!r} on a {count}-device type")
    # "PCIe (no NVLink)" mentions NVLink only to deny it: test PCIe first.
    if low.startswith("pcie"):
        return "pcie"
    if "nvswitch" in low:
        return "nvswitch"
    if "nvlink" in low:
        return "nvlink"
    if "neuronlink" in low:
        return "neuronlink"
    if "roce" in low:
        return "other"
    if "pcie" in low:
        return "pcie"
    die(f"{where}: unmapped gpu_interconnect {t!r}")


def build_accelerator(r, accels, where):
    gname = r["gpu_name"].strip()
    aname = r["accelerator_name"].strip()
    if gname and aname:
        die(f"{where}: both gpu_name and accelerator_name set")
    if not gname and not aname:
        return None
    if gname:
        if gname not in GPU_NAMES:
            die(f"{where}: unmapped gpu_name {gname!r}")
        mib = int_field(r["gpu_memory_mib_per_gpu"], f"{where}:gpu_memory_mib_per_gpu")
        aid = GPU_NAMES[gname] or GPU_BY_MEMORY.get((gname, mib))
        if aid is None:
            die(f"{where}: no accelerator for gpu_name {gname!r} with {mib} MiB")
        count = int_field(r["gpu_count"], f"{where}:gpu_count")
        mem_gib = Decimal(mib) / 1024
        fraction = Decimal(1)
        if count == 0:
            if aid != "l4":
                die(f"{where}: gpu_count 0 (fractional) is only understood for L4")
            if not 0 < mib < L4_FULL_MIB:
                die(f"{where}: fractional L4 partition of {mib} MiB")
            count = 1
            fraction = Decimal(mib) / L4_FULL_MIB
    else:
        if aname not in ACCEL_NAMES:
            die(f"{where}: unmapped accelerator_name {aname!r}")
        aid = ACCEL_NAMES[aname]
        count = int_field(r["accelerator_count"], f"{where}:accelerator_count")
        if count == 0:
            die(f"{where}: accelerator_count 0")
        fraction = Decimal(1)
        if aid not in accels:
            die(f"{where}: accelerator {aid!r} has no row in accelerators.csv")
        if accels[aid]["kind"] == "neuron":
            nd = int_field(r["neuron_devices"], f"{where}:neuron_devices")
            if nd != count:
                die(f"{where}: accelerator_count {count} != neuron_devices {nd}")
        # Neuron docs give device memory in GiB; Qualcomm in GB (16), used as is.
        mem_gib = accels[aid]["_memory_gb_dec"]
    if aid not in accels:
        die(f"{where}: accelerator {aid!r} has no row in accelerators.csv")
    link = interconnect_kind(r["gpu_interconnect"], count, where)
    link_bw = r["interconnect_gbytes_per_s_per_device"].strip()
    return {
        "id": aid,
        "count": count,
        "memory_gib": Num(mem_gib, 4),
        "fraction": Num(fraction, 4),
        "interconnect": link,
        "interconnect_gbytes_s": Num(dec(link_bw, f"{where}:interconnect_gbytes_per_s_per_device"), 4)
        if link_bw and link != "none" else 0,
    }


def build_prices(t, ondemand, regional, spot, mismatches, byregion=None, dropped_spot=None):
    dropped_spot = [] if dropped_spot is None else dropped_spot
    regions = {}
    # Precedence: the us-east-1 file, then the GPU per-region file, then the
    # all-types per-region file, which only fills pairs the other two leave empty.
    for reg, od in sorted((byregion or {}).get(t, {}).items()):
        regions[reg] = (od, None)
    if t in ondemand:
        regions["us-east-1"] = (ondemand[t], None)
    for reg, (od, ri) in sorted(regional.get(t, {}).items()):
        if reg == "us-east-1" and t in ondemand:
            if od != ondemand[t]:
                mismatches.append(f"{t}: us-east-1 on-demand {ondemand[t]} (ondemand file) "
                                  f"vs {od} (regional file); using the ondemand file")
            regions[reg] = (ondemand[t], ri)
        else:
            regions[reg] = (od, ri)
    out = {}
    for reg in sorted(regions):
        od, ri = regions[reg]
        sv = spot.get(reg, {}).get(t)
        if sv is not None and sv[0] <= 0:
            # Rule "spot < on-demand": a Spot Advisor savings of 0 % or less
            # (ca-central-1 p5.48xlarge: -62 %, spot 1.62x on-demand) is no
            # discount; the pair gets no spot estimate.
            dropped_spot.append(f"{t} {reg} ({sv[0]}%)")
            sv = None
        p = {
            "ondemand_usd_per_hour": Num(od, 6),
            "reserved_1y_usd_per_hour": Num(ri, 6) if ri is not None else None,
        }
        if sv is None:
            p.update(spot_usd_per_hour=None, spot_estimated=False,
                     spot_savings_pct=None, interruption_band=None)
        else:
            s, band = sv
            est = od * (Decimal(100) - Decimal(s)) / Decimal(100)
            p.update(spot_usd_per_hour=Num(est, 6), spot_estimated=True,
                     spot_savings_pct=s, interruption_band=band)
        out[reg] = p
    return out


def build_instances(extras_path, accels, ondemand, regional, spot, cpus, byregion=None):
    rows = read_csv(extras_path, [
        "instance_type", "family", "vcpu", "memory_mib", "arch", "gpu_name", "gpu_count",
        "gpu_memory_mib_per_gpu", "accelerator_name", "accelerator_count", "neuron_devices",
        "network_bandwidth_mbps", "ebs_bandwidth_mbps", "local_nvme_gb", "efa_interfaces",
        "efa_bandwidth_gbps", "gpu_interconnect", "interconnect_gbytes_per_s_per_device"])
    base = os.path.basename(extras_path)
    instances, seen, left_out, no_price_accel, mismatches = [], set(), [], [], []
    DROPPED_SPOT.clear()
    dropped_spot = DROPPED_SPOT
    for i, r in enumerate(rows, start=2):
        t = r["instance_type"].strip()
        where = f"{base}:{i} ({t})"
        if t in seen:
            die(f"{where}: duplicate instance type")
        seen.add(t)
        accel = build_accelerator(r, accels, where)
        has_price = t in ondemand or t in regional or t in (byregion or {})
        if not has_price:
            if accel is None:
                left_out.append(t)
                continue
            no_price_accel.append(t)
        arch = r["arch"].strip()
        if arch not in ARCH:
            die(f"{where}: unknown arch {arch!r}")
        family = r["family"].strip()
        if not family or not t.startswith(family + "."):
            die(f"{where}: family {family!r} does not match the type name")
        instances.append({
            "type": t,
            "family": family,
            "vcpu": int_field(r["vcpu"], f"{where}:vcpu"),
            "memory_gib": Num(Decimal(int_field(r["memory_mib"], f"{where}:memory_mib")) / 1024, 4),
            "arch": ARCH[arch],
            "accelerator": accel,
            "cpu": None if accel else build_cpu(r, cpus, int_field(r["vcpu"], f"{where}:vcpu"),
                                                where),
            "network_gbps": opt_num(r["network_bandwidth_mbps"], f"{where}:network_bandwidth_mbps",
                                    places=6, scale=1000),
            "efa_interfaces": int_field(r["efa_interfaces"], f"{where}:efa_interfaces", 0),
            "efa_gbps": opt_num(r["efa_bandwidth_gbps"], f"{where}:efa_bandwidth_gbps",
                                places=4) or 0,
            "ebs_gbps": opt_num(r["ebs_bandwidth_mbps"], f"{where}:ebs_bandwidth_mbps",
                                places=6, scale=1000),
            "nvme_gb": opt_num(r["local_nvme_gb"], f"{where}:local_nvme_gb", places=4) or 0,
            "prices": build_prices(t, ondemand, regional, spot, mismatches, byregion,
                                   dropped_spot),
        })
    instances.sort(key=lambda x: x["type"])
    not_in_extras = sorted((set(ondemand) | set(regional) | set(byregion or {})) - seen)
    return instances, left_out, no_price_accel, not_in_extras, mismatches


# ---------------------------------------------------------------------------
# Sanity rules over the built catalog (issue 26). A violation in vendored data
# fails the build; tests/scripts/test_catalog_audit.sh re-checks the committed
# catalog independently and prints the counts.
# ---------------------------------------------------------------------------
DROPPED_SPOT = []  # "type region (s%)" of Spot Advisor rows with no discount
SP_COMPUTE_MAX_DISCOUNT = Decimal("0.66")  # include/ec2fit/fleet.h ECF_SP_COMPUTE_MAX_DISCOUNT
# Where a vendor publishes its datasheets; accelerators.csv `source` of a row
# that gives any throughput figure must be on one of its vendor's hosts.
VENDOR_HOSTS = {
    "NVIDIA": ("nvidia.com",),
    "AWS": ("aws.amazon.com", "awsdocs-neuron.readthedocs-hosted.com"),
    "AMD": ("amd.com",),
    "Intel Habana": ("habana.ai", "intel.com"),
    "Qualcomm": ("qualcomm.com", "quic.github.io"),
}
# AWS-only variants: the seller's instance page is the published spec.
SELLER_SPEC = {"t4g": "aws.amazon.com", "radeon-pro-v520": "aws.amazon.com"}
# Waived, with the reason shown by the audit (SOURCES.md gap list).
PRECISION_WAIVERS = {"a10g": "NVIDIA publishes no A10G datasheet (third-party figures)"}


def source_host(url):
    m = re.match(r"https?://([^/]+)/", url or "")
    return m.group(1).lower() if m else ""


def audit_catalog(instances, accels):
    """Returns {rule: checked count}; dies on the first violation."""
    n = {"spot < on-demand": 0, "reserved-1y < on-demand": 0,
         "savings-plan-1y < on-demand": 0, "savings-plan-3y <= savings-plan-1y": 0,
         "accelerator precisions from the vendor's datasheet": 0}
    for it in instances:
        for reg, p in it["prices"].items():
            od = Decimal(p["ondemand_usd_per_hour"].text)
            sp = p["spot_usd_per_hour"]
            sp = None if sp is None else Decimal(sp.text)
            if sp is not None:
                n["spot < on-demand"] += 1
                if not sp < od:
                    die(f"{it['type']} {reg}: spot {sp} is not below on-demand {od}")
            ri = p["reserved_1y_usd_per_hour"]
            ri = None if ri is None else Decimal(ri.text)
            if ri is not None:
                n["reserved-1y < on-demand"] += 1
                if not ri < od:
                    die(f"{it['type']} {reg}: 1-year reserved {ri} is not below "
                        f"on-demand {od}")
            # savings-plan-1y: the published rate, else the 1-year reserved
            # one; savings-plan-3y: the published rate, else on-demand x
            # (1 - the Compute Savings Plans maximum discount)
            sp1 = p.get("savings_plan_1y_usd_per_hour")
            sp1 = ri if sp1 is None else Decimal(sp1.text)
            sp3 = p.get("savings_plan_3y_usd_per_hour")
            sp3 = od * (1 - SP_COMPUTE_MAX_DISCOUNT) if sp3 is None else Decimal(sp3.text)
            if sp1 is not None:
                n["savings-plan-1y < on-demand"] += 1
                if not sp1 < od:
                    die(f"{it['type']} {reg}: 1-year Savings Plan {sp1} is not below "
                        f"on-demand {od}")
                n["savings-plan-3y <= savings-plan-1y"] += 1
                if not sp3 <= sp1:
                    die(f"{it['type']} {reg}: 3-year Savings Plan {sp3} is above the "
                        f"1-year rate {sp1}")
    for aid, a in sorted(accels.items()):
        if not any(v is not None for v in a["tflops"].values()):
            continue
        n["accelerator precisions from the vendor's datasheet"] += 1
        host = source_host(a["source"])
        hosts = VENDOR_HOSTS.get(a["vendor"], ()) + tuple(
            h for k, h in SELLER_SPEC.items() if k == aid)
        if aid in PRECISION_WAIVERS:
            continue
        if not any(host == h or host.endswith("." + h) for h in hosts):
            die(f"accelerators.csv {a['name']!r}: precision figures sourced from "
                f"{a['source']!r}, not a {a['vendor']} datasheet")
    return n


OFFERED_RULE = "priced regions are offered regions (a source row lists the pair)"


def audit_offered(instances, ondemand, regional, byregion):
    """Rule "every region a type is priced in is one where it is offered"
    (issue 26): a price row exists only where its source found the type on
    sale (Karpenter's us-east-1 dump, the ec2instances.info regions,
    SkyPilot's per-AZ offerings), so every (type, region) price of the
    catalog must trace to such a row. Returns the number checked; dies on
    the first price no source lists."""
    n = 0
    for it in instances:
        t = it["type"]
        for reg in it["prices"]:
            n += 1
            if not ((reg == "us-east-1" and t in ondemand) or reg in regional.get(t, {})
                    or reg in (byregion or {}).get(t, {})):
                die(f"{t} {reg}: priced, but no price source lists the type as offered there")
    return n


# ---------------------------------------------------------------------------
# Capacity Blocks for ML (issue 26): the published reservation rates, one per
# (type, region), attached to the catalog's price entry of that pair as
# capacity_block_usd_per_hour. A pair without a published rate has none; a
# published rate for a pair the catalog does not price (a type it lacks, a
# Local Zone, GovCloud, a region without an on-demand price) is not packed
# and is listed on stderr.
# ---------------------------------------------------------------------------
def dated_pair_rows(path, cols, out):
    """(where, type, region, row) of each row of a file with one row per
    (instance_type, region) and an as_of date: dies on a pair already in
    `out` or an as_of that is not YYYY-MM-DD."""
    base = os.path.basename(path)
    for i, r in enumerate(read_csv(path, cols), start=2):
        t, reg = r["instance_type"].strip(), r["region"].strip()
        where = f"{base}:{i} ({t} {reg})"
        if (t, reg) in out:
            die(f"{where}: duplicate (type, region)")
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", r["as_of"].strip()):
            die(f"{where}: as_of: expected YYYY-MM-DD")
        yield where, t, reg, r


def load_capacity_blocks(path):
    out = {}
    for where, t, reg, r in dated_pair_rows(
            path, ["instance_type", "region", "effective_instance_usd_per_hour",
                   "effective_accelerator_usd_per_hour", "as_of", "source_url"], out):
        if not r["source_url"].strip().startswith("https://aws.amazon.com/"):
            die(f"{where}: source_url: expected the AWS pricing page")
        inst = dec(r["effective_instance_usd_per_hour"], where, positive=True)
        acc = dec(r["effective_accelerator_usd_per_hour"], where, positive=True)
        out[(t, reg)] = (inst, acc)
    return out


def attach_capacity_blocks(instances, cb):
    """Sets capacity_block_usd_per_hour on the price entries that have a
    published rate. Checks each rate against the page's own per-accelerator
    rate (instance rate = accelerator rate x the type's accelerator count,
    within the page's rounding of the accelerator rate to 3 decimals; one
    accelerator's worth of 0.0005 per device). Returns (attached, skipped)."""
    by_type = {it["type"]: it for it in instances}
    attached, skipped = 0, []
    for (t, reg), (inst, acc) in sorted(cb.items()):
        it = by_type.get(t)
        if it is None or reg not in it["prices"]:
            skipped.append(f"{t} {reg}")
            continue
        count = (it["accelerator"] or {}).get("count") or 0
        if count <= 0:
            die(f"capacity blocks: {t} has no accelerator in the catalog")
        if abs(acc * count - inst) > Decimal("0.0005") * count + Decimal("0.001"):
            die(f"capacity blocks: {t} {reg}: instance rate {inst} is not {count} x the "
                f"accelerator rate {acc}")
        it["prices"][reg]["capacity_block_usd_per_hour"] = Num(inst, 6)
        attached += 1
    return attached, skipped


# ---------------------------------------------------------------------------
# Published Savings Plan rates (issue 26): the lowest no-upfront 1- and
# 3-year rates AWS's Price List gives a (type, region), attached as
# savings_plan_1y_usd_per_hour / savings_plan_3y_usd_per_hour. Without one,
# ec2fit estimates savings-plan-1y as the 1-year reserved rate and
# savings-plan-3y from the Compute Savings Plans maximum discount. Every row
# must name a pair the catalog prices (no silent skip: the file is short).
# ---------------------------------------------------------------------------
SP_PLANS = ("EC2 Instance Savings Plan", "Compute Savings Plan")


def load_savings_plans(path):
    out = {}
    for where, t, reg, r in dated_pair_rows(
            path, ["instance_type", "region", "plan_1y", "savings_plan_1y_usd_per_hour",
                   "plan_3y", "savings_plan_3y_usd_per_hour", "as_of", "source"], out):
        if not re.match(r"https://", r["source"].strip()):
            die(f"{where}: source: expected a URL")
        for k in ("plan_1y", "plan_3y"):
            if r[k].strip() not in SP_PLANS:
                die(f"{where}: {k}: expected one of {', '.join(SP_PLANS)}")
        out[(t, reg)] = (dec(r["savings_plan_1y_usd_per_hour"], where, positive=True),
                         dec(r["savings_plan_3y_usd_per_hour"], where, positive=True))
    return out


def attach_savings_plans(instances, sp):
    """Sets the published Savings Plan rates on their price entries; dies on
    a row whose pair the catalog does not price. Returns the count."""
    by_type = {it["type"]: it for it in instances}
    for (t, reg), (y1, y3) in sorted(sp.items()):
        it = by_type.get(t)
        if it is None or reg not in it["prices"]:
            die(f"savings plans: {t} {reg}: the catalog has no on-demand price for the pair")
        it["prices"][reg]["savings_plan_1y_usd_per_hour"] = Num(y1, 6)
        it["prices"][reg]["savings_plan_3y_usd_per_hour"] = Num(y3, 6)
    return len(sp)


def main(argv=None):
    ap = argparse.ArgumentParser(description="Build ec2fit's data/catalog.json.")
    src = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "data", "sources")
    for opt, name, what in (("ondemand", "ec2_ondemand_us-east-1.csv", "on-demand prices"),
                            ("regional", "ec2_gpu_prices_by_region.csv", "per-region prices"),
                            ("extras", "instance_extras.csv", "instance facts"),
                            ("accelerators", "accelerators.csv", "accelerator specs"),
                            ("byregion", "ec2_ondemand_by_region.csv",
                             "per-region on-demand prices, all instance types"),
                            ("spot", "spot-advisor-sample.json", "spot-advisor JSON feed"),
                            ("cpus", "cpu_families.csv", "host CPU figures per family"),
                            ("capacity_blocks", "ec2_capacity_blocks.csv",
                             "Capacity Blocks for ML reservation rates"),
                            ("savings_plans", "ec2_savings_plans.csv",
                             "published Savings Plan rates")):
        ap.add_argument(f"--{opt}", default=os.path.normpath(os.path.join(src, name)),
                        help=f"{what} (default data/sources/{name})")
    ap.add_argument("-o", "--output", required=True, help="output file (written atomically)")
    ap.add_argument("--generated-at", help="YYYY-MM-DDTHH:MM:SSZ (default: newest source "
                    "as-of date at T00:00:00Z)")
    ap.add_argument("--source-date", action="append", default=[], metavar="KIND=YYYY-MM-DD",
                    help="override the as-of date of a source (kind: ondemand, regional, "
                    "extras, accelerators, byregion, spot, cpus, capacity_blocks, savings_plans)")
    args = ap.parse_args(argv)

    try:
        dates = {opt: d for opt, _, _, d, _ in SOURCES}
        for sd in args.source_date:
            kind, _, d = sd.partition("=")
            if kind not in dates or not re.fullmatch(r"\d{4}-\d{2}-\d{2}", d):
                die(f"--source-date {sd!r}: expected KIND=YYYY-MM-DD with KIND one of "
                    f"{', '.join(dates)}")
            dates[kind] = d
        newest = max(dates.values())
        as_of = max(dates[opt] for opt, _, _, _, is_price in SOURCES if is_price)
        generated_at = args.generated_at or f"{newest}T00:00:00Z"
        if not re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z", generated_at):
            die(f"--generated-at {generated_at!r}: expected YYYY-MM-DDTHH:MM:SSZ")

        accels = load_accelerators(args.accelerators)
        ondemand = load_ondemand(args.ondemand)
        regional = load_regional(args.regional)
        byregion = load_byregion(args.byregion, ondemand)
        extras_rows = read_csv(args.extras, ["instance_type", "vcpu", "memory_mib",
                                             "gpu_name", "accelerator_name"])
        vcpus = {r["instance_type"].strip(): int_field(r["vcpu"], "vcpu") for r in extras_rows}
        mems = {r["instance_type"].strip(): int_field(r["memory_mib"], "memory_mib")
                for r in extras_rows}
        # The types the catalog gives an accelerator (GPU, fractional GPU such as
        # g6f, Neuron, Gaudi, AI 100): gpu_name or accelerator_name is set.
        accelerated = {r["instance_type"].strip() for r in extras_rows
                       if r["gpu_name"].strip() or r["accelerator_name"].strip()}
        n_linear = check_byregion_linear(byregion, vcpus, os.path.basename(args.byregion), mems,
                                         accelerated)
        n_cross = check_byregion_crosscheck(byregion, regional, os.path.basename(args.byregion),
                                            os.path.basename(args.regional))
        spot = load_spot(args.spot)
        cpus = load_cpu_families(args.cpus)
        instances, left_out, no_price_accel, not_in_extras, mismatches = build_instances(
            args.extras, accels, ondemand, regional, spot, cpus, byregion)
        cb_attached, cb_skipped = attach_capacity_blocks(
            instances, load_capacity_blocks(args.capacity_blocks))
        sp_attached = attach_savings_plans(instances, load_savings_plans(args.savings_plans))
        audit = audit_catalog(instances, accels)
        audit[OFFERED_RULE] = audit_offered(instances, ondemand, regional, byregion)
    except GenError as e:
        print(f"gen_catalog: error: {e}", file=sys.stderr)
        return 1

    sources = [{"id": sid, "file": os.path.basename(getattr(args, opt)), "origin": origin,
                "as_of": dates[opt]} for opt, sid, origin, _, _ in SOURCES]
    accel_list = [{k: v for k, v in a.items() if not k.startswith("_")}
                  for _, a in sorted(accels.items())]

    lines = ["{" + f'"schema_version":{SCHEMA_VERSION},'
             f'"generated_at":{dumps(generated_at)},"as_of":{dumps(as_of)},']

    def block(key, items, last):
        lines.append(f'"{key}":[')
        for j, it in enumerate(items):
            lines.append(dumps(it) + ("," if j + 1 < len(items) else ""))
        lines.append("]" + ("}" if last else ","))

    block("sources", sources, False)
    block("accelerators", accel_list, False)
    block("instances", instances, True)
    text = "\n".join(lines) + "\n"
    json.loads(text)  # self-check: must be valid JSON

    write_atomic(args.output, text, prefix=".catalog.")

    regions = sorted({reg for it in instances for reg in it["prices"]})
    err = sys.stderr
    print(f"gen_catalog: wrote {args.output}: {len(instances)} instances, {len(accel_list)} "
          f"accelerators, {len(regions)} regions, {len(text.encode())} bytes", file=err)
    filled = sum(1 for it in instances for reg in it["prices"]
                 if reg in byregion.get(it["type"], {}) and reg != "us-east-1"
                 and reg not in regional.get(it["type"], {}))
    print(f"gen_catalog: {os.path.basename(args.byregion)}: {len(byregion)} types, {filled} "
          f"(type, region) prices filled; {n_linear} prices proportional to size; "
          f"{n_cross} prices agree with {os.path.basename(args.regional)} (pairs both list)",
          file=err)
    for rule, count in audit.items():
        print(f"gen_catalog: rule {rule}: {count} checked, 0 violations", file=err)
    if DROPPED_SPOT:
        print(f"gen_catalog: no spot estimate where the Spot Advisor gives no discount "
              f"(savings <= 0): {', '.join(DROPPED_SPOT)}", file=err)
    if no_price_accel:
        print(f"gen_catalog: kept without any public price (prices {{}}): "
              f"{', '.join(no_price_accel)}", file=err)
    if left_out:
        print(f"gen_catalog: left out {len(left_out)} CPU-only types with no price in either "
              f"price file: {', '.join(left_out)}", file=err)
    if not_in_extras:
        print(f"gen_catalog: left out {len(not_in_extras)} priced types missing from "
              f"{os.path.basename(args.extras)} (no hardware facts): {', '.join(not_in_extras)}",
              file=err)
    print(f"gen_catalog: {os.path.basename(args.capacity_blocks)}: {cb_attached} Capacity "
          f"Block rates attached; not packed (no catalog price for the pair): "
          f"{', '.join(cb_skipped) or 'none'}", file=err)
    print(f"gen_catalog: {os.path.basename(args.savings_plans)}: {sp_attached} published "
          f"Savings Plan rate pairs attached", file=err)
    for m in mismatches:
        print(f"gen_catalog: price mismatch: {m}", file=err)
    if not mismatches:
        print("gen_catalog: us-east-1 prices agree between the ondemand and regional files",
              file=err)
    return 0


if __name__ == "__main__":
    sys.exit(main())
