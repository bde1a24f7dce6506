#!/usr/bin/env python3
"""Every built-in function on partly unknown arguments, against the
reference program (issue 37, point 2).

    func_unknowns.py TFRESOLVE TFORACLE [--show N] [--explain] [--list]

cty calls a function when its arguments are known at the top level and
leaves it to the function what an unknown element inside a known
collection does (cty/function/function.go in go-cty: Call tests
`val.IsKnown()`, never IsWhollyKnown).  For every function both programs
have (ours are read from src/eval/funcs_*.c's tables, the reference's
from `tforacle -functions`), each sample call below is varied at every
node of every argument: a primitive becomes an unknown of its type
(var.s, var.n, var.b), a collection an unknown one (var.ls, var.ms, or
var.d of type any), each also marked sensitive; a value a sensitive one,
a collection a sensitive one with an unknown inside, an object a for
expression over it (which keeps its keys) or one whose key is unknown.
Lists, sets and maps come from tolist/toset/tomap around a varied
value.  That gives unknowns at the top level, one level and two levels
down.  Each call is
evaluated by `tfresolve eval -functions -json -` and
`tforacle -eval-stdin`, each in one process for all calls; the JSON
lines must be equal.  A result that is not wholly known shows only
"unknown": true, so probes reveal its known parts, in two more rounds:
length(R), R[0], R[1], keys(R), R.attr, R == null (the not-null
refinement).

Exits 77 (meson's SKIP) when the reference program is not built.  A
remaining difference must match an entry of KNOWN, which names the
Terraform source line that explains it.
"""
import argparse
import json
import os
import re
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from harness import run, child_env, Tally  # noqa: E402

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src",
                   "eval")

MODULE = """
variable "s" {
  type = string
}
variable "n" {
  type = number
}
variable "b" {
  type = bool
}
variable "ls" {
  type = list(string)
}
variable "ms" {
  type = map(string)
}
variable "d" {
  type = any
}
"""


class Raw:
    """HCL text used as it is (not varied)."""

    def __init__(self, text):
        self.text = text


NULL = Raw("null")


class Wrap:
    """A call of a conversion function (tolist, toset, tomap) around a
    value, so that an argument is a list, set or map: varied inside."""

    def __init__(self, fn, value):
        self.fn, self.value = fn, value


def L(v):
    return Wrap("tolist", v)


def S(v):
    return Wrap("toset", v)


def M(v):
    return Wrap("tomap", v)

# Sample calls: the arguments of each, as Python values (str, int, float,
# bool, list = tuple constructor, dict = object constructor, Raw).
SAMPLES = {
    "abs": [[-1]],
    "abspath": [["a/b"]],
    "alltrue": [[[True, True]], [[True, False]],
               [L([True, True])]],
    "anytrue": [[[False, True]], [[False, False]],
               [S([True])]],
    "base64decode": [["aGk="]],
    "base64encode": [["hi"]],
    "basename": [["a/b"]],
    "can": [[["a", {"b": 1}]]],
    "ceil": [[1.5]],
    "chomp": [["a\\n"]],
    "chunklist": [[["a", "b", "c"], 2],
                 [L(["a", "b", "c"]), 2],
                 [[["a"], ["b"]], 1]],
    "cidrhost": [["10.0.0.0/8", 2]],
    "cidrnetmask": [["10.0.0.0/8"]],
    "cidrsubnet": [["10.0.0.0/8", 8, 2]],
    "cidrsubnets": [["10.0.0.0/8", 8, 8]],
    "coalesce": [["", "a"], [NULL, 1, 2], [["a"], ["b", "c"]],
                [{"a": "x"}, {"a": "y"}]],
    "coalescelist": [[[], ["a"]], [["a", "b"], ["c"]],
                    [[["a"]], [["b"]]]],
    "compact": [[["a", "", "b"]]],
    "concat": [[["a"], ["b", "c"]], [[["x"]], [{"y": 1}]],
              [L(["a"]), L(["b"])]],
    "contains": [[["a", "b"], "b"], [["a", "b"], "c"],
                [S(["a", "b"]), "b"], [L(["a", "b"]), "a"],
                [[["a"], ["b"]], ["b"]], [[{"a": 1}], {"a": 1}]],
    "csvdecode": [["a,b\\n1,2\\n"]],
    "dirname": [["a/b"]],
    "distinct": [[["a", "b", "a"]],
                [L(["a", "b", "a"])],
                [[["a"], ["a"], ["b"]]]],
    "element": [[["a", "b", "c"], 1], [["a", "b"], 3],
               [L(["a", "b"]), 0],
               [[["a"], ["b"]], 1]],
    "endswith": [["abc", "c"]],
    "file": [["hello.txt"]],
    "filebase64": [["hello.txt"]],
    "filebase64sha256": [["hello.txt"]],
    "filebase64sha512": [["hello.txt"]],
    "fileexists": [["hello.txt"]],
    "filemd5": [["hello.txt"]],
    "fileset": [[".", "*.txt"]],
    "filesha1": [["hello.txt"]],
    "filesha256": [["hello.txt"]],
    "filesha512": [["hello.txt"]],
    "flatten": [[[["a", "b"], ["c"]]], [[["a", ["b"]], []]],
               [[L(["a"]), S(["b"])]]],
    "floor": [[1.5]],
    "format": [["%s-%d", "a", 1], ["%v", ["a", "b"]],
              ["%v", M({"a": "x"})],
              ["%#v", {"a": ["b"]}]],
    "formatdate": [["YYYY", "2020-01-02T03:04:05Z"]],
    "formatlist": [["%s-%s", ["a", "b"], "c"], ["%s", ["a", "b"]],
                  ["%s", L(["a", "b"])],
                  ["%v", [["a"], ["b"]]]],
    "indent": [[2, "a\\nb"]],
    "index": [[["a", "b"], "b"], [["a", "b"], "c"],
             [L(["a", "b"]), "b"],
             [[["a"], ["b"]], ["b"]]],
    "issensitive": [["a"], [["a"]]],
    "join": [[",", ["a", "b"]], ["-", ["a"], ["b", "c"]],
            [",", L(["a"]), S(["b"])]],
    "jsondecode": [["{\\\"a\\\":1}"]],
    "jsonencode": [[{"a": ["b", 1]}], ["a"],
                  [M({"a": "x"})], [S(["a"])],
                  [[{"a": ["b"]}, "c"]]],
    "keys": [[{"a": 1, "b": 2}], [{"a": "x", "b": ["y"]}],
            [M({"a": "x", "b": "y"})]],
    "length": [[["a", "b"]], [{"a": 1}], ["abc"], [[["a"], ["b", "c"]]],
              [S(["a", "b"])], [M({"a": "x"})], [L(["a"])]],
    "list": [["a"]],
    "log": [[8, 2]],
    "lookup": [[{"a": "x", "b": "y"}, "a"], [{"a": "x"}, "c", "d"],
               [{"a": {"b": 1}, "c": {"b": 2}}, "a"],
              [M({"a": "x", "b": "y"}), "a"], [M({"a": "x"}), "c", "d"]],
    "lower": [["AB"]],
    "map": [["a", "b"]],
    "matchkeys": [[["a", "b", "c"], ["x", "y", "z"], ["y"]],
                 [L(["a", "b"]), L(["x", "y"]), S(["y"])],
                 [[["a"], ["b"]], [["x"], ["y"]], [["y"]]]],
    "max": [[1, 3, 2]],
    "md5": [["a"]],
    "merge": [[{"a": 1}, {"b": 2}], [{"a": "x"}, {"a": "y", "b": "z"}],
              [{"a": {"x": 1}}, {"b": ["c"]}],
             [M({"a": "x"}), M({"b": "y"})], [M({"a": "x"}), {"b": 1}]],
    "min": [[1, 2]],
    "nonsensitive": [["a"], [["a", "b"]],
                    [M({"a": "x"})]],
    "one": [[["a"]], [[]],
           [L(["a"])], [S(["a"])],
           [[{"a": "x"}]]],
    "parseint": [["ff", 16]],
    "pathexpand": [["a/b"]],
    "pow": [[2, 3]],
    "range": [[3], [1, 4], [1, 6, 2]],
    "regex": [["a(b)", "abc"]],
    "regexall": [["a", "aba"]],
    "replace": [["abc", "b", "x"]],
    "reverse": [[["a", "b"]],
               [L(["a", "b"])],
               [[["a"], {"b": 1}]]],
    "sensitive": [["a"], [["a", "b"]],
                 [M({"a": "x"})]],
    "setintersection": [[["a", "b"], ["b", "c"]],
                       [S(["a", "b"]), S(["b"])],
                       [[{"a": "x"}, {"a": "y"}], [{"a": "x"}]]],
    "setproduct": [[["a", "b"], ["c"]],
                  [S(["a"]), L(["b", "c"])],
                  [[["a"]], [{"b": 1}]]],
    "setsubtract": [[["a", "b"], ["b"]],
                   [S(["a", "b"]), S(["b"])],
                   [[["a"], ["b"]], [["b"]]]],
    "setunion": [[["a"], ["b"]],
                [S(["a"]), L(["b"])],
                [[["a"]], [["b"]]]],
    "sha1": [["a"]],
    "sha256": [["a"]],
    "sha512": [["a"]],
    "signum": [[-3]],
    "slice": [[["a", "b", "c"], 1, 3],
             [L(["a", "b", "c"]), 0, 2]],
    "sort": [[["b", "a"]],
            [L(["b", "a"])]],
    "split": [[",", "a,b"]],
    "startswith": [["abc", "a"]],
    "strcontains": [["abc", "b"]],
    "strrev": [["abc"]],
    "substr": [["abcdef", 1, 3]],
    "sum": [[[1, 2, 3]],
           [L([1, 2])], [S([1, 2])]],
    "templatefile": [["t.tmpl", {"a": "x", "b": ["y", "z"]}]],
    "timeadd": [["2020-01-01T00:00:00Z", "1h"]],
    "title": [["ab cd"]],
    "tobool": [[True], ["true"]],
    "tolist": [[["a", "b"]], [["a", 1]],
              [S(["a", "b"])], [[["a"], ["b"]]]],
    "tomap": [[{"a": "x", "b": "y"}], [{"a": 1, "b": "x"}],
             [{"a": ["x"], "b": ["y"]}]],
    "tonumber": [["1"], [1]],
    "toset": [[["a", "b", "a"]],
             [L(["a", "b"])], [[{"a": 1}, {"a": 2}]]],
    "tostring": [["a"], [1]],
    "transpose": [[{"a": ["x", "y"], "b": ["x"]}],
                 [M({"a": L(["x"])})]],
    "trim": [["xaxx", "x"]],
    "trimprefix": [["abc", "a"]],
    "trimspace": [[" a "]],
    "trimsuffix": [["abc", "c"]],
    "try": [["a", "b"], [{"a": 1}]],
    "upper": [["ab"]],
    "urlencode": [["a b"]],
    "values": [[{"a": 1, "b": 2}], [{"a": "x", "b": ["y"]}],
              [M({"a": "x", "b": "y"})]],
    "yamldecode": [["a: 1"]],
    "yamlencode": [[{"a": ["b", 1]}],
                  [M({"a": "x"})]],
    "zipmap": [[["a", "b"], ["x", "y"]], [["a", "b"], [1, {"c": 2}]],
              [L(["a", "b"]), L(["x", "y"])],
              [["a"], [[["x"]]]]],
}

# Terraform's own functions (internal/lang/funcs in Terraform) whose
# spec has RefineResult: refineNotNull; the reference program's ports of
# them declare none (shared/oracle/SEMANTICS.md, "Known gaps"), so its
# unknown result of theirs may be null, and `R == null` stays unknown.
TF_NOT_NULL = {
    "alltrue": "collection.go:77", "anytrue": "collection.go:107",
    "base64decode": "encoding.go:38", "base64encode": "encoding.go:73",
    "basename": "filesystem.go:320", "coalesce": "collection.go:156",
    "dirname": "filesystem.go:336", "endswith": "string.go:85",
    "index": "collection.go:190", "length": "collection.go:38",
    "matchkeys": "collection.go:358", "md5": "crypto.go:242",
    "replace": "string.go:116", "sha1": "crypto.go:242",
    "sha256": "crypto.go:242", "sha512": "crypto.go:242",
    "startswith": "string.go:36", "sum": "collection.go:503",
    "transpose": "collection.go:573", "urlencode": "encoding.go:236",
}


def more_marked(ours, ref):
    """tfresolve's result is sensitive, the reference's is not, and they
    are otherwise equal."""
    return (ours.get("sensitive") and not ref.get("sensitive") and
            without(ours, "sensitive") == ref)


def bool_result(r, value, unknown=False):
    return (r.get("type") == "bool" and r.get("value") == value and
            bool(r.get("unknown")) == unknown)


def without(r, key):
    return {k: v for k, v in r.items() if k != key}


def not_null(e, ours, ref):
    m = re.match(r"^\((\w+)\(.*\)\) == null$", e)
    return (m and m.group(1) in TF_NOT_NULL and
            without(ours, "sensitive") == {"type": "bool", "value": False} and
            bool_result(ref, None, True) and
            ours.get("sensitive") == ref.get("sensitive") and
            "internal/lang/funcs/" + TF_NOT_NULL[m.group(1)])


def panic_period(ours, ref):
    a, b = ours.get("error"), ref.get("error")
    return (a and b and a["summary"] == b["summary"] and
            "panic in function implementation" in b["detail"] and
            a["detail"] == b["detail"] + ".")


# Differences that Terraform's source explains: (test on the expression,
# tfresolve's result and the reference's, why with the source line).
KNOWN = [
    (not_null, "Terraform's function declares RefineResult: refineNotNull "
     "(%s); the reference's port of it does not"),
    (lambda e, ours, ref: re.match(r"^issensitive\(", e) and
     bool_result(ours, None, True) and bool_result(ref, False),
     "issensitive of an unknown value that is not marked is unknown: "
     "internal/lang/funcs/sensitive.go:77-78 in Terraform; the reference "
     "answers false"),
    (lambda e, ours, ref: (re.search(r"\bto(bool|number|string|list|set|"
                                     r"map)\(sensitive\(var\.\w+\)\)", e) or
                           re.match(r"^tolist\(\(", e)) and
     ours.get("unknown") and more_marked(ours, ref),
     "tolist, tostring, ... of an unknown marked value keep its marks: "
     "internal/lang/funcs/conversion.go:47,72-73 in Terraform (AllowUnknown, "
     "WithSameMarks); the reference's makeToFunc has no AllowUnknown, so "
     "cty's Call drops the marks of an unknown argument it takes marked"),
    (lambda e, ours, ref: re.match(r"^lookup\(.*sensitive\(var\.", e) and
     more_marked(ours, ref),
     "lookup of an unknown marked map or key keeps their marks: "
     "internal/lang/funcs/collection.go:292-306 in Terraform; the "
     "reference's port drops them"),
    (lambda e, ours, ref: re.match(r"^templatefile\(.*sensitive\(var\.", e)
     and more_marked(ours, ref),
     "templatefile with unknown marked vars keeps their marks: "
     "internal/lang/funcs/filesystem.go:108-113,138-142 in Terraform "
     "(AllowUnknown, AllowMarked, WithMarks(varsMarks)); the reference's "
     "port drops them"),
    (lambda e, ours, ref: panic_period(ours, ref),
     "a panic's message ends with a period: hclsyntax/expression.go:618 in "
     "hcl v2.24.0 ends the detail with one after the message and Go's "
     "stack; the reference drops the stack and the period"),
]


def hcl(v):
    """The HCL text of a sample value."""
    if isinstance(v, Raw):
        return v.text
    if isinstance(v, Wrap):
        return "%s(%s)" % (v.fn, hcl(v.value))
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, str):
        return '"%s"' % v
    if isinstance(v, list):
        return "[%s]" % ", ".join(hcl(x) for x in v)
    return "{%s}" % ", ".join("%s = %s" % (k, hcl(x)) for k, x in v.items())


def unknowns(v):
    """The unknown values that may stand for v."""
    if isinstance(v, bool):
        return ["var.b"]
    if isinstance(v, (int, float)):
        return ["var.n"]
    if isinstance(v, str):
        return ["var.s"]
    if isinstance(v, list) and v and all(isinstance(x, str) for x in v):
        return ["var.ls", "var.d"]
    if isinstance(v, dict) and v and all(isinstance(x, str)
                                         for x in v.values()):
        return ["var.ms", "var.d"]
    return ["var.d"]


def first_unknown(v):
    """The text of collection v with its first primitive replaced by an
    unknown value, or None."""
    if isinstance(v, list):
        items = list(enumerate(v))
    elif isinstance(v, dict):
        items = list(v.items())
    else:
        return None
    for i, (k, x) in enumerate(items):
        t = None
        if isinstance(x, (bool, int, float, str)):
            t = unknowns(x)[0]
        elif isinstance(x, (list, dict)):
            t = first_unknown(x)
        if t is None:
            continue
        texts = [t if j == i else hcl(y) for j, (_, y) in enumerate(items)]
        if isinstance(v, list):
            return "[%s]" % ", ".join(texts)
        return "{%s}" % ", ".join("%s = %s" % (kk, tt) for (kk, _), tt
                                  in zip(items, texts))
    return None


def variants(v):
    """The texts of v with one node varied: an unknown value, a sensitive
    value, a for expression over an object (keys kept, or one unknown)."""
    if isinstance(v, Raw):
        return []
    if isinstance(v, Wrap):
        return ["%s(%s)" % (v.fn, t) for t in variants(v.value)]
    out = list(unknowns(v)) + ["sensitive(%s)" % hcl(v)]
    out += ["sensitive(%s)" % u for u in unknowns(v)]  # marked and unknown
    inner = first_unknown(v)
    if inner:  # marked as a whole, unknown inside
        out.append("sensitive(%s)" % inner)
    if isinstance(v, dict):
        out.append("{for k, x in %s : k => x}" % hcl(v))
        out.append('{for k, x in %s : (k == "a" ? var.s : k) => x}' % hcl(v))
    if isinstance(v, list):
        for i, x in enumerate(v):
            for t in variants(x):
                out.append("[%s]" % ", ".join(
                    t if j == i else hcl(y) for j, y in enumerate(v)))
    if isinstance(v, dict):
        for k, x in v.items():
            for t in variants(x):
                out.append("{%s}" % ", ".join(
                    "%s = %s" % (kk, t if kk == k else hcl(y))
                    for kk, y in v.items()))
    return out


def calls(name, sample):
    """The sample call and each of its variations."""
    args = [hcl(a) for a in sample]
    out = ["%s(%s)" % (name, ", ".join(args))]
    for i, a in enumerate(sample):
        for t in variants(a):
            out.append("%s(%s)" % (name, ", ".join(
                t if j == i else args[j] for j in range(len(args)))))
    return out


def probes(expr, res):
    """Expressions that show the known parts of a result not wholly
    known."""
    if not isinstance(res, dict) or not res.get("unknown"):
        return []
    r = "(%s)" % expr
    out = ["%s == null" % r]
    ty = res.get("type")
    kind = ty[0] if isinstance(ty, list) else ty
    if kind in ("list", "tuple", "set", "map", "object"):
        out.append("length(%s)" % r)
    if kind in ("list", "tuple"):
        out += ["%s[0]" % r, "%s[1]" % r]
    if kind in ("map", "object"):
        out.append("keys(%s)" % r)
    if kind == "object":
        out += ["%s.%s" % (r, k) for k in sorted(ty[1])]
    if kind == "set":
        out.append("tolist(%s)" % r)
    return out


def our_functions():
    names = set()
    for f in sorted(os.listdir(SRC)):
        if f.startswith("funcs") and f.endswith(".c"):
            text = open(os.path.join(SRC, f)).read()
            for m in re.finditer(r'struct func_spec \w+\[\] = \{(.*?)\n\};',
                                 text, re.S):
                names.update(re.findall(r'\n    \{"([a-z0-9_:]+)"',
                                        m.group(1)))
                names.update(re.findall(r'\n    [A-Z_]+\("([a-z0-9]+)"',
                                        m.group(1)))
    # can and try take expressions, not values: src/eval/eval.c
    text = open(os.path.join(SRC, "eval.c")).read()
    names.update(n for n in ("can", "try") if '"%s", 3' % n in text)
    return names


def evaluate(argv, cwd, exprs):
    """The results of exprs, one process for all; when the program stops
    early (a crash), the expression it stopped at gives {"crash": status}
    and a new process goes on after it."""
    out = []
    while len(out) < len(exprs):
        rest = exprs[len(out):]
        st, text, err = run(argv, cwd=cwd, env=child_env(),
                            stdin="".join(e + "\n" for e in rest),
                            timeout=300)
        lines = text.splitlines()
        out += [normal(json.loads(x)) for x in lines[:len(rest)]]
        if len(lines) < len(rest):
            out.append({"crash": st, "stderr": err[-300:]})
    return out


def normal(r):
    """A result as both programs write it: the reference gives no value
    for one not wholly known (tfresolve gives its known parts, which the
    probes compare)."""
    if r.get("unknown"):
        r["value"] = None
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfresolve")
    ap.add_argument("tforacle")
    ap.add_argument("--show", type=int, default=30,
                    help="differences shown in full")
    ap.add_argument("--explain", action="store_true",
                    help="print each difference KNOWN explains")
    ap.add_argument("--list", action="store_true",
                    help="print every expression and stop")
    o = ap.parse_args()
    o.tfresolve = os.path.abspath(o.tfresolve)
    if not os.access(o.tforacle, os.X_OK):
        print("SKIP reference program not built (%s)" % o.tforacle)
        return 77
    ours = our_functions()
    _, out, _ = run([o.tforacle, "-functions"], env=child_env())
    theirs = {n for n in out.split() if "::" not in n}
    t = Tally()
    # every function of the reference's is sampled here and is ours
    for n in sorted(theirs):
        t(n in SAMPLES, "no sample call for %s" % n)
        t(n in ours, "%s: not in tfresolve's function table" % n)
    only = sorted(n for n in ours if n not in theirs and "::" not in n)
    print("only tfresolve's (not compared here; tests/eval/): %s" %
          " ".join(only))
    exprs = []
    for n in sorted(SAMPLES):
        if n in theirs:
            for s in SAMPLES[n]:
                exprs += calls(n, s)
    exprs = list(dict.fromkeys(exprs))
    if o.list:
        print("\n".join(exprs))
        return 0
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(MODULE)
        with open(os.path.join(d, "hello.txt"), "w") as f:
            f.write("hello\n")
        with open(os.path.join(d, "t.tmpl"), "w") as f:
            f.write('${a}-${join(",", b)}')
        diffs = known = 0
        seen = set()
        for rnd in range(3):
            a = evaluate([o.tfresolve, "eval", "-functions", "-json",
                          "-show-sensitive", "-"], d,
                         exprs)
            b = evaluate([o.tforacle, "-eval-stdin"], d, exprs)
            nxt = []
            for e, x, y in zip(exprs, a, b):
                seen.add(e)
                if x == y:
                    t(True, e)
                    nxt += probes(e, y)
                    continue
                why = [w.replace("%s", str(k)) for t, w in KNOWN
                       for k in [t(e, x, y)] if k]
                if why:
                    if o.explain:
                        print("KNOWN %s: %s" % (e, why[0]))
                    known += 1
                    continue
                diffs += 1
                if diffs <= o.show:
                    t(False, e, "  tfresolve: %s\n  reference: %s" %
                      (json.dumps(x), json.dumps(y)))
                else:
                    t(False, e)
            exprs = [e for e in dict.fromkeys(nxt) if e not in seen]
            print("round %d: %d expressions" % (rnd + 1, len(seen)))
            if not exprs:
                break
        print("%d differences, %d explained by KNOWN" % (diffs, known))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
