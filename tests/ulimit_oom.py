#!/usr/bin/env python3
"""Out of memory is a message, never a crash (issue 38, point 4).

The largest inputs (a module tree of many for_each instances, each given
big objects from a tfvars file, checked through a child and a grandchild;
a tfvars file of a long list of objects; a deep for expression; a large
regex, YAML, JSON and number workload) run under several address-space
limits (`ulimit -v`: RLIMIT_AS of 64, 128, 256 and 512 MiB, set in the
child before exec).  Each run must end by itself with an exit status:
the verdict the unlimited run gives, or status 2 with "tfresolve: out of
memory" on stderr (or, at the lowest limits, the dynamic loader's
failure to map a library: the program never started).  A signal
(SIGSEGV from a NULL written through or from a stack that could not
grow, SIGABRT from a library's own abort) fails.

Usage: ulimit_oom.py TFRESOLVE [SANITIZE]

SANITIZE is meson's b_sanitize of the build (tests/meson.build passes
it).  AddressSanitizer reserves terabytes of shadow address space, so a
sanitized binary cannot run under `ulimit -v`: then the binary named by
the environment variable TFR_PLAIN_BINARY (a build without sanitizers,
which `make test` builds and sets) is run instead, or the test is
skipped (exit 77).
Prints one line per failure, then "N passed, M failed".
"""
import os
import resource
import subprocess
import sys
import tempfile

LIMITS_MB = [64, 128, 256, 512]
FLOOR_MB = 16  # less than the binary and its libraries take
STEP_MB = 4
BAND = 6
TIMEOUT = 120
OOM = "tfresolve: out of memory"
LOADER = "error while loading shared libraries"


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def tree(root, n=2000, tags=20):
    """A root calling ./child once per item of a map (for_each), each
    child calling ../leaf three times (count): 2,000 + 6,000 instances,
    every one given the item's objects (about 4 MB of tfvars)."""
    write(os.path.join(root, "main.tf"), """
variable "items" {
  type = map(object({
    name  = string
    tags  = map(string)
    ports = list(number)
  }))
}
module "svc" {
  source   = "./child"
  for_each = var.items
  name     = each.value.name
  tags     = each.value.tags
  ports    = each.value.ports
}
""")
    write(os.path.join(root, "child", "main.tf"), """
variable "name" {
  type = string
  validation {
    condition     = length(var.name) > 0
    error_message = "The name must not be empty."
  }
}
variable "tags" { type = map(string) }
variable "ports" { type = list(number) }
module "leaf" {
  source = "../leaf"
  count  = 3
  name   = "${var.name}-${count.index}"
  tags   = merge(var.tags, { index = tostring(count.index) })
  ports  = [for p in var.ports : p + count.index]
}
""")
    write(os.path.join(root, "leaf", "main.tf"), """
variable "name" { type = string }
variable "tags" { type = map(string) }
variable "ports" { type = list(number) }
""")
    lines = ["items = {"]
    for i in range(n):
        t = ", ".join('t%d = "%s"' % (k, ("v%d-%d-" % (i, k)) * 6)
                      for k in range(tags))
        lines.append('  i%d = { name = "svc-%d", tags = { %s }, '
                     'ports = [%d, %d, %d] }' % (i, i, t, i, i + 1, i + 2))
    lines.append("}")
    write(os.path.join(root, "terraform.tfvars"), "\n".join(lines) + "\n")
    return ["check", "-no-color", root]


def big_list(root, n=100000):
    """One variable: a list of 100,000 objects (about 9 MB of tfvars)."""
    write(os.path.join(root, "main.tf"), """
variable "rows" {
  type = list(object({
    id   = number
    name = string
    tags = list(string)
    meta = optional(map(string), {})
  }))
}
""")
    with open(os.path.join(root, "terraform.tfvars"), "w") as f:
        f.write("rows = [\n")
        for i in range(n):
            f.write('  { id = %d, name = "row-%d-abcdefghijklmnop", '
                    'tags = ["a%d", "b%d", "c%d"] },\n' % (i, i, i, i, i))
        f.write("]\n")
    return ["show", "-json", root]


def many_vars(root, n=30000):
    """30,000 variables, each with a validation rule, each set in
    terraform.tfvars: the dependency graphs of validate.c and resolve.c."""
    with open(os.path.join(root, "main.tf"), "w") as f:
        for i in range(n):
            f.write('variable "v%d" {\n  type = string\n  validation {\n'
                    '    condition     = length(var.v%d) > 0\n'
                    '    error_message = "The value must not be empty."\n'
                    '  }\n}\n' % (i, i))
    with open(os.path.join(root, "terraform.tfvars"), "w") as f:
        for i in range(n):
            f.write('v%d = "value-%d"\n' % (i, i))
    return ["check", "-no-color", root]


# Expressions: range() gives at most 1,024 values (as Terraform's), so
# the big ones nest two.
DEEP_FOR = ('length(flatten([for i in range(1000) : [for j in range(200) : '
            '{ k = "${i}-${j}", v = [i, j, "${j}${i}"] }]]))')
# parseint of a number of 4,000,000 digits: MPFR, through GMP's
# allocation functions (GMP aborts when its allocation fails).
BIG_NUMBER = ('parseint(join("", [for i in range(1000) : join("", '
              '[for j in range(400) : "1234567890"])]), 10) > 0')
# RE2 (C++, std::bad_alloc), libyaml (a long scalar: its documents of
# many nodes are slow to decode today) and the JSON reader.
FUNCTIONS = ('length(regexall("[a-z]+[0-9]+", join(",", flatten([for i in '
             'range(1000) : [for j in range(60) : "abc${i}x${j}"]])))) + '
             'length(yamldecode(jsonencode(join(",", flatten([for i in '
             'range(1000) : [for j in range(100) : "x${i}-${j}"]]))))) + '
             'length(jsondecode(jsonencode([for i in range(1000) : [for j in '
             'range(30) : [i, pow(2, j * 30)]]])))')


# JSON and YAML nested 9,999 levels: under a limit the CLI's thread of a
# 256 MiB stack cannot start (src/cli/cli.c runs the command on the main
# thread instead), and the readers' recursion must still fit.
DEEP_DECODE = ('length(jsondecode("%s1%s")) + length(yamldecode("%s1%s"))'
               % ("[" * 9999, "]" * 9999, "[" * 9999, "]" * 9999))


def cases(tmp):
    """(name, argv after the binary) of every workload."""
    out = []
    for name, make in (("tree", tree), ("big-list", big_list),
                       ("many-vars", many_vars)):
        d = os.path.join(tmp, name)
        os.makedirs(d)
        out.append((name, make(d)))
    for name, expr in (("deep-for", DEEP_FOR), ("big-number", BIG_NUMBER),
                       ("functions", FUNCTIONS),
                       ("deep-decode", DEEP_DECODE)):
        out.append((name, ["eval", "-functions", expr]))
    return out


def limit(mb):
    def set_limit():
        b = mb << 20
        resource.setrlimit(resource.RLIMIT_AS, (b, b))
    return set_limit


# The environment of the runs: the plain binary of a sanitized build's
# suite must not load the sanitized library that meson's LD_LIBRARY_PATH
# names (its own RUNPATH finds its own).
ENV = None


def run(binary, argv, mb=None):
    try:
        p = subprocess.run([binary] + argv, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=TIMEOUT,
                           preexec_fn=limit(mb) if mb else None, env=ENV)
    except subprocess.TimeoutExpired:
        return None, "timed out after %d s" % TIMEOUT
    return p.returncode, p.stderr.decode("utf-8", "replace")


def judge(name, mb, want, rc, err):
    """None when the run under mb MiB ended as it may, else why not."""
    if rc is not None and (rc == want or (rc == 2 and OOM in err)):
        return None
    if rc == 127 and LOADER in err:  # never started: not tfresolve's code
        return None
    why = ("killed by signal %d" % -rc if rc is not None and rc < 0 else
           "timed out" if rc is None else "exit status %d" % rc)
    return ("%s under ulimit -v %dM: %s (want %d, or 2 and \"%s\"); "
            "stderr: %s" % (name, mb, why, want, OOM, err.strip()[-300:]))


def limits(binary, argv, want, check):
    """The limits a workload runs under: LIMITS_MB, and BAND limits STEP
    MiB apart right below the least one (found by bisection, to STEP)
    under which it gives its verdict: where memory runs out in its last
    stages, at a different allocation each time.  check(mb) runs it."""
    for mb in LIMITS_MB:
        check(mb)
    lo, hi = FLOOR_MB, max(LIMITS_MB)  # lo fails, hi passes (if at all)
    if not check(hi):
        return
    while hi - lo > STEP_MB:
        mid = (lo + hi) // 2
        if check(mid):
            hi = mid
        else:
            lo = mid
    for k in range(1, BAND + 1):
        if hi - k * STEP_MB > FLOOR_MB:
            check(hi - k * STEP_MB)


def main():
    binary = sys.argv[1]
    sanitize = sys.argv[2] if len(sys.argv) > 2 else "none"
    if sanitize not in ("", "none"):
        global ENV
        ENV = {k: v for k, v in os.environ.items()
               if k not in ("LD_LIBRARY_PATH", "LD_PRELOAD")}
        binary = os.environ.get("TFR_PLAIN_BINARY", "")
        if not binary:
            print("SKIP a %s build cannot run under ulimit -v, and "
                  "TFR_PLAIN_BINARY names no build without sanitizers"
                  % sanitize)
            return 77
    if not os.access(binary, os.X_OK):
        print("FAIL %s is not an executable" % binary)
        print("0 passed, 1 failed")
        return 1
    passed = failed = 0
    with tempfile.TemporaryDirectory(prefix="tfr-ulimit-") as tmp:
        for name, argv in cases(tmp):
            want, err = run(binary, argv)
            if want is None or want < 0 or want == 2:
                print("FAIL %s: the unlimited run ended with %s: %s"
                      % (name, want, err.strip()[-300:]))
                failed += 1
                continue
            done = {}

            def check(mb):
                nonlocal passed, failed
                if mb not in done:
                    rc, err = run(binary, argv, mb)
                    bad = judge(name, mb, want, rc, err)
                    if bad:
                        print("FAIL " + bad)
                    failed += bool(bad)
                    passed += not bad
                    done[mb] = rc == want
                return done[mb]
            limits(binary, argv, want, check)
            sys.stdout.flush()
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
