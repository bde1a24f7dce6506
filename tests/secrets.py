#!/usr/bin/env python3
"""The secrets matrix: no sensitive value reaches any output unless
-show-sensitive asks for it.

  secrets.py TFRESOLVE FIXTURE_DIR [SHAPES_DIR [TREE_DIR]]

FIXTURE_DIR (fixtures/secrets) declares sensitive variables whose values
are canaries ("SECRET..." and one number), each set by another value
source: a default, TF_VAR_, terraform.tfvars, terraform.tfvars.json, an
.auto.tfvars and an .auto.tfvars.json file, -var, -var-file and
-var-file-each (envs/*.tfvars); s_all is set by all of them.  Its
validation rules build their error messages from the secrets (object
keys, for keys, splats, conditionals, templates, functions), and a test
file (tests/*.tftest.hcl) asserts on them.

Every command and format runs three times: with the rules failing, with
them passing, and with values of the wrong type from a var file, -var and
TF_VAR_: show (human, -json, yaml, tfvars, env, plan-json), check (human,
-json, sarif, github, junit, plan-json; also with -var-file-each), explain of every
sensitive variable, eval -functions and console (console, -json, yaml)
with EXPRESSIONS below, test (human, -json), init (tfvars, json, env),
inspect -json (each var file of envs/ one environment) and docs (with
-var-file-each).
No output may hold a canary, nor any value that the expressions derive
from them (read from a -show-sensitive run: hashes, encodings, upper
case...).  eval -json must mark every expression's result as sensitive
and give null for it.  With -show-sensitive, show, explain, eval and
console print the values (the opt-in works).

SHAPES_DIR (fixtures/secrets-shapes) holds one module per further way a
secret reaches a diagnostic (-strict's dropped attributes with map keys,
conversion errors that name an element, a duplicate key from an inverted
map, syntax errors in var files, -var and TF_VAR_ values of sensitive
variables, a terragrunt unit's inputs), each with `args` and `env` files: every command and format,
with and without -strict and -no-color, may show none of their canaries;
explain -show-sensitive shows the values of those that parse (the opt-in).

TREE_DIR (fixtures/secrets-tree) holds root modules whose secrets reach
child module instances: through for_each maps (each.value keeps the
element's mark, eval_for_each.go), directly and through local values, a
child's output map, a child's locals and chains three calls deep, a value
both sensitive and ephemeral, and for_each values sensitive as a whole
(their keys); and calls with no instance (count = 0, for_each = {}),
whose sensitive defaults and constant arguments plan-json's configuration
holds.  Each runs check (every format and -no-color; every
format with -var-file-each, with -recursive), show (every format) and
explain -all (text, JSON), these with and without -strict, explain of
every child variable by address (text, JSON), diff, eval and console of
the root's local values and module calls, eval -scope of every child
instance (its var and local objects, each variable), and the language
server (every file opened, a
hover on every key of terraform.tfvars), and check -policy with the
module policies of fixtures/secrets-policy (every format, with
-var-file-each and -strict, a sensitive policy input from TFPOLICY_INPUT_
and from its default): none may show a canary.  With
-show-sensitive, show -json prints each secret that reaches a child value
in that child's part (TREE_REACHES: the secrets do flow into the tree).

Prints a line per failure and "N passed, M failed" last.
"""
import glob
import json
import os
import re
import sys
import urllib.parse

from harness import Tally
import harness

TIMEOUT = 60

ENV = {"TF_VAR_s_env": "SECRETenvK4M9", "TF_VAR_s_all": "SECRETallEnvG5",
       "TF_VAR_s_num": "73914286"}
ARGS = ["-var", "s_cli=SECRETcliV5T7", "-var", "s_all=SECRETallCliH6",
        "-var-file=extra.tfvars"]
# The rules of `plain` and `s_checked` pass with these.
PASSING = ["-var", "plain=" + "p" * 110, "-var", "s_checked=abc"]
# Values of the wrong type from a var file, -var and TF_VAR_.
WRONG = ["-var-file=bad/wrong.tfvars", "-var",
         's_list=["SECRETbadCliL1", { a = 1 }]']
WRONG_ENV = {"TF_VAR_s_num": "SECRETbadEnvP4"}
EACH = ["-var-file-each=envs/*.tfvars"]

SENSITIVE_VARS = ["s_default", "s_env", "s_tfvars", "s_tfvars_json", "s_auto",
                  "s_auto_json", "s_cli", "s_varfile", "s_each", "s_all",
                  "s_list", "s_map", "s_obj", "s_num", "s_checked"]

# Expressions that move the secrets around; every result is sensitive.
EXPRESSIONS = [
    # object and map keys, for keys, splats, conditionals, templates
    '{ (var.s_tfvars) = 1 }',
    'keys({ (var.s_tfvars) = 1 })',
    '{ for k in [var.s_env] : k => 1 }',
    '{ for k, v in var.s_map : v => k }',
    '{ for k, v in var.s_map : k => v... }',
    '[for x in var.s_list : upper(x)]',
    '[for x in ["a"] : x if var.s_num > 0]',
    'var.s_list[*]',
    '[var.s_obj][*].name',
    'var.s_obj.tags',
    'var.s_map["k"]',
    'var.s_list[0]',
    'length(var.plain) > 0 ? var.s_cli : "x"',
    'length(var.plain) > 0 ? "shown-if-unmarked" : var.s_cli',
    'var.s_num > 0 ? "decided-by-secret" : "no"',
    '"prefix-${var.s_varfile}-suffix"',
    '"%{for x in var.s_list}${x};%{endfor}"',
    '"%{if var.s_num > 0}${var.s_auto}%{endif}"',
    '[var.s_all] == ["x"]',
    '-var.s_num',
    'var.s_num + 1',
    # functions
    'keys(var.s_map)', 'values(var.s_map)', 'tomap({ (var.s_all) = "v" })',
    'merge(var.s_map, { extra = "e" })', 'zipmap(var.s_list, var.s_list)',
    'jsonencode(var.s_obj)', 'yamlencode(var.s_obj)', 'format("%s!", var.s_all)',
    'formatlist("%s!", var.s_list)', 'join(",", var.s_list)',
    'split("all", var.s_all)', 'lookup(var.s_map, "k", "none")',
    'element(var.s_list, 1)', 'flatten([var.s_list, ["x"]])',
    'setproduct(var.s_list, ["y"])', 'transpose({ a = var.s_list })',
    'sort(var.s_list)', 'distinct(var.s_list)', 'coalesce(var.s_all, "x")',
    'coalescelist(var.s_list, ["x"])', 'try(var.s_all, "x")',
    'try(var.s_map["nope"], var.s_default)', 'regex("SECRET(.*)", var.s_all)',
    'regexall("[A-Z]+", var.s_all)', 'replace(var.s_all, "SECRET", "s3cr3t")',
    'base64encode(var.s_all)', 'base64decode(base64encode(var.s_tfvars))',
    'sha256(var.s_all)', 'sha1(var.s_all)', 'md5(var.s_all)',
    'base64sha256(var.s_all)', 'upper(var.s_all)', 'lower(var.s_all)',
    'title(var.s_all)', 'strrev(var.s_all)', 'substr(var.s_all, 2, 8)',
    'trimprefix(var.s_all, "SECRET")', 'urlencode(var.s_all)',
    'reverse(var.s_list)', 'concat(var.s_list, ["x"])', 'slice(var.s_list, 0, 1)',
    'chunklist(var.s_list, 1)', 'tolist(var.s_list)', 'toset(var.s_list)',
    'tostring(var.s_all)', 'tonumber(var.s_num)', 'one([var.s_all])',
    'jsondecode(jsonencode(var.s_map))', 'yamldecode(yamlencode(var.s_list))',
    'csvdecode("a\\n${var.s_all}")', 'matchkeys(var.s_list, var.s_list, var.s_list)',
    'contains(var.s_list, "x")', 'length(var.s_list)', 'index(var.s_list, var.s_list[0])',
    'compact(var.s_list)', 'setunion(var.s_list, ["z"])', 'max(var.s_num, 1)',
    'abs(var.s_num)', 'ceil(var.s_num)', 'parseint("ff", 16) + var.s_num',
    'trimspace(" ${var.s_obj.name} ")',
    'provider::terraform::encode_tfvars({ p = var.s_all })',
]

# Expressions that fail, with the secrets as arguments: their messages
# may not show them either.
ERRORS = [
    'cidrhost(var.s_all, 1)', 'cidrsubnet(var.s_tfvars, 4, 1)',
    'timeadd(var.s_tfvars, "1h")', 'formatdate("YYYY", var.s_env)',
    'parseint(var.s_env, 10)', 'uuidv5(var.s_cli, "x")',
    'lookup(var.s_map, var.s_varfile)', 'file(var.s_auto)',
    'tonumber(var.s_auto_json)', 'tobool(var.s_default)',
    'jsondecode(var.s_default)', 'yamldecode("{${var.s_each}")',
    'base64decode(var.s_each)', 'templatefile(var.s_tfvars, {})',
    'element(var.s_list, var.s_all)', 'var.s_map[var.s_all]',
    'var.s_obj[var.s_tfvars]', 'var.s_list[var.s_tfvars]',
    'var.s_all + 1', 'range(var.s_all)', 'index(var.s_list, var.s_all)',
    'textdecodebase64(var.s_all, "UTF-8")', 'csvdecode("\\"${var.s_all}")',
    'regex(var.s_all, var.s_all)', 'one(var.s_list)',
    'convert(var.s_tfvars, number)', 'abs(var.s_all)',
]

report = Tally(tail=None)


def run(tool, fixture, args, stdin=None, more_env=None):
    """(status, stdout and stderr after it)."""
    env = harness.child_env(dict(ENV, **(more_env or {})))
    rc, out, err = harness.run([tool] + args, cwd=fixture, env=env,
                               stdin=stdin, timeout=TIMEOUT)
    return rc, out + err


def canaries(fixture):
    """Every canary written in the fixture, the environment and ARGS."""
    found = set()
    for root, _, names in os.walk(fixture):
        for n in names:
            with open(os.path.join(root, n), errors="replace") as f:
                found |= set(re.findall(r"SECRET[A-Za-z0-9]+", f.read()))
    for text in list(ENV.values()) + list(WRONG_ENV.values()) + ARGS + WRONG:
        found |= set(re.findall(r"SECRET[A-Za-z0-9]+", text))
    found.add(ENV["TF_VAR_s_num"])
    return found


def leaves(v, out):
    """The strings (keys too) and numbers inside a JSON value."""
    if isinstance(v, dict):
        for k, x in v.items():
            out.add(str(k))
            leaves(x, out)
    elif isinstance(v, list):
        for x in v:
            leaves(x, out)
    elif v is not None and not isinstance(v, bool):
        out.add(str(v))


def main():
    tool, fixture = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    secrets = canaries(fixture)
    report(len(secrets) >= 30, "the fixture holds the canaries",
           "only %d found" % len(secrets))

    # What the expressions derive from the secrets, as -show-sensitive
    # prints it: every string or number of 6 characters or more that is
    # not in the expression's own text.
    rc, out = run(tool, fixture, ["eval", "-functions", "-json",
                                  "-show-sensitive"] + ARGS + PASSING +
                  ["--"] + EXPRESSIONS)
    lines = out.splitlines()
    report(rc == 0 and len(lines) == len(EXPRESSIONS),
           "eval -show-sensitive: every expression evaluates", out[-3000:])
    derived = set()
    for expr, line in zip(EXPRESSIONS, lines):
        try:
            doc = json.loads(line)
        except ValueError:
            report(False, "eval -show-sensitive %s: not JSON" % expr, line)
            continue
        report("error" not in doc and doc.get("sensitive") is True and
               doc.get("value") is not None,
               "eval -show-sensitive %s: a sensitive value, shown" % expr, line)
        vals = set()
        leaves(doc.get("value"), vals)
        derived |= {v for v in vals if len(v) >= 6 and v not in expr}
    forbidden = sorted(secrets | derived, key=len, reverse=True)

    def hidden(label, args, stdin=None, more_env=None):
        rc, out = run(tool, fixture, args, stdin, more_env)
        leaked = [s for s in forbidden if s in out]
        report(not leaked and 0 <= rc < 3,
               "%s: %s" % (label, "exit %d" % rc if not leaked else
                           "shows " + ", ".join(leaked[:5])),
               out[-2000:] if rc < 0 or rc >= 3 else "")
        return rc, out

    # The console reads a pipe as Terraform's does: each line evaluated,
    # only the last result printed, the first error ends the run; so the
    # last line is one tuple of every expression (all of them shown), and
    # errors go one per run.
    console_in = ("\n".join(EXPRESSIONS) + "\n[" + ", ".join(EXPRESSIONS) +
                  "]\n")
    for stage, extra, env in (("rules failing", [], None),
                              ("rules passing", PASSING, None),
                              ("wrong types", WRONG, WRONG_ENV)):
        base = ARGS + extra
        for f in ("human", "json", "yaml", "tfvars", "env", "plan-json"):
            hidden("show -format=%s (%s)" % (f, stage),
                   ["show", "-format=" + f] + base, more_env=env)
        for each in ([], EACH):
            for f in ("human", "json", "sarif", "github", "junit",
                      "plan-json"):
                hidden("check %s-format=%s (%s)" % (
                    "-var-file-each " if each else "", f, stage),
                       ["check", "-format=" + f] + each + base,
                       more_env=env)
        for name in SENSITIVE_VARS:
            hidden("explain %s (%s)" % (name, stage), ["explain", name] + base,
                   more_env=env)
        hidden("explain -json -all (%s)" % stage,
               ["explain", "-json", "-all"] + base, more_env=env)
        for f in ("console", "json", "yaml"):
            rc, out = hidden("eval -functions -format=%s (%s)" % (f, stage),
                             ["eval", "-functions", "-format=" + f] + base +
                             ["--"] + EXPRESSIONS, more_env=env)
            hidden("eval -functions -format=%s, errors (%s)" % (f, stage),
                   ["eval", "-functions", "-format=" + f] + base + ["--"] +
                   ERRORS, more_env=env)
            if f == "json" and extra is PASSING:
                got = out.splitlines()
                marked = [e for e, l in zip(EXPRESSIONS, got)
                          if '"value":null' in l and '"sensitive":true' in l]
                missing = [e for e in EXPRESSIONS if e not in marked]
                report(len(got) == len(EXPRESSIONS) and not missing,
                       "eval -json (%s): every result sensitive and null" % stage,
                       "not so: " + "; ".join(missing[:10]))
            hidden("console -format=%s (%s)" % (f, stage),
                   ["console", "-format=" + f] + base, console_in, env)
            for err in ERRORS[:: 6 if stage != "rules failing" else 1]:
                hidden("console -format=%s, %s (%s)" % (f, err, stage),
                       ["console", "-format=" + f] + base, err + "\n", env)
        for f in ([], ["-json"]):
            hidden("test %s(%s)" % (" ".join(f) + " " if f else "", stage),
                   ["test"] + f + base, more_env=env)
    for f in ("tfvars", "json", "env"):
        hidden("init -format=%s" % f, ["init", "-format=" + f])
    # inspect and docs (issue 43): defaults, each environment's values
    # (one var file each), and the rules' texts
    envs = sorted(glob.glob(os.path.join(fixture, "envs", "*.tfvars")))
    per_env = []
    for e in envs:
        per_env += ["-var-file", os.path.relpath(e, fixture)]
    hidden("inspect -json", ["inspect", "-json"] + per_env)
    hidden("docs -var-file-each", ["docs", "-var-file-each=envs/*.tfvars"])
    hidden("docs", ["docs"])

    # The opt-in: -show-sensitive shows what it is asked to.
    base = ARGS + PASSING + ["-show-sensitive"]
    winners = ["SECRETdefaultQ7X2", "SECRETenvK4M9", "SECRETtfvarsP3W8",
               "SECRETtfjsonR6Z1", "SECRETautoH2J5", "SECRETautojsonN8B4",
               "SECRETcliV5T7", "SECRETvarfileD9F3", "SECRETeachdefaultZ2Y4",
               "SECRETallVarfileE2", "SECRETlistA1B2", "SECRETmapE5F6",
               "SECRETobjJ9K0", "73914286"]
    for f in ("human", "json", "yaml", "tfvars", "env", "plan-json"):
        rc, out = run(tool, fixture, ["show", "-format=" + f] + base)
        missing = [w for w in winners if w not in out]
        report(rc == 0 and not missing,
               "show -format=%s -show-sensitive: the values" % f,
               "missing: %s\n%s" % (", ".join(missing), out[-1500:]))
    rc, out = run(tool, fixture, ["explain", "s_all"] + base)
    every = ["SECRETallDefaultU3", "SECRETallEnvG5", "SECRETallTfvarsA7",
             "SECRETallTfjsonB8", "SECRETallAutoC9", "SECRETallAutojsonD1",
             "SECRETallCliH6", "SECRETallVarfileE2"]
    missing = [w for w in every if w not in out]
    report(rc == 0 and not missing,
           "explain s_all -show-sensitive: every source's value",
           "missing: %s\n%s" % (", ".join(missing), out[-1500:]))
    shown = ["SECRETallVarfileE2", "SECRETlistA1B2", "SECRETmapE5F6",
             "SECRETobjJ9K0", "73914287"]
    for f in ("console", "json", "yaml"):
        rc, out = run(tool, fixture, ["eval", "-functions", "-format=" + f] +
                      base + ["--"] + EXPRESSIONS)
        missing = [w for w in shown if w not in out]
        report(rc == 0 and "sensitive value" not in out and
               '"value":null' not in out and not missing,
               "eval -format=%s -show-sensitive: the values" % f,
               "missing: %s\n%s" % (", ".join(missing), out[-1500:]))
        rc, out = run(tool, fixture, ["console", "-format=" + f] + base,
                      console_in)
        missing = [w for w in shown if w not in out]
        report(rc == 0 and "sensitive value" not in out and
               '"value":null' not in out and not missing,
               "console -format=%s -show-sensitive: the values" % f,
               "missing: %s\n%s" % (", ".join(missing), out[-1500:]))

    envs = sorted(glob.glob(os.path.join(fixture, "envs", "*.tfvars")))
    per_env = []
    for e in envs:
        per_env += ["-var-file", os.path.relpath(e, fixture)]
    rc, out = run(tool, fixture, ["inspect", "-json", "-show-sensitive"] +
                  per_env)
    want = ["SECRETdefaultQ7X2", "SECRETeachdefaultZ2Y4"]
    missing = [w for w in want if w not in out]
    report(rc == 0 and not missing,
           "inspect -json -show-sensitive: the defaults and values",
           "missing: %s\n%s" % (", ".join(missing), out[-1500:]))

    if len(sys.argv) > 3:
        shapes(tool, os.path.abspath(sys.argv[3]))
    if len(sys.argv) > 4:
        tree(tool, os.path.abspath(sys.argv[4]))
    return report.done()


def shape_inputs(d):
    """A shape's extra arguments and environment (tests/secrets-shapes)."""
    def lines(name):
        path = os.path.join(d, name)
        if not os.path.exists(path):
            return []
        with open(path) as f:
            return [l for l in f.read().split("\n") if l]
    env = dict(l.split("=", 1) for l in lines("env"))
    return lines("args"), env


# The outputs every shape goes through: check in every format, plain
# text, show, explain (text and JSON), each with and without -strict.
SHAPE_RUNS = (
    [["check", "-format=" + f] for f in ("human", "json", "sarif", "github",
                                        "junit", "plan-json")] +
    [["check", "-no-color"]] +
    [["show", "-format=" + f] for f in ("human", "json", "yaml", "tfvars",
                                       "env", "plan-json")] +
    [["explain", "-all"], ["explain", "-json", "-all"]])


# What explain -all -show-sensitive prints of the shapes whose values parse.
SHOWN = {"interface-text": ["SECRETtokDefA1", "SECRETpassOptE5"],
         "conversion": ["SECRETkeyR7S8", "SECRETcliKeyT9", "SECRETenvKeyU1"],
         "duplicate-key": ["SECRETsameW3"],
         "module-arg": ["SECRETmodKeyK5", "SECRETmodValL6"],
         "strict-dropped": ["SECRETkeyA1B2", "SECRETnameH8", "SECRETcliKeyK1",
                            "SECRETenvN4"]}


def each_shape(root):
    """Each directory of root with its arguments, environment and the
    canaries that must never be printed (longest first)."""
    for name in sorted(os.listdir(root)):
        d = os.path.join(root, name)
        if not os.path.isdir(d):
            continue
        args, env = shape_inputs(d)
        secrets = canaries(d)
        for text in args + list(env.values()):
            secrets |= set(re.findall(r"SECRET[A-Za-z0-9]+", text))
        yield name, d, args, env, sorted(secrets, key=len, reverse=True)


def shapes(tool, root):
    for name, d, args, env, forbidden in each_shape(root):
        report(len(forbidden) >= 1, "shape %s: has canaries" % name, "")
        for cmd in SHAPE_RUNS:
            for strict in ([], ["-strict"]):
                full = cmd + strict + args
                rc, out = run(tool, d, full, more_env=env)
                # a canary, or a long enough piece of one (a parser's
                # message may quote part of a token)
                leaked = [s for s in forbidden if s in out]
                leaked += [s[:10] for s in forbidden
                           if not leaked and s[:10] in out]
                report(not leaked and 0 <= rc < 3,
                       "shape %s: %s: %s" % (
                           name, " ".join(full), "exit %d" % rc
                           if not leaked else "shows " + ", ".join(leaked[:5])),
                       out[-2000:])
        # inspect and docs print the module's text too (types, rule
        # conditions and messages as written), each without the shape's
        # arguments (they take no -var)
        for full in (["inspect", "-json"], ["docs"]):
            rc, out = run(tool, d, full, more_env=env)
            leaked = [s for s in forbidden if s in out]
            report(not leaked and 0 <= rc < 3,
                   "shape %s: %s: %s" % (
                       name, " ".join(full), "exit %d" % rc
                       if not leaked else "shows " + ", ".join(leaked[:5])),
                   out[-2000:])
        # the opt-in: explain -show-sensitive shows a value that parsed
        rc, out = run(tool, d, ["explain", "-all", "-show-sensitive"] + args,
                      more_env=env)
        missing = [s for s in SHOWN.get(name, []) if s not in out]
        report(0 <= rc < 3 and not missing,
               "shape %s: explain -all -show-sensitive: the values" % name,
               "missing: %s\n%s" % (", ".join(missing), out[-1500:]))


# What reaches a child's value in each tree scenario: show -json
# -show-sensitive prints it under "modules" (the opt-in, and the proof that
# the scenario sends its secrets into the tree).
TREE_REACHES = {"deep-chain": ["SECRETdeepT1"],
                "foreach-direct": ["SECRETdirectP1", "SECRETdirectEnv2"],
                "foreach-local": ["SECRETlocalCli6"],
                "module-output": ["SECRETvaultM7"]}

# The runs of a tree scenario beyond SHAPE_RUNS (which run with and
# without -strict).
TREE_RUNS = (
    [["check", "-format=" + f, "-var-file-each=envs/*.tfvars"]
     for f in ("human", "json", "sarif", "github", "junit")] +
    [["check", "-format=" + f, "-recursive"]
     for f in ("human", "json", "sarif", "github", "junit")])
TREE_DIFFS = [["diff", "envs/one.tfvars", "envs/two.tfvars"],
              ["diff", "-json", "envs/one.tfvars", "envs/two.tfvars"],
              ["diff", "-json", "-show-sensitive", "envs/one.tfvars",
               "envs/two.tfvars"]]


def tree_locals(d):
    """local.NAME of every local value the root module declares."""
    names = []
    with open(os.path.join(d, "main.tf")) as f:
        block = re.search(r"^locals \{\n(.*?)^\}", f.read(), re.M | re.S)
    if block:
        names = re.findall(r"^  ([a-z_]+) +=", block.group(1), re.M)
    return ["local." + n for n in names] + ["local"]


def lsp_frame(msg):
    body = json.dumps(dict(msg, jsonrpc="2.0")).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def lsp_session(tool, d, env):
    """(exit status, everything the language server wrote, the messages)
    after every file of the scenario is opened, every key of its
    terraform.tfvars hovered and the server asked to finish its checks."""
    def uri(path):
        return "file://" + urllib.parse.quote(path)
    msgs = [{"id": 1, "method": "initialize", "params": {
        "processId": None, "rootUri": uri(d), "capabilities": {}}},
        {"method": "initialized", "params": {}}]
    n = 1
    for root, _, names in sorted(os.walk(d)):
        for name in sorted(names):
            if not name.endswith((".tf", ".tfvars")):
                continue
            path = os.path.join(root, name)
            with open(path) as f:
                text = f.read()
            msgs.append({"method": "textDocument/didOpen", "params": {
                "textDocument": {"uri": uri(path), "languageId": "terraform",
                                 "version": 1, "text": text}}})
            if name != "terraform.tfvars" or root != d:
                continue
            for line, row in enumerate(text.split("\n")):
                if re.match(r"[a-z_]+ *=", row):
                    n += 1
                    msgs.append({"id": n, "method": "textDocument/hover",
                                 "params": {"textDocument": {"uri": uri(path)},
                                            "position": {"line": line,
                                                         "character": 1}}})
    msgs += [{"id": n + 1, "method": "textDocument/tfresolveBarrier",
              "params": {"textDocument": {"uri": "file:///nonexistent"}}},
             {"id": n + 2, "method": "shutdown"}, {"method": "exit"}]
    rc, out, err = harness.run([tool, "lsp"], cwd=d,
                               env=harness.child_env(env),
                               stdin=b"".join(lsp_frame(m) for m in msgs),
                               timeout=TIMEOUT, binary=True)
    text = (out + err).decode("utf-8", "replace")
    got = []
    for body in re.split(r"Content-Length: \d+\r\n\r\n", text):
        try:
            got.append(json.loads(body))
        except ValueError:
            pass
    return rc, text, got


def tree(tool, root):
    for name, d, args, env, forbidden in each_shape(root):
        report(len(forbidden) >= 3, "tree %s: has canaries" % name, "")

        def hidden(label, out, rc):
            leaked = [s for s in forbidden if s in out]
            report(not leaked and 0 <= rc < 3,
                   "tree %s: %s: %s" % (name, label, "exit %d" % rc if
                                        not leaked else
                                        "shows " + ", ".join(leaked[:5])),
                   out[-2000:])

        # the opt-in, and the child instances to explain one by one
        rc, out = run(tool, d, ["show", "-json", "-show-sensitive"] + args,
                      more_env=env)
        try:
            modules = json.loads(out).get("modules", {})
        except ValueError:
            modules = {}
        shown = json.dumps(modules)
        missing = [s for s in TREE_REACHES.get(name, []) if s not in shown]
        report(modules and not missing,
               "tree %s: show -json -show-sensitive: each secret in the "
               "child values it reaches" % name,
               "missing: %s\n%s" % (", ".join(missing), out[-1500:]))
        # the same in plan-json's "tfresolve" part
        rc, pj = run(tool, d, ["show", "-format=plan-json",
                               "-show-sensitive"] + args, more_env=env)
        try:
            pj_modules = json.loads(pj)["tfresolve"].get("modules", {})
        except (ValueError, KeyError):
            pj_modules = {}
        missing = [s for s in TREE_REACHES.get(name, [])
                   if s not in json.dumps(pj_modules)]
        report(pj_modules and not missing,
               "tree %s: show -format=plan-json -show-sensitive: each secret "
               "in the child values it reaches" % name,
               "missing: %s\n%s" % (", ".join(missing), pj[-1500:]))
        addrs = ["%s.var.%s" % (m, v) for m in sorted(modules)
                 for v in sorted(modules[m].get("variables", {}))]
        runs = [r + s for r in SHAPE_RUNS for s in ([], ["-strict"])]
        runs += TREE_RUNS + TREE_DIFFS
        runs += [["explain", a] for a in addrs]
        runs += [["explain", "-json", a] for a in addrs]
        # the root's module calls (their outputs), and every instance's
        # own scope (-scope): its var.*, local.* and children's outputs
        calls = sorted({re.match(r"module\.[a-z_0-9-]+", m).group(0)
                        for m in modules if re.match(r"module\.", m)})
        exprs = tree_locals(d) + calls
        runs += [["eval", "-functions", "-format=" + f, "--"] + exprs
                 for f in ("console", "json", "yaml")]
        for m in sorted(modules):
            own = ["var", "local"] + ["var." + v for v in
                                      sorted(modules[m].get("variables", {}))]
            runs += [["eval", "-scope=" + m, "-format=" + f, "--"] + own
                     for f in ("console", "json", "yaml")]
        # check -policy (fixtures/secrets-policy): module policies whose
        # messages are built from the instances' attrs and a sensitive
        # input set through TFPOLICY_INPUT_ (and its default)
        policy = os.path.join(os.path.dirname(os.path.abspath(root)),
                              "secrets-policy")
        pol_env = dict(env or {}, TFPOLICY_INPUT_token="SECRETpolInputQ3")
        pol_forbidden = forbidden + ["SECRETpolInputQ3", "SECRETpolDefaultW8"]
        failed = False
        for f in ("human", "json", "sarif", "github", "junit", "plan-json"):
            for extra in ([], ["-var-file-each=envs/*.tfvars"], ["-strict"]):
                if f == "plan-json" and extra and extra[0] != "-strict":
                    continue
                for e in (pol_env, env):
                    cmd = (["check", "-format=" + f, "-policy=" + policy] +
                           extra + args)
                    rc, out = run(tool, d, cmd, more_env=e)
                    leaked = [s for s in pol_forbidden if s in out]
                    report(not leaked and 0 <= rc < 3,
                           "tree %s: %s: %s" % (name, " ".join(cmd),
                                                "exit %d" % rc if not leaked
                                                else "shows " +
                                                ", ".join(leaked[:5])),
                           out[-2000:])
                    failed |= "Mandatory policy failed" in out
        report(failed, "tree %s: check -policy: the policies ran on its "
               "instances" % name, "")
        in_child = False  # a diagnostic of a child instance
        for cmd in runs:
            full = cmd[:1] + args + cmd[1:] if "--" in cmd else cmd + args
            rc, out = run(tool, d, full, more_env=env)
            hidden(" ".join(full), out, rc)
            if cmd == ["check", "-format=json"]:
                in_child = '"module": "module.' in out
        for f in ("console", "json", "yaml"):
            rc, out = run(tool, d, ["console", "-format=" + f] + args,
                          "\n".join(exprs) + "\n", env)
            hidden("console -format=%s %s" % (f, " ".join(exprs)), out, rc)
        rc, out, got = lsp_session(tool, d, env)
        hidden("the language server", out, rc)
        published = [m for m in got
                     if m.get("method") == "textDocument/publishDiagnostics"]
        report(rc == 0 and published and
               any(m.get("id") == 1 and "result" in m for m in got) and
               (not in_child or "(in module." in out),
               "tree %s: the language server answered and published (the "
               "child instances' diagnostics too)" % name, out[-1500:])


if __name__ == "__main__":
    sys.exit(main())
