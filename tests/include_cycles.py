#!/usr/bin/env python3
"""No cycle among the modules of src/ through their headers.

A module is a source file and the header of the same name (src/eval.c and
src/eval.h are the module eval; a header alone, like src/arena_int.h, is a
module of its own).  A public header include/tfresolve/X.h belongs to the
module that implements it: src/X.c, and for tfresolve.h (the library's
entry points) src/api.c.  A header src/X_int.h is module X's interface
within the library (arena_int.h belongs to arena).  Module A depends on B when A's source or header includes B's
header.  Dependencies must point one way: the test lists every strongly
connected group of more than one module, with the includes that close it.

Usage: include_cycles.py SRC_DIR INCLUDE_DIR
Prints "N passed, M failed" last (one check per module).
"""
import os
import re
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def module_of(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if name.endswith("_int"):
        name = name[:-4]
    if path.startswith("tfresolve/") or "/tfresolve/" in path:
        return "api" if name == "tfresolve" else name
    return name


def main():
    src, inc = sys.argv[1], sys.argv[2]
    edges = {}
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(src) for f in fs
             if f.endswith((".c", ".h", ".cc"))]
    headers = {os.path.basename(f): f for f in files if f.endswith(".h")}
    files += [os.path.join(inc, "tfresolve", f)
              for f in os.listdir(os.path.join(inc, "tfresolve"))]
    why = {}
    for f in files:
        rel = os.path.relpath(f, inc) if f.startswith(inc) else f
        me = module_of(f)
        edges.setdefault(me, set())
        for target in INC.findall(open(f, encoding="utf-8").read()):
            if target.startswith("tfresolve/"):
                other = module_of(target)
            elif os.path.basename(target) in headers:
                other = module_of(target)
            else:
                continue  # generated headers (hcl.tab.h...), not modules
            if other != me:
                edges[me].add(other)
                why.setdefault((me, other), "%s includes %s"
                               % (os.path.basename(f), target))
    # Tarjan's strongly connected components
    index, low, stack, on, sccs = {}, {}, [], set(), []
    counter = [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(edges.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    bad = [c for c in sccs if len(c) > 1]
    failed = 0
    for c in bad:
        failed += len(c)
        print("FAIL cycle among %s:" % ", ".join(c))
        for a in c:
            for b in sorted(edges[a]):
                if b in c:
                    print("    %s -> %s (%s)" % (a, b, why[(a, b)]))
    print("%d modules, %d in cycles" % (len(edges), failed))
    print("%d passed, %d failed" % (len(edges) - failed, failed))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
