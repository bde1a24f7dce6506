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
3. The roots of `check -recursive` (issue 37, point 4), repository by
   repository, against the module calls read here from the files: every
   directory with variables, module calls, resources or data sources that
   no directory calls through a local source is checked; no directory
   that is only ever called is checked alone (so no required variable of a
   child is reported missing); the summary line counts the checks.  And
   an error planted in the module call of an example of
   terraform-aws-vpc (examples/*, calling ../..) is found, exactly, and
   `-affected-by` a file of each of its module directories checks the
   roots whose tree loads that directory.

Skipped (exit 77, meson's SKIP, with a SKIP line) when the corpus is not
there.
Prints PASS/FAIL lines and "N passed, M failed" last.
"""
import functools
import json
import os
import re
import shutil
import sys
import tempfile

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

BLOCK = re.compile(r'^\s*(variable|module|resource|data)\s+"', re.M)
MODULE = re.compile(r'^module\s+"[^"]*"\s*\{(.*?)^\}', re.M | re.S)
LOCAL_SOURCE = re.compile(r'^\s*source\s*=\s*"(\.\.?[/\\][^"]*)"', re.M)
AUTO_VARS = re.compile(r'^(terraform\.tfvars(\.json)?|.*\.auto\.tfvars'
                       r'(\.json)?)$')


def read_module_dirs(top):
    """The directories below top with .tf files (hidden ones left out, as
    -recursive does): {relative dir: (has blocks -recursive checks, set of
    the relative dirs it calls through local sources, has auto var
    files)}; a call out of top is kept as a path starting with ".."."""
    out = {}
    for root, subdirs, names in os.walk(top):
        subdirs[:] = [x for x in subdirs if not x.startswith(".")]
        tfs = [n for n in names if n.endswith(".tf")]
        if not tfs:
            continue
        blocks, calls = False, set()
        for n in tfs:
            with open(os.path.join(root, n), errors="replace") as f:
                text = f.read()
            blocks |= bool(BLOCK.search(text))
            for body in MODULE.findall(text):
                for src in LOCAL_SOURCE.findall(body):
                    t = os.path.realpath(os.path.join(
                        root, src.replace("\\", "/")))
                    if os.path.isdir(t):
                        calls.add(os.path.relpath(t, os.path.realpath(top)))
        rel = os.path.relpath(root, top)
        out[rel] = (blocks, calls, any(AUTO_VARS.match(n) for n in names))
    return out


def called_dirs(mods):
    """Every directory some module directory calls."""
    return {c for _, calls, _ in mods.values() for c in calls}


# (the verdict names the modules not checked after a ';': issue 37)
SUMMARY = re.compile(r"^(\d+) of (\d+) (module|environment)s? valid"
                     r"(?:; \d+ modules? not checked \(listed above\))?\.$",
                     re.M)


def check_roots(tool, repo, bad):
    """Point 3 of the docstring, for one repository; the roots' JSON
    report (None when it could not be read)."""
    name = os.path.basename(repo)
    mods = read_module_dirs(repo)
    called = called_dirs(mods)
    want = {d for d, (blocks, _, autos) in mods.items()
            if blocks and (d not in called or autos)}
    rc, out, err = run([tool, "check", "-recursive", "-json", "-no-env",
                        "."], cwd=repo)
    try:
        report = json.loads(out)
    except ValueError:
        bad.append("FAIL corpus roots %s: exit %d, no JSON\n%s"
                   % (name, rc, (out + err)[-2000:]))
        return None
    got = {os.path.normpath(c["dir"]) for c in report["checks"]}
    # a directory only ever called, checked alone: a false alarm
    alone = sorted(got - want)
    # a root left out: a silent miss (one called only from a cycle of
    # calls no root reaches is checked too: none in this corpus)
    missed = sorted(want - got)
    if alone or missed:
        bad.append("FAIL corpus roots %s: checked alone though only called:"
                   " %s; roots not checked: %s" % (name, alone[:5],
                                                   missed[:5]))
    hrc, hout, _ = run([tool, "check", "-recursive", "-no-env", "."],
                       cwd=repo)
    m = SUMMARY.search(hout)
    valid = sum(1 for c in report["checks"] if c["result"]["valid"])
    if not m or (int(m.group(1)), int(m.group(2))) != (valid, len(got)) \
            or hrc != rc:
        bad.append("FAIL corpus roots %s: summary %r, want %d of %d"
                   % (name, m and m.group(0), valid, len(got)))
    return report


def affected_roots(tool, corpus, bad):
    """-affected-by on terraform-aws-vpc: for a file of each module
    directory, exactly the roots whose tree (read here) loads it."""
    repo = os.path.join(corpus, "terraform-aws-modules__terraform-aws-vpc")
    mods = read_module_dirs(repo)
    called = called_dirs(mods)
    roots = {d for d, (blocks, _, autos) in mods.items()
             if blocks and (d not in called or autos)}

    def tree(r):
        seen, todo = set(), [r]
        while todo:
            d = todo.pop()
            if d not in seen:
                seen.add(d)
                todo.extend(mods.get(d, (0, set(), 0))[1])
        return seen
    trees = {r: tree(r) for r in roots}
    for d in sorted(mods):
        f = os.path.join(d, sorted(n for n in os.listdir(os.path.join(
            repo, d)) if n.endswith(".tf"))[0])
        want = sorted(r for r in roots if d in trees[r])
        rc, out, err = run([tool, "check", "-recursive", "-json", "-no-env",
                            "-affected-by=" + f, "."], cwd=repo)
        try:
            got = sorted(os.path.normpath(c["dir"])
                         for c in json.loads(out)["checks"])
        except ValueError:
            got = None if want else []
        if got != want:
            bad.append("FAIL corpus roots: -affected-by=%s checks %s, want "
                       "%s" % (f, got, want))


def planted_error(tool, corpus, bad):
    """An error planted in the call of an example that declares no
    variable (terraform-aws-vpc's examples/simple): found, alone."""
    src = os.path.join(corpus, "terraform-aws-modules__terraform-aws-vpc")
    if not os.path.isdir(src):
        bad.append("FAIL corpus roots: terraform-aws-vpc not in the corpus")
        return
    tmp = tempfile.mkdtemp(prefix="tfr-corpus-")
    try:
        repo = os.path.join(tmp, "vpc")
        shutil.copytree(src, repo)
        main = os.path.join(repo, "examples", "simple", "main.tf")
        os.chmod(main, 0o644)
        with open(main) as f:
            text = f.read()
        call = '  cidr = local.vpc_cidr\n'
        planted = text.replace(call, call + '  enable_nat_gateway = "maybe"\n',
                               1)
        with open(main, "w") as f:
            f.write(planted)
        rc, out, err = run([tool, "check", "-recursive", "-json", "-no-env",
                            "."], cwd=repo)
        report = json.loads(out)
        errors = [(c["dir"], d["summary"], d.get("module"))
                  for c in report["checks"]
                  for d in c["result"]["diagnostics"]
                  if d["severity"] == "error"]
        want = [("examples/simple", "Invalid value for input variable",
                 "module.vpc")]
        if planted == text or rc != 1 or errors != want:
            bad.append("FAIL corpus roots: the error planted in "
                       "terraform-aws-vpc/examples/simple: exit %d, errors "
                       "%s, want %s" % (rc, errors, want))
        hrc, hout, _ = run([tool, "check", "-recursive", "-no-env", "."],
                           cwd=repo)
        n = len(report["checks"])
        m = SUMMARY.search(hout)
        if not m or (int(m.group(1)), int(m.group(2))) != (n - 1, n):
            bad.append("FAIL corpus roots: planted error, summary %r"
                       % hout.splitlines()[-1:])
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


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

    # the directories -recursive leaves out: each on its own (a module
    # only ever called, through a local source, is checked through its
    # callers, instances or not)
    called = called_dirs(read_module_dirs(corpus))
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
        if declares and not hidden and d not in children \
                and d not in called:
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

    bad = []
    nroots = 0
    for name in sorted(os.listdir(corpus)):
        repo = os.path.join(corpus, name)
        if os.path.isdir(repo) and not name.startswith("."):
            report = check_roots(tool, repo, bad)
            nroots += len(report["checks"]) if report else 0
    planted_error(tool, corpus, bad)
    affected_roots(tool, corpus, bad)
    if not bad:
        print("PASS corpus roots: %d roots, each repository's exactly, no "
              "module only ever called checked alone, counts right, the "
              "planted error found, -affected-by's roots" % nroots)
        passed += 1
    else:
        print("\n".join(bad[:20]))
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
