#!/usr/bin/env python3
"""The language server's diagnostics (src/lsp/diagnostics.c).

  lsp_diagnostics_test.py TFRESOLVE FIXTURE_DIR

  diagnostics  the open documents' problems as they change (issue 18).
  settings     varFiles in initializationOptions; strict through
               workspace/didChangeConfiguration; a request after shutdown.
  tree         a module tree (fixtures/lsp-tree beside FIXTURE_DIR): a
               child module's failure at the tfvars line whose value causes
               it and at the module argument of the open caller's file,
               with Terraform's words and then the instance; hover listing
               the child variables a key reaches (a sensitive value never);
               an edit of a child's file; the modules setting off.

With the client and checks of tests/lsp_common.py, on copies of
FIXTURE_DIR (fixtures/lsp).  Prints PASS or FAIL per check and
"N passed, M failed" last.
"""
import json  # noqa: F401
import os
import re  # noqa: F401
import shutil  # noqa: F401
import subprocess
import sys
import time  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_common import *  # noqa: E402,F401,F403
from lsp_common import main  # noqa: E402


def diagnostics_run(check, tool, fixture, root):
    """The diagnostics of opened documents (their text, not the files
    on disk) at their ranges, in the library's words; full and
    incremental changes, the published version, a fix that empties the
    list; a change of the open main.tf re-checks the open tfvars;
    .tfvars.json."""
    mod, u = module_copy(fixture, root, 'lsp module')
    T, E, J, V = u["T"], u["E"], u["J"], u["V"]
    main_tf = open(os.path.join(mod, "main.tf")).read()
    s, r = begin(tool, mod)

    # 2. didOpen: a document whose file on disk says other things
    p, t1_diags = open_t1(check, s, T)
    check(p is not None and len(p["diagnostics"]) == 5,
          "didOpen terraform.tfvars: no other problem (the file on disk has "
          "another)", show(p, 4000))
    # the library's words as check says them (issue 41): Terraform's
    # detail, then our note ("Did you mean") after a blank line, not the
    # server's own wording of the warning
    und = (t1_diags.get("instance_conut") or {}).get("message", "")
    check(und.startswith(
        'Value for undeclared variable: The root module does not declare a '
        'variable named "instance_conut" but a value was found in file "')
          and 'If you meant to use this value, add a "variable" block to '
          'the configuration.\n\nTo silence these warnings, use TF_VAR_' in und
          and und.endswith('\n\nDid you mean "instance_count"?'),
          "didOpen terraform.tfvars: the undeclared variable in the "
          "library's text and note, unchanged", show(und))

    # 2, 3. a document whose file does not exist: a syntax error, then
    # changes, full and incremental, and its fix
    e1 = 'debug = false\nregion = "eu" "west"\n'
    m = s.mark()
    s.open(E, e1, 1)
    p = s.diags(E, m, lambda p: p.get("version") == 1)
    west = rng(e1, '"west"')  # the token after the value: its quote
    west["end"]["character"] = west["start"]["character"] + 1
    check(find(p, west, 1, None,
               ["Missing newline after argument"]) is not None
          and len(p["diagnostics"]) == 1,
          "didOpen of a document whose file does not exist: its syntax "
          "error at its range", show(p))
    e2 = 'debug = "maybe"\n'
    m = s.mark()
    s.change(E, 2, {"text": e2})
    p = s.diags(E, m, lambda p: p.get("version") == 2)
    check(find(p, rng(e2, '"maybe"'), 1, None,
               ["Invalid value for input variable", "a bool is required"])
          is not None and len(p["diagnostics"]) == 1,
          "didChange (full text): the new problem, version 2", show(p))
    m = s.mark()
    s.change(E, 3, {"range": rng(e2, '"maybe"'), "text": "true"})
    p = s.diags(E, m, lambda p: p.get("version") == 3)
    check(p is not None and p["diagnostics"] == [],
          "didChange (incremental) fixing it: an empty list, version 3",
          show(p))
    m = s.mark()
    s.close_doc(E)
    p = s.diags(E, m)
    check(p is not None and p["diagnostics"] == [],
          "didClose of a document whose file does not exist: its list is "
          "cleared", show(p))

    # 3. terraform.tfvars fixed step by step
    t2 = T1.replace('"three"', "3")
    m = s.mark()
    s.change(T, 2, {"text": t2})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    check(p is not None and len(p["diagnostics"]) == 4
          and find(p, rng(t2, "instance_conut"), 2) is not None,
          "didChange (full text) fixing the conversion error: the other four "
          "problems at their new ranges, version 2", show(p, 4000))
    t3 = t2.replace('"Bad-Name"', '"good"')
    m = s.mark()
    s.change(T, 3, {"range": rng(t2, '"Bad-Name"'), "text": '"good"'})
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(p is not None and len(p["diagnostics"]) == 3
          and find(p, rng(t3, "knd"), 2, 11) is not None,
          "didChange (incremental) fixing the rule: three problems left, "
          "version 3", show(p, 4000))
    m = s.mark()
    s.change(T, 4, {"text": T_CLEAN})
    p = s.diags(T, m, lambda p: p.get("version") == 4)
    check(p is not None and p["diagnostics"] == [],
          "didChange fixing everything: an empty list, version 4", show(p))

    # an edit, then at once a request about another document: the edit's
    # diagnostics come first (the request does not wait for input to
    # pause, nor is it answered from before the edit)
    P = uri(mod, "probe.tfvars")
    s.open(P, "")
    s.diags(P, s.mark())
    m = s.mark()
    s.send_raw(frame(json.dumps({  # in one write: the server sees both
        "jsonrpc": "2.0", "method": "textDocument/didChange", "params": {
            "textDocument": {"uri": T, "version": 5},
            "contentChanges": [{"text": t2}]}}).encode()) +
        frame(json.dumps({
            "jsonrpc": "2.0", "id": 900, "method": "textDocument/completion",
            "params": {"textDocument": {"uri": P},
                       "position": {"line": 0, "character": 0}}}).encode()))
    r = s.response(900)
    before = [n for n in s.notes[m:]
              if n.get("method") == "textDocument/publishDiagnostics"
              and n["params"].get("uri") == T
              and n["params"].get("version") == 5]
    check(r is not None and "result" in r and len(before) == 1
          and len(before[0]["params"]["diagnostics"]) == 4,
          "a request right after an edit of another document: that edit's "
          "diagnostics (version 5) are published before the answer",
          show(s.notes[m:], 3000))
    s.close_doc(P)
    m = s.mark()
    s.change(T, 6, {"text": T_CLEAN})
    s.diags(T, m, lambda p: p.get("version") == 6)

    # 4. the open main.tf changes: the open tfvars is checked again
    m = s.mark()
    s.open(V, main_tf, 1)
    stricter = main_tf.replace(  # debug becomes a number
        '  type        = bool\n  description = "Whether to log more."\n'
        '  default     = false',
        '  type        = number\n  description = "Whether to log more."\n'
        '  default     = 0')
    s.change(V, 2, {"text": stricter})
    p = s.diags(T, m, lambda p: p["diagnostics"] != [])
    check(stricter != main_tf and
          find(p, rng(T_CLEAN, "true", after="debug ="), 1, None,
               ["Invalid value for input variable", "number required"])
          is not None,
          "didChange of the open main.tf (another type): terraform.tfvars "
          "is published again with the new error", show(p))
    m = s.mark()
    s.change(V, 3, {"text": main_tf})
    p = s.diags(T, m)
    check(p is not None and p["diagnostics"] == [] and p.get("version") == 6,
          "main.tf changed back: terraform.tfvars's list is empty again",
          show(p))

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
    s.close_doc(J)
    p = s.latest(T)
    check(p is not None and p["diagnostics"] == [],
          ".tfvars.json closed: terraform.tfvars is checked without it",
          show(p))

    s.notify("exit")
    s.finish()
    sanity(check, s, 'diagnostics run')



def settings_run(check, tool, fixture, root):
    mod = os.path.join(root, "settings")
    shutil.copytree(fixture, mod)
    T = uri(mod, "terraform.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {},
                             "initializationOptions": {
                                 "varFiles": ["layer.tfvars"]}})
    s.notify("initialized", {})
    tb = ('name           = "good"\n'
          'instance_count = 3\n'
          'db_password    = "%s"\n'
          'network = {\n'
          '  cidr          = "10.1.0.0/16"\n'
          '  adress_prefix = "10.1.0.0/24"\n'
          '}\n' % SECRET)
    m = s.mark()
    s.open(T, tb, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    check(find(p, rng(tb, "adress_prefix"), 2, 11) is not None,
          "settings: without strict a misspelt attribute is a warning",
          show(p))

    def layered(what):
        h = s.at("textDocument/hover", T, pos(tb, "instance_count"))
        md = markdown(h)
        check(md is not None and "layer.tfvars:2" in md
              and "```hcl\n7\n```" in md and "(overridden)" in md,
              "settings: %s: the var file is layered on top (hover: 7 from "
              "layer.tfvars:2)" % what, show(h))

    layered("initializationOptions varFiles")
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"strict": True}}})
    p = s.diags(T, m, lambda p: find(p, rng(tb, "adress_prefix"), 1)
                is not None)
    check(p is not None and find(p, rng(tb, "adress_prefix"), 1, 11,
                                 ['"address_prefix"']) is not None,
          "settings: didChangeConfiguration strict makes the misspelt "
          "attribute an error (severity 1)", show(p) if p else s.dead or "")
    layered("after didChangeConfiguration")

    # 11. a request after shutdown is an error; exit: status 0
    r = s.request("shutdown")
    check(r is not None and "error" not in r, "settings: shutdown", show(r))
    r = s.request("textDocument/hover", {"textDocument": {"uri": T},
                                         "position": {"line": 0,
                                                      "character": 0}})
    check(r is not None and "error" in r and "result" not in r,
          "a request after shutdown: an error response", show(r))
    s.notify("exit")
    status = s.wait_exit()
    check(status == 0, "settings: exit after shutdown: exit status 0",
          "status %s; %s" % (status, s.err.decode("utf-8", "replace")))
    s.finish()
    sanity(check, s, "settings run")


def tree_run(check, tool, fixture, root):
    mod = os.path.join(root, "tree module")
    shutil.copytree(os.path.join(os.path.dirname(fixture), "lsp-tree"), mod)
    T = uri(mod, "terraform.tfvars")
    PM = uri(mod, "modules", "platform", "main.tf")
    DB = uri(mod, "modules", "db", "variables.tf")
    pm = open(os.path.join(mod, "modules", "platform", "main.tf")).read()
    db = open(os.path.join(mod, "modules", "db", "variables.tf")).read()
    DBI = "module.platform.module.db"
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    s.notify("initialized", {})

    def dups(p):
        ds = (p or {}).get("diagnostics", [])
        return [d for i, d in enumerate(ds) if d in ds[:i]]

    def in_instance(d, words):
        """Terraform's words, then (last) the instance."""
        msg = (d or {}).get("message", "")
        return (d is not None and msg.endswith("\n(in %s)" % DBI)
                and all(msg.find(w) < msg.find("\n(in ") for w in words))

    # a root value two calls down fails a child's rule: at its tfvars line
    t1 = ('db_name     = "customer_orders_reporting_archive"\n'
          'db_password = "%s"\n'
          'envirnment  = "dev"\n' % TREE_SECRET)
    m = s.mark()
    s.open(T, t1, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    name_at = rng(t1, '"customer_orders_reporting_archive"')
    pw_at = rng(t1, '"%s"' % TREE_SECRET)
    d = find(p, name_at, 1, None, ["Invalid value for variable",
                                   "must be at most 16 characters long"])
    check(in_instance(d, ["Invalid value for variable",
                          "This was checked by the validation rule"]),
          "tree: a child's failed rule at the tfvars value that causes it "
          "(Terraform's summary and detail, then the instance)", show(p, 4000))
    check(d is not None and d["message"].endswith(
        '\nvar.name is "customer_orders_reporting_archive"\n(in %s)' % DBI)
          and [r["message"] for r in d.get("relatedInformation", [])] ==
          ["the argument name of module.platform.module.db",
           "the validation rule of var.name in module.platform.module.db"],
          "story: the child variable and the value it received, then the "
          "instance; the module argument and the rule related", show(d))
    d = find(p, pw_at, 1, None, ["Invalid value for variable",
                                 "included a sensitive value"])
    check(in_instance(d, ["so it will not be displayed"]),
          "tree: a sensitive value passed down whose child rule fails: "
          "Terraform's hidden message at the tfvars value", show(p, 4000))
    check(find(p, rng(t1, "envirnment"), 2, None,
               ['Did you mean "environment"']) is not None
          and len(p["diagnostics"]) == 4 and not dups(p),
          "tree: published with the document's own diagnostics, each once",
          show(p, 4000))

    # hover on a tfvars key: the child variables it reaches
    md = markdown(s.at("textDocument/hover", T, pos(t1, "db_name")))
    check(md is not None and md.startswith("**var.db_name**: `string`")
          and "Name of the application database." in md
          and md.index("Fails in the modules it reaches:\n- `%s.var.name` "
                       "rule 1 failed: The database name" % DBI)
          < md.index("Value (from") < md.index("Name of the application")
          < md.index("Module variables it reaches")
          and "`module.platform.var.db_name` = "
              '`"customer_orders_reporting_archive"`' in md
          and "`%s.var.name`" % DBI in md
          and "`%s.var.identifier` = `\"prod-customer" % DBI in md
          and "rule 1 failed: The database name" in md
          and "rule 2 passed" in md and "var.password" not in md,
          "tree: hover on a tfvars key: led by the child rule that fails "
          "and the value (issue 41), then its description, then the child "
          "variables it reaches (through a local too), with values and "
          "their rules' outcomes", show(md, 4000))
    md = markdown(s.at("textDocument/hover", T, pos(t1, "db_password")))
    check(md is not None and "`%s.var.password`" % DBI in md
          and "rule 1 failed" in md and TREE_SECRET not in md,
          "tree: hover on a sensitive key: its child variables, no value",
          show(md, 4000))

    # the caller's file open: at the module arguments too
    m = s.mark()
    s.open(PM, pm, 1)
    p = s.diags(PM, m, lambda p: len(p["diagnostics"]) >= 2)
    arg = rng(pm, "var.db_name", after='module "db"')
    pw_arg = rng(pm, "var.db_password", after='module "db"')
    check(in_instance(find(p, arg, 1, None,
                           ["must be at most 16 characters long"]),
                      ["This was checked"])
          and in_instance(find(p, pw_arg, 1, None,
                               ["included a sensitive value"]), [])
          and not dups(p),
          "tree: the caller's file open: the failures at their module "
          "arguments, each once", show(p, 4000))
    p = s.latest(T)  # unchanged: not published again
    check(p is not None and len(p["diagnostics"]) == 4 and not dups(p),
          "tree: the tfvars keeps its list, no duplicates", show(p, 4000))

    # an edit of a child module's file re-checks the tfvars
    m = s.mark()
    s.open(DB, db, 1)
    s.change(DB, 2, {"range": rng(db, "<= 16"), "text": "<= 40"})
    p = s.diags(T, m, lambda p: find(p, name_at, 1) is None)
    check(p is not None and len(p["diagnostics"]) == 3
          and find(p, pw_at, 1) is not None,
          "tree: an edit of the child's open variables.tf (a longer limit): "
          "the tfvars's failure is gone", show(p, 4000))
    p = s.diags(PM, m, lambda p: find(p, arg) is None)
    check(p is not None and find(p, pw_arg, 1) is not None,
          "tree: ... and at the module argument", show(p, 4000))

    # everything valid: the lists are emptied; hover on a sensitive key
    long_secret = TREE_SECRET + "-is-long-enough"
    t2 = 'db_name     = "orders"\ndb_password = "%s"\n' % long_secret
    m = s.mark()
    s.change(T, 2, {"text": t2})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    check(p is not None and p["diagnostics"] == [],
          "tree: fixed: the tfvars's list is empty", show(p, 4000))
    p = s.diags(PM, m, lambda p: not [
        d for d in p["diagnostics"] if "(in module." in d["message"]])
    check(p is not None, "tree: fixed: the module arguments' failures are "
          "cleared", s.dead or "")
    md = markdown(s.at("textDocument/hover", T, pos(t2, "db_password")))
    check(md is not None
          and "`%s.var.password` = (sensitive value)" % DBI in md
          and "`module.platform.var.db_password` = (sensitive value)" in md
          and "rule 1 passed" in md and long_secret not in md,
          "tree: hover on a sensitive key: (sensitive value) for every "
          "child variable it reaches", show(md, 4000))
    md = markdown(s.at("textDocument/hover", T, pos(t2, "db_name")))
    check(md is not None and '`%s.var.name` = `"orders"`' % DBI in md
          and "rule 1 passed" in md and "rule 2 passed" in md,
          "tree: hover on a valid key: the child's value, its rules passed",
          show(md, 4000))

    # the setting modules off: no child failure, no child in hover
    t3 = 'db_name     = "Orders"\ndb_password = "%s"\n' % long_secret
    m = s.mark()
    s.change(T, 3, {"text": t3})
    bad = rng(t3, '"Orders"')
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(in_instance(find(p, bad, 1, None, ["must start with a letter"]),
                      []) and len(p["diagnostics"]) == 1,
          "tree: a value that fails another rule of the child", show(p))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"modules": False}}})
    p = s.diags(T, m)
    check(p is not None and p["diagnostics"] == [],
          "tree: the setting modules false: no child module's failure",
          show(p))
    p = s.diags(PM, m, lambda p: not [
        d for d in p["diagnostics"] if "(in module." in d["message"]])
    check(p is not None, "tree: modules false: none at the module "
          "arguments either", s.dead or "")
    md = markdown(s.at("textDocument/hover", T, pos(t3, "db_name")))
    check(md is not None and "var.db_name" in md and "module." not in md,
          "tree: modules false: hover lists no child variable", show(md))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"modules": True}}})
    p = s.diags(T, m, lambda p: p["diagnostics"] != [])
    check(in_instance(find(p, bad, 1), []),
          "tree: modules true again: the child's failure is back", show(p))

    s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "tree run: exit status 0")
    seen = s.finish()
    check(TREE_SECRET.encode() not in seen,
          "tree run: the sensitive value passed down (a child's rule fails "
          "with a message that interpolates it) appears nowhere in what the "
          "server wrote: diagnostics, hovers, its standard error")
    sanity(check, s, "tree run")

def check_json(tool, mod, *args):
    """What `tfresolve check -json` reports for the root mod."""
    out = subprocess.run([tool, "check", "-json"] + list(args), cwd=mod,
                         capture_output=True, text=True).stdout
    return json.loads(out)


def unchecked_run(check, tool, fixture, root):
    """Only the tfvars open: a child failure no tfvars line causes is
    published at the module argument in main.tf (not open), the modules
    not checked at the tfvars's first line as check's verdict says them;
    every diagnostic check reports is published somewhere."""
    mod = keyed_root(root, "keyed root")
    T, V = uri(mod, "terraform.tfvars"), uri(mod, "main.tf")
    s, _ = begin(tool, mod)
    m = s.mark()
    s.open(T, KEYED_TFVARS, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    barrier(s)
    verdict = words_in(p, "2 modules not checked:")
    check(len(verdict) == 1 and verdict[0]["message"] ==
          '2 modules not checked:\n'
          '  module.gone: directory modules/missing not found\n'
          '  module.remote: not installed: run "terraform init"'
          and verdict[0]["severity"] == 2
          and verdict[0]["range"]["start"] == {"line": 0, "character": 0},
          "unchecked: the modules not checked on the open tfvars, as "
          "check's verdict line says them", show(p, 4000))
    pv = s.latest(V)
    arg = rng(KEYED_MAIN, "each.key", after="scope_id")
    at_arg = [d for d in (pv or {}).get("diagnostics", [])
              if d["range"] == arg and d["severity"] == 1
              and "The scope must start with /providers/." in d["message"]]
    check(len(at_arg) >= 1,
          "unchecked: main.tf not open: the keyed instances' failed rule "
          "(scope_id = each.key) published at the module argument",
          show(pv, 4000))
    # point 5: the two instances' failures folded into one diagnostic
    # naming each instance and the value its variable received, with the
    # module argument and the rule as related places
    folded = ('\n(in 2 instances of module.keyed)\n'
              '  module.keyed["/groups/alpha"]: var.scope_id is '
              '"/groups/alpha"\n'
              '  module.keyed["/groups/beta"]: var.scope_id is '
              '"/groups/beta"')
    rule_at = {"start": {"line": 2, "character": 2},
               "end": {"line": 2, "character": 12}}
    check(len(at_arg) == 1 and at_arg[0]["message"].startswith(
        "Invalid value for variable: The scope must start with /providers/."
        "\n\nThis was checked by the validation rule at ")
          and at_arg[0]["message"].endswith(folded)
          and [(r["location"]["uri"], r["location"]["range"], r["message"])
               for r in at_arg[0].get("relatedInformation", [])] ==
          [(uri(mod, "modules", "scope", "variables.tf"), rule_at,
            "the validation rule of var.scope_id in module.keyed")],
          "story: at the module argument, the instances' failures folded "
          "into one naming each instance and its value, related to the "
          "rule", show(pv, 4000))
    at_map = [d for d in p["diagnostics"] if d["severity"] == 1]
    check(len(at_map) == 1 and at_map[0]["message"].endswith(folded)
          and at_map[0]["range"] == {"start": {"line": 0, "character": 9},
                                     "end": {"line": 3, "character": 1}}
          and [(r["location"]["uri"], r["location"]["range"])
               for r in at_map[0].get("relatedInformation", [])] ==
          [(V, arg), (uri(mod, "modules", "scope", "variables.tf"),
                      rule_at)]
          and at_map[0]["relatedInformation"][0]["message"] ==
          "the argument scope_id of module.keyed",
          "story: at the tfvars value the keys come from, once, folded, "
          "related to the module argument and the rule", show(p, 4000))
    for name, needle in [("module.gone", 'module "gone" {'),
                         ("module.remote", 'module "remote" {')]:
        check(find(pv, rng(KEYED_MAIN, needle[:-2]), 2, None,
                   ["Module not installed", "(in %s)" % name]) is not None,
              "unchecked: main.tf not open: %s's warning at its module "
              "block" % name, show(pv, 4000))
    # every diagnostic of check on the same root, at its file and range
    rep = check_json(tool, mod)
    published = {}
    for n in s.notes:
        if n.get("method") == "textDocument/publishDiagnostics":
            published[n["params"]["uri"]] = n["params"]["diagnostics"]
    missed = []
    for g in rep["diagnostics"]:
        r = g["range"]
        text = open(os.path.join(mod, r["filename"])).read()
        lines = text.split("\n")
        at = {"start": {"line": r["start"]["line"] - 1, "character":
                        utf16(lines[r["start"]["line"] - 1].encode()[
                            :r["start"]["column"] - 1].decode())},
              "end": {"line": r["end"]["line"] - 1, "character":
                      utf16(lines[r["end"]["line"] - 1].encode()[
                          :r["end"]["column"] - 1].decode())}}
        got = [d for d in published.get(uri(mod, r["filename"]), [])
               if d["range"] == at and d["message"].startswith(g["summary"])
               and g.get("module", "") in d["message"]]
        if not got:
            missed.append(g)
    check(len(rep["diagnostics"]) == 4 and not missed and not rep["valid"],
          "unchecked: every diagnostic check -json reports for the root is "
          "published at its file and range (%d)" % len(rep["diagnostics"]),
          show(missed, 4000))
    check(len(rep["unchecked"]) == 2 and all(
        "  %s: %s" % (u["module"], u["why"]) in verdict[0]["message"]
        for u in rep["unchecked"]) if verdict else False,
          "unchecked: ... and every module check does not check is named on "
          "the tfvars", show(rep["unchecked"]))
    # 22 instances failing alike: 20 named, then how many more
    many = "scopes = {\n%s}\n" % "".join('  k%02d = "v"\n' % i
                                          for i in range(22))
    m = s.mark()
    s.change(T, 2, {"text": many})
    p = s.diags(T, m, lambda p: p.get("version") == 2)
    d = [x for x in (p or {}).get("diagnostics", []) if x["severity"] == 1]
    check(len(d) == 1 and "\n(in 22 instances of module.keyed)\n" in
          d[0]["message"] and d[0]["message"].count("\n  module.keyed[") == 20
          and d[0]["message"].endswith('\n  ... and 2 more'),
          "story: 22 instances failing alike: one diagnostic, 20 named, "
          "then how many more", show(d, 3000))
    # a variables file the module does not load itself (envs/prod.tfvars,
    # checked as -var-file): its own failure at its line, the verdict at
    # its first line, and no other warning there (the verdict says the
    # modules not installed)
    os.makedirs(os.path.join(mod, "envs"))
    prod = 'scopes = {\n  gamma = "G"\n}\n'
    P = uri(mod, "envs", "prod.tfvars")
    m = s.mark()
    s.open(P, prod, 1)
    pp = s.diags(P, m, lambda p: p.get("version") == 1)
    ds = (pp or {}).get("diagnostics", [])
    check(len(ds) == 2
          and words_in(pp, "The scope must start with /providers/.",
                       '(in module.keyed["/groups/gamma"])')
          and words_in(pp, "2 modules not checked:")
          and not words_in(pp, "Module not installed"),
          "unchecked: envs/prod.tfvars (a -var-file): its instance's "
          "failure and the verdict, the modules' warnings not repeated",
          show(pp, 4000))
    # every document closed: what was published for main.tf (never
    # open) is cleared with the module
    m = s.mark()
    s.close_doc(P)
    s.close_doc(T)
    pv = s.diags(V, m, lambda p: p["diagnostics"] == [])
    check(pv is not None, "unchecked: the tfvars closed: main.tf's "
          "diagnostics (it was never open) are cleared", s.dead or "")
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "unchecked run")


SECRET_MAIN = """\
variable "names" {
  type = map(string)
}

variable "token" {
  type      = string
  sensitive = true
}

module "keyed" {
  source   = "./modules/tok"
  for_each = var.names
  name     = each.value
  token    = "${each.key}-${var.token}"
}

module "one" {
  source = "./modules/tok"
  name   = "one"
  token  = var.token
}
"""
SECRET_CHILD = """\
variable "name" {
  type = string
}

variable "token" {
  type = string
  validation {
    condition     = length(var.token) > 100
    error_message = "The token ${var.token} is too short."
  }
}
"""


def secret_story_run(check, tool, fixture, root):
    """Must-show 3 of issue 41: a sensitive root value passed to keyed
    instances whose rule fails with a message that interpolates it: the
    folded diagnostics (at the tfvars and at the module arguments of
    main.tf, not open), their relatedInformation, and hovers on every key
    show it nowhere (main() searches everything the server wrote)."""
    mod = os.path.join(root, "secret story")
    os.makedirs(os.path.join(mod, "modules", "tok"))
    tv = 'names = {\n  a = "x"\n  b = "y"\n}\ntoken = "%s"\n' % SECRET
    for rel, text in [("main.tf", SECRET_MAIN), ("terraform.tfvars", tv),
                      ("modules/tok/variables.tf", SECRET_CHILD)]:
        with open(os.path.join(mod, rel), "w") as f:
            f.write(text)
    T, V = uri(mod, "terraform.tfvars"), uri(mod, "main.tf")
    s, _ = begin(tool, mod)
    m = s.mark()
    s.open(T, tv, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    barrier(s)
    pv = s.latest(V) or {}
    hidden = [d for d in pv.get("diagnostics", [])
              if "included a sensitive value" in d["message"]]
    check(any("(in 2 instances of module.keyed)" in d["message"]
              and d.get("relatedInformation") for d in hidden)
          and any(d["message"].endswith("(in module.one)") for d in hidden),
          "secret story: the hidden failures published at the module "
          "arguments (main.tf not open), folded, with related places",
          show(pv, 4000))
    check(words_in(p, "included a sensitive value", "(in module.one)"),
          "secret story: ... and at the tfvars line of the sensitive value",
          show(p, 4000))
    for key in ["names", "token"]:
        md = markdown(s.at("textDocument/hover", T, pos(tv, key))) or ""
        check("Fails in the modules it reaches:" in md and SECRET not in md,
              "secret story: hover on %s: the failures, no value" % key,
              show(md, 3000))
    s.request("shutdown")
    s.notify("exit")
    seen = s.finish()
    check(SECRET.encode() not in seen,
          "secret story: the sensitive value appears nowhere in what the "
          "server wrote")
    sanity(check, s, "secret story run")


def element_run(check, tool, fixture, root):
    """A child's rule fails on one element of a root map passed through
    for_each (settings = each.value): the tfvars diagnostic underlines
    that element (`web = {...}`), where check's report points, not the
    whole map; and when the rule reads one attribute of it alone
    (var.settings.port), that attribute's item (`port = 80`, issue 41)."""
    mod = os.path.join(root, "element")
    os.makedirs(os.path.join(mod, "modules", "svc"))
    main_tf = ('variable "services" {\n'
               '  type = map(object({ port = number, name = string }))\n}\n'
               'module "svc" {\n  source   = "./modules/svc"\n'
               '  for_each = var.services\n  settings = each.value\n'
               '  both     = each.value\n}\n')
    child = ('variable "settings" {\n'
             '  type = object({ port = number, name = string })\n'
             '  validation {\n'
             '    condition     = var.settings.port != 80\n'
             '    error_message = "Port 80 is not allowed."\n  }\n}\n'
             'variable "both" {\n'
             '  type = object({ port = number, name = string })\n'
             '  validation {\n'
             '    condition     = var.both.port != 80 || var.both.name != "web"\n'
             '    error_message = "Web may not use port 80."\n  }\n}\n')
    tv = ('services = {\n  web = {\n    name = "web"\n    port = 80\n  }\n'
          '  api = { name = "api", port = 8080 }\n}\n')
    for rel, text in [("main.tf", main_tf), ("terraform.tfvars", tv),
                      ("modules/svc/variables.tf", child)]:
        with open(os.path.join(mod, rel), "w") as f:
            f.write(text)
    T = uri(mod, "terraform.tfvars")
    s, _ = begin(tool, mod)
    m = s.mark()
    s.open(T, tv, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    d = words_in(p, "Web may not use port 80.")
    check(len(d) == 1 and d[0]["range"] ==
          {"start": {"line": 1, "character": 8},
           "end": {"line": 4, "character": 3}},
          "element: the failing element of the map underlined (web's "
          "object), not the whole map", show(p, 3000))
    d = words_in(p, "Port 80 is not allowed.")
    check(len(d) == 1 and d[0]["range"] ==
          {"start": {"line": 3, "character": 4},
           "end": {"line": 3, "character": 13}},
          "element: a rule reading one attribute of the element "
          "underlines that attribute (`port = 80`), not the element",
          show(p, 3000))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "element run")


def callers_run(check, tool, fixture, root):
    """A child module opened alone, its caller's files not open (issue
    41, point 2): the caller found in the workspace is checked with its
    files on disk, and the failure its value meets in the child is at
    the child variable's declaration, naming the instance and the
    caller, related to the module argument and the rule; an edit of the
    child re-checks it (a small caller), and the fix clears it."""
    top = os.path.join(root, "callers")
    os.makedirs(os.path.join(top, "root"))
    os.makedirs(os.path.join(top, "modules", "child"))
    child = ('variable "size" {\n  type = number\n  validation {\n'
             '    condition     = var.size < 100\n'
             '    error_message = "The size must be below 100."\n  }\n}\n')
    for rel, text in [
            ("root/main.tf", 'variable "size" {\n  type = number\n}\n'
             'module "child" {\n  source = "../modules/child"\n'
             '  size   = var.size\n}\n'),
            ("root/terraform.tfvars", "size = 200\n"),
            ("modules/child/variables.tf", child)]:
        with open(os.path.join(top, rel), "w") as f:
            f.write(text)
    C = uri(top, "modules", "child", "variables.tf")
    s, _ = begin(tool, top)
    m = s.mark()
    s.open(C, child, 1)
    p = s.diags(C, m, lambda p: p.get("version") == 1)
    d = words_in(p, "The size must be below 100.")
    rootdir = os.path.join(top, "root")
    check(len(d) == 1 and d[0]["range"] == rng(child, 'variable "size"')
          and d[0]["severity"] == 1
          and d[0]["message"].endswith("\nvar.size is 200\n(in module.child "
                                       "(from %s))" % rootdir)
          and [(r["location"]["uri"], r["message"])
               for r in d[0].get("relatedInformation", [])] ==
          [(uri(top, "root", "main.tf"), "the argument size of module.child"),
           (C, "the validation rule of var.size in module.child")]
          and not words_in(p, "No value for required"),
          "callers: a child opened alone, its caller closed: the caller's "
          "failure at the child variable's declaration, with the value, "
          "the instance and the caller", show(p, 3000))
    m = s.mark()
    s.change(C, 2, {"range": rng(child, "100", after="<"), "text": "1000"})
    p = s.diags(C, m, lambda p: p.get("version") == 2)
    check(p is not None and p["diagnostics"] == [],
          "callers: an edit of the child (a larger limit) re-checks its "
          "small caller: the failure is gone", show(p, 3000))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "callers run")


if __name__ == "__main__":
    sys.exit(main([diagnostics_run, settings_run, tree_run,
                   unchecked_run, secret_story_run, element_run,
                   callers_run]))
