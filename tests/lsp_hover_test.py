#!/usr/bin/env python3
"""The language server's hover (src/lsp/hover.c).

  lsp_hover_test.py TFRESOLVE FIXTURE_DIR

  hover  type, description, where the value comes from; optional
         attributes; a sensitive value never shown; .tfvars.json.
  agree  hover and `tfresolve explain` tell one story (both are built
         from explain's story, src/cli/explain.h): every source explain
         lists, its rules' outcomes, the value, the child variables it
         reaches; a sensitive value in neither.

With the client and checks of tests/lsp_common.py, on copies of
FIXTURE_DIR (fixtures/lsp).  Prints PASS or FAIL per check and
"N passed, M failed" last.
"""
import json  # noqa: F401
import subprocess
import os
import re  # noqa: F401
import shutil  # noqa: F401
import sys
import time  # noqa: F401

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from lsp_common import *  # noqa: E402,F401,F403
from lsp_common import main  # noqa: E402


def hover_run(check, tool, fixture, root):
    """Hover on keys, nested and optional attributes, a sensitive
    variable; on .tfvars.json keys."""
    mod, u = module_copy(fixture, root, 'lsp hover')
    T, E, J, V = u["T"], u["E"], u["J"], u["V"]
    main_tf = open(os.path.join(mod, "main.tf")).read()
    s, r = begin(tool, mod)
    m = s.mark()
    s.open(T, T_CLEAN, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)

    # 5. hover
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "network"))
    md = markdown(h)
    line = pos(T_CLEAN, "network")["line"] + 1
    check(md is not None and "object({" in md
          and re.search(r"cidr *= *string", md)  # folded (issue 28)
          and "The network to create." in md
          and "terraform.tfvars:%d" % line in md,
          "hover on a top-level key: markdown with the type, the description "
          "and where the value comes from", show(h))
    check(isinstance(h, dict) and h.get("range") == rng(T_CLEAN, "network"),
          "hover on a top-level key: its range is the key", show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "address_prefix"))
    md = markdown(h)
    check(md is not None and "`string`" in md and "(optional)" in md,
          "hover on a nested optional attribute: its type and (optional)",
          show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "size_gb"))
    md = markdown(h)
    check(md is not None and "`number`" in md and "(optional)" in md,
          "hover on an attribute of a map(object): its type and (optional)",
          show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "cidr"))
    md = markdown(h)
    check(md is not None and "`string`" in md and "(optional)" not in md,
          "hover on a required attribute: its type, not (optional)", show(h))
    h = s.at("textDocument/hover", T, pos(T_CLEAN, "db_password"))
    md = markdown(h)
    check(md is not None and "sensitive" in md and SECRET not in md,
          "hover on a sensitive variable: said to be sensitive, the value "
          "not shown", show(h))

    m = s.mark()
    s.open(J, J1, 1)
    s.diags(J, m, lambda p: p.get("version") == 1)
    h = s.at("textDocument/hover", J, pos(J1, "network"))
    md = markdown(h)
    check(md is not None and "object({" in md
          and "The network to create." in md,
          ".tfvars.json: hover on a key: its type and description", show(h))
    h = s.at("textDocument/hover", J, pos(J1, "cidr"))
    md = markdown(h)
    check(md is not None and "`string`" in md,
          ".tfvars.json: hover on a nested attribute: its type", show(h))
    s.notify("exit")
    s.finish()
    sanity(check, s, 'hover run')



def callers_hover_run(check, tool, fixture, root):
    """(issue 41) A child module opened alone with its callers open: hover
    on its variable shows what each calling instance passes; a value
    that comes from a sensitive root variable never."""
    top = os.path.join(root, "callers hover")
    os.makedirs(os.path.join(top, "modules", "child"))
    os.makedirs(os.path.join(top, "root"))
    with open(os.path.join(top, "root", "main.tf"), "w") as f:
        f.write('variable "size" {\n  type = number\n}\n'
                'variable "token" {\n  type      = string\n'
                '  sensitive = true\n}\n'
                'module "child" {\n  source = "../modules/child"\n'
                '  size   = var.size\n  token  = var.token\n}\n')
    child = ('variable "size" {\n  type = number\n}\n'
             'variable "token" {\n  type = string\n}\n')
    with open(os.path.join(top, "modules", "child", "variables.tf"),
              "w") as f:
        f.write(child)
    s, _ = begin(tool, top)
    R = uri(top, "root", "terraform.tfvars")
    C = uri(top, "modules", "child", "variables.tf")
    s.open(R, 'size = 7\ntoken = "%s"\n' % SECRET, 1)
    s.open(C, child, 1)
    barrier(s)
    h = s.at("textDocument/hover", C, pos(child, 'variable "size"'))
    md = markdown(h) or ""
    check("Passed by its callers" in md and "module.child" in md
          and "7" in md.split("Passed by its callers")[-1],
          "hover on a called module's variable: the value its caller "
          "passes", show(h))
    h = s.at("textDocument/hover", C, pos(child, 'variable "token"'))
    md = markdown(h) or ""
    check("Passed by its callers" in md and "(sensitive value)" in md
          and SECRET not in md,
          "hover on a called module's variable set from a sensitive root "
          "variable: not shown", show(h))
    s.notify("exit")
    s.finish()
    sanity(check, s, "callers hover run")

    # the child opened alone, its caller's files not open (issue 41,
    # point 2): the caller found in the workspace, resolved for the hover
    # with its terraform.tfvars on disk
    with open(os.path.join(top, "root", "terraform.tfvars"), "w") as f:
        f.write('size = 9\ntoken = "%s"\n' % SECRET)
    # a second caller, keyed: its instances passing the same, told once
    os.makedirs(os.path.join(top, "keyed"))
    with open(os.path.join(top, "keyed", "main.tf"), "w") as f:
        f.write('module "child" {\n  source   = "../modules/child"\n'
                '  for_each = toset(["a", "b", "c"])\n'
                '  size     = 5\n  token    = "t"\n}\n')
    s, _ = begin(tool, top)
    m = s.mark()
    s.open(C, child, 1)
    p = s.diags(C, m)
    check(p is not None and not words_in(p, "No value for required"),
          "child opened alone, callers closed: no required variable said "
          "missing", show(p))
    h = s.at("textDocument/hover", C, pos(child, 'variable "size"'))
    md = markdown(h) or ""
    check("\n- `module.child` (%s): `9`\n"
          "  from `var.size` (%s:1)" % (os.path.join(top, "root"),
                                        os.path.join(top, "root",
                                                     "terraform.tfvars"))
          in md and "Set by the modules that call this one." in md
          and "(not set)" not in md and "No value for required" not in md,
          "hover on a child's variable, its caller's files not open: the "
          "value the caller found in the workspace passes and where it "
          "comes from; not \"(not set)\"", show(h))
    check("- `module.child` (3 instances, each) (%s): `5`"
          % os.path.join(top, "keyed") in md,
          "... a keyed caller's instances passing the same value: told "
          "once", show(h))
    h = s.at("textDocument/hover", C, pos(child, 'variable "token"'))
    md = markdown(h) or ""
    check("- `module.child` (%s): (sensitive value)"
          % os.path.join(top, "root") in md and SECRET not in md,
          "... a value from a sensitive root variable of a closed caller: "
          "not shown", show(h))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "closed callers hover run")


def story_hover_run(check, tool, fixture, root):
    """Hover led by the failures and the value (issue 41, point 5): on a
    key whose value fails a child's rule in keyed instances, the failure
    told once with how many instances, before the value; on
    caf-enterprise-scale's root_id (../shared/corpus, when it is there)
    the whole hover under 30 lines, led by the failures."""
    mod = keyed_root(root, "story hover")
    T = uri(mod, "terraform.tfvars")
    s, _ = begin(tool, mod)
    m = s.mark()
    s.open(T, KEYED_TFVARS, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)
    md = markdown(s.at("textDocument/hover", T, pos(KEYED_TFVARS, "scopes")))
    lead = ("**var.scopes**: `map(string)`\n\n"
            "Fails in the modules it reaches:\n"
            "- `module.keyed.var.scope_id` rule 1 failed in 2 of 2 "
            "instances: The scope must start with /providers/.\n\nValue (from ")
    check(md is not None and md.startswith(lead)
          and md.index("Value (from") < md.index("Management group scopes")
          < md.index("Module variables it reaches:\n- `module.keyed.var."
                     "label` (2 instances, the first) = `\"A\"`"),
          "story hover: led by the child failure folded over its instances, "
          "then the value, the description, the variables it reaches",
          show(md, 4000))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "story hover run")
    src = os.path.join(os.path.dirname(os.path.dirname(fixture)), "..",
                       "shared", "corpus",
                       "Azure__terraform-azurerm-caf-enterprise-scale")
    if not os.path.isfile(os.path.join(src, "variables.tf")):
        print("SKIP caf-enterprise-scale is not in ../shared/corpus")
        return
    caf = os.path.join(root, "caf")
    shutil.copytree(src, caf)
    tv = ('root_parent_id   = "tenant"\nroot_id          = "My Org!"\n'
          'default_location = "eastus"\n')
    C = uri(caf, "terraform.tfvars")
    with open(os.path.join(caf, "terraform.tfvars"), "w") as f:
        f.write(tv)
    s, _ = begin(tool, caf)
    m = s.mark()
    s.open(C, tv, 1)
    p = s.diags(C, m, lambda p: p.get("version") == 1)
    md = markdown(s.at("textDocument/hover", C, pos(tv, "root_id")))
    lines = (md or "").rstrip("\n").split("\n")
    check(md is not None and len(lines) < 30
          and lines[2] == "Fails in the modules it reaches:"
          and "rule 1 failed in 8 of 8 instances: Value must be a valid "
              "Management Group ID" in lines[3]
          and md.index("Value (from") < md.index("If specified"),
          "story hover: caf's root_id: under 30 lines, led by the failures "
          "(8 instances each) and the value (%d lines)" % len(lines),
          show(md, 6000))
    barrier(s)
    errs = [d for d in (p or {}).get("diagnostics", []) if d["severity"] == 1]
    pm = s.latest(uri(caf, "main.tf")) or {}
    at_arg = [d for d in pm.get("diagnostics", []) if d["severity"] == 1]
    inst = "(in 8 instances of module.management_group_archetypes)"
    check(len(errs) == 1 and inst in errs[0]["message"]
          and "var.root_id is" in errs[0]["message"]
          and len(at_arg) == 2 and all(inst in d["message"] for d in at_arg)
          and any("scope_id" in d["message"] for d in at_arg),
          "story: caf's 16 instance failures: at the tfvars line, root_id's "
          "8 folded into one; at the module arguments in main.tf (not "
          "open), root_id's and scope_id's (each.key) folded, 2",
          show([p, pm], 6000))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "caf hover run")

AGREE_MAIN = """\
variable "region" {
  type        = string
  default     = "westeurope"
  description = "Where it runs."
}

variable "size" {
  type    = number
  default = 2
  validation {
    condition     = var.size <= 4
    error_message = "At most 4."
  }
}

variable "tags" {
  type = map(string)
}

variable "token" {
  type      = string
  sensitive = true
  default   = "%s-default"
}

variable "name" {
  type = string
}

module "app" {
  source = "./modules/app"
  name   = var.name
}
""" % SECRET
AGREE_CHILD = """\
variable "name" {
  type = string
  validation {
    condition     = length(var.name) <= 8
    error_message = "The name is at most 8 characters."
  }
}
"""
AGREE_TFVARS = ('size  = 3\ntags  = { env = "prod" }\ntoken = "%s"\n'
                'name  = "production-db"\n' % SECRET)
AGREE_EXTRA = "size = 4\n"
STATE_WORDS = {"default-used": "(used", "default": "(overridden)",
               "wins": "(wins)", "failed": "(last, but invalid)",
               "later": "(overridden)"}


def explain_of(tool, mod, name, *opts):
    """`tfresolve explain [opts] NAME` in mod: its standard output."""
    return subprocess.run([tool, "explain"] + list(opts) + [name], cwd=mod,
                          capture_output=True, text=True).stdout


def agree_one(check, md, name, text, js):
    """The hover md on variable name against explain's text and JSON."""
    lines = md.split("\n")
    srcs = []
    if "default" in js:
        srcs.append(("default", "default-used" if js["default"]["used"]
                     else "default"))
    for x in js["sources"]:
        srcs.append(("%s:%d" % (x["file"], x["line"]) if x.get("file")
                     else x["kind"], "wins" if x["wins"] else
                     "failed" if x["failed"] else "later"))
    if len(srcs) > 1:  # each on a line of its own, with what became of it
        ok = all(any(ln.startswith("- ") and where in ln
                     and STATE_WORDS[st] in ln for ln in lines)
                 for where, st in srcs)
    else:  # one: told with the value
        ok = all(re.search(r"Value \(?from [^\n]*%s" % re.escape(where), md)
                 for where, _ in srcs)
    check(srcs and ok, "agree: var.%s: every source explain lists (%s) in "
          "the hover, with which won" % (name, ", ".join(w for w, _ in srcs)),
          show([text, md], 3000))
    rules = ["Validation rule %d: %s" % (i + 1, r["result"])
             for i, r in enumerate(js["rules"])]
    check(all(r in md for r in rules),
          "agree: var.%s: its rules' outcomes as explain's (%d)"
          % (name, len(rules)), show([text, md], 3000))
    value = re.search(r"^Value: (.*(?:\n {7}.*)*)$", text, re.M)
    if value and not js["sensitive"]:  # (explain indents it by 7)
        v = value.group(1).replace("\n" + " " * 7, "\n")
        check("```hcl\n%s\n```" % v in md,
              "agree: var.%s: the value explain prints: %s"
              % (name, v.split("\n")[0]), show([text, md], 3000))
    reach = text.split("Reaches, through module calls:\n")[-1] \
        if "Reaches, through" in text else ""
    for m in re.finditer(r"^  (module\.\S+) = (.*)$", reach, re.M):
        bad = re.match(r"\(not resolved: (.*)\)$", m.group(2))
        check(("`%s`: not resolved (%s)" % (m.group(1), bad.group(1)) if bad
               else "`%s` = `%s`" % (m.group(1), m.group(2))) in md,
              "agree: var.%s: the child variable it reaches with the value "
              "explain gives it: %s" % (name, m.group(0).strip()),
              show([text, md], 3000))
    for m in re.finditer(r"^    (rule \d+ \w+)", reach, re.M):
        check(m.group(1) in md, "agree: var.%s: the child's %s, as explain"
              % (name, m.group(1)), show([text, md], 3000))


def agree_run(check, tool, fixture, root):
    """Hover and `tfresolve explain` on the same variables tell the same
    story (one story, src/cli/explain_story.c): sources, which won, rules,
    value, the child variables reached; a sensitive value in neither."""
    mod = os.path.join(root, "agree")
    os.makedirs(os.path.join(mod, "modules", "app"))
    for rel, text in [("main.tf", AGREE_MAIN),
                      ("terraform.tfvars", AGREE_TFVARS),
                      ("extra.auto.tfvars", AGREE_EXTRA),
                      ("modules/app/variables.tf", AGREE_CHILD)]:
        with open(os.path.join(mod, rel), "w") as f:
            f.write(text)
    T = uri(mod, "terraform.tfvars")
    V = uri(mod, "main.tf")
    s, _ = begin(tool, mod)
    m = s.mark()
    s.open(T, AGREE_TFVARS, 1)
    s.diags(T, m, lambda p: p.get("version") == 1)
    s.open(V, AGREE_MAIN, 1)
    barrier(s)
    for name in ["size", "tags", "token", "name", "region"]:
        if name == "region":  # set by no tfvars key: on its declaration
            h = s.at("textDocument/hover", V,
                     pos(AGREE_MAIN, 'variable "region"'))
        else:
            h = s.at("textDocument/hover", T, pos(AGREE_TFVARS, name))
        md = markdown(h) or ""
        text = explain_of(tool, mod, name)
        js = json.loads(explain_of(tool, mod, name, "-json"))["variables"][0]
        check(md.startswith("**var.%s**" % name) and text.startswith(
            "var.%s:" % name), "agree: var.%s: hover and explain on it"
            % name, show([text, md], 3000))
        agree_one(check, md, name, text, js)
        if name == "token":
            check(SECRET not in md and SECRET not in text
                  and SECRET not in json.dumps(js)
                  and "(sensitive value)" in text and "sensitive" in md,
                  "agree: a sensitive variable's value in neither hover "
                  "nor explain (text, JSON); both say it is sensitive",
                  show([text, md], 3000))
    s.request("shutdown")
    s.notify("exit")
    s.finish()
    sanity(check, s, "agree run")


if __name__ == "__main__":
    sys.exit(main([hover_run, callers_hover_run, story_hover_run,
                   agree_run]))
