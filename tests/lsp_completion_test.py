#!/usr/bin/env python3
"""The language server's completion (src/lsp/completion.c).

  lsp_completion_test.py TFRESOLVE FIXTURE_DIR

  completion  variable names, attribute names, values.

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


def completion_run(check, tool, fixture, root):
    """Completion of the variables not set yet, of an object's
    attributes not set yet, of a bool's values."""
    mod, u = module_copy(fixture, root, 'lsp completion')
    T, E, J, V = u["T"], u["E"], u["J"], u["V"]
    main_tf = open(os.path.join(mod, "main.tf")).read()
    s, r = begin(tool, mod)
    m = s.mark()
    s.open(T, T_CLEAN, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)

    # 6. completion
    last = {"line": T_CLEAN.count("\n"), "character": 0}
    c = labels(s.at("textDocument/completion", T, last))
    check("region" in c and not {"name", "instance_count", "db_password",
                                 "network", "pools", "debug"} & set(c),
          "completion on an empty line: the variables not set yet, not those "
          "set", show(sorted(c)))
    inside = pos(T_CLEAN, "\n\n}", after="network")
    inside = {"line": inside["line"] + 1, "character": 0}
    c = labels(s.at("textDocument/completion", T, inside))
    check("enable_ipv6" in c and "cidr" not in c
          and "address_prefix" not in c  # set already (issue 28)
          and "(optional" in c["enable_ipv6"].get("detail", ""),
          "completion inside an object value: the type's attribute names "
          "not set yet, (optional) in the detail of the optional ones",
          show(c))
    c = labels(s.at("textDocument/completion", T,
                    pos(T_CLEAN, "true", after="debug =")))
    check({"true", "false"} <= set(c), "completion of a bool value: true and "
          "false", show(sorted(c)))

    s.notify("exit")
    s.finish()
    sanity(check, s, 'completion run')



if __name__ == "__main__":
    sys.exit(main([completion_run]))
