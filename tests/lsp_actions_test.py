#!/usr/bin/env python3
"""The language server's quick fixes (src/lsp/actions.c).

  lsp_actions_test.py TFRESOLVE FIXTURE_DIR

  actions  "did you mean" fixes, in HCL and JSON.

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


def actions_run(check, tool, fixture, root):
    """Quick fixes for "did you mean" (HCL and .tfvars.json, the
    quotes kept)."""
    mod, u = module_copy(fixture, root, 'lsp actions')
    T, E, J, V = u["T"], u["E"], u["J"], u["V"]
    main_tf = open(os.path.join(mod, "main.tf")).read()
    s, r = begin(tool, mod)
    # 2. didOpen: a document whose file on disk says other things
    p, t1_diags = open_t1(check, s, T)
    check(p is not None and len(p["diagnostics"]) >= 5,
          "didOpen terraform.tfvars: no other problem (the file on disk has "
          "another)", show(p, 4000))

    # 8. quick fixes for "did you mean"
    # (instance_conut's "did you mean instance_count" gets no rename: T1
    # sets instance_count already, issue 41; fixes_run)
    for needle, name in [("adress_prefix", "address_prefix"),
                         ("knd", "kind")]:
        d = t1_diags.get(needle)
        result = None
        if d:
            r = s.request("textDocument/codeAction", {
                "textDocument": {"uri": T}, "range": d["range"],
                "context": {"diagnostics": [d]}})
            result = (r or {}).get("result")
        check(quickfix(result, T, rng(T1, needle), name),
              "codeAction: a quickfix replaces %s with %s" % (needle, name),
              show(result))

    # 9. .tfvars.json: diagnostics, hover, quick fix with the quotes
    m = s.mark()
    s.open(J, J1, 1)
    p = s.diags(J, m, lambda p: p.get("version") == 1)
    conv = find(p, rng(J1, '"lots"'), 1, None,
                ["Invalid value for input variable", "a number is required"])
    miss = find(p, rng(J1, '"adress_prefix"'), 2, 11,
                ['Did you mean to set attribute "address_prefix"'])
    check(conv is not None, ".tfvars.json: a conversion error at its value",
          show(p))
    check(miss is not None, ".tfvars.json: a misspelt attribute (warning, "
          "code 11) at its quoted key", show(p))
    result = None
    if miss:
        r = s.request("textDocument/codeAction", {
            "textDocument": {"uri": J}, "range": miss["range"],
            "context": {"diagnostics": [miss]}})
        result = (r or {}).get("result")
    check(quickfix(result, J, rng(J1, '"adress_prefix"'), '"address_prefix"'),
          ".tfvars.json: the quickfix keeps the quotes", show(result))
    s.notify("exit")
    s.finish()
    sanity(check, s, 'actions run')



def actions_for(s, doc, d):
    r = s.request("textDocument/codeAction", {
        "textDocument": {"uri": doc}, "range": d["range"],
        "context": {"diagnostics": [d]}})
    return (r or {}).get("result") or []


def fixes_run(check, tool, fixture, root):
    """(issue 41) No fix that would set a name twice ("Attribute
    redefined"); a fix keeps a CRLF file's line breaks."""
    mod, u = module_copy(fixture, root, "lsp fixes")
    T = u["T"]
    s, _ = begin(tool, mod)
    text = ('name = "x"\n'
            'instance_conut = 3\n'
            'instance_count = 3\n'
            'network = {\n'
            '  cidr           = "10.1.0.0/16"\n'
            '  adress_prefix  = "10.1.0.0/24"\n'
            '  address_prefix = "10.1.0.0/24"\n'
            '}\n')
    m = s.mark()
    s.open(T, text, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    for needle, name in [("instance_conut", "instance_count"),
                         ("adress_prefix", "address_prefix")]:
        d = find(p, rng(text, needle), 2)
        acts = actions_for(s, T, d) if d else None
        titles = [a.get("title", "") for a in acts or []]
        check(d is not None and acts is not None
              and not [t for t in titles if t.startswith("Change to")],
              "codeAction: no fix renaming %s to %s, which the object sets "
              "already" % (needle, name), show(acts) + show(p))
    # a CRLF file: the placeholder for a required variable with CRLF
    # (the error is at the variable's block in main.tf, fixed in the open
    # terraform.tfvars)
    crlf = 'instance_count = 3\r\ndebug = true\r\n'
    s.change(T, 2, {"text": crlf})
    V = u["V"]
    m = s.mark()
    s.open(V, open(os.path.join(mod, "main.tf")).read(), 1)
    p = s.diags(V, m, lambda p: p.get("version") == 1)
    req = [d for d in (p or {}).get("diagnostics", [])
           if "No value for required variable" in d.get("message", "")]
    acts = actions_for(s, V, req[0]) if req else []
    edits = [e for a in acts
             for e in (a.get("edit", {}).get("changes", {}).get(T) or [])]
    new = edits[0].get("newText", "") if edits else ""
    check(new and "\r\n" in new and "\n" not in new.replace("\r\n", ""),
          "codeAction in a CRLF file: the value added with CRLF line breaks",
          show(acts) + show(p))
    s.notify("exit")
    s.finish()
    sanity(check, s, "fixes run")


if __name__ == "__main__":
    sys.exit(main([actions_run, fixes_run]))
