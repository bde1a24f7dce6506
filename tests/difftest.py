#!/usr/bin/env python3
"""Random differential testing against the reference program (tforacle).

  difftest.py TFRESOLVE TFORACLE [--modules N] [--exprs N] [--seed S]
              [--keep DIR] [--kinds] [-v]

Generates random root modules -- types with nested optional() defaults,
any, sets, tuples; defaults, nullable, sensitive; validation rules with the
functions real modules use; values from terraform.tfvars,
terraform.tfvars.json, *.auto.tfvars, -var and TF_VAR_; declarations in
.tf or .tf.json; some inputs broken on purpose (wrong types, undeclared
names, syntax errors); rules that fail on purpose with error messages
that interpolate nulls, numbers, lists, maps and objects (templates, bare
"${var.x}", %{if}/%{for}, conditionals, empty and blank messages); calls
that fail at run time as Go's functions err or panic (log(-1, 10),
pow(-1, 0.5), element of an empty list, ...) and contains(list, null);
.tf.json defaults whose objects repeat a key; validation cycles of 2, 3
and 4 variables, also through a local value (those run as a child module
m of the directory, so that the reference's -tree mode runs Terraform's
graph with local values: see compare_child) -- and random expressions
(also calls that fail, cidr* out of range, contains with a null,
templates of values that are no strings), and compares tfresolve's
answers with the reference program's, whole: validity, every variable's
type, value and error flag, every error (severity, variable, summary,
detail, range, with duplicates), the warnings the reference gives; for
expressions the type, value, marks and error (summary and detail).

Differences that are the reference program's own artifacts (see KNOWN
below) are counted apart.  --kinds prints how many inputs of each new kind
were generated and how many of them the reference failed (a module that
is not valid, an expression that is an error).  Both engines: the
reference has no -engine=opentofu (its flags are -var, -var-file,
-input, -no-color, -compact-warnings, -lock, -tree, -eval, -eval-stdin,
-functions; src/main.go), so only Terraform's is compared.  The
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
import sys
import tempfile
from decimal import Decimal

import harness

# What the reference program does that current Terraform does not (and
# one rule of tfresolve's own): a difference whose text (the difference,
# the module's files, the expression and both answers) holds every string
# of an entry is counted apart, not as a failure.
KNOWN = [
    # cty reports one of an object's (or a map's, a set's) bad attributes,
    # picked in Go's map order, which changes from run to run
    # (cty/convert/mismatch_msg.go:81-116, 184-191): MAP_ORDER, each taken
    # only when a rerun of the reference gives tfresolve's answer
    ('attribute \\"', "suitable"),
    ('element \\"', "suitable"),
    ('attribute \\"', "Invalid default value"),
    ('element \\"', "Invalid default value"),
    ('element \\"', "parameter:"),
    # the reference program cannot print an infinite result (1/0); we say
    # so in our own words ("Value cannot be encoded as JSON")
    ("Oracle internal error", "cannot serialize infinity"),
    # the reference has no cidr* functions (its SEMANTICS.md section 9, "Not
    # provided"); Terraform registers them (internal/lang/functions.go:
    # "cidrhost": funcs.CidrHostFunc, "cidrnetmask", "cidrsubnet",
    # "cidrsubnets"), so its "There is no function named" is its own
    ('There is no function named \\"cidr', "cidr"),
    ("can(cidr", "cidr"), ("try(cidr", "cidr"),
    # the reference's base64decode takes no marked argument, so cty unmarks
    # it and the message shows the value; Terraform's (internal/lang/funcs/
    # encoding.go Base64DecodeFunc: AllowMarked, "failed to decode base64
    # data %s", redactIfSensitive(s, strMarks)) writes (sensitive value)
    ("failed to decode base64 data (sensitive value)", "base64decode(var.",
     "sensitive = true"),
    ("failed to decode base64 data (sensitive value)", "base64decode(var.",
     '"sensitive": true'),
    # tfresolve's own rule, not a reference artifact (README: "An error
    # message never shows a sensitive argument of a function"): cty's
    # functions quote their arguments and Terraform prints them, tfresolve
    # writes (sensitive value) even with -show-sensitive
    ("tfresolve only", "(sensitive value)", "sensitive = true"),
    ("tfresolve only", "(sensitive value)", '"sensitive": true'),
    # a cycle in the reference's one-line form: normalised (norm_cycles);
    # one error for every rule the reference could not order: see
    # cycle_superset
    ("the reference's one cycle error names every rule it could not order",
     "Cycle"),
]
MAP_ORDER = set(KNOWN[:5])
MAP_ORDER_RUNS = 12
CYCLE_SUPERSET = ("the reference's one cycle error names every rule it could "
                  "not order (Cycle)")

# Differences the comparison takes away before it compares (each a
# reference artifact, with Terraform's source that says what is right;
# they are not matched on text, so they are not in KNOWN's list):
#  * a graph cycle: Terraform 1.16+ writes "Cycle:\n  var.a (validation)\n
#    var.b (validation)", one node a line, from the shortest name in the
#    order of the references (internal/dag/dag.go:203-240, Validate:
#    "Cycle:\n  %s", strings.Join(cycleStr, "\n  ")); the
#    reference prints the older one-line "Cycle: var.a (validation),
#    var.b (validation)", sorted.  Both become the set of their nodes
#    (cycle_nodes), compared as sets.


def cycle_nodes(summary):
    """The nodes of a "Cycle:" summary in either form, as a sorted tuple,
    or None for any other summary."""
    if not summary.startswith("Cycle:"):
        return None
    rest = summary[len("Cycle:"):]
    parts = rest.split("\n") if "\n" in rest else rest.split(", ")
    return tuple(sorted(p.strip() for p in parts if p.strip()))


def norm_cycles(doc, prefix=""):
    """Every "Cycle:" summary of a module result in one form (see above);
    prefix (a child module's "module.m.") is taken off each node."""
    for g in doc.get("diagnostics", []):
        nodes = cycle_nodes(g.get("summary", ""))
        if nodes is not None:
            nodes = tuple(sorted(n[len(prefix):] if n.startswith(prefix)
                                 else n for n in nodes))
            g["summary"] = "Cycle: " + ", ".join(nodes)
    return doc


def normalize(doc):
    """A Go panic's message as the reference program prints it: it cuts
    the stack trace that Terraform prints after it, and the period after
    that; tfresolve prints the message with the period.  A value that is
    not wholly known: null, as the reference writes it."""
    if isinstance(doc, dict) and "error" in doc:
        d = doc["error"].get("detail", "")
        i = d.find("panic in function implementation: ")
        if i >= 0:
            doc["error"]["detail"] = d.split("\n")[0].rstrip(".")
    if isinstance(doc, dict) and doc.get("unknown"):
        # the reference writes null for a value not wholly known
        # (README: "unknown when it is not wholly known (then value is
        # null)"); tfresolve writes its known parts
        doc["value"] = None
    return doc

NAMES = ["alpha", "beta", "gamma", "delta", "eps", "zeta", "eta", "theta"]
WORDS = ["a", "b", "web", "db", "prod", "dev", "x-1", "Zz", "", "10.0.0.0/16"]


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.kinds = {}     # kind of generated input -> how many
        self.cur = set()    # the kinds of the module or expression at hand

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
            # tuple([]) now and then: an unknown tuple's index is checked
            # against its type (cty's HasIndex), in the validate walk too
            return ("tuple", [self.type_(depth + 1) for _ in
                              range(r.randint(0 if self.chance(0.3) else 1, 3))])
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
        elif isinstance(t, tuple) and t[0] == "tuple" and self.chance(0.5):
            # indexes of a tuple, in and out of its range: with the
            # validate walk's unknown value too (hcl's Index asks cty's
            # HasIndex, which answers from the type)
            n = len(t[1])
            cond = r.choice(['can(%s[0])' % v, 'can(%s[%d])' % (v, n),
                             '%s[0] != null' % v, '%s[%d] != null' % (v, n),
                             'try(%s[%d], "d") == "d"' % (v, n),
                             'length(%s) == %d' % (v, n), '!can(%s[-1])' % v])
            self.kind("rule-tuple-index" + ("-empty" if not n else ""))
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
        if self.chance(0.15):
            cond = self.runtime_cond(v, t)
        msg = r.choice(['"%s is not valid."' % name,
                        '"Got ${jsonencode(%s)}."' % v,
                        '"${%s == null ? "null" : "set"} value."' % v])
        return cond, msg

    def runtime_cond(self, v, t):
        """A condition whose call can fail at run time the way a Go function
        errs or panics (log of a negative number, pow giving NaN, element of
        an empty list...) or contains(list, null), which cty makes unknown
        (the rule is deferred).  No cidr* function: the reference has none
        (see KNOWN); expressions have them."""
        r = self.r
        if t == "number":
            c = r.choice(['log(%s, 10) > 0', 'log(10, %s) > 0',
                          'pow(%s, 0.5) >= 0', 'pow(%s, -1) > 0',
                          'element([], %s) == 1', 'range(%s)[0] == 0',
                          'parseint("12", %s) > 0',
                          'substr("abc", %s, 1) != ""',
                          'chunklist([1, 2], %s) != []',
                          'contains([1, 2], %s == 1 ? null : 3)'])
            kind = "rule-contains-null" if "contains" in c else "rule-runtime"
        elif t == "string":
            c = r.choice(['log(length(%s) - 1, 10) >= 0',
                          'element(split(",", %s), 5) != ""',
                          'contains(["a", "b"], %s == "a" ? null : %s)',
                          'contains([%s], null)',
                          'regex(%s, "x") != ""', 'formatdate(%s, "x") != ""',
                          'tonumber(%s) > 0', 'base64decode(%s) != ""'])
            kind = "rule-contains-null" if "contains" in c else "rule-runtime"
        elif isinstance(t, tuple) and t[0] in ("list", "tuple"):
            c = r.choice(['element(%s, 0) != null', 'contains(%s, null)',
                          '!contains(%s, null)', 'index(%s, null) >= 0',
                          'pow(-1, length(%s) + 0.5) > 0',
                          'one(%s) != null', 'sum(%s) != 0'])
            kind = "rule-contains-null" if "null)" in c else "rule-runtime"
        else:
            c = r.choice(['contains([%s], null)', 'log(-1, 10) > 0 || %s == null',
                          'tostring(%s) != tostring(pow(-8, 1 / 3))'])
            kind = "rule-contains-null" if "contains" in c else "rule-runtime"
        self.kind(kind)
        return c.replace("%s", v)

    # ---- error messages of failing rules ----------------------------------
    # A variable of each category with a value of it: the message
    # interpolates it in a template, wraps it bare ("${var.x}"), walks it
    # with %{if}/%{for}, or a conditional picks the message.
    MSG_VARS = {
        "null": [("string", "null"), (("list", "string"), "null"),
                 ("any", "null"), ("number", "null")],
        "number": [("number", "42"), ("number", "-1.5"), ("number", "1e3"),
                   ("any", "7")],
        "list": [(("list", "string"), '["a", "b"]'),
                 (("list", "number"), "[1, 2]"), (("list", "string"), "[]"),
                 ("any", '["x", 1]'), (("set", "string"), '["b", "a"]'),
                 (("tuple", ["string", "number"]), '["a", 1]')],
        "map": [(("map", "string"), '{ a = "x", b = "y" }'),
                (("map", "number"), "{ k = 1 }"), (("map", "string"), "{}")],
        "object": [(("object", {"a": ("number", False, None),
                                "b": ("string", True, None)}), "{ a = 1 }"),
                   ("any", '{ a = 1, b = "x" }'),
                   (("object", {"a": (("list", "string"), False, None)}),
                    '{ a = ["q"] }')],
        "string": [("string", '"text"'), ("string", '""'), ("bool", "true")],
    }
    MSG_FORMS = {
        "template": ['"Got ${%s}."', '"v=${%s}"', '"${%s} is wrong"'],
        "wrap": ['"${%s}"', '"${%s}"'],
        "if": ['"%%{if %s != null}set: ${%s}%%{else}null%%{endif}"',
               '"%%{if %s}yes%%{else}no%%{endif}"',
               '"%%{ if %s == null ~}none%%{~ endif } left"'],
        "for": ['"%%{for x in %s}${x},%%{endfor}"',
                '"%%{for k, x in %s}${k}=${x};%%{endfor}"',
                '"items:%%{for x in %s} ${jsonencode(x)}%%{endfor}"'],
        "cond": ['%s == null ? "it is null" : "got ${jsonencode(%s)}"',
                 '%s == null ? %s : "set"',
                 '%s != null ? "${%s}" : ""',
                 'length(jsonencode(%s)) > 4 ? "long: ${%s}" : "short"',
                 '%s == null ? null : "x"'],
        "blank": ['""', '"   "', '" \\n "', '"${""}"', '"%%{if false}x%%{endif}"',
                  'trimspace("  ${%s == null ? "" : ""}")', '"\\t"'],
        "func": ['format("%%v", %s)', 'join(",", %s)', 'tostring(%s)',
                 'jsonencode(%s)'],
        "heredoc": ['<<EOT\nGot ${%s}.\nEOT',
                    '<<-EOT\n    %%{for x in %s}${x}\n    %%{endfor}\n    EOT',
                    '<<EOT\n%%{if %s != null~}\n  set\n%%{~endif}\nEOT',
                    '<<-EOT\n\n    EOT'],
    }

    def msg_variable(self):
        """A variable whose rule fails (mostly) and whose error_message
        does something with its value (MSG_VARS, MSG_FORMS)."""
        r = self.r
        cat = r.choice(sorted(self.MSG_VARS))
        t, dflt = r.choice(self.MSG_VARS[cat])
        form = r.choice(sorted(self.MSG_FORMS))
        self.kind("msg-%s" % cat)
        self.kind("msg-form-%s" % form)
        decl = {"type": t, "default": dflt, "msgcat": cat, "form": form}
        if self.chance(0.12):
            decl["sensitive"] = True
            self.kind("msg-sensitive")
        return decl

    def msg_rules(self, name, decl):
        r = self.r
        v = "var." + name
        cond = r.choice(['%s == "never-this"', 'jsonencode(%s) == "never"',
                         'length(jsonencode(%s)) < 0', '%s == null && false',
                         'jsonencode(%s) != "never"'])
        msg = r.choice(self.MSG_FORMS[decl["form"]]).replace("%%", "%")
        return [(cond.replace("%s", v), msg.replace("%s", v))]

    # A .tf.json default whose object repeats a key: HCL's JSON parser
    # keeps both, Terraform's decoding gives "Duplicate object attribute"
    DUP_DEFAULTS = [
        ("any", '{"a": 1, "a": 2}', "same"),
        ("map(number)", '{"a": 1, "a": 2}', "same"),
        ("map(string)", '{"a": "x", "b": "y", "a": "z"}', "same"),
        ("object({a = number})", '{"a": 1, "a": "x"}', "different"),
        ("any", '{"a": [1], "a": {"b": 1}}', "different"),
        ("any", '{"a": null, "a": 1}', "different"),
        ("map(any)", '{"a": {"b": 1, "b": 2}}', "same"),
        ("object({a = object({b = any})})", '{"a": {"b": 1, "b": true}}',
         "different"),
        ("list(object({a = number}))", '[{"a": 1, "a": 2}]', "same"),
        ("list(any)", '[{"a": 1, "a": "s"}]', "different"),
        ("map(string)", '{"a": "x", "b": "y", "b": "y"}', "same"),
        ("object({a = optional(string, \"d\"), b = number})",
         '{"b": 1, "b": 2}', "same"),
    ]

    def cross_refs(self, variables):
        """Some rules refer to another variable (Terraform 1.9+): in the
        condition or the message; the rule waits for that variable's value
        and rules, and is skipped when they fail; two that refer to each
        other are a cycle."""
        r = self.r
        names = [n for n, v in variables.items() if "dupdefault" not in v]
        if len(names) < 2 or not self.chance(0.3):
            return
        for n in names:
            rules = variables[n]["rules"]
            if not rules or not self.chance(0.5):
                continue
            other = "var." + r.choice([x for x in names if x != n])
            i = r.randrange(len(rules))
            cond, msg = rules[i]
            if self.chance(0.5):
                cond = r.choice(["(%s) && %s != null" % (cond, other),
                                 "%s == null || (%s)" % (other, cond),
                                 "(%s) || jsonencode(%s) == \"[]\"" % (cond, other)])
            else:
                msg = r.choice(['"Not valid, see ${jsonencode(%s)}."' % other,
                                '"${%s == null ? "no" : "some"} other."' % other])
            rules[i] = (cond, msg)
            self.kind("rule-cross-ref")

    def kind(self, k):
        self.kinds[k] = self.kinds.get(k, 0) + 1
        self.cur.add(k)

    # ---- a module -------------------------------------------------------------
    def module(self, d):
        """Writes a module into d; returns its spec: arguments, environment,
        how to run it ("root", or "child": the module is in d/m, called
        by d/main.tf, so that the reference's -tree mode runs Terraform's
        graph on it, local values included)."""
        self.cur = set()
        if self.chance(0.12):
            return self.cycle_module(d)
        args, env = self.plain_module(d)
        return {"args": args, "env": env, "mode": "root",
                "kinds": self.cur}

    def plain_module(self, d):
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
        for i in range(r.choice([0, 0, 1, 1, 2])):
            decl = self.msg_variable()
            decl["rules"] = self.msg_rules("msg%d" % i, decl)
            if self.chance(0.3):
                decl["rules"] += [self.rule("msg%d" % i, decl["type"])]
            variables["msg%d" % i] = decl
        self.cross_refs(variables)
        as_json = self.chance(0.2) and not any(
            "optional(" in self.type_text(v["type"]) and False
            for v in variables.values())
        if as_json and self.chance(0.4):
            t, text, how = r.choice(self.DUP_DEFAULTS)
            variables["dup"] = {"type": t, "dupdefault": text, "rules": []}
            self.kind("json-dup-key-" + how)
        if as_json:
            self.write_json_decls(d, variables)
        else:
            self.write_hcl_decls(d, variables)
        args, env = [], {}
        files = {"terraform.tfvars": [], "terraform.tfvars.json": {},
                 "a.auto.tfvars": []}
        for n, decl in variables.items():
            where = r.choice(["none", "tfvars", "json", "auto", "var", "env"])
            if "dupdefault" in decl:
                where = "none"
            elif "msgcat" in decl:
                where = "none" if self.chance(0.8) else where
            elif "default" not in decl and self.chance(0.6):
                where = r.choice(["tfvars", "auto", "var"])
            if where == "none":
                continue
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

    def write_hcl_decls(self, d, variables, locals_=None):
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
        if locals_:
            out.append("locals {")
            out += ["  %s = %s" % kv for kv in locals_.items()]
            out.append("}")
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write("\n".join(out) + "\n")

    def write_json_decls(self, d, variables, locals_=None):
        doc = {}
        dups = {}
        for n, v in variables.items():
            body = {"type": self.type_text(v["type"])}
            if "default" in v:
                try:
                    body["default"] = json.loads(hcl_to_json(v["default"]))
                except ValueError:
                    pass
            if "dupdefault" in v:
                body["default"] = "__DUP_%s__" % n
                dups['"__DUP_%s__"' % n] = v["dupdefault"]
            if "nullable" in v:
                body["nullable"] = False
            if "sensitive" in v:
                body["sensitive"] = True
            if v["rules"]:
                body["validation"] = [
                    {"condition": "${%s}" % c,
                     "error_message": json_message(m, "msgcat" in v or
                                                   "cycle" in v)}
                    for c, m in v["rules"]]
            doc[n] = body
        top = {"variable": doc}
        if locals_:
            top["locals"] = {k: "${%s}" % e for k, e in locals_.items()}
        text = json.dumps(top, indent=2)
        for k, dup in dups.items():
            text = text.replace(k, dup)
        with open(os.path.join(d, "main.tf.json"), "w") as f:
            f.write(text)

    # ---- validation cycles ---------------------------------------------------
    def cycle_module(self, d):
        """Variables whose rules refer to each other in a ring of 2, 3 or 4
        (Terraform's graph: a rule depends on the validation of each other
        variable and on each local value it refers to), sometimes through
        a local value, sometimes cut (an order, no cycle), sometimes with
        a variable outside that refers into the ring, or a second cycle
        (two variables, or local values alone)."""
        r = self.r
        n = r.choice([2, 3, 3, 4])
        names = r.sample(NAMES, n + 2)
        ring, extra = names[:n], names[n:]
        through_local = self.chance(0.5)
        cut = self.chance(0.15)
        variables, locals_ = {}, {}
        types = {x: r.choice(["string", "number"]) for x in names}
        dflt = {"string": lambda: json.dumps(r.choice(["a", "web", "", "x-1"])),
                "number": lambda: str(r.randint(-2, 5))}
        for x in names:
            variables[x] = {"type": types[x], "default": dflt[types[x]](),
                            "rules": [], "cycle": True}
        via = r.randrange(n) if through_local else -1

        def add_rule(a, target):
            """var.a's rule refers to target (var.b or local.c), in its
            condition or its message."""
            va = "var." + a
            own = {"string": "length(%s) >= 0" % va,
                   "number": "%s > -10" % va}[types[a]]
            if self.chance(0.6):
                cond = r.choice(["%s != %s" % (va, target),
                                 "%s && tostring(%s) != \"zz\"" % (own, target),
                                 "jsonencode(%s) != jsonencode(%s)" % (va, target)])
                msg = '"%s clashes with ${%s}."' % (a, target)
            else:
                cond = own
                msg = '"%s is wrong, see ${%s}."' % (a, target)
            variables[a]["rules"].append((cond, msg))

        for i, a in enumerate(ring):
            b = ring[(i + 1) % n]
            if cut and i == n - 1:
                add_rule(a, "var." + a)
                continue
            if i == via:
                locals_["via_" + b] = r.choice(["upper(var.%s)" % b if
                                                types[b] == "string" else
                                                "var.%s + 1" % b,
                                                "[var.%s]" % b,
                                                '"${var.%s}-x"' % b])
                add_rule(a, "local.via_" + b)
            else:
                add_rule(a, "var." + b)
        extra_kind = r.choice(["none", "none", "dependent", "second-vars",
                               "second-locals"])
        if extra_kind == "dependent":
            add_rule(extra[0], "var." + ring[0])
        elif extra_kind == "second-vars":
            add_rule(extra[0], "var." + extra[1])
            add_rule(extra[1], "var." + extra[0])
        elif extra_kind == "second-locals":
            locals_["left"] = "local.right"
            locals_["right"] = '"${local.left}-r"'
        self.kind("cycle-%d%s%s" % (n, "-local" if through_local else "",
                                    "-cut" if cut else ""))
        if extra_kind != "none":
            self.kind("cycle-extra-" + extra_kind)
        mode = "child"
        if not locals_ and (cut or self.chance(0.5)):
            mode = "root"   # the reference's own order, one-line cycle
            self.kind("cycle-root-mode")
        where = d
        if mode == "child":
            where = os.path.join(d, "m")
            os.mkdir(where)
            with open(os.path.join(d, "main.tf"), "w") as f:
                f.write('module "m" {\n  source = "./m"\n}\n')
        if self.chance(0.2):
            self.write_json_decls(where, variables, locals_)
        else:
            self.write_hcl_decls(where, variables, locals_)
        return {"args": [], "env": {}, "mode": mode, "kinds": self.cur}

    # ---- expressions -------------------------------------------------------
    # Calls that fail at run time as Go's functions err or panic, with
    # arguments drawn from a few; contains() with a null; templates that
    # interpolate values that are no strings.
    RUNTIME = [
        ("log(%s, %s)", [["-1", "0", "10", "1", "-0.5"], ["10", "1", "-1", "0"]]),
        ("pow(%s, %s)", [["-1", "0", "2", "-8"], ["0.5", "-1", "1.5", "0"]]),
        ("element(%s, %s)", [["[]", "tolist([])", "[1]", '["a", "b"]'],
                             ["0", "-1", "3", "1.5"]]),
        ("cidrsubnet(%s, %s, %s)", [['"10.0.0.0/16"', '"10.0.0.0/30"',
                                     '"fd00::/120"', '"x"'],
                                    ["8", "20", "0", "-1", "200"],
                                    ["0", "300", "-1", "255"]]),
        ("cidrhost(%s, %s)", [['"10.0.0.0/30"', '"10.0.0.0/8"', '"::/0"'],
                              ["5", "-5", "4", "99999999999"]]),
        ("cidrnetmask(%s)", [['"10.0.0.0/33"', '"fd00::/64"', '"10.0.0.0/8"']]),
        ("cidrsubnets(%s, %s, %s)", [['"10.0.0.0/30"', '"10.0.0.0/16"'],
                                     ["1", "4", "0"], ["2", "16", "33"]]),
        ("range(%s, %s, %s)", [["0", "1", "10"], ["10", "-1", "0"],
                               ["-1", "0", "1", "0.5"]]),
        ("substr(%s, %s, %s)", [['"abc"', '""'], ["5", "-1", "1", "-5"],
                                ["1", "-1", "9"]]),
        ("chunklist(%s, %s)", [["[1, 2]", "[]"], ["-1", "0", "1"]]),
        ("slice(%s, %s, %s)", [["[1, 2]", "[]"], ["2", "0", "-1"], ["1", "3"]]),
        ("parseint(%s, %s)", [['"zz"', '"12"', '"-"', '""'], ["10", "1", "37", "36"]]),
        ("format(%s, %s)", [['"%d"', '"%z"', '"%s %s"', '"%.2f"', '"%[2]d"'],
                            ['"x"', "1", "1.5", "null", "[1]"]]),
        ("formatdate(%s, %s)", [['"YYYY"', '"x"'], ['"2020-01-01"', '"nope"',
                                                   '"2020-01-01T00:00:00Z"']]),
        ("regex(%s, %s)", [['"("', '"[a-"', '"(?P<x>a)"', '"a"'], ['"x"', '"a"']]),
        ("one(%s)", [["[1, 2]", "[]", "toset([])", "[null]"]]),
        ("sum(%s)", [["[]", '["1", "x"]', "[1, null]", "[1e308, 1e308]"]]),
        ("index(%s, %s)", [["[]", "[1]"], ["1", "null", '"1"']]),
        ("tonumber(%s)", [['"x"', '"0x10"', '"1e3"', '" 1"']]),
        ("base64decode(%s)", [['"a%"', '"YQ="', '"YQ=="']]),
        ("jsondecode(%s)", [['"{"', '"[1,]"', "\"{\\\"a\\\":1,\\\"a\\\":\\\"x\\\"}\""]]),
        ("zipmap(%s, %s)", [['["a"]', '["a", "a"]'], ["[1, 2]", "[1]"]]),
        ("transpose(%s)", [['{ a = [1] }', '{ a = ["x"] }', "{ a = null }"]]),
        ("setproduct(%s)", [["[]", "[[]]"]]),
        ("coalesce(%s, %s)", [["null", '""'], ["null", '""']]),
        ("lookup(%s, %s)", [["{}", "{ a = 1 }"], ['"a"', '"b"']]),
    ]
    CONTAINS_NULL = ["contains([1, 2], null)", 'contains(["a"], null)',
                     "contains([], null)", "contains([null], null)",
                     "contains(tolist([null]), null)", "contains(null, 1)",
                     "contains(toset([1]), null)", 'contains({ a = 1 }, null)',
                     "contains([1, null], 1)", "!contains([1], null)",
                     "contains([1], null) ? 1 : 2", "can(contains([1], null))",
                     'try(contains(["x"], null), "t")',
                     "contains([tostring(null)], null)",
                     "contains([[1]], null) == true"]
    TEMPLATES = ['"a${%s}b"', '"${%s}"', '"%%{if %s}y%%{else}n%%{endif}"',
                 '"%%{for x in %s}${x},%%{endfor}"',
                 '"%%{for k, x in %s}${k}=${x};%%{endfor}"',
                 '%s == null ? "null" : "v=${%s}"', '"${%s}" == ""']
    TEMPLATE_VALUES = ["null", "1.5", "42", "[1, 2]", '["a"]', "[]",
                       '{ a = 1 }', '{ a = "x", b = [1] }', "{}",
                       'tomap({ a = "x" })', "tolist(null)", "true",
                       'toset(["b", "a"])', '"s"', "[null]", '{ a = null }']

    # Variables of the expressions' directory (EXPR_VARS), none given a
    # value: unknown of their type, as in the validate walk; an index of
    # an unknown tuple is checked against its type (cty's HasIndex).
    EXPR_VARS = ('variable "t0" {\n  type = tuple([])\n}\n'
                 'variable "t1" {\n  type = tuple([string])\n}\n'
                 'variable "t2" {\n  type = tuple([number, string])\n}\n'
                 'variable "l" {\n  type = list(string)\n}\n')
    UNKNOWN_TUPLE = ["can(var.t0[0])", "var.t0[0]", "var.t1[1]", "var.t1[0]",
                     'try(var.t0[0], "d")', "length(var.t2)", "var.t2[1]",
                     "var.t2[-1]", "var.t1[*]", "[for x in var.t2 : x]",
                     "var.t0 == []", "tolist(var.t1)", "element(var.t1, 3)",
                     "var.t2[2]", "can(var.l[0])", "var.l[0]",
                     "concat(var.t1, var.t0)", 'var.t1["0"]', "var.t1[0.5]",
                     "slice(var.t2, 0, 3)", "one(var.t0)", "one(var.t1)",
                     "can(var.t2[1])", "!can(var.t2[5])", 'var.t0["a"]',
                     "try(var.t2[3], var.t2[1])", "length(var.t0) == 0",
                     "var.t1[0] == null", "can(var.t0[*][0])", "var.t2.0",
                     "keys(var.t1)", "var.t2[0] + 1"]

    def special_expr(self):
        """One of the failing kinds above (counted by kind)."""
        r = self.r
        k = r.random()
        if k < 0.15:
            self.kind("expr-unknown-tuple")
            return r.choice(self.UNKNOWN_TUPLE)
        if k < 0.45:
            f, choices = r.choice(self.RUNTIME)
            self.kind("expr-runtime")
            e = f % tuple(r.choice(c) for c in choices)
        elif k < 0.65:
            self.kind("expr-contains-null")
            e = r.choice(self.CONTAINS_NULL)
        else:
            self.kind("expr-template")
            v = r.choice(self.TEMPLATE_VALUES)
            e = r.choice(self.TEMPLATES).replace("%%", "%").replace("%s", v)
        if self.chance(0.15):
            e = r.choice(["try(%s, \"f\")", "can(%s)", "true ? %s : 0",
                          "[%s]", "tostring(%s)"]) % e
        return e

    def expr(self, depth=0):
        r = self.r
        if depth == 0:
            self.cur = set()
            if self.chance(0.2):
                return self.special_expr()
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


def json_message(m, wrap):
    """An error_message expression as a .tf.json string: a literal
    string as its value, else (wrap) the expression in "${...}" (a
    template of one interpolation, the expression's own value)."""
    if m.startswith('"') and not any(x in m for x in ("${", "%{", "\\")):
        return json.loads(m)
    if wrap:
        return "${%s%s}" % (m, "\n" if m.startswith("<<") else "")
    return json.loads(m) if m.startswith('"') and "${" not in m else m.strip('"')


def hcl_to_json(v):
    """The HCL value text of Gen.value as JSON (objects' bare keys quoted)."""
    import re
    return re.sub(r"([{,]\s*)([A-Za-z_][A-Za-z0-9_]*)\s*=", r'\1"\2":',
                  v).replace(" = ", ": ")


def run(argv, cwd, env, stdin=None, stderr_too=False):
    """(status, stdout, and stderr after it with stderr_too)."""
    rc, out, err = harness.run(argv, cwd=cwd,
                               env=harness.child_env(env, lang=None),
                               stdin=stdin, timeout=120)
    return rc, out + (err if stderr_too and rc != -9 else "")


def fmt_range(r):
    if not r:
        return None
    return "%s:%d,%d-%d,%d" % (r.get("filename"), r["start"]["line"],
                               r["start"]["column"], r["end"]["line"],
                               r["end"]["column"])


def cycle_superset(o, u):
    """o with its one "Cycle:" error replaced by u's, when the reference
    (root mode) names in one error every rule it could not order -- the
    rules in cycles and those that wait for them -- where Terraform has
    one error per strongly connected component (internal/dag/dag.go
    Validate: "for _, cycle := range g.Cycles()", errors.Join, which
    tfdiags' diagnosticsForError makes one diagnostic each), each of u's
    inside o's.
    None when that is not the difference."""
    oc = [g for g in o.get("diagnostics", []) if g.get("summary", "").startswith("Cycle:")]
    uc = [g for g in u.get("diagnostics", []) if g.get("summary", "").startswith("Cycle:")]
    if len(oc) != 1 or not uc:
        return None
    onodes = set(cycle_nodes(oc[0]["summary"]))
    unodes = set(n for g in uc for n in cycle_nodes(g["summary"]))
    if [g["summary"] for g in oc] == [g["summary"] for g in uc] or not unodes <= onodes:
        return None
    o = dict(o)
    o["diagnostics"] = [g for g in o["diagnostics"] if g not in oc] + uc
    return o


def compare_module(o, u):
    """The first difference between the reference's result o and ours."""
    o2 = cycle_superset(o, u)
    if o2 is not None:
        return compare_module1(o2, u) or CYCLE_SUPERSET
    return compare_module1(o, u)


def compare_module1(o, u):
    if o.get("valid") != u.get("valid"):
        return "valid: reference %s, tfresolve %s" % (o.get("valid"), u.get("valid"))
    ov, uv = o.get("variables", {}), u.get("variables", {})
    if set(ov) != set(uv):
        return "variables differ: %s vs %s" % (sorted(ov), sorted(uv))
    for n in ov:
        for k in ("type", "value"):
            if ov[n].get(k) != uv[n].get(k):
                return "var.%s %s: reference %s, tfresolve %s" % (
                    n, k, json.dumps(ov[n].get(k), default=str)[:200],
                    json.dumps(uv[n].get(k), default=str)[:200])
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


def compare_child(o, u):
    """The first difference for a module run as the child m (spec mode
    "child"): the reference ran Terraform's graph from the root (-tree),
    tfresolve ran on m as a root.  Compared: validity and the cycles (as
    node sets, the reference's "module.m." taken off).  Nothing else: in
    the validate walk a child's rule sees its own variable's value
    (eval_variable.go, the "HACK" in evalVariableValidations) where a
    root's sees an unknown value (context_validate.go: "input values with
    unknown values of the expected type"), so without a cycle the two
    may fail in different walks, with different errors."""
    o, u = norm_cycles(o, "module.m."), norm_cycles(u)
    if o.get("valid") != u.get("valid"):
        return "valid: reference %s, tfresolve %s" % (o.get("valid"), u.get("valid"))
    errs = lambda doc, f: sorted(
        f(g) for g in doc.get("diagnostics", []) if g["severity"] == "error")
    cyc = lambda g: g["summary"] if g["summary"].startswith("Cycle:") else ""
    oc = [c for c in errs(o, cyc) if c]
    uc = [c for c in errs(u, cyc) if c]
    if oc != uc:
        return "cycles: reference %s; tfresolve %s" % (oc, uc)
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
        p = os.path.join(d, n)
        if os.path.isdir(p):
            out.append(read_all(p))
            continue
        with open(p, errors="replace") as f:
            out.append(f.read())
    return "\n".join(out)


KNOWN_SEEN = {}     # KNOWN entry -> how many differences it explained


def known(text, same_again=None):
    """Whether every string of one KNOWN entry is in text (the first such
    entry is counted in KNOWN_SEEN).  An entry of Go's map order
    (MAP_ORDER) needs evidence: same_again(), a rerun of the reference,
    giving tfresolve's answer once in MAP_ORDER_RUNS runs; so a difference
    that is the same on every run is never taken."""
    for k in KNOWN:
        if all(x in text for x in k):
            if k in MAP_ORDER and not (same_again and any(
                    same_again() for _ in range(MAP_ORDER_RUNS))):
                continue
            KNOWN_SEEN[k] = KNOWN_SEEN.get(k, 0) + 1
            return True
    return False


def again_module(oracle, args, d, env, child, ud):
    """Whether the reference, run again on module d, answers as tfresolve
    did (ud)."""
    if ud is None:
        return False
    _, oo = run([oracle] + (["-tree"] if child else []) + args, d, env)
    try:
        od = json.loads(oo, parse_float=Decimal)
    except ValueError:
        return False
    if child:
        return not compare_child(od, ud)
    return not compare_module(norm_cycles(od), norm_cycles(ud))


def again_expr(oracle, root, e, y):
    """Whether the reference, asked expression e again, answers y."""
    _, oo = run([oracle, "-eval-stdin"], root, {}, e + "\n")
    try:
        return normalize(json.loads(oo.splitlines()[0],
                                    parse_float=Decimal)) == y
    except (ValueError, IndexError):
        return False


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfresolve")
    ap.add_argument("tforacle")
    ap.add_argument("--modules", type=int, default=40)
    ap.add_argument("--exprs", type=int, default=200)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the modules that differ here")
    ap.add_argument("-v", action="store_true")
    ap.add_argument("--kinds", action="store_true",
                    help="print how many inputs of each kind were generated"
                    " and how many of them the reference failed")
    o = ap.parse_args()
    if not os.access(o.tforacle, os.X_OK):
        print("SKIP reference program not built (%s)" % o.tforacle)
        return 77  # meson's "skipped"
    tool = os.path.abspath(o.tfresolve)
    oracle = os.path.abspath(o.tforacle)
    g = Gen(random.Random(o.seed))
    passed = failed = artifacts = order = shown = 0
    fails = {}      # kind -> how many of its modules or expressions failed
    root = tempfile.mkdtemp(prefix="difftest.")

    def count_failing(kinds, bad):
        for k in kinds:
            fails[k] = fails.get(k, 0) + (1 if bad else 0)

    try:
        for i in range(o.modules):
            d = os.path.join(root, "m%05d" % i)
            os.mkdir(d)
            spec = g.module(d)
            args, env = spec["args"], spec["env"]
            child = spec["mode"] == "child"
            _, oo = run([oracle] + (["-tree"] if child else []) + args, d, env)
            _, uo = run([tool, "show", "-json", "-show-sensitive"] + args,
                        os.path.join(d, "m") if child else d, env)
            ud = None
            try:
                od = json.loads(oo, parse_float=Decimal)
                ud = json.loads(uo, parse_float=Decimal)
                count_failing(spec["kinds"], not od.get("valid"))
                if child:
                    diff = compare_child(od, ud)
                else:
                    diff = compare_module(norm_cycles(od), norm_cycles(ud))
            except ValueError:
                diff = "output is not JSON: %s" % (uo or oo)[:300]
            if not diff:
                passed += 1
            elif known(diff + read_all(d), lambda: again_module(
                    oracle, args, d, env, child, ud)):
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
                        json.dump({"args": args, "env": env,
                                   "mode": spec["mode"]}, f)
            shutil.rmtree(d)
        with open(os.path.join(root, "vars.tf"), "w") as f:
            f.write(Gen.EXPR_VARS)
        exprs, ekinds = [], []
        for _ in range(o.exprs):
            exprs.append(g.expr())
            ekinds.append(g.cur)
        _, oo = run([oracle, "-eval-stdin"], root, {}, "\n".join(exprs) + "\n")
        _, uo = run([tool, "eval", "-functions", "-json", "-show-sensitive",
                     "--"] + exprs, root, {})
        ol, ul = oo.splitlines(), uo.splitlines()
        if len(ol) != len(exprs) or len(ul) != len(exprs):
            print("FAIL expressions: %d and %d answers to %d" % (len(ol), len(ul), len(exprs)))
            failed += 1
        for e, a, b, ks in zip(exprs, ol, ul, ekinds):
            try:
                x = normalize(json.loads(a, parse_float=Decimal))
                y = normalize(json.loads(b, parse_float=Decimal))
            except ValueError:
                x, y = a, b
            count_failing(ks, isinstance(x, dict) and "error" in x)
            if x == y:
                passed += 1
            elif known(e + a + b, lambda: again_expr(oracle, root, e, y)):
                artifacts += 1
            elif same_errors(tool, root, e, x, y):
                order += 1
            else:
                failed += 1
                if shown < 20:
                    shown += 1
                    print("FAIL %s\n  reference %s\n  tfresolve %s" % (e, a, b))
                if o.keep:
                    with open(os.path.join(o.keep, "exprs-%d.txt" % o.seed),
                              "a") as f:
                        f.write(e + "\n")
    finally:
        shutil.rmtree(root, ignore_errors=True)
    if o.v or o.kinds:
        print("kind: generated, failed in the reference")
        for k in sorted(g.kinds):
            print("  %-28s %6d %6d" % (k, g.kinds[k], fails.get(k, 0)))
        print("known differences, by KNOWN entry:")
        for k in KNOWN:
            if k in KNOWN_SEEN:
                print("  %6d  %s" % (KNOWN_SEEN[k], " + ".join(k)))
    print("seed %d: %d modules, %d expressions; %d known differences "
          "(see KNOWN), %d errors reported in another order (same_errors)"
          % (o.seed, o.modules, o.exprs, artifacts, order))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
