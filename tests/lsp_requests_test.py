#!/usr/bin/env python3
"""The language server's request handlers (issue 28) over its protocol.

  lsp_requests_test.py TFRESOLVE FIXTURE_DIR

Drives `tfresolve lsp` on a copy of FIXTURE_DIR (fixtures/lsp-requests)
with the client of tests/lsp_common.py (imported):

  completion  the values a contains() rule allows, none under a negated
              rule; the same answers on a line that does not parse yet
              (an open quote, a missing value, a key set twice);
              attributes already set left out; inside a .tf default.
  hover       the rule status the diagnostics give when plan stops for
              another reason; a nested attribute's own type, value and
              line; a long type folded as terraform fmt lays it out, with
              optional() defaults; plaintext when the client asks for it;
              a long value fenced with how much was cut.
  definition  a map key: null; an attribute: its line in the type.
  codeAction  adding a required variable with its type's placeholder;
              declaring an undeclared variable in variables.tf (created
              when missing, edited when there).
  symbols     textDocument/documentSymbol of a tfvars (nested keys as
              children) and of a .tf file (variable blocks, type as
              detail).

The sensitive variable's value (SECRET, its default in the fixture) must
appear in nothing the server writes.  Prints PASS or FAIL per check and
"N passed, M failed" last.
"""
import os
import re
import shutil
import sys
import tempfile
import traceback

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_common  # noqa: E402
from lsp_common import Checks, Server, labels, markdown, pos, rng, show, \
    uri, utf16, sanity  # noqa: E402

SECRET = "CANARY-req-5ecret"


def marked(text):
    """text with its "|" removed, and the LSP position of the "|"."""
    i = text.index("|")
    text = text[:i] + text[i + 1:]
    bol = text.rfind("\n", 0, i) + 1
    return text, {"line": text.count("\n", 0, i),
                  "character": utf16(text[bol:i])}


def start(tool, mod, caps=None):
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": caps or {}})
    s.notify("initialized", {})
    return s


def run(check, tool, fixture, root):
    mod = os.path.join(root, "req module")
    shutil.copytree(fixture, mod)
    caps = {"textDocument": {"hover": {"contentFormat": ["markdown",
                                                         "plaintext"]}},
            "workspace": {"workspaceEdit": {
                "documentChanges": True,
                "resourceOperations": ["create", "rename", "delete"]}}}
    s = start(tool, mod, caps)
    n = [0]

    def complete(text_marked, name=None):
        n[0] += 1
        doc = uri(mod, name or "typing%d.auto.tfvars" % n[0])
        text, at = marked(text_marked)
        s.open(doc, text, 1)
        r = s.at("textDocument/completion", doc, at)
        s.close_doc(doc)
        return r

    # ---- 1. completion from the rules as they are
    for t in ('tier = |\n', 'tier = "|"\n', 'tier = "|\n', 'tier = "|\n\n',
              'tier = "b|"\n', 'tier = "basic"\ntier = "|"\n',
              'tier = "basic"\ntier = |\n', 'size = 3\ntier = "|\nzone = "a"\n'):
        got = labels(complete(t))
        check('"basic"' in got and '"premium"' in got and "size" not in got
              and "tier" not in got,
              "completion of tier's value in %r: the allowed values, not "
              "variable names" % t, show(got))
    r = complete('tier = "|\n')
    its = [i for i in (r or {}).get("items", []) if i["label"] == '"basic"']
    te = its[0].get("textEdit") if its else None
    check(te is not None and te.get("newText") == '"basic"'
          and te["range"]["start"] == {"line": 0, "character": 7},
          "completion inside an open string: a textEdit from the opening "
          "quote", show(r))
    for t in ('zone = |\n', 'zone = "|"\n', 'zone = "|\n'):
        got = labels(complete(t))
        check('"forbidden"' not in got and '"legacy"' not in got
              and "zone" not in got,
              "completion of zone's value in %r: none of the values its "
              "negated rule forbids" % t, show(got))
    got = labels(complete('plan = "|"\n'))
    check(set(got) >= {'"s"', '"m"', '"l"'} and '"xl"' not in got,
          "completion of plan's value: a rule's values but those another "
          "rule's !contains() forbids", show(got))
    got = complete('token = "|"\n')
    check(SECRET not in show(got), "completion of a sensitive variable's "
          "value: its rule's values (its secret) never offered", show(got))

    # ---- 3. attributes already set; a .tf default
    got = labels(complete('network = {\n  cidr = "10.0.0.0/16"\n  |\n}\n'))
    check("region" in got and "flow_logs" in got and "cidr" not in got,
          "attribute completion leaves out the attributes already set",
          show(got))
    got = labels(complete('subnets = {\n  a = {\n    public = true\n    |\n'
                          '  }\n}\n'))
    check("cidr" in got and "name" in got and "public" not in got,
          "attribute completion in a map's object: the attributes not set",
          show(got))
    tf = uri(mod, "main.tf")
    tf_text = open(os.path.join(mod, "main.tf")).read()
    s.open(tf, tf_text, 1)
    i = tf_text.index('cidr = "10.0.0.0/16"\n\n') + len(
        'cidr = "10.0.0.0/16"\n')
    at = {"line": tf_text.count("\n", 0, i), "character": 4}
    got = labels(s.at("textDocument/completion", tf, at))
    check("region" in got and "tags" in got and "cidr" not in got,
          "completion inside a .tf variable's default: its type's "
          "attributes not set yet", show(got))
    i = tf_text.index('default = "a"') + len("default = ")
    at = {"line": tf_text.count("\n", 0, i),
          "character": i - tf_text.rfind("\n", 0, i) - 1}
    # (tier's default "basic": its allowed values)
    i = tf_text.index('default     = "basic"') + len('default     = "')
    at = {"line": tf_text.count("\n", 0, i),
          "character": i - tf_text.rfind("\n", 0, i) - 1}
    got = labels(s.at("textDocument/completion", tf, at))
    check('"premium"' in got,
          "completion of a .tf variable's default: the allowed values",
          show(got))

    # definition: a map key stays put, an attribute goes to its type line
    T = uri(mod, "terraform.tfvars")
    text = ('tier  = "basic"\nsize  = 30\n'
            'subnets = {\n  a = { cidr = "10.1.0.0/24", public = true }\n}\n'
            'network = {\n  cidr = "10.0.0.0/16"\n  region = "x"\n}\n'
            'extra_flag = { a = "x", b = "y" }\n'
            'token = "%s"\n' % SECRET)
    m = s.mark()
    s.open(T, text, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    r = s.at("textDocument/definition", T, pos(text, "a = {"))
    check(r is None, "definition on a map key: null", show(r))
    r = s.at("textDocument/definition", T, pos(text, "public = true"))
    want = pos(tf_text, "public = optional(bool")
    check(isinstance(r, dict) and r.get("uri") == tf
          and r["range"]["start"] == want,
          "definition on an attribute of a map's object: its line in the "
          "type expression", show(r))
    r = s.at("textDocument/definition", T, pos(text, "region ="))
    want = pos(tf_text, "region        = optional")
    check(isinstance(r, dict) and r["range"]["start"] == want,
          "definition on an object attribute: its line in the type",
          show(r))

    # ---- 2. hover
    md = markdown(s.at("textDocument/hover", T, pos(text, "size")))
    failed = [d for d in (p or {}).get("diagnostics", [])
              if "The size must be below 10" in d.get("message", "")]
    check(failed and md is not None and "skipped" not in md and "30" in md
          and re.search(r"[Vv]alidation rule 1.*fail", md),
          "hover on a rule that fails while plan stops for another reason "
          "(owner has no value): the status the diagnostic gives",
          show(md) + "\n" + show(p))
    md = markdown(s.at("textDocument/hover", T, pos(text, "cidr =")))
    check(md is not None and "var.subnets.a.cidr" in md and "string" in md
          and "10.1.0.0/24" in md and "terraform.tfvars:4" in md
          and "size" not in md,
          "hover on a nested attribute: its own type, value and line",
          show(md))
    md = markdown(s.at("textDocument/hover", T, pos(text, "network")))
    check(md is not None and "object({\n" in md
          and re.search(r'\n  region +\= optional\(string, "eu-west-1"\)\n',
                        md)
          and re.search(r'\n  subnet_names += optional\(list\(string\), '
                        r'\[\]\)\n', md),
          "hover: a long type folded one attribute a line, with its "
          "optional() defaults", show(md))
    long_text = 'owner = "%s"\n' % ("x" * 3000)
    L = uri(mod, "long.auto.tfvars")
    s.open(L, long_text, 1)
    md = markdown(s.at("textDocument/hover", L, pos(long_text, "owner")))
    check(md is not None and "```" in md
          and re.search(r"\(\d+ more characters\)", md) and len(md) < 2000,
          "hover on a long value: fenced, and how much was cut", show(md))
    s.close_doc(L)

    # ---- 4. quick fixes
    def actions(doc, diags):
        r = s.request("textDocument/codeAction", {
            "textDocument": {"uri": doc},
            "range": diags[0]["range"] if diags else rng(text, "tier"),
            "context": {"diagnostics": diags}})
        return (r or {}).get("result") or []
    tfd = s.diags(tf, 0, lambda q: any(
        "No value for required variable" in d.get("message", "")
        for d in q.get("diagnostics", [])))
    req = [d for d in (p or {}).get("diagnostics", [])
           if "No value for required variable" in d.get("message", "")]
    req_tf = [d for d in (tfd or {}).get("diagnostics", [])
              if "No value for required variable" in d.get("message", "")]
    check(req or req_tf, "owner's missing value is a diagnostic",
          show(p) + show(tfd))
    for doc, diags in ((T, req), (tf, req_tf)):
        if not diags:
            continue
        acts = actions(doc, diags)
        edits = [e for a in acts
                 for e in a.get("edit", {}).get("changes", {}).get(T, [])]
        check(any(e["newText"] == 'owner = ""\n'
                  and e["range"]["start"] == {"line": 11, "character": 0}
                  for e in edits),
              "quick fix on a required variable without a value (%s): "
              "owner = \"\" added at the end of the open tfvars"
              % os.path.basename(doc), show(acts))
    und = [d for d in (p or {}).get("diagnostics", [])
           if "Value for undeclared variable" in d.get("message", "")]
    acts = actions(T, und)
    V = uri(mod, "variables.tf")
    decl = [a for a in acts if a.get("title") ==
            "Declare variable extra_flag in variables.tf"]
    dc = decl[0].get("edit", {}).get("documentChanges") if decl else None
    check(dc and dc[0] == {"kind": "create", "uri": V}
          and dc[1]["edits"][0]["newText"] ==
          'variable "extra_flag" {\n  type = map(string)\n}\n',
          "quick fix on an undeclared variable: declare it in variables.tf, "
          "created (map(string) from its value)", show(acts))
    with open(os.path.join(mod, "variables.tf"), "w") as f:
        f.write('variable "other" {}\n')
    acts = actions(T, und)
    decl = [a for a in acts if a.get("title") ==
            "Declare variable extra_flag in variables.tf"]
    ch = decl[0].get("edit", {}).get("changes", {}).get(V) if decl else None
    check(ch and ch[0]["newText"] ==
          '\nvariable "extra_flag" {\n  type = map(string)\n}\n'
          and ch[0]["range"]["start"] == {"line": 1, "character": 0},
          "quick fix on an undeclared variable: appended to the existing "
          "variables.tf", show(acts))
    os.unlink(os.path.join(mod, "variables.tf"))

    # ---- 5. document symbols
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": T}})
    syms = (r or {}).get("result") or []
    names = [x.get("name") for x in syms]
    sub = [x for x in syms if x.get("name") == "subnets"]
    kids = sub[0].get("children", []) if sub else []
    grand = kids[0].get("children", []) if kids else []
    check(names == ["tier", "size", "subnets", "network", "extra_flag",
                       "token"]
          and all(x.get("kind") == 13 for x in syms)
          and [k["name"] for k in kids] == ["a"]
          and [g["name"] for g in grand] == ["cidr", "public"]
          and sub[0]["selectionRange"] == rng(text, "subnets"),
          "documentSymbol of a tfvars: its keys, nested keys as children",
          show(syms))
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": tf}})
    syms = (r or {}).get("result") or []
    by = {x.get("name"): x for x in syms}
    check(set(by) == {"tier", "zone", "plan", "size", "owner", "token", "subnets",
                      "network"}
          and by["tier"].get("detail") == "string"
          and by["tier"]["range"]["start"] == pos(tf_text, 'variable "tier"')
          and by["tier"]["range"]["end"]["line"] > pos(tf_text,
                                                       'variable "tier"')[
                                                           "line"],
          "documentSymbol of a .tf file: its variable blocks, the type as "
          "detail", show(syms))
    # a sensitive value: in no hover, completion, symbol or action
    out = [s.at("textDocument/hover", T, pos(text, "token")),
           s.at("textDocument/hover", T, pos(text, "CANARY")),
           s.at("textDocument/completion", T, pos(text, "CANARY")),
           s.request("textDocument/documentSymbol",
                     {"textDocument": {"uri": T}}),
           actions(T, (p or {}).get("diagnostics", [])),
           s.at("textDocument/hover", tf, pos(tf_text, 'variable "token"')),
           s.at("textDocument/completion", tf, pos(tf_text, "CANARY"))]
    check(SECRET not in show(out, 10 ** 6) and markdown(out[0]),
          "a sensitive variable's value in no hover, completion, symbol or "
          "code action", show(out))
    # .tfvars.json symbols
    J = uri(mod, "x.auto.tfvars.json")
    jtext = '{\n  "network": {\n    "cidr": "10.0.0.0/16"\n  },\n' \
            '  "tier": "basic"\n}\n'
    s.open(J, jtext, 1)
    r = s.request("textDocument/documentSymbol",
                  {"textDocument": {"uri": J}})
    syms = (r or {}).get("result") or []
    check([x.get("name") for x in syms] == ["network", "tier"]
          and [k["name"] for k in syms[0].get("children", [])] == ["cidr"],
          "documentSymbol of a .tfvars.json", show(syms))
    s.close_doc(J)

    s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "exit status 0")
    s.finish()
    sanity(check, s, "requests run")

    # a client that lists plaintext first: no markdown at all
    s = start(tool, mod, {"textDocument": {"hover": {
        "contentFormat": ["plaintext", "markdown"]}}})
    s.open(T, text, 1)
    h = s.at("textDocument/hover", T, pos(text, "network"))
    c = (h or {}).get("contents") or {}
    v = c.get("value", "")
    check(c.get("kind") == "plaintext" and "**" not in v and "```" not in v
          and "var.network" in v and "object({" in v,
          "hover for a client that asks for plaintext: plaintext", show(h))
    # a client that cannot create files: declared in the first
    # variable's file
    p = s.diags(T, 0, lambda p: p.get("version") == 1)
    und = [d for d in (p or {}).get("diagnostics", [])
           if "Value for undeclared variable" in d.get("message", "")]
    r = s.request("textDocument/codeAction", {
        "textDocument": {"uri": T}, "range": und[0]["range"] if und
        else rng(text, "tier"), "context": {"diagnostics": und}})
    acts = (r or {}).get("result") or []
    ch = [a.get("edit", {}).get("changes", {}).get(tf) for a in acts
          if a.get("title") == "Declare variable extra_flag in main.tf"]
    check(ch and ch[0] and 'variable "extra_flag"' in ch[0][0]["newText"],
          "quick fix on an undeclared variable for a client that cannot "
          "create files: declared in main.tf", show(acts))
    s.request("shutdown")
    s.notify("exit")
    s.wait_exit()
    s.finish()
    sanity(check, s, "plaintext run")


def main():
    tool = os.path.abspath(sys.argv[1])
    fixture = os.path.abspath(sys.argv[2])
    check = Checks()
    with tempfile.TemporaryDirectory(prefix="lsp-req-test.") as root:
        try:
            run(check, tool, fixture, root)
        except Exception:
            check(False, "ran to its end", traceback.format_exc())
    seen = b"".join(s.finish() for s in lsp_common.SERVERS)
    check(SECRET.encode() not in seen,
          "the sensitive value never appears in anything a server wrote "
          "(%d bytes)" % len(seen))
    return check.done()


if __name__ == "__main__":
    sys.exit(main())
