#!/usr/bin/env python3
"""-format=plan-json held to Terraform's plan JSON format (issue 43).

  planjson_schema.py TFRESOLVE CASES_DIR [CORPUS_DIR]

Neither OPA nor conftest can be installed here (no Debian package; the
npm packages are an SDK for an OPA server and the WebAssembly runtime of
policies compiled by the opa binary), so CI's policy test is a schema
test (tests/planjson_opa.py runs Rego with an opa binary when there is
one, and is skipped in CI): every document that show/check -format=plan-json writes -- the
golden cases fixtures/cases/planjson-* (their expected.txt) and, when
the corpus is there, the examples of terraform-aws-vpc and of the AVM
virtual network module, each run here -- has only the members Terraform
writes, with their types, where it overlaps Terraform's:

- the plan object: Terraform's internal/command/jsonplan/plan.go:60-81
  (format_version "1.2" at plan.go:34, variables, configuration,
  applyable, complete, errored), plus our "tfresolve";
- a plan variable: {"value": V} only (plan.go:190-193);
- the configuration: jsonconfig/config.go:21-24 (provider_config,
  root_module); a module config.go:40-48 (outputs, resources,
  module_calls, variables, actions); a module call config.go:50-58
  (source, expressions, count_expression, for_each_expression, module,
  version_constraint, depends_on); a variable config.go:62-67 (default,
  description, sensitive: omitempty, so never false or ""); an
  expression jsonconfig/expression.go:22-37 (constant_value, references,
  a list of strings); count_expression and for_each_expression never
  both (config.go:440-448).  hashicorp/terraform-json, the Go types
  tools read the format with, has the same names (config.go, plan.go,
  expression.go there).

And what a policy written against plan JSON's variables reads: every
plan variable is declared in configuration.root_module.variables; a
sensitive one has no value and no default unless -show-sensitive; the
"tfresolve" part's addresses (var.NAME, module.a["k"].var.NAME) name
declared variables of listed instances.

Prints a line per failure and "N passed, M failed" last.
"""
import json
import os
import sys

from harness import Tally, run, child_env

PLAN = {"format_version", "terraform_version", "variables", "planned_values",
        "resource_drift", "resource_changes", "deferred_changes",
        "deferred_action_invocations", "output_changes",
        "action_invocations", "prior_state", "configuration",
        "relevant_attributes", "checks", "timestamp", "applyable",
        "complete", "errored"}
CONFIG = {"provider_config", "root_module"}
MODULE = {"outputs", "resources", "module_calls", "variables", "actions"}
CALL = {"source", "expressions", "count_expression", "for_each_expression",
        "module", "version_constraint", "depends_on"}
VARIABLE = {"default", "description", "sensitive"}
EXPRESSION = {"constant_value", "references"}
OURS = {"format_version", "valid", "variables", "modules", "provenance",
        "sensitive", "unknown", "unresolved", "unchecked", "diagnostics"}

# the members of module calls and of variables the golden cases have:
# each one this writer writes must be in some case (main() checks)
SEEN = set()
WRITTEN = {"call.depends_on"}

CORPUS_ROOTS = [
    "terraform-aws-modules__terraform-aws-vpc/examples",
    "Azure__terraform-azurerm-avm-res-network-virtualnetwork/examples",
]


def problems_expression(e, where):
    out = []
    if not isinstance(e, dict):
        return ["%s: not an object" % where]
    out += ["%s: member %s" % (where, k) for k in set(e) - EXPRESSION]
    refs = e.get("references", [])
    if not isinstance(refs, list) or not all(isinstance(r, str)
                                             for r in refs):
        out.append("%s: references not a list of strings" % where)
    if "references" in e and not refs:
        out.append("%s: empty references (omitempty)" % where)
    return out


def problems_module(m, where, shown):
    out = ["%s: member %s" % (where, k) for k in set(m) - MODULE]
    for name, v in m.get("variables", {}).items():
        w = "%s.variables.%s" % (where, name)
        out += ["%s: member %s" % (w, k) for k in set(v) - VARIABLE]
        if "sensitive" in v and v["sensitive"] is not True:
            out.append("%s: sensitive not true (omitempty)" % w)
        if "description" in v and not (isinstance(v["description"], str)
                                       and v["description"]):
            out.append("%s: description not a non-empty string" % w)
        if v.get("sensitive") and "default" in v and not shown:
            out.append("%s: the default of a sensitive variable" % w)
    for name, c in m.get("module_calls", {}).items():
        w = "%s.module_calls.%s" % (where, name)
        out += ["%s: member %s" % (w, k) for k in set(c) - CALL]
        SEEN.update("call." + k for k in c)
        # config.go:58 and 454-466: each reference's subject, a string;
        # omitempty, so never []
        deps = c.get("depends_on", ["x"])
        if not isinstance(deps, list) or not deps or not all(
                isinstance(d, str) for d in deps):
            out.append("%s.depends_on: not a non-empty list of strings" % w)
        if not isinstance(c.get("source"), str):
            out.append("%s: no source" % w)
        if "count_expression" in c and "for_each_expression" in c:
            out.append("%s: count and for_each" % w)
        for k in ("count_expression", "for_each_expression"):
            if k in c:
                out += problems_expression(c[k], w + "." + k)
                if not c[k]:
                    out.append("%s.%s: empty (left out)" % (w, k))
        for arg, e in c.get("expressions", {}).items():
            out += problems_expression(e, "%s.expressions.%s" % (w, arg))
            decl = c.get("module", {}).get("variables", {})
            if arg not in decl:
                out.append("%s.expressions.%s: not a variable of the "
                           "module" % (w, arg))
        out += problems_module(c.get("module", {}), w + ".module", shown)
    return out


def problems_ours(doc, where):
    t = doc["tfresolve"]
    out = ["%s.tfresolve: member %s" % (where, k) for k in set(t) - OURS]
    if t.get("valid") is doc.get("errored"):
        out.append("%s: tfresolve.valid is errored" % where)
    known = {"var." + n for n in t.get("variables", {})}
    for addr, inst in t.get("modules", {}).items():
        known |= {"%s.var.%s" % (addr, n) for n in inst["variables"]}
    for addr in t.get("provenance", {}):
        if not addr.startswith(("var.", "module.")):
            out.append("%s: provenance address %s" % (where, addr))
    for k in ("sensitive", "unknown", "unresolved"):
        for addr in t.get(k, []):
            if addr not in t.get("provenance", {}):
                out.append("%s: %s lists %s, which has no provenance" %
                           (where, k, addr))
            if addr in known:
                out.append("%s: %s lists %s, which has a value" %
                           (where, k, addr))
    return out


def problems(doc, where, shown):
    """Everything doc has that Terraform's plan JSON would not."""
    if not isinstance(doc, dict):
        return ["%s: not an object" % where]
    out = ["%s: member %s" % (where, k)
           for k in set(doc) - PLAN - {"tfresolve"}]
    if doc.get("format_version") != "1.2":
        out.append("%s: format_version %r" % (where,
                                              doc.get("format_version")))
    for k in ("applyable", "complete", "errored"):
        if not isinstance(doc.get(k), bool):
            out.append("%s: %s not a bool" % (where, k))
    cfg = doc.get("configuration", {})
    out += ["%s.configuration: member %s" % (where, k)
            for k in set(cfg) - CONFIG]
    root = cfg.get("root_module", {})
    out += problems_module(root, where + ".root_module", shown)
    decl = root.get("variables", {})
    if "variables" in doc and not doc["variables"]:
        out.append("%s: empty variables (plan.go:404)" % where)
    for name, v in doc.get("variables", {}).items():
        if set(v) - {"value"}:
            out.append("%s.variables.%s: members %s" % (where, name, set(v)))
        if name not in decl:
            out.append("%s.variables.%s: not declared" % (where, name))
        elif decl[name].get("sensitive") and "value" in v and not shown:
            out.append("%s.variables.%s: a sensitive value" % (where, name))
    out += problems_ours(doc, where)
    return out


def main():
    tool, cases = sys.argv[1], sys.argv[2]
    corpus = sys.argv[3] if len(sys.argv) > 3 else None
    t = Tally()
    seen = 0
    for name in sorted(os.listdir(cases)):
        if not name.startswith("planjson-"):
            continue
        path = os.path.join(cases, name, "expected.txt")
        try:
            with open(path) as f:
                text = f.read()
        except OSError:
            continue
        args = open(os.path.join(cases, name, "args")).read().split("\n")
        if not text.startswith("{"):
            continue  # a usage error
        seen += 1
        try:
            doc = json.loads(text)
        except ValueError as e:
            t(False, "%s: not JSON: %s" % (name, e))
            continue
        p = problems(doc, name, "-show-sensitive" in args)
        t(not p, name, "\n".join(p))
    t(seen >= 5, "the planjson-* golden cases are read (%d)" % seen)
    t(WRITTEN <= SEEN, "the golden cases have every member written",
      "missing: %s" % sorted(WRITTEN - SEEN))
    # the schema test itself fails on what Terraform does not write
    bad = {"format_version": "1.2", "applyable": False, "complete": False,
           "errored": False, "variables": {"x": {"value": 1, "type": "n"}},
           "configuration": {"root_module": {"variables": {"x": {}}}},
           "tfresolve": {"valid": True}}
    t(problems(bad, "planted", False), "a planted extra member is found")
    if corpus and os.path.isdir(corpus):
        for rel in CORPUS_ROOTS:
            top = os.path.join(corpus, rel)
            for ex in sorted(os.listdir(top)) if os.path.isdir(top) else []:
                d = os.path.join(top, ex)
                for cmd in ("show", "check"):
                    st, out, err = run([tool, "-chdir=" + d, cmd,
                                        "-format=plan-json", "-no-env"],
                                       env=child_env())
                    where = "%s/%s (%s)" % (rel, ex, cmd)
                    try:
                        doc = json.loads(out)
                    except ValueError:
                        t(False, where, "not JSON (status %d): %s" %
                          (st, err))
                        continue
                    p = problems(doc, where, False)
                    t(st in (0, 1) and not p, where,
                      "status %d\n%s" % (st, "\n".join(p)))
    else:
        print("SKIP the corpus examples: %s is not there" % corpus)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
