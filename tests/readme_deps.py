#!/usr/bin/env python3
"""The package lists of README.md and the Makefile against meson.build.

  readme_deps.py SOURCE_ROOT

Every `dependency('NAME')` of meson.build (the build's) is a pkg-config
module; the Debian package that ships NAME.pc (`dpkg -S`) must be in:
  - every `apt-get install` command of README.md that builds tfresolve
    (one that installs gcc: the build-from-source recipe), with the
    build tools (gcc g++ flex bison meson ninja-build pkg-config);
  - the Makefile's BUILD_PKGS, and NAME in its BUILD_PC.
The suite's (tests/meson.build's dependency('NAME'), and cmocka) must be
in README's suite command (the `apt-get install` without gcc) and in the
Makefile's TEST_PKGS / TEST_PC.  A recipe that runs `meson setup` for a
release build must say -Dtests=disabled (no test library needed).
Skipped (exit 77) without dpkg.  Prints PASS/FAIL lines and "N passed,
M failed" last.
"""
import os
import re
import shutil
import subprocess
import sys

TOOLS = ["gcc", "g++", "flex", "bison", "meson", "ninja-build", "pkg-config"]


# threads: the C library's; libbsd: only the static release build's
# (-Dstatic: libedit's archive needs it; libedit-dev depends on it)
def deps(path, skip=("threads", "libbsd")):
    text = open(path).read()
    text = re.sub(r"#[^\n]*", "", text)
    return sorted({m for m in re.findall(r"dependency\('([^']+)'", text)
                   if m not in skip})


def deb_of(module):
    p = subprocess.run(["dpkg", "-S", "*/pkgconfig/%s.pc" % module],
                       capture_output=True, text=True)
    if p.returncode != 0 or ":" not in p.stdout:
        return None
    return p.stdout.split(":", 1)[0].split(",")[0].strip()


def commands(readme):
    """Each `apt-get install` command (continued lines joined): its words."""
    text = readme.replace("\\\n", " ")
    out = []
    for line in text.split("\n"):
        if "apt-get install" in line:
            words = line.split("apt-get install", 1)[1].split()
            out.append([w for w in words if not w.startswith("-")])
    return out


def make_list(makefile, name):
    text = open(makefile).read().replace("\\\n", " ")
    m = re.search(r"^%s\s*=\s*(.*)$" % name, text, re.M)
    return m.group(1).split() if m else []


def main():
    root = sys.argv[1]
    if not shutil.which("dpkg"):
        print("SKIP no dpkg: the package names are Debian's")
        return 77
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    build = [m for m in deps(os.path.join(root, "meson.build"))
             if m != "cmocka"]
    test = deps(os.path.join(root, "tests", "meson.build")) + ["cmocka"]
    test = sorted(set(test) - set(build))
    pkgs = {}
    for m in build + test:
        d = deb_of(m)
        check(d is not None, "pkg-config module %s ships in a Debian package "
              "(%s)" % (m, d))
        pkgs[m] = d
    readme = open(os.path.join(root, "README.md")).read()
    cmds = commands(readme)
    builds = [c for c in cmds if "gcc" in c]
    suites = [c for c in cmds if "gcc" not in c and "libcmocka-dev" in c]
    check(len(builds) >= 1, "README has the build recipe "
          "(%d apt-get install commands with gcc)" % len(builds))
    check(len(suites) >= 1, "README has the suite's apt-get install")
    for i, c in enumerate(builds):
        need = TOOLS + [pkgs[m] for m in build if pkgs.get(m)]
        missing = [p for p in need if p not in c]
        check(not missing, "README build command %d has every build package%s"
              % (i + 1, ": missing " + " ".join(missing) if missing else ""))
    for c in suites:
        missing = [pkgs[m] for m in test if pkgs.get(m) and pkgs[m] not in c]
        check(not missing, "README suite command has the suite's packages%s"
              % (": missing " + " ".join(missing) if missing else ""))
    for line in readme.split("\n"):
        if "meson setup" in line and "--buildtype=release" in line:
            check("-Dtests=disabled" in line,
                  "release recipe needs no test library: %s" % line.strip())
    mk = os.path.join(root, "Makefile")
    bp, tp = make_list(mk, "BUILD_PKGS"), make_list(mk, "TEST_PKGS")
    bpc, tpc = make_list(mk, "BUILD_PC"), make_list(mk, "TEST_PC")
    missing = [p for p in TOOLS + [pkgs[m] for m in build if pkgs.get(m)]
               if p not in bp]
    check(not missing, "Makefile BUILD_PKGS complete%s"
          % (": missing " + " ".join(missing) if missing else ""))
    missing = [pkgs[m] for m in test if pkgs.get(m) and pkgs[m] not in tp]
    check(not missing, "Makefile TEST_PKGS complete%s"
          % (": missing " + " ".join(missing) if missing else ""))
    check(sorted(bpc) == sorted(build), "Makefile BUILD_PC is meson.build's "
          "dependencies (%s)" % " ".join(build))
    check(sorted(tpc) == sorted(test), "Makefile TEST_PC is the suite's "
          "(%s)" % " ".join(test))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
