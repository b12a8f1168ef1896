#!/usr/bin/env python3
"""html_check.py - checks on an ec2fit HTML report rendered by headless
Chromium (tests/scripts/test_html_report.sh).

  html_check.py notes DOM.html REC.json   every note of --output json (plan
      warnings of the shown plans, alternatives, Auto Scaling, closest
      misses) appears in the page's text
  html_check.py chart DOM.html            from html_probe.js: every label
      inside the viewBox and clear of the others, one label per point, tick
      values on a 1-2-5 grid, no table cell of a short value wrapped
  html_check.py rows DOM.html REC.json     every row of the ranked table has
      the instance, region, purchase, $/hour and total/monthly/$1M cost of
      the JSON plan of the same rank (to the decimals shown)
  html_check.py labels DOM.html           every chart label names a plotted
      point (data-rank) and is nearer to it than to any other point, or is
      tied to it by a leader line
  html_check.py layout DOM.html           nothing outside a .wide scroll
      container reaches past the window's right edge (no sideways scroll)
  html_check.py counts DOM.html REC.json  the page's counts are the JSON
      summary's and add up (feasible + rejected = options)
Prints one line per problem; exit 1 if any.
"""
import html
import json
import math
import re
import sys
from html.parser import HTMLParser


class Text(HTMLParser):
    def __init__(self):
        super().__init__()
        self.parts, self.skip = [], 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style", "title") or dict(attrs).get("id") == "probe":
            self.skip += 1

    def handle_endtag(self, tag):
        if tag in ("script", "style", "title", "pre") and self.skip:
            self.skip -= 1

    def handle_data(self, d):
        if not self.skip:
            self.parts.append(d)


def page_text(path):
    t = Text()
    t.feed(open(path, encoding="utf-8").read())
    return re.sub(r"\s+", " ", "".join(t.parts))


_HINT_ALONE = re.compile(r" ?\(--[a-z0-9-]+(?: [a-z0-9-]+)?\)")
_HINT_LEAD = re.compile(r"\(--[a-z0-9-]+, ")


def customer_text(s):
    """A note as the reports word it for a customer: a flag hint in
    parentheses dropped, a hint leading a longer parenthesis reduced to
    the rest (render_report.c, ecf_rr_customer_text)."""
    return _HINT_LEAD.sub("(", _HINT_ALONE.sub("", s))


def notes(dom, rec, top):
    text, j, bad = page_text(dom), json.load(open(rec)), []
    want = []
    for p in j["recommendations"][:top]:
        want += [w["reason"] for w in p["warnings"]]
        want += p.get("notes", [])
    for a in j.get("alternatives", []):
        if not (a["feasible"] and a["cheaper_than_rank_1"]):
            continue  # offered only when feasible and cheaper than rank 1
        want.append(a["name"])
        if "reason" in a:
            want.append(a["reason"])
    for m in j.get("closest_misses", []):
        want.append(m["reason"])
    if j.get("autoscaling"):
        s = j["autoscaling"]
        want.append(f"minimum {s['min_instances']}, maximum {s['max_instances']} instances")
    for w in want:
        w = customer_text(w)
        if re.sub(r"\s+", " ", w) not in text:
            bad.append(f"missing from the page: {w!r}")
    print(f"{len(want)} notes checked")
    return bad


def on_125(values, log):
    """Linear: equal steps of 1, 2 or 5 x 10^k starting on a multiple of the
    step; log: every value 1, 2 or 5 x 10^k."""
    if not values:
        return False
    if log:
        return all(round(v / 10 ** math.floor(math.log10(v)), 9) in (1, 2, 5)
                   for v in values if v > 0)
    steps = {round(b - a, 9) for a, b in zip(values, values[1:])}
    if len(steps) != 1:
        return False
    s = steps.pop()
    m = round(s / 10 ** math.floor(math.log10(s)), 9)
    return m in (1, 2, 5) and abs(values[0] / s - round(values[0] / s)) < 1e-6


def num(t):
    return float(t.replace("$", "").replace(",", ""))


def chart(dom):
    m = re.findall(r'<pre id="probe">(\{.*?)</pre>', open(dom, encoding="utf-8").read(), re.S)
    if not m:
        return ["no probe output (did the script run?)"]
    p, bad = json.loads(html.unescape(m[-1])), []
    x, y, w, h = p["viewBox"]
    for lab in p["labels"] + p["xticks"] + p["yticks"] + p.get("axes", []):
        if lab["x0"] < x - 0.5 or lab["y0"] < y - 0.5 or lab["x1"] > x + w + 0.5 or lab["y1"] > y + h + 0.5:
            bad.append(f"label outside the viewBox {p['viewBox']}: {lab}")
    if len(p["labels"]) != p["circles"]:
        bad.append(f"{len(p['labels'])} labels for {p['circles']} points")
    L = p["labels"]
    for i in range(len(L)):
        for k in range(i + 1, len(L)):
            a, b = L[i], L[k]
            if a["x0"] < b["x1"] - 1 and b["x0"] < a["x1"] - 1 and a["y0"] < b["y1"] - 1 and b["y0"] < a["y1"] - 1:
                bad.append(f"labels overlap: {a['text']!r} and {b['text']!r}")
    for ticks, axis in ((p["xticks"], "x"), (p["yticks"], "y")):
        vals = [num(t["text"]) for t in ticks]
        if not (on_125(vals, False) or on_125(vals, True)):
            bad.append(f"{axis} ticks not on a 1-2-5 grid: {[t['text'] for t in ticks]}")
    if p["wrapped"]:
        bad.append(f"table cells wrapped: {p['wrapped']}")
    print(f"{len(L)} labels, {len(p['xticks'])}+{len(p['yticks'])} ticks checked")
    return bad


def probe(dom):
    m = re.findall(r'<pre id="probe">(\{.*?)</pre>', open(dom, encoding="utf-8").read(), re.S)
    return json.loads(html.unescape(m[-1])) if m else None


def first_num(cell):
    m = re.search(r"[0-9][0-9,]*(\.[0-9]+)?", cell)
    if not m:
        return None, 0
    t = m.group(0)
    return float(t.replace(",", "")), len(t.split(".")[1]) if "." in t else 0


def rows(dom, rec):
    p, j, bad = probe(dom), json.load(open(rec)), []
    if p is None:
        return ["no probe output (did the script run?)"]
    plans = j["recommendations"]
    basis = j["cost_basis"]
    key = {"total": "total_usd", "monthly": "monthly_usd", "per_million": "usd_per_million"}[basis]
    if len(p["rows"]) != min(len(plans), len(p["rows"])) or not p["rows"]:
        bad.append(f"{len(p['rows'])} table rows for {len(plans)} JSON plans")
    for row, pl in zip(p["rows"], plans):
        rank, inst, nodes, purch, region = (c.strip() for c in row[:5])
        if int(rank) != pl["rank"]:
            bad.append(f"row rank {rank} != JSON rank {pl['rank']}")
        label = purchase_label(pl)
        for name, got, want in (("instance", inst, pl["instance_type"]),
                                ("nodes", nodes, str(pl["nodes"])),
                                ("purchase", purch, label),
                                ("region", region, pl["region"])):
            if got != want:
                bad.append(f"rank {rank}: {name} {got!r} != JSON {want!r}")
        for name, cell, want in (("$/hour", row[8], pl["hourly_usd"]),
                                 (key, row[9], pl[key])):
            got, dec = first_num(cell)
            if got is None or want is None or abs(got - want) > 0.5 * 10 ** -dec + 1e-9:
                bad.append(f"rank {rank}: {name} cell {cell!r} != JSON {want}")
    print(f"{len(p['rows'])} rows checked against the JSON")
    return bad


def labels(dom):
    p, bad = probe(dom), []
    if p is None:
        return ["no probe output (did the script run?)"]
    dots = {d["rank"]: d for d in p["dots"]}
    for lab in p["labels"]:
        r = lab.get("rank")
        if r not in dots:
            bad.append(f"label {lab['text']!r}: no point of rank {r}")
            continue
        if not lab["text"].startswith(f"#{r} "):
            bad.append(f"label {lab['text']!r} carries data-rank {r}")

        def d(pt):
            dx = max(lab["x0"] - pt["cx"], 0, pt["cx"] - lab["x1"])
            dy = max(lab["y0"] - pt["cy"], 0, pt["cy"] - lab["y1"])
            return math.hypot(dx, dy)
        own = d(dots[r])
        near = [k for k, pt in dots.items() if k != r and d(pt) < own - 1
                and math.hypot(pt["cx"] - dots[r]["cx"], pt["cy"] - dots[r]["cy"]) > 1]
        if near and r not in p["leaders"]:
            bad.append(f"label {lab['text']!r} is nearer to point(s) #{near} than to its own "
                       f"({own:.1f} units) and has no leader line")
    print(f"{len(p['labels'])} labels checked against {len(dots)} points")
    return bad


def layout(dom):
    p = probe(dom)
    if p is None:
        return ["no probe output (did the script run?)"]
    L, bad = p["layout"], []
    if L["scrollWidth"] > L["innerWidth"]:
        bad.append(f"page scrolls sideways: scrollWidth {L['scrollWidth']} > window {L['innerWidth']}")
    for o in L["over"][:10]:
        bad.append(f"past the right edge ({L['innerWidth']} px): {o}")
    print(f"window {L['innerWidth']} px, page {L['scrollWidth']} px")
    return bad


def purchase_label(pl):
    """The purchase as the report shows it: the JSON's, or a capacity-block
    plan's window (issue 26), "capacity block 14 d x 104 nodes"."""
    label, cb, n = pl["purchase"], pl.get("capacity_block"), pl["nodes"]
    if label == "capacity-block" and cb:
        label = f"capacity block {cb['days']} d x {n} node{'s' if n != 1 else ''}"
    return label


def counts(dom, rec):
    text, j = page_text(dom), json.load(open(rec))
    s = j["summary"]
    f = lambda n: f"{n:,}"
    opts = s["plans"] + s["rejected"]
    want = f"{f(s['candidates'])} candidate"
    tail = f"{f(s['plans'])} feasible plan{'s' if s['plans'] != 1 else ''}, {f(s['rejected'])} rejected"
    cb, spot = s.get("capacity_block_plans", 0) > 0, j["workload"]["spot_considered"]
    kinds = ("on-demand, spot and capacity blocks" if cb and spot else
             "on-demand and capacity blocks" if cb else "on-demand and spot")
    if opts != s["candidates"]:
        want += f"s (types × regions) priced as {f(opts)} options ({kinds}): " + tail
    else:
        want += f"{'s' if s['candidates'] != 1 else ''} (types × regions): " + tail
    print(f"counts: {want}")
    return [] if want in text else [f"missing from the page: {want!r}"]


def main():
    if sys.argv[1] == "notes":
        bad = notes(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
    elif sys.argv[1] == "rows":
        bad = rows(sys.argv[2], sys.argv[3])
    elif sys.argv[1] == "labels":
        bad = labels(sys.argv[2])
    elif sys.argv[1] == "layout":
        bad = layout(sys.argv[2])
    elif sys.argv[1] == "counts":
        bad = counts(sys.argv[2], sys.argv[3])
    else:
        bad = chart(sys.argv[2])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
