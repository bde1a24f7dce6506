#!/usr/bin/env python3
"""Comments that stay true (issue 29): every path under src/ that a comment
or test names exists, and nothing cites SPEC.md, the product contract kept
outside this repository, in place of saying what it means.

Usage: comments.py SOURCE_ROOT

Scans the sources, headers, grammar, tests, benchmarks, scripts and docs
of the repository.  Fails on
  - a path src/NAME.EXT (c, h, cc, l, y, txt, build) that does not exist
    (nor NAME.EXT.in, which the build makes it from; a placeholder in
    capitals, like src/X_int.h, is no path);
  - "SPEC §N", "SPEC section N" or "SPEC.md" anywhere.
One line per finding, then "N passed, N failed".
"""
import os
import re
import sys

DIRS = ["src", "include", "grammar", "tests", "bench", "scripts", "doc",
        "debian", "packaging", "completions"]
FILES = ["README.md", "meson.build", "Makefile", "meson_options.txt"]
PATH = re.compile(r"(?<![$\w/.{-])src/[A-Za-z0-9_./-]*?\.(?:c|h|cc|l|y|txt|build)\b")
SPEC = re.compile(r"\bSPEC(?:\.md|\s*§|\s+section\b)")


def files(root):
    for d in DIRS:
        for base, dirs, names in os.walk(os.path.join(root, d)):
            dirs[:] = [x for x in dirs if not x.startswith(".")]
            for n in names:
                yield os.path.join(base, n)
    for f in FILES:
        yield os.path.join(root, f)


def main():
    root = sys.argv[1]
    passed = failed = 0
    for path in files(root):
        rel = os.path.relpath(path, root)
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        if rel == "tests/comments.py":
            continue
        for no, line in enumerate(text.splitlines(), 1):
            for m in PATH.finditer(line):
                p = m.group(0).rstrip(".")
                if re.search(r"[A-Z]{1,}[_.]", p[4:]) and \
                        not os.path.exists(os.path.join(root, p)):
                    continue  # a placeholder: src/X_int.h
                # a file the build makes from NAME.in is there too
                if os.path.exists(os.path.join(root, p)) or \
                        os.path.exists(os.path.join(root, p + ".in")):
                    passed += 1
                else:
                    failed += 1
                    print("FAIL %s:%d names %s, which does not exist"
                          % (rel, no, p))
            if SPEC.search(line):
                failed += 1
                print("FAIL %s:%d cites SPEC (outside the repository): say "
                      "what it means instead" % (rel, no))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
