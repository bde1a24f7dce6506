#!/usr/bin/env python3
"""yamldecode at scale: linear in the document's size (issue 31).

  yaml_bench.py --harness BENCH_CMD --tfresolve TFRESOLVE --data DIR
                [--tforacle TFORACLE]

A module whose validation rule decodes its string variable
(`length(yamldecode(var.doc)) > 0`), set by terraform.tfvars in a heredoc
to generated documents of 10k, 40k and 160k map keys (each a short string
value) and to a 2 MB document of nested maps and lists; `tfresolve check`
timed whole process (bench_cmd: best and median wall time, peak RSS).  The slope per
doubling of the size, on a log-log scale between 40k and 160k keys, is
printed (linear: about 1).  When the reference program tforacle (the
YAML decoder Terraform runs) is built, it resolves the same modules in
the same run, up to 1 MB (its time grows with the square of the size).  A benchmark, not a test: nothing here asserts a time.
"""
import argparse
import math
import os
import sys

from harness import measure

ORACLE_MAX = 1000 * 1000  # the reference is quadratic: minutes above this
MAIN = '''variable "doc" {
  type = string

  validation {
    condition     = length(yamldecode(var.doc)) > 0
    error_message = "An empty document."
  }
}
'''


def flat(n):
    return "".join("key%07d: value %d\n" % (i, i) for i in range(n))


def nested(size):
    out, i = [], 0
    total = 0
    while total < size:
        block = ("svc-%06d:\n  port: %d\n  tags: [a, b, c]\n"
                 "  limits: {cpu: 2, memory: 512Mi}\n  enabled: true\n"
                 % (i, 8000 + i % 1000))
        out.append(block)
        total += len(block)
        i += 1
    return "".join(out)


def document(data, name, text):
    d = os.path.join(data, "yaml-" + name)
    path = os.path.join(d, "terraform.tfvars")
    body = "doc = <<EOT\n" + text + "EOT\n"
    if not os.path.exists(path) or os.path.getsize(path) != len(body):
        os.makedirs(d, exist_ok=True)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(MAIN)
        with open(path, "w") as f:
            f.write(body)
    return d


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--harness", required=True)
    ap.add_argument("--tfresolve", required=True)
    ap.add_argument("--data", required=True)
    ap.add_argument("--tforacle")
    o = ap.parse_args()
    oracle = o.tforacle if o.tforacle and os.access(o.tforacle, os.X_OK) \
        else None
    docs = [("10k", flat(10000)), ("40k", flat(40000)),
            ("160k", flat(160000)), ("2mb", nested(2 * 1000 * 1000))]
    rows = {}
    for name, text in docs:
        d = document(o.data, name, text)
        r = measure(o.harness, [o.tfresolve, "check", "-no-color"], d, 3)
        rows[name] = r
        line = ("yamldecode %-4s (%5.2f MB): tfresolve median %.3f s, best "
                "%.3f s, peak RSS %.1f MB, exit %s" % (
                    name, len(text) / 1e6, r["median_s"], r["best_s"],
                    r["peak_rss_kb"] / 1024, r["status"]))
        if oracle and len(text) > ORACLE_MAX:
            line += "; tforacle not run above 1 MB (its time grows with the "
            line += "square of the size: 380 s at 160k keys here)"
        elif oracle:
            q = measure(o.harness, [oracle], d, 1)
            line += "; tforacle %.3f s, peak RSS %.1f MB" % (
                q["median_s"], q["peak_rss_kb"] / 1024)
        print(line)
    t40, t160 = rows["40k"]["median_s"], rows["160k"]["median_s"]
    slope = math.log(max(t160, 1e-9) / max(t40, 1e-9)) / math.log(4)
    print("slope 40k -> 160k keys: %.2f per doubling on a log-log scale "
          "(linear: 1; quadratic: 2)" % slope)
    if not oracle:
        print("tforacle not built: no comparison")
    return 0


if __name__ == "__main__":
    sys.exit(main())
