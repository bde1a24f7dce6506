#!/usr/bin/env python3
"""Every validation rule of the public modules in ../shared/corpus is
evaluated (passed or failed) or reported as deferred with a reason, and
no rule or diagnostic says a function is unknown.

Usage: corpus_rules.py TFRESOLVE CORPUS

For every directory holding a .tf file with a `validation` block, checks
(`tfresolve check -json -no-env`) the module on its own value sources and
once per var file found with it (non-auto *.tfvars in the directory, and
the *.tfvars of its examples/ directories that hold no .tf files, which
are meant for the module itself), all in one run with -var-file-each (an
empty var file stands for "no var file").  Required variables that still
have no value (Terraform would stop before validation) get a placeholder
of their type from a generated var file, so that every condition runs
with values: one more run with that file under every var file, for the
environments that missed a value (a placeholder only fills what an
environment's own var file leaves unset, so the others are unchanged).
Prints a line per problem, the counts, and "N passed, M failed" last.
Skipped (exit 77, meson's SKIP, with a SKIP line) when the corpus is not
there.
"""
import collections
import glob
import json
import os
import subprocess
import sys
import tempfile


def placeholder(t):
    """A value of cty JSON type t."""
    if t in ("string", "dynamic"):
        return "example"
    if t == "number":
        return 1
    if t == "bool":
        return True
    kind, arg = t[0], t[1]
    if kind in ("list", "set"):
        return []
    if kind == "map":
        return {}
    if kind == "object":
        return {k: placeholder(x) for k, x in arg.items()}
    return [placeholder(x) for x in arg]  # tuple


def modules(corpus):
    for root, _, files in sorted(os.walk(corpus)):
        for f in files:
            if f.endswith(".tf"):
                with open(os.path.join(root, f), errors="replace") as fh:
                    if "validation" in fh.read():
                        yield root
                        break


def var_files(d):
    out = []
    for root, _, files in sorted(os.walk(d)):
        own = root == d
        pure = not any(f.endswith(".tf") for f in files)
        for f in sorted(files):
            if not (f.endswith(".tfvars") or f.endswith(".tfvars.json")):
                continue
            if own and (f.startswith("terraform.tfvars") or ".auto." in f):
                continue  # loaded anyway
            if own or (pure and "examples" in os.path.relpath(root, d)):
                out.append(os.path.abspath(os.path.join(root, f)))
    return out


def check_each(tool, d, extra, var_files):
    """var file -> (report of `check` with it on top, error) for each."""
    try:
        p = subprocess.run([tool, "check", "-json", "-no-env"] + extra +
                           ["-var-file-each=" + glob.escape(vf)
                            for vf in var_files] + [d],
                           capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        return {vf: (None, "stopped after 60 s (a hang)") for vf in var_files}
    err = None
    if p.returncode not in (0, 1):
        err = "exit status %d: %s" % (p.returncode, p.stderr[:300])
    else:
        try:
            runs = {c["var_file"]: c["result"]
                    for c in json.loads(p.stdout)["checks"]}
        except (ValueError, KeyError, TypeError) as e:
            err = "output is not the JSON of -var-file-each: %s" % e
    if err:
        return {vf: (None, err) for vf in var_files}
    return {vf: (runs[vf], None) if vf in runs else
            (None, "no result for this var file") for vf in var_files}


def main():
    if len(sys.argv) != 3:
        print(__doc__.strip())
        return 2
    tool, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(corpus):
        print("SKIP corpus not found at %s" % corpus)
        return 77  # meson's "skipped"
    tmp = tempfile.mkdtemp()
    counts = collections.Counter()
    passed = failed = 0
    none = os.path.join(tmp, "none.tfvars")  # "no var file"
    open(none, "w").close()
    for d in modules(corpus):
        vfs = [none] + var_files(d)
        runs = check_each(tool, d, [], vfs)
        missing = {}
        for vf, (doc, _) in runs.items():
            for g in (doc or {}).get("diagnostics", []):
                if g["summary"] == "No value for required variable":
                    missing[g["variable"]] = doc["variables"][g["variable"]]["type"]
        if missing:
            ph = os.path.join(tmp, "placeholders.tfvars.json")
            with open(ph, "w") as f:
                json.dump({n: placeholder(t) for n, t in sorted(missing.items())},
                          f)
            redo = [vf for vf, (doc, _) in runs.items()
                    if doc and any(g["summary"] == "No value for required variable"
                                   for g in doc["diagnostics"])]
            runs.update(check_each(tool, d, ["-var-file=" + ph], redo))
        for vf in vfs:
            doc, err = runs[vf]
            label = os.path.relpath(d, corpus) + (
                " with " + os.path.relpath(vf, corpus) if vf != none else "")
            problems = [err] if err else []
            for name, v in (doc or {}).get("variables", {}).items():
                for r in v.get("rules", []):
                    counts[r["result"]] += 1
                    ok = r["result"] in ("passed", "failed") or (
                        r["result"] == "deferred" and r.get("detail"))
                    if not ok:
                        problems.append("var.%s: rule %s: %s" % (
                            name, r["result"], r.get("detail")))
            for g in (doc or {}).get("diagnostics", []):
                text = (g["summary"] + " " + g.get("detail", "")).lower()
                if "unknown function" in text or "internal error" in text:
                    problems.append("%s: %s" % (g["summary"], g["detail"]))
            if problems:
                failed += 1
                print("FAIL %s" % label)
                for p in problems[:5]:
                    print("  " + p)
            else:
                passed += 1
    print("rules: %d passed, %d failed, %d deferred, %d skipped, %d invalid"
          % (counts["passed"], counts["failed"], counts["deferred"],
             counts["skipped"], counts["invalid"]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
