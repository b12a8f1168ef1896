#!/usr/bin/env python3
"""report_text.py - the customer reports (--output markdown, html) carry
no command-line flag and explain their order, over generated workloads.

Usage: report_text.py EC2FIT OUT_DIR

For each workload (a deterministic sweep: every task, GPU / Neuron / CPU
outcomes, several regions, long multi-node jobs whose spot plans carry
the spot-capacity note, and runs with no plan whose closest misses are
shown), renders --output json, markdown and html with --top 10 and checks:

  flags   neither report's text has a flag ("--purchase", "--max-nodes"):
          a note written for the command line names its flag in a
          parenthesis, which the reports drop (render_report.c,
          ecf_rr_customer_text). HTML text is the page without its
          style and markup.
  latency every Latency cell (non-LLM serving) is the JSON's latency_ms
          to within 5%: a sub-millisecond latency is not "0 ms".
  ranges  each row's time (or latency) and cost cells read the same in
          Markdown as in HTML: the figure with its likely range
          (docs/estimation.md "Ranges"; issue 25: formats cannot disagree).
  order   every plan the JSON ranks with a penalty (score above the
          objective's column) says "ranked +N%" in its HTML row, as the
          table and Markdown do (issue 24, point 6: ranks are shown in
          the order of the column the objective names, or the score
          beside them).

Prints the counts and one line per failure; exit 1 on any failure or when
the sweep reaches neither a flag-carrying note nor a penalised plan.
"""
import html
import json
import os
import re
import subprocess
import sys

EC2FIT, OUT = sys.argv[1], sys.argv[2]
FLAG = re.compile(r"(?<![\w/-])--[a-z][a-z0-9-]*")


def workloads():
    for m in ("resnet50", "bert-base", "llama-3.1-8b", "flux-1-dev",
              "whisper-large-v3", "distilbert", "sdxl", "qwen2.5-7b"):
        for region in ("us-east-1", "eu-west-1", "ap-northeast-1",
                       "sa-east-1"):
            if m in ("llama-3.1-8b", "distilbert", "whisper-large-v3",
                     "resnet50", "bert-base"):
                yield ["--model", m, "--task", "infer", "--qps", "5",
                       "--region", region]
            yield ["--model", m, "--task", "batch", "--dataset", "1M",
                   "--region", region]
    for m in ("resnet50", "bert-large", "llama-3.2-1b", "gemma-2-9b"):
        yield ["--model", m, "--task", "train", "--dataset", "10M",
               "--spot"]
    # long multi-node training: spot plans on capacity-scarce types carry
    # the spot-capacity note, which names a purchase option
    for p, days in (("7B", "30d"), ("13B", "30d"), ("70B", "14d")):
        yield ["--params", p, "--task", "train", "--dataset", "1T",
               "--deadline", days]
    yield ["--model", "llama-3.1-8b", "--task", "lora", "--dataset", "100M",
           "--budget", "500", "--region", "eu-west-1"]
    # no plan: the closest misses are shown instead
    yield ["--model", "llama-3.1-70b", "--task", "lora", "--dataset",
           "100M", "--budget", "1"]
    yield ["--model", "llama-3.1-8b", "--task", "infer", "--qps", "100000"]
    yield ["--model", "llama-3.1-405b", "--task", "train", "--dataset",
           "1T", "--deadline", "1h"]


def page_text(page):
    t = re.sub(r"<style.*?</style>", " ", page, flags=re.S)
    t = re.sub(r"<[^>]+>", " ", t)
    return html.unescape(t)


def plan_table(fmt, out, name_of, cell_of):
    """(column names, ranked rows) of the plans table of an HTML or Markdown
    report; HTML names and cells go through name_of and cell_of."""
    if fmt == "html":
        head = re.search(r'<table class="plans">.*?</thead>', out, flags=re.S)
        names = [name_of(n) for n in
                 re.findall(r"<th[^>]*>(.*?)</th>", head.group(0))] if head else []
        return names, [[cell_of(c) for c in
                        re.findall(r"<td[^>]*>(.*?)</td>", r, flags=re.S)]
                       for r in html_rows(out)]
    lines = [ln for ln in out.splitlines() if ln.startswith("| ")]
    if not lines:
        return [], []
    names = [c.strip() for c in lines[0].strip("|").split("|")]
    return names, [[c.strip() for c in ln.strip("|").split("|")]
                   for ln in lines[1:] if re.match(r"\| \d+ \|", ln)]


def latency_cells(fmt, out):
    """The Latency column's figures of the ranked table (non-LLM serving
    plans; an LLM's TTFT / TPOT cell is not one), in rank order."""
    names, rows = plan_table(fmt, out, lambda n: n, lambda c: c)
    if "Latency" not in names:
        return []
    i = names.index("Latency")
    cells = []
    for r in rows:
        m = re.match(r"\s*([0-9][0-9,]*(?:\.[0-9]+)?) ms", r[i]) \
            if i < len(r) else None
        cells.append(float(m.group(1).replace(",", "")) if m else None)
    return cells


def figure_cells(fmt, out):
    """(time-or-latency cell, cost cell) of each ranked row, whitespace
    folded: the figures with their likely ranges."""
    names, rows = plan_table(fmt, out, html.unescape,
                             lambda c: html.unescape(re.sub(r"<[^>]+>", "", c)))
    a = next((i for i, n in enumerate(names)
              if n in ("Time", "Latency", "TTFT / TPOT", "Throughput")), None)
    b = next((i for i, n in enumerate(names)
              if n in ("Total", "Monthly", "$/month", "$/1M")), None)
    if a is None or b is None:
        return []
    fold = lambda c: re.sub(r"\s+", " ", c).strip()
    return [(fold(r[a]), fold(r[b])) for r in rows if len(r) > max(a, b)]


def html_rows(page):
    body = page.split('<table class="plans">', 1)
    if len(body) < 2:
        return []
    body = body[1].split("</table>", 1)[0]
    return re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S)[1:]


def main():
    os.makedirs(OUT, exist_ok=True)
    failures, runs, noplan, penalised, hinted = [], 0, 0, 0, 0
    latencies = agreed = 0
    for wl in workloads():
        args = [EC2FIT, "recommend"] + wl + ["--top", "10"]
        js = subprocess.run(args + ["-o", "json"], capture_output=True,
                            text=True)
        if js.returncode not in (0, 3):
            failures.append(f"{' '.join(wl)}: json exit {js.returncode}: "
                            f"{js.stderr.strip()}")
            continue
        runs += 1
        rec = json.loads(js.stdout) if js.stdout.strip() else {}
        plans = rec.get("recommendations", [])[:10]
        if not plans:
            noplan += 1
        if FLAG.search(js.stdout):
            hinted += 1  # the JSON keeps the command-line hints
        cells = {}
        for fmt in ("markdown", "html"):
            p = subprocess.run(args + ["-o", fmt], capture_output=True,
                               text=True)
            if p.returncode != js.returncode:
                failures.append(f"{' '.join(wl)}: {fmt} exit {p.returncode}, "
                                f"json {js.returncode}")
                continue
            text = page_text(p.stdout) if fmt == "html" else p.stdout
            cells[fmt] = figure_cells(fmt, p.stdout)
            for hit in sorted(set(FLAG.findall(text))):
                i = text.find(hit)
                failures.append(f"{' '.join(wl)}: {fmt}: flag {hit} in "
                                f"{text[max(0, i - 60):i + 40]!r}")
            for k, shown in enumerate(latency_cells(fmt, p.stdout)):
                if k >= len(plans) or shown is None:
                    continue
                want = plans[k].get("latency_ms") or 0
                latencies += 1
                if want > 0 and abs(shown - want) > 0.05 * want + 1e-9:
                    failures.append(f"{' '.join(wl)}: {fmt}: rank {k + 1} "
                                    f"latency {shown} ms, JSON {want} ms")
            if fmt != "html":
                continue
            rows = html_rows(p.stdout)
            for k, pl in enumerate(plans):
                # the JSON rounds costs to cents: the ratio is exact
                # enough from $5 on
                c = pl.get(col(rec)) or 0
                if c < 5:
                    continue
                pen = round(100 * (pl["score"] / c - 1))
                if pen < 1:
                    if k < len(rows) and "ranked +" in rows[k]:
                        failures.append(f"{' '.join(wl)}: html: rank {k + 1} "
                                        "says 'ranked +' without a penalty")
                    continue
                penalised += 1
                want = f"ranked +{pen}%"
                if k >= len(rows) or want not in rows[k]:
                    failures.append(f"{' '.join(wl)}: html: rank {k + 1} "
                                    f"({pl['instance_type']}) lacks {want!r}")
        # both reports state each figure with the same likely range
        md, ht = cells.get("markdown", []), cells.get("html", [])
        if len(md) != len(ht):
            failures.append(f"{' '.join(wl)}: {len(md)} Markdown rows, "
                            f"{len(ht)} HTML rows")
        for k, (m, h) in enumerate(zip(md, ht)):
            agreed += 1
            if m != h:
                failures.append(f"{' '.join(wl)}: rank {k + 1}: Markdown "
                                f"{m!r} != HTML {h!r}")
    for f in failures:
        print(f)
    print(f"report text: {runs} workloads ({noplan} without a plan), "
          f"{2 * runs} reports; {hinted} JSON documents carry a flag hint; "
          f"{penalised} penalised plans checked in HTML; "
          f"{latencies} latency cells within 5% of the JSON; "
          f"{agreed} rows with the same figures and ranges in both reports; "
          f"{len(failures)} failures")
    if hinted == 0 or penalised == 0:
        print("the sweep reached no flag hint or no penalised plan")
        return 1
    return 1 if failures else 0


def col(rec):
    """The JSON member of the column the objective names (--optimize
    cost, the default): the run's cost basis."""
    return {"total": "total_usd", "monthly": "monthly_usd"}.get(
        rec.get("cost_basis"), "usd_per_million")


if __name__ == "__main__":
    sys.exit(main())
