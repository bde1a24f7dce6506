#!/usr/bin/env python3
"""Linear scans (issue 38, point 6): what a module of many files, a call
of many unknown arguments and a module of many calls cost, whole process,
against the reference program `tforacle -tree` in the same run.

Usage:
  scale_bench.py files|args|calls --harness BENCH_CMD --tfresolve TFRESOLVE
                 --data DATADIR [--sizes N,N,...] [--tforacle PATH]
  scale_bench.py gen files|args|calls OUTDIR N   (write one input and stop)

files: a root module of N .tf files, each declaring one string variable
  with a default (and main.tf calling ./child with one of them):
  `tfresolve show -json`.  Sizes 1,000 to 8,000.
args: a call of ./child (100 variables, input_000 to input_099, with
  defaults) setting N arguments the child does not declare, named
  inpt_00001...: each an "Unsupported argument" whose suggestion is
  looked for among the child's variables (lengths and bytes close
  enough that most pairs are measured; none is near) and 100 of them
  typos of a variable (inptu_000 for input_000: "Did you mean"):
  `tfresolve check` (exit 1).
  Sizes 1,000 to 20,000.
calls: a root module of N module calls of ./child and one more with the
  first one's name, the "Duplicate module call" (exit 1; a root with a
  configuration error loads no child): `tfresolve check`.  Sizes 10,000
  to 100,000 (100,001 calls).

For each kind: time (median wall; best CPU) and peak RSS per size, and
their growth per doubling of the size from the largest size at most half
as large, and from the smallest to the largest (the ratio raised to
1 / log2 of the size ratio; CPU time, steadier than wall time on a
loaded machine): the target is at most 2.2x in time and memory (linear:
2x).  tforacle -tree runs once per size in the
same run, until one run takes more than BENCH_REF_TIMEOUT seconds
(default 120; then the larger sizes are skipped); without it the
comparison column is skipped.

Environment: BENCH_RUNS (timed runs of tfresolve, default 3),
BENCH_REF_TIMEOUT, TFORACLE (another path; empty disables it),
BENCH_STRICT=1 (exit 1 when a growth target is missed; default: report).
Inputs are generated deterministically into DATADIR/scale-KIND-N (a file
is rewritten only when its text changed).  Standard library only.
"""
import argparse
import math
import os
import subprocess
import sys
import json

from harness import measure

MAX_GROWTH = 2.2  # per doubling, time and memory
SIZES = {"files": [1000, 2000, 4000, 8000],
         "args": [1000, 2000, 4000, 8000, 16000, 20000],
         "calls": [10000, 20000, 40000, 80000, 100000]}
COMMAND = {"files": ["show", "-json"], "args": ["check", "-no-color"],
           "calls": ["check", "-no-color"]}
CHILD_VARS = 100


def write(root, rel, text):
    p = os.path.join(root, rel)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    try:
        with open(p) as f:
            if f.read() == text:
                return
    except OSError:
        pass
    with open(p, "w") as f:
        f.write(text)


def gen_files(out, n):
    write(out, "child/main.tf", 'variable "x" {\n  type = string\n}\n')
    write(out, "main.tf", 'module "c" {\n  source = "./child"\n'
          '  x      = var.v00000\n}\n')
    for i in range(n):
        write(out, "f%05d.tf" % i,
              'variable "v%05d" {\n  type    = string\n  default = "x%d"\n}\n'
              % (i, i))


def gen_args(out, n):
    write(out, "child/main.tf", "".join(
        'variable "input_%03d" {\n  default = %d\n}\n' % (i, i)
        for i in range(CHILD_VARS)))
    names = ["inptu_%03d" % (i // 10) if i % 10 == 0 and i < 10 * CHILD_VARS
             else "inpt_%05d" % i for i in range(n)]
    write(out, "main.tf", 'module "c" {\n  source = "./child"\n' + "".join(
        "  %s = %d\n" % (a, i) for i, a in enumerate(names)) + "}\n")


def gen_calls(out, n):
    write(out, "child/main.tf", 'variable "x" {\n  default = 1\n}\n')
    calls = ['module "m%06d" {\n  source = "./child"\n}\n' % i
             for i in range(n)]
    calls.append(calls[0])  # the duplicate, after all the others
    write(out, "main.tf", "".join(calls))


GEN = {"files": gen_files, "args": gen_args, "calls": gen_calls}


def growth(r0, r1, key, n0, n1):
    """The ratio of r1[key] to r0[key] per doubling of the size."""
    a, b = max(r0[key], 1e-9), max(r1[key], 1e-9)
    return (b / a) ** (1 / math.log2(n1 / n0))


def oracle_run(harness, oracle, d, timeout):
    p = subprocess.run([harness, "-n", "1", "-w", "0", "-t", str(timeout),
                        "-C", d, "--", oracle, "-tree"],
                       stdout=subprocess.PIPE, text=True)
    return json.loads(p.stdout)


def run(kind, o):
    sizes = [int(s) for s in o.sizes.split(",")] if o.sizes else SIZES[kind]
    oracle = os.environ.get("TFORACLE", o.tforacle or "")
    oracle = oracle if oracle and os.access(oracle, os.X_OK) else None
    timeout = int(os.environ.get("BENCH_REF_TIMEOUT", "") or 120)
    runs = int(os.environ.get("BENCH_RUNS", "") or 3)
    rows, missed = [], []
    for n in sizes:
        d = os.path.join(o.data, "scale-%s-%d" % (kind, n))
        GEN[kind](d, n)
        r = measure(o.harness, [o.tfresolve] + COMMAND[kind] + ["."], d, runs)
        line = ("%s %6d: tfresolve median %.3f s (CPU %.3f s), peak RSS "
                "%.1f MB, exit %s" % (kind, n, r["median_s"], r["cpu_s"],
                                      r["peak_rss_kb"] / 1024, r["status"]))
        base = [(m, q) for m, q in rows if 2 * m <= n]
        if base:
            n0, r0 = base[-1]  # the largest size at most half this one
            gt, gm = (growth(r0, r, "cpu_s", n0, n),
                      growth(r0, r, "peak_rss_kb", n0, n))
            line += "; per doubling from %d: time %.2fx, memory %.2fx" % (
                n0, gt, gm)
            if gt > MAX_GROWTH or gm > MAX_GROWTH:
                missed.append("%s %d -> %d: time %.2fx, memory %.2fx" %
                              (kind, n0, n, gt, gm))
        if oracle:
            q = oracle_run(o.harness, oracle, d, timeout)
            if q.get("timed_out") or "median_s" not in q:
                line += "; tforacle -tree over %d s (not run above)" % timeout
                oracle = None
            else:
                line += "; tforacle -tree %.2f s, peak RSS %.1f MB" % (
                    q["median_s"], q["peak_rss_kb"] / 1024)
        print(line, flush=True)
        rows.append((n, r))
    (n0, r0), (n1, r1) = rows[0], rows[-1]
    if n1 > n0:
        print("%s %d -> %d: time %.2fx, memory %.2fx per doubling overall" %
              (kind, n0, n1, growth(r0, r1, "cpu_s", n0, n1),
               growth(r0, r1, "peak_rss_kb", n0, n1)))
    if not (o.tforacle or os.environ.get("TFORACLE")):
        print("tforacle not given: no comparison")
    for m in missed:
        print("over %.1fx per doubling: %s" % (MAX_GROWTH, m))
    strict = os.environ.get("BENCH_STRICT") == "1"
    return 1 if missed and strict else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "gen":
        GEN[sys.argv[2]](sys.argv[3], int(sys.argv[4]))
        return 0
    ap = argparse.ArgumentParser()
    ap.add_argument("kind", choices=sorted(GEN))
    ap.add_argument("--harness", required=True)
    ap.add_argument("--tfresolve", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--sizes")
    ap.add_argument("--tforacle")
    o = ap.parse_args()
    for k in ("harness", "tfresolve", "data", "tforacle"):
        if getattr(o, k):  # the runs change directory
            setattr(o, k, os.path.abspath(getattr(o, k)))
    return run(o.kind, o)


if __name__ == "__main__":
    sys.exit(main())
