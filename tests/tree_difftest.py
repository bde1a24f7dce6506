#!/usr/bin/env python3
"""Random differential testing of the module-tree mode against the
reference program's -tree mode (tforacle -tree; its TREE.md).

  tree_difftest.py TFRESOLVE TFORACLE [--trees N] [--seed S] [--keep DIR]
                   [--tree I] [--oracle-only] [-v]

Generates N random module trees (TreeGen below), each in a scratch
directory: a root module (root/) with typed variables (optional()
defaults, any, sensitive, nullable = false, validation rules that fail on
purpose now and then, some referring to other variables), values from
terraform.tfvars, *.auto.tfvars, -var and TF_VAR_ (some of the wrong type
on purpose), local values, null_resource resources (whose attributes are
unknown), outputs, and one to three levels of `module` blocks: local
sources (./modules/NAME, ../NAME, ../shared/NAME, two calls of the same
child), a registry source (terraform-aws-modules/vpc/aws) with and
without .terraform/modules/modules.json (which records every call, local
ones too, as `terraform init` does: Terraform loads them all through
it); arguments from var.*, local.*,
literals, module.X.OUT of sibling calls (known and unknown), resource
attributes, count.index / each.key / each.value; count (known, 0,
invalid, unknown) and for_each (maps, sets of strings, toset, unknown,
sensitive, of the wrong type); child modules with typed variables
(optional defaults, nullable = false, sensitive, ephemeral, deprecated),
validation rules (failing for some values, referring to other variables,
to locals, to resources so that the condition is unknown), locals,
outputs (with and without `type`, sensitive), and now and then a missing
required argument or a misspelt one.  The functions are those both
programs implement (the reference's src/funcs.go).  Issue 37's shapes:
for_each maps whose element is sensitive or ephemeral (a variable, a
local, a module output; literal, merge, for), when the reference judges
them as Terraform does (marked_for_each); function arguments known at
the top that hold an unknown element (flatten, merge, concat, keys,
values, length, element, slice, index, lookup, zipmap, tolist, tomap,
distinct...) in module arguments, locals, outputs, count and for_each;
resource.TYPE.NAME references, declared and not, in outputs and locals.

  tree_difftest.py TFRESOLVE TFORACLE --trees 3000 --seed S   (a campaign;
  or TREE_DIFFTEST_TREES=3000; the suite runs 100 trees of seed 1)

Runs `TFRESOLVE show -json -show-sensitive ARGS` and `TFORACLE -tree
ARGS` in the root directory (environment: PATH, LANG=C.UTF-8 and the
case's TF_VAR_*; 20 s each; where the reference reports "Module not
installed", tfresolve gets -strict, without which it makes that a
warning by its own rule) and compares, whole: validity; the root
variables (type, value -- numbers numerically --, error flag); the module
instances (their addresses; per variable type, value, unknown,
sensitive, error, source.kind and source.file); the errors as multisets
of (severity, summary, detail, range, variable, module); the reference's
warnings (severity, summary, module) must be among ours.  Diagnostics
with "origin": "tfresolve" and fields the reference does not have are
not compared.  Differences that are documented artifacts of the
reference (KNOWN, each with Terraform's source line) are counted apart,
each difference explained on its own; one of Go's map order only when
a rerun of the reference gives tfresolve's answer.  What the reference
does not model is written into its own copy of the tree (emulate):
output preconditions (stand-in outputs, and the output made to wait for
what they read), a root output's deprecated, bad depends_on, provider
functions; and when a root variable's rules read one that failed, the
reference runs again on a copy where that variable fails too, as
Terraform skips every node that reads it (past_skipped_rules).

Prints one line per difference (the first 20 in full; the case kept
under --keep DIR with a file `cmd` holding its arguments and
environment) and "N passed, M failed" last; exit status 1 when any
failed, 77 (meson's SKIP) when TFORACLE is not executable.

--oracle-only runs the reference alone, as a check of the generator: how
many trees are valid, how many got one of the reference's own
"(oracle)" diagnostics, a histogram of the diagnostic summaries by depth
of the module they belong to, and the coverage of the situations the
generator is meant to make (rule failures at depth 1 and 2, argument
type errors, null into non-nullable, unknown values reaching child
rules, sensitive values passed down...).  --tree I runs only tree I of
the seed (to reproduce one case).  Two worker processes.
"""
import argparse
import json
import multiprocessing
import os
import random
import re
import shlex
import shutil
import sys
import tempfile
import time
from decimal import Decimal

import harness

# What the reference program does that Terraform does not: a difference
# whose text (the difference and the tree's files) holds every string of
# an entry is counted apart, not as a failure.  Each entry cites the
# Terraform source (file:line of hashicorp/terraform, or of its hcl and
# go-cty, prefixed hcl/ or cty/) that says what is right; main() refuses
# an entry without one.  An entry with map_order explains a difference by
# Go's map order (the reference picks one of several candidates at
# random): it takes a difference only when the reference, run again,
# gives tfresolve's answer (known_map_order), so it never takes a
# difference that is the same on every run.
class Known:
    def __init__(self, source, *strings, map_order=False):
        self.source, self.strings, self.map_order = source, strings, map_order

    def __repr__(self):
        return "%s (%s%s)" % (" + ".join(self.strings), self.source,
                              ", map order" if self.map_order else "")


SOURCE_LINE = re.compile(r"^((hcl|cty)/)?[\w./-]+\.go:\d+(-\d+)?$")

KNOWN = [
    # The reference's tolist/toset/tomap (src/funcs.go makeToFunc) lack
    # AllowUnknown, so cty returns an unknown argument's result without
    # its marks; Terraform's MakeToFunc allows unknowns and returns
    # UnknownVal(retType).WithSameMarks(arg): a sensitive unknown for_each
    # of the validate walk is Terraform's "Sensitive values ... cannot be
    # used as for_each arguments" error.
    Known("internal/lang/funcs/conversion.go:47-73",
          "Sensitive values, or values derived from sensitive values, cannot "
          "be used as for_each arguments", "sensitive(", "for_each = to"),
    # the same for a child variable given to*(unknown sensitive value):
    # Terraform's is still sensitive; or ephemeral, then an error
    Known("internal/lang/funcs/conversion.go:73",
          "sensitive: reference false, tfresolve true", "= to"),
    Known("internal/lang/funcs/conversion.go:73",
          'tfresolve only ["error", "Ephemeral value not allowed"', "= to"),
    Known("internal/lang/funcs/conversion.go:73",
          'tfresolve only ["error", "Ephemeral value not allowed"', "(to"),
    # ... or a sensitive one in a root output (the validate walk's, where
    # every variable is unknown: node_output.go:456-475 checks outputs in
    # every walk)
    Known("internal/lang/funcs/conversion.go:73",
          'tfresolve only ["error", "Output refers to sensitive values"',
          "= to"),
    # The reference's lookup (src/funcs.go) does not take unknowns, so an
    # unknown or partly unknown map's marks are lost; Terraform's
    # LookupFunc allows them and returns UnknownVal(retType).WithMarks(the
    # map's and key's marks).
    Known("internal/lang/funcs/collection.go:229-305",
          "sensitive: reference false, tfresolve true", "lookup("),
    # the validate walk's sensitive for_each (first entry) stops the run
    # before the plan walk here, where the reference goes on
    Known("internal/terraform/eval_for_each.go:319",
          "module instances: reference only", "= sensitive(", "for_each = to"),
    # The reference's validateForEach asks hasMark, which looks inside the
    # value (UnmarkDeepWithPaths); Terraform's validateResourceOrActionForEach
    # asks marks.Has(forEachVal, marks.Sensitive), the value's own marks
    # (internal/lang/marks/marks.go:21-24, Has: val.HasMark), and a map
    # keeps its elements' marks on the elements (cty MapVal): a map of
    # sensitive values with known keys is a valid for_each in Terraform.
    Known("internal/terraform/eval_for_each.go:319",
          'reference only ["error", "Invalid for_each argument", "Sensitive '
          'values, or values derived', "{ a = "),
    # A module call's for_each is validated in the validate walk too, in
    # the one unexpanded instance of its caller, before its value is known:
    # a value sensitive as a whole is Terraform's error there, and plan
    # never runs (internal/terraform/node_module_expand.go:290-300,
    # eval_for_each.go:71-88); the reference checks it only in the plan
    # walk, in each instance of the caller
    Known("internal/terraform/node_module_expand.go:290-300",
          'tfresolve only ["error", "Invalid for_each argument", "Sensitive '
          'values, or values derived', "sensitive("),
    Known("internal/terraform/node_module_expand.go:290-300",
          'reference only ["error", "Invalid for_each argument", "Sensitive '
          'values, or values derived', "sensitive("),
    # cty names one of an object's bad attributes (or, converting an object
    # to a map, one of its bad elements), the first it meets in Go's map
    # order, which changes from run to run
    Known("cty/cty/convert/mismatch_msg.go:81-116", 'attribute \\"',
          "suitable", map_order=True),
    Known("cty/cty/convert/mismatch_msg.go:184-191", 'element \\"',
          "suitable", map_order=True),
]

# Differences the comparison takes away before it compares, each a rule
# of tfresolve's own (README: a sensitive value's keys and names are not
# quoted, even with -show-sensitive) where Terraform quotes a part of a
# value that is or holds a sensitive value (hcl/hclsyntax/expression.go:1621-1624
# "Duplicate object key" with %q of the key; internal/terraform/
# eval_variable.go:121 a conversion error's path): a diagnostic of ours
# that is the reference's with some of its Go-quoted parts written
# "(sensitive value)" (and the diagnostic holds the note that says so)
# is the reference's (redacted_match).  Nothing else is taken away.
REDACTED = "(sensitive value)"
REDACTION_NOTE = "(sensitive value) stands for"

TIMEOUT = 20

# ---------------------------------------------------------------- types

WORDS = ["web", "db", "app", "prod", "dev", "eu-west-1"]
ODD_WORDS = ["x-1", "Zz", "", "10.0.0.0/16"]    # some rules fail for these
VAR_NAMES = ["name", "env", "size", "tags", "zones", "enabled", "label",
             "cidr", "owner", "port", "settings", "items", "region",
             "prefix", "replicas", "config", "ids", "flags", "team", "tier"]
MOD_NAMES = ["app", "net", "db", "cache", "dns", "iam", "logs", "queue",
             "web", "api", "store", "mon"]
OBJ_ATTRS = {"name": "string", "size": "number", "tags": ("map", "string"),
             "enabled": "bool", "zones": ("list", "string")}
OBJ_DEFAULTS = {"name": ['"dflt"'], "size": ["1", "3"],
                "tags": ["{}", '{ a = "x" }'], "enabled": ["true", "false"],
                "zones": ["[]", '["a"]']}


def type_text(t):
    if isinstance(t, str):
        return t
    k = t[0]
    if k in ("list", "set", "map"):
        return "%s(%s)" % (k, type_text(t[1]))
    parts = []
    for n, (at, opt, dflt) in t[1].items():
        s = type_text(at)
        if opt:
            s = "optional(%s%s)" % (s, ", " + dflt if dflt is not None else "")
        parts.append("%s = %s" % (n, s))
    return "object({ %s })" % ", ".join(parts)


def same_type(a, b):
    """Whether a value of type a is one of type b (objects: the same
    attributes of the same types)."""
    if isinstance(a, str) or isinstance(b, str):
        return a == b
    if a[0] != b[0]:
        return False
    if a[0] == "object":
        return (set(a[1]) == set(b[1]) and
                all(same_type(a[1][n][0], b[1][n][0]) for n in a[1]))
    return same_type(a[1], b[1])


def deps(text, ldeps, cdeps=None):
    """The variables an expression depends on, through local values
    (ldeps) and module calls (cdeps)."""
    out = set(re.findall(r"\bvar\.(\w+)", text))
    for ln in re.findall(r"\blocal\.(\w+)", text):
        out |= ldeps.get(ln, set())
    for cn in re.findall(r"\bmodule\.(\w+)", text):
        out |= (cdeps or {}).get(cn, set())
    return out


class Ref:
    """Something an expression of a module can refer to."""
    def __init__(self, text, t, sens=False, unknown=False, eph=False,
                 kind="var"):
        self.text, self.t, self.sens = text, t, sens
        self.unknown, self.eph, self.kind = unknown, eph, kind
        self.marked_elems = False   # a map whose element "a" is marked


class Scope:
    def __init__(self, has_resource):
        self.refs = []
        self.res = has_resource
        self.count = False          # count.index is bound (call arguments)
        self.each = None            # each.value's type (call arguments)

    def of(self, t, known_only=False):
        return [x for x in self.refs if x.t is not None and same_type(x.t, t)
                and not x.eph and not (known_only and x.unknown)]


# ---------------------------------------------------------------- generator

def manifest(rootdef):
    """The records `terraform init` writes: one per call path (Key: the
    call names, dotted), local calls too, each source as
    ParseModuleSource prints it (src/module/source.c) and Dir relative to
    the root, as Terraform's loader reads them (loader_load.go:45-93)."""
    recs = [{"Key": "", "Source": "", "Dir": "."}]

    def walk(d, prefix, ddir):
        for cn, child in d.get("called", []):
            key = prefix + cn
            if child.get("registry"):
                cdir = ".terraform/modules/vpc"
                recs.append({"Key": key, "Source": "registry.terraform.io/"
                             "terraform-aws-modules/vpc/aws",
                             "Version": "5.0.0", "Dir": cdir})
            else:
                # Dir: filepath.Join of the caller's and the source, as
                # the installer records it (not the canonical path)
                rel = os.path.relpath(child["dir"], d["dir"])
                cdir = os.path.normpath(os.path.join(ddir, rel))
                recs.append({"Key": key, "Source": rel if rel.startswith("..")
                             else "./" + rel, "Dir": cdir})
            walk(child, key + ".", cdir)
    walk(rootdef, "", ".")
    return sorted(recs, key=lambda x: x["Key"])


class TreeGen:
    """Writes random module trees.  tree(d) writes one under d (the root
    module in d/root) and returns its spec: args, env, the module
    definitions by directory (relative to the root), the kinds of input
    it made."""

    def __init__(self, rnd, marked_for_each=True):
        self.r = rnd
        self.cur = set()
        # for_each over maps with marked elements (see marked_for_each())
        self.marked_for_each = marked_for_each
        self.patches = []   # the reference's copy of the tree (see emulate)
        self.marks = 0

    def chance(self, p):
        return self.r.random() < p

    def kind(self, k):
        self.cur.add(k)

    # ---- types and literal values ----------------------------------------
    def type_(self, root=False):
        r = self.r
        k = r.choices(["string", "number", "bool", "list", "set", "map",
                       "mapn", "object", "listobj", "any"],
                      [3, 2, 1, 1.5, 0.5, 1, 0.5, 1.5, 0.4, 0.6])[0]
        if k in ("string", "number", "bool", "any"):
            return k
        if k in ("list", "set", "map"):
            return (k, "string")
        if k == "mapn":
            return ("map", "number")
        obj = self.obj_type()
        return ("list", obj) if k == "listobj" else obj

    def obj_type(self):
        r = self.r
        attrs = {}
        for n in sorted(r.sample(sorted(OBJ_ATTRS), r.randint(1, 3))):
            opt = self.chance(0.5)
            dflt = None
            if opt and self.chance(0.6):
                dflt = r.choice(OBJ_DEFAULTS[n])
                self.kind("optional-default")
            attrs[n] = (OBJ_ATTRS[n], opt, dflt)
        return ("object", attrs)

    def value(self, t, wrong=0.0, null=0.01):
        """A literal of type t (HCL), now and then (wrong) of another."""
        r = self.r
        if self.chance(wrong):
            self.kind("value-wrong-type")
            return r.choice(['"oops"', "true", '["a", 1]', "{ a = 1 }", "42",
                             "[[1]]"])
        if self.chance(null):
            return "null"
        if t == "string":
            return json.dumps(r.choice(ODD_WORDS if self.chance(0.09)
                                       else WORDS))
        if t == "number":
            if self.chance(0.1):
                return r.choice(["-1", "1.5", "100"])
            return r.choice(["0", "1", "2", "3", "4", "5", "2", "1", '"3"'])
        if t == "bool":
            return r.choice(["true", "false", "true", '"true"'])
        if t == "any":
            return self.value(r.choice(["string", "number", "bool",
                                        ("list", "string"),
                                        ("map", "number")]))
        k = t[0]
        if k in ("list", "set"):
            return "[%s]" % ", ".join(self.value(t[1], null=0)
                                      for _ in range(r.choice([0, 1, 2, 2, 3])))
        if k == "map":
            keys = r.sample(["a", "b", "web", "db"], r.randint(0, 3))
            return "{ %s }" % ", ".join('%s = %s' % (json.dumps(x),
                                                    self.value(t[1], null=0))
                                       for x in keys)
        items = []
        for n, (at, opt, _) in t[1].items():
            if opt and self.chance(0.4):
                continue
            items.append("%s = %s" % (n, self.value(at, null=0)))
        return "{ %s }" % ", ".join(items)

    # ---- expressions --------------------------------------------------------
    def ref(self, sc, t, known_only=False):
        c = sc.of(t, known_only)
        return self.r.choice(c) if c else None

    def expr(self, sc, t, wrong=0.007, depth=0):
        """An expression of type t in scope sc (mostly: now and then one of
        another type, or one that is not known)."""
        r = self.r
        if self.chance(wrong):
            self.kind("arg-wrong-type")
            other = r.choice([x for x in ["string", "number", "bool",
                                          ("list", "string"),
                                          ("map", "string")]
                              if x != t and t != "any"] or ["number"])
            return self.expr(sc, other, 0, depth + 1)
        if sc.res and depth == 0 and self.chance(0.05):
            self.kind("arg-unknown")
            if t == "string":
                return r.choice(["null_resource.r.id",
                                 '"${null_resource.r.id}-x"'])
            if isinstance(t, tuple) and t[0] == "object":
                return self.obj_expr(sc, t, depth, unknown=True)
            return "null_resource.r.triggers"
        if depth == 0 and self.chance(0.06):
            e = self.partly_unknown(sc, t)
            if e is not None:
                return e
        if sc.count and self.chance(0.25) and t in ("number", "string", "any"):
            self.kind("count.index")
            return "count.index" if t != "string" else '"n-${count.index}"'
        if sc.each is not None and self.chance(0.3):
            if t == "string" or t == "any":
                self.kind("each.key")
                return r.choice(["each.key", '"${each.key}-x"'])
            if same_type(sc.each, t):
                self.kind("each.value")
                return "each.value"
        eph = [x for x in sc.refs if x.eph]
        if eph and depth == 0 and self.chance(0.15):
            self.kind("arg-ephemeral")
            return self.r.choice(eph).text
        if self.chance(0.03):
            self.kind("arg-sensitive()")
            return "sensitive(%s)" % self.expr(sc, t, 0, depth + 1)
        k = r.random()
        if k < 0.3 or depth > 1:
            return self.value(t)
        x = self.ref(sc, t)
        if k < 0.7 and x is not None:
            self.kind("ref-" + x.kind)
            if x.unknown:
                self.kind("ref-unknown-" + x.kind)
            if x.sens:
                self.kind("ref-sensitive")
            return x.text
        d = self.derived(sc, t, depth)
        if d is not None:
            return d
        return self.value(t)

    def obj_expr(self, sc, t, depth, unknown=False):
        items = []
        for n, (at, opt, _) in t[1].items():
            if opt and self.chance(0.4):
                continue
            if unknown and at == "string":
                items.append("%s = null_resource.r.id" % n)
                unknown = False
            else:
                items.append("%s = %s" % (n, self.expr(sc, at, 0, depth + 1)))
        return "{ %s }" % ", ".join(items)

    def derived(self, sc, t, depth):
        """An expression of type t computed from references (functions,
        templates, for expressions)."""
        r = self.r
        s = self.ref(sc, "string")
        n = self.ref(sc, "number")
        l = self.ref(sc, ("list", "string"))
        m = self.ref(sc, ("map", "string"))
        st = self.ref(sc, ("set", "string"))
        b = self.ref(sc, "bool")
        s, n, l, m, st, b = [x.text if x else None for x in (s, n, l, m, st, b)]
        o = []
        if t == "string":
            if s:
                o += ['"${%s}-x"' % s, "lower(%s)" % s, "lower(%s)" % s,
                      'coalesce(%s, "d")' % s, 'format("%%s-1", %s)' % s,
                      'try(%s, "t")' % s]
            if n:
                o += ["tostring(%s)" % n, 'format("n%%d", %s)' % n]
            if l:
                o += ['join(",", %s)' % l]
            if m:
                o += ['lookup(%s, "a", "none")' % m]
            if b:
                o += ['%s ? "web" : "db"' % b]
        elif t == "number":
            if l:
                o += ["length(%s)" % l]
            if m:
                o += ["length(keys(%s))" % m]
            if s:
                o += ["length(%s)" % s]
            if n:
                o += ["max(%s, 1)" % n, "min(%s, 3)" % n, "%s + 1" % n]
            o += ['tonumber("3")']
        elif t == "bool":
            if l:
                o += ['contains(%s, "web")' % l]
            if n:
                o += ["%s > 2" % n]
            if s:
                o += ['startswith(%s, "w")' % s, 'can(regex("^w", %s))' % s]
            if b:
                o += ["!%s" % b, "alltrue([%s, true])" % b,
                      "anytrue([%s, false])" % b]
        elif t == ("list", "string"):
            if m:
                o += ["keys(%s)" % m, "values(%s)" % m]
            if s:
                o += ['split(",", %s)' % s, '[%s, "x"]' % s]
            if l:
                o += ['concat(%s, ["z"])' % l, "[for x in %s : upper(x)]" % l,
                      "compact(%s)" % l]
            if st:
                o += ["tolist(%s)" % st]
        elif t == ("set", "string"):
            if l:
                o += ["toset(%s)" % l]
            if s:
                o += ["toset([%s])" % s]
        elif t == ("map", "string"):
            if m:
                o += ['merge(%s, { extra = "v" })' % m]
            if l:
                o += ["{ for x in %s : x => upper(x) }" % l]
            if s:
                o += ["tomap({ a = %s })" % s]
        elif t == ("map", "number"):
            if n:
                o += ["{ a = %s, b = 2 }" % n]
        elif isinstance(t, tuple) and t[0] == "object":
            return self.obj_expr(sc, t, depth)
        elif isinstance(t, tuple) and t[0] == "list" and \
                isinstance(t[1], tuple) and t[1][0] == "object":
            return "[%s]" % self.obj_expr(sc, t[1], depth)
        elif t == "any":
            x = self.r.choice(sc.refs) if sc.refs else None
            if x is not None and not x.eph:
                return x.text
        if not o:
            return None
        self.kind("arg-derived")
        return r.choice(o)

    # ---- issue 37's shapes: partly unknown arguments, marked elements ------
    def unknown_part(self, sc):
        """An unknown string for a function argument's element: a
        resource attribute (now and then through resource.), a template
        of one, or an unknown reference of the scope."""
        r = self.r
        c = [x.text for x in sc.refs if x.unknown and x.t == "string" and
             not x.eph]
        if c and self.chance(0.3):
            self.kind("partly-unknown-via-ref")
            return r.choice(c)
        if self.chance(0.2):
            self.kind("resource.-ref")
            return "resource.null_resource.r.id"
        return r.choice(["null_resource.r.id", '"${null_resource.r.id}-u"'])

    def known_part(self, sc, word):
        """A known string for a function argument's element: a literal, or
        now and then a sensitive reference (marks beside the unknown)."""
        c = [x.text for x in sc.refs if x.sens and x.t == "string" and
             not x.unknown and not x.eph]
        if c and self.chance(0.2):
            self.kind("partly-unknown-with-sensitive")
            return self.r.choice(c)
        return json.dumps(word)

    def partly_unknown(self, sc, t):
        """An expression of type t whose function arguments are known at
        the top but hold an unknown element (cty calls the function; the
        unknown stays inside), or None for a type it does not make."""
        if not sc.res or not (isinstance(t, str) or t in (
                ("list", "string"), ("set", "string"), ("map", "string"))):
            return None
        r = self.r
        u = self.unknown_part(sc)
        a, b = self.known_part(sc, "a"), self.known_part(sc, "b")
        lst = r.choice(['[%s, %s]' % (a, u), '[%s, %s, %s]' % (u, a, b)])
        mp = r.choice(['merge({ a = %s }, { b = %s })' % (a, u),
                       'zipmap(["a", "b"], [%s, %s])' % (a, u),
                       'tomap({ a = %s, b = %s })' % (a, u),
                       '{ for k, v in merge({ a = %s }, { b = %s }) : k => v }'
                       % (a, u),
                       'merge(flatten([for k in ["a", "b"] : [{ (k) = %s }]])...)'
                       % u])
        o = {
            "number": ["length(flatten([[%s], [%s]]))" % (a, u),
                       "length(concat([%s], [%s]))" % (a, u),
                       "length(keys(%s))" % mp, "length(%s)" % mp,
                       "length(values(%s))" % mp,
                       "length(distinct(%s))" % lst,
                       "length(slice(%s, 0, 2))" % lst,
                       "length(tolist(%s))" % lst,
                       "length(compact(%s))" % lst,
                       "index(%s, %s)" % (lst, a)],
            "string": ["element(%s, 0)" % lst, "element(concat([%s], [%s]), 1)"
                       % (a, u), 'lookup(%s, "a", "d")' % mp,
                       'lookup(%s, "b", "d")' % mp, 'join(",", %s)' % lst,
                       "keys(%s)[0]" % mp, 'coalesce(%s, "d")' % u,
                       'one([%s])' % u, 'format("%%s-%%s", %s, %s)' % (a, u),
                       'try(element(%s, 5), "t")' % lst],
            ("list", "string"): ["concat([%s], [%s])" % (a, u),
                                 "flatten([[%s], [%s]])" % (a, u),
                                 "slice(%s, 0, 2)" % lst, "keys(%s)" % mp,
                                 "values(%s)" % mp, "tolist(%s)" % lst,
                                 "distinct(%s)" % lst, "compact(%s)" % lst,
                                 "reverse(%s)" % lst, "sort(%s)" % lst,
                                 "[for x in %s : x]" % lst],
            ("set", "string"): ["toset(%s)" % lst,
                                "toset(concat([%s], [%s]))" % (a, u),
                                "toset(keys(%s))" % mp],
            ("map", "string"): [mp],
            "bool": ["contains(%s, %s)" % (lst, a),
                     "length(concat([%s], [%s])) == 2" % (a, u),
                     'alltrue([true, %s == "x"])' % u,
                     'anytrue([true, %s == "x"])' % u,
                     'contains(keys(%s), "a")' % mp],
            "any": [lst, mp],
        }.get(t)
        if not o:
            return None
        self.kind("partly-unknown-" + (t if isinstance(t, str) else t[0]))
        return r.choice(o)

    def marked_elements(self, sc):
        """A map of strings with known keys "a" and "b" whose element "a"
        is sensitive or ephemeral (a variable, a local, a module output),
        written as a literal, through merge or a for expression, and
        whether it is ephemeral; or (None, False) when the scope has no
        marked string."""
        c = [x for x in sc.refs if (x.sens or x.eph) and x.t == "string" and
             not x.unknown]
        if not c:
            return None, False
        x = self.r.choice(c)
        self.kind("marked-elements-%s-%s" % ("ephemeral" if x.eph
                                              else "sensitive", x.kind))
        return self.r.choice(['{ a = %s, b = "y" }' % x.text,
                              'merge({ a = %s }, { b = "y" })' % x.text,
                              '{ for k, v in { a = %s, b = "y" } : k => v }'
                              % x.text]), x.eph

    def for_each_shape(self, sc, *dflt):
        """A for_each of issue 37's shapes (with its keys, each.value's
        type and its kind): a map with a marked element (literal, local,
        module output), or one whose keys are known and values not
        (through merge, zipmap, keys, flatten...); dflt when the scope
        makes none."""
        r = self.r
        c = []
        me, _ = self.marked_elements(sc) if self.marked_for_each else (None, 0)
        if me is not None:
            c.append((me, ["a", "b"], "string", "marked-elements"))
        for x in sc.refs:
            if x.marked_elems and self.marked_for_each:
                c.append((x.text, ["a", "b"], "string", "local-marked-elements"))
        if sc.res:
            u = self.unknown_part(sc)
            mp = ['merge({ a = "x" }, { b = %s })' % u,
                  'zipmap(["a", "b"], ["x", %s])' % u,
                  'tomap({ a = "x", b = %s })' % u,
                  '{ for k, v in merge({ a = "x" }, { b = %s }) : k => v }' % u]
            c += [(x, ["a", "b"], "string", "partly-unknown-map") for x in mp]
            c += [("toset(keys(%s))" % r.choice(mp), ["a", "b"], "string",
                   "partly-unknown-keys"),
                  ('toset(concat(["a"], [%s]))' % u, None, "string",
                   "partly-unknown-set"),
                  ('merge(flatten([for k in ["a", "b"] : [{ (k) = merge({ n = k '
                   '}, { id = %s }) }]])...)' % u, ["a", "b"], "none",
                   "partly-unknown-merge-flatten")]
        if not c:
            return dflt
        return r.choice(c)

    # ---- validation rules -------------------------------------------------
    def cond(self, v, t):
        """A condition on v (of type t) that holds for most values (the
        last of each list fails more often: weight 1 in 8)."""
        r = self.r

        def pick(c):
            if self.chance(0.12):
                self.kind("rule-likely-to-fail")
                return c[-1].replace("%s", v)
            return r.choice(c[:-1]).replace("%s", v)
        if t == "string":
            return pick(["length(%s) > 0", 'can(regex("^[a-zA-Z0-9./-]*$", %s))',
                         '%s != "Zz"', '!startswith(%s, "x")',
                         "length(%s) <= 12", "lower(%s) == %s",
                         'contains(["web", "db", "app", "prod", "dev", "eu-west-1"], %s)'])
        if t == "number":
            return pick(["%s >= 0", "%s < 50", "floor(%s) == %s", "%s != 7",
                         "%s < 3"])
        if t == "bool":
            return pick(["%s != null", "%s || true", "%s"])
        if t == "any":
            return pick(["%s != null", "length(jsonencode(%s)) < 100",
                         'jsonencode(%s) != "3"'])
        k = t[0]
        if k in ("list", "set") and t[1] == "string":
            return pick(["length(%s) < 5",
                         "alltrue([for s in %s : length(s) > 0])",
                         '!contains(%s, "Zz")', "length(%s) > 0"])
        if k == "list":
            return pick(["length(%s) <= 4",
                         "alltrue([for o in %s : o != null])",
                         "length(%s) < 2"])
        if k == "map":
            c = ["length(keys(%s)) <= 4",
                 "alltrue([for k, x in %s : length(k) > 0])",
                 '!contains(keys(%s), "zz")']
            if t[1] == "number":
                c.append("alltrue([for k, x in %s : x >= 0])")
            return pick(c + ['!contains(keys(%s), "db")'])
        attrs = t[1]
        c = []
        if "name" in attrs:
            c.append('%s.name != ""' if not attrs["name"][1]
                     else '%s.name == null || %s.name != ""')
        if "size" in attrs:
            c.append("%s.size >= 0" if not attrs["size"][1]
                     else "%s.size == null || %s.size >= 0")
        if "zones" in attrs and not attrs["zones"][1]:
            c.append("length(%s.zones) < 3")
        c.append("%s != null")
        return pick(c + ['%s == null || jsonencode(%s) != "{}"'])

    def rules(self, name, decl, others, locals_, mods, sc, child):
        """Validation rules for var.name: mostly on itself; some refer to
        another variable, a local value, a resource (unknown condition),
        path.module or a module output (children only: the root's rules
        may refer to variables alone in the reference).  So that the
        graph has no cycle, others are the variables before name, locals_
        the local values and mods the module outputs that depend on no
        variable -- but now and then (rule-cycle-possible) any."""
        r = self.r
        t = decl["type"]
        v = "var." + name
        out = []
        for _ in range(r.choices([0, 1, 2], [0.6, 0.3, 0.1])[0]):
            c = self.cond(v, t)
            k = r.random()
            if others[1] and self.chance(0.01):
                others = (others[1], others[1])
                self.kind("rule-cycle-possible")
            if others[0] and k < 0.15:
                o = r.choice(others[0])
                c = r.choice(["(%s) && var.%s != null" % (c, o),
                              "var.%s == null || (%s)" % (o, c),
                              '(%s) || jsonencode(var.%s) == "[]"' % (c, o)])
                self.kind("rule-ref-other-var")
            elif child and locals_ and k < 0.23:
                c = '(%s) || local.%s == "zz"' % (c, r.choice(locals_))
                self.kind("rule-ref-local")
            elif child and sc.res and k < 0.3:
                c = r.choice(['null_resource.r.id != "" && (%s)' % c,
                              '(%s) || null_resource.r.id == "zz"' % c])
                self.kind("rule-ref-resource")
            elif child and k < 0.31:
                c = '(%s) && path.module != ""' % c
                self.kind("rule-ref-path")
            elif child and k < 0.33 and sc.refs and any(x.kind == "module"
                                                        for x in sc.refs):
                x = r.choice([x for x in sc.refs if x.kind == "module"])
                if x.text not in mods and not self.chance(0.1):
                    continue
                c = '(%s) || %s == "zz"' % (c, x.text)
                self.kind("rule-ref-module-output")
            if isinstance(t, str) and t != "any":
                msg = r.choice(['"%s is not valid."' % name,
                                '"%s got ${jsonencode(%s)}."' % (name, v),
                                '"${%s == null ? "null" : "bad"} %s."' % (v, name),
                                '"Bad %s: ${%s}."' % (name, v)])
            else:
                msg = r.choice(['"%s is not valid."' % name,
                                '"%s got ${jsonencode(%s)}."' % (name, v)])
            out.append((c, msg))
        return out

    # ---- variables ------------------------------------------------------------
    def variables(self, root):
        r = self.r
        out = {}
        n = r.randint(2, 5) if root else r.randint(1, 4)
        for name in r.sample(VAR_NAMES, n):
            t = self.type_(root)
            decl = {"type": t}
            if self.chance(0.45 if root else 0.5):
                decl["default"] = self.value(t, null=0.03)
            if self.chance(0.12) and (decl.get("default") != "null" or
                                      self.chance(0.05)):
                decl["nullable"] = False
                self.kind("nullable-false")
            if self.chance(0.1):
                decl["sensitive"] = True
                self.kind("sensitive-var")
            if not root and self.chance(0.015):
                decl["ephemeral"] = True
                decl.setdefault("default", self.value(t, null=0))
                self.kind("ephemeral-var")
            if not root and self.chance(0.03):
                decl["deprecated"] = "Use something else."
                self.kind("deprecated-var")
            out[name] = decl
        if self.chance(0.3):
            out["secret"] = {"type": "string", "sensitive": True,
                             "default": '"s3cr3t"'}
            self.kind("secret-var")
        if not root and self.chance(0.12):
            out["tokn"] = {"type": "string", "ephemeral": True,
                           "default": '"e"'}
            self.kind("ephemeral-var")
        if root and self.chance(0.06):
            out["tok"] = {"type": "string", "ephemeral": True, "default": '"t"'}
            self.kind("ephemeral-root-var")
        return out

    def decl_text(self, name, d):
        out = ['variable "%s" {' % name, "  type = %s" % type_text(d["type"])]
        if "default" in d:
            out.append("  default = %s" % d["default"])
        if d.get("nullable") is False:
            out.append("  nullable = false")
        if d.get("sensitive"):
            out.append("  sensitive = true")
        if d.get("ephemeral"):
            out.append("  ephemeral = true")
        if "deprecated" in d:
            out.append("  deprecated = %s" % json.dumps(d["deprecated"]))
        for c, m in d.get("rules", []):
            out += ["  validation {", "    condition     = %s" % c,
                    "    error_message = %s" % m, "  }"]
        out.append("}")
        return "\n".join(out)

    # ---- a module -------------------------------------------------------------
    def module(self, mdef, children, defs, root):
        """Fills mdef (name, dir) with variables, locals, resources, calls
        of the definitions in children, outputs; returns its files' text
        by file name."""
        r = self.r
        mdef["vars"] = vs = self.variables(root)
        sc = Scope(self.chance(0.6 if root else 0.5))
        mdef["res"] = sc.res
        for n, d in vs.items():
            sc.refs.append(Ref("var." + n, d["type"], d.get("sensitive", False),
                               eph=d.get("ephemeral", False)))
        # locals
        locs = []
        ldeps = {}      # local -> the variables it depends on
        for i in range(r.choice([0, 0, 1, 2, 3])):
            t = r.choice(["string", "number", ("list", "string"),
                          ("map", "string"), "bool"])
            unknown = sc.res and self.chance(0.15)
            pu = None if unknown or not self.chance(0.2) else \
                self.partly_unknown(sc, t)
            if unknown:
                e = r.choice(['"${null_resource.r.id}-l"', "null_resource.r.id",
                              "resource.null_resource.r.id",
                              '"${resource.null_resource.r.id}-l"'])
                t = "string"
                self.kind("local-unknown")
                if e.count("resource.") == 2:
                    self.kind("resource.-ref")
            elif pu is not None:
                e, unknown = pu, True
                self.kind("local-partly-unknown")
            else:
                e = self.expr(sc, t, 0.02)
            ln = "l%d" % i
            locs.append((ln, e))
            ldeps[ln] = deps(e, ldeps)
            sens = any(x.sens and x.text in e for x in sc.refs)
            sc.refs.append(Ref("local." + ln, t, sens, unknown=unknown,
                               kind="local"))
        me, me_eph = self.marked_elements(sc) if self.chance(0.35) \
            else (None, False)
        if me is not None:
            locs.append(("sm", me))
            ldeps["sm"] = deps(me, ldeps)
            x = Ref("local.sm", ("map", "string"), kind="local",
                    eph=me_eph)
            x.marked_elems = True
            sc.refs.append(x)
            self.kind("local-marked-elements")
        if any(d.get("ephemeral") for d in vs.values()) and self.chance(0.4):
            en = [n for n, d in vs.items() if d.get("ephemeral")][0]
            locs.append(("eph", "var." + en))
        pf = self.provider_function(sc) if self.chance(0.06) else None
        if pf is not None:
            locs.append(("pf", pf["expr"]))
            ldeps["pf"] = deps(pf["expr"], ldeps)
        # calls
        calls = []
        cdeps = {}      # call -> the variables its block depends on
        used = set()
        for child in children:
            twice = self.chance(0.2) and not child.get("registry")
            for _ in range(2 if twice else 1):
                cn = child["name"]
                if cn in used:
                    cn = "%s_%d" % (cn, len(used))
                    self.kind("same-child-twice")
                used.add(cn)
                calls.append(self.call(cn, child, mdef, sc))
                cdeps[cn] = deps(calls[-1]["text"], ldeps, cdeps)
                # later calls may use this one's outputs
                self.add_module_refs(sc, cn, child, calls[-1])
        mdef["calls"] = calls
        # rules (after the calls: a child's rule may read a module output)
        names = sorted(vs)
        free_locals = [ln for ln, e in locs if not deps(e, ldeps)]
        free_mods = [x.text for x in sc.refs if x.kind == "module" and
                     not cdeps.get(x.text.split(".")[1].split("[")[0])]
        for n, d in vs.items():
            d["rules"] = self.rules(n, d, ([x for x in names if x < n],
                                           [x for x in names if x != n]),
                                    free_locals, free_mods, sc, not root)
        # outputs
        outs = {}
        for i in range(r.randint(1, 3)):
            on = "o%d" % i
            outs[on] = self.output(sc, root)
        if self.chance(0.05 if root else 0.04):
            # Terraform 1.15's deprecated outputs: an error in the root
            # (internal/terraform/node_output.go:522-530), a child's is
            # allowed (its value marked, a warning where it is used)
            outs["od"] = {"expr": '"x"', "t": "string", "unknown": False,
                          "deprecated": "Use o0 instead."}
            self.kind("output-deprecated-" + ("root" if root else "child"))
        for on, o in outs.items():
            if self.chance(0.12) and not o.get("typed") and not o.get("eph") \
                    and "\n" not in o["expr"] \
                    and not (root and o.get("refsens") and not o.get("sens")):
                o["pre"] = [self.precondition(sc, on, k, root or any(
                                d.get("ephemeral") for d in vs.values()))
                            for k in range(r.choice([1, 1, 2]))]
                self.kind("output-precondition")
        mdef["outputs"] = outs
        # files
        main = []
        if sc.res:
            main.append('resource "null_resource" "r" {}')
        if locs:
            main.append("locals {\n%s\n}" % "\n".join(
                "  %s = %s" % kv for kv in locs))
        call_text = [c["text"] for c in calls]
        out_text = []
        for on, o in outs.items():
            lines = ['output "%s" {' % on, "  value = %s" % o["expr"]]
            if o.get("badtype"):
                lines.append("  type = %s" % o["badtype"])
            elif o.get("typed"):
                lines.append("  type = %s" % type_text(o["t"]))
            if "deprecated" in o:
                lines.append("  deprecated = %s" % json.dumps(o["deprecated"]))
            for c, m in o.get("pre", []):
                lines += ["  precondition {", "    condition     = %s" % c,
                          "    error_message = %s" % json.dumps(m), "  }"]
            if o.get("sens"):
                lines.append("  sensitive = true")
            if o.get("eph"):
                lines.append("  ephemeral = true")
            lines.append("}")
            out_text.append("\n".join(lines))
        decls = [self.decl_text(n, d) for n, d in vs.items()]
        files = {}
        if self.chance(0.3):
            files["variables.tf"] = decls
            files["main.tf"] = main + call_text
            files["outputs.tf"] = out_text
        elif root and self.chance(0.3):
            files["main.tf"] = decls + main + out_text
            files["modules.tf"] = call_text
        else:
            files["main.tf"] = decls + main + call_text + out_text
        if pf is not None and pf["required"]:
            files["main.tf"] = [
                'terraform {\n  required_providers {\n    %s = {\n      '
                'source = "hashicorp/%s"\n    }\n  }\n}' % (pf["p"], pf["p"])
            ] + files["main.tf"]
        texts = {k: "\n\n".join(v) + "\n" for k, v in files.items() if v}
        self.emulate(mdef, texts, root, outs, calls, pf)
        return texts

    def output(self, sc, root):
        r = self.r
        o = {}
        k = r.random()
        mods = [x for x in sc.refs if x.kind == "module"]
        if sc.res and k < 0.12:
            o["expr"] = r.choice(["null_resource.r.id", '"${null_resource.r.id}"'])
            o["t"] = "string"
            o["unknown"] = True
            self.kind("output-unknown")
        elif sc.res and k < 0.2:
            # resource.TYPE.NAME (terraform internal/addrs/parse_ref.go:236)
            o["expr"], o["t"] = r.choice([
                ("resource.null_resource.r.id", "string"),
                ('"${resource.null_resource.r.id}"', "string"),
                ("resource.null_resource.r", None),
                ('[resource.null_resource.r.id, "a"]', ("list", "string"))])
            o["unknown"] = True
            self.kind("output-resource.-ref")
        elif 0.2 <= k < 0.205:
            # an undeclared one: Terraform's "Reference to undeclared
            # resource" (internal/terraform/evaluate_valid.go:234-245);
            # not `resource.x`, Terraform's "Invalid reference"
            # (internal/addrs/parse_ref.go:245-252), which the reference
            # takes as a value (golden tree-resource-prefix-errors has it)
            o["expr"] = r.choice(["resource.null_resource.nope.id",
                                  "resource.null_resource.nope[0].id",
                                  "resource.null_resource.nope",
                                  "null_resource.nope[0].id"])
            o["t"], o["unknown"] = None, True
            self.kind("output-undeclared-resource")
        elif sc.res and k < 0.26:
            t = r.choice(["string", "number", ("list", "string"),
                          ("map", "string"), ("set", "string")])
            o["expr"] = self.partly_unknown(sc, t)
            o["t"], o["unknown"] = t, True
            if o["expr"] is None:
                o["expr"], o["t"] = "null_resource.r.id", "string"
        elif mods and k < 0.3:
            x = r.choice(mods)
            o["expr"], o["t"], o["unknown"], o["sens"] = x.text, x.t, x.unknown, x.sens
            self.kind("output-of-module-output")
        else:
            cands = [x for x in sc.refs if x.kind in ("var", "local")]
            if cands and self.chance(0.85):
                x = r.choice(cands)
                o["expr"], o["t"], o["unknown"] = x.text, x.t, x.unknown
                o["refsens"] = x.sens
                if x.eph:
                    self.kind("output-of-ephemeral")
                    if self.chance(0.5) and not root:
                        o["eph"] = True
            else:
                t = r.choice(["string", "number", ("list", "string")])
                o["expr"], o["t"], o["unknown"] = self.value(t, null=0), t, False
        if o["t"] is not None and self.chance(0.3):
            o["typed"] = True
            self.kind("output-typed")
            if self.chance(0.03):
                o["t"] = r.choice(["number", ("list", "string"), "bool"])
                self.kind("output-type-maybe-wrong")
            elif self.chance(0.05):
                # Terraform 1.15's output types are typeexpr's
                # (internal/configs/named_values.go:449-455): a misspelt
                # one is "Invalid type specification", a config error
                o["badtype"] = r.choice(["strng", "lst(string)", "map(strin)",
                                         "objct({ a = string })", "sting",
                                         "list(numbr)", "tuple(string)",
                                         "optional(string)", '"string"'])
                self.kind("output-type-misspelt")
        if o.get("refsens") and (self.chance(0.85) or not root):
            o["sens"] = True
        elif not root and self.chance(0.12):
            o["sens"] = True
        if o.get("sens"):
            self.kind("output-sensitive")
        return o

    # ---- issue 40's shapes ---------------------------------------------------
    # Output preconditions, a root output's deprecated, a module block's
    # depends_on and provider-defined functions are checked by Terraform
    # but not by the reference (its TREE.md, "Not modelled"; it takes any
    # provider::P::F as an unknown value).  Each is compared through the
    # reference's own copy of the tree (emulate, reference_copy): what
    # Terraform's rule does is written there in constructs the reference
    # evaluates, appended at the end of a file (so no other range moves)
    # or renamed in place (same length), and the diagnostics of those
    # constructs are turned into the ones Terraform gives (expect).

    PROVIDER_FUNCS = [("aws", "arn_parse"), ("google", "region_from_zone"),
                      ("azurerm", "parse_resource_id"), ("time", "rfc3339_parse")]

    def provider_function(self, sc):
        """A local value calling a provider-defined function, with or
        without the provider in required_providers (Terraform HEAD:
        "Unknown provider function", internal/lang/eval.go:555-646), or
        without the provider:: prefix."""
        r = self.r
        p, f = r.choice(self.PROVIDER_FUNCS)
        strs = [x.text for x in sc.of("string") if not x.eph]
        arg = r.choice(strs + ['"arn:aws:s3:::b"', '"x"'])
        how = r.choice(["required", "required", "missing", "no-prefix"])
        name = ("provider::%s::%s" if how != "no-prefix" else "%s::%s") % (p, f)
        self.kind("provider-function-" + how)
        return {"expr": "%s(%s)" % (name, arg), "p": p, "f": f, "how": how,
                "required": how == "required"}

    def precondition(self, sc, on, k, no_locals):
        """A precondition of output on over its module's scope (var.,
        local., module. outputs); it passes, fails, or is unknown.  Not a
        local value in the root or beside an ephemeral variable (it may be
        ephemeral: Terraform's condition may be,
        internal/terraform/eval_conditions.go:195, the emulating output's
        value may not)."""
        r = self.r
        cands = [x for x in sc.refs if x.t is not None and not x.eph and
                 x.kind in ("var", "local", "module") and "(" not in x.text
                 and not (no_locals and x.kind == "local")]
        conds = ["true", "false", "1 == 1"]    # see emulate
        if cands:
            x = r.choice(cands)
            v, t = x.text, x.t
            if t == "string":
                conds = ['length(%s) > 1' % v, '%s != "web"' % v,
                         'startswith(%s, "d")' % v]
            elif t == "number":
                conds = ["%s >= 0" % v, "%s < 3" % v]
            elif t == "bool":
                conds = ["%s == true" % v, "%s != false" % v]
            elif isinstance(t, tuple) and t[0] in ("list", "set"):
                conds = ["length(%s) > 0" % v, "length(%s) < 2" % v]
            elif isinstance(t, tuple) and t[0] == "map":
                conds = ["length(keys(%s)) > 0" % v,
                         'lookup(%s, "a", "") != "x"' % v]
            else:
                conds = ["%s != null" % v]
            self.kind("precondition-" + x.kind)
        return r.choice(conds), "Output %s precondition %d failed." % (on, k)

    def depends_on(self, call, caller, sc):
        """A depends_on line for a module block: static references to
        declared objects, or one bad element last: an attribute path
        ("Invalid depends_on reference",
        internal/terraform/node_resource_validate.go:936-946), an
        undeclared object (the evaluator's texts, :963-970), a computed
        expression (hcl's "Invalid expression" of AbsTraversalForExpr,
        internal/configs/depends_on.go:10-20)."""
        r = self.r
        earlier = [cn for cn, _ in caller.get("called", [])[:-1]]
        valid = ["module.%s" % cn for cn in earlier]
        valid += [x.text for x in sc.refs if x.kind in ("var", "local") and
                  re.fullmatch(r"(var|local)\.\w+", x.text)]
        valid += [x.text for x in sc.refs if x.kind == "module" and
                  re.fullmatch(r"module\.\w+\.\w+", x.text)]
        if sc.res:
            valid.append("null_resource.r")
        elems = r.sample(valid, min(len(valid), r.choice([1, 1, 2])))
        kind = r.choice(["valid", "valid", "attr", "undeclared", "computed"])
        if kind in ("attr", "undeclared") and call["mode"] != "single":
            kind = "valid"      # see emulate
        bad = None
        if kind == "attr":
            attrs = [("null_resource.r", ".id")] if sc.res else []
            attrs += [(x, r.choice(['[0]', '.a', '["k"]'])) for x in valid
                      if x.startswith(("var.", "local."))]
            attrs += [(x, ".b") for x in valid if x.count(".") == 2]
            if attrs:
                head, rem = r.choice(attrs)
                bad = {"kind": "attr", "head": head, "rem": rem}
        elif kind == "undeclared":
            bad = {"kind": "undeclared", "head": r.choice(
                ["module.nope", "var.nope", "local.nope",
                 "null_resource.nope", "module.%s_x" % call["name"]]),
                "rem": ""}
        elif kind == "computed":
            bad = {"kind": "computed", "head": r.choice(
                ['upper("x")', "var.x == 1", "[module.a]",
                 '"${local.a}-b"', 'module.a[count.index]']), "rem": ""}
        if bad:
            elems.append(bad["head"] + bad["rem"])
            call["dep_bad"] = bad
        elif not elems:
            return ""
        self.kind("depends_on-" + (bad["kind"] if bad else "valid"))
        return "  depends_on = [%s]" % ", ".join(elems)

    def emulate(self, mdef, texts, root, outs, calls, pf):
        """The reference's copy of this module (see above): patches and
        what each of its diagnostics becomes (appended to self.patches)."""
        def find(needle, after=None):
            for fn, text in sorted(texts.items()):
                at = text.find(after) if after else 0
                if at < 0:
                    continue
                i = text.find(needle, at)
                if i >= 0:
                    return fn, text, i
            raise AssertionError("not found: %s" % needle)

        def rng(fn, text, i, n):
            line = text.count("\n", 0, i) + 1
            col = i - (text.rfind("\n", 0, i) + 1) + 1
            return {"file": os.path.join(mdef["dir"], fn), "line": line,
                    "col": col, "end": col + n, "byte": i}

        def mark():
            self.marks += 1
            return "ZM%d" % self.marks

        typed = any(o.get("typed") for o in outs.values())
        for on, o in outs.items():
            at = 'output "%s" {' % on
            after = at
            # Terraform's output node waits for what its value and every
            # precondition read (internal/terraform/node_output.go:369-386)
            # and is skipped when one of them failed (a node whose
            # dependency failed is not run, internal/dag/walk.go:255-266):
            # the reference's output nodes wait for their value alone, so
            # what the conditions read goes into the for body of an empty
            # collection, never evaluated but counted as references
            conds = [c for c, _ in o.get("pre", [])
                     if re.search(r"\b(var|local|module)\.", c)]
            waits = "[for zzx in [] : [%s]]" % ", ".join(conds) \
                if conds else ""
            if "deprecated" in o and root:
                text = 'deprecated = %s' % json.dumps(o["deprecated"])
                fn, t, i = find(text, at)
                m = mark()
                self.patches.append({
                    "file": os.path.join(mdef["dir"], fn),
                    # raised by the output's node when it runs, past its
                    # preconditions (node_output.go:522-530): it waits for
                    # what the output's node waits for
                    "append": '\nlocals {\n  zzdep%d = [file("%s"), '
                              '[for zzx in [] : [%s]]]\n}\n'
                              % (self.marks, m,
                                 ", ".join([o["expr"]] + conds)),
                    "expect": [{"marker": m, "range": rng(fn, t, i, len(text)),
                                "owner": on,
                                "summary": "Root module output deprecated",
                                "detail": "Root module outputs cannot be "
                                "deprecated, as there is no higher-level module "
                                "to inform of the deprecation."}]})
            lead = "  value = length([try(%s, 0)%s]) > 0 && " % (
                o["expr"], ", " + waits if waits else "")
            if waits:
                self.wait_refs(mdef, find, rng, at, o["expr"], waits)
            if o.get("pre"):
                # the output's block: a failed precondition stops its
                # evaluation (internal/terraform/node_output.go:431-437), so
                # no other error of the output is Terraform's
                bf, bt, bi = find(at)
                b0 = rng(bf, bt, bi, 0)
                block = (b0["file"], b0["line"],
                         bt.count("\n", 0, bt.index("\n}\n", bi)) + 2)
            for c, msg in o.get("pre", []):
                needle = "condition     = %s" % c
                fn, t, i = find(needle, after)
                i += len("condition     = ")
                m = mark()
                crange = rng(fn, t, i, len(c))
                texts = dict(texts)
                texts[fn] = t[:i] + "#" + t[i + 1:]
                if not re.search(r"\b(var|local|module)\.", c):
                    # a condition that refers to nothing: a config error
                    # (internal/configs/checks.go:110-124)
                    self.patches.append({
                        "file": os.path.join(mdef["dir"], fn),
                        "append": '\noutput "zzpc%d" {\n  value = 1\n'
                                  '  type  = zzbad\n}\n' % self.marks,
                        "expect": [{"line": 4, "set": True, "range": crange,
                                    "summary": "Invalid precondition expression",
                                    "detail": "The condition expression must "
                                    "refer to at least one object from elsewhere "
                                    "in the configuration, or else its result "
                                    "would not be checking anything."}]})
                    continue
                self.patches.append({
                    "file": os.path.join(mdef["dir"], fn),
                    # it waits for what the output's value waits for (a
                    # node whose dependency failed is skipped) and evaluates
                    # C; sensitive, as C may be (the root's "Output refers
                    # to sensitive values" is no precondition's)
                    "append": '\noutput "zzpc%d" {\n%s%s%s ? null : '
                              'file("%s")\n  sensitive = true\n}\n' % (
                                  self.marks, "  type = bool\n" if typed else "",
                                  lead, c, m),
                    "expect": [
                        {"marker": m, "range": crange, "owner": on,
                         "block": block,
                         "summary": "Module output value precondition failed",
                         "detail": msg},
                        {"node": ("output.zzpc%d " % self.marks,
                                  "output.%s " % on)},
                        {"line": 4 if typed else 3, "col": len(lead) + 1,
                         "to": crange, "owner": on, "block": block,
                         "null": {"summary": "Invalid condition result",
                                  "detail": "Condition expression must return "
                                  "either true or false, not null."}}]})
        for call in calls:
            bad = call.get("dep_bad")
            if not bad:
                continue
            at = 'module "%s" {' % call["name"]
            elem = bad["head"] + bad["rem"]
            fn, t, i = find("depends_on = [", at)
            i = t.find(elem, i)
            m = mark()
            if bad["kind"] in ("attr", "undeclared"):
                # the call's validate node fails (in the validate walk,
                # internal/terraform/node_module_expand.go:303), so no node
                # of the module it calls, nor any that reads its outputs,
                # runs (internal/dag/walk.go:257-280): in the reference's
                # copy the depends_on line becomes a count that fails
                # there the same way (the call has no count or for_each)
                d0 = t.rfind("\n", 0, i) + 1
                old = t[d0:t.index("\n", i)]
                if bad["kind"] == "attr":
                    new = '  count = file("%s")' % m
                    exp = {"marker": m, "range": rng(
                        fn, t, i + len(bad["head"]), len(bad["rem"])),
                        "summary": "Invalid depends_on reference",
                        "detail": "References in depends_on must be to a whole "
                        "object (resource, etc), not to an attribute of an "
                        "object."}
                else:
                    new = "  count = %s" % elem
                    exp = {"abs_line": t.count("\n", 0, i) + 1,
                           "col": len("  count = ") + 1,
                           "to": rng(fn, t, i, len(elem))}
                # as long as the line was: no byte offset after it moves
                self.patches.append({
                    "file": os.path.join(mdef["dir"], fn), "at": d0,
                    "old": old, "new": new.ljust(len(old)), "expect": [exp]})
            else:
                self.patches.append({
                    "file": os.path.join(mdef["dir"], fn),
                    # a config error the reference reports for each
                    # call of the module, as Terraform does its decoding's
                    "append": '\noutput "zzdo%d" {\n  value = 1\n'
                              '  type  = zzbad\n}\n' % self.marks,
                    "expect": [{"line": 4, "set": True,
                                "range": rng(fn, t, i, len(elem)),
                                "summary": "Invalid expression",
                                "detail": "A single static variable reference "
                                "is required: only attribute access and indexing "
                                "with constant keys. No calculations, function "
                                "calls, template expressions, etc are allowed "
                                "here."}]})
        if pf is not None and pf["how"] == "missing":
            name = "provider::%s::%s" % (pf["p"], pf["f"])
            alias = name.replace("::", "XX")
            fn, t, i = find(name + "(")
            self.patches.append({
                "file": os.path.join(mdef["dir"], fn), "rename": (name, alias),
                "expect": [{"detail_has": 'no function named "%s"' % alias,
                            "summary": "Unknown provider function",
                            "detail": 'There is no function named "%s". Ensure '
                            'that provider name "%s" is declared in this '
                            "module's required_providers block, and that this "
                            'provider offers a function named "%s".'
                            % (name, pf["p"], pf["f"])}]})
        elif pf is not None and pf["how"] == "no-prefix":
            self.patches.append({"expect": [{
                "detail_has": 'no functions in namespace "%s::"' % pf["p"],
                "summary": "Unknown provider function",
                "detail": 'The function namespace "%s" is not valid. Provider '
                'function calls must use the "provider::" namespace prefix.'
                % pf["p"]}]})

    def wait_refs(self, mdef, find, rng, at, expr, waits):
        """The reference's copy of the output's value line made to wait
        for waits: "  value = EXPR" becomes " value = [EXPR, WAITS][0]",
        the same value with EXPR where it was (the line's other columns
        do not move); a diagnostic whose range is the whole new expression
        (Terraform's Expr.Range(): "Ephemeral value not allowed", "Invalid
        output value", internal/terraform/node_output.go:512-519, 587-597) gets
        EXPR's."""
        fn, t, i = find(at)
        d0 = t.index("\n", i) + 1
        old = "  value = " + expr
        assert t.startswith(old + "\n", d0), (t[d0:d0 + 80], old)
        self.patches.append({
            "file": os.path.join(mdef["dir"], fn), "at": d0, "old": old,
            "new": " value = [%s, %s][0]" % (expr, waits),
            "expect": [{"whole": (t.count("\n", 0, d0) + 1,
                                  len(" value = ") + 1),
                        "to": rng(fn, t, d0 + len("  value = "), len(expr))}]})

    def add_module_refs(self, sc, cn, child, call):
        """module.CN.OUT as references for later calls and the outputs."""
        for on, o in child["outputs"].items():
            # an output whose precondition may fail is read by nobody:
            # the reference's copy checks it beside the output (emulate)
            if o["t"] is None or o.get("pre"):
                continue
            sens = bool(o.get("sens") or o.get("refsens"))
            if call["mode"] == "single":
                sc.refs.append(Ref("module.%s.%s" % (cn, on), o["t"], sens,
                                   o.get("unknown", False), o.get("eph", False),
                                   kind="module"))
            elif call["mode"] == "count" and (call.get("n") or 0) >= 1:
                sc.refs.append(Ref("module.%s[0].%s" % (cn, on), o["t"], sens,
                                   o.get("unknown", False), o.get("eph", False),
                                   kind="module"))
            elif call["mode"] == "for_each" and call.get("keys"):
                sc.refs.append(Ref('module.%s["%s"].%s' % (
                    cn, self.r.choice(call["keys"]), on), o["t"], sens,
                    o.get("unknown", False), o.get("eph", False),
                    kind="module"))
        if call["mode"] != "single" and not any(
                x.eph for x in sc.refs if x.text.startswith("module.%s" % cn)):
            sc.refs.append(Ref("length(module.%s)" % cn, "number",
                               kind="module"))

    def call(self, cn, child, caller, sc):
        """A module block calling child from caller."""
        r = self.r
        call = {"name": cn, "mode": "single"}
        lines = ['module "%s" {' % cn]
        if child.get("registry"):
            lines.append('  source  = "terraform-aws-modules/vpc/aws"')
            lines.append('  version = "5.0.0"')
        else:
            rel = os.path.relpath(child["dir"], caller["dir"])
            src = rel if rel.startswith("..") else "./" + rel
            lines.append('  source = "%s"' % src)
            if src.startswith("../"):
                self.kind("source-dotdot")
        caller.setdefault("called", []).append((cn, child))
        args_sc = Scope(sc.res)
        args_sc.refs = list(sc.refs)
        k = r.random()
        nums = [x for x in sc.of("number") if x.kind == "var"]
        lists = [x for x in sc.of(("list", "string"), known_only=True)
                 if not x.sens]
        maps = [x for x in sc.of(("map", "string"), known_only=True) +
                sc.of(("map", "number"), known_only=True) if not x.sens and
                (self.marked_for_each or not x.marked_elems)]
        if k < 0.17:
            call["mode"] = "count"
            choices = [("2", 2), ("1", 1), ("0", 0), ("3", 3)]
            if nums:
                choices.append(("%s" % r.choice(nums).text, None))
            if lists:
                choices.append(("length(%s)" % r.choice(lists).text, None))
            e, n = r.choice(choices)
            if sc.res and self.chance(0.15):
                # known length, unknown elements: cty's length is known
                u = self.unknown_part(sc)
                e, n = r.choice([
                    ('length(concat(["a"], [%s]))' % u, 2),
                    ('length(flatten([["a"], [%s]]))' % u, 2),
                    ("length(keys(merge({ a = 1 }, { b = %s })))" % u, 2),
                    ('length(tolist(["a", %s]))' % u, 2)])
                self.kind("count-partly-unknown")
            elif sc.res and self.chance(0.12):
                e, n = r.choice(["length(null_resource.r.triggers)",
                                 "null_resource.r.count"]), None
                self.kind("count-unknown")
            elif n == 0:
                self.kind("count-0")
            elif n is None:
                self.kind("count-from-var")
            else:
                self.kind("count-known")
            call["n"] = n
            lines.append("  count  = %s" % e)
            args_sc.count = True
        elif k < 0.34:
            call["mode"] = "for_each"
            choices = [('{ a = "x", b = "y" }', ["a", "b"], "string", "map"),
                       ('toset(["a", "b"])', ["a", "b"], "string", "set"),
                       ('{ web = 1, db = 2 }', ["web", "db"], "number", "map"),
                       ("{}", [], "string", "map")]
            for m in maps:
                choices.append((m.text, None, m.t[1], "var-map"))
            for l in lists:
                choices.append(("toset(%s)" % l.text, None, "string", "var-set"))
                choices.append(("{ for s in %s : s => upper(s) }" % l.text, None,
                                "string", "for-expr"))
            e, keys, et, how = r.choice(choices)
            p = r.random()
            if self.chance(0.4):
                e, keys, et, how = self.for_each_shape(sc, e, keys, et, how)
                p = 1
            if sc.res and p < 0.04:
                e = r.choice(["toset([null_resource.r.id])",
                              "{ (null_resource.r.id) = 1 }",
                              "null_resource.r.triggers"])
                keys, how = None, "unknown"
            elif p < 0.065:
                e = r.choice(['sensitive({ a = 1 })',
                              'sensitive(toset(["a"]))'])
                keys, how = None, "sensitive"
            elif p < 0.085:
                e = r.choice(['["a", "b"]', "toset([1, 2])", "null", '"a"'])
                keys, how = None, "bad-type"
            self.kind("for_each-" + how)
            call["keys"] = keys
            lines.append("  for_each = %s" % e)
            args_sc.each = et
        # arguments
        cv = child["vars"]
        names = sorted(cv)
        missing = None
        req = [n for n in names if "default" not in cv[n]]
        if req and self.chance(0.007):
            missing = r.choice(req)
            self.kind("missing-required-arg")
        for n in names:
            d = cv[n]
            if n == missing:
                continue
            if "default" in d and self.chance(0.4):
                continue
            if d.get("nullable") is False and self.chance(0.06):
                lines.append("  %s = null" % n)
                self.kind("null-into-non-nullable" +
                          ("-with-default" if "default" in d else ""))
                continue
            e = self.expr(args_sc, d["type"])
            lines.append("  %s = %s" % (n, e.replace("\n", "\n  ")))
        if self.chance(0.12):
            lines.append(self.depends_on(call, caller, sc))
        if self.chance(0.007) and names:
            n = r.choice(names)
            if len(n) > 3 and self.chance(0.7):
                i = r.randrange(len(n) - 1)
                bad = n[:i] + n[i + 1] + n[i] + n[i + 2:]
            else:
                bad = "unknown_arg"
            if bad not in cv:
                lines.append('  %s = "x"' % bad)
                self.kind("unsupported-arg")
        lines.append("}")
        call["text"] = "\n".join(lines)
        return call

    # ---- a tree ---------------------------------------------------------------
    def tree(self, base):
        """Writes a tree under base (root module: base/root); returns its
        spec."""
        r = self.r
        self.cur = set()
        self.patches, self.marks = [], 0
        root_dir = os.path.join(base, "root")
        depth = r.choice([1, 1, 2, 2, 2, 3])
        names = r.sample(MOD_NAMES, 7)
        levels = {}
        # definitions by level; directory of each
        levels[1] = [{"name": names.pop(), "level": 1}
                     for _ in range(r.choice([1, 1, 2, 2, 3]))]
        for lv in range(2, depth + 1):
            levels[lv] = [{"name": names.pop(), "level": lv}
                          for _ in range(r.choice([1, 1, 2]))]
        for lv in range(1, depth + 1):
            for d in levels[lv]:
                k = r.random()
                if lv == 1:
                    d["dir"] = (os.path.join(base, "shared", d["name"]) if k < 0.2
                                else os.path.join(root_dir, "modules", d["name"]))
                else:
                    # nested in a caller's dir (./NAME), a sibling of the
                    # callers (../NAME) or a shared one (../../shared/NAME)
                    parent = r.choice(levels[lv - 1])
                    if k < 0.4:
                        d["dir"] = os.path.join(parent["dir"], d["name"])
                    elif k < 0.8:
                        d["dir"] = os.path.join(os.path.dirname(parent["dir"]),
                                                d["name"])
                    else:
                        d["dir"] = os.path.join(base, "shared", d["name"])
        # who calls whom: every deeper definition has a caller
        callees = {id(d): [] for lv in levels for d in levels[lv]}
        for lv in range(2, depth + 1):
            for d in levels[lv]:
                p = r.choice(levels[lv - 1])
                callees[id(p)].append(d)
                for q in levels[lv - 1]:
                    if q is not p and self.chance(0.3) and d not in callees[id(q)]:
                        callees[id(q)].append(d)
        defs = {}
        files = {}
        for lv in range(depth, 0, -1):
            for d in levels[lv]:
                files[d["dir"]] = self.module(d, callees[id(d)], defs, False)
        root_children = list(levels[1])
        reg = None
        p = r.random()
        if p < 0.13:
            reg = {"name": "vpc", "level": 1, "registry": True,
                   "dir": os.path.join(root_dir, ".terraform", "modules", "vpc")}
            files[reg["dir"]] = self.module(reg, [], defs, False)
            root_children.append(reg)
            reg["how"] = ("manifest" if p < 0.095 else "no-manifest"
                          if p < 0.12 else "manifest-dir-missing")
            self.kind("registry-" + reg["how"])
        rootdef = {"name": "", "dir": root_dir, "level": 0}
        files[root_dir] = self.module(rootdef, root_children, defs, True)
        for d, fs in files.items():
            if reg and d == reg["dir"] and reg["how"] == "manifest-dir-missing":
                continue
            if reg and d == reg["dir"] and reg["how"] == "no-manifest":
                continue
            os.makedirs(d, exist_ok=True)
            for n, text in fs.items():
                with open(os.path.join(d, n), "w") as f:
                    f.write(text)
        if reg and reg["how"] != "no-manifest":
            os.makedirs(os.path.join(root_dir, ".terraform", "modules"),
                        exist_ok=True)
            with open(os.path.join(root_dir, ".terraform", "modules",
                                   "modules.json"), "w") as f:
                json.dump({"Modules": manifest(rootdef)}, f)
        args, env = self.root_values(root_dir, rootdef["vars"])
        alldefs = [d for lv in levels for d in levels[lv]] + ([reg] if reg else [])
        spec = {"args": args, "env": env, "kinds": set(self.cur),
                "patches": self.patches,
                "defs": {os.path.relpath(d["dir"], root_dir): {
                    n: {"rules": len(v.get("rules", [])),
                        "sensitive": bool(v.get("sensitive"))}
                    for n, v in d["vars"].items()} for d in alldefs}}
        return spec

    def root_values(self, root_dir, vs):
        r = self.r
        args, env = [], {}
        files = {"terraform.tfvars": [], "a.auto.tfvars": []}
        unset = self.chance(0.02)
        for n, d in vs.items():
            if d.get("ephemeral"):
                continue
            where = r.choice(["none", "tfvars", "auto", "var", "env"])
            if "default" not in d:
                if not unset:
                    where = r.choice(["tfvars", "auto", "var", "env"])
                else:
                    where = "none"
                    self.kind("root-required-unset")
            if where == "none":
                continue
            val = self.value(d["type"], wrong=0.015)
            # -var and TF_VAR_: a primitive type's text as it is; other
            # types (any too) are parsed as HCL
            raw = json.loads(val) if val.startswith('"') and \
                d["type"] in ("string", "number", "bool") else val
            if where == "tfvars":
                files["terraform.tfvars"].append("%s = %s" % (n, val))
            elif where == "auto":
                files["a.auto.tfvars"].append("%s = %s" % (n, val))
            elif where == "var":
                args += ["-var", "%s=%s" % (n, raw)]
            else:
                env["TF_VAR_" + n] = raw
        for name, body in files.items():
            if body:
                with open(os.path.join(root_dir, name), "w") as f:
                    f.write("\n".join(body) + "\n")
        return args, env


# ---------------------------------------------------------------- running

def run(argv, cwd, env):
    """Runs argv with env (over PATH, LANG and the sanitizers' options);
    (status, stdout, stderr); a rebuild under way is waited for."""
    return harness.run(argv, cwd=cwd, env=harness.child_env(env),
                       timeout=TIMEOUT, retry_loading=True)


def fmt_range(r):
    if not r:
        return None
    return "%s:%d,%d-%d,%d" % (r.get("filename"), r["start"]["line"],
                               r["start"]["column"], r["end"]["line"],
                               r["end"]["column"])


def cycle_nodes(summary):
    """A "Cycle:" summary (one line "a, b" or one node a line) as its
    sorted nodes; the summary itself otherwise."""
    if not summary.startswith("Cycle:"):
        return summary
    rest = summary[len("Cycle:"):]
    parts = rest.split("\n") if "\n" in rest else rest.split(", ")
    return "Cycle: " + ", ".join(sorted(p.strip() for p in parts if p.strip()))


def theirs(doc):
    """The diagnostics of doc that are not tfresolve's own."""
    return [g for g in doc.get("diagnostics", [])
            if g.get("origin") != "tfresolve"]


def diag_key(g):
    return (g.get("severity"), cycle_nodes(g.get("summary", "")),
            g.get("detail", ""), fmt_range(g.get("range")), g.get("variable"),
            g.get("module"))


QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"')


def redacted_match(theirs_key, ours_key):
    """Whether our diagnostic (key) is the reference's with some of the
    Go-quoted parts of its summary and detail written "(sensitive
    value)" (see REDACTED); every other field the same."""
    if theirs_key[0] != ours_key[0] or theirs_key[3:] != ours_key[3:]:
        return False
    some = False
    for t, u in zip(theirs_key[1:3], ours_key[1:3]):
        if t == u:
            continue
        pat, at = [], 0
        for m in QUOTED.finditer(t):
            pat.append(re.escape(t[at:m.start()]))
            pat.append("(?:%s|%s)" % (re.escape(m.group(0)),
                                       re.escape(REDACTED)))
            at = m.end()
        pat.append(re.escape(t[at:]))
        if not re.fullmatch("".join(pat), u):
            return False
        some = True
    return some


def jd(x, n=200):
    return json.dumps(x, default=str)[:n]


def compare(o, u):
    """Every difference between the reference's document o and ours u,
    as a list of lines."""
    out = []
    if o.get("valid") != u.get("valid"):
        out.append("valid: reference %s, tfresolve %s" % (o.get("valid"),
                                                          u.get("valid")))
    ov, uv = o.get("variables", {}), u.get("variables", {})
    if set(ov) != set(uv):
        out.append("root variables: reference %s, tfresolve %s" % (
            sorted(ov), sorted(uv)))
    for n in sorted(set(ov) & set(uv)):
        for k in ("type", "value"):
            if ov[n].get(k) != uv[n].get(k):
                out.append("var.%s %s: reference %s, tfresolve %s" % (
                    n, k, jd(ov[n].get(k)), jd(uv[n].get(k))))
        if bool(ov[n].get("error")) != bool(uv[n].get("error")):
            out.append("var.%s error: reference %s, tfresolve %s" % (
                n, bool(ov[n].get("error")), bool(uv[n].get("error"))))
    if "modules" in o:
        om, um = o["modules"], u.get("modules")
        if um is None:
            if om:
                out.append("modules: tfresolve has none, reference %s" %
                           jd(sorted(om), 300))
            um = {}
        if set(om) != set(um):
            out.append("module instances: reference only %s; tfresolve only %s"
                       % (sorted(set(om) - set(um)), sorted(set(um) - set(om))))
        for a in sorted(set(om) & set(um)):
            out += compare_instance(a, om[a], um[a])
    oe = sorted(diag_key(g) for g in theirs(o) if g.get("severity") == "error")
    ue = sorted(diag_key(g) for g in theirs(u) if g.get("severity") == "error")
    noted = {diag_key(g) for g in theirs(u)
             if REDACTION_NOTE in (g.get("note") or "")}
    only_o, only_u = [], []
    if oe != ue:
        only_o = list(oe)
        for x in ue:
            if x in only_o:
                only_o.remove(x)
            else:
                only_u.append(x)
        for x in list(only_u):
            y = next((y for y in only_o if x in noted and
                      redacted_match(y, x)), None)
            if y is not None:
                only_o.remove(y)
                only_u.remove(x)
    # one line a diagnostic, so that each is explained on its own
    out += ["errors: reference only %s" % jd(x, 800) for x in only_o]
    out += ["errors: tfresolve only %s" % jd(x, 800) for x in only_u]
    ow = {(g.get("severity"), g.get("summary"), g.get("module"))
          for g in theirs(o) if g.get("severity") == "warning"}
    uw = {(g.get("severity"), g.get("summary"), g.get("module"))
          for g in theirs(u) if g.get("severity") == "warning"}
    if not ow <= uw:
        out.append("warnings missing: %s" % sorted(ow - uw))
    return out


def compare_instance(a, o, u):
    out = []
    for k in ("source", "dir"):
        if o.get(k) != u.get(k):
            out.append("%s %s: reference %s, tfresolve %s" % (
                a, k, jd(o.get(k)), jd(u.get(k))))
    ov, uv = o.get("variables", {}), u.get("variables", {})
    if set(ov) != set(uv):
        out.append("%s variables: reference %s, tfresolve %s" % (
            a, sorted(ov), sorted(uv)))
    for n in sorted(set(ov) & set(uv)):
        x, y = ov[n], uv[n]
        unknown = bool(x.get("unknown"))
        if unknown != bool(y.get("unknown")):
            out.append("%s.var.%s unknown: reference %s, tfresolve %s" % (
                a, n, unknown, bool(y.get("unknown"))))
        keys = ["type", "sensitive"] + ([] if unknown else ["value"])
        for k in keys:
            if x.get(k) != y.get(k):
                out.append("%s.var.%s %s: reference %s, tfresolve %s" % (
                    a, n, k, jd(x.get(k)), jd(y.get(k))))
        if bool(x.get("error")) != bool(y.get("error")):
            out.append("%s.var.%s error: reference %s, tfresolve %s" % (
                a, n, bool(x.get("error")), bool(y.get("error"))))
        xs, ys = x.get("source") or {}, y.get("source") or {}
        for k in ("kind", "file"):
            if xs.get(k) != ys.get(k):
                out.append("%s.var.%s source.%s: reference %s, tfresolve %s" % (
                    a, n, k, jd(xs.get(k)), jd(ys.get(k))))
    return out


def read_all(d):
    """The text of the tree's files (for KNOWN)."""
    out = []
    for dp, dn, fn in sorted(os.walk(d)):
        dn.sort()
        for n in sorted(fn):
            with open(os.path.join(dp, n), errors="replace") as f:
                out.append(f.read())
    return "\n".join(out)


def known(text, line=None, lines=(), base=None):
    """The entries of KNOWN whose strings text holds, and of FOUND whose
    test takes the difference line (among lines; the tree in base)."""
    out = [k for k in KNOWN if all(x in text for x in k.strings)]
    if line is not None:
        out += [f for f in FOUND if f.test(line, lines, base)]
    return out


# Differences that are tfresolve's bugs, each written with a minimal
# reproduction in tests/FOUND.md: counted apart from the reference's
# artifacts and printed, never taken as passed.  When one is fixed its
# entry goes.
class Found:
    def __init__(self, number, test):
        self.number, self.test, self.map_order = number, test, False

    def __repr__(self):
        return "tfresolve bug tests/FOUND.md #%d" % self.number




FOUND = [
]


MAP_ORDER_RUNS = 12


def known_map_order(rerun, ud):
    """Whether the reference, run again (rerun() gives its document), ever
    gives tfresolve's answer ud: the evidence a map-order entry needs (with
    two candidates, twelve runs all picking the other one happen once in
    4096 when the order is random; a difference that is the same on every
    run is never taken)."""
    for _ in range(MAP_ORDER_RUNS):
        od = rerun()
        if od is not None and not compare(od, ud):
            return True
    return False


# ---------------------------------------------------------------- oracle-only

def depth_of(addr):
    return addr.count("module.") if addr else 0


def coverage(spec, o):
    """The situations of the brief that the reference's answer shows."""
    cov = set()
    for g in o.get("diagnostics", []):
        s, dep = g.get("summary", ""), depth_of(g.get("module", ""))
        det = g.get("detail", "")
        if s == "Invalid value for variable" and dep:
            cov.add("child rule fails at depth %d" % dep)
        if s == "Invalid value for variable" and not dep:
            cov.add("root rule fails")
        if s == "Invalid value for input variable" and dep:
            cov.add("type error at a module argument")
        if s == "Invalid value for input variable" and not dep:
            cov.add("type error at a root value")
        if s == "Required variable not set" and "may not be set to null" in det:
            cov.add("null into non-nullable")
        if s == "Error message refers to sensitive values" and dep:
            cov.add("sensitive value in a child rule's message")
        for x in ("Missing required argument", "Unsupported argument",
                  "Invalid count argument", "Invalid for_each argument",
                  "Invalid for_each set argument", "Module not installed",
                  "Ephemeral value not allowed", "Output refers to sensitive values",
                  "Invalid output value"):
            if s == x:
                cov.add(x)
    for a, inst in (o.get("modules") or {}).items():
        d = spec["defs"].get(inst.get("dir"), {})
        for n, v in inst.get("variables", {}).items():
            decl = d.get(n, {})
            if v.get("unknown") and decl.get("rules"):
                cov.add("unknown value reaches a child rule (depth %d)" %
                        depth_of(a))
            if v.get("sensitive") and not decl.get("sensitive") and \
                    not v.get("error"):
                cov.add("sensitive value passed down (depth %d)" % depth_of(a))
            if v.get("unknown"):
                cov.add("unknown module argument")
        if "[" in a:
            cov.add("expanded instance (count/for_each)")
        if depth_of(a) >= 3:
            cov.add("instance at depth 3")
    return cov


# ---------------------------------------------------------------- worker

def reference(oracle, args, root, env):
    """The reference's document for the tree in root (or None) and its
    output when it is not JSON."""
    _, oo, oerr = run([oracle, "-tree"] + args, root, env)
    try:
        return reference_ranges(json.loads(oo, parse_float=Decimal), root), ""
    except ValueError:
        return None, oo + oerr


# A resource reference as Terraform's parseResourceRef delimits it: the
# address and a literal instance key, not the attributes after
# (internal/addrs/parse_ref.go:515-549); the reference's range for
# "Reference to undeclared resource" goes on over them.
RESOURCE_REF = re.compile(r'(resource\.|data\.|ephemeral\.)?[A-Za-z_][\w-]*'
                          r'\.[A-Za-z_][\w-]*(\[(\d+|"[^"\\]*")\])?')


def reference_ranges(doc, root):
    """doc with each "Reference to undeclared resource" range cut where
    Terraform's ends (RESOURCE_REF), read from the file it names."""
    for g in doc.get("diagnostics", []):
        r = g.get("range")
        if g.get("summary") != "Reference to undeclared resource" or not r or \
                r["start"]["line"] != r["end"]["line"]:
            continue
        try:
            with open(os.path.join(root, r["filename"]), "rb") as f:
                data = f.read()
        except OSError:
            continue
        text = data[r["start"]["byte"]:r["end"]["byte"]].decode(errors="replace")
        m = RESOURCE_REF.match(text)
        if m and m.end() < len(text):
            n = len(text[:m.end()].encode())
            r["end"] = {"line": r["end"]["line"],
                        "column": r["start"]["column"] + len(text[:m.end()]),
                        "byte": r["start"]["byte"] + n}
    return doc


def reference_copy(base, patches):
    """The reference's copy of the tree in base (TreeGen.emulate): a
    directory beside it with the patches applied; returns (its root,
    the expectations with their files relative to the root and their
    lines counted in the copy)."""
    copy = base + ".ref"
    shutil.copytree(base, copy, symlinks=True)
    root = os.path.join(copy, "root")
    expects, spans = [], []
    # a line replaced by offset: the later ones in a file first
    for p in sorted(patches, key=lambda p: (0, -p["at"]) if "at" in p
                    else (1, 0)):
        rel = None
        if "file" in p:
            path = os.path.join(copy, os.path.relpath(p["file"], base))
            if not os.path.exists(path):
                continue    # a registry module not installed: not loaded
            with open(path) as f:
                text = f.read()
            lines = text.count("\n")
            if "append" in p:
                text += p["append"]
                spans.append((os.path.relpath(path, root), lines + 1,
                              lines + p["append"].count("\n")))
            elif "at" in p:
                assert text[p["at"]:p["at"] + len(p["old"])] == p["old"]
                text = text[:p["at"]] + p["new"] + text[p["at"] + len(p["old"]):]
            else:
                text = text.replace(*p["rename"])
            with open(path, "w") as f:
                f.write(text)
            rel = os.path.relpath(path, root)
        for e in p["expect"]:
            e = dict(e)
            if "line" in e:
                e["file"], e["line"] = rel, lines + e["line"]
            if "abs_line" in e:
                e["file"], e["line"] = rel, e.pop("abs_line")
            if "whole" in e:
                e["whole"] = (rel,) + tuple(e["whole"])
            if e.get("block"):
                bf, l0, l1 = e["block"]
                e["block"] = (os.path.relpath(os.path.join(
                    copy, os.path.relpath(bf, base)), root), l0, l1)
            for k in ("range", "to"):
                if k in e:
                    x = e[k]
                    e[k] = dict(x, file=os.path.relpath(
                        os.path.join(copy, os.path.relpath(x["file"], base)),
                        root))
            expects.append(e)
    expects += [{"span": x} for x in spans]
    return root, expects


def range_of(x):
    """A diagnostic range from TreeGen.emulate's (file, line, col, end)."""
    return {"filename": x["file"],
            "start": {"line": x["line"], "column": x["col"], "byte": x["byte"]},
            "end": {"line": x["line"], "column": x["end"],
                    "byte": x["byte"] + x["end"] - x["col"]}}


def unroot(filename):
    """A file name without the "../root/" by which the reference names a
    module directory reached from outside the root (tests/FOUND.md #3)."""
    return (filename or "").replace("../root/", "", 1) \
        if (filename or "").startswith("../root/") else filename


def fixroot(g, r):
    """g's new range in the reference's form of the file name r had."""
    old = (r or {}).get("filename") or ""
    if old.startswith("../root/") and g.get("range") and \
            not g["range"]["filename"].startswith("../"):
        g["range"]["filename"] = "../root/" + g["range"]["filename"]


def expect_diags(doc, expects):
    """The reference's diagnostics of the emulating constructs turned
    into Terraform's (TreeGen.emulate): by a marker in the detail, a
    detail text, or the line of an appended construct (whose range then
    moves to the original one, column for column)."""
    for g in (doc or {}).get("diagnostics", []):
        r, detail = g.get("range") or {}, g.get("detail", "")
        for e in expects:
            if "marker" in e and '"%s"' % e["marker"] in detail:
                g.update(summary=e["summary"], detail=e["detail"],
                         range=range_of(e["range"]))
                g["owner"] = (g.get("module"), e["owner"], e.get("block")) \
                    if "owner" in e else None
                fixroot(g, r)
            elif "marker" in e:
                continue
            elif "detail_has" in e and e["detail_has"] in detail:
                g.update(summary=e["summary"], detail=e["detail"])
            elif "span" in e and unroot(r.get("filename")) == e["span"][0] and \
                    e["span"][1] <= r["start"]["line"] <= e["span"][2]:
                # about the emulating construct itself, or a repetition
                # of the output value's own error: not Terraform's
                g["drop"] = True
            elif "whole" in e and r and (unroot(r.get("filename")),
                                         r["start"]["line"],
                                         r["start"]["column"]) == e["whole"]:
                # the whole of a value expression made to wait (wait_refs)
                g["range"] = range_of(e["to"])
                fixroot(g, r)
            elif "line" in e and unroot(r.get("filename")) == e["file"] and \
                    r["start"]["line"] == e["line"]:
                if r["start"]["column"] < e.get("col", 0):
                    continue
                if e.get("set"):
                    g.update(summary=e["summary"], detail=e["detail"],
                             range=range_of(e["range"]))
                    fixroot(g, r)
                    break
                if "owner" in e:
                    g["owner"] = (g.get("module"), e["owner"], e["block"])
                if "null" in e and g.get("summary") == "Null condition":
                    g.update(e["null"])
                to, d = e["to"], e["to"]["col"] - e["col"]
                g["range"] = {"filename": r["filename"][:len(r["filename"]) -
                                                          len(e["file"])] +
                              to["file"],
                              "start": {"line": to["line"],
                                        "column": r["start"]["column"] + d},
                              "end": {"line": to["line"],
                                      "column": r["end"]["column"] + d}}
            else:
                continue
            break
    if doc:
        # a precondition that fails or errs stops the output
        failed = {(g["owner"][0], g["owner"][1]): g["owner"][2]
                  for g in doc["diagnostics"] if g.get("owner") and
                  g["owner"][2]}
        for g in doc["diagnostics"]:
            own = g.pop("owner", None)
            r = g.get("range") or {}
            if own and not own[2] and (own[0], own[1]) in failed:
                g["drop"] = True
            for (mod, _), (bf, l0, l1) in failed.items():
                if g.get("module") == mod and not own and r and \
                        unroot(r.get("filename")) == bf and \
                        l0 <= r["start"]["line"] <= l1:
                    g["drop"] = True
        doc["diagnostics"] = [g for g in doc["diagnostics"]
                              if not g.pop("drop", False)]
        for g in doc["diagnostics"]:
            # a cycle through the emulating output is one through the
            # output itself (its node waits for its preconditions'
            # references, internal/terraform/node_output.go:369-386)
            if g.get("summary", "").startswith("Cycle:"):
                for e in expects:
                    if "node" in e:
                        g["summary"] = g["summary"].replace(*e["node"])
                # the output, made to wait for the same references
                # (wait_refs), may be in it beside it: one node
                lines = g["summary"].split("\n")
                g["summary"] = "\n".join(
                    x for k, x in enumerate(lines) if x not in lines[:k])
    return doc


# The root module's variable blocks and their rules' lines, as TreeGen
# writes them (one line each)
VAR_BLOCK = re.compile(r'^variable "([\w-]+)" \{\n(.*?)^\}', re.M | re.S)
RULE_LINE = re.compile(r'^    (condition     |error_message )= (.*)$', re.M)
SKIP_MARK = "ZZSKIP"


def root_rules(root):
    """{variable: [(file, offset of a rule line's expression, its
    length)]} of the root module in root, and {variable: the variables
    its rules read}."""
    lines, reads = {}, {}
    for fn in sorted(os.listdir(root)):
        if not fn.endswith(".tf"):
            continue
        with open(os.path.join(root, fn)) as f:
            text = f.read()
        for b in VAR_BLOCK.finditer(text):
            name = b.group(1)
            for m in RULE_LINE.finditer(b.group(2)):
                lines.setdefault(name, []).append(
                    (fn, b.start(2) + m.start(2), len(m.group(2))))
                reads.setdefault(name, set()).update(
                    y for y in re.findall(r"\bvar\.([\w-]+)", m.group(2))
                    if y != name)
    return lines, reads


def skipped_root_rules(doc, root):
    """The root variables whose validation Terraform skips in doc's run:
    a variable's validation node waits for what its rules read and is
    not run when one of those failed (internal/terraform/
    node_variable_validation.go:76-92, internal/dag/walk.go:255-266) --
    a variable that failed, or whose validation failed or was skipped
    (a reference to var.Y is one to Y's validation node:
    node_variable_validation.go:60-65)."""
    if not doc:
        return set(), {}
    failed = {n for n, v in doc.get("variables", {}).items() if v.get("error")}
    lines, reads = root_rules(root)
    skipped, more = set(), True
    while more:
        more = False
        for x, ys in reads.items():
            if x not in failed | skipped and ys & (failed | skipped):
                skipped.add(x)
                more = True
    return skipped, lines


def past_skipped_rules(oracle, args, root, env, doc, expects):
    """doc as Terraform's run: the reference keeps the value of a root
    variable whose validation it skipped, and lets the tree read it
    (its main.go, stage 4b), where Terraform skips every node that reads
    it (the validation node stands for the variable: node_variable_
    validation.go:60-65).  So the reference runs again on a copy where
    each such variable's rules fail whatever its value (var.X != var.X:
    unknown in the validate walk) with SKIP_MARK; their diagnostics are
    dropped and the variables' own entries are the first run's."""
    skipped, lines = skipped_root_rules(doc, root)
    if not skipped:
        return doc
    tree = os.path.dirname(root)
    copy = tree + ".skip"
    shutil.rmtree(copy, ignore_errors=True)
    shutil.copytree(tree, copy, symlinks=True)
    croot = os.path.join(copy, os.path.basename(root))
    edits = {}
    for x in skipped:
        for fn, at, n in lines.get(x, []):
            edits.setdefault(fn, []).append((at, n, x))
    for fn, es in edits.items():
        path = os.path.join(croot, fn)
        with open(path) as f:
            text = f.read()
        for at, n, x in sorted(es, reverse=True):
            old = text[at:at + n]
            new = ('"%s"' % SKIP_MARK if text[:at].endswith("error_message = ")
                   else "var.%s != var.%s" % (x, x))
            assert "\n" not in old
            text = text[:at] + new + text[at + n:]
        with open(path, "w") as f:
            f.write(text)
    again, _ = reference(oracle, args, croot, env)
    again = expect_diags(again, expects)
    if again is None:
        return doc
    again["diagnostics"] = [
        g for g in again["diagnostics"]
        if not (g.get("module", "") == "" and g.get("variable") in skipped
                and SKIP_MARK in g.get("detail", ""))]
    for x in skipped:
        again["variables"][x] = doc["variables"][x]
    return again


def marked_for_each(oracle):
    """Whether the reference takes for_each = { a = sensitive("x") } as
    Terraform does (marks.Has asks the map's own marks,
    internal/terraform/eval_for_each.go:319, internal/lang/marks/marks.go:21-24);
    a reference that looks inside the value cannot judge the trees with
    such a for_each, so they are not made."""
    d = tempfile.mkdtemp(prefix="treediff.")
    try:
        os.makedirs(os.path.join(d, "m"))
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write('module "m" {\n  source   = "./m"\n'
                    '  for_each = { a = sensitive("x") }\n}\n')
        with open(os.path.join(d, "m", "main.tf"), "w") as f:
            f.write("")
        doc, _ = reference(oracle, [], d, {})
        return doc is not None and not any(
            g.get("summary") == "Invalid for_each argument"
            for g in doc.get("diagnostics", []))
    finally:
        shutil.rmtree(d, ignore_errors=True)


def past_not_installed(od, ud):
    """The reference stops at "Module not installed" (Terraform's loader,
    internal/configs/configload/loader_load.go:48-57); tfresolve -strict
    gives the same error but goes on, reporting what else it finds (issue
    37: -strict never hides an error).  What is compared then: the
    reference's diagnostics, each among tfresolve's, and the verdict;
    the values the reference never reached are taken as it has them."""
    def key(g_):
        # lines and columns, as compare() has them: the reference's copy
        # may have a longer line (wait_refs), so its byte offsets after it
        return (g_.get("severity"), g_.get("summary"), g_.get("module"),
                fmt_range(g_.get("range")))
    theirs = {key(g_) for g_ in od["diagnostics"]}
    out = dict(ud)
    out["diagnostics"] = [g_ for g_ in ud["diagnostics"] if key(g_) in theirs]
    for k in ("variables", "modules"):
        if k in od:
            out[k] = od[k]
        else:
            out.pop(k, None)
    return out


FOLLOW_ON = re.compile(r"^(valid: |module instances: |warnings |\S+ (value|"
                       r"error|unknown|type|sensitive): reference )")


def follow_on(line, stopped):
    """Whether a difference line follows from an explained error that
    stopped one side's run (stopped: the sides): what that side never
    evaluated (values, instances, the verdict), and the errors only the
    other side, going on, found."""
    if not stopped:
        return False
    for side, other in (("reference", "tfresolve"), ("tfresolve", "reference")):
        if side in stopped and line.startswith("errors: %s only" % other):
            return True
    return bool(FOLLOW_ON.match(line))


def explain(res, files, oracle, args, root, env, ud, ask=None, base=None):
    """The KNOWN entries that explain the differences, each line of them
    on its own (with the tree's files), or None when a line is not
    explained.  "valid:" follows from the errors when an error differs.
    An entry of Go's map order explains only with the evidence of a rerun
    of the reference (known_map_order); else a line saying so is added to
    the differences."""
    lines = res["diffs"]
    if any(x.startswith("errors: ") for x in lines):
        lines = [x for x in lines if not x.startswith("valid: ")]
    # an explained error on one side only stops that side's run there
    # (Terraform stops a walk at its errors: the validate walk's keep the
    # plan walk from running, internal/terraform/context_plan.go:176-183
    # and graph_walk_context.go): the other side's later errors and the
    # values and instances the stopped side never reached follow from it
    stopped = {side for side in ("reference", "tfresolve")
               if any(x.startswith("errors: %s only" % side) and
                      known(x + "\n" + files, x, lines, base) for x in lines)}
    used, order = set(), False
    for x in lines:
        ks = known(x + "\n" + files, x, lines, base)
        if not ks and follow_on(x, stopped):
            used.add("follow-on of an explained error (%s stopped first)"
                     % "/".join(sorted(stopped)))
            continue
        if not ks:
            return None
        plain = [k for k in ks if not k.map_order]
        used.add(repr((plain or ks)[0]))
        order |= not plain
    if order:
        if ud is None or not known_map_order(
                lambda: (ask or reference)(oracle, args, root, env)[0], ud):
            res["diffs"].append("(a KNOWN entry of Go's map order matches, "
                                "but %d more runs of the reference all gave "
                                "this answer: not Go's map order)"
                                % MAP_ORDER_RUNS)
            return None
    return "; ".join(sorted(used))


def one_tree(job):
    """Generates tree i of the seed, runs it, compares; returns a result
    dict (picklable)."""
    tool, oracle, seed, i, oracle_only, keep, marked = job
    g = TreeGen(random.Random("%d/%d" % (seed, i)), marked)
    base = tempfile.mkdtemp(prefix="treediff.")
    res = {"i": i, "diffs": [], "known": None, "valid": None, "oracle_diag": [],
           "summaries": [], "coverage": [], "kinds": []}
    try:
        spec = g.tree(base)
        res["kinds"] = sorted(spec["kinds"])
        root = os.path.join(base, "root")
        args, env = spec["args"], spec["env"]
        ref_root, expects = root, []
        if spec["patches"]:
            ref_root, expects = reference_copy(base, spec["patches"])

        def ask(*_):
            doc, err = reference(oracle, args, ref_root, env)
            doc = expect_diags(doc, expects)
            return past_skipped_rules(oracle, args, ref_root, env, doc,
                                      expects), err
        od, oerr = ask()
        if od is None:
            res["diffs"] = ["reference output is not JSON: %s" % oerr[:300]]
        if od is not None:
            res["valid"] = od.get("valid")
            res["oracle_diag"] = sorted({g_["summary"] for g_ in od["diagnostics"]
                                         if "(oracle)" in g_.get("summary", "")})
            res["summaries"] = [(g_["severity"], g_["summary"],
                                 depth_of(g_.get("module", "")))
                                for g_ in od["diagnostics"]]
            res["coverage"] = sorted(coverage(spec, od))
        if not oracle_only and od is not None:
            # tfresolve's own rule: a module that is not installed is a
            # warning (that module is not checked) unless -strict makes it
            # the error Terraform's plan gives
            strict = ["-strict"] if any(
                g_.get("summary") == "Module not installed" and
                g_.get("severity") == "error" for g_ in od["diagnostics"]) else []
            cmd = [tool, "show"] + strict + ["-json", "-show-sensitive"] + args
            res["cmd"] = cmd
            _, uo, uerr = run(cmd, root, env)
            ud = None
            try:
                ud = json.loads(uo, parse_float=Decimal)
                if strict:
                    ud = past_not_installed(od, ud)
                res["diffs"] = compare(od, ud)
            except ValueError:
                res["diffs"] = ["tfresolve output is not JSON: %s" %
                                (uo + uerr)[:300]]
            if res["diffs"]:
                res["known"] = explain(res, read_all(base), oracle, args,
                                       root, env, ud, ask, base)
        if (res["diffs"] or (oracle_only and res["oracle_diag"])) and keep \
                and not res["known"]:
            dest = os.path.join(keep, "t%d-%05d" % (seed, i))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(base, dest, symlinks=True)
            for x in (".ref", ".skip", ".ref.skip"):
                if os.path.isdir(base + x):
                    shutil.copytree(base + x, os.path.join(dest, x[1:]),
                                    symlinks=True)
            with open(os.path.join(dest, "cmd"), "w") as f:
                json.dump({"args": args, "env": env, "cwd": "root",
                           "seed": seed, "tree": i}, f, indent=1)
            with open(os.path.join(dest, "diffs"), "w") as f:
                f.write("\n".join(res["diffs"]) + "\n")
            with open(os.path.join(dest, "repro.sh"), "w") as f:
                pre = "cd \"$(dirname \"$0\")/root\" && env -i PATH=\"$PATH\" " \
                    "LANG=C.UTF-8 " + " ".join(
                        shlex.quote("%s=%s" % kv) for kv in sorted(env.items()))
                f.write("#!/bin/sh\n# reference, then tfresolve\n(%s %s)\n(%s %s)\n" % (
                    pre, " ".join(shlex.quote(x) for x in
                                  [oracle, "-tree"] + args),
                    pre, " ".join(shlex.quote(x) for x in res.get("cmd", []))))
            res["kept"] = dest
    finally:
        shutil.rmtree(base, ignore_errors=True)
        for x in (".ref", ".skip", ".ref.skip"):
            shutil.rmtree(base + x, ignore_errors=True)
    return res


def self_test_emulation():
    """The reference's copy: a diagnostic over a whole value made to wait
    gets the value's range, and nothing else on its line moves; a cycle
    through an output and its stand-in names it once; a root variable
    whose rules read a failed one, directly or not, is skipped and read
    by no node of the second run.  The failures (a list)."""
    global reference
    bad = []

    def diag(col, summary="Ephemeral value not allowed"):
        return {"severity": "error", "summary": summary, "module": "",
                "range": {"filename": "main.tf",
                          "start": {"line": 3, "column": col, "byte": 0},
                          "end": {"line": 3, "column": 40, "byte": 0}}}
    to = {"file": "main.tf", "line": 3, "col": 11, "end": 14, "byte": 30}
    doc = {"diagnostics": [diag(10), diag(12)]}
    expect_diags(doc, [{"whole": ("main.tf", 3, 10), "to": to}])
    got = [(g["range"]["start"]["column"], g["range"]["end"]["column"])
           for g in doc["diagnostics"]]
    if got != [(11, 14), (12, 40)]:
        bad.append("a whole value's diagnostic took the ranges %s" % got)
    doc = {"diagnostics": [{"severity": "error", "summary":
                            "Cycle:\n  module.m.output.zzpc1 (expand)\n"
                            "  module.m.output.o0 (expand)\n  local.a (expand)"}]}
    expect_diags(doc, [{"node": ("output.zzpc1 ", "output.o0 ")}])
    if doc["diagnostics"][0]["summary"] != \
            "Cycle:\n  module.m.output.o0 (expand)\n  local.a (expand)":
        bad.append("a cycle through a stand-in: %r"
                   % doc["diagnostics"][0]["summary"])
    d = tempfile.mkdtemp(prefix="treediff.")
    keep = reference
    try:
        root = os.path.join(d, "root")
        os.makedirs(root)
        rule = ('  validation {\n    condition     = %s\n'
                '    error_message = "m."\n  }\n')
        with open(os.path.join(root, "main.tf"), "w") as f:
            f.write('variable "a" {}\n\nvariable "b" {\n%s}\n\n'
                    'variable "c" {\n%s}\n\nvariable "d" {\n%s}\n'
                    % (rule % "var.a != var.b", rule % "var.b == var.c",
                       rule % "var.d != 1"))
        first = {"variables": {"a": {"error": True}, "b": {"value": 1},
                               "c": {"value": 2}, "d": {"value": 3}},
                 "diagnostics": []}
        skipped, _ = skipped_root_rules(first, root)
        if skipped != {"b", "c"}:
            bad.append("skipped_root_rules: %s" % sorted(skipped))

        def second(oracle, args, r, env):
            with open(os.path.join(r, "main.tf")) as f:
                text = f.read()
            ok = "var.b != var.b" in text and "var.c != var.c" in text and \
                '"%s"' % SKIP_MARK in text and "var.d != 1" in text
            return {"variables": {x: {"error": True} for x in "abcd"},
                    "diagnostics": [{"severity": "error", "variable": x,
                                     "module": "", "summary": "s",
                                     "detail": SKIP_MARK if ok else "?"}
                                    for x in "bc"]}, ""
        reference = second
        doc = past_skipped_rules("", [], root, {}, first, [])
        if doc["diagnostics"] or doc["variables"]["b"] != {"value": 1} or \
                not doc["variables"]["d"].get("error"):
            bad.append("past_skipped_rules: %s" % jd(doc, 400))
    finally:
        reference = keep
        shutil.rmtree(d, ignore_errors=True)
        shutil.rmtree(d + ".skip", ignore_errors=True)
    return bad


def self_test():
    """The comparison's own rules, without the reference: a KNOWN entry
    of Go's map order does not take a difference that reruns do not
    change, and takes one that they do; redacted_match takes only quoted
    parts written "(sensitive value)"; reference_ranges cuts at the
    instance key; the reference's copy (self_test_emulation).  0 when
    all hold."""
    global reference
    bad = []
    line = ('errors: reference only ["error", "Invalid value for input '
            'variable", "The given value is not suitable for module.m.var.x: '
            'attribute \\"a\\" is required.", "main.tf:1,1-1,2", "x", '
            '"module.m"]')
    ud = {"valid": False, "variables": {}, "diagnostics": []}
    other = {"valid": True, "variables": {}, "diagnostics": []}
    keep = reference
    try:
        reference = lambda *a: (other, "")
        res = {"diffs": [line]}
        if explain(res, "", "", [], "", {}, ud) is not None:
            bad.append("a map-order entry took a deterministic difference")
        reference = lambda *a: (ud, "")
        if explain({"diffs": [line]}, "", "", [], "", {}, ud) is None:
            bad.append("a map-order entry refused a difference reruns change")
    finally:
        reference = keep
    k = ("error", "Duplicate object key", 'the key "app" in', "r", "v", "m")
    if not redacted_match(k, k[:2] + ("the key (sensitive value) in",) + k[3:]):
        bad.append("redacted_match refused a redacted key")
    if redacted_match(k, k[:2] + ("the key (sensitive value) at",) + k[3:]):
        bad.append("redacted_match took another text")
    d = tempfile.mkdtemp(prefix="treediff.")
    try:
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write('x = resource.a.b["k"].id\n')
        doc = {"diagnostics": [{"summary": "Reference to undeclared resource",
                                "range": {"filename": "main.tf",
                                          "start": {"line": 1, "column": 5,
                                                    "byte": 4},
                                          "end": {"line": 1, "column": 25,
                                                  "byte": 24}}}]}
        end = reference_ranges(doc, d)["diagnostics"][0]["range"]["end"]
        if end["column"] != 22:
            bad.append("reference_ranges ends at column %d" % end["column"])
    finally:
        shutil.rmtree(d, ignore_errors=True)
    bad += self_test_emulation()
    for x in bad:
        print("FAIL " + x)
    print("%d passed, %d failed" % (9 - len(bad), len(bad)))
    return 1 if bad else 0


def main():
    if sys.argv[1:] == ["--self-test"]:
        return self_test()
    ap = argparse.ArgumentParser()
    ap.add_argument("tfresolve")
    ap.add_argument("tforacle")
    # the suite runs a few (tests/meson.build); TREE_DIFFTEST_TREES (or
    # --trees) sets how many for a campaign
    ap.add_argument("--trees", type=int,
                    default=int(os.environ.get("TREE_DIFFTEST_TREES", "200")))
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--keep", help="keep the trees that differ here")
    ap.add_argument("--tree", type=int, help="run only this tree of the seed")
    ap.add_argument("--oracle-only", action="store_true",
                    help="run the reference alone: check the generator")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", action="store_true")
    o = ap.parse_args()
    bad = [k for k in KNOWN if not SOURCE_LINE.match(k.source)]
    if bad:
        print("KNOWN entries without a Terraform source file:line: %s" % bad)
        return 2
    if not os.access(o.tforacle, os.X_OK):
        print("SKIP reference program not built (%s)" % o.tforacle)
        return 77  # meson's "skipped"
    tool = os.path.abspath(o.tfresolve)
    oracle = os.path.abspath(o.tforacle)
    keep = os.path.abspath(o.keep) if o.keep else None
    if keep:
        os.makedirs(keep, exist_ok=True)
    idx = [o.tree] if o.tree is not None else range(o.trees)
    marked = marked_for_each(oracle)
    if not marked:
        print("note: the reference rejects a for_each map whose element is "
              "sensitive (Terraform looks at the map's own marks, "
              "internal/terraform/eval_for_each.go:267,319): no such for_each "
              "is generated")
    jobs = [(tool, oracle, o.seed, i, o.oracle_only, keep, marked)
            for i in idx]
    passed = failed = artifacts = shown = found = 0
    found_seen = {}
    valid = oracle_diag = 0
    hist, cov, kinds = {}, {}, {}
    known_seen = {}
    with multiprocessing.Pool(max(1, o.jobs)) as pool:
        for res in pool.imap(one_tree, jobs, chunksize=4):
            i = res["i"]
            valid += 1 if res["valid"] else 0
            if res["oracle_diag"]:
                oracle_diag += 1
                if o.oracle_only and o.v:
                    print("tree %d: %s" % (i, ", ".join(res["oracle_diag"])))
            for s in set(res["summaries"]):
                hist[s] = hist.get(s, 0) + 1
            for c in res["coverage"]:
                cov[c] = cov.get(c, 0) + 1
            for k in res["kinds"]:
                kinds[k] = kinds.get(k, 0) + 1
            if o.oracle_only:
                continue
            if not res["diffs"]:
                passed += 1
            elif res["known"] and "tests/FOUND.md" in res["known"]:
                found += 1
                for x in sorted(set(re.findall(r"FOUND\.md #\d+",
                                               res["known"]))):
                    found_seen[x] = found_seen.get(x, 0) + 1
                if o.v:
                    print("FOUND tree %d (seed %d): %s: %s" % (
                        i, o.seed, res["known"], res["diffs"][0][:200]))
            elif res["known"]:
                artifacts += 1
                known_seen[res["known"]] = known_seen.get(res["known"], 0) + 1
            else:
                failed += 1
                where = (" (kept in %s)" % res["kept"]) if res.get("kept") else ""
                if shown < 20:
                    shown += 1
                    print("FAIL tree %d (seed %d)%s: %s" % (
                        i, o.seed, where, " | ".join(res["diffs"])))
                else:
                    print("FAIL tree %d (seed %d)%s: %s" % (
                        i, o.seed, where, res["diffs"][0][:120]))
    n = len(jobs)
    if o.oracle_only or o.v:
        print("reference: %d of %d trees valid (%.0f%%); %d with an "
              "\"(oracle)\" diagnostic" % (valid, n, 100.0 * valid / max(n, 1),
                                           oracle_diag))
        print("trees with each diagnostic (severity, summary, module depth):")
        for (sev, s, dep), c in sorted(hist.items(), key=lambda x: (-x[1], x[0])):
            print("  %6d  %-7s d%d  %s" % (c, sev, dep, s.replace("\n", " ")[:90]))
        print("coverage (trees):")
        for c, k in sorted(cov.items()):
            print("  %6d  %s" % (k, c))
        if o.v:
            print("generated kinds (trees):")
            for k, c in sorted(kinds.items()):
                print("  %6d  %s" % (c, k))
        if known_seen:
            print("known differences, by KNOWN entry:")
            for k, c in known_seen.items():
                print("  %6d  %s" % (c, k))
    if o.oracle_only:
        bad = oracle_diag > n * 0.1
        print("%d passed, %d failed" % (n - oracle_diag if not bad else 0,
                                        oracle_diag if not bad else n))
        return 1 if bad else 0
    print("seed %d: %d trees; %d known differences (see KNOWN)" % (
        o.seed, n, artifacts))
    if found:
        print("%d trees differ by tfresolve bugs written in tests/FOUND.md (%s)"
              % (found, ", ".join("%s: %d" % kv for kv in
                                  sorted(found_seen.items()))))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
