#!/usr/bin/env python3
"""One allocation path (issue 38, point 4): no raw heap allocation in src/.

Every heap allocation of the library goes through src/base/heap.h
(heap_alloc, heap_calloc, heap_realloc, heap_strdup, heap_strndup) or the
arena, and every one of the CLI through its twins in src/cli/cli.c
(cli_alloc ...): a failure ends in tfr_oom() / cli_oom(), "tfresolve: out
of memory" and exit status 2, never a NULL dereferenced later (a SIGSEGV
under `ulimit -v`).

Usage: alloc_lint.py SOURCE_ROOT

Scans the C and C++ files of src/ (comments and string literals left
out) and fails on each call of malloc, calloc, realloc, reallocarray,
strdup, strndup, asprintf, vasprintf, aligned_alloc, posix_memalign,
memalign, valloc, pvalloc, open_memstream (heap_memstream and
cli_memstream check it, and their _close the writes), getline or
getdelim (cli_getline tells ENOMEM from the input's end), except in the
wrappers themselves (WRAPPERS: src/base/heap.c and src/cli/cli.c).
One line per finding, then "N passed, M failed" (a file is a pass).
"""
import os
import re
import sys

RAW = ("malloc", "calloc", "realloc", "reallocarray", "strdup", "strndup",
       "asprintf", "vasprintf", "aligned_alloc", "posix_memalign",
       "memalign", "valloc", "pvalloc", "open_memstream", "getline", "getdelim")
CALL = re.compile(r"(?<![\w.>$])(?:::\s*)?(%s)\s*\(" % "|".join(RAW))
# The wrappers, the one place each raw call is made.
WRAPPERS = {
    "src/base/heap.c": {"heap_alloc", "heap_calloc", "heap_realloc",
                        "heap_memstream"},
    "src/cli/cli.c": {"cli_alloc", "cli_calloc", "cli_realloc",
                      "cli_memstream", "cli_getline"},
}
DEF = re.compile(r"^[A-Za-z_][\w \t*]*?\b(\w+)\([^;{]*\)\s*\{", re.M)
USE = {"malloc": "alloc", "calloc": "calloc", "realloc": "realloc",
       "strdup": "strdup", "strndup": "strndup",
       "open_memstream": "memstream", "getline": "getline"}


def strip(text):
    """text with comments and string and character literals blanked
    (newlines kept, so that line numbers stay)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def findings(rel, text):
    code = strip(text)
    for m in CALL.finditer(code):
        defs = list(DEF.finditer(code, 0, m.start()))
        if defs and defs[-1].group(1) in WRAPPERS.get(rel, ()):
            continue
        line = code.count("\n", 0, m.start()) + 1
        name = m.group(1)
        if name in USE:
            pre = "cli_" if rel.startswith(("src/cli/", "src/lsp/")) else "heap_"
            hint = "use %s%s" % (pre, USE[name])
        else:
            hint = "allocate through src/base/heap.h or the arena"
        yield "%s:%d: raw %s(): %s" % (rel, line, name, hint)


def main():
    root = sys.argv[1]
    passed = failed = 0
    for base, dirs, names in os.walk(os.path.join(root, "src")):
        dirs.sort()
        for f in sorted(names):
            if not f.endswith((".c", ".h", ".cc")):
                continue
            path = os.path.join(base, f)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as fh:
                bad = list(findings(rel, fh.read()))
            for b in bad:
                print("FAIL " + b)
            failed += bool(bad)
            passed += not bad
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
