#!/usr/bin/env python3
"""Real deployment roots of ../shared/corpus checked through their module
calls, each with a correct var file and broken ones (issue 37, must-show 2).

  corpus_tree.py TFRESOLVE CORPUS_DIR [DATA_DIR]

DATA_DIR (default tests/corpus_tree) holds one directory per root:

  ROOT/root.json   {"dir": path of the root under CORPUS_DIR,
                    "why": what the root is and which children it calls,
                    "baseline": [diagnostics the root gives with any
                                 values, each with its "why"]}
  ROOT/CASE.tfvars a var file written for this test (never a corpus file)
  ROOT/CASE.json   {"rc": exit status, "why": the planted mistake and
                    where it is caught (the child's file:line, the
                    Terraform rule), "baseline": false when the planted
                    error stops the run before the baseline warnings,
                    "diagnostics": [the planted diagnostics]}

A diagnostic is {"severity", "summary", "module", "file", "line",
"detail"}: "file" is the range's filename, "$TFVARS" for the case's own var
file (also inside details), "line" its start line, "detail" a part of the
detail that must be there.  `check -json -no-env -chdir=ROOT -var-file=CASE.tfvars` must give
exactly the expected diagnostics (baseline + planted): no other one (a
false error or warning) and none missing (a miss), and the exit status.

Each expectation was derived by reading the child's code and Terraform's
rules, and compared with `tforacle -tree` (../shared/oracle) run in a
temporary copy of the repository where a .terraform/modules/modules.json
records the local calls as `terraform init` does and installs each
registry call as a stand-in (every argument an `any` variable, every
output it is read for an unknown value): the same diagnostics, but for
tfresolve's own warning "Object attribute is ignored" (Terraform drops the
attribute silently) and where the reference lacks a function
(templatestring, uuidv5: noted in the case's "why").  Without that copy,
registry modules are "Module not installed" (a warning of tfresolve's,
listed in the root's baseline); the values passed to them are not checked.

KNOWN_DISAGREEMENTS lists the cases where tfresolve is known to differ
from Terraform, with the reason and the reproduction; such a case fails
only if its output changes from the recorded wrong one (then the entry
must be looked at again), so a new disagreement always fails.

Skipped (exit 77, meson's SKIP, with a SKIP line) when the corpus is not
there.  Prints PASS/FAIL lines and "N passed, M failed" last.
"""
import json
import os
import sys

import harness

TIMEOUT = 120  # per check (each takes well under a second): a hang

# case ("ROOT/CASE") -> (reason, the wrong diagnostics tfresolve gives
# today, as "severity|summary|module|file:line" lines, sorted)
KNOWN_DISAGREEMENTS = {
    # Issue 37 point 2 (partly unknown function arguments; being fixed
    # apart).  CAF's local.es_landing_zones_merge is merge() of objects
    # whose values are partly unknown (root_parent_id comes from the data
    # source azurerm_client_config): cty calls merge with known keys and
    # unknown elements, so the for_each of module.management_group_archetypes
    # has known keys and plan expands its ten instances (each then fails on
    # the corpus's missing archetype library); tfresolve makes the whole
    # merge unknown, defers the instances with a warning and misses the ten
    # errors.  Reproduce: tfresolve check -chdir=../shared/corpus/Azure__
    # terraform-azurerm-caf-enterprise-scale/examples/400-multi-with-
    # orchestration -var-file=$PWD/tests/corpus_tree/caf-orchestration/
    # ok.tfvars
    "caf-orchestration/ok": (
        "merge() of partly unknown objects is wholly unknown (point 2): "
        "ten archetype instances deferred, their errors missed",
        ["warning|Module instances depend on data sources|"
         "module.core.module.alz|../../main.tf:8", "rc 0"]),
}


def key(d):
    return "%s|%s|%s|%s:%s" % (d["severity"], d["summary"], d["module"],
                               d["file"], d["line"])


def ours(tool, rootdir, tfvars):
    rc, out, err = harness.run(
        [tool, "check", "-json", "-no-env", "-chdir=" + rootdir,
         "-var-file=" + tfvars], env=harness.child_env(), timeout=TIMEOUT)
    try:
        res = json.loads(out)
    except ValueError:
        return rc, None, out + err
    got = []
    for d in res.get("diagnostics", []):
        r = d.get("range") or {}
        f = r.get("filename", "")
        got.append({"severity": d["severity"], "summary": d["summary"],
                    "module": d.get("module", ""),
                    "file": "$TFVARS" if f == tfvars else f,
                    "line": (r.get("start") or {}).get("line", 0),
                    "detail": (d.get("detail") or "").replace(tfvars,
                                                              "$TFVARS")})
    return rc, got, err


def compare(want, got):
    """The problems: expected diagnostics missing, unexpected ones."""
    problems = []
    rest = list(got)
    for w in want:
        hit = next((g for g in rest if key(g) == key(w)
                    and w.get("detail", "") in g["detail"]), None)
        if hit is None:
            problems.append("missing: %s (detail has %r)"
                            % (key(w), w.get("detail", "")))
        else:
            rest.remove(hit)
    for g in rest:
        problems.append("unexpected: %s: %s" % (key(g), g["detail"][:200]))
    return problems


def main():
    args = sys.argv[1:]
    tool, corpus = os.path.abspath(args[0]), args[1]
    data = os.path.abspath(args[2] if len(args) > 2 else os.path.join(
        os.path.dirname(os.path.abspath(__file__)), "corpus_tree"))
    if not os.path.isdir(corpus):
        print("SKIP corpus not found at %s" % corpus)
        return 77  # meson's "skipped"
    corpus = os.path.abspath(corpus)
    tally = harness.Tally()
    roots = sorted(r for r in os.listdir(data)
                   if os.path.isfile(os.path.join(data, r, "root.json")))
    seen_known = set()
    for root in roots:
        with open(os.path.join(data, root, "root.json")) as f:
            meta = json.load(f)
        rootdir = os.path.join(corpus, meta["dir"])
        if not os.path.isdir(rootdir):
            tally(False, "corpus-tree %s: no directory %s" % (root, rootdir))
            continue
        cases = sorted(n[:-len(".tfvars")]
                       for n in os.listdir(os.path.join(data, root))
                       if n.endswith(".tfvars"))
        tally("ok" in cases, "corpus-tree %s: no correct var file ok.tfvars"
              % root)
        for case in cases:
            name = "%s/%s" % (root, case)
            tfvars = os.path.join(data, root, case + ".tfvars")
            with open(os.path.join(data, root, case + ".json")) as f:
                exp = json.load(f)
            want = list(exp["diagnostics"])
            if exp.get("baseline", True):
                want = meta.get("baseline", []) + want
            rc, got, err = ours(tool, rootdir, tfvars)
            if got is None:
                tally(False, "corpus-tree %s: exit %d, no JSON" % (name, rc),
                      err)
                continue
            problems = compare(want, got)
            if rc != exp["rc"]:
                problems.append("exit %d, expected %d" % (rc, exp["rc"]))
            if name in KNOWN_DISAGREEMENTS:
                seen_known.add(name)
                wrong = sorted(key(g) for g in got) + ["rc %d" % rc]
                recorded = KNOWN_DISAGREEMENTS[name][1]
                tally(problems and wrong == recorded,
                      "corpus-tree %s: a known disagreement changed (look "
                      "at it again: fixed, or wrong another way)" % name,
                      "\n".join(problems + ["now: "] + wrong))
                if problems:
                    print("KNOWN %s: %s" % (name,
                                            KNOWN_DISAGREEMENTS[name][0]))
                continue
            tally(not problems, "corpus-tree %s (%s)" % (name, meta["dir"]),
                  "\n".join("    " + p for p in problems))
    stale = sorted(set(KNOWN_DISAGREEMENTS) - seen_known)
    tally(not stale, "corpus-tree: KNOWN_DISAGREEMENTS names no case: %s"
          % ", ".join(stale))
    print("corpus-tree: %d roots" % len(roots))
    return tally.done()


if __name__ == "__main__":
    sys.exit(main())
