#!/usr/bin/env python3
"""The end of `make test`: how long the suite took, its slowest tests, and
one line "N passed, M failed" for the whole suite.

  summary.py BUILD_DIR [START]

Every test program prints "N passed, M failed" last; they are added up
from meson's log (BUILD_DIR/meson-logs/testlog.json).  A program that
failed without reporting a failure of its own (a crash, a sanitizer abort,
a timeout) counts as one more failure.  A program that could not run
(exit 77: meson's SKIP) counts neither way: a line before the tally names
each, with its SKIP line's reason.  Each test's time, timeout (from
BUILD_DIR/meson-info/intro-tests.json) and share of it are written to
BUILD_DIR/meson-logs/test-times.txt, slowest first; the five slowest and
the largest share are printed; with START (seconds since the epoch, when
the build began), the time of build and tests together.
"""
import json
import os
import re
import sys

TALLY = re.compile(r"^(\d+) passed, (\d+) failed$", re.M)
SHOW = 5


def skip_reason(t):
    """Why a test was skipped: its "SKIP why" line, else its last line."""
    lines = (t.get("stdout") or "").strip().split("\n")
    for line in lines:
        if line.startswith("SKIP "):
            return line[5:]
    return lines[-1] or "no reason given"


def main():
    build = sys.argv[1]
    log = os.path.join(build, "meson-logs", "testlog.json")
    if not os.path.isfile(log):
        print("no test log at %s" % log)
        print("0 passed, 1 failed")
        return 0
    timeouts = {}
    intro = os.path.join(build, "meson-info", "intro-tests.json")
    if os.path.isfile(intro):
        with open(intro) as f:
            timeouts = {t["name"]: t["timeout"] for t in json.load(f)}

    runs, passed, failed, skipped = [], 0, 0, []
    with open(log) as f:
        for line in f:
            t = json.loads(line)
            tallies = TALLY.findall(t.get("stdout") or "")
            p = sum(int(a) for a, _ in tallies)
            q = sum(int(b) for _, b in tallies)
            if t["result"] not in ("OK", "SKIP", "EXPECTEDFAIL") and q == 0:
                q += 1
            passed += p
            failed += q
            t["name"] = t["name"].split(" / ")[-1]  # "project / name"
            if t["result"] == "SKIP":
                skipped.append("%s (%s)" % (t["name"], skip_reason(t)))
            runs.append(t)
    if not runs:
        print("0 passed, 1 failed")
        return 0

    start = min(t["starttime"] for t in runs)
    end = max(t["starttime"] + t["duration"] for t in runs)
    runs.sort(key=lambda t: -t["duration"])

    def share(t):
        limit = timeouts.get(t["name"])
        return t["duration"] / limit if limit else None

    rows = ["%-28s %9s %8s %6s  %s" % ("test", "time", "timeout", "share",
                                       "result")]
    for t in runs:
        s = share(t)
        rows.append("%-28s %8.2fs %7ss %5s%%  %s" % (
            t["name"], t["duration"], timeouts.get(t["name"], "?"),
            "%.0f" % (100 * s) if s is not None else "?", t["result"]))
    with open(os.path.join(build, "meson-logs", "test-times.txt"), "w") as f:
        f.write("\n".join(rows) + "\n")

    print()
    print("%d tests in %.1f s wall (%.1f s of test time); slowest:"
          % (len(runs), end - start, sum(t["duration"] for t in runs)))
    print("\n".join("  " + r for r in rows[:SHOW + 1]))
    if len(sys.argv) > 2:
        print("build and tests: %.0f s wall" % (end - float(sys.argv[2])))
    worst = max((t for t in runs if share(t) is not None), key=share,
                default=None)
    if worst:
        print("largest share of a timeout: %.0f%% (%s, %.2f s of %s s); "
              "every test: %s" % (100 * share(worst), worst["name"],
                                  worst["duration"], timeouts[worst["name"]],
                                  os.path.join(build, "meson-logs",
                                               "test-times.txt")))
    if skipped:
        print("%d test%s skipped: %s" % (len(skipped),
                                         "" if len(skipped) == 1 else "s",
                                         "; ".join(skipped)))
    print("%d passed, %d failed" % (passed, failed))
    return 0


if __name__ == "__main__":
    sys.exit(main())
