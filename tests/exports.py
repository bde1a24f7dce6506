#!/usr/bin/env python3
"""The shared library exports its public interface and nothing else:
every dynamic symbol it defines is a tfr_ one declared TFR_API in the
public headers, and every such declaration is exported.

Usage: exports.py LIBTFRESOLVE.so INCLUDE_DIR
Prints one line per problem and "N passed, M failed" last.
"""
import glob
import os
import re
import subprocess
import sys


def main():
    lib, inc = sys.argv[1], sys.argv[2]
    out = subprocess.run(["nm", "-D", "--defined-only", lib],
                         stdout=subprocess.PIPE, check=True,
                         universal_newlines=True).stdout
    exported = set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 3:
            exported.add(parts[2])
    declared = set()
    for h in glob.glob(os.path.join(inc, "tfresolve", "*.h")):
        text = open(h).read()
        declared |= set(re.findall(r"TFR_API\b[^;(]*?\b(tfr_\w+)\s*\(", text))
        for m in re.finditer(r"extern TFR_API [^;]*;", text):
            declared |= set(re.findall(r"\b(tfr_t_\w+)", m.group(0)))
    # AddressSanitizer's ODR indicators name the exported data
    odr = {s for s in exported if s.startswith("__odr_asan")}
    problems = []
    for s in sorted(exported - odr):
        if not s.startswith("tfr_"):
            problems.append("exported but not tfr_: %s" % s)
        elif s not in declared:
            problems.append("exported but not declared TFR_API: %s" % s)
    for s in sorted(declared - exported):
        problems.append("declared TFR_API but not exported: %s" % s)
    for p in problems:
        print("FAIL " + p)
    checks = len(exported - odr) + len(declared - exported)
    print("%d exported symbols, %d declared" % (len(exported - odr),
                                               len(declared)))
    print("%d passed, %d failed" % (checks - len(problems), len(problems)))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
