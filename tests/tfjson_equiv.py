#!/usr/bin/env python3
"""Golden .tf cases in .tf.json form: every case of fixtures/cases whose
configuration is only `variable` blocks (in ASCII, with literal values)
is written again as variables.tf.json, the way Terraform's JSON syntax
spells it (types and conditions as expression strings, defaults as JSON
values), and both forms must resolve to the same thing with the case's
own arguments and environment: validity, and every variable's type,
value, sensitivity and source.  Diagnostics are not compared (their
ranges are the two files').  Cases the JSON form cannot say the same way
are left out, and counted.

Usage: tfjson_equiv.py TFRESOLVE CASES_DIR
Prints one line per difference and "N passed, M failed" last.
"""
import json
import os
import shutil
import sys
import tempfile

import harness


def run(tool, args, cwd, env):
    rc, out, _ = harness.run([tool] + args, cwd=cwd, env=env, timeout=60)
    return rc, out


class Skip(Exception):
    pass


def slice_range(lines, rng):
    """The source text of "l1:c1-l2:c2" (columns are characters; ASCII)."""
    a, b = rng.split("-")
    l1, c1 = (int(x) for x in a.split(":"))
    l2, c2 = (int(x) for x in b.split(":"))
    if l1 == l2:
        return lines[l1 - 1][c1 - 1:c2 - 1]
    out = [lines[l1 - 1][c1 - 1:]] + lines[l1:l2 - 1] + \
        [lines[l2 - 1][:c2 - 1]]
    return "\n".join(out)


def literal(tool, src):
    """A constant expression's value as JSON (cty's JSON encoding)."""
    if "${" in src or "%{" in src or "<<" in src:
        raise Skip("template or heredoc")
    rc, out = run(tool, ["eval", "-json", "--", src], None, None)
    doc = json.loads(out) if out.strip().startswith("{") else {}
    if rc != 0 or "value" not in doc:
        raise Skip("not a literal")
    return doc["value"]


def message(src):
    """An error_message string literal as the text of a JSON string."""
    if len(src) < 2 or src[0] != '"' or src[-1] != '"' or "\\\\" in src:
        raise Skip("error_message is not a plain string")
    return src[1:-1]


def convert(tool, path):
    text = open(path, encoding="utf-8").read()
    if any(ord(ch) > 127 for ch in text):
        raise Skip("not ASCII")
    lines = text.split("\n")
    rc, out = run(tool, ["parse", "-ast", path], None, None)
    if rc != 0:
        raise Skip("syntax errors")
    body = json.loads(out)
    variables = {}
    for item in body["items"]:
        if item["kind"] != "block" or item["type"] != "variable" or \
                len(item["labels"]) != 1:
            raise Skip("not only variable blocks")
        name = item["labels"][0]
        if name in variables:
            raise Skip("a repeated variable")
        decl = {}
        for a in item["body"]["items"]:
            src = slice_range(lines, a["value"]["range"]) \
                if a["kind"] == "attribute" else None
            if a["kind"] == "attribute" and a["name"] == "type":
                decl["type"] = src
            elif a["kind"] == "attribute" and a["name"] in (
                    "default", "description", "sensitive", "nullable",
                    "ephemeral"):
                decl[a["name"]] = literal(tool, src)
            elif a["kind"] == "block" and a["type"] == "validation":
                rule = {}
                for r in a["body"]["items"]:
                    if r["kind"] != "attribute":
                        raise Skip("a block in a validation block")
                    rsrc = slice_range(lines, r["value"]["range"])
                    if r["name"] == "condition":
                        rule["condition"] = "${%s}" % rsrc
                    elif r["name"] == "error_message":
                        rule["error_message"] = message(rsrc)
                    else:
                        raise Skip("an unknown validation argument")
                decl.setdefault("validation", []).append(rule)
            else:
                raise Skip("argument %s" % a.get("name", a.get("type")))
        variables[name] = decl
    return variables


def resolved(tool, d, args, env):
    rc, out = run(tool, args[:1] + ["-json", "-show-sensitive"] + args[1:],
                  d, env)
    try:
        doc = json.loads(out)
    except ValueError:
        return ("no JSON: exit %d" % rc, {})
    vs = {}
    for name, v in doc.get("variables", {}).items():
        src = v.get("source") or {}
        vs[name] = (json.dumps(v.get("type"), sort_keys=True),
                    json.dumps(v.get("value"), sort_keys=True),
                    v.get("sensitive"), src.get("kind"), src.get("file"))
    return doc.get("valid"), vs


def main():
    tool, cases = os.path.abspath(sys.argv[1]), sys.argv[2]
    passed = failed = skipped = 0
    base_env = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"}
    for case in sorted(os.listdir(cases)):
        d = os.path.join(cases, case)
        names = os.listdir(d)
        tfs = [n for n in names if n.endswith(".tf")]
        if not tfs or any(n.endswith((".tf.json", ".tofu", ".tofu.json"))
                          for n in names):
            skipped += 1
            continue
        args = ["show"]
        if "args" in names:
            args = [l for l in open(os.path.join(d, "args")).read()
                    .split("\n") if l] or ["show"]
        if args[0] != "show" or any(a.startswith("-chdir") for a in args):
            skipped += 1
            continue
        env = dict(base_env)
        if "env" in names:
            for l in open(os.path.join(d, "env")).read().split("\n"):
                if "=" in l:
                    k, v = l.split("=", 1)
                    env[k] = v
        try:
            converted = {}
            for t in sorted(tfs):
                converted[t] = convert(tool, os.path.join(d, t))
        except (Skip, OSError, ValueError):
            skipped += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            copy = os.path.join(tmp, "case")
            # the whole case as it is (directories, symbolic links), each
            # X.tf replaced by X.tf.json (override files stay overrides)
            shutil.copytree(d, copy, symlinks=True)
            for t, variables in converted.items():
                os.unlink(os.path.join(copy, t))
                with open(os.path.join(copy, t + ".json"), "w") as f:
                    json.dump({"variable": variables}, f, indent=2)
            want = resolved(tool, d, args, env)
            got = resolved(tool, copy, args, env)
        if want == got:
            passed += 1
        else:
            failed += 1
            print("FAIL %s: the .tf.json form resolves otherwise" % case)
            if want[0] != got[0]:
                print("  valid: .tf %s, .tf.json %s" % (want[0], got[0]))
            for name in sorted(set(want[1]) | set(got[1])):
                if want[1].get(name) != got[1].get(name):
                    print("  %s: .tf %s\n  %s  .tf.json %s"
                          % (name, want[1].get(name), " " * len(name),
                             got[1].get(name)))
    print("%d cases compared, %d left out (their .tf says what .tf.json "
          "cannot, or they are not show cases)" % (passed + failed, skipped))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
