#!/usr/bin/env python3
"""The language server's go to definition (src/lsp/definition.c).

  lsp_definition_test.py TFRESOLVE FIXTURE_DIR

  definition  the variable block; an attribute's name in the type.

With the client and checks of tests/lsp_common.py, on copies of
FIXTURE_DIR (fixtures/lsp).  Prints PASS or FAIL per check and
"N passed, M failed" last.
"""
import json  # noqa: F401
import os
import re  # noqa: F401
import shutil  # noqa: F401
import sys
import time  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_common import *  # noqa: E402,F401,F403
from lsp_common import main  # noqa: E402


def definition_run(check, tool, fixture, root):
    """Go to definition from keys and nested attributes."""
    mod, u = module_copy(fixture, root, 'lsp definition')
    T, E, J, V = u["T"], u["E"], u["J"], u["V"]
    main_tf = open(os.path.join(mod, "main.tf")).read()
    s, r = begin(tool, mod)
    m = s.mark()
    s.open(T, T_CLEAN, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)

    # 7. definition
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "network"))
    check(d == {"uri": V, "range": rng(main_tf, 'variable "network"')},
          "definition from a tfvars key: the variable block in main.tf",
          show(d))
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "address_prefix"))
    check(d == {"uri": V, "range": rng(main_tf, "address_prefix",
                                       after='variable "network"')},
          "definition from a nested attribute: its name in the type "
          "expression", show(d))
    d = s.at("textDocument/definition", T, pos(T_CLEAN, "size_gb"))
    check(d == {"uri": V, "range": rng(main_tf, "size_gb",
                                       after='variable "pools"')},
          "definition from an attribute of a map(object): its name in the "
          "type expression", show(d))

    s.notify("exit")
    s.finish()
    sanity(check, s, 'definition run')



if __name__ == "__main__":
    sys.exit(main([definition_run]))
