#!/usr/bin/env python3
"""The language server's documents and their modules, and files on disk
(src/lsp/documents.c).

  lsp_documents_test.py TFRESOLVE FIXTURE_DIR

  env_file  envs/prod.tfvars below the module and dev.tfvars beside it,
            each a -var-file on top of the module's sources.
  states    (issue 28) a client that watches files: a varFiles entry
            that does not exist, Emacs's lock file of an auto file, a
            broken other .tf, a tfvars without declarations, files
            changed on disk (didChangeWatchedFiles, didSave), publishes
            only of what changed.
  fallback  a client that watches nothing: files changed on disk seen
            by their modification times.
  cost      (issue 41) only the modules of open documents are checked
            again: a keystroke in a child shared by five roots, one open
            and one closed, re-checks the open one (trace setting).
  callers   (issue 41) a called module opened alone: its required
            variables are its callers' to set, not reported missing.
  identity  (issue 41) a child behind a symbolic link edited by its real
            path, unsaved and saved; a child directory removed and
            restored; with a watching client and with polling.

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


def env_file_run(check, tool, fixture, root):
    """envs/prod.tfvars below the module, and dev.tfvars beside it: each
    resolved as a -var-file on top of the module's own sources."""
    mod = os.path.join(root, "envfiles")
    shutil.copytree(fixture, mod)
    os.makedirs(os.path.join(mod, "envs"))
    P = uri(mod, "envs", "prod.tfvars")
    D = uri(mod, "dev.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    s.notify("initialized", {})
    bad = 'instance_count = "many"\n'
    m = s.mark()
    s.open(P, bad, 1)
    p = s.diags(P, m, lambda p: p.get("version") == 1)
    check(p is not None and find(p, rng(bad, '"many"'), 1, None,
                                 ["Invalid value for input variable"])
          is not None,
          "envs/prod.tfvars (not loaded by the module): its own errors, "
          "as a -var-file of the module above it", show(p))
    h = s.at("textDocument/hover", P, pos(bad, "instance_count"))
    md = markdown(h)
    check(md is not None and "prod.tfvars:1" in md,
          "envs/prod.tfvars: hover says the value comes from it", show(h))
    m = s.mark()
    s.change(P, 2, {"text": "instance_count = 4\n"})
    p = s.diags(P, m, lambda p: p.get("version") == 2)
    check(p is not None and p["diagnostics"] == [],
          "envs/prod.tfvars: fixed, its diagnostics are cleared", show(p))
    good = 'instance_count = 5\n'
    m = s.mark()
    s.open(D, good, 1)
    p = s.diags(D, m, lambda p: p.get("version") == 1)
    check(p is not None and not [d for d in p["diagnostics"]
                                 if "instance_count" in d["message"]],
          "dev.tfvars beside the module: resolved as its -var-file (its "
          "value wins, no error about it)", show(p))
    h = s.at("textDocument/hover", D, pos(good, "instance_count"))
    md = markdown(h)
    check(md is not None and "dev.tfvars:1" in md and "5" in md,
          "dev.tfvars: hover shows its own value", show(h))
    # completion while typing: what the editor has is a syntax error
    def labels_at(marked, n=[0]):
        """Completion at the "|" of marked (removed) in a new document."""
        n[0] += 1
        doc = uri(mod, "typing%d.auto.tfvars" % n[0])
        i = marked.index("|")
        text = marked[:i] + marked[i + 1:]
        s.open(doc, text, 1)
        bol = text.rfind("\n", 0, i) + 1
        at = {"line": text.count("\n", 0, i), "character": utf16(text[bol:i])}
        got = labels(s.at("textDocument/completion", doc, at)) or []
        s.close_doc(doc)
        return got
    got = labels_at("tier = |\n")
    check('"basic"' in got and '"premium"' in got,
          "completion of a value not typed yet: the values a contains() "
          "rule allows", show(got))
    got = labels_at('network = {\n  cidr = "10.0.0.0/16"\n  adr|\n}\n')
    check("address_prefix" in got and "tier" not in got,
          "completion of an attribute name half typed: the object's "
          "attributes, not the variables", show(got))
    # every undeclared name at its place (Terraform names only two)
    doc = uri(mod, "many.auto.tfvars")
    text = 'namee = "x"\nfoo = 1\nbar = 2\nbaz = 3\n'
    m = s.mark()
    s.open(doc, text, 1)
    p = s.diags(doc, m, lambda p: p.get("version") == 1)
    got = [d for d in (p or {}).get("diagnostics", [])
           if "Value for undeclared variable" in d.get("message", "")]
    check(len(got) == 4 and find(p, rng(text, "namee"), 2, None,
                                 ['Did you mean "name"?']) is not None,
          "four undeclared names: four warnings, each at its name",
          show(p))
    s.close_doc(doc)
    # hover in a configuration file: on a variable's header, its story
    tf = uri(mod, "main.tf")
    tf_text = open(os.path.join(mod, "main.tf")).read()
    s.open(tf, tf_text, 1)
    md = markdown(s.at("textDocument/hover", tf,
                       pos(tf_text, 'variable "instance_count"')))
    check(md is not None and "var.instance_count" in md and "number" in md
          and "How many instances to run." in md,
          "hover on a variable block's header in main.tf: its type, "
          "description and value", show(md))
    s.close_doc(tf)
    # an optional attribute's default: in completion and in hover
    doc = uri(mod, "defaults.auto.tfvars")
    text = 'network = {\n  cidr           = "10.0.0.0/16"\n' \
           '  address_prefix = "10.0.9.0/24"\n}\n'
    s.open(doc, text, 1)
    r = s.at("textDocument/completion", doc, pos(text, "  address_prefix"))
    items = (r or {}).get("items", [])
    detail = [i.get("detail", "") for i in items
              if i.get("label") == "address_prefix"]
    check(detail and 'default "10.0.0.0/24"' in detail[0],
          "completion: an optional attribute's default in its detail",
          show(r))
    md = markdown(s.at("textDocument/hover", doc,
                       pos(text, "address_prefix")))
    check(md is not None and 'Default when left out: `"10.0.0.0/24"`' in md,
          "hover: an optional attribute's default", show(md))
    s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "env files run: exit status 0")
    s.finish()
    sanity(check, s, "env files run")


def states_run(check, tool, fixture, root):
    """A client that watches files for the server (dynamic registration
    of workspace/didChangeWatchedFiles): a varFiles entry that does not
    exist, an editor's lock file, a broken other .tf, a tfvars without a
    module, files changed on disk, and publishes only when they change."""
    mod = os.path.join(root, "states")
    shutil.copytree(fixture, mod)
    T, E = uri(mod, "terraform.tfvars"), uri(mod, "extra.auto.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {
        "processId": os.getpid(), "rootUri": uri(mod),
        "capabilities": {"workspace": {"didChangeWatchedFiles": {
            "dynamicRegistration": True}}},
        "initializationOptions": {"varFiles": ["missing.tfvars"]}})
    m = s.mark()
    s.notify("initialized", {})
    req = server_request(s, "client/registerCapability", m)
    regs = ((req or {}).get("params") or {}).get("registrations") or []
    globs = sorted(w.get("globPattern") for r in regs
                   if r.get("method") == "workspace/didChangeWatchedFiles"
                   for w in (r.get("registerOptions") or {})
                   .get("watchers", []))
    check(globs == sorted(GLOBS), "states: at initialized, the server "
          "registers workspace/didChangeWatchedFiles for the module's "
          "files (the client can)", show(req))
    if req:  # our answer: the server must go on
        s.send({"id": req["id"], "result": None})

    # 2. a varFiles entry that does not exist: said on the document, and
    # the module checked with its other sources
    m = s.mark()
    s.open(T, ST, 1)
    p = s.diags(T, m, lambda p: p.get("version") == 1)
    check(words_in(p, "The name must be lowercase letters only."),
          "states: varFiles names a missing file: the module is still "
          "checked (the failed rule of the document)", show(p))
    miss = words_in(p, "missing.tfvars", "No such file")
    check(len(miss) == 1 and miss[0]["range"]["start"]["line"] == 0
          and miss[0]["severity"] in (1, 2),
          "states: the missing var file is a diagnostic on the open "
          "document, at line 0, with the path and the OS error", show(p))
    h = s.at("textDocument/hover", T, pos(ST, "instance_count"))
    md = markdown(h) or ""
    check("terraform.tfvars:2" in md and "from default" not in md.lower(),
          "states: missing var file: hover says the document's value wins",
          show(h))
    m = s.mark()
    s.notify("workspace/didChangeConfiguration",
             {"settings": {"tfresolve": {"varFiles": []}}})
    p = s.diags(T, m)
    check(p is not None and not words_in(p, "missing.tfvars")
          and words_in(p, "The name must be lowercase"),
          "states: varFiles emptied: the message goes, the checks stay",
          show(p))

    # 1. Emacs's lock file of an open auto file: a dangling symlink
    m = s.mark()
    s.open(E, 'debug = "maybe"\n', 1)
    p = s.diags(E, m, lambda p: p.get("version") == 1)
    lock = os.path.join(mod, ".#extra.auto.tfvars")
    os.symlink("user@host.1234:1700000000", lock)
    # a Vim swap file and a backup too (neither is an auto file by name,
    # but a server must not trip on them)
    open(os.path.join(mod, ".extra.auto.tfvars.swp"), "wb").write(b"\0b0VIM")
    open(os.path.join(mod, "extra.auto.tfvars~"), "w").write("debug = 1\n")
    m = s.mark()
    s.change(E, 2, {"text": 'debug = "perhaps"\n'})
    p = s.diags(E, m, lambda p: p.get("version") == 2)
    check(words_in(p, "a bool is required"),
          "states: with Emacs's lock file .#extra.auto.tfvars (a dangling "
          "symlink) the open auto file is still checked", show(p))
    pt = s.latest(T)
    check(pt is not None and words_in(pt, "The name must be lowercase")
          and not words_in(pt, "Failed to read"),
          "states: the lock file is not read as a variables file: the "
          "module's diagnostics stay, no read error", show(pt))
    os.unlink(lock)

    # 6. publish only what changed: an edit of T alone does not publish E
    # (nor any other file) again
    m = s.mark()
    t2 = ST.replace("5", "6")
    s.change(T, 2, {"text": t2})
    s.diags(T, m, lambda p: p.get("version") == 2)
    barrier(s)
    again = publishes(s, E, m)
    check(not again, "states: an edit of terraform.tfvars does not publish "
          "extra.auto.tfvars's unchanged diagnostics again", show(again))
    m = s.mark()
    s.change(T, 3, {"text": ST})
    p = s.diags(T, m, lambda p: p.get("version") == 3)
    check(p is not None, "states: the edited document itself is published "
          "with each new version", s.dead or "")

    # 3. a syntax error in another .tf file (not open)
    broken = os.path.join(mod, "broken.tf")
    open(broken, "w").write('variable "x" {\n  type = \n}\n')
    B = uri(mod, "broken.tf")
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": B, "type": 1}]})
    pb = s.diags(B, m)
    check(pb is not None and words_in(pb, "Invalid expression")
          and pb["diagnostics"][0]["range"]["start"]["line"] == 1,
          "states: a broken other .tf (not open): its syntax error is "
          "published on its own URI", show(pb))
    pt = s.diags(T, m)
    lim = words_in(pt, "broken.tf:2")
    check(lim and "syntax error" in lim[0]["message"]
          and lim[0]["range"]["start"]["line"] == 0,
          "states: the tfvars says checking is limited because broken.tf:2 "
          "has a syntax error", show(pt))
    check(words_in(pt, "The name must be lowercase letters only.")
          and len(lim) == 1,
          "states: a broken other .tf: the tfvars's values are still "
          "checked (its failed rule, as a preview), the blocking problem "
          "said once", show(pt))
    h = s.at("textDocument/hover", T, pos(ST, "instance_count"))
    md = markdown(h) or ""
    check("terraform.tfvars:2" in md and "5" in md and "(not set)" not in md,
          "states: a broken other .tf: hover shows the document's value "
          "(a preview)", show(h))
    os.unlink(broken)
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": B, "type": 3}]})
    pb = s.diags(B, m)
    pt = s.diags(T, m)
    check(pb is not None and pb["diagnostics"] == []
          and words_in(pt, "The name must be lowercase")
          and not words_in(pt, "broken.tf"),
          "states: broken.tf deleted: its diagnostics cleared, the tfvars "
          "checked in full again", show([pb, pt]))

    # 5. a new auto file on disk, reported by the client's watcher
    N = uri(mod, "new.auto.tfvars")
    newf = os.path.join(mod, "new.auto.tfvars")
    open(newf, "w").write('tier = "gold"\n')
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": N, "type": 1}]})
    pn = s.diags(N, m)
    check(words_in(pn, "The tier must be basic or premium."),
          "states: didChangeWatchedFiles: a new *.auto.tfvars on disk is "
          "checked (its failed rule on its URI)", show(pn))
    # changed on disk, then a save of the open document: re-checked
    open(newf, "w").write('tier = "premium"\n')
    m = s.mark()
    s.notify("textDocument/didSave", {"textDocument": {"uri": T}})
    pn = s.diags(N, m)
    check(pn is not None and pn["diagnostics"] == [],
          "states: didSave re-checks the module (the file fixed on disk)",
          show(pn))

    # 4. a tfvars file in a directory without declarations
    lone = os.path.join(root, "states-lone", "a", "b", "c", "d")
    os.makedirs(lone)
    L = uri(lone, "lone.tfvars")
    m = s.mark()
    s.open(L, 'region = "x"\n', 1)
    p = s.diags(L, m, lambda p: p.get("version") == 1)
    nd = words_in(p, "No variable declarations")
    check(len(nd) == 1 and nd[0]["severity"] in (2, 3),
          "states: a tfvars without a module: says there are no variable "
          "declarations here (information or warning)", show(p))
    # a .tf written beside it: the document joins that module (as a var
    # file it does not load itself), the note goes, its values are checked
    main = os.path.join(lone, "main.tf")
    open(main, "w").write('variable "region" {\n  type = number\n}\n')
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": uri(lone, "main.tf"), "type": 1}]})
    p = s.diags(L, m)
    check(p is not None and not words_in(p, "No variable declarations")
          and words_in(p, "a number is required"),
          "states: a .tf created beside a lone tfvars: the document moves "
          "to the new module and is checked against it", show(p))
    os.unlink(main)
    m = s.mark()
    s.notify("workspace/didChangeWatchedFiles",
             {"changes": [{"uri": uri(lone, "main.tf"), "type": 3}]})
    p = s.diags(L, m)
    check(p is not None and len(words_in(p, "No variable declarations")) == 1
          and not words_in(p, "a number is required"),
          "states: the .tf deleted again: the document is alone again, "
          "said once", show(p))

    r = s.request("shutdown")
    s.notify("exit")
    check(s.wait_exit() == 0, "states: exit after shutdown", show(r))
    s.finish()
    sanity(check, s, "states run")


def fallback_run(check, tool, fixture, root):
    """A client that watches nothing (Neovim 0.7): files changed on disk
    are seen by their modification times, before a request and when input
    pauses."""
    mod = os.path.join(root, "fallback")
    shutil.copytree(fixture, mod)
    T = uri(mod, "terraform.tfvars")
    s = Server(tool, mod)
    s.request("initialize", {"processId": os.getpid(), "rootUri": uri(mod),
                             "capabilities": {}})
    m = s.mark()
    s.notify("initialized", {})
    s.open(T, ST, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)
    barrier(s)
    check(not [n for n in s.notes[m:]
               if n.get("method") == "client/registerCapability"],
          "fallback: no registration asked of a client that cannot",
          show(s.notes[m:]))
    N = uri(mod, "new.auto.tfvars")
    m = s.mark()
    open(os.path.join(mod, "new.auto.tfvars"), "w").write('tier = "gold"\n')
    pn = s.diags(N, m)  # no message sent: the server looks by itself
    check(words_in(pn, "The tier must be basic or premium."),
          "fallback: a new *.auto.tfvars on disk is seen without any "
          "message from the client", show(pn))
    open(os.path.join(mod, "new.auto.tfvars"), "w").write('tier = "x2"\n')
    m = s.mark()
    s.at("textDocument/hover", T, pos(ST, "name"))
    pn = [n["params"] for n in publishes(s, N, m)]
    check(pn and words_in(pn[-1], "The tier must be basic or premium."),
          "fallback: a changed file on disk is re-read before a request",
          show(s.notes[m:]))
    # a lone tfvars, then a .tf written beside it: seen by itself too
    lone = os.path.join(root, "fallback-lone", "a", "b", "c", "d")
    os.makedirs(lone)
    L = uri(lone, "terraform.tfvars")
    m = s.mark()
    s.open(L, 'size = "big"\n', 1)
    p = s.diags(L, m, lambda p: p.get("version") == 1)
    check(words_in(p, "No variable declarations"),
          "fallback: a lone tfvars says so", show(p))
    m = s.mark()
    open(os.path.join(lone, "main.tf"), "w").write(
        'variable "size" {\n  type = number\n}\n')
    p = s.diags(L, m)  # no message sent: the server looks by itself
    check(p is not None and not words_in(p, "No variable declarations")
          and words_in(p, "a number is required"),
          "fallback: a .tf written beside a lone tfvars on disk: the "
          "document joins that module, seen without any message", show(p))
    s.notify("exit")
    s.finish()
    sanity(check, s, "fallback run")


def resolved_since(s, since):
    """The directories of the modules the server checked (its trace
    notifications) in notes[since:], after a barrier."""
    barrier(s)
    return sorted(os.path.basename(n["params"]["dir"])
                  for n in s.notes[since:]
                  if n.get("method") == "tfresolve/resolved")


def cost_run(check, tool, fixture, root):
    """(issue 41) Work proportional to what is open: five roots share a
    child module; with two roots open and one of them closed again, a
    keystroke in the child re-checks the open root and the child's own
    module only (counted by the trace setting's notifications), and a
    keystroke in a root's tfvars that root only."""
    top = os.path.join(root, "cost")
    shared = os.path.join(top, "modules", "shared")
    os.makedirs(shared)
    child = ('variable "size" {\n  type = number\n  validation {\n'
             '    condition     = var.size < 10\n'
             '    error_message = "Too big."\n  }\n}\n')
    open(os.path.join(shared, "variables.tf"), "w").write(child)
    for i in range(5):
        r = os.path.join(top, "r%d" % i)
        os.makedirs(r)
        open(os.path.join(r, "main.tf"), "w").write(
            'variable "size" {\n  type = number\n}\n'
            'module "shared" {\n  source = "../modules/shared"\n'
            '  size   = var.size\n}\n'.replace("../modules",
                                                "../modules"))
        open(os.path.join(r, "terraform.tfvars"), "w").write("size = 3\n")
    s, _ = begin(tool, top, options={"trace": True})
    R = [uri(top, "r%d" % i, "terraform.tfvars") for i in range(5)]
    S = uri(shared, "variables.tf")
    for doc, text in ((R[0], "size = 3\n"), (R[1], "size = 4\n"),
                      (S, child)):
        m = s.mark()
        s.open(doc, text, 1)
        s.diags(doc, m)
    resolved_since(s, 0)  # what opening them checked
    m = s.mark()
    got = resolved_since(s, m)
    check(got == [], "trace: nothing checked again without a change",
          show(got))
    m = s.mark()
    s.close_doc(R[1])
    resolved_since(s, m)
    m = s.mark()
    s.change(S, 2, {"text": child.replace("Too big.", "Too big!")})
    got = resolved_since(s, m)
    check(got == ["r0", "shared"],
          "a keystroke in a child shared by five roots, one of them open "
          "and one closed again: the open root and the child's own module "
          "are checked, not the closed root nor the roots never opened",
          show(got))
    m = s.mark()
    s.change(R[0], 2, {"text": "size = 12\n"})
    got = resolved_since(s, m)
    check(got == ["r0"], "a keystroke in a root's tfvars: that root only",
          show(got))
    p = s.latest(R[0])
    check(p is not None and any("Too big!" in d.get("message", "")
                                for d in p["diagnostics"]),
          "the open root still shows the child's failure at its value",
          show(p))
    s.notify("exit")
    s.finish()
    sanity(check, s, "cost run")


def callers_run(check, tool, fixture, root):
    """(issue 41) A child module opened alone: a directory other modules
    of the workspace call is no root, and its required variables (its
    callers' to set) are not reported missing; a directory nothing calls
    still is a root, its required variables reported."""
    top = os.path.join(root, "callers")
    for d, name, text in [
            ("root", "main.tf", 'module "child" {\n'
             '  source = "../modules/child"\n  size   = 3\n}\n'),
            ("modules/child", "variables.tf",
             'variable "size" {\n  type = number\n}\n'
             'variable "name" {\n  type    = string\n  default = "x"\n}\n'),
            ("lonely", "variables.tf",
             'variable "size" {\n  type = number\n}\n')]:
        os.makedirs(os.path.join(top, d), exist_ok=True)
        with open(os.path.join(top, d, name), "w") as f:
            f.write(text)
    s, _ = begin(tool, top)
    C = uri(top, "modules", "child", "variables.tf")
    L = uri(top, "lonely", "variables.tf")
    got = {}
    for doc, path in ((C, "modules/child/variables.tf"),
                      (L, "lonely/variables.tf")):
        m = s.mark()
        s.open(doc, open(os.path.join(top, path)).read(), 1)
        barrier(s)
        got[doc] = s.latest(doc)
    missing = words_in(got[C], "No value for required variable")
    check(got[C] is not None and not missing,
          "a called module opened alone: its required variable (set by its "
          "caller) is not reported missing", show(got[C]))
    check(words_in(got[L], "No value for required variable"),
          "a module nothing calls, opened alone: its required variable is "
          "reported missing", show(got[L]))
    s.notify("exit")
    s.finish()
    sanity(check, s, "callers run")


def identity_tree(top):
    """root/ calling ./modules/link, a symbolic link to ../../real/child,
    and root/direct calling ../direct-child (a plain directory)."""
    child = ('variable "size" {\n  type = number\n  validation {\n'
             '    condition     = var.size < 10\n'
             '    error_message = "Too big."\n  }\n}\n')
    for d in ("root/modules", "real/child", "direct", "direct-child"):
        os.makedirs(os.path.join(top, d), exist_ok=True)
    for d, src in (("root", "./modules/link"), ("direct", "../direct-child")):
        with open(os.path.join(top, d, "main.tf"), "w") as f:
            f.write('variable "size" {\n  type = number\n}\n'
                    'module "child" {\n  source = "%s"\n'
                    '  size   = var.size\n}\n' % src)
        with open(os.path.join(top, d, "terraform.tfvars"), "w") as f:
            f.write("size = 12\n")
    for d in ("real/child", "direct-child"):
        with open(os.path.join(top, d, "variables.tf"), "w") as f:
            f.write(child)
    os.symlink("../../real/child", os.path.join(top, "root", "modules",
                                                "link"))
    return child


def too_big(s, doc):
    barrier(s)
    return bool(words_in(s.latest(doc), "Too big"))


def identity_run(check, tool, fixture, root):
    """(issue 41) Dependencies by directory identity: a child module
    behind a symbolic link, opened by its real path (as editors do),
    edited unsaved and then saved with a watching client, reaches the
    root; a child directory removed and restored is seen, through the
    watcher's events and through the server's own polling."""
    for watching in (True, False):
        top = os.path.join(root, "identity-%s" % watching)
        child = identity_tree(top)
        caps = {"workspace": {"didChangeWatchedFiles": {
            "dynamicRegistration": True}}} if watching else {}
        s, _ = begin(tool, top, capabilities=caps)
        if watching:
            req = server_request(s, "client/registerCapability", 0)
            if req:
                s.send({"id": req["id"], "result": None})
        how = "a watching client" if watching else "the server's polling"
        R = uri(top, "root", "terraform.tfvars")
        C = uri(top, "real", "child", "variables.tf")  # the real path
        cpath = os.path.join(top, "real", "child", "variables.tf")
        s.open(R, "size = 12\n", 1)
        check(too_big(s, R), "%s: the child's rule fails at the root's "
              "value" % how, show(s.latest(R)))
        s.open(C, child, 1)
        loose = child.replace("var.size < 10", "var.size < 100")
        s.change(C, 2, {"text": loose})
        check(not too_big(s, R), "%s: the child behind a symbolic link, "
              "opened by its real path and edited unsaved: the root is "
              "checked with its text" % how, show(s.latest(R)))
        s.change(C, 3, {"text": child})
        s.close_doc(C)
        with open(cpath, "w") as f:  # saved by another program
            f.write(loose)
        if watching:
            s.notify("workspace/didChangeWatchedFiles",
                     {"changes": [{"uri": C, "type": 2}]})
        deadline = time.time() + 10
        while too_big(s, R) and time.time() < deadline:
            time.sleep(0.2)
        check(not too_big(s, R), "%s: the child behind a symbolic link "
              "saved: the root is checked again" % how, show(s.latest(R)))
        # a plain child directory removed, then restored
        D = uri(top, "direct", "terraform.tfvars")
        dc = os.path.join(top, "direct-child")
        s.open(D, "size = 12\n", 1)
        check(too_big(s, D), "%s: the direct child's rule fails" % how,
              show(s.latest(D)))
        os.rename(dc, dc + ".away")
        if watching:
            s.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": uri(dc, "variables.tf"), "type": 3}]})
        deadline = time.time() + 10
        while too_big(s, D) and time.time() < deadline:
            time.sleep(0.2)
        check(not too_big(s, D), "%s: the child directory removed: its "
              "failure goes" % how, show(s.latest(D)))
        os.rename(dc + ".away", dc)
        if watching:
            s.notify("workspace/didChangeWatchedFiles", {"changes": [
                {"uri": uri(dc, "variables.tf"), "type": 1}]})
        deadline = time.time() + 10
        while not too_big(s, D) and time.time() < deadline:
            time.sleep(0.2)
        check(too_big(s, D), "%s: the child directory restored: its "
              "failure is back without an edit of the root" % how,
              show(s.latest(D)))
        s.notify("exit")
        s.finish()
        sanity(check, s, "identity run (%s)" % how)


if __name__ == "__main__":
    sys.exit(main([env_file_run, states_run, fallback_run, cost_run,
                   callers_run, identity_run]))
