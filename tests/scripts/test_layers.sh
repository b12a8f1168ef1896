#!/usr/bin/env bash
# The layering of docs/architecture.md, from the #include lines of src/ and
# include/ec2fit/ (a copy of the tree may be given as $1: the self-test
# below injects violations into one):
#   - edges go cli -> render -> model -> estimate -> data -> util; aws reaches only
#     util, and only src/cli/cmd_update{.c,.h,_fetch.c} and
#     src/cli/cli_catalog.c (the price cache) include an aws header;
#   - no include cycle between modules (a module is x.h with x.c and
#     x_internal.h; cmd.h's helpers are cli_common.c);
#   - no source file over 900 lines; every file opens with a comment;
#   - below src/cli nothing reads the environment or argv, or prints:
#     no getenv, argv, printf, puts, exit, stdout or stderr (a message
#     on stderr right before abort() on an impossible failure excepted);
#     renderers write to the FILE * they are given.
set -u
. "$(dirname "$0")/checks.sh"
root=${1:-$SRC_DIR}

layers_check() { # prints one line per violation
  python3 - "$1" <<'PY'
import os, re, sys
root = sys.argv[1]
rank = {"util": 0, "data": 1, "estimate": 2, "model": 3, "render": 4, "cli": 5}
layers = list(rank) + ["aws"]
aws_users = {"src/cli/cmd_update.c", "src/cli/cmd_update.h",
             "src/cli/cmd_update_fetch.c", "src/cli/cli_catalog.c",
             "src/cli/cli_config.c"}
# public headers whose layer is not the folder of a same-name .c file
public_layer = {"result": "model", "rules_set": "data", "ec2fit": "umbrella"}
module_merge = {"src/cli/cmd.h": "src/cli/cli_common.c"}

files = []
for layer in layers:
    d = os.path.join(root, "src", layer)
    for f in sorted(os.listdir(d)) if os.path.isdir(d) else []:
        if f.endswith((".c", ".h")):
            files.append("src/%s/%s" % (layer, f))
for f in sorted(os.listdir(os.path.join(root, "include/ec2fit"))):
    if f.endswith(".h"):
        files.append("include/ec2fit/" + f)
stray = [f for f in os.listdir(os.path.join(root, "src")) if f.endswith((".c", ".h"))]
out = []
for f in stray:
    out.append("src/%s: a source file outside the layer folders" % f)

def stem(p):
    return os.path.splitext(os.path.basename(p))[0]

def layer_of(p):
    if p.startswith("src/"):
        return p.split("/")[1]
    s = stem(p)
    if s in public_layer:
        return public_layer[s]
    srcs = [q for q in files if q.startswith("src/") and q.endswith(".c")]
    homes = {q.split("/")[1] for q in srcs if stem(q) == s} or \
            {q.split("/")[1] for q in srcs if stem(q).startswith(s + "_")}
    if len(homes) == 1:
        return homes.pop()
    out.append("%s: no single layer implements it (%s); add it to public_layer" %
               (p, ", ".join(sorted(homes)) or "none"))
    return None

def resolve(frm, inc):
    if inc.startswith("ec2fit/"):
        p = "include/" + inc
        return p if p in files else None
    same = os.path.join(os.path.dirname(frm), inc)
    if same in files:
        return same
    hits = [q for q in files if q.startswith("src/") and os.path.basename(q) == inc]
    return hits[0] if len(hits) == 1 else None

def code_lines(path):
    text = open(os.path.join(root, path), encoding="utf-8").read()
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r'"(\\.|[^"\\\n])*"', '""', text)
    return [re.sub(r"//.*", "", l) for l in text.split("\n")]

inc_re = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
edges = {}
for f in files:
    raw = open(os.path.join(root, f), encoding="utf-8").read()
    lines = raw.split("\n")
    if len(lines) - 1 > 900:
        out.append("%s: %d lines (over 900: split it by concern)" % (f, len(lines) - 1))
    if not raw.lstrip().startswith("/*"):
        out.append("%s: does not open with a comment saying what it owns" % f)
    lf = layer_of(f)
    for n, line in enumerate(lines, 1):
        m = inc_re.match(line)
        if not m:
            continue
        to = resolve(f, m.group(1))
        if to is None:
            if not m.group(1).startswith("../"):
                out.append("%s:%d: cannot resolve #include \"%s\"" % (f, n, m.group(1)))
            continue
        edges.setdefault(f, set()).add(to)
        lt = layer_of(to)
        if lf is None or lt is None or lf == lt or lf == "umbrella":
            continue
        if lt == "aws":
            ok = lf == "aws" or f in aws_users
        elif lf == "aws":
            ok = lt == "util"
        elif lt == "umbrella":
            ok = False
        else:
            ok = rank[lf] > rank[lt]
        if not ok:
            out.append("%s:%d: %s -> %s: forbidden edge (%s includes %s)" %
                       (f, n, lf, lt, os.path.basename(f), m.group(1)))
    if f.startswith("src/") and lf not in ("cli",) and f.endswith(".c"):
        cl = code_lines(f)
        for n, line in enumerate(cl, 1):
            for pat, what in ((r"\bgetenv\s*\(", "getenv"), (r"\bargv\b", "argv"),
                              (r"\bv?printf\s*\(", "printf"), (r"\bputs\s*\(", "puts"),
                              (r"\bputchar\s*\(", "putchar"), (r"\bexit\s*\(", "exit"),
                              (r"\bstdout\b", "stdout"), (r"\bstderr\b", "stderr")):
                if not re.search(pat, line):
                    continue
                if what == "stderr" and any("abort()" in x for x in cl[n:n + 3]):
                    continue  # the last word before abort() on an impossible failure
                out.append("%s:%d: %s below src/cli (only the CLI reads the "
                           "environment and argv or prints)" % (f, n, what))

# modules: x.h + x.c + x_internal.h (+ the merges above)
def module(p):
    p = module_merge.get(p, p)
    s = stem(p)
    return s[:-len("_internal")] if s.endswith("_internal") else s
g = {}
for f, tos in edges.items():
    for t in tos:
        a, b = module(f), module(t)
        if a != b:
            g.setdefault(a, set()).add(b)
state, stack, cycles = {}, [], []
def dfs(u):
    state[u] = 1
    stack.append(u)
    for v in sorted(g.get(u, ())):
        if state.get(v) == 1:
            cycles.append(stack[stack.index(v):] + [v])
        elif v not in state:
            dfs(v)
    stack.pop()
    state[u] = 2
for u in sorted(g):
    if u not in state:
        dfs(u)
for c in cycles:
    out.append("include cycle: " + " -> ".join(c))
for o in dict.fromkeys(out):
    print(o)
PY
}

report=$(layers_check "$root")
[ -n "$report" ] && echo "$report"
check "the layering of docs/architecture.md holds in $root" test -z "$report"

# Self-test: each injected fault must be reported (on a scratch copy).
if [ -z "${1:-}" ]; then
  rm -rf "$WORK" && mkdir -p "$WORK"
  inject() { # name, file, sed expression or 'append:TEXT'
    rm -rf "$WORK/t" && mkdir -p "$WORK/t" && cp -r "$SRC_DIR/src" "$SRC_DIR/include" "$WORK/t/"
    case $3 in
      append:*) printf '%b' "${3#append:}" >> "$WORK/t/$2" ;;
      *) sed -i "$3" "$WORK/t/$2" ;;
    esac
    layers_check "$WORK/t"
  }
  r=$(inject edge src/model/filter.c '0,/^#include/s//#include "recommend_render.h"\n#include/')
  check "catches model -> render (got: $r)" grep -q 'filter.c:.*model -> render: forbidden edge' <<<"$r"
  r=$(inject up src/estimate/estimate.c '0,/^#include/s//#include "recommend_internal.h"\n#include/')
  check "catches estimate -> model (got: $r)" grep -q 'estimate.c:.*estimate -> model: forbidden edge' <<<"$r"
  r=$(inject aws src/data/zoo.c '0,/^#include/s//#include "ec2fit\/http.h"\n#include/')
  check "catches data -> aws (got: $r)" grep -q 'zoo.c:.*data -> aws: forbidden edge' <<<"$r"
  r=$(inject cycle src/cli/cli_common.c '0,/^#include "cmd.h"/s//#include "cmd.h"\n#include "cli_config.h"/')
  check "catches cli_common <-> cli_config (got: $r)" grep -q 'include cycle: .*cli_config' <<<"$r"
  r=$(inject long src/util/units.c "append:$(printf '/* x */\\n%.0s' $(seq 700))")
  check "catches a file over 900 lines (got: $r)" grep -q 'units.c: [0-9]* lines (over 900' <<<"$r"
  r=$(inject env src/model/filter.c 'append:static const char *f_env(void) { return getenv("HOME"); }\n')
  check "catches getenv below cli (got: $r)" grep -q 'filter.c:[0-9]*: getenv below src/cli' <<<"$r"
  r=$(inject print src/render/render_karpenter.c 'append:static void f_p(void) { fprintf(stderr, "x"); }\n')
  check "catches fprintf(stderr) in render (got: $r)" grep -q 'render_karpenter.c:[0-9]*: stderr below src/cli' <<<"$r"
  r=$(inject comment src/util/buf.c '1,/\*\//d')
  check "catches a file without its opening comment (got: $r)" grep -q 'buf.c: does not open with a comment' <<<"$r"
fi
finish
