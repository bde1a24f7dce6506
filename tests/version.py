#!/usr/bin/env python3
"""tfresolve -version: the version meson.build gives, the commit the
sources are at, and every library inside with a version.

    version.py TFRESOLVE SRCDIR [VERSION]

VERSION defaults to meson.build's project version.  The commit must be
one of SRCDIR's history (what `git describe` said when the binary was
built: 12 hex digits, "-dirty" when modified), or "unknown" outside a git
checkout.  Used by the
suite on the build under test and by the release check on the static
binaries (run through qemu-user when TFRESOLVE is a command line).
Last line: "N passed, M failed"."""
import os
import re
import shlex
import subprocess
import sys

LIBS = ["utf8proc", "MPFR", "GMP", "libyaml", "RE2", "OpenSSL", "zlib",
        "libxcrypt", "libedit", "jansson"]


def main():
    cmd = shlex.split(sys.argv[1])
    src = sys.argv[2]
    if len(sys.argv) > 3:
        version = sys.argv[3]
    else:
        with open(os.path.join(src, "meson.build")) as f:
            version = re.search(r"version\s*:\s*'([^']+)'", f.read()).group(1)
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        if ok:
            passed += 1
        else:
            failed += 1
            print("FAIL: " + what)

    outs = []
    for flag in ("-version", "--version", "-v"):
        p = subprocess.run(cmd + [flag], capture_output=True, text=True,
                           timeout=60)
        check(p.returncode == 0 and p.stderr == "",
              f"{flag}: exit status {p.returncode}, stderr {p.stderr!r}")
        outs.append(p.stdout)
    check(outs[0] == outs[1] == outs[2], "-version, --version and -v differ")
    lines = outs[0].split("\n")
    m = re.fullmatch(r"tfresolve (\S+) \(commit (\S+)\)", lines[0])
    check(m is not None, f"first line: {lines[0]!r}")
    if m:
        check(m.group(1) == version,
              f"version {m.group(1)}, meson.build says {version}")
        commit = m.group(2)
        want = ""
        if os.path.exists(os.path.join(src, ".git")):
            try:
                want = subprocess.run(
                    ["git", "-C", src, "describe", "--always", "--dirty",
                     "--abbrev=12", "--exclude=*"],
                    capture_output=True, text=True).stdout.strip()
            except OSError:  # no git: the build had none either
                pass
        if want:
            # the build records the tree as it was built (a commit made
            # since is not in a binary not rebuilt yet): a commit of this
            # tree's history, HEAD's when built now
            h = commit.removesuffix("-dirty")
            known = re.fullmatch(r"[0-9a-f]{12}", h) and subprocess.run(
                ["git", "-C", src, "merge-base", "--is-ancestor", h, "HEAD"],
                capture_output=True).returncode == 0
            check(known, f"commit {commit}: not one of HEAD's history "
                  f"(git describe says {want})")
        else:
            check(commit == "unknown" or re.fullmatch(r"[0-9a-f]{7,40}(-dirty)?",
                                                      commit),
                  f"commit {commit!r}")
    built = [line for line in lines if line.startswith("Built with ")]
    check(len(built) == 1, "no \"Built with\" line")
    if built:
        text = built[0][len("Built with "):].rstrip(".")
        got = {}
        for part in text.split(", "):
            name, _, ver = part.partition(" ")
            got[name] = ver
        for lib in LIBS:
            check(re.fullmatch(r"\d+(\.\d+)*[a-z]?", got.get(lib, "")),
                  f"library {lib}: version {got.get(lib)!r} in {text!r}")
        check(sorted(got) == sorted(LIBS), f"libraries named: {sorted(got)}")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
