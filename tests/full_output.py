#!/usr/bin/env python3
"""Output that cannot be written is an error (issue 31, point 12): every
command's -help, tfresolve's own -help and -version, and a normal run of
every command, with standard output on /dev/full (a device where every
write fails with ENOSPC), exit non-zero with a message on stderr, never
0 with the text lost.  The commands come from the CLI's own table
(`tfresolve cli-tables`), so a new command is covered without an edit.

  full_output.py TFRESOLVE SOURCE_ROOT

Prints PASS/FAIL lines and "N passed, M failed" last."""
import os
import subprocess
import sys


def main():
    tool, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    demo = os.path.join(root, "fixtures", "demo")
    tables = subprocess.run([tool, "cli-tables"], capture_output=True,
                            text=True, check=True).stdout
    commands = [l.split()[1] for l in tables.splitlines()
                if l.startswith("command ")]
    runs = [["-help"], ["-version"]]
    runs += [[c, "-help"] for c in commands]
    # a normal run of every command, each printing something on stdout
    normal = {
        "show": ["show", demo],
        "check": ["check", demo],
        "explain": ["explain", "-all", demo],
        "diff": ["diff", "-no-env", "-a=/dev/null", "-b=/dev/null", demo],
        "eval": ["eval", "1 + 1"],
        "console": ["console", demo],
        "init": ["init", demo],
        "inspect": ["inspect", "-json", demo],
        "docs": ["docs", demo],
        "test": ["test", os.path.join(root, "fixtures", "tftest")],
        "parse": ["parse", demo],
        "lsp": ["lsp"],
    }
    passed = failed = 0
    missing = [c for c in commands if c not in normal]
    if missing:
        print("FAIL no normal run here for: " + " ".join(missing))
        failed += 1
    runs += [normal[c] for c in commands if c in normal]
    for args in runs:
        stdin = "1 + 1\n"
        if args == ["lsp"]:  # one request that has an answer, then exit
            body = ('{"jsonrpc":"2.0","id":1,"method":"initialize",'
                    '"params":{}}')
            stdin = "Content-Length: %d\r\n\r\n%s" % (len(body), body)
            body = '{"jsonrpc":"2.0","method":"exit"}'
            stdin += "Content-Length: %d\r\n\r\n%s" % (len(body), body)
        with open("/dev/full", "w") as full:
            p = subprocess.run([tool, *args], stdout=full, input=stdin,
                               stderr=subprocess.PIPE, text=True, timeout=60,
                               env=dict(os.environ, NO_COLOR="1"))
        ok = p.returncode != 0 and "error writing" in p.stderr
        print("%s tfresolve %s > /dev/full: exit %d%s" % (
            "PASS" if ok else "FAIL", " ".join(a.replace(root, ".")
                                               for a in args),
            p.returncode, "" if ok else ", stderr: " + p.stderr[-300:]))
        passed += ok
        failed += not ok
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
