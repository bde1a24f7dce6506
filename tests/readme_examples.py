#!/usr/bin/env python3
"""Every example of README.md, run as written, prints what README says.

  readme_examples.py TFRESOLVE SOURCE_ROOT

An example is an indented block whose lines start with "$ " (a command)
followed by its output.  "$ cd DIR" changes the directory for the rest
of the block (blocks start at the source root); a comment after two or
more spaces ("   # ...") is not part of the command.  Each command runs
with sh, TFRESOLVE's directory first on PATH, in an environment of its
own (PATH, HOME, LANG=C.UTF-8), its standard error after its standard
output.  In the expected output a line "..." stands for any number of
lines, and an output holding one is an excerpt: its first and last lines
may be left out too.  Commands whose output cannot be the same everywhere (SKIP: the
commit -version names, an interactive console) are listed below.
Prints PASS/FAIL per command and "N passed, M failed" last."""
import os
import re
import subprocess
import sys

FIX = [] if os.environ.get("README_FIX") == "1" else None

SKIP = {
    "tfresolve -version": "names the commit and library versions of the build",
    "tfresolve console": "interactive (a terminal)",
}


def blocks(readme):
    out, cur = [], None
    for line in readme.split("\n"):
        if line.startswith("    ") or (cur is not None and line == ""):
            if cur is None:
                cur = []
            cur.append(line[4:])
        else:
            if cur is not None:
                out.append(cur)
            cur = None
    if cur is not None:
        out.append(cur)
    return [b for b in out if any(x.startswith("$ ") for x in b)]


def matches(expected, actual):
    """expected may hold "..." lines: any number of lines."""
    if not expected:
        return not actual
    if expected[0].strip() == "...":
        return any(matches(expected[1:], actual[i:])
                   for i in range(len(actual) + 1))
    return bool(actual) and expected[0] == actual[0] and \
        matches(expected[1:], actual[1:])


def main():
    tool, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    readme = open(os.path.join(root, "README.md")).read()
    env = {"PATH": os.path.dirname(tool) + ":" + os.environ.get("PATH", ""),
           "HOME": os.environ.get("HOME", "/"), "LANG": "C.UTF-8"}
    # standard output line-buffered, as on a terminal, so that it
    # interleaves with the diagnostics on standard error as README shows
    # (coreutils' stdbuf, through its preload library)
    for lib in ("/usr/libexec/coreutils/libstdbuf.so",
                "/usr/lib/coreutils/libstdbuf.so"):
        if os.path.exists(lib):
            env.update(LD_PRELOAD=lib, _STDBUF_O="L",
                       ASAN_OPTIONS="verify_asan_link_order=0:detect_leaks=0")
            break
    passed = failed = 0
    for b in blocks(readme):
        cwd = root
        i = 0
        while i < len(b):
            if not b[i].startswith("$ "):
                i += 1
                continue
            cmd = re.sub(r"\s{2,}#.*$", "", b[i][2:]).strip()
            j = i + 1
            while j < len(b) and not b[j].startswith("$ "):
                j += 1
            expected = [x.rstrip() for x in b[i + 1:j]]
            while expected and not expected[-1]:
                expected.pop()
            i = j
            if cmd.startswith("cd "):
                # README gives every directory from the source root
                cwd = os.path.normpath(os.path.join(root, cmd[3:].strip()))
                continue
            if cmd in SKIP:
                print("SKIP %s: %s" % (cmd, SKIP[cmd]))
                continue
            p = subprocess.run(["sh", "-c", cmd + " 2>&1"], cwd=cwd, env=env,
                               capture_output=True, text=True, timeout=60)
            actual = [x.rstrip() for x in p.stdout.split("\n")]
            while actual and not actual[-1]:
                actual.pop()
            where = os.path.relpath(cwd, root)
            if FIX is not None and not matches(expected, actual) and \
                    "..." not in expected:
                FIX.append((cmd, expected, actual))
            # an excerpt (with "...") may leave out the first and last lines
            excerpt = ["..."] + expected + ["..."] if any(x.strip() == "..." for x in expected) \
                else expected
            if matches(excerpt, actual):
                passed += 1
                print("PASS (%s) $ %s" % (where, cmd))
            else:
                failed += 1
                print("FAIL (%s) $ %s\n--- README\n%s\n--- actual\n%s\n---" % (
                    where, cmd, "\n".join(expected), "\n".join(actual)))
    if FIX:  # README_FIX=1: write the actual outputs into README.md
        for cmd, expected, actual in FIX:
            old_text = "\n".join("    " + x if x else "" for x in
                                 ["$ " + cmd] + expected)
            new_text = "\n".join("    " + x if x else "" for x in
                                 ["$ " + cmd] + actual)
            if readme.count(old_text) == 1:
                readme = readme.replace(old_text, new_text)
                print("FIXED $ " + cmd)
        with open(os.path.join(root, "README.md"), "w") as f:
            f.write(readme)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
