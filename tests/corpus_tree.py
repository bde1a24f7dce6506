#!/usr/bin/env python3
"""Real deployment roots of ../shared/corpus checked through their module
calls, each with a correct var file and broken ones (issue 37, must-show 2).

  corpus_tree.py TFRESOLVE CORPUS_DIR [DATA_DIR]

DATA_DIR (default tests/corpus_tree) holds one directory per root:

  ROOT/root.json   {"dir": path of the root under CORPUS_DIR,
                    "why": what the root is and which children it calls,
                    "baseline": [diagnostics the root gives with any
                                 values, each with its "why"],
                    "not_installed": why the root is not also checked
                                 installed (optional)}
  ROOT/CASE.tfvars a var file written for this test (never a corpus file)
  ROOT/CASE.json   {"rc": exit status, "why": the planted mistake and
                    where it is caught (the child's file:line, the
                    Terraform rule), "baseline": false when the planted
                    error stops the run before the baseline warnings,
                    "diagnostics": [the planted diagnostics],
                    "installed": {"rc", "why", "diagnostics"} when the
                    installed copy (below) must give other ones}

A diagnostic is {"severity", "summary", "module", "file", "line",
"detail"}: "file" is the range's filename, "$TFVARS" for the case's own var
file (also inside details), "line" its start line, "detail" a part of the
detail that must be there.  `check -json -no-env -chdir=ROOT -var-file=CASE.tfvars` must give
exactly the expected diagnostics (baseline + planted): no other one (a
false error or warning) and none missing (a miss), and the exit status.
Each case runs twice: on the corpus as it is, and on a temporary copy of
the repository installed as `terraform init` leaves it (install(): the
manifest, and a stand-in for each registry module), where it must give
the same but "Module not installed" and so evaluates the arguments of
the registry calls too.

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
import re
import shutil
import sys
import tempfile

import harness

TIMEOUT = 120  # per check (each takes well under a second): a hang

# case ("ROOT/CASE") -> (reason, the wrong diagnostics tfresolve gives
# today, as "severity|summary|module|file:line" lines, sorted)
KNOWN_DISAGREEMENTS = {
    # none: caf-orchestration/ok (merge() of partly unknown objects,
    # issue 37 point 2) agrees since functions take partly unknown
    # arguments as cty does
}


MODULE_BLOCK = re.compile(r'^module\s+"([^"]+)"\s*\{(.*?)^\}', re.S | re.M)
META_ARGS = {"source", "version", "count", "for_each", "providers",
             "depends_on"}


def tf_text(d):
    return "".join(open(os.path.join(d, n)).read() + "\n"
                   for n in sorted(os.listdir(d)) if n.endswith(".tf"))


def install(repo, rootrel, tmp):
    """A copy of the repository in tmp whose root is "installed" as
    `terraform init` leaves it: .terraform/modules/modules.json records
    every local call (key = dotted call path, dir relative to the root),
    and each registry call gets a stand-in module: every argument of the
    call an `any` variable, every output the caller reads an unknown
    value (a resource attribute).  The root directory of the copy."""
    dst = os.path.join(tmp, os.path.basename(repo))
    shutil.copytree(repo, dst, ignore=shutil.ignore_patterns(".git"))
    root = os.path.join(dst, os.path.relpath(rootrel, os.path.basename(repo)))
    mods = [{"Key": "", "Source": "", "Dir": "."}]

    def walk(d, prefix, depth):
        text = tf_text(d)
        for m in MODULE_BLOCK.finditer(text):
            name, body = m.group(1), m.group(2)
            src = re.search(r'^\s*source\s*=\s*"([^"]+)"', body, re.M)
            k = prefix + name
            if src.group(1).startswith(("./", "../")):
                cd = os.path.normpath(os.path.join(d, src.group(1)))
                mods.append({"Key": k, "Source": src.group(1),
                             "Dir": os.path.relpath(cd, root)})
                if depth < 8:
                    walk(cd, k + ".", depth + 1)
                continue
            sd = os.path.join(root, ".terraform", "modules", k)
            os.makedirs(sd)
            args = set(re.findall(r'^  ([a-z_][a-z0-9_]*)\s*=', body,
                                  re.M)) - META_ARGS
            outs = set(re.findall(r'module\.' + re.escape(name) +
                                  r'(?:\[[^\]]*\])?\.([a-z_][a-z0-9_]*)',
                                  text))
            with open(os.path.join(sd, "main.tf"), "w") as f:
                f.write('resource "terraform_data" "u" {}\n')
                for a in sorted(args):
                    f.write('variable "%s" {\n  type    = any\n'
                            '  default = null\n}\n' % a)
                for o in sorted(outs):
                    f.write('output "%s" {\n  value = terraform_data.u.id\n}'
                            '\n' % o)
            v = re.search(r'^\s*version\s*=\s*"([^"]+)"', body, re.M)
            mods.append({"Key": k, "Source": "registry.terraform.io/" +
                         src.group(1), "Version": v.group(1) if v else "",
                         "Dir": os.path.relpath(sd, root)})

    walk(root, "", 0)
    os.makedirs(os.path.join(root, ".terraform", "modules"), exist_ok=True)
    with open(os.path.join(root, ".terraform", "modules", "modules.json"),
              "w") as f:
        json.dump({"Modules": mods}, f)
    return root


def key(d):
    return "%s|%s|%s|%s:%s" % (d["severity"], d["summary"], d["module"],
                               d["file"], d["line"])


def ours(tool, rootdir, tfvars):
    """(status, diagnostics as compared, stderr) of check -json of rootdir
    with the var file; diagnostics None when the output is no JSON."""
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


def judge(tally, name, rc, got, exp, want, seen_known):
    """One run of a case against what it must give."""
    problems = compare(want, got)
    if rc != exp["rc"]:
        problems.append("exit %d, expected %d" % (rc, exp["rc"]))
    base = name.split(" ")[0]
    if base in KNOWN_DISAGREEMENTS:
        seen_known.add(base)
        reason, recorded = KNOWN_DISAGREEMENTS[base]
        if name != base:  # the installed copy: no "Module not installed"
            recorded = [r for r in recorded if "|Module not installed|" not in r]
        wrong = sorted(key(g) for g in got) + ["rc %d" % rc]
        tally(problems and wrong == recorded,
              "corpus-tree %s: a known disagreement changed (look at it "
              "again: fixed, or wrong another way)" % name,
              "\n".join(problems + ["now: "] + wrong))
        if problems:
            print("KNOWN %s: %s" % (name, reason))
        return
    tally(not problems, "corpus-tree %s" % name,
          "\n".join("    " + p for p in problems))


def check_root(tool, corpus, data, root, tmp, tally, seen_known):
    """Every case of a root, on the corpus as it is and on an installed
    copy (unless root.json says why not)."""
    with open(os.path.join(data, root, "root.json")) as f:
        meta = json.load(f)
    rootdir = os.path.join(corpus, meta["dir"])
    if not os.path.isdir(rootdir):
        tally(False, "corpus-tree %s: no directory %s" % (root, rootdir))
        return
    installed = None
    if "not_installed" not in meta:
        repo = os.path.join(corpus, meta["dir"].split("/")[0])
        installed = install(repo, meta["dir"], os.path.join(tmp, root))
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
        runs = [(name, rootdir, want, exp)]
        if installed:
            inst = exp.get("installed", exp)
            w = list(inst["diagnostics"])
            if exp.get("baseline", True):
                w = meta.get("baseline", []) + w
            runs.append((name + " (installed)", installed,
                         [x for x in w
                          if x["summary"] != "Module not installed"], inst))
        for label, d, w, e in runs:
            rc, got, err = ours(tool, d, tfvars)
            if got is None:
                tally(False, "corpus-tree %s: exit %d, no JSON"
                      % (label, rc), err)
                continue
            judge(tally, label, rc, got, e, w, seen_known)


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
    with tempfile.TemporaryDirectory() as tmp:
        for root in roots:
            check_root(tool, corpus, data, root, tmp, tally, seen_known)
    stale = sorted(set(KNOWN_DISAGREEMENTS) - seen_known)
    tally(not stale, "corpus-tree: KNOWN_DISAGREEMENTS names no case: %s"
          % ", ".join(stale))
    print("corpus-tree: %d roots" % len(roots))
    return tally.done()


if __name__ == "__main__":
    sys.exit(main())
