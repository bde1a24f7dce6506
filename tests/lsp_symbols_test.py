#!/usr/bin/env python3
"""The language server's document symbols (src/lsp/symbols.c).

  lsp_symbols_test.py TFRESOLVE FIXTURE_DIR

  outline  (issue 41) the outline of a large tfvars is bounded: every
           top-level key, their keys and the level below, no deeper;
           at most 200 keys of an object below the top; the keys of a
           file still being typed (a value not typed yet, a brace not
           closed) are there.

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
    # 1. a large file: 3000 top-level keys, each five levels deep, and
    # one object of 1000 keys
    big = "".join('k%d = { a = { b = { c = { d = %d } } } }\n' % (i, i)
                  for i in range(3000))
    big += "wide = {\n%s}\n" % "".join("  w%d = %d\n" % (i, i)
                                       for i in range(1000))
    B = uri(mod, "big.auto.tfvars")
    m = s.mark()
    s.open(B, big, 1)
    s.diags(B, m)
    r = s.request("textDocument/documentSymbol", {"textDocument": {"uri": B}})
    syms = (r or {}).get("result") or []
    tops = [x.get("name") for x in syms]
    check(len(tops) == 3001 and tops[0] == "k0" and tops[-1] == "wide",
          "documentSymbol of a large tfvars: every top-level key",
          show(tops[:5] + tops[-2:]))
    first = syms[0] if syms else {}
    check(depth(syms) == 3 and [x["name"] for x in first.get(
        "children", [])] == ["a"],
          "documentSymbol: the top-level keys and two levels below, no "
          "deeper (bounded whatever the file's depth)", show(first))
    wide = syms[-1] if syms else {}
    check(len(wide.get("children", [])) == 200,
          "documentSymbol: at most 200 keys of an object below the top",
          str(len(wide.get("children", []))))
    check(count(syms) <= 3001 + 3 * 3000 + 200,
          "documentSymbol: its size bounded", str(count(syms)))
    # 2. a file being typed: a value not typed yet, a brace not closed
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
