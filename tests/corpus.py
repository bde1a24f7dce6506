#!/usr/bin/env python3
"""The public modules of ../shared/corpus, read as a user's CI would.

  corpus.py TFRESOLVE CORPUS_DIR

1. Every .tf, .tf.json, .tfvars and .tfvars.json file parses with no
   diagnostic at all (one `parse -format=short CORPUS_DIR`).
2. `check` of every directory that holds .tf files: no crash, and no
   problem reported but the true one of these modules (required variables
   that have no value here).  The modules that declare variables are
   checked by one `check -recursive -json -no-env` (each with its own
   tfvars, in threads); the directories that -recursive leaves out (hidden
   ones, those that declare no variable, and child modules that a checked
   tree loads, which -recursive checks through their callers) one `check`
   each, so that every directory is checked, and the test fails if
   -recursive skips one that declares variables and is no such child.

Skipped (exit 77, meson's SKIP, with a SKIP line) when the corpus is not
there.
Prints PASS/FAIL lines and "N passed, M failed" last.
"""
import functools
import json
import os
import sys

import harness

EXPECTED = "No value for required variable"
# What following module blocks finds in a corpus without `terraform init`:
# registry modules are not installed (a warning unless -strict), and a
# for_each that comes from data sources leaves its instances unchecked.
TREE_WARNINGS = {"Module not installed",
                 "Module instances depend on data sources",
                 # check's own warning (an error with -strict): a tfvars
                 # or default sets an attribute the type drops, which
                 # Terraform ignores silently: real findings upstream
                 "Object attribute is ignored"}
# Errors the module tree finds that Terraform gives too, each read against
# its source (directory -> summaries):
KNOWN = {
    # a generator's template: its module block passes var.auto_* that only
    # the generated copies declare (modules/_templates declares none of
    # them), so plan of this directory fails at each reference
    "terraform-aws-modules__terraform-aws-security-group/wrappers/_templates":
        {"Reference to undeclared input variable"},
    # the corpus keeps .tf files only: the archetype library (lib/*.json)
    # that modules/archetypes reads with fileset() is not here, so
    # local.archetype_definitions has no key for the archetype, as plan
    # would say on this copy (the other four since function calls take
    # partly unknown arguments, issue 37: their archetype instances were
    # left unchecked before; `tforacle -tree` gives the same errors for
    # test_001 and 400-multi-with-remote-state/core, and stops earlier on
    # the other two, at its missing uuidv5)
    "Azure__terraform-azurerm-caf-enterprise-scale/tests/modules/"
    "test_003_add_mgmt_conn": {"Invalid index"},
    "Azure__terraform-azurerm-caf-enterprise-scale/tests/modules/"
    "test_001_baseline": {"Invalid index"},
    "Azure__terraform-azurerm-caf-enterprise-scale/tests/modules/"
    "test_002_add_custom_core": {"Invalid index"},
    "Azure__terraform-azurerm-caf-enterprise-scale/examples/"
    "400-multi-with-orchestration": {"Invalid index"},
    "Azure__terraform-azurerm-caf-enterprise-scale/examples/"
    "400-multi-with-remote-state/core": {"Invalid index"},
}
TIMEOUT = 60  # per command (each takes about a second): a hang


run = functools.partial(harness.run, timeout=TIMEOUT)


def main():
    tool, corpus = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not os.path.isdir(corpus):
        print("SKIP corpus not found at %s" % corpus)
        return 77  # meson's "skipped"
    corpus = os.path.abspath(corpus)
    passed = failed = 0

    files, dirs = 0, set()
    for root, _, names in os.walk(corpus):
        for n in names:
            if n.endswith((".tf", ".tf.json", ".tfvars", ".tfvars.json")):
                files += 1
            if n.endswith(".tf"):
                dirs.add(os.path.relpath(root, corpus))

    rc, out, err = run([tool, "parse", "-format=short", corpus])
    if rc == 0 and not out and not err:
        print("PASS corpus parse: %d files parsed with no diagnostics" % files)
        passed += 1
    else:
        print("\n".join((out + err).splitlines()[:50]))
        print("FAIL corpus parse: exit %d, %d errors in %d files"
              % (rc, (out + err).count(": error: "), files))
        failed += 1

    bad = []

    def judge(label, rc, diags, text):
        known = KNOWN.get(label, set())
        other = [d for d in diags
                 if not (d["severity"] == "error" and d["summary"] == EXPECTED)
                 and not (d["severity"] == "warning"
                          and d["summary"] in TREE_WARNINGS)
                 and not (d["severity"] == "error" and d["summary"] in known)]
        if rc >= 2 or rc < 0 or other:
            bad.append("FAIL corpus check %s: exit %d\n%s" % (
                label, rc, "\n".join(
                    "    %s: %s" % (d["severity"], d["summary"])
                    for d in other[:5]) or text[-2000:]))

    rc, out, err = run([tool, "check", "-recursive", "-json", "-no-env", "."],
                       cwd=corpus)
    checked = set()
    children = set()  # checked as a child module of a checked tree
    try:
        report = json.loads(out)
    except ValueError:
        report = None
        judge("-recursive", rc if rc >= 2 else 2, [], out + err)
    if report is not None:
        judge("-recursive (the run)", rc, report["diagnostics"], err)
        for c in report["checks"]:
            d = os.path.normpath(c["dir"])
            checked.add(d)
            judge(d, rc, c["result"]["diagnostics"], "")
            for m in c["result"].get("modules", {}).values():
                children.add(os.path.normpath(os.path.join(d, m["dir"])))
    missed = sorted(checked - dirs)
    if missed:
        bad.append("FAIL corpus check: -recursive checked directories with "
                   "no .tf file: %s" % ", ".join(missed[:5]))

    # the directories -recursive leaves out: each on its own
    alone = 0
    for d in sorted(dirs - checked):
        alone += 1
        rc, out, err = run([tool, "check", "-no-env", "-json"],
                           cwd=os.path.join(corpus, d))
        try:
            res = json.loads(out)
        except ValueError:
            judge(d, rc if rc >= 2 else 2, [], out + err)
            continue
        judge(d, rc, res["diagnostics"], err)
        declares = any(v for v in res.get("variables", {}))
        hidden = any(p.startswith(".") for p in d.split(os.sep))
        if declares and not hidden and d not in children:
            bad.append("FAIL corpus check %s: declares variables, but "
                       "-recursive left it out" % d)

    if not bad:
        print("PASS corpus check: %d module directories (%d in one "
              "-recursive run, %d alone), only missing required values "
              "reported" % (len(dirs), len(checked), alone))
        passed += 1
    else:
        print("\n".join(bad[:20]))
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
