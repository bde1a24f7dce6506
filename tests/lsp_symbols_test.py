#!/usr/bin/env python3
"""The language server's document symbols (src/lsp/symbols.c).

  lsp_symbols_test.py TFRESOLVE FIXTURE_DIR

  outline  (issue 41) the outline of a large tfvars is bounded: every
           top-level key, and the two levels below while they hold at
           most 2000 keys; at most 200 keys of an object below the top;
           the keys of a file still being typed (a value not typed yet, a
           brace not closed) are there.

With the client and checks of tests/lsp_common.py, on copies of
FIXTURE_DIR (fixtures/lsp).  The time the outline of a 1 MB file takes
is measured by bench/lsp_bench.py, not here.  Prints PASS or FAIL per
check and "N passed, M failed" last.
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_common import *  # noqa: E402,F401,F403
from lsp_common import main  # noqa: E402


def depth(syms):
    """The number of levels of a symbol tree."""
    return 1 + max((depth(x.get("children", [])) for x in syms), default=0) \
        if syms else 0


def count(syms):
    return sum(1 + count(x.get("children", [])) for x in syms)


def outline_run(check, tool, fixture, root):
    mod, u = module_copy(fixture, root, "lsp symbols")
    s, r = begin(tool, mod)
    # 1. a large file: 3000 top-level keys, each five levels deep: the
    # top-level keys alone (the levels below would hold 3000 keys)
    big = "".join('k%d = { a = { b = { c = { d = %d } } } }\n' % (i, i)
                  for i in range(3000))
    B = uri(mod, "big.auto.tfvars")
    m = s.mark()
    s.open(B, big, 1)
    s.diags(B, m)
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": B}})
    syms = (r or {}).get("result") or []
    tops = [x.get("name") for x in syms]
    check(len(tops) == 3000 and tops[0] == "k0" and tops[-1] == "k2999"
          and depth(syms) == 1,
          "documentSymbol of a large tfvars: every top-level key, no level "
          "below (they would hold more than 2000 keys)",
          show(tops[:3] + tops[-2:]) + " depth %d" % depth(syms))
    s.close_doc(B)
    # 2. a smaller one: 50 keys five levels deep, an object of 1000 keys:
    # the top and two levels below, at most 200 keys of an object
    mid = "".join('k%d = { a = { b = { c = { d = %d } } } }\n' % (i, i)
                  for i in range(50))
    mid += "wide = {\n%s}\n" % "".join("  w%d = %d\n" % (i, i)
                                       for i in range(1000))
    M = uri(mod, "mid.auto.tfvars")
    m = s.mark()
    s.open(M, mid, 1)
    s.diags(M, m)
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": M}})
    syms = (r or {}).get("result") or []
    first = syms[0] if syms else {}
    check(len(syms) == 51 and depth(syms) == 3
          and [x["name"] for x in first.get("children", [])] == ["a"],
          "documentSymbol: the top-level keys and two levels below, no "
          "deeper (bounded whatever the file's depth)", show(first))
    wide = syms[-1] if syms else {}
    check(len(wide.get("children", [])) == 200,
          "documentSymbol: at most 200 keys of an object below the top",
          str(len(wide.get("children", []))))
    check(count(syms) <= 51 + 2000,
          "documentSymbol: at most 2000 keys below the top level",
          str(count(syms)))
    # 3. a file being typed: a value not typed yet, a brace not closed
    typing = 'region = "eu"\nname = \nnetwork = {\n  cidr = "10.0.0.0/16"\n'
    W = uri(mod, "typing.auto.tfvars")
    m = s.mark()
    s.open(W, typing, 1)
    s.diags(W, m)
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": W}})
    syms = (r or {}).get("result") or []
    net = [x for x in syms if x.get("name") == "network"]
    check([x.get("name") for x in syms] == ["region", "name", "network"]
          and net and [x["name"] for x in net[0].get("children", [])]
          == ["cidr"],
          "documentSymbol of a file being typed: its keys, the open "
          "object's too", show(syms))
    s.notify("exit")
    s.finish()
    sanity(check, s, "outline run")


if __name__ == "__main__":
    sys.exit(main([outline_run]))
