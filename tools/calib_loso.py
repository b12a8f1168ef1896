#!/usr/bin/env python3
"""Per-kind median and P90 |error|, and leave-one-source-out medians, from
calib_report's row listing; with two listings, what moved between them.

usage: tools/calib_loso.py REPORT.txt [AFTER.txt]
  REPORT.txt: the output of build/tests/calib_report tests/fixtures/calibration.json
  (run from the repository root: the fixture names each row's source group)

A change that generalises moves the median with any one source group held
out, not only with all of them in (docs/calibration.md, "Leave one source
out"). P90 is the linear-interpolation percentile calib_report's range
table uses (tools/calib_ranges.c pctl); the errors are the listing's, rounded
to 0.1%, so a median can differ from calib_report's own by 0.1.
"""
import json
import os
import statistics
import sys

KINDS = ('memory', 'train_throughput', 'time_to_train', 'infer_throughput',
         'infer_latency')
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIX = [r for r in json.load(open(os.path.join(ROOT, 'tests/fixtures/calibration.json')))['rows']]
GROUP = {r['id']: r['source_group'] for r in FIX}
ORDER = [r['id'] for r in FIX]


def rows(path):
    """row id -> (kind, signed error %); the report cuts ids at 52
    characters, so a cut id takes the first unused fixture id it starts."""
    out = {}
    for line in open(path):
        f = line.split()
        if len(f) < 6 or f[1] not in KINDS or f[2] not in ('use', 'outlier') \
                or not f[-1].endswith('%'):
            continue
        rid = f[0]
        if rid not in GROUP or rid in out:
            rid = next(k for k in ORDER if k.startswith(f[0]) and k not in out)
        out[rid] = (f[1], float(f[-1].rstrip('%')))
    return out


def p90(v):
    v = sorted(v)
    h = (len(v) - 1) * 0.9
    lo = int(h)
    return v[-1] if lo + 1 >= len(v) else v[lo] + (h - lo) * (v[lo + 1] - v[lo])


def summary(r):
    s = {}
    for k in KINDS:
        e = [(GROUP[i], abs(x[1])) for i, x in r.items() if x[0] == k]
        if not e:
            continue
        a = [x for _, x in e]
        loso = {g: statistics.median([x for h, x in e if h != g])
                for g in sorted({g for g, _ in e}) if any(h != g for h, _ in e)}
        s[k] = (len(a), statistics.median(a), p90(a), loso)
    return s


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(__doc__.strip())
    a = summary(rows(sys.argv[1]))
    b = summary(rows(sys.argv[2])) if len(sys.argv) == 3 else None
    for k in KINDS:
        if k not in a:
            continue
        n, med, q, loso = a[k]
        line = '%-17s %4d rows  median %5.1f%%  P90 %5.1f%%' % (k, n, med, q)
        if b:
            line += '  ->  median %5.1f%%  P90 %5.1f%%' % (b[k][1], b[k][2])
        print(line)
        for g, m in loso.items():
            if b is None:
                print('    without %-28s %5.1f%%' % (g, m))
            elif abs(b[k][3][g] - m) >= 0.05:
                print('    without %-28s %5.1f%% -> %5.1f%%' % (g, m, b[k][3][g]))


if __name__ == '__main__':
    main()
