#!/usr/bin/env python3
"""Memory grows with what an expression keeps, not with its iterations.

  iteration_memory.py TFRESOLVE

Nested `for` expressions over literal lists in a small tfvars file make
millions of iterations with a tiny result: under -max-memory=64M the run
ends with the result, its peak memory (the child's maximum resident set
size, from wait4) a few megabytes over what a trivial run takes, where
every iteration used to keep its scratch until the end (57 bytes each:
gigabytes for 10^8 iterations).  The same iterations with a result that
outgrows the budget end with "Value too large" at the expression and
exit 1, peaking near the budget, never killed for lack of memory.  Both
again through a validation rule, and through a template's %{for}.  An
object for expression of 200,000 keys ends well within the time limit.

Bounds are on memory only (with a time limit that a busy machine keeps
well within): peak - baseline < budget * 1.25 + SLACK.  Under
AddressSanitizer, memory given back is held in its quarantine, capped
here with ASAN_OPTIONS=quarantine_size_mb=16.

Prints a line per failure and "N passed, M failed" last.
"""
import os
import subprocess
import sys
import tempfile
import threading

from tally import Tally

LIMIT = 240  # seconds: a run that takes longer is a failure
MB = 1 << 20
SLACK = 40 * MB  # scratch batches, the side copy, allocator and shadow


def lst(n):
    return "[" + ",".join(["1"] * n) + "]"


def run(tool, d, args):
    """(exit status, output, peak RSS in bytes) of one run in d."""
    env = dict(os.environ)
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                           ":quarantine_size_mb=16").lstrip(":")
    with tempfile.TemporaryFile() as out:
        p = subprocess.Popen([tool] + args, cwd=d, stdout=out,
                             stderr=subprocess.STDOUT, env=env)
        timer = threading.Timer(LIMIT, p.kill)
        timer.start()
        _, status, usage = os.wait4(p.pid, 0)
        timer.cancel()
        p.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        text = out.read().decode("utf-8", "replace")
    return p.returncode, text, usage.ru_maxrss * 1024


def module(root, name, main, tfvars=None):
    d = os.path.join(root, name)
    os.mkdir(d)
    with open(os.path.join(d, "main.tf"), "w") as f:
        f.write(main)
    if tfvars is not None:
        with open(os.path.join(d, "terraform.tfvars"), "w") as f:
            f.write(tfvars)
    return d


def main():
    tool = os.path.abspath(sys.argv[1])
    check = Tally(2000)
    budget = 64 * MB
    mem = "-max-memory=64M"
    # 300 * 300 * 30 iterations (2.7 million), a list of 300 false
    tiny = ("[for a in %s : [for b in %s : [for c in %s : c if false]] == []]"
            % (lst(300), lst(300), lst(30)))
    # 3 million iterations whose result holds them all: past the budget
    big = "[for a in %s : [for b in %s : [for c in %s : c]]]" % (
        lst(1000), lst(1000), lst(3))
    # a template: 2.7 million iterations, no text
    text = '"%%{for a in %s}%%{for b in %s}%%{for c in %s}%%{endfor}' \
        '%%{endfor}%%{endfor}"' % (lst(300), lst(300), lst(30))
    with tempfile.TemporaryDirectory(prefix="iteration-memory.") as root:
        d = module(root, "base", 'variable "x" {\n  default = 1\n}\n')
        rc, out, base = run(tool, d, [mem, "show"])
        check(rc == 0, "baseline run", out)

        def bounded(what, peak, limit):
            check(peak - base < limit, "%s: peak memory" % what,
                  "peak %.1f MB, a trivial run %.1f MB, allowed %.1f MB more"
                  % (peak / MB, base / MB, limit / MB))

        # tfvars: the result, in little memory
        d = module(root, "tiny", 'variable "x" {}\n', "x = %s\n" % tiny)
        rc, out, peak = run(tool, d, [mem, "show", "-json"])
        check(rc == 0 and '"value":[false' in out.replace(" ", ""),
              "tfvars, tiny result: resolved", "exit %d\n%s" % (rc,
                                                                out[:2000]))
        bounded("tfvars, tiny result", peak, SLACK)
        # tfvars: past the budget, its diagnostic
        d = module(root, "big", 'variable "x" {}\n', "x = %s\n" % big)
        rc, out, peak = run(tool, d, [mem, "show", "-no-color"])
        check(rc == 1 and "Value too large" in out and
              "-max-memory" in out, "tfvars, result past the budget: "
              "Value too large", "exit %d\n%s" % (rc, out[:2000]))
        bounded("tfvars, result past the budget", peak,
                budget * 5 // 4 + SLACK)
        # a validation rule, each way
        for name, expr, ok in (("rule-tiny", "length(%s) == var.x" % tiny,
                                True),
                               ("rule-big", "length(%s) == var.x" % big,
                                False)):
            d = module(root, name,
                        'variable "x" {\n  default = 300\n  validation {\n'
                        '    condition     = %s\n'
                        '    error_message = "Too many."\n  }\n}\n' % expr)
            rc, out, peak = run(tool, d, [mem, "check", "-no-color"])
            if ok:
                check(rc == 0, "%s: passes" % name, "exit %d\n%s" %
                      (rc, out[:2000]))
                bounded(name, peak, SLACK)
            else:
                check(rc == 1 and "Value too large" in out,
                      "%s: Value too large" % name,
                      "exit %d\n%s" % (rc, out[:2000]))
                bounded(name, peak, budget * 5 // 4 + SLACK)
        # objects made in iterations that are given back, then one after
        # them in the same tuple (which shares equal object types through
        # a cache): right values and types after every release
        objs = ("x = [[for a in %s : {n = a, m = \"s\"}], "
                "[for a in %s : {n = a, m = \"t\"}], {n = 2, m = \"u\"}]\n"
                % (lst(20000), lst(20000)))
        d = module(root, "objects", 'variable "x" {}\n', objs)
        rc, out, peak = run(tool, d, [mem, "show", "-json"])
        flat = out.replace(" ", "").replace("\n", "")
        check(rc == 0 and flat.count('{"m":"s","n":1}') == 20000 and
              flat.count('{"m":"t","n":1}') == 20000 and
              '{"m":"u","n":2}' in flat, "objects made in iterations",
              "exit %d\n%s" % (rc, out[:2000]))
        # an object for expression of 200,000 keys finds each key's group
        # by its hash (a search of the keys so far took hours)
        keys = ('flatten([for a in range(1000) : [for b in range(200) : '
                '"${a}-${b}"]])')
        d = module(root, "object-keys",
                   'variable "x" {\n  default = 200000\n  validation {\n'
                   '    condition     = length({for k in %s : k => 1}) =='
                   ' var.x && length({for k in %s : substr(k, 0, 2) =>'
                   ' k...}) == 100\n'
                   '    error_message = "Wrong."\n  }\n}\n' % (keys, keys))
        rc, out, peak = run(tool, d, ["check", "-no-color"])
        check(rc == 0, "200,000 object keys: within %d s" % LIMIT,
              "exit %d\n%s" % (rc, out[:2000]))
        # a template's %{for}
        d = module(root, "template", 'variable "x" {}\n', "x = %s\n" % text)
        rc, out, peak = run(tool, d, [mem, "show", "-json"])
        check(rc == 0 and '"value":""' in out.replace(" ", ""),
              "template: resolved", "exit %d\n%s" % (rc, out[:2000]))
        bounded("template", peak, SLACK)
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
