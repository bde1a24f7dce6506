#!/usr/bin/env python3
"""The commands and options of `tfresolve -help` and of each command's
`-help` are in the man page (doc/tfresolve.1) and in both shell
completions (completions/tfresolve.bash, completions/_tfresolve), so
that neither can drift from the program.

  cli_docs.py TFRESOLVE SOURCE_ROOT

Prints PASS/FAIL lines and "N passed, M failed" last."""
import os
import re
import subprocess
import sys


def help_text(tool, *args):
    p = subprocess.run([tool, *args, "-help"], capture_output=True,
                       text=True, timeout=30)
    return p.stdout + p.stderr


def main():
    tool, root = sys.argv[1], sys.argv[2]
    docs = {
        "man page": open(os.path.join(root, "doc/tfresolve.1")).read()
        .replace("\\-", "-").replace("\\f[BIR]", "").replace("\\fP", ""),
        "bash completion": open(os.path.join(root, "completions/tfresolve.bash")).read(),
        "zsh completion": open(os.path.join(root, "completions/_tfresolve")).read(),
    }
    passed = failed = 0

    def check(ok, what):
        nonlocal passed, failed
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    main_help = help_text(tool)
    commands = re.findall(r"^  ([a-z]+)\s{2,}", main_help.split("Commands:")[1]
                          .split("Global options:")[0], re.M)
    check(len(commands) >= 10, "tfresolve -help lists the commands: %s"
          % " ".join(commands))
    globals_ = re.findall(r"^  (-[a-z-]+)", main_help.split("Global options:")[1], re.M)
    for name, text in docs.items():
        for c in commands:
            check(re.search(r"\b%s\b" % c, text) is not None,
                  "%s has the command %s" % (name, c))
        for g in globals_:
            check(g in text, "%s has the global option %s" % (name, g))
    for c in commands:
        opts = set(re.findall(r"^\s{2,}(-[a-z][a-z-]*)", help_text(tool, c), re.M))
        for name, text in docs.items():
            missing = sorted(o for o in opts
                             if not re.search(r"(?<![a-z-])%s(?![a-z-])" % re.escape(o), text))
            check(not missing, "%s has %s's options%s" % (
                name, c, ": missing " + " ".join(missing) if missing else ""))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
