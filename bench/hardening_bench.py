#!/usr/bin/env python3
"""What the release binaries' hardening costs (issue 38, point 7).

    hardening_bench.py --source ROOT --harness BENCH_CMD --gen GEN_RESOLVE
                       --data DATADIR [--corpus DIR]

Builds the static release configuration twice from ROOT, in
DATADIR/hardening-on and DATADIR/hardening-off (-Dstatic=true, as
scripts/release/build.sh, with -Dhardening=true and false), then runs the
same commands with both binaries:
  - show -json of a generated 4 MB list(object) tfvars (gen_resolve.py
    listobj): the scanner, the parser, conversion and the JSON writer;
  - check of 2,000 validated variables (gen_resolve.py validated): the
    evaluator and the regular expressions;
  - check -recursive of caf-enterprise-scale (its example roots with
    their module trees; from the corpus, skipped without it).
For each: whole-process wall time (bench_cmd: the best of three rounds
of BENCH_RUNS runs, default 7, after a warm-up, the two binaries in turn)
and peak memory, and the instructions executed
(valgrind --tool=callgrind, when valgrind is there: the stable figure on a
shared machine), hardened against not.  The target is at most 3% more
instructions.  Exit 77 (skipped) when the static build cannot be
configured here (the static libraries of `make deps-release` missing).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import measure  # noqa: E402

CONFIGS = {"on": "true", "off": "false"}


def build(src, out, hardening):
    """The static tfresolve of src in out: its path, or None."""
    exe = os.path.join(out, "tfresolve")
    if not os.path.exists(os.path.join(out, "build.ninja")):
        p = subprocess.run(
            ["meson", "setup", out, src, "-Dtests=disabled",
             "-Dbuildtype=release", "-Ddefault_library=static",
             "-Dprefer_static=true", "-Dstatic=true",
             "-Dhardening=" + hardening],
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        if p.returncode != 0:
            print(p.stdout[-2000:])
            shutil.rmtree(out, ignore_errors=True)
            return None
    p = subprocess.run(["ninja", "-C", out, "tfresolve"],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True)
    if p.returncode != 0:
        print(p.stdout[-2000:])
        return None
    return exe


def generate(gen, data, kind, args):
    d = os.path.join(data, "hardening-" + kind)
    if not os.path.exists(os.path.join(d, "meta.json")):
        subprocess.run([sys.executable, gen, kind, d] + args, check=True,
                       stdout=subprocess.DEVNULL)
    return os.path.join(d, "module")


def instructions(exe, argv, cwd):
    """Instructions executed by exe argv in cwd (callgrind), or None."""
    if not shutil.which("valgrind"):
        return None
    p = subprocess.run(["valgrind", "--tool=callgrind",
                        "--callgrind-out-file=/dev/null", exe] + argv,
                       cwd=cwd, stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, text=True, errors="replace")
    m = re.search(r"Collected : (\d+)", p.stderr)
    return int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser()
    for a in ("--source", "--harness", "--gen", "--data"):
        ap.add_argument(a, required=True)
    ap.add_argument("--corpus", default="")
    o = ap.parse_args()
    runs = int(os.environ.get("BENCH_RUNS", "7"))
    exes = {}
    for name, value in CONFIGS.items():
        exes[name] = build(o.source, os.path.join(
            o.data, "hardening-" + name), value)
        if not exes[name]:
            print("hardening: the static build (%s) cannot be made here "
                  "(make deps-release): skipped" % name)
            return 77
    rows = [
        ("show -json, 4 MB list(object) tfvars",
         ["show", "-json", "-no-env"],
         generate(o.gen, o.data, "listobj", ["4"])),
        ("check, 2,000 validated variables",
         ["check", "-json", "-no-env"],
         generate(o.gen, o.data, "validated", ["2000", "10"])),
    ]
    caf = os.path.join(o.corpus, "Azure__terraform-azurerm-caf-enterprise-scale")
    if o.corpus and os.path.isdir(caf):
        rows.append(("check -recursive, caf-enterprise-scale's roots and "
                     "their module trees",
                     ["check", "-recursive", "-json", "-no-env"], caf))
    else:
        print("caf-enterprise-scale: corpus not found: skipped")
    worst = 0.0
    for label, argv, cwd in rows:
        # the two binaries in turn, three rounds, the best time of each:
        # what a busy machine adds falls on both
        t, ins = {}, {}
        for _ in range(3):
            for name, exe in exes.items():
                r = measure(o.harness, [exe] + argv, cwd, runs)
                if name not in t or r["best_s"] < t[name]["best_s"]:
                    t[name] = r
        for name, exe in exes.items():
            ins[name] = instructions(exe, argv, cwd)
        line = "%s: hardened %.3f s (%d KB), not %.3f s (%d KB): %+.1f%% time" % (
            label, t["on"]["best_s"], t["on"]["peak_rss_kb"],
            t["off"]["best_s"], t["off"]["peak_rss_kb"],
            100.0 * (t["on"]["best_s"] / t["off"]["best_s"] - 1))
        if ins["on"] and ins["off"]:
            d = 100.0 * (ins["on"] / ins["off"] - 1)
            worst = max(worst, d)
            line += ", %+.1f%% instructions (%d vs %d)" % (d, ins["on"],
                                                          ins["off"])
        print(line)
    print("hardening: at most %+.1f%% instructions (target: 3%%)" % worst)
    return 0


if __name__ == "__main__":
    sys.exit(main())
