#!/usr/bin/env python3
"""Metamorphic test of the module-tree mode: a child module instance run
alone, with the values the tree gave it, resolves to the same values.

  tree_metamorphic.py TFRESOLVE [--trees N] [--seed S] [--corpus DIR...]
                      [--keep DIR] [--tree-from-reference TFORACLE] [-v]

Needs no reference program.  The roots are N random module trees
(TreeGen of tree_difftest.py, with their -var / TF_VAR_ values), or with
--corpus every directory under the DIRs (../shared/corpus style) whose
.tf files have a `module` block with a local source (./ or ../).  For
each root, `TFRESOLVE show -json -show-sensitive` runs in it; then for
each child instance of its "modules":

 * an instance whose variables have neither "unknown" nor "error" and
   that no error diagnostic of the run belongs to ("module"): its
   module's directory -- and the directories its own local module calls
   load, so that their ../ sources still resolve -- are copied to a
   scratch directory (configuration files only: no *.tfvars), the
   instance's variables whose source.kind is "config" are written there
   as terraform.tfvars.json (their "value"), and `TFRESOLVE show -json
   -show-sensitive` runs there: each variable must have the same type
   (a list, set or map the tree made may come back as the tuple or
   object JSON makes, for an `any` variable), the same value and error
   flag, and the run no errors.  A child with module blocks of its own is
   a tree root there: only its own "variables" are compared.
 * an instance that failed in the tree only because of its rules
   (errors "Invalid value for variable", "Error message refers to
   sensitive values", "Invalid error message", "Invalid variable
   validation result"): the values of its failing variables are not in
   the answer (they are null, "error": true), so the tree is copied
   with that module's validation blocks taken out and run again, which
   gives them; run alone with its rules and those values, the module must
   fail the same way: the same set of (summary, variable) of its error
   diagnostics, ranges aside ("Error message refers to sensitive
   values" aside for a variable that is sensitive in one run and not in
   the other: a sensitive mark the caller's value carried).

Skipped, each with its reason: instances with unknown values, with other
errors, skipped because something upstream failed, whose rules (or the
local values they read) refer to path.module, path.root, path.cwd or a
module output (path.module is the directory the tree gives it, "." when
alone), whose own calls include a registry module (its manifest key
changes), runs that stopped before the plan walk.

--tree-from-reference TFORACLE takes the tree's answers from the
reference's -tree mode instead (a check of this script itself, while
tfresolve's tree mode is young); the runs alone are tfresolve's.
Prints a line per failure (the first 20 in full; the case kept under
--keep DIR) and "N passed, M failed, K skipped" last; exit status 1 when
any failed.
"""
import argparse
import json
import multiprocessing
import os
import random
import re
import shutil
import sys
import tempfile
from decimal import Decimal

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import tree_difftest  # noqa: E402  (the generator and run())

RULE_ERRORS = {"Invalid value for variable",
               "Error message refers to sensitive values",
               "Invalid error message",
               "Invalid variable validation result"}
SENSITIVE_MSG = "Error message refers to sensitive values"
CONFIG_EXT = (".tf", ".tf.json")


# ---------------------------------------------------------------- HCL text

def skip_string(t, i):
    """t[i] is '"': the index after the closing quote (templates'
    ${...} and %{...} skipped whole)."""
    i += 1
    n = len(t)
    while i < n:
        c = t[i]
        if c == "\\":
            i += 2
            continue
        if c == '"':
            return i + 1
        if c in "$%" and t.startswith("{", i + 1) and not t.startswith(c, i - 1):
            i = skip_braces(t, i + 2)
            continue
        if c == "\n":
            return i        # unterminated: let the caller go on
        i += 1
    return n


def skip_heredoc(t, i):
    """t[i:] starts with <<: the index after the heredoc, or i + 2 when it
    is not one."""
    m = re.match(r"<<-?([A-Za-z_][A-Za-z0-9_]*)[ \t]*\n", t[i:])
    if not m:
        return i + 2
    marker = m.group(1)
    j = i + m.end()
    while j < len(t):
        e = t.find("\n", j)
        line = t[j:e if e >= 0 else len(t)]
        if line.strip() == marker:
            return e if e >= 0 else len(t)
        if e < 0:
            return len(t)
        j = e + 1
    return len(t)


def skip_comment(t, i):
    if t.startswith("/*", i):
        e = t.find("*/", i + 2)
        return len(t) if e < 0 else e + 2
    e = t.find("\n", i)
    return len(t) if e < 0 else e


def skip_braces(t, i):
    """i is just after an opening brace: the index after its closing one."""
    depth = 1
    n = len(t)
    while i < n:
        c = t[i]
        if c == '"':
            i = skip_string(t, i)
            continue
        if c == "#" or t.startswith("//", i) or t.startswith("/*", i):
            i = skip_comment(t, i)
            continue
        if t.startswith("<<", i):
            i = skip_heredoc(t, i)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return n


HEADER = re.compile(r'^\s*([A-Za-z_][\w-]*)((?:\s+(?:"[^"\n]*"|[A-Za-z_][\w-]*))*)\s*$')


def blocks(t, start=0, end=None, depth=0):
    """The blocks of HCL text t[start:end], nested ones too: (depth, type,
    labels, header start, body start, end after the closing brace)."""
    out = []
    end = len(t) if end is None else end
    i = start
    stmt = start        # where the current statement began
    while i < end:
        c = t[i]
        if c == '"':
            i = skip_string(t, i)
            continue
        if c == "#" or t.startswith("//", i) or t.startswith("/*", i):
            i = skip_comment(t, i)
            continue
        if t.startswith("<<", i):
            i = skip_heredoc(t, i)
            continue
        if c == "\n":
            stmt = i + 1
        elif c == "{":
            close = skip_braces(t, i + 1)
            m = HEADER.match(t[stmt:i])
            if m:
                labels = re.findall(r'"([^"\n]*)"|([A-Za-z_][\w-]*)', m.group(2))
                labels = [a or b for a, b in labels]
                out.append((depth, m.group(1), labels, stmt, i + 1, close))
                out += blocks(t, i + 1, close - 1, depth + 1)
            i = close
            stmt = i
            continue
        i += 1
    return out


def read(path):
    with open(path, errors="replace") as f:
        return f.read()


def config_files(d):
    try:
        names = sorted(os.listdir(d))
    except OSError:
        return []
    return [os.path.join(d, n) for n in names
            if n.endswith(CONFIG_EXT) and os.path.isfile(os.path.join(d, n))]


def module_info(d):
    """What this test needs to know of the module in d: its module calls'
    sources, the text of its validation rules and of its locals."""
    info = {"sources": [], "rules": [], "locals": [], "outputs": []}
    for p in config_files(d):
        text = read(p)
        if p.endswith(".json"):
            try:
                doc = json.loads(text)
            except ValueError:
                continue
            mods = doc.get("module", {}) if isinstance(doc, dict) else {}
            for body in (mods.values() if isinstance(mods, dict) else []):
                for b in (body if isinstance(body, list) else [body]):
                    if isinstance(b, dict) and isinstance(b.get("source"), str):
                        info["sources"].append(b["source"])
            vs = doc.get("variable", {}) if isinstance(doc, dict) else {}
            for body in (vs.values() if isinstance(vs, dict) else []):
                for b in (body if isinstance(body, list) else [body]):
                    if isinstance(b, dict) and "validation" in b:
                        info["rules"].append(json.dumps(b["validation"]))
            if isinstance(doc, dict) and "locals" in doc:
                info["locals"].append(json.dumps(doc["locals"]))
            if isinstance(doc, dict) and "output" in doc:
                info["outputs"].append(json.dumps(doc["output"], indent=0).replace(
                    '"ephemeral": true', "ephemeral = true"))
            continue
        for depth, typ, labels, hs, bs, e in blocks(text):
            if depth == 0 and typ == "module":
                top = [b for b in blocks(text, bs, e - 1, 1)]
                body = text[bs:e - 1]
                # the source attribute of the block itself, not of a
                # nested block
                for b in top:
                    body = body.replace(text[b[3]:b[5]], "")
                m = re.search(r'(?m)^\s*source\s*=\s*"([^"]*)"', body)
                if m:
                    info["sources"].append(m.group(1))
                else:
                    info["sources"].append(None)   # not a literal
            elif depth == 1 and typ == "validation":
                info["rules"].append(text[hs:e])
            elif depth == 0 and typ == "locals":
                info["locals"].append(text[hs:e])
            elif depth == 0 and typ == "output":
                info["outputs"].append(text[hs:e])
    return info


def is_local(src):
    return src is not None and src.startswith(("./", "../", ".\\", "..\\"))


def local_dirs(d, seen=None):
    """d and every directory its local module calls load, recursively;
    (dirs, whether some call's source is not local)."""
    seen = set() if seen is None else seen
    d = os.path.normpath(d)
    if d in seen or len(seen) > 200:
        return seen, False
    seen.add(d)
    other = False
    for src in module_info(d)["sources"]:
        if is_local(src):
            _, o = local_dirs(os.path.join(d, src), seen)
            other = other or o
        else:
            other = True
    return seen, other


def strip_rules(d):
    """Takes the validation blocks out of the configuration files in d."""
    for p in config_files(d):
        text = read(p)
        if p.endswith(".json"):
            try:
                doc = json.loads(text)
            except ValueError:
                continue
            vs = doc.get("variable", {}) if isinstance(doc, dict) else {}
            for body in (vs.values() if isinstance(vs, dict) else []):
                for b in (body if isinstance(body, list) else [body]):
                    if isinstance(b, dict):
                        b.pop("validation", None)
            text = json.dumps(doc, indent=1)
        else:
            cut = sorted(((hs, e) for depth, typ, _, hs, _, e in blocks(text)
                          if depth == 1 and typ == "validation"), reverse=True)
            for hs, e in cut:
                text = text[:hs] + text[e:]
        with open(p, "w") as f:
            f.write(text)


def outputs_sensitive(d):
    """Every output of the module in d made sensitive = true: a root
    module's output may not carry a sensitive value otherwise ("Output
    refers to sensitive values"), a child's may, and outputs change no
    variable."""
    for p in config_files(d):
        text = read(p)
        if p.endswith(".json"):
            try:
                doc = json.loads(text)
            except ValueError:
                continue
            outs = doc.get("output", {}) if isinstance(doc, dict) else {}
            for body in (outs.values() if isinstance(outs, dict) else []):
                for b in (body if isinstance(body, list) else [body]):
                    if isinstance(b, dict):
                        b["sensitive"] = True
            text = json.dumps(doc, indent=1)
        else:
            outs = sorted(((bs, e) for depth, typ, _, hs, bs, e in blocks(text)
                           if depth == 0 and typ == "output"), reverse=True)
            for bs, e in outs:
                body = text[bs:e - 1]
                # the sensitive attribute of the block itself, if any (not
                # one of an object or a nested block)
                m = re.search(r"(?m)^[ \t]*sensitive[ \t]*=[^\n]*$",
                              mask_nested(body))
                if m:
                    body = body[:m.start()] + body[m.end():]
                text = text[:bs] + "\n" + body.strip("\n") + \
                    "\n  sensitive = true\n}" + text[e:]
        with open(p, "w") as f:
            f.write(text)


def mask_nested(t):
    """t with every string, comment and brace-enclosed part blanked (same
    length): what is left is the block body's own attribute names."""
    out = list(t)
    i, n = 0, len(t)
    while i < n:
        c = t[i]
        j = None
        if c == '"':
            j = skip_string(t, i)
        elif c == "#" or t.startswith("//", i) or t.startswith("/*", i):
            j = skip_comment(t, i)
        elif t.startswith("<<", i):
            j = skip_heredoc(t, i)
        elif c == "{":
            j = skip_braces(t, i + 1)
        if j is None:
            i += 1
            continue
        for k in range(i, j):
            if out[k] != "\n":
                out[k] = " "
        i = max(j, i + 1)
    return "".join(out)


def copy_dirs(dirs, dest, keep_root=None):
    """Copies the regular files of dirs (no *.tfvars, no .terraform) to
    dest, each at its place relative to their common base; keep_root:
    a directory copied with its tfvars and .terraform too.  Returns the
    base."""
    base = os.path.commonpath([os.path.abspath(x) for x in dirs])
    for d in dirs:
        ad = os.path.abspath(d)
        to = os.path.join(dest, os.path.relpath(ad, base))
        os.makedirs(to, exist_ok=True)
        for n in os.listdir(ad):
            p = os.path.join(ad, n)
            whole = keep_root is not None and ad == os.path.abspath(keep_root)
            if os.path.isfile(p):
                if not whole and (n.endswith(".tfvars") or
                                  n.endswith(".tfvars.json")):
                    continue
                shutil.copy(p, os.path.join(to, n))
            elif whole and n == ".terraform" and os.path.isdir(p):
                shutil.copytree(p, os.path.join(to, n), symlinks=True)
    return base


# ---------------------------------------------------------------- values

def dump_json(v):
    """JSON text of a value read with Decimal numbers."""
    if isinstance(v, Decimal):
        return str(v)
    if isinstance(v, bool) or v is None or isinstance(v, (int, str)):
        return json.dumps(v)
    if isinstance(v, list):
        return "[%s]" % ", ".join(dump_json(x) for x in v)
    return "{%s}" % ", ".join("%s: %s" % (json.dumps(k), dump_json(x))
                              for k, x in v.items())


def same_type(tree, alone, value):
    """Whether the alone run's type matches the tree's: equal, or the
    structural type a JSON value gets for a collection the tree made (an
    `any` variable keeps the type of what it is given)."""
    if tree == alone:
        return True
    if value is None and alone == "dynamic":
        return True     # JSON's null has no type
    if not (isinstance(tree, list) and isinstance(alone, list)):
        return False
    if tree[0] in ("list", "set") and alone[0] == "tuple":
        vals = value if isinstance(value, list) else []
        return len(alone[1]) == len(vals) and all(
            same_type(tree[1], a, x) for a, x in zip(alone[1], vals))
    if tree[0] == "map" and alone[0] == "object":
        vals = value if isinstance(value, dict) else {}
        return set(alone[1]) == set(vals) and all(
            same_type(tree[1], alone[1][k], vals[k]) for k in vals)
    if tree[0] == alone[0] == "tuple" and len(tree[1]) == len(alone[1]):
        vals = value if isinstance(value, list) else [None] * len(tree[1])
        return all(same_type(a, b, x) for a, b, x in zip(tree[1], alone[1], vals))
    if tree[0] == alone[0] == "object" and set(tree[1]) == set(alone[1]):
        vals = value if isinstance(value, dict) else {}
        return all(same_type(tree[1][k], alone[1][k], vals.get(k))
                   for k in tree[1])
    if tree[0] == alone[0] and tree[0] in ("list", "set", "map"):
        return same_type(tree[1], alone[1], None)
    return False


def errors(doc, module=None):
    """The error diagnostics of doc (of one module instance when module
    is given; "" or no field: the root)."""
    out = []
    for g in doc.get("diagnostics", []):
        if g.get("severity") != "error":
            continue
        if module is not None and (g.get("module") or "") != module:
            continue
        out.append(g)
    return out


# ---------------------------------------------------------------- one root

class Ctx:
    def __init__(self, tool, tree_cmd, keep):
        self.tool, self.tree_cmd, self.keep = tool, tree_cmd, keep


def run_json(argv, cwd, env):
    _, out, err = tree_difftest.run(argv, cwd, env)
    try:
        return json.loads(out, parse_float=Decimal), None
    except ValueError:
        return None, (out + err)[:300] or "no output"


def check_root(ctx, root, args, env, label):
    """Every child instance of the tree at root: a list of (outcome,
    address, text) with outcome "pass", "fail" or "skip"."""
    res = []
    doc, err = run_json(ctx.tree_cmd + args, root, env)
    if doc is None:
        return [("fail", label, "the tree's output is not JSON: %s" % err)]
    mods = doc.get("modules")
    if not mods:
        return [("skip", label, "no child instances in the answer")]
    by_mod = {}
    for g in errors(doc):
        by_mod.setdefault(g.get("module") or "", []).append(g)
    rootvars = doc.get("variables", {})
    planned = any(not v.get("error") for v in rootvars.values()) or any(
        not v.get("error") for m in mods.values()
        for v in m.get("variables", {}).values())
    stripped = {}       # module dir -> the answer of the tree without its rules
    for addr in sorted(mods):
        inst = mods[addr]
        vs = inst.get("variables", {})
        mdir = os.path.normpath(os.path.join(root, inst.get("dir", "")))
        reason = skip_reason(mdir)
        if reason:
            res.append(("skip", addr, reason))
            continue
        errs = by_mod.get(addr, [])
        if any(v.get("unknown") for v in vs.values()):
            res.append(("skip", addr, "a variable is unknown"))
            continue
        if not errs and not any(v.get("error") for v in vs.values()):
            res.append(alone_pass(ctx, label, addr, inst, mdir, root, args, env))
            continue
        if not planned:
            res.append(("skip", addr, "the tree stopped before the plan walk"))
            continue
        if not errs:
            res.append(("skip", addr, "skipped in the tree (something upstream "
                        "failed)"))
            continue
        if not all(g.get("summary") in RULE_ERRORS for g in errs):
            res.append(("skip", addr, "errors other than rule failures"))
            continue
        failing = {g.get("variable") for g in errs}
        if any(v.get("error") and n not in failing for n, v in vs.items()):
            res.append(("skip", addr, "a variable skipped as well as failed"))
            continue
        res.append(alone_fail(ctx, label, addr, inst, mdir, root, args, env,
                              errs, stripped))
    return res


def skip_reason(mdir):
    """Why an instance of the module in mdir cannot be run alone, or
    None."""
    dirs, other = local_dirs(mdir)
    if other:
        return "its calls include a non-local module source"
    info = module_info(mdir)
    rules = "\n".join(info["rules"])
    if re.search(r"\bpath\.(module|root|cwd)\b", rules):
        return "a rule refers to path.*"
    if re.search(r"\bmodule\.\w", rules):
        return "a rule refers to a module output"
    if re.search(r"(?m)^\s*ephemeral\s*=\s*true", "\n".join(info["outputs"])):
        return "an ephemeral output (not allowed in a root module)"
    if re.search(r"(?m)^\s*deprecated\s*=", "\n".join(info["outputs"])):
        # "Root module output deprecated" (internal/terraform/
        # node_output.go:522-530); tree_difftest makes them since issue 40
        return "a deprecated output (an error in a root module)"
    if re.search(r"\blocal\.\w", rules):
        loc = "\n".join(info["locals"])
        if re.search(r"\bpath\.(module|root|cwd)\b|\bmodule\.\w", loc):
            return "a rule reads a local value that refers to path.* or a " \
                   "module output"
    return None


def write_tfvars(d, inst, values=None):
    vs = inst.get("variables", {})
    vals = {n: (values or {}).get(n, v.get("value")) for n, v in vs.items()
            if (v.get("source") or {}).get("kind") == "config"}
    with open(os.path.join(d, "terraform.tfvars.json"), "w") as f:
        f.write(dump_json(vals) + "\n")
    return vals


def alone_dir(mdir, scratch):
    dirs, _ = local_dirs(mdir)
    base = copy_dirs(sorted(dirs), scratch)
    d = os.path.join(scratch, os.path.relpath(os.path.abspath(mdir), base))
    outputs_sensitive(d)
    return d


def alone_pass(ctx, label, addr, inst, mdir, root, args, env):
    scratch = tempfile.mkdtemp(prefix="treemeta.")
    try:
        d = alone_dir(mdir, scratch)
        write_tfvars(d, inst)
        doc, err = run_json([ctx.tool, "show", "-json", "-show-sensitive"], d, {})
        if doc is None:
            return keep(ctx, "fail", label, addr, "output alone is not JSON: %s"
                        % err, scratch)
        diffs = []
        av = doc.get("variables", {})
        for n, v in sorted(inst.get("variables", {}).items()):
            a = av.get(n)
            if a is None:
                diffs.append("var.%s missing alone" % n)
                continue
            if not same_type(v.get("type"), a.get("type"), v.get("value")):
                diffs.append("var.%s type: tree %s, alone %s" % (
                    n, tree_difftest.jd(v.get("type")), tree_difftest.jd(a.get("type"))))
            if v.get("value") != a.get("value"):
                diffs.append("var.%s value: tree %s, alone %s" % (
                    n, tree_difftest.jd(v.get("value")), tree_difftest.jd(a.get("value"))))
            if bool(v.get("error")) != bool(a.get("error")):
                diffs.append("var.%s error: tree %s, alone %s" % (
                    n, bool(v.get("error")), bool(a.get("error"))))
        errs = [g for g in errors(doc) if not (g.get("module") or "")]
        if errs:
            diffs.append("errors alone: %s" % tree_difftest.jd(
                [(g.get("summary"), g.get("variable"), g.get("detail", "")[:120])
                 for g in errs], 500))
        if diffs:
            return keep(ctx, "fail", label, addr, " | ".join(diffs), scratch)
        return ("pass", addr, "")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def alone_fail(ctx, label, addr, inst, mdir, root, args, env, errs, stripped):
    """The instance failed its rules in the tree: the same rules fail
    alone with the values the tree gives it without its rules."""
    scratch = tempfile.mkdtemp(prefix="treemeta.")
    try:
        if mdir not in stripped:
            tree = os.path.join(scratch, "tree")
            dirs, _ = local_dirs(root)
            base = copy_dirs(sorted(dirs | {os.path.normpath(mdir)}), tree,
                             keep_root=root)
            strip_rules(os.path.join(tree, os.path.relpath(
                os.path.abspath(mdir), base)))
            sroot = os.path.join(tree, os.path.relpath(os.path.abspath(root), base))
            stripped[mdir], _ = run_json(ctx.tree_cmd + args, sroot, env)
        sdoc = stripped[mdir]
        sinst = ((sdoc or {}).get("modules") or {}).get(addr)
        if sinst is None:
            return ("skip", addr, "not an instance of the tree without its rules")
        svs = sinst.get("variables", {})
        if any(v.get("unknown") or v.get("error") for v in svs.values()) or \
                errors(sdoc, addr):
            return ("skip", addr, "not resolved in the tree without its rules")
        d = alone_dir(mdir, os.path.join(scratch, "alone"))
        write_tfvars(d, sinst)
        doc, err = run_json([ctx.tool, "show", "-json", "-show-sensitive"], d, {})
        if doc is None:
            return keep(ctx, "fail", label, addr, "output alone is not JSON: %s"
                        % err, scratch)
        av = doc.get("variables", {})
        tv = inst.get("variables", {})

        def key_set(gs, other_sens, own_sens):
            out = set()
            for g in gs:
                v = g.get("variable")
                if g.get("summary") == SENSITIVE_MSG and \
                        bool(own_sens(v)) != bool(other_sens(v)):
                    continue
                out.add((g.get("summary"), v))
            return out
        # a failing variable's "sensitive" in the tree is its declaration's
        # (it has no value); the run without rules shows a caller's mark
        tsens = lambda v: (svs.get(v) or tv.get(v) or {}).get("sensitive")
        asens = lambda v: (av.get(v) or {}).get("sensitive")
        want = key_set(errs, asens, tsens)
        got = key_set([g for g in errors(doc) if not (g.get("module") or "")],
                      tsens, asens)
        if want != got:
            return keep(ctx, "fail", label, addr,
                        "rule errors: tree %s, alone %s" % (sorted(want, key=str),
                                                            sorted(got, key=str)),
                        scratch)
        return ("pass", addr, "failed alike")
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def keep(ctx, outcome, label, addr, text, scratch):
    if ctx.keep:
        dest = os.path.join(ctx.keep, re.sub(r"[^\w.-]+", "_", "%s-%s" % (
            label, addr)))
        shutil.rmtree(dest, ignore_errors=True)
        shutil.copytree(scratch, dest + "/alone", symlinks=True)
        with open(os.path.join(dest, "difference"), "w") as f:
            f.write("%s %s: %s\n" % (label, addr, text))
    return (outcome, addr, text)


# ---------------------------------------------------------------- jobs

def job_tree(job):
    tool, tree_cmd, seed, i, keepdir = job
    ctx = Ctx(tool, tree_cmd, keepdir)
    g = tree_difftest.TreeGen(random.Random("%d/%d" % (seed, i)))
    base = tempfile.mkdtemp(prefix="treemeta.")
    label = "t%d-%05d" % (seed, i)
    try:
        spec = g.tree(base)
        res = check_root(ctx, os.path.join(base, "root"), spec["args"],
                         spec["env"], label)
        if keepdir and any(r[0] == "fail" for r in res):
            dest = os.path.join(keepdir, label)
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(base, dest, symlinks=True)
            with open(os.path.join(dest, "cmd"), "w") as f:
                json.dump({"args": spec["args"], "env": spec["env"],
                           "cwd": "root"}, f, indent=1)
        return label, res
    finally:
        shutil.rmtree(base, ignore_errors=True)


def job_corpus(job):
    tool, tree_cmd, root, keepdir = job
    ctx = Ctx(tool, tree_cmd, keepdir)
    return root, check_root(ctx, root, [], {}, root.strip("/").replace("/", "_")[-80:])


def corpus_roots(dirs):
    """Every directory under dirs whose .tf files have a module block
    with a local source."""
    out = []
    for top in dirs:
        for dp, dn, fn in os.walk(top):
            dn[:] = sorted(x for x in dn if not x.startswith("."))
            if not any(n.endswith(CONFIG_EXT) for n in fn):
                continue
            if any(is_local(s) for s in module_info(dp)["sources"]):
                out.append(os.path.abspath(dp))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("tfresolve")
    ap.add_argument("--trees", type=int, default=100)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--corpus", nargs="+", metavar="DIR",
                    help="real module trees instead of random ones")
    ap.add_argument("--keep", help="keep the failing cases here")
    ap.add_argument("--tree-from-reference", metavar="TFORACLE",
                    help="the tree's answers from the reference's -tree mode")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("-v", action="store_true",
                    help="print every instance's outcome and the reasons "
                    "for skipping")
    o = ap.parse_args()
    tool = os.path.abspath(o.tfresolve)
    if o.tree_from_reference:
        tree_cmd = [os.path.abspath(o.tree_from_reference), "-tree"]
    else:
        tree_cmd = [tool, "show", "-json", "-show-sensitive"]
    keepdir = os.path.abspath(o.keep) if o.keep else None
    if keepdir:
        os.makedirs(keepdir, exist_ok=True)
    if o.corpus:
        roots = corpus_roots(o.corpus)
        jobs = [(tool, tree_cmd, r, keepdir) for r in roots]
        fn = job_corpus
    else:
        jobs = [(tool, tree_cmd, o.seed, i, keepdir) for i in range(o.trees)]
        fn = job_tree
    passed = failed = skipped = shown = alike = 0
    reasons = {}
    with multiprocessing.Pool(max(1, o.jobs)) as pool:
        for label, res in pool.imap(fn, jobs, chunksize=2):
            for outcome, addr, text in res:
                if outcome == "pass":
                    passed += 1
                    alike += 1 if text else 0
                elif outcome == "skip":
                    skipped += 1
                    reasons[text] = reasons.get(text, 0) + 1
                else:
                    failed += 1
                    line = "FAIL %s %s: %s" % (label, addr, text)
                    print(line if shown < 20 else line[:160])
                    shown += 1
                if o.v and outcome != "fail":
                    print("%s %s %s%s" % (outcome, label, addr,
                                          (": " + text) if text else ""))
    if reasons:
        print("skipped, by reason:")
        for t, n in sorted(reasons.items(), key=lambda x: -x[1]):
            print("  %6d  %s" % (n, t))
    print("passed: %d resolved alike, %d failed their rules alike" % (
        passed - alike, alike))
    print("%d passed, %d failed, %d skipped" % (passed, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
