#!/usr/bin/env python3
"""`inspect -json` on every module directory of ../shared/corpus (issue 43).

  inspect_corpus.py TFRESOLVE CORPUS_DIR

Every directory that holds .tf (or .tf.json) files is inspected: exit
status 0, a JSON document, no error diagnostic, and every field shared
with HashiCorp's terraform-config-inspect has its name and shape there
(the struct tags of tfconfig at commit 813a975: module.go:8-27 Module,
variable.go:7-22 Variable, output.go:7-14 Output, module_call.go:8-14
ModuleCall, provider_ref.go:17-26 ProviderRef and ProviderRequirement,
resource.go:13-21 Resource, source_pos.go:17-20 SourcePos,
diagnostic.go:15-23 Diagnostic).  Its omitempty fields may be absent
but, when present, are not empty; the others are always there.  Also:
the counts of variables, outputs, module calls, resources and data
sources agree with the blocks counted in the files here (a plain scan of
their top-level block headers), so nothing is dropped silently.

(Beyond this test, the output was compared once, member by member, with
that of terraform-config-inspect itself, built from that commit with its
legacy-HCL fallback left out, on all 520 directories: every member it
writes but the diagnostics was the same.  Where the two differ by design
-- override files merged as Terraform merges them, where it takes the
override's block whole; a module source that is a template of const
variables, which it cannot decode and leaves "" -- fixtures/cases/
inspect-* hold the cases.)

Skipped (exit 77) when the corpus is not there.
"""
import json
import os
import re
import sys
from concurrent.futures import ThreadPoolExecutor

import harness

STR, BOOL, INT, ANY = "string", "bool", "int", "any"
POS = {"filename": (STR, False), "line": (INT, False)}
# field: (shape, omitempty)
VARIABLE = {"name": (STR, False), "type": (STR, True),
            "description": (STR, True), "default": (ANY, False),
            "required": (BOOL, False), "sensitive": (BOOL, True),
            "deprecated": (STR, True), "pos": (POS, False)}
OUTPUT = {"name": (STR, False), "description": (STR, True),
          "sensitive": (BOOL, True), "deprecated": (STR, True),
          "pos": (POS, False), "type": (STR, True)}
PROVIDER_REF = {"name": (STR, False), "alias": (STR, True)}
REQUIREMENT = {"source": (STR, True),
               "version_constraints": ([STR], True),
               "aliases": ([PROVIDER_REF], True)}
RESOURCE = {"mode": (STR, False), "type": (STR, False), "name": (STR, False),
            "provider": (PROVIDER_REF, False), "pos": (POS, False)}
CALL = {"name": (STR, False), "source": (STR, False),
        "version": (STR, True), "pos": (POS, False)}
DIAG = {"severity": (STR, False), "summary": (STR, False),
        "detail": (STR, True), "pos": (POS, True)}
MODULE = {"path": (STR, False),
          "variables": ({"*": VARIABLE}, False),
          "outputs": ({"*": OUTPUT}, False),
          "required_core": ([STR], True),
          "required_providers": ({"*": REQUIREMENT}, False),
          "provider_configs": ({"*": PROVIDER_REF}, True),
          "managed_resources": ({"*": RESOURCE}, False),
          "data_resources": ({"*": RESOURCE}, False),
          "module_calls": ({"*": CALL}, False),
          "diagnostics": ([DIAG], True)}


def shape_errors(v, shape, where):
    """What in v does not have shape (a type name, [shape], {"*": shape}
    for a map, or a dict of fields)."""
    if shape == ANY:
        return []
    if shape == STR:
        return [] if isinstance(v, str) else [f"{where}: not a string"]
    if shape == BOOL:
        return [] if isinstance(v, bool) else [f"{where}: not a bool"]
    if shape == INT:
        ok = isinstance(v, int) and not isinstance(v, bool)
        return [] if ok else [f"{where}: not an integer"]
    if isinstance(shape, list):
        if not isinstance(v, list):
            return [f"{where}: not an array"]
        return [e for i, x in enumerate(v)
                for e in shape_errors(x, shape[0], f"{where}[{i}]")]
    if not isinstance(v, dict):
        return [f"{where}: not an object"]
    if "*" in shape:
        return [e for k, x in v.items()
                for e in shape_errors(x, shape["*"], f"{where}.{k}")]
    errs = []
    for k, (s, omitempty) in shape.items():
        if k not in v:
            if not omitempty:
                errs.append(f"{where}.{k}: missing")
            continue
        if omitempty and v[k] in ("", [], {}, False, None):
            errs.append(f"{where}.{k}: empty, which Go's omitempty leaves out")
        errs += shape_errors(v[k], s, f"{where}.{k}")
    return errs


HEADER = re.compile(r'^(variable|output|module|resource|data)\s+"([^"]+)"'
                    r'(?:\s+"([^"]+)")?\s*\{', re.M)


def counted(d):
    """The blocks of the primary .tf files of d, by kind (override files
    merge into them)."""
    n = {"variable": set(), "output": set(), "module": set(),
         "resource": set(), "data": set()}
    for f in sorted(os.listdir(d)):
        base = f[:-3] if f.endswith(".tf") else None
        if not base or f.startswith(".") or base == "override" or \
                base.endswith("_override"):
            continue
        with open(os.path.join(d, f), encoding="utf-8",
                  errors="replace") as fh:
            # block comments that start a line (a "/*" in a string, such
            # as an ARN's "volume/*", starts none)
            text = re.sub(r"^\s*/\*.*?\*/", "", fh.read(),
                          flags=re.S | re.M)
            for m in HEADER.finditer(text):
                n[m.group(1)].add(m.group(2) + "." + (m.group(3) or ""))
    return {k: len(v) for k, v in n.items()}


def module_dirs(corpus):
    out = []
    for root, dirs, files in os.walk(corpus):
        dirs[:] = sorted(x for x in dirs if x not in (".git", ".terraform"))
        if any(f.endswith((".tf", ".tf.json")) and not f.startswith(".")
               for f in files):
            out.append(root)
    return out


def inspect_one(tool, d):
    rc, out, err = harness.run([tool, "inspect", "-json", "-no-color", d],
                               timeout=60)
    errs = []
    if rc != 0:
        return [f"{d}: exit status {rc}: {err[-300:]}"]
    try:
        doc = json.loads(out)
    except ValueError as e:
        return [f"{d}: not JSON: {e}"]
    errs += [f"{d}: {e}" for e in shape_errors(doc, MODULE, "$")]
    for g in doc.get("diagnostics", []):
        if g.get("severity") == "error":
            errs.append(f"{d}: error diagnostic: {g.get('summary')}")
    n = counted(d)
    got = {"variable": len(doc["variables"]), "output": len(doc["outputs"]),
           "module": len(doc["module_calls"]),
           "resource": len(doc["managed_resources"]),
           "data": len(doc["data_resources"])}
    if not any(f.endswith(".tf.json") for f in os.listdir(d)):
        for k in n:
            if n[k] != got[k]:
                errs.append(f"{d}: {got[k]} {k} blocks, the files have "
                            f"{n[k]}")
    return errs


def main():
    tool, corpus = sys.argv[1], sys.argv[2]
    if not os.path.isdir(corpus):
        print(f"SKIP: no corpus at {corpus}")
        return 77
    dirs = module_dirs(corpus)
    with ThreadPoolExecutor(max_workers=2) as ex:
        results = list(ex.map(lambda d: inspect_one(tool, d), dirs))
    failed = [e for r in results for e in r]
    for e in failed[:50]:
        print("FAIL", e)
    print(f"{len(dirs) - sum(1 for r in results if r)} passed, "
          f"{sum(1 for r in results if r)} failed ({len(dirs)} directories)")
    # the corpus holds 520 module directories (issue 43 counted 1,155:
    # its count of them was not this corpus's): fewer means the walk
    # above missed some
    if len(dirs) < 500:
        print(f"FAIL only {len(dirs)} module directories found")
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
