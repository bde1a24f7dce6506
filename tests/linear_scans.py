#!/usr/bin/env python3
"""Linear scans (issue 38, point 6): many .tf files, many unknown module
arguments, many module calls and a huge manifest string cost linear time
and memory, with the same answers.

  linear_scans.py TFRESOLVE

- 3,000 .tf files of one variable each: `show -json` has all of them, in
  at most MEM_FILES of peak memory (each file copied every declaration
  before it: 2,000 files took 625 MB, 3,000 1.35 GB, 4,000 ran out of
  memory).
- A call setting 20,000 arguments its child (100 variables) does not
  declare, 100 of them typos of a variable: 20,000 "Unsupported
  argument" errors, the typos with their "Did you mean", within LIMIT
  seconds (each unknown argument was compared with every variable and,
  for each, with every argument: no answer in minutes); the CPU time of
  20,000 at most RATIO times that of 5,000 (linear: 4; quadratic: 16).
- 100,000 module calls and a duplicate of the first: one "Duplicate
  module call" naming the first one's place, within LIMIT seconds (each
  call was compared with all before it: no answer in minutes).
- 10,000 and 40,000 duplicate module calls rendered as text (each
  diagnostic's block was looked for among all blocks), and 3,000 and
  12,000 .tf files read with -engine=opentofu (each file's .tofu twin
  was looked for among all files): the user CPU time of the larger at
  most RATIO times the smaller's.
- A manifest (.terraform/modules/modules.json) whose call record has a
  Dir of 30 MB: the "Module not installed" warning quotes it whole, in
  at most MEM_MANIFEST_PER_BYTE times its size over a trivial run (it
  cost 10.8 times: 16 bytes a byte while the path was cleaned, and the
  whole output gathered in memory).

Times are never asserted tightly: LIMIT is far above what a sanitizer
build takes (seconds) and far below the old code's minutes.  Peak memory
is the child's maximum resident set (wait4); under AddressSanitizer its
quarantine is capped (quarantine_size_mb=16).

Prints a line per failure and "N passed, M failed" last.
"""
import json
import os
import subprocess
import sys
import tempfile
import threading

from tally import Tally

LIMIT = 60  # seconds for one run
RATIO = 9.0  # CPU time, 4x the arguments
MB = 1 << 20
MEM_FILES = 200 * MB
MEM_MANIFEST_PER_BYTE = 7.5


def run(tool, d, args):
    """(exit status, output, peak RSS in bytes, user CPU seconds (the
    system's, mostly reading files, would hide the scans), timed out)."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                           ":quarantine_size_mb=16").lstrip(":")
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([tool] + args, cwd=d, stdout=out,
                             stderr=subprocess.STDOUT, env=env,
                             start_new_session=True)
        killed = []
        timer = threading.Timer(LIMIT, lambda: (killed.append(1), p.kill()))
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return (os.waitstatus_to_exitcode(status), text, usage.ru_maxrss * 1024,
            usage.ru_utime, bool(killed))


def write(root, files):
    for rel, text in files.items():
        p = os.path.join(root, rel)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        with open(p, "w") as f:
            f.write(text)
    return root


def diags(out):
    """The diagnostics of a -json report, wherever they are."""
    found = []

    def walk(x):
        if isinstance(x, dict):
            if "summary" in x and "severity" in x:
                found.append(x)
            for v in x.values():
                walk(v)
        elif isinstance(x, list):
            for v in x:
                walk(v)
    try:
        walk(json.loads(out))
    except ValueError:
        return None
    return found


def many_files(tool, tmp, check):
    n = 3000
    files = {"f%05d.tf" % i: 'variable "v%05d" {\n  type    = string\n'
             '  default = "x%d"\n}\n' % (i, i) for i in range(n)}
    d = write(os.path.join(tmp, "files"), files)
    rc, out, peak, _, killed = run(tool, d, ["show", "-json", "."])
    check(rc == 0 and not killed and out.count('"v0') == n,
          "3,000 .tf files: every variable shown (exit %d)" % rc, out[-600:])
    check(peak < MEM_FILES, "3,000 .tf files: peak %.0f MB, at most %.0f MB"
          % (peak / MB, MEM_FILES / MB))


def args_module(tmp, n):
    child = "".join('variable "input_%03d" {\n  default = %d\n}\n' % (i, i)
                    for i in range(100))
    names = ["inptu_%03d" % (i // 10) if i % 10 == 0 and i < 1000
             else "inpt_%05d" % i for i in range(n)]
    main = ('module "c" {\n  source = "./child"\n' +
            "".join("  %s = %d\n" % (a, i) for i, a in enumerate(names)) +
            "}\n")
    return write(os.path.join(tmp, "args%d" % n),
                 {"child/main.tf": child, "main.tf": main})


def unknown_args(tool, tmp, check):
    cpu = {}
    for n in (5000, 20000):
        rc, out, _, cpu[n], killed = run(tool, args_module(tmp, n),
                                         ["check", "-json", "."])
        ds = diags(out) or []
        un = [g for g in ds if g["summary"] == "Unsupported argument"]
        near = [g for g in un if "Did you mean" in g.get("detail", "")]
        typo = 'An argument named "inptu_042" is not expected here. ' \
            'Did you mean "input_042"?'
        check(rc == 1 and not killed and len(un) == n and len(near) == 100
              and any(g["detail"] == typo for g in near),
              "%d unknown arguments: %d errors, 100 suggestions within %d s "
              "(exit %d, %d errors, %d suggestions%s)" %
              (n, n, LIMIT, rc, len(un), len(near),
               ", killed" if killed else ""), out[-600:])
    check(cpu[20000] <= RATIO * max(cpu[5000], 0.05),
          "4x the unknown arguments: CPU %.2f s against %.2f s, at most %.0fx"
          % (cpu[20000], cpu[5000], RATIO))


def many_calls(tool, tmp, check):
    n = 100000
    calls = ['module "m%06d" {\n  source = "./child"\n}\n' % i
             for i in range(n)]
    d = write(os.path.join(tmp, "calls"), {
        "child/main.tf": 'variable "x" {\n  default = 1\n}\n',
        "main.tf": "".join(calls + [calls[0]])})
    rc, out, _, _, killed = run(tool, d, ["check", "-json", "."])
    ds = diags(out) or []
    dup = [g for g in ds if g["summary"] == "Duplicate module call"]
    want = ('A module call named "m000000" was already defined at '
            'main.tf:1,1-17. Module calls must have unique names within a '
            'module.')
    check(rc == 1 and not killed and len(dup) == 1 and
          dup[0].get("detail") == want,
          "100,001 module calls: the duplicate within %d s (exit %d%s)" %
          (LIMIT, rc, ", killed" if killed else ""), out[-600:])


def cpu_growth(tool, tmp, check, what, make, args, want_rc, sizes):
    """The CPU time of the larger input at most RATIO times the smaller's."""
    cpu = {}
    for n in sizes:
        rc, out, _, cpu[n], killed = run(tool, make(tmp, n), args)
        check(not killed and rc == want_rc, "%s, %d: an answer (exit %d)" %
              (what, n, rc), out[-600:])
    small, large = sizes
    check(cpu[large] <= RATIO * max(cpu[small], 0.05),
          "%s: CPU %.2f s for %d against %.2f s for %d, at most %.0fx" %
          (what, cpu[large], large, cpu[small], small, RATIO))


def duplicates(tmp, n):
    calls = ['module "m%06d" {\n  source = "./child"\n}\n' % (i % n)
             for i in range(2 * n)]
    return write(os.path.join(tmp, "dups%d" % n), {
        "child/main.tf": 'variable "x" {\n  default = 1\n}\n',
        "main.tf": "".join(calls)})


def tofu_files(tmp, n):
    """n .tf files of a local value each (no variables: the old build's
    memory for many files of variables is not what this measures)."""
    files = {"f%05d.tf" % i: 'locals {\n  l%05d = "x"\n}\n' % i
             for i in range(n)}
    files["f00000.tofu"] = 'variable "v" {\n  default = "tofu"\n}\n'
    return write(os.path.join(tmp, "tofu%d" % n), files)


def rendering(tool, tmp, check):
    cpu_growth(tool, tmp, check, "duplicate calls rendered as text",
               duplicates, ["check", "."], 1, (10000, 40000))
    cpu_growth(tool, tmp, check, ".tf files with -engine=opentofu",
               tofu_files, ["show", "-engine=opentofu", "."], 0, (3000, 12000))


def big_manifest(tool, tmp, check):
    size = 30 * MB
    big = "a" * size
    man = {"Modules": [{"Key": "", "Source": "", "Dir": "."},
                       {"Key": "c", "Source": "./child", "Dir": big}]}
    files = {"main.tf": 'module "c" {\n  source = "./child"\n}\n',
             "child/main.tf": 'variable "x" {\n  default = 1\n}\n'}
    small = write(os.path.join(tmp, "man-small"), dict(files, **{
        ".terraform/modules/modules.json": json.dumps(
            {"Modules": man["Modules"][:1]})}))
    d = write(os.path.join(tmp, "man-big"), dict(files, **{
        ".terraform/modules/modules.json": json.dumps(man)}))
    _, _, base, _, _ = run(tool, small, ["show", "."])
    rc, out, peak, _, killed = run(tool, d, ["show", "."])
    check(rc == 0 and not killed and
          "This module's local cache directory %s could not be read." % big
          in out.replace("\n│ ", ""),
          "a 30 MB Dir in the manifest: the warning quotes it (exit %d)" % rc,
          out[:300] + out[-300:])
    check(peak - base <= MEM_MANIFEST_PER_BYTE * size,
          "a 30 MB Dir in the manifest: %.0f MB over a trivial run, at most "
          "%.1fx its size" % ((peak - base) / MB, MEM_MANIFEST_PER_BYTE))


def main():
    tool = os.path.abspath(sys.argv[1])
    check = Tally(1200)
    with tempfile.TemporaryDirectory() as tmp:
        for case in (many_files, unknown_args, many_calls, rendering,
                     big_manifest):
            case(tool, tmp, check)
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
