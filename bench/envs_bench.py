#!/usr/bin/env python3
"""Benchmark `check -var-file-each` on 100 environments against 100
sequential `check -var-file=...` runs of the same module (issue 6).

Usage: envs_bench.py --harness BENCH_CMD --tfresolve TFRESOLVE
                     --module DIR --data DATA [--envs N]

Writes N var files (copies of DIR/envs/*.tfvars, cycled, so a few of them
are invalid as in the fixture) into DATA/envs-bench/, then times, whole
process with bench_cmd (fork/exec, wall and CPU time, peak RSS):
  1. one `tfresolve check -var-file-each 'DATA/envs-bench/*.tfvars' DIR`;
  2. a shell running `tfresolve check -var-file=F DIR` for each file.
Both must agree on how many environments are valid.  Prints the ratio.
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys


def harness(h, argv, runs):
    p = subprocess.run([h, "-n", str(runs), "-w", "1", "--"] + argv,
                       stdout=subprocess.PIPE, check=False)
    return json.loads(p.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    for opt in ("harness", "tfresolve", "module", "data"):
        ap.add_argument("--" + opt, required=True)
    ap.add_argument("--envs", type=int, default=100)
    o = ap.parse_args()
    sys.stdout.reconfigure(line_buffering=True)
    out = os.path.join(o.data, "envs-bench")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    src = sorted(glob.glob(os.path.join(o.module, "envs", "*.tfvars")))
    files = []
    for i in range(o.envs):
        f = os.path.join(out, "env%03d.tfvars" % i)
        shutil.copyfile(src[i % len(src)], f)
        files.append(f)
    t = o.tfresolve
    each = [t, "check", "-no-color", "-var-file-each",
            os.path.join(out, "*.tfvars"), o.module]
    script = "; ".join("%s check -no-color -var-file=%s %s >/dev/null 2>&1"
                       % (t, f, o.module) for f in files) + "; true"
    seq = ["/bin/sh", "-c", script]
    # both must see the same valid/invalid environments
    p = subprocess.run(each, capture_output=True, text=True)
    last = p.stdout.strip().splitlines()[-1]
    valid = sum(subprocess.run([t, "check", "-var-file=" + f, o.module],
                               capture_output=True).returncode == 0
                for f in files)
    print("check -var-file-each: %s" % last)
    print("sequential runs: %d of %d environments valid" % (valid, len(files)))
    if ("%d of %d" % (valid, len(files))) not in last:
        print("MISMATCH: the two ways disagree")
        return 1
    a = harness(o.harness, each, 5)
    b = harness(o.harness, seq, 3)
    print("%-40s %9s %9s %9s %11s" % ("command", "best s", "median s",
                                       "cpu s", "peakRSS MB"))
    for label, r in (("check -var-file-each (%d envs)" % len(files), a),
                     ("%d sequential check runs" % len(files), b)):
        print("%-40s %9.4f %9.4f %9.4f %11.1f" % (
            label, r["best_s"], r["median_s"], r["cpu_s"],
            r["peak_rss_kb"] / 1024))
    print("ratio: -var-file-each is %.1fx as fast as %d sequential runs "
          "(median wall time; %d cores)"
          % (b["median_s"] / a["median_s"], len(files), os.cpu_count()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
