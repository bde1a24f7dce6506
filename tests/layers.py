#!/usr/bin/env python3
"""The layers of src/ (src/layers.txt) are the layers the code has.

src/layers.txt lists the library's folders, lowest first ("api" is
src/api.c).  This test fails on:

  path      an include of an internal header by its bare name ("eval.h"):
            headers are included by their path from src/ ("eval/eval.h"),
            so that an include says which layer it reaches;
  up        an include that goes up the order (a lower layer including a
            header of a higher one), in src/ and in grammar/ (syntax);
  call      a symbol that an object file of a layer uses and an object of
            a higher layer defines (the build's object files, read with
            nm: libtfresolve's and the grammar's, which is syntax); and a
            cycle between folders through those calls;
  cycle     a cycle among the modules of src/ through their headers (a
            module is a source file and the header of the same name;
            src/X_int.h is module X's; include/tfresolve/X.h belongs to X,
            tfresolve.h to api);
  listed    a folder of src/ that is not in src/layers.txt (nor src/cli/
            or src/lsp/, which are no layers: the CLI and the language
            server use the public headers only);
  cli       an include in src/cli/ of anything but a public header
            ("tfresolve/...") or a header of src/cli/ (or the generated
            commit.h); an include in src/lsp/ (the language server, a
            part of the program) of anything but a public header, a
            header of src/lsp/ or one of src/cli/ ("../cli/cli.h": the
            CLI's helpers).

Usage: layers.py SOURCE_ROOT [BUILD_DIR] [--graph]
Without BUILD_DIR the symbols are not checked.  --graph prints the folder
graph (includes and calls between folders, with their counts).
Prints "N passed, M failed" last.
"""
import os
import re
import subprocess
import sys

INC = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)
NOT_LAYERS = {"cli", "lsp"}


def read_layers(root):
    layers = []
    with open(os.path.join(root, "src", "layers.txt"), encoding="utf-8") as f:
        for line in f:
            line = line.split("#")[0].strip()
            if line:
                layers.append(line)
    return layers


def layer_of(rel):
    """The layer of a path relative to src/ (src/api.c is api)."""
    return rel.split("/")[0] if "/" in rel else "api"


def module_of(path):
    name = os.path.splitext(os.path.basename(path))[0]
    if name.endswith("_int"):
        name = name[:-4]
    if path.startswith("tfresolve/") or "/tfresolve/" in path:
        return "api" if name == "tfresolve" else name
    return name


def sources(root):
    """(path, name, layer) of the library's C files (name: relative to
    src/), and of the grammar's sources (syntax)."""
    src = os.path.join(root, "src")
    out = []
    for dp, dns, fs in os.walk(src):
        dns.sort()
        rel_dir = os.path.relpath(dp, src)
        if rel_dir.split("/")[0] in NOT_LAYERS:
            continue
        for f in sorted(fs):
            if f.endswith((".c", ".h", ".cc")):
                p = os.path.join(dp, f)
                rel = os.path.relpath(p, src)
                out.append((p, rel, layer_of(rel)))
    gdir = os.path.join(root, "grammar")
    if os.path.isdir(gdir):
        for f in sorted(os.listdir(gdir)):
            if f.endswith((".y", ".l")):
                out.append((os.path.join(gdir, f), "../grammar/" + f,
                            "syntax"))
    return out


def tarjan(edges):
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
    return [c for c in sccs if len(c) > 1]


def shortest_cycle(edges, comp):
    """The shortest cycle within comp (a strongly connected group), as a
    list of nodes whose first and last are the same."""
    best = None
    for start in sorted(comp):
        prev, queue = {start: None}, [start]
        found = None
        while queue and not found:
            nxt = []
            for v in queue:
                for w in sorted(edges.get(v, ())):
                    if w not in comp:
                        continue
                    if w == start:
                        found = v
                        break
                    if w not in prev:
                        prev[w] = v
                        nxt.append(w)
                if found:
                    break
            queue = nxt
        if found is None:
            continue
        path, v = [start], found
        while v is not None:
            path.append(v)
            v = prev[v]
        path.reverse()  # start ... found start
        if best is None or len(path) < len(best):
            best = path
    return best


class Check:
    def __init__(self):
        self.passed = self.failed = 0

    def ok(self, good, message=None):
        if good:
            self.passed += 1
        else:
            self.failed += 1
            print("FAIL " + message)


def check_includes(root, layers, rank, files, ck, graph):
    src = os.path.join(root, "src")
    headers = {}
    for p, rel, _ in files:
        if p.endswith(".h"):
            headers.setdefault(os.path.basename(p), rel)
    for p, rel, me in files:
        text = open(p, encoding="utf-8").read()
        for target in INC.findall(text):
            if target.startswith("tfresolve/"):
                continue  # the public headers: every layer's
            if "/" not in target:
                # a generated header (hcl.tab.h), or an internal one by
                # its bare name (checked for its layer too)
                if target not in headers:
                    continue
                ck.ok(False, "path: %s includes \"%s\": include it as "
                      "\"%s\"" % (rel, target, headers[target]))
                target = headers[target]
            other = target.split("/")[0]
            if other not in rank:
                continue  # not a header of the library (../x.h)
            if not os.path.exists(os.path.join(src, target)):
                continue
            if other != me:
                graph.setdefault((me, other), [0, 0])[0] += 1
            ck.ok(rank[other] <= rank[me],
                  "up: %s (layer %s) includes %s (layer %s, above it in "
                  "src/layers.txt)" % (rel, me, target, other))


def check_cli(root, ck):
    cli = os.path.join(root, "src", "cli")
    if not os.path.isdir(cli):
        return
    own = set(os.listdir(cli)) | {"commit.h"}
    for f in sorted(os.listdir(cli)):
        if not f.endswith((".c", ".h")):
            continue
        text = open(os.path.join(cli, f), encoding="utf-8").read()
        for target in INC.findall(text):
            ck.ok(target.startswith("tfresolve/") or target in own,
                  "cli: cli/%s includes \"%s\": the CLI uses the public "
                  "headers only (include/tfresolve/)" % (f, target))


def check_lsp(root, ck):
    lsp = os.path.join(root, "src", "lsp")
    if not os.path.isdir(lsp):
        return
    own = set(os.listdir(lsp))
    cli = {"../cli/" + f for f in os.listdir(os.path.join(root, "src", "cli"))
           if f.endswith(".h")}
    for f in sorted(os.listdir(lsp)):
        if not f.endswith((".c", ".h")):
            continue
        text = open(os.path.join(lsp, f), encoding="utf-8").read()
        for target in INC.findall(text):
            ck.ok(target.startswith("tfresolve/") or target in own
                  or target in cli,
                  "cli: lsp/%s includes \"%s\": the language server uses "
                  "the public headers (include/tfresolve/) and the CLI's "
                  "(src/cli/) only" % (f, target))


def check_header_cycles(root, ck):
    src = os.path.join(root, "src")
    inc = os.path.join(root, "include")
    files = [os.path.join(dp, f) for dp, _, fs in os.walk(src) for f in fs
             if f.endswith((".c", ".h", ".cc"))]
    headers = {os.path.basename(f) for f in files if f.endswith(".h")}
    files += [os.path.join(inc, "tfresolve", f)
              for f in os.listdir(os.path.join(inc, "tfresolve"))]
    edges, why = {}, {}
    for f in files:
        me = module_of(f)
        edges.setdefault(me, set())
        for target in INC.findall(open(f, encoding="utf-8").read()):
            if not (target.startswith("tfresolve/")
                    or os.path.basename(target) in headers):
                continue  # generated headers (hcl.tab.h...), not modules
            other = module_of(target)
            if other != me:
                edges[me].add(other)
                why.setdefault((me, other), "%s includes %s"
                               % (os.path.basename(f), target))
    bad = tarjan(edges)
    in_cycles = set()
    for c in bad:
        in_cycles.update(c)
        lines = ["cycle: among the modules %s; the shortest:" % ", ".join(c)]
        cycle = shortest_cycle(edges, set(c))
        for a, b in zip(cycle, cycle[1:]):
            lines.append("    %s -> %s (%s)" % (a, b, why[(a, b)]))
        ck.ok(False, "\n".join(lines))
    ck.passed += len(edges) - len(in_cycles)
    return len(edges)


def object_layer(name):
    """src_eval_funcs.c.o -> eval; src_api.c.o -> api (meson names an
    object by its path, / as _); the grammar's objects are syntax."""
    if not name.startswith("src_"):
        return "syntax"  # meson-generated_hcl.tab.c.o
    rest = name[len("src_"):]
    return rest.split("_")[0] if "_" in rest else "api"


def nm(path):
    out = subprocess.run(["nm", "-P", path], capture_output=True,
                         text=True, check=True).stdout
    defined, used = set(), set()
    for line in out.splitlines():
        f = line.split()
        if len(f) < 2:
            continue
        if f[1] == "U":
            used.add(f[0])
        elif f[1] in "TDBRCVWG":  # global ones only: a static is the file's
            defined.add(f[0])
    return defined, used


def check_symbols(build, layers, rank, ck, graph):
    objs = []
    for d in sorted(os.listdir(build)):
        if not d.endswith(".p"):
            continue
        if not d.startswith(("libtfresolve.", "libtfr_grammar.")):
            continue
        for f in sorted(os.listdir(os.path.join(build, d))):
            if f.endswith(".o"):
                objs.append((os.path.join(build, d, f), f))
    ck.ok(any(f.startswith("src_") for _, f in objs),
          "call: no object files of libtfresolve under %s" % build)
    defined_by, uses = {}, []
    for path, name in objs:
        layer = object_layer(name)
        ck.ok(layer in rank, "listed: object %s is of the folder %s, which "
              "src/layers.txt does not list" % (name, layer))
        defined, used = nm(path)
        for s in defined:
            defined_by.setdefault(s, (layer, name))
        uses.append((layer, name, used))
    edges, example = {}, {}
    for layer, name, used in uses:
        ups = {}
        for s in sorted(used):
            if s not in defined_by:
                continue  # the C library, the dependencies
            other, where = defined_by[s]
            if other == layer or layer not in rank or other not in rank:
                continue
            edges.setdefault(layer, set()).add(other)
            example.setdefault((layer, other), "%s uses %s of %s"
                               % (name, s, where))
            graph.setdefault((layer, other), [0, 0])[1] += 1
            if rank[other] > rank[layer]:
                ups.setdefault(other, []).append("%s (%s)" % (s, where))
        ck.ok(not ups, "call: %s (layer %s) uses %s" % (
            name, layer, "; ".join("%s of layer %s, above it" % (
                ", ".join(v), k) for k, v in sorted(ups.items()))))
    for c in tarjan(edges):
        cycle = shortest_cycle(edges, set(c))
        ck.ok(False, "call: a cycle between the folders %s; the shortest:\n%s"
              % (", ".join(c), "\n".join(
                  "    %s -> %s (%s)" % (a, b, example[(a, b)])
                  for a, b in zip(cycle, cycle[1:]))))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    show = "--graph" in sys.argv[1:]
    if not args:
        print(__doc__)
        return 2
    root = args[0]
    build = args[1] if len(args) > 1 else None
    layers = read_layers(root)
    rank = {l: i for i, l in enumerate(layers)}
    ck = Check()
    # every folder of src/ is a layer, once
    ck.ok(len(set(layers)) == len(layers), "listed: src/layers.txt names "
          "a folder twice")
    for d in sorted(os.listdir(os.path.join(root, "src"))):
        if os.path.isdir(os.path.join(root, "src", d)) and d not in NOT_LAYERS:
            ck.ok(d in rank, "listed: src/%s/ is not in src/layers.txt" % d)
    graph = {}
    files = sources(root)
    check_includes(root, layers, rank, files, ck, graph)
    check_cli(root, ck)
    check_lsp(root, ck)
    nmod = check_header_cycles(root, ck)
    if build:
        check_symbols(build, layers, rank, ck, graph)
    if show:
        print("layers, lowest first: %s" % " -> ".join(layers))
        print("folder graph (includes, calls; ^ goes up the order):")
        for (a, b), (ni, nc) in sorted(
                graph.items(), key=lambda e: (rank.get(e[0][0], 99),
                                              rank.get(e[0][1], 99))):
            up = "^" if rank.get(b, 99) > rank.get(a, 99) else " "
            print("  %s %-7s -> %-7s %4d includes %4d symbols"
                  % (up, a, b, ni, nc))
    print("%d files, %d modules, %d layers%s"
          % (len(files), nmod, len(layers),
             "" if build else " (symbols not checked: no build directory)"))
    print("%d passed, %d failed" % (ck.passed, ck.failed))
    return 1 if ck.failed else 0


if __name__ == "__main__":
    sys.exit(main())
