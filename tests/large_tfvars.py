#!/usr/bin/env python3
"""Large tfvars files: mapped, read by the fast path, their pages given back.

Files of 1 MiB and more are mapped rather than copied, and the fast reader
gives back the pages it has read (src/syntax/source.c, src/module/fastval.c).  This test
generates such modules at run time and checks that everything still sees
the file: the fast path against the general path (fastpath_diff: values,
types, sources, diagnostics), a value outside the fast path's subset at the
very end (the grammar reads the file again), a value that does not convert
(its expression is parsed afterwards), a syntax error at the end (its
source line is quoted), explain (it shows the text), and file sizes at and
around a page boundary (the two NUL bytes after the text).

  large_tfvars.py TFRESOLVE FASTPATH_DIFF
Prints "N passed, M failed" last.
"""
import os
import subprocess
import sys
import tempfile
import time

from harness import Tally
import harness

TYPE = """variable "items" {
  type = list(object({
    name    = string
    size    = optional(number, 1)
    enabled = optional(bool, true)
    tags    = optional(map(string), {})
  }))
}
"""


def element(i):
    tags = '{ team = "t%d", env = "prod" }' % (i % 7) if i % 3 == 0 else "{}"
    return '  { name = "item-%07d", size = %d, tags = %s },\n' % (i, i % 100, tags)


def body(n, last=None):
    out = ["items = [\n"]
    out += [element(i) for i in range(n)]
    if last:
        out.append(last)
    out.append("]\n")
    return "".join(out)


def pad_to(text, size):
    """text padded with a comment line so that it is exactly size bytes."""
    missing = size - len(text.encode())
    if missing < 3:
        raise ValueError("too long")
    return text + "#" + "x" * (missing - 2) + "\n"


def write(root, name, tfvars):
    d = os.path.join(root, name)
    os.makedirs(d)
    with open(os.path.join(d, "variables.tf"), "w") as f:
        f.write(TYPE)
    with open(os.path.join(d, "terraform.tfvars"), "w") as f:
        f.write(tfvars)
    return d


def flat(text):
    """text with its white space runs as one space: -no-color wraps the
    detail of a diagnostic (Terraform's DiagnosticPlain)."""
    return " ".join(text.split())


def run(args, cwd=None, timeout=120):
    """(status, stdout and stderr after it)."""
    rc, out, err = harness.run(args, cwd=cwd, errors="strict",
                               timeout=timeout)
    return rc, out + err


def main():
    tfresolve, diff = sys.argv[1], sys.argv[2]
    check = Tally(3000)

    with tempfile.TemporaryDirectory(prefix="large-tfvars-") as root:
        n = 30000  # about 1.7 MB
        mods = {
            "valid": body(n),
            "operator-at-end": body(n, '  { name = "x-${1 + 1}" },\n'),
            "type-error-at-end": body(n, '  { name = "bad", size = "huge" },\n'),
            "syntax-error-at-end": body(n, '  { name = "bad" size = 3 },\n'),
        }
        page = os.sysconf("SC_PAGE_SIZE")
        base = body(n)
        at = (len(base.encode()) // page + 2) * page
        for delta in (-2, -1, 0, 1):
            mods["size-%+d" % delta] = pad_to(base, at + delta)
        dirs = {k: write(root, k, v) for k, v in mods.items()}

        rc, out = run([diff] + list(dirs.values()))
        check(rc == 0, "fastpath_diff on large files", out)

        rc, out = run([tfresolve, "check", "-no-color", dirs["valid"]])
        check(rc == 0 and "Success" in out, "check valid", out)

        rc, out = run([tfresolve, "show", "-json", dirs["operator-at-end"]])
        check(rc == 0 and '"name":"x-2"' in out, "operator at the end", out)

        rc, out = run([tfresolve, "check", "-no-color", dirs["type-error-at-end"]])
        check(rc == 1 and "Invalid value for input variable" in out
              and "a number is required" in flat(out), "type error at the end",
              out)

        rc, out = run([tfresolve, "check", "-no-color",
                       dirs["syntax-error-at-end"]])
        check(rc == 1 and '{ name = "bad" size = 3 }' in out,
              "syntax error at the end, its line quoted", out)

        rc, out = run([tfresolve, "explain", "-no-color", "items",
                       dirs["valid"]])
        check(rc == 0 and "items = [" not in out and
              '{ name = "item-0000000", size = 0' in out and
              'item-0029999' not in out and "more lines" in out and
              len(out.splitlines()) < 200, "explain on a large file: cut", out)

        # a file cut short while it is read: a message, never a signal
        trunc = write(root, "truncated", body(4 * n))
        path = os.path.join(trunc, "terraform.tfvars")
        killed = 0
        for delay in (0.0, 0.01, 0.03):
            with open(path, "w") as f:
                f.write(body(4 * n))
            p = subprocess.Popen([tfresolve, "check", "-no-color", trunc],
                                 stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE, text=True)
            time.sleep(delay)
            os.truncate(path, 10)
            err = p.communicate()[1]
            if p.returncode < 0 or "AddressSanitizer" in err:
                killed += 1
                print(err[-2000:])
        check(killed == 0, "a file truncated while read: no crash")

        # a .tfvars.json of 200,000 properties, one set twice: the general
        # path finds it in linear time (a pairwise check took 25 s here,
        # far more under the sanitizers; linear: well under a second)
        dup = os.path.join(root, "json-duplicate")
        os.makedirs(dup)
        with open(os.path.join(dup, "main.tf"), "w") as f:
            f.write('variable "k1" {\n  type = string\n}\n')
        with open(os.path.join(dup, "terraform.tfvars.json"), "w") as f:
            f.write("{" + ",".join('"k%d": "v"' % i for i in range(200000)) +
                    ', "k5": "w"}')
        rc, out = run([tfresolve, "check", "-no-color", dup], timeout=20)
        check(rc == 1 and out.count("Duplicate attribute definition") == 1 and
              'The argument "k5" was already set at '
              in flat(out) and "terraform.tfvars.json:1,52-61." in out,
              "a property set twice among 200,000: found at once", out)

        # one line of 200,000 invalid characters: 200,000 diagnostics,
        # each column counted on from the one before (counted from the
        # line's start each time, it took 10 s in a release build)
        junk = os.path.join(root, "junk-line")
        os.makedirs(junk)
        with open(os.path.join(junk, "main.tf"), "w") as f:
            f.write('variable "x" {\n  type = string\n}\n')
        with open(os.path.join(junk, "terraform.tfvars"), "w") as f:
            f.write("x = " + "@" * 200000 + "\n")
        rc, out = run([tfresolve, "check", "-json", junk], timeout=60)
        check(rc == 1 and out.count('"Invalid character"') == 200000 and
              '"column": 200004' in out,
              "a line of 200,000 invalid characters: every one, in time",
              out[-2000:])

        # 20,000 variables whose values do not convert: each one's reason
        # found in one pass over the diagnostics (one search per variable
        # took 1.2 s in a release build, far more under the sanitizers)
        errs = os.path.join(root, "many-errors")
        os.makedirs(errs)
        with open(os.path.join(errs, "main.tf"), "w") as f:
            f.write("".join('variable "v%d" {\n  type = number\n}\n' % i
                            for i in range(20000)))
        with open(os.path.join(errs, "terraform.tfvars"), "w") as f:
            f.write("".join('v%d = "x"\n' % i for i in range(20000)))
        rc, out = run([tfresolve, "show", "-json", errs], timeout=60)
        check(rc == 1 and out.count('"reason": "Invalid value for input '
                                    'variable"') == 20000,
              "20,000 variables that do not convert: each says why, in time",
              out[-2000:])

        for k in mods:
            if k.startswith("size"):
                rc, out = run([tfresolve, "check", "-no-color", dirs[k]])
                check(rc == 0 and "Success" in out, "check " + k, out)

    return check.done()


if __name__ == "__main__":
    sys.exit(main())
