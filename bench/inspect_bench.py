#!/usr/bin/env python3
"""inspect and docs benchmarks (issue 43), whole process (bench_cmd).

Usage:
  inspect_bench.py corpus --harness BENCH_CMD --tfresolve TFRESOLVE
                          --corpus DIR
  inspect_bench.py docs   --harness BENCH_CMD --tfresolve TFRESOLVE
                          --corpus DIR

corpus: `tfresolve inspect -json` on every module directory of the corpus
  (each directory holding .tf or .tf.json files, 520 in
  ../shared/corpus), one process each, as a tool that reads many modules
  runs it: the whole sweep timed as one command (a sh loop), then the time
  per directory, and the peak RSS of the largest single run; the same
  sweep of `show -json` in the same run (reading the variables, as every
  command does), and the ratio; then `inspect -json` alone on the module
  with the most variables.
docs: `tfresolve docs` on the corpus module with the most variable blocks
  (the largest interface), timed; and `docs -check` on a copy of it with
  a README.md that `docs -write` wrote.

Skipped (exit 0, a SKIP line) when the corpus is not there.

Environment:
  BENCH_RUNS  timed runs of each command (default 5; corpus: 3)
Standard library only.
"""
import argparse
import os
import re
import shutil
import sys
import tempfile

from harness import measure


def module_dirs(corpus):
    out = []
    for root, dirs, files in os.walk(corpus):
        dirs[:] = sorted(x for x in dirs if x not in (".git", ".terraform"))
        if any(f.endswith((".tf", ".tf.json")) and not f.startswith(".")
               for f in files):
            out.append(root)
    return out


def variables_in(d):
    n = 0
    for f in os.listdir(d):
        if f.endswith(".tf"):
            with open(os.path.join(d, f), encoding="utf-8",
                      errors="replace") as fh:
                n += len(re.findall(r'^variable\s+"', fh.read(), re.M))
    return n


def show(label, r, per=None):
    line = (f"{label}: median {r['median_s'] * 1000:.1f} ms, best "
            f"{r['best_s'] * 1000:.1f} ms, peak RSS {r['peak_rss_kb']} kB")
    if per:
        line += f" ({r['median_s'] * 1000 / per:.2f} ms per directory)"
    print(line, flush=True)


def sweep(a, dirs, tmp, cmd, runs):
    """cmd (a list of words) on every directory, one process each, timed as
    one command."""
    listing = os.path.join(tmp, "dirs")
    with open(listing, "w") as f:
        f.write("\n".join(dirs) + "\n")
    words = " ".join(cmd)
    script = ('while IFS= read -r d; do "$0" ' + words +
              ' "$d" >/dev/null 2>&1; done < "$1"')
    return measure(a.harness, [shutil.which("sh") or "/bin/sh", "-c", script,
                               a.tfresolve, listing], tmp, runs)


def corpus(a):
    dirs = module_dirs(a.corpus)
    runs = int(os.environ.get("BENCH_RUNS", "3"))
    with tempfile.TemporaryDirectory() as tmp:
        r = sweep(a, dirs, tmp, ["inspect", "-json"], runs)
        # the same sweep of `show -json` (reading the variables alone, as
        # every command does), in the same run: what inspect adds to it
        base = sweep(a, dirs, tmp, ["show", "-json", "-no-env",
                                    "-missing-required=info"], runs)
    if "median_s" not in r or r.get("status", 0) != 0:
        print(f"FAIL inspect -json over the corpus: {r}")
        return 1
    show(f"inspect -json over the corpus ({len(dirs)} directories)", r,
         len(dirs))
    if "median_s" in base:
        show("show -json over the corpus, the same way", base, len(dirs))
        print(f"inspect / show: {r['median_s'] / base['median_s']:.2f}x")
    biggest = max(dirs, key=variables_in)
    r = measure(a.harness, [a.tfresolve, "inspect", "-json", biggest],
                a.corpus, runs)
    show(f"inspect -json {os.path.relpath(biggest, a.corpus)} "
         f"({variables_in(biggest)} variables)", r)
    return 0


def docs(a):
    dirs = module_dirs(a.corpus)
    biggest = max(dirs, key=variables_in)
    runs = int(os.environ.get("BENCH_RUNS", "5"))
    name = os.path.relpath(biggest, a.corpus)
    r = measure(a.harness, [a.tfresolve, "docs", biggest], a.corpus, runs)
    if "median_s" not in r or r.get("status", 0) != 0:
        print(f"FAIL docs {name}: {r}")
        return 1
    show(f"docs {name} ({variables_in(biggest)} variables)", r)
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, "m")
        shutil.copytree(biggest, copy, symlinks=True)
        if os.path.exists(os.path.join(copy, "README.md")):
            os.remove(os.path.join(copy, "README.md"))
        r = measure(a.harness, [a.tfresolve, "docs", "-write", copy], tmp, 1)
        r = measure(a.harness, [a.tfresolve, "docs", "-check", copy], tmp,
                    runs)
        if r.get("status", 0) != 0:
            print(f"FAIL docs -check after -write: status {r['status']}")
            return 1
        show(f"docs -check {name}", r)
    return 0


def main():
    p = argparse.ArgumentParser()
    p.add_argument("what", choices=["corpus", "docs"])
    p.add_argument("--harness", required=True)
    p.add_argument("--tfresolve", required=True)
    p.add_argument("--corpus", required=True)
    a = p.parse_args()
    a.tfresolve = os.path.abspath(a.tfresolve)
    a.harness = os.path.abspath(a.harness)
    if not os.path.isdir(a.corpus):
        print(f"SKIP no corpus at {a.corpus}")
        return 0
    return corpus(a) if a.what == "corpus" else docs(a)


if __name__ == "__main__":
    sys.exit(main())
