#!/usr/bin/env python3
"""Random differential testing against the reference program (tforacle).

  difftest.py TFRESOLVE TFORACLE [--modules N] [--exprs N] [--seed S]
              [--keep DIR] [-v]

Generates random root modules -- types with nested optional() defaults,
any, sets, tuples; defaults, nullable, sensitive; validation rules with the
functions real modules use; values from terraform.tfvars,
terraform.tfvars.json, *.auto.tfvars, -var and TF_VAR_; declarations in
.tf or .tf.json; some inputs broken on purpose (wrong types, undeclared
names, syntax errors) -- and random expressions, and compares tfresolve's
answers with the reference program's, whole: validity, every variable's
type, value and error flag, every error (severity, variable, summary,
detail, range, with duplicates), the warnings the reference gives; for
expressions the type, value, marks and error (summary and detail).

Differences that are the reference program's own artifacts (see KNOWN
below) are counted apart.  The
reference program is a development aid: when TFORACLE is not executable
the run is skipped (exit 77, meson's SKIP).  Prints a line per difference (the first 20 in full)
and "N passed, M failed" last.
"""
import argparse
import json
import re
import os
import random
import shutil
import subprocess
import sys
import tempfile
from decimal import Decimal

# What the reference program does that current Terraform does not.
KNOWN = [
    # cty reports one of an object's (or a map's, a set's) bad attributes,
    # picked in Go's map order, which changes from run to run
    ('attribute \\"', "suitable"),
    ('element \\"', "suitable"),
    ('attribute \\"', "Invalid default value"),
    ('element \\"', "Invalid default value"),
    ('element \\"', "parameter:"),
    # the reference program cannot print an infinite result (1/0); we say
    # so in our own words ("Value cannot be encoded as JSON")
    ("Oracle internal error", "cannot serialize infinity"),
]


def normalize(doc):
    """A Go panic's message as the reference program prints it: it cuts
    the stack trace that Terraform prints after it, and the period after
    that; tfresolve prints the message with the period."""
    if isinstance(doc, dict) and "error" in doc:
        d = doc["error"].get("detail", "")
        i = d.find("panic in function implementation: ")
        if i >= 0:
            doc["error"]["detail"] = d.split("\n")[0].rstrip(".")
    return doc

NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
WORDS = ["a", "b", "web", "db", "prod", "dev", "x-1", "Zz", "", "10.0.0.0/16"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd

    def chance(self, p):
        return self.r.random() < p

    # ---- types ------------------------------------------------------------
    def type_(self, depth=0):
        r = self.r
        prims = ["string", "number", "bool"]
        if depth >= 2 or r.random() < 0.45:
            return r.choice(prims + ["any"] if depth else prims)
        k = r.choice(["list", "set", "map", "object", "object", "tuple"])
        if k in ("list", "set", "map"):
            return (k, self.type_(depth + 1))
        if k == "tuple":
            return ("tuple", [self.type_(depth + 1) for _ in range(r.randint(1, 3))])
        attrs = {}
        for n in r.sample(NAMES, r.randint(1, 4)):
            t = self.type_(depth + 1)
            opt = self.chance(0.5)
            dflt = None
            if opt and self.chance(0.6) and t != "any":
                dflt = self.value(t, depth + 1)
            attrs[n] = (t, opt, dflt)
        return ("object", attrs)

    def type_text(self, t):
        if isinstance(t, str):
            return t
        k = t[0]
        if k in ("list", "set", "map"):
            return "%s(%s)" % (k, self.type_text(t[1]))
        if k == "tuple":
            return "tuple([%s])" % ", ".join(self.type_text(x) for x in t[1])
        parts = []
        for n, (at, opt, dflt) in t[1].items():
            s = self.type_text(at)
            if opt:
                s = "optional(%s%s)" % (s, ", " + dflt if dflt is not None else "")
            parts.append("%s = %s" % (n, s))
        return "object({%s})" % ", ".join(parts)

    # ---- values (HCL text) -------------------------------------------------
    def value(self, t, depth=0, wrong=0.0):
        r = self.r
        if self.chance(wrong):
            return r.choice(['"oops"', "true", "[1, 2]", '{ a = 1 }', "null",
                             "42"])
        if self.chance(0.05):
            return "null"
        if t == "string":
            return json.dumps(r.choice(WORDS + [str(r.randint(0, 9))]))
        if t == "number":
            return r.choice([str(r.randint(-5, 300)), "1.5", "0", '"7"',
                             "1e3", "-0.25"])
        if t == "bool":
            return r.choice(["true", "false", '"true"'])
        if t == "any":
            return self.value(r.choice(["string", "number", "bool",
                                        ("list", "string"),
                                        ("object", {"k": ("number", False, None)})]),
                              depth + 1)
        k = t[0]
        if k in ("list", "set"):
            return "[%s]" % ", ".join(self.value(t[1], depth + 1, wrong / 2)
                                      for _ in range(r.randint(0, 3)))
        if k == "tuple":
            return "[%s]" % ", ".join(self.value(x, depth + 1, wrong / 2)
                                      for x in t[1])
        if k == "map":
            return "{ %s }" % ", ".join(
                "%s = %s" % (json.dumps(r.choice(NAMES + WORDS[:4])),
                             self.value(t[1], depth + 1, wrong / 2))
                for _ in range(r.randint(0, 3)))
        items = []
        for n, (at, opt, _) in t[1].items():
            if opt and self.chance(0.4):
                continue
            items.append("%s = %s" % (n, self.value(at, depth + 1, wrong / 2)))
        if self.chance(0.1):
            items.append("extra = 1")
        return "{ %s }" % ", ".join(items)

    # ---- validation rules ---------------------------------------------------
    def rule(self, name, t):
        r = self.r
        v = "var." + name
        if t == "string":
            cond = r.choice([
                'length(%s) > 1' % v, 'can(regex("^[a-z]+$", %s))' % v,
                'contains(["a", "b", "web"], %s)' % v,
                '%s == null || startswith(%s, "x")' % (v, v),
                'lower(%s) == %s' % (v, v), 'trimspace(%s) != ""' % v])
        elif t == "number":
            cond = r.choice(['%s >= 0' % v, '%s < 100' % v,
                             'floor(%s) == %s' % (v, v),
                             '%s == null || %s %% 2 == 0' % (v, v)])
        elif t == "bool":
            cond = r.choice(['%s' % v, '!%s' % v, '%s != null' % v])
        elif isinstance(t, tuple) and t[0] in ("list", "set", "tuple"):
            cond = r.choice(['length(%s) > 0' % v, 'length(%s) < 3' % v,
                             'alltrue([for x in %s : x != null])' % v,
                             'length(distinct(%s)) == length(%s)' % (v, v)])
        elif isinstance(t, tuple) and t[0] in ("map", "object"):
            cond = r.choice(['length(keys(%s)) > 0' % v,
                             'length(%s) <= 3' % v,
                             'alltrue([for k, x in %s : k != ""])' % v])
        else:
            cond = '%s != null' % v
        msg = r.choice(['"%s is not valid."' % name,
                        '"Got ${jsonencode(%s)}."' % v,
                        '"${%s == null ? "null" : "set"} value."' % v])
        return cond, msg

    # ---- a module -------------------------------------------------------------
    def module(self, d):
        r = self.r
        variables = {}
        for n in r.sample(NAMES, r.randint(1, 5)):
            t = self.type_()
            decl = {"type": t}
            if self.chance(0.5):
                decl["default"] = self.value(t, wrong=0.05)
            if self.chance(0.2):
                decl["nullable"] = False
            if self.chance(0.15):
                decl["sensitive"] = True
            decl["rules"] = [self.rule(n, t) for _ in range(r.choice([0, 0, 1, 2]))]
            variables[n] = decl
        as_json = self.chance(0.2) and not any(
            "optional(" in self.type_text(v["type"]) and False
            for v in variables.values())
        if as_json:
            self.write_json_decls(d, variables)
        else:
            self.write_hcl_decls(d, variables)
        args, env = [], {}
        files = {"terraform.tfvars": [], "terraform.tfvars.json": {},
                 "a.auto.tfvars": []}
        for n, decl in variables.items():
            where = r.choice(["none", "tfvars", "json", "auto", "var", "env"])
            if "default" not in decl and self.chance(0.6):
                where = r.choice(["tfvars", "auto", "var"])
            val = self.value(decl["type"], wrong=0.1)
            if where == "tfvars":
                files["terraform.tfvars"].append("%s = %s" % (n, val))
            elif where == "auto":
                files["a.auto.tfvars"].append("%s = %s" % (n, val))
            elif where == "json":
                try:
                    files["terraform.tfvars.json"][n] = json.loads(
                        hcl_to_json(val))
                except ValueError:
                    files["terraform.tfvars"].append("%s = %s" % (n, val))
            elif where == "var":
                raw = json.loads(val) if val.startswith('"') else val
                args += ["-var", "%s=%s" % (n, raw)]
            elif where == "env":
                env["TF_VAR_" + n] = json.loads(val) if val.startswith('"') else val
        if self.chance(0.1):
            files["terraform.tfvars"].append("undeclared_%d = 1" % r.randint(0, 9))
        if self.chance(0.05):
            files["terraform.tfvars"].append(r.choice(["x = ", "= 1", 'y = "a']))
        for name, body in files.items():
            if name.endswith(".json"):
                if body:
                    text = json.dumps(body)
                    if self.chance(0.08):
                        text = self.break_json(text)
                    with open(os.path.join(d, name), "w") as f:
                        f.write(text)
            elif body:
                with open(os.path.join(d, name), "w") as f:
                    f.write("\n".join(body) + "\n")
        return args, env

    def break_json(self, text):
        """One to three typing mistakes: a bracket, comma, colon or quote
        dropped, doubled or swapped, a stray character."""
        r = self.r
        for _ in range(r.randint(1, 3)):
            marks = [i for i, ch in enumerate(text) if ch in '{}[],:"']
            if not marks:
                break
            i = r.choice(marks)
            how = r.choice(["drop", "double", "swap", "stray", "comma"])
            if how == "drop":
                text = text[:i] + text[i + 1:]
            elif how == "double":
                text = text[:i] + text[i] + text[i:]
            elif how == "swap":
                text = text[:i] + r.choice('{}[],:"=') + text[i + 1:]
            elif how == "stray":
                text = text[:i] + r.choice(["@", "x", "1", "'", "//", " "]) + text[i:]
            else:
                text = text[:i] + "," + text[i:]
        return text

    def write_hcl_decls(self, d, variables):
        out = []
        for n, v in variables.items():
            out.append('variable "%s" {' % n)
            out.append("  type = %s" % self.type_text(v["type"]))
            if "default" in v:
                out.append("  default = %s" % v["default"])
            if "nullable" in v:
                out.append("  nullable = false")
            if "sensitive" in v:
                out.append("  sensitive = true")
            for cond, msg in v["rules"]:
                out += ["  validation {", "    condition = %s" % cond,
                        "    error_message = %s" % msg, "  }"]
            out.append("}")
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write("\n".join(out) + "\n")

    def write_json_decls(self, d, variables):
        doc = {}
        for n, v in variables.items():
            body = {"type": self.type_text(v["type"])}
            if "default" in v:
                try:
                    body["default"] = json.loads(hcl_to_json(v["default"]))
                except ValueError:
                    pass
            if "nullable" in v:
                body["nullable"] = False
            if "sensitive" in v:
                body["sensitive"] = True
            if v["rules"]:
                body["validation"] = [
                    {"condition": "${%s}" % c,
                     "error_message": json.loads(m) if m.startswith('"') and
                     "${" not in m else m.strip('"')}
                    for c, m in v["rules"]]
            doc[n] = body
        with open(os.path.join(d, "main.tf.json"), "w") as f:
            json.dump({"variable": doc}, f, indent=2)

    # ---- expressions -------------------------------------------------------
    def expr(self, depth=0):
        r = self.r
        if depth > 2 or self.chance(0.3):
            return r.choice(['"abc"', '"A-b c"', "3", "-1.5", "0", "true",
                             "null", "[1, 2, 3]", '["b", "a", "b"]',
                             '{ a = 1, b = "x" }', "[]", "{}", '"10.0.0.0/8"',
                             '"1,2;3"', "tolist([])", 'toset(["x"])'])
        k = r.random()
        e = lambda: self.expr(depth + 1)
        if k < 0.55:
            f, n = r.choice(FUNCS)
            return "%s(%s)" % (f, ", ".join(e() for _ in range(n)))
        if k < 0.65:
            return "%s %s %s" % (e(), r.choice(["+", "-", "*", "/", "%", "==",
                                                "!=", "<", ">=", "&&", "||"]),
                                 e())
        if k < 0.72:
            return "%s ? %s : %s" % (e(), e(), e())
        if k < 0.8:
            return "[for x in %s : %s]" % (e(), r.choice(["x", "upper(x)",
                                                          "x * 2", "[x]"]))
        if k < 0.85:
            return "{ for k, v in %s : tostring(k) => v }" % e()
        if k < 0.9:
            return "%s[%s]" % (e(), r.choice(["0", "1", '"a"', "-1"]))
        if k < 0.95:
            return '"${%s}-%%{if %s}y%%{endif}"' % (e(), e())
        return "%s[*]" % e()


FUNCS = [("length", 1), ("upper", 1), ("lower", 1), ("keys", 1),
         ("values", 1), ("tolist", 1), ("toset", 1), ("tomap", 1),
         ("tostring", 1), ("tonumber", 1), ("tobool", 1), ("jsonencode", 1),
         ("yamlencode", 1), ("jsondecode", 1), ("sort", 1), ("distinct", 1),
         ("flatten", 1), ("reverse", 1), ("compact", 1), ("sum", 1),
         ("max", 2), ("min", 2), ("abs", 1), ("ceil", 1), ("floor", 1),
         ("concat", 2), ("merge", 2), ("zipmap", 2), ("setunion", 2),
         ("setproduct", 2), ("contains", 2), ("element", 2), ("index", 2),
         ("lookup", 3), ("coalesce", 2), ("coalescelist", 2), ("join", 2),
         ("split", 2), ("format", 2), ("formatlist", 2), ("replace", 3),
         ("substr", 3), ("regex", 2), ("regexall", 2), ("trimspace", 1),
         ("title", 1), ("strrev", 1), ("startswith", 2), ("endswith", 2),
         ("base64encode", 1), ("sha256", 1), ("md5", 1), ("try", 2),
         ("can", 1), ("one", 1), ("range", 1), ("chunklist", 2),
         ("slice", 3), ("transpose", 1), ("alltrue", 1), ("anytrue", 1),
         ("parseint", 2),
         ("urlencode", 1), ("trimprefix", 2), ("strcontains", 2)]


def hcl_to_json(v):
    """The HCL value text of Gen.value as JSON (objects' bare keys quoted)."""
    import re
    return re.sub(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=", r'\1"\2":',
                  v).replace(" = ", ": ")


def run(argv, cwd, env, stdin=None, stderr_too=False):
    e = {"PATH": os.environ.get("PATH", "")}
    for k in ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            e[k] = os.environ[k]
    e.update(env)
    try:
        p = subprocess.run(argv, cwd=cwd, env=e, input=stdin,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, errors="replace", timeout=120)
        return p.returncode, p.stdout + (p.stderr if stderr_too else "")
    except subprocess.TimeoutExpired:
        return -9, ""


def fmt_range(r):
    if not r:
        return None
    return "%s:%d,%d-%d,%d" % (r.get("filename"), r["start"]["line"],
                               r["start"]["column"], r["end"]["line"],
                               r["end"]["column"])


def compare_module(o, u):
    """The first difference between the reference's result o and ours."""
    if o.get("valid") != u.get("valid"):
        return "valid: reference %s, tfresolve %s" % (o.get("valid"), u.get("valid"))
    ov, uv = o.get("variables", {}), u.get("variables", {})
    if set(ov) != set(uv):
        return "variables differ: %s vs %s" % (sorted(ov), sorted(uv))
    for n in ov:
        for k in ("type", "value"):
            if ov[n].get(k) != uv[n].get(k):
                return "var.%s %s: reference %s, tfresolve %s" % (
                    n, k, json.dumps(ov[n].get(k))[:200],
                    json.dumps(uv[n].get(k))[:200])
        if bool(ov[n].get("error")) != bool(uv[n].get("error")):
            return "var.%s error flag: reference %s" % (n, ov[n].get("error"))
    key = lambda g: (g["severity"], g.get("variable"), g["summary"],
                     g.get("detail", ""), fmt_range(g.get("range")))
    oe = sorted(key(g) for g in o.get("diagnostics", []) if g["severity"] == "error")
    ue = sorted(key(g) for g in u.get("diagnostics", []) if g["severity"] == "error")
    if oe != ue:
        only_o = [x for x in oe if x not in ue]
        only_u = [x for x in ue if x not in oe]
        return "errors: reference only %s; tfresolve only %s" % (
            json.dumps(only_o)[:600], json.dumps(only_u)[:600])
    ow = {(g.get("variable"), g["summary"]) for g in o.get("diagnostics", [])
          if g["severity"] == "warning"}
    uw = {(g.get("variable"), g["summary"]) for g in u.get("diagnostics", [])
          if g["severity"] == "warning"}
    if not ow <= uw:
        return "warnings missing: %s" % sorted(ow - uw)
    return None


def same_errors(tool, cwd, expr, ref, ours):
    """Both failed, and the reference's error is among ours: only the
    first error differs (the order in which an operator's conversion
    errors and its operands' own errors are reported)."""
    if not (isinstance(ref, dict) and isinstance(ours, dict) and
            "error" in ref and "error" in ours):
        return False
    _, out = run([tool, "eval", "-functions", "-no-color", "--", expr], cwd, {},
                 stderr_too=True)
    err = ref["error"]
    return ("Error: " + err["summary"]) in out and all(
        line in out for line in err["detail"].split("\n") if line)


def read_all(d):
    """The text of the module's files (for KNOWN)."""
    out = []
    for n in sorted(os.listdir(d)):
        with open(os.path.join(d, n), errors="replace") as f:
            out.append(f.read())
    return "\n".join(out)


def known(text):
    return any(a in text and b in text for a, b in KNOWN)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfresolve")
    ap.add_argument("tforacle")
    ap.add_argument("--modules", type=int, default=40)
    ap.add_argument("--exprs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the modules that differ here")
    ap.add_argument("-v", action="store_true")
    o = ap.parse_args()
    if not os.access(o.tforacle, os.X_OK):
        print("SKIP reference program not built (%s)" % o.tforacle)
        return 77  # meson's "skipped"
    tool = os.path.abspath(o.tfresolve)
    oracle = os.path.abspath(o.tforacle)
    g = Gen(random.Random(o.seed))
    passed = failed = artifacts = order = shown = 0
    root = tempfile.mkdtemp(prefix="difftest.")
    try:
        for i in range(o.modules):
            d = os.path.join(root, "m%05d" % i)
            os.mkdir(d)
            args, env = g.module(d)
            _, oo = run([oracle] + args, d, env)
            _, uo = run([tool, "show", "-json", "-show-sensitive"] + args, d, env)
            try:
                od = json.loads(oo, parse_float=Decimal)
                ud = json.loads(uo, parse_float=Decimal)
                diff = compare_module(od, ud)
            except ValueError:
                diff = "output is not JSON: %s" % (uo or oo)[:300]
            if not diff:
                passed += 1
            elif known(diff + read_all(d)):
                artifacts += 1
            else:
                failed += 1
                if shown < 20:
                    shown += 1
                    print("FAIL module %d (seed %d): %s" % (i, o.seed, diff))
                if o.keep:
                    shutil.copytree(d, os.path.join(o.keep, "m%d-%05d" % (o.seed, i)))
                    with open(os.path.join(o.keep, "m%d-%05d" % (o.seed, i),
                                           "cmd"), "w") as f:
                        json.dump({"args": args, "env": env}, f)
            shutil.rmtree(d)
        exprs = [g.expr() for _ in range(o.exprs)]
        _, oo = run([oracle, "-eval-stdin"], root, {}, "\n".join(exprs) + "\n")
        _, uo = run([tool, "eval", "-functions", "-json", "-show-sensitive",
                     "--"] + exprs, root, {})
        ol, ul = oo.splitlines(), uo.splitlines()
        if len(ol) != len(exprs) or len(ul) != len(exprs):
            print("FAIL expressions: %d and %d answers to %d" % (len(ol), len(ul), len(exprs)))
            failed += 1
        for e, a, b in zip(exprs, ol, ul):
            try:
                x = normalize(json.loads(a, parse_float=Decimal))
                y = normalize(json.loads(b, parse_float=Decimal))
            except ValueError:
                x, y = a, b
            if x == y:
                passed += 1
            elif known(e + a + b):
                artifacts += 1
            elif same_errors(tool, root, e, x, y):
                order += 1
            else:
                failed += 1
                if shown < 20:
                    shown += 1
                    print("FAIL %s\n  reference %s\n  tfresolve %s" % (e, a, b))
    finally:
        shutil.rmtree(root, ignore_errors=True)
    print("seed %d: %d modules, %d expressions; %d reference artifacts "
          "(see KNOWN), %d errors reported in another order (same_errors)"
          % (o.seed, o.modules, o.exprs, artifacts, order))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
