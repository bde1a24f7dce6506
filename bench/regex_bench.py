#!/usr/bin/env python3
"""Regular expressions on large subjects: linear time (RE2).

  regex_bench.py --harness BENCH_CMD --tfresolve TFRESOLVE --data DIR
                 [--tforacle TFORACLE]

A module with one string variable set by terraform.tfvars to a subject of
1, 2, 5 and 10 MB, and validation rules that match it: ^x+$ (the subject
is x...x), (x+x+)+y (catastrophic for a backtracking engine: no y in the
subject) and regexall("x{1000}", ...).  `tfresolve check` is timed whole
process (bench_cmd: best and median wall time, CPU, peak RSS); the growth
from 1 to 10 MB shows whether the time is linear.  When the reference
program tforacle (Go's regexp, as Terraform runs it) is built, it runs on
the 10 MB module in the same run and the ratio is printed.  A benchmark,
not a test: nothing here asserts a time.
"""
import argparse
import os
import sys

from harness import measure

RULES = '''variable "s" {
  type = string

  validation {
    condition     = can(regex("^x+$", var.s))
    error_message = "Only x."
  }
  validation {
    condition     = !can(regex("(x+x+)+y", var.s))
    error_message = "No y."
  }
  validation {
    condition     = length(regexall("x{1000}", var.s)) > 0
    error_message = "Runs of x."
  }
}
'''


def module(data, mb):
    d = os.path.join(data, "regex-%dmb" % mb)
    tfvars = os.path.join(d, "terraform.tfvars")
    size = mb * 1000 * 1000
    if not os.path.exists(tfvars) or os.path.getsize(tfvars) != size + 7:
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(RULES)
        with open(tfvars, "w") as f:
            f.write('s = "' + "x" * size + '"\n')
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--tfresolve", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--tforacle")
    o = ap.parse_args()
    rows = {}
    for mb in (1, 2, 5, 10):
        d = module(o.data, mb)
        r = measure(o.harness, [o.tfresolve, "check", "-no-color"], d, 3)
        rows[mb] = r
        print("tfresolve check, %2d MB subject: median %.3f s wall, best "
              "%.3f s, CPU %.3f s, peak RSS %.1f MB, exit %s" % (
                  mb, r["median_s"], r["best_s"], r["cpu_s"],
                  r["peak_rss_kb"] / 1024, r["status"]))
    grow = rows[10]["median_s"] / max(rows[1]["median_s"], 1e-9)
    print("growth 1 -> 10 MB: %.1fx the time for 10x the subject "
          "(linear: about 10x)" % grow)
    if o.tforacle and os.access(o.tforacle, os.X_OK):
        d = module(o.data, 10)
        r = measure(o.harness, [o.tforacle], d, 1)
        ratio = r["median_s"] / max(rows[10]["median_s"], 1e-9)
        print("tforacle (Go's regexp), 10 MB: %.3f s wall, peak RSS %.1f MB; "
              "tfresolve is %.1fx as fast" % (r["median_s"],
                                               r["peak_rss_kb"] / 1024, ratio))
    else:
        print("tforacle not built: no comparison")
    return 0


if __name__ == "__main__":
    sys.exit(main())
