#!/usr/bin/env python3
"""html_check.py - checks on an ec2fit HTML report rendered by headless
Chromium (tests/scripts/test_html_report.sh).

  html_check.py notes DOM.html REC.json   every note of --output json (plan
      warnings of the shown plans, alternatives, Auto Scaling, closest
      misses) appears in the page's text
  html_check.py chart DOM.html            from html_probe.js: every label
      inside the viewBox and clear of the others, one label per point, tick
      values on a 1-2-5 grid, no table cell of a short value wrapped
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


def notes(dom, rec, top):
    text, j, bad = page_text(dom), json.load(open(rec)), []
    want = []
    for p in j["recommendations"][:top]:
        want += [w["reason"] for w in p["warnings"]]
    for a in j.get("alternatives", []):
        want.append(a["name"])
        if "reason" in a:
            want.append(a["reason"])
    for m in j.get("closest_misses", []):
        want.append(m["reason"])
    if j.get("autoscaling"):
        s = j["autoscaling"]
        want.append(f"minimum {s['min_instances']}, maximum {s['max_instances']} instances")
    for w in want:
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


def main():
    if sys.argv[1] == "notes":
        bad = notes(sys.argv[2], sys.argv[3], int(sys.argv[4]) if len(sys.argv) > 4 else 5)
    else:
        bad = chart(sys.argv[2])
    for b in bad:
        print(b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
