#!/usr/bin/env python3
"""`init -out=FILE -force` replaces FILE whole or not at all, and never
through a symbolic link (issue 31, point 11):

  - a symlink FILE whose target is a regular file (or missing) is refused
    with a message, the link and its target untouched;
  - when writing fails (a file size limit, RLIMIT_FSIZE, makes write()
    fail with EFBIG as a full disk fails with ENOSPC) the old FILE is
    intact and no temporary file is left;
  - -force replaces a regular FILE with the template, keeping its mode;
  - a new FILE is written; -out=/dev/stdout (a link to a non-regular
    file) is still written in place.

  init_out.py TFRESOLVE SOURCE_ROOT

Prints PASS/FAIL lines and "N passed, M failed" last."""
import os
import resource
import signal
import stat
import subprocess
import sys
import tempfile

OLD = "# the old file, kept\n"


def main():
    tool, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    module = os.path.join(root, "fixtures", "demo")
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("PASS " if ok else "FAIL ") + what)
        passed += bool(ok)
        failed += not ok

    def init(out, *extra, limit=None):
        def cap():  # EFBIG instead of SIGXFSZ past the limit
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
        return subprocess.run(
            [tool, "init", "-force", "-out=" + out, *extra, module],
            capture_output=True, text=True, timeout=60,
            preexec_fn=cap if limit else None)

    template = subprocess.run([tool, "init", module], capture_output=True,
                              text=True, check=True).stdout

    with tempfile.TemporaryDirectory() as d:
        # a symlink to a regular file
        target = os.path.join(d, "target.tfvars")
        link = os.path.join(d, "link.tfvars")
        with open(target, "w") as f:
            f.write(OLD)
        os.symlink("target.tfvars", link)
        p = init(link)
        check(p.returncode == 2, "symlink: exit 2 (got %d)" % p.returncode)
        check("is a symbolic link (to target.tfvars)" in p.stderr,
              "symlink: said so: " + p.stderr.strip())
        check(open(target).read() == OLD, "symlink: its target untouched")
        check(os.path.islink(link) and os.readlink(link) == "target.tfvars",
              "symlink: the link untouched")
        # a dangling symlink: -force would create its target
        dangling = os.path.join(d, "dangling.tfvars")
        os.symlink("nowhere.tfvars", dangling)
        p = init(dangling)
        check(p.returncode == 2 and not os.path.exists(
            os.path.join(d, "nowhere.tfvars")),
            "dangling symlink: refused, nothing created")

        # writing fails: the old file stays whole
        old = os.path.join(d, "terraform.tfvars")
        with open(old, "w") as f:
            f.write(OLD)
        p = init(old, limit=len(template) // 2)
        check(p.returncode == 2 and "cannot write" in p.stderr,
              "write fails: exit 2 with a message (got %d: %s)"
              % (p.returncode, p.stderr.strip()))
        check(open(old).read() == OLD, "write fails: the old file intact")
        left = sorted(n for n in os.listdir(d) if "tfresolve" in n)
        check(not left, "write fails: no temporary file left %s" % left)

        # -force replaces a regular file, keeping its mode
        os.chmod(old, 0o640)
        p = init(old)
        check(p.returncode == 0 and open(old).read() == template,
              "-force: the file replaced by the template")
        check(stat.S_IMODE(os.stat(old).st_mode) == 0o640,
              "-force: its mode kept (%o)" % stat.S_IMODE(os.stat(old).st_mode))

        # a new file
        new = os.path.join(d, "new.tfvars")
        p = subprocess.run([tool, "init", "-out=" + new, module],
                           capture_output=True, text=True, timeout=60)
        check(p.returncode == 0 and open(new).read() == template,
              "a new file written")

    # through /dev/stdout: a link to what is not a regular file
    p = subprocess.run([tool, "init", "-force", "-out=/dev/stdout", module],
                       capture_output=True, text=True, timeout=60)
    check(p.returncode == 0 and p.stdout.startswith(template),
          "-out=/dev/stdout -force: written in place")

    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
