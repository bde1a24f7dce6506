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

    # .tfvars.json (issue 41): keys are strings; in a key's string, the
    # names not set yet, each replacing the string
    for text, what, want, unwanted in [
            ('{\n  "instance_count": 2,\n  "re|"\n}\n', "a top-level key",
             "region", "instance_count"),
            ('{\n  "network": {\n    "cidr": "x",\n    "|"\n  }\n}\n',
             "a key of an object value", "address_prefix", "cidr")]:
        at = text.index("|")
        body = text.replace("|", "")
        line = body[:at].count("\n")
        col = at - (body.rfind("\n", 0, at) + 1)
        s.open(J, body, 1)
        r = s.at("textDocument/completion", J,
                 {"line": line, "character": col})
        s.close_doc(J)
        c = labels(r)
        te = (c.get(want) or {}).get("textEdit") or {}
        check(want in c and unwanted not in c
              and te.get("newText") == '"%s"' % want
              and te.get("range", {}).get("start", {}).get("character")
              == body.rindex('"', 0, at) - (body.rfind("\n", 0, at) + 1),
              ".tfvars.json: completion in %s's string: the names not set "
              "yet, each replacing the string, quotes and all" % what,
              show(r))

    s.notify("exit")
    s.finish()
    sanity(check, s, 'completion run')


RULES = """\
variable "level" {
  type = string
  validation {
    condition     = anytrue([var.level == "debug", var.level == "info"])
    error_message = "A level."
  }
}
variable "mode" {
  type = string
  validation {
    condition     = var.mode == "a" || "b" == var.mode
    error_message = "A mode."
  }
}
variable "tier" {
  type = string
  validation {
    condition = (anytrue([for t in ["x", "y", "z"] : var.tier == t])
    && !anytrue([var.tier == "z"]))
    error_message = "A tier."
  }
}
variable "env" {
  type = string
  validation {
    condition     = contains(["dev", "prod", "test"], var.env) && var.env != "test"
    error_message = "An env."
  }
}
variable "kind" {
  type = string
  validation {
    condition     = alltrue([var.kind != "old"]) && contains(["old", "new"], var.kind)
    error_message = "A kind."
  }
}
variable "free" {
  type = string
  validation {
    condition     = var.free == "a" || length(var.free) > 3
    error_message = "Anything long."
  }
}
"""


def rules_run(check, tool, fixture, root):
    """(issue 41) The values a rule allows, however the allow-list is
    written: anytrue of comparisons (or of a for expression), a
    disjunction of comparisons, a negated anytrue, `!=`, alltrue of
    `!=`; a disjunction with anything else allows anything."""
    mod = os.path.join(root, "lsp rules")
    os.makedirs(mod)
    with open(os.path.join(mod, "main.tf"), "w") as f:
        f.write(RULES)
    s, _ = begin(tool, mod)
    T = uri(mod, "terraform.tfvars")
    for name, want in [("level", {'"debug"', '"info"'}),
                       ("mode", {'"a"', '"b"'}),
                       ("tier", {'"x"', '"y"'}),
                       ("env", {'"dev"', '"prod"'}),
                       ("kind", {'"new"'}),
                       ("free", set())]:
        text = '%s = ""\n' % name
        s.open(T, text, 1)
        r = s.at("textDocument/completion", T,
                 {"line": 0, "character": len(name) + 4})
        s.close_doc(T)
        got = {k for k in labels(r) if k.startswith('"')}
        check(got == want, "completion of %s's value: the values its rule "
              "allows, as written (%s)" % (name, ", ".join(sorted(want))
                                           or "none"), show(r))
    s.notify("exit")
    s.finish()
    sanity(check, s, "rules run")



if __name__ == "__main__":
    sys.exit(main([completion_run, rules_run]))
