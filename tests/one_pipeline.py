#!/usr/bin/env python3
"""One way for a variable's value, the root's and a child instance's
alike (issue 39): each text that finalising a value or running its rules
produces is written in one place of src/, as a string literal outside
comments, in one file of the library (src/cli/ only renders them) -- a
second copy would be a second engine that drifts.

  one_pipeline.py SOURCE_ROOT

Prints a line per text and "N passed, M failed" last.
"""
import glob
import os
import re
import sys

# Terraform's texts (and our one) of the finaliser (src/module/finalize.c),
# the engine table's (src/module/engine_tofu.c) and the rule runner's
# (src/module/validate.c).
TEXTS = [
    "Invalid value for input variable",
    "Required variable not set",
    "Deprecated variable got a value",
    "Object attribute is ignored",
    "Invalid value for variable",
    "Validation rule deferred",
    "Invalid variable validation result",
    "Cycle:",
]


def strip_comments(text):
    """The C text without its comments (strings kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j < 0 else j + 2
        elif text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j < 0 else j
        elif text[i] == '"':
            m = re.compile(r'"(?:[^"\\\n]|\\.)*"').match(text, i)
            if not m:
                out.append(text[i])
                i += 1
                continue
            out.append(m.group(0))
            i = m.end()
        else:
            out.append(text[i])
            i += 1
    return "".join(out)


def main():
    root = sys.argv[1]
    sources = {}
    for path in sorted(glob.glob(os.path.join(root, "src", "*", "*.c"))):
        if os.sep + "cli" + os.sep in path:
            continue
        with open(path, encoding="utf-8") as f:
            sources[os.path.relpath(path, root)] = strip_comments(f.read())
    passed = failed = 0
    for text in TEXTS:
        lit = '"' + text.replace('"', '\\"')
        where = sorted(p for p, s in sources.items() if lit in s)
        if len(where) == 1:
            passed += 1
            print("PASS %r: %s" % (text, where[0]))
        else:
            failed += 1
            print("FAIL %r: in %d files %s" % (text, len(where), where))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
