#!/usr/bin/env python3
"""A test that cannot run says so to meson, and the suite's tally says how
many were skipped.

  skip_status.py TFRESOLVE SOURCE_ROOT

1. Each test that needs something that may be absent (the reference
   program, the shared corpus, clang-format) exits with 77, meson's
   "skipped" status, and a SKIP line that says why, when it is absent;
   never 0 with "0 passed, 0 failed", which meson counts as a pass.
2. tests/summary.py, over a test log with a passed, a skipped and a
   crashed test, counts the skipped one neither as passed nor as failed,
   and names it on a line of its own before the "N passed, M failed" tally.
Prints FAIL lines and "N passed, M failed" last.
"""
import json
import os
import sys
import tempfile

from harness import Tally
import harness


def run(argv, env=None):
    rc, out, err = harness.run(argv, env=env, timeout=60)
    return rc, out + err


def skips(t, what, argv, env=None):
    rc, out = run(argv, env)
    t(rc == 77 and out.startswith("SKIP "),
      "%s exits 77 with a SKIP line when what it needs is absent" % what,
      "exit %d\n%s" % (rc, out))


def summary(t, src, tmp):
    logs = os.path.join(tmp, "meson-logs")
    os.makedirs(logs)
    tests = [
        ("tfresolve / a", "OK", "PASS x\n3 passed, 0 failed\n"),
        ("tfresolve / difftest", "SKIP",
         "SKIP reference program not built (/x/tforacle)\n"),
        ("tfresolve / crash", "FAIL", "1 passed, 0 failed\nAddressSanitizer\n"),
    ]
    with open(os.path.join(logs, "testlog.json"), "w") as f:
        for i, (name, result, out) in enumerate(tests):
            f.write(json.dumps({"name": name, "result": result, "stdout": out,
                                "starttime": 1000.0 + i, "duration": 1.0})
                    + "\n")
    rc, out = run([sys.executable, os.path.join(src, "tests", "summary.py"),
                   tmp])
    lines = out.rstrip("\n").split("\n")
    t(rc == 0 and lines[-1] == "4 passed, 1 failed",
      "summary.py: a skipped test is neither passed nor failed",
      "exit %d\n%s" % (rc, out))
    t(len(lines) > 1 and lines[-2] == "1 test skipped: difftest (reference "
      "program not built (/x/tforacle))",
      "summary.py names the skipped test and why, before the tally", out)


def main():
    tool, src = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t = Tally()
    tests = os.path.join(src, "tests")
    with tempfile.TemporaryDirectory() as tmp:
        absent = os.path.join(tmp, "absent")
        skips(t, "difftest.py", [sys.executable,
                                 os.path.join(tests, "difftest.py"), tool,
                                 absent])
        skips(t, "corpus.py", [sys.executable,
                               os.path.join(tests, "corpus.py"), tool, absent])
        skips(t, "corpus_rules.py", [sys.executable,
                                     os.path.join(tests, "corpus_rules.py"),
                                     tool, absent])
        skips(t, "corpus_tree.py", [sys.executable,
                                    os.path.join(tests, "corpus_tree.py"),
                                    tool, absent])
        # a PATH with sh but no clang-format
        bindir = os.path.join(tmp, "bin")
        os.mkdir(bindir)
        os.symlink("/bin/sh", os.path.join(bindir, "sh"))
        skips(t, "format.sh", ["/bin/sh", os.path.join(tests, "format.sh"),
                               src], {"PATH": bindir})
        summary(t, src, os.path.join(tmp, "build"))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
