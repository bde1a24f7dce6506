#!/usr/bin/env python3
"""What `tfresolve lsp` costs as a workspace grows (issue 41).

Usage: lsp_cost_bench.py TFRESOLVE DATADIR [N]

  shared:  50 roots calling one child module (generated into
           DATADIR/lsp-cost), one root's tfvars and the child's
           variables.tf open: a keystroke in the child, sent with a
           request after it so that the server resolves at once; the
           wall time from the change to the answer (the server's own
           work and the protocol), and the modules it checked and their
           time (the trace setting), median and best over N keystrokes.
           Target: under 20 ms of server work, 2 modules checked.
  outline: textDocument/documentSymbol of a 1 MB tfvars (3,000 keys of
           five-level objects and values): the wall time of the request
           and the size of the answer, median and best over N requests.
           Target: under 100 ms.

The tests (tests/lsp_documents_test.py's cost run, lsp_symbols_test.py)
check what is checked and how large the outline is; this only measures.
Uses the client of tests/lsp_common.py.  BENCH_STRICT=1: exit 1 when a
target is missed.
"""
import json
import os
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                "..", "tests"))
from lsp_common import Server, uri  # noqa: E402

ROOTS = 50
SHARED_MS = 20.0
OUTLINE_MS = 100.0


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def workspace(data):
    top = os.path.join(data, "lsp-cost")
    shutil.rmtree(top, ignore_errors=True)
    child = ('variable "size" {\n  type = number\n  validation {\n'
             '    condition     = var.size < 10\n'
             '    error_message = "Too big."\n  }\n}\n')
    write(os.path.join(top, "modules", "shared", "variables.tf"), child)
    for i in range(ROOTS):
        write(os.path.join(top, "r%d" % i, "main.tf"),
              'variable "size" {\n  type = number\n}\n'
              'module "shared" {\n  source = "../modules/shared"\n'
              '  size   = var.size\n}\n')
        write(os.path.join(top, "r%d" % i, "terraform.tfvars"), "size = 3\n")
    big = "".join('k%d = { a = { b = { c = { d = "%s" } } } }\n'
                  % (i, "v" * 300) for i in range(3000))
    write(os.path.join(top, "outline", "big.tfvars"), big)  # no module
    return top, child, big


def ask(s, rid_doc):
    r = s.request("textDocument/tfresolveBarrier",
                  {"textDocument": {"uri": rid_doc}})
    return r


def main():
    tool, data = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    n = int(sys.argv[3]) if len(sys.argv) > 3 else 20
    top, child, big = workspace(data)
    s = Server(tool, top)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(top),
                             "capabilities": {},
                             "initializationOptions": {"trace": True}})
    s.notify("initialized", {})
    T, S = uri(top, "r0", "terraform.tfvars"), uri(top, "modules", "shared",
                                                    "variables.tf")
    B = uri(top, "outline", "big.tfvars")
    s.open(T, "size = 3\n")
    s.open(S, child)
    ask(s, T)
    walls, work, counts = [], [], []
    for k in range(n):
        m = s.mark()
        t0 = time.perf_counter()
        s.change(S, k + 2, {"text": child.replace("Too big.", "Big %d." % k)})
        ask(s, T)
        walls.append((time.perf_counter() - t0) * 1e3)
        done = [x["params"] for x in s.notes[m:]
                if x.get("method") == "tfresolve/resolved"]
        work.append(sum(x["ms"] for x in done))
        counts.append(len(done))
    s.open(B, big)
    ask(s, B)
    outline, size = [], 0
    for k in range(n):
        t0 = time.perf_counter()
        r = s.request("textDocument/documentSymbol",
                      {"textDocument": {"uri": B}})
        outline.append((time.perf_counter() - t0) * 1e3)
        size = len(json.dumps(r))
    s.notify("exit")
    s.finish()
    shared = statistics.median(work)
    print("shared: a keystroke in a child of %d roots, 1 open: %.1f ms "
          "server work (best %.1f), %.1f ms wall; modules checked: %s"
          % (ROOTS, shared, min(work), statistics.median(walls),
             sorted(set(counts))))
    print("outline: documentSymbol of a %.1f MB tfvars: %.1f ms (best %.1f), "
          "%d bytes" % (len(big) / 1e6, statistics.median(outline),
                        min(outline), size))
    missed = shared > SHARED_MS or statistics.median(outline) > OUTLINE_MS
    if missed:
        print("target missed (%.0f ms a keystroke, %.0f ms the outline)"
              % (SHARED_MS, OUTLINE_MS))
    return 1 if missed and os.environ.get("BENCH_STRICT") == "1" else 0


if __name__ == "__main__":
    sys.exit(main())
