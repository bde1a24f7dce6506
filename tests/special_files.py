#!/usr/bin/env python3
"""Files of a module directory that are not regular files: refused at once.

  special_files.py TFRESOLVE

A FIFO named terraform.tfvars, x.auto.tfvars or other.tf, or a symbolic
link to /dev/zero named y.auto.tfvars, would block a run forever (nobody
writes to the FIFO) or read without end: each is a "Failed to read
variables file" (or for a .tf file "Failed to read file") error with the
file's name, at once (well within the time limit here).  A pipe the user
names with -var-file (as -var-file=<(command) does) is read, as Terraform
reads it, up to the memory budget (-max-memory; /dev/zero is an error).

Output that cannot be written (stdout on a full disk) is an error (exit
2), never lost in silence.

check -recursive has no depth limit: a module 200 directories down is
checked; a directory whose path is too long to open is a "Directory not
searched" error (exit 1), never skipped in silence.

fileset() does not walk back into a directory it is in (links to `..`),
and what it collects stays inside the memory budget (-max-memory=64M:
"value too large" for 2^24 paths, peak memory near the budget).

Prints a line per failure and "N passed, M failed" last.
"""
import os
import subprocess
import sys
import tempfile
import threading

from tally import Tally

LIMIT = 30  # seconds: a blocked run is a failure, not a hang of the suite


def flat(text):
    """text with its white space runs as one space: -no-color wraps the
    detail of a diagnostic (Terraform's DiagnosticPlain)."""
    return " ".join(text.split())


def main():
    tool = os.path.abspath(sys.argv[1])
    check = Tally(2000)

    def run(d, args, **kw):
        try:
            p = subprocess.run([tool] + args, cwd=d, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT, text=True,
                               timeout=LIMIT, **kw)
            return p.returncode, p.stdout
        except subprocess.TimeoutExpired:
            return -9, "blocked: stopped after %d s" % LIMIT

    def run_peak(d, args):
        """run, and the child's peak memory (maximum resident set) in
        bytes; AddressSanitizer's quarantine of freed memory capped."""
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
            out.seek(0)
            text = out.read().decode("utf-8", "replace")
        return os.waitstatus_to_exitcode(status), text, usage.ru_maxrss << 10

    cases = [("terraform.tfvars", "fifo"), ("x.auto.tfvars", "fifo"),
             ("other.tf", "fifo"), ("y.auto.tfvars", "/dev/zero")]
    with tempfile.TemporaryDirectory(prefix="special-files.") as root:
        for name, kind in cases:
            d = os.path.join(root, name.replace(".", "-"))
            os.mkdir(d)
            with open(os.path.join(d, "main.tf"), "w") as f:
                f.write('variable "x" {\n  default = 1\n}\n')
            path = os.path.join(d, name)
            if kind == "fifo":
                os.mkfifo(path)
            else:
                os.symlink(kind, path)
            for cmd in (["check", "-no-color"], ["show", "-json"]):
                rc, out = run(d, cmd)
                # Terraform's summary for a values file, and for others
                what = ("Failed to read variables file" if "tfvars" in name
                        else "Failed to read file")
                check(rc == 1 and what in out and
                      name in out and "not a regular file" in out,
                      "%s %s: refused at once" % (kind, name),
                      "exit %d\n%s" % (rc, out))
        # a pipe the user names is read
        d = os.path.join(root, "pipe")
        os.mkdir(d)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write('variable "x" {\n  type = number\n}\n')
        r, w = os.pipe()
        os.write(w, b"x = 42\n")
        os.close(w)
        rc, out = run(d, ["show", "-json", "-var-file=/dev/fd/%d" % r],
                      pass_fds=(r,))
        os.close(r)
        check(rc == 0 and '"value": 42' in out,
              "-var-file naming a pipe is read", "exit %d\n%s" % (rc, out))
        # a device without end, named by the user: read up to the budget
        rc, out = run(d, ["show", "-no-color", "-max-memory=1M",
                          "-var-file=/dev/zero"])
        check(rc == 1 and "Failed to read variables file" in out and
              "read /dev/zero: larger than this run's memory budget"
              in flat(out),
              "-var-file=/dev/zero stops at the memory budget",
              "exit %d\n%s" % (rc, out))
        # a regular file larger than the budget: not mapped past it either
        big = os.path.join(d, "big.tfvars")
        with open(big, "w") as f:
            f.write("# %s\nx = 42\n" % ("y" * (2 << 20)))
        rc, out = run(d, ["show", "-no-color", "-max-memory=1M",
                          "-var-file=big.tfvars"])
        check(rc == 1 and "Failed to read variables file" in out and
              "larger than this run's memory budget" in flat(out),
              "a 2 MiB -var-file stops at a 1 MiB budget",
              "exit %d\n%s" % (rc, out[-2000:]))
        rc, out = run(d, ["show", "-json", "-max-memory=16M",
                          "-var-file=big.tfvars"])
        check(rc == 0 and '"value": 42' in out,
              "the same file is read under a budget it fits",
              "exit %d\n%s" % (rc, out[-300:]))
        os.unlink(big)
        # output that cannot be written (a full disk): an error, exit 2,
        # never exit 0 with the output lost; for a large value (written as
        # it is made) and a small one (written at exit)
        full_dir = os.path.join(root, "full")
        os.mkdir(full_dir)
        with open(os.path.join(full_dir, "main.tf"), "w") as f:
            f.write('variable "l" {\n  type = list(number)\n}\n')
        with open(os.path.join(full_dir, "terraform.tfvars"), "w") as f:
            f.write("l = [%s]\n" % ", ".join(["1 + 1"] * 40000))
        for args in (["show"], ["show", "-json"], ["explain", "l"],
                     ["eval", "1 + 1"]):
            try:
                with open("/dev/full", "w") as full:
                    p = subprocess.run([tool] + args, cwd=full_dir, stdout=full,
                                       stderr=subprocess.PIPE, text=True,
                                       timeout=LIMIT)
                rc, err = p.returncode, p.stderr
            except (OSError, subprocess.TimeoutExpired) as e:
                rc, err = -1, str(e)
            check(rc == 2 and "error writing the output" in err,
                  "%s into a full disk: exit 2, said" % " ".join(args),
                  "exit %d\n%s" % (rc, err))
        # a module directory that cannot be listed: a usage error (exit
        # 2) that says why; as root, run as nobody to be refused
        locked = os.path.join(root, "locked")
        os.mkdir(locked)
        with open(os.path.join(locked, "main.tf"), "w") as f:
            f.write('variable "x" {\n  default = 1\n}\n')
        os.chmod(locked, 0)
        os.chmod(root, 0o755)
        prefix = []
        if os.geteuid() == 0:
            prefix = ["setpriv", "--reuid=65534", "--regid=65534",
                      "--clear-groups", "--"]
        try:
            p = subprocess.run(prefix + [tool, "show", "locked"], cwd=root,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=LIMIT)
            rc, out = p.returncode, p.stdout
        except (OSError, subprocess.TimeoutExpired) as e:
            rc, out = -1, str(e)
        if rc == -1 or out.startswith("setpriv"):
            print("SKIP an unreadable DIR: cannot drop root here (%s)" % out)
        else:
            check(rc == 2 and "cannot use locked as the module directory" in out
                  and "Permission denied" in out,
                  "an unreadable DIR is a usage error that says why",
                  "exit %d\n%s" % (rc, out))
        os.chmod(locked, 0o700)
        # check -recursive: deep trees
        deep = os.path.join(root, "deep")
        os.mkdir(deep)
        d = os.path.join(deep, *["d%d" % i for i in range(200)])
        os.makedirs(d)
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write('variable "x" {\n  type = number\n  default = "a"\n}\n')
        rc, out = run(deep, ["check", "-recursive", "-no-color", "."])
        check(rc == 1 and "d199: INVALID" in out,
              "check -recursive reaches a module 200 directories down",
              "exit %d\n%s" % (rc, out[-3000:]))
        far = os.path.join(root, "far")
        os.mkdir(far)
        with open(os.path.join(far, "main.tf"), "w") as f:
            f.write('variable "y" {\n  default = 1\n}\n')
        here = os.getcwd()
        os.chdir(far)
        try:
            for i in range(40):  # 40 x 124 bytes: past PATH_MAX
                n = "d%02d" % i + "x" * 120
                os.mkdir(n)
                os.chdir(n)
            with open("main.tf", "w") as f:
                f.write('variable "z" {\n  default = 1\n}\n')
        finally:
            os.chdir(here)
        for fmt in ([], ["-json"]):
            rc, out = run(far, ["check", "-recursive", "-no-color"] + fmt +
                          ["."])
            check(rc == 1 and "Directory not searched" in out,
                  "check -recursive %s: a path too long to open is an error"
                  % " ".join(fmt), "exit %d\n%s" % (rc, out[-3000:]))
        # file() and its kin on what is not a regular file, and on more
        # than the memory budget: refused at once, never a wait or a read
        # without end
        fifo = os.path.join(root, "fn.fifo")
        os.mkfifo(fifo)
        big = os.path.join(root, "big.txt")
        with open(big, "wb") as f:
            # (in pieces: this process's own peak would be its children's
            # too, as the kernel counts a vforked child's peak from exec)
            for _ in range(80):
                f.write(b"x" * (1 << 20))
        for expr, what in (('file("%s")' % fifo, "not a regular file"),
                           ('templatefile("%s", {})' % fifo,
                            "not a regular file"),
                           ('filemd5("/dev/zero")', "not a regular file"),
                           ('length(file("%s"))' % big,
                            "larger than this run's memory budget")):
            rc, out = run(root, ["-max-memory=64M", "eval", "-functions",
                                 "-no-color", expr])
            check(rc == 1 and what in flat(out),
                  "eval %s: an error (%s)" % (expr, what),
                  "exit %d\n%s" % (rc, out[-2000:]))
        # yamldecode of many entries in bounded time (a position search
        # from the start for each entry made 40,000 take a minute)
        yml = os.path.join(root, "many.yaml")
        with open(yml, "w") as f:
            f.write("".join("k%d: %d\n" % (i, i) for i in range(40000)))
        rc, out = run(root, ["eval", "-functions",
                             'length(yamldecode(file("%s")))' % yml])
        check(rc == 0 and out.strip() == "40000",
              "yamldecode of 40,000 entries within %d s" % LIMIT,
              "exit %d\n%s" % (rc, out[-2000:]))
        # fileset follows symbolic links to directories (as doublestar
        # v1 does) but not back into a directory it is in: two links to
        # `..` made 2^40 paths; what a walk collects stays inside the
        # memory budget (links that double the paths 24 times); FIFOs and
        # devices are not files it lists
        base_peak = run_peak(root, ["eval", "1"])[2]
        fs = os.path.join(root, "fs", "w")
        os.makedirs(os.path.join(fs, "sub"))
        for name in ("a.txt", os.path.join("sub", "b.txt")):
            open(os.path.join(fs, name), "w").close()
        os.mkfifo(os.path.join(fs, "sub", "fifo"))
        os.symlink("/dev/null", os.path.join(fs, "null"))
        os.symlink("..", os.path.join(fs, "up1"))
        os.symlink("..", os.path.join(fs, "up2"))
        os.symlink("../..", os.path.join(fs, "sub", "top"))
        rc, out, peak = run_peak(root, ["-max-memory=64M", "eval",
                                        "-functions", "-json",
                                        'fileset("%s", "**")' % fs])
        check(rc == 0 and out.strip() == '{"type":["set","string"],'
              '"value":["a.txt","sub/b.txt"]}',
              "fileset through links to .. ends, files only",
              "exit %d\n%s" % (rc, out[-2000:]))
        check(peak < base_peak + (40 << 20),
              "fileset through links to ..: peak memory",
              "%d MB over a trivial run's" % ((peak - base_peak) >> 20))
        chain = os.path.join(root, "chain")
        for i in range(25):
            os.makedirs(os.path.join(chain, "c%d" % i))
            open(os.path.join(chain, "c%d" % i, "f"), "w").close()
            if i < 24:
                for ln in ("x", "y"):
                    os.symlink("../c%d" % (i + 1),
                               os.path.join(chain, "c%d" % i, ln))
        rc, out, peak = run_peak(root, ["-max-memory=64M", "eval",
                                        "-functions", "-no-color",
                                        'length(fileset("%s/c0", "**"))'
                                        % chain])
        check(rc == 1 and "value too large" in out and
              "memory budget (-max-memory)" in flat(out),
              "fileset of 2^24 paths: value too large",
              "exit %d\n%s" % (rc, out[-2000:]))
        check(peak < base_peak + (64 << 20) * 5 // 4 + (40 << 20),
              "fileset of 2^24 paths: peak memory near the budget",
              "%d MB over a trivial run's" % ((peak - base_peak) >> 20))
        # a minified .tfvars.json setting one name 80,000 times: each
        # diagnostic's column counted on, not from the line start
        dup = os.path.join(root, "dup")
        os.mkdir(dup)
        with open(os.path.join(dup, "main.tf"), "w") as f:
            f.write('variable "a" {\n  default = 1\n}\n')
        with open(os.path.join(dup, "x.auto.tfvars.json"), "w") as f:
            f.write("{" + ",".join('"a": %d' % i for i in range(80000)) + "}")
        rc, out = run(dup, ["check", "-json"])
        check(rc == 1 and out.count("Duplicate attribute definition") >= 79999,
              "80,000 repeats of a name in one JSON line within %d s" % LIMIT,
              "exit %d\n%s" % (rc, out[-2000:]))
        # the tree is too deep for rmtree's paths: empty it from inside
        os.chdir(far)
        try:
            names = []
            for i in range(40):
                n = "d%02d" % i + "x" * 120
                os.chdir(n)
                names.append(n)
            os.remove("main.tf")
            for n in reversed(names):
                os.chdir("..")
                os.rmdir(n)
        finally:
            os.chdir(here)
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
