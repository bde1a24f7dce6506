#!/usr/bin/env python3
"""`tfresolve init` round trip (issue 6).

  init_roundtrip.py TFRESOLVE FIXTURES_DIR VALUES_DIR [SHARD/SHARDS]

For every module fixture, in every format (tfvars, json, env), the template
as written must FAIL `check` when the module has required variables ("No
value for required variable"), and PASS once its required values are
filled in.  The modules: FIXTURES_DIR/demo, FIXTURES_DIR/console and every
FIXTURES_DIR/cases/* directory with a module in it (SHARD/SHARDS: every
SHARDS-th of them, from the SHARD-th, numbered from 1; the command-line
checks of init run in shard 1).  Each module's configuration is copied
without its *.tfvars and *.tfvars.json files, so that the template is the
only value source: for tfvars and json, the template is the copy's
terraform.tfvars(.json) and every copy is checked by one `check -recursive
-no-env` per engine and stage; for env, the template is sourced by a shell
with an otherwise empty environment and `check` runs there.

Filling in, as a user would: in the tfvars and env templates, each
required variable's commented-out line is uncommented (its skeleton value:
"", 0, [], ...).  VALUES_DIR/<fixture>.tfvars may give values (`name =
VALUE`, one line each) where a user would write something else: a required
value its validation rule wants (no skeleton passes `length(var.x) >= 12`),
or a default that the case's own rule rejects on purpose; the variable's
assignment is then replaced by that value.  For json, those variables are
added (or replaced) with the values that the filled tfvars template
resolves to.  A case run with -engine=opentofu (in its `args`) is
initialised and checked that way.

Prints PASS/FAIL/SKIP lines and "N passed, M failed" last.
"""
import decimal
import json
import os
import re
import shutil
import sys
import tempfile

import harness

TIMEOUT = 60  # per command (each takes well under a second): a hang
REQUIRED = "# REQUIRED: uncomment and set a value"
LITERAL = "# TF_VAR_ value: literal text"
NO_VALUE = "No value for required variable"
# OpenTofu asks for a required const variable's value while it loads the
# module, and with input disabled stops there, before NO_VALUE
# (opentofu internal/command/meta_config.go:104-121)
NO_CONST_INPUT = "Failed to request input from user for variable var."

passed = failed = 0
tool = None
child_env = {}


def say(verdict, text):
    global passed, failed
    print("%s %s" % (verdict, text))
    if verdict == "PASS":
        passed += 1
    elif verdict == "FAIL":
        failed += 1


def indent(text, limit):
    return "\n".join("    " + l for l in text.splitlines()[:limit])


def run(args, cwd=None, env=None):
    return harness.run(args, cwd=cwd,
                       env=env if env is not None else child_env,
                       timeout=TIMEOUT)


# ---- filling in a template ------------------------------------------------

def wanted(values_file):
    """NAME -> VALUE text of the `name = VALUE` lines of a values file."""
    want = {}
    if values_file:
        with open(values_file) as f:
            for line in f.read().splitlines():
                m = re.match(r"^([A-Za-z_][A-Za-z0-9_-]*) *= *(.*)$", line)
                if m:
                    want[m.group(1)] = m.group(2)
    return want


def fill(text, fmt, want):
    """A tfvars or env template with each required variable's assignment
    uncommented, and that of a variable `want` has a value for replaced by
    it; the text and the names filled in or replaced.  The assignment is
    what follows the "# type:" comment of a variable's paragraph (a
    description may hold anything)."""
    out, names, para = [], [], []
    assign = (re.compile(r"^(# )?export TF_VAR_") if fmt == "env" else
              re.compile(r"^(# )?[A-Za-z_][A-Za-z0-9_-]* = "))

    def flush():
        t = at = None
        for i, line in enumerate(para):
            if t is None and line.startswith("# type: "):
                t = i
            if t is not None and at is None and assign.match(line):
                at = i
        req = REQUIRED in para
        lit = LITERAL in para
        if at is None:
            out.extend(para)
            return
        line = re.sub(r"^# ", "", para[at], count=1)
        if fmt == "env":
            name = re.sub(r"=.*", "", line[len("export TF_VAR_"):])
        else:
            name = re.sub(r" *=.*", "", line)
        if name not in want and not req:
            out.extend(para)
            return
        names.append(name)
        out.extend(para[:at])
        if name in want:
            v = want[name]
            if fmt == "env":
                if lit and re.match(r'^".*"$', v):
                    v = v[1:-1]
                out.append("export TF_VAR_%s='%s'" % (name, v.replace("'", "'\\''")))
            else:
                out.append("%s = %s" % (name, v))
        else:
            out.extend(re.sub(r"^# ?", "", l, count=1) for l in para[at:])

    for line in text.split("\n")[:-1] if text.endswith("\n") else text.split("\n"):
        if line == "":
            flush()
            para = []
            out.append("")
        else:
            para.append(line)
    flush()
    return "".join(l + "\n" for l in out), names


def dump_json(v, ind=0):
    """JSON as the json template writes it; numbers stay exact."""
    pad = " " * (ind + 2)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, list) and v:
        return ("[\n" + ",\n".join(pad + dump_json(x, ind + 2) for x in v) +
                "\n" + " " * ind + "]")
    if isinstance(v, dict) and v:
        return ("{\n" + ",\n".join(pad + json.dumps(k) + ": " +
                                   dump_json(x, ind + 2) for k, x in v.items())
                + "\n" + " " * ind + "}")
    return json.dumps(v)


def fill_json(template, names, values):
    """The json template with the variables `names` set to `values`."""
    doc = json.loads(template, parse_float=decimal.Decimal)
    for n in names:
        doc[n] = values[n]["value"]
    return dump_json(doc) + "\n"


# ---- checking -------------------------------------------------------------

class Verdict:
    """What `check -json` said of one module: valid, and the summaries of
    its errors (a run that printed no report: not valid, its text)."""

    def __init__(self, result, text=""):
        self.valid = bool(result and result.get("valid"))
        self.errors = [g["summary"] for g in (result or {}).get("diagnostics", [])
                       if g["severity"] == "error"]
        self.text = text if result is None else "\n".join(
            "%s: %s: %s" % (g["severity"], g["summary"], g.get("detail", ""))
            for g in result.get("diagnostics", []))

    def undeclared_refs(self):
        """Errors of the configuration alone, which no value can mend."""
        return bool(self.errors) and all(
            e.startswith("Reference to undeclared ") or e == "Invalid reference"
            for e in self.errors)

    def first_undeclared(self):
        for e in self.errors:
            m = re.match(r"Reference to undeclared [a-z ]*", e)
            if m:
                return m.group(0)
        return "Invalid reference"


def check_one(mod, engine, env=None, source=None):
    """`check -json` of one module; with source, a shell script sourced
    first in an environment that holds nothing else."""
    args = [tool, "check", "-json", "-no-color"] + engine + [mod]
    if source:
        e = dict(child_env)
        rc, out, err = run(["sh", "-c", '. "$1" && shift && exec "$@"', "sh",
                            source] + args, env=e)
    else:
        rc, out, err = run(args[:2] + ["-no-env"] + args[2:])
    try:
        return Verdict(json.loads(out)) if rc in (0, 1) else Verdict(None, out + err)
    except ValueError:
        return Verdict(None, out + err)


def check_tree(root, engine):
    """label -> Verdict of every module below root, by one `check
    -recursive`; labels are paths relative to root."""
    rc, out, err = run([tool, "check", "-recursive", "-json", "-no-env",
                        "-show-sensitive"] + engine + ["."], cwd=root)
    verdicts, results = {}, {}
    try:
        report = json.loads(out, parse_float=decimal.Decimal)
    except ValueError:
        report = None
    if rc == 2 and "declares variables" in err:
        return verdicts, results  # none does: each is checked on its own
    if rc not in (0, 1) or report is None:
        say("FAIL", "check -recursive in %s: exit %d\n%s" % (
            root, rc, indent(out + err, 30)))
        return verdicts, results
    for c in report["checks"]:
        label = os.path.normpath(c["dir"])
        verdicts[label] = Verdict(c["result"])
        results[label] = c["result"]
    return verdicts, results


# ---- one module -------------------------------------------------------------

class Module:
    def __init__(self, label, src, engine, values):
        self.label, self.src, self.engine, self.values = label, src, engine, values
        self.tpl = {}       # format -> template text
        self.filled = {}    # format -> filled template text
        self.names = {}     # format -> names filled in or replaced
        self.nreq = 0
        self.done = set()   # formats with a verdict already

    def copy_to(self, dest, tfvars_name=None, tfvars_text=None):
        """The module's configuration without its value files; with a
        template as its terraform.tfvars(.json)."""
        shutil.copytree(self.src, dest, symlinks=True)
        for n in os.listdir(dest):
            if (n.endswith((".tfvars", ".tfvars.json")) or n in ("args", "env")
                    or n.startswith("expected.")):
                p = os.path.join(dest, n)
                if os.path.isdir(p) and not os.path.islink(p):
                    shutil.rmtree(p)
                else:
                    os.remove(p)
        if tfvars_name:
            with open(os.path.join(dest, tfvars_name), "w") as f:
                f.write(tfvars_text)


def judge(m, fmt, stage, v):
    """The verdict of one check; False when the module's format is done."""
    tag = "%s [%s]" % (m.label, fmt)
    if not v.valid and v.undeclared_refs():
        say("SKIP", "%s: %s in a validation rule: no value passes"
            % (tag, v.first_undeclared()))
        return False
    if stage == "template":
        if m.nreq > 0:
            missing = NO_VALUE in v.errors or (
                m.engine and any(e.startswith(NO_CONST_INPUT)
                                 for e in v.errors))
            if v.valid or not missing:
                say("FAIL", "%s: the unfilled template (with %d required "
                    "variables) did not fail with \"%s\" (%s)\n%s"
                    % (tag, m.nreq, NO_VALUE, "valid" if v.valid else "invalid",
                       indent(v.text, 20)))
                return False
        elif not v.valid and not m.names["tfvars"]:
            # (with values to replace, the defaults are the case's problem)
            say("FAIL", "%s: check of the template (nothing required): "
                "invalid\n%s" % (tag, indent(v.text, 30)))
            return False
        return True
    if not v.valid:
        say("FAIL", "%s: check of the filled template: invalid\n%s\n"
            "    --- filled template:\n%s" % (tag, indent(v.text, 30),
                                             indent(m.filled[fmt], 60)))
        return False
    say("PASS", "%s: %d required filled in, check passes" % (tag, m.nreq))
    return False


def modules(fixtures, values, shard, shards):
    dirs = [os.path.join(fixtures, d) for d in ("demo", "console", "demo-broken")]
    cases = os.path.join(fixtures, "cases")
    dirs += [os.path.join(cases, d) for d in sorted(os.listdir(cases))
             if os.path.isdir(os.path.join(cases, d))]
    skip = {"demo-broken": "a syntax error on purpose (the parse demo)",
            "preview-unreadable-var-file-unparsable-value":
                "a rule on a string's length that the template's "
                "placeholder does not pass",
            "missing-required-info-null-rule":
                "a rule that fails at its null default: required in "
                "practice, valid only with -missing-required=info",
            "valid-walk-unknown-plain-type":
                "its rule fails in Terraform's validate walk, whatever the "
                "value (the type alone makes it fail)",
            "valid-shared-rules-walk":
                "a rule fails in Terraform's validate walk, whatever the "
                "value (the type alone makes it fail)",
            "valid-message-failures":
                "its rules' error messages fail to evaluate, which is an "
                "error whether or not the rule passes",
            "const-init-walk-local":
                "a const variable's rule reads a local value, which "
                "Terraform's init walk has not evaluated: no value passes",
            "valid-walk-refinements-functions":
                "its rules are decided false in Terraform's validate walk, "
                "whatever the values",
            "valid-walk-refinements":
                "its rules are decided false in Terraform's validate walk, "
                "whatever the values",
            "valid-cycle-through-local":
                "a cycle of rules and local values: no value passes",
            "report-plain-cycle":
                "a cycle of two rules: no value passes",
            "valid-local-self-reference":
                "a local value that refers to itself: no value passes",
            "valid-message-static-error":
                "a rule's error message fails in Terraform's validate walk, "
                "whatever the value",
            "tofu-message-failures":
                "its rules' error messages fail to evaluate, which is an "
                "error whether or not the rule passes",
            "tofu-rules-stop-at-static-error":
                "its rules fail in OpenTofu's validate walk, whatever the "
                "value",
            "tofu-rules-stop-at-static-error-as-terraform":
                "its rules fail in Terraform's validate walk, whatever the "
                "value",
            "valid-stage4-equality-other-type":
                "a rule compares a list with a string: it fails in "
                "Terraform's validate walk, whatever the value",
            "valid-stage4-unknown-condition-type":
                "its error messages use a set and a number as conditions: "
                "an error whether or not the rule passes",
            "validate-walk-undeclared-others":
                "a rule refers to an undeclared variable and another fails "
                "in the validate walk: no value passes",
            "tofu-cycle-one-line":
                "a cycle of two rules: no value passes",
            "provider-function-builtin":
                "calls of provider functions that do not exist: no value "
                "passes",
            "provider-function-not-required":
                "calls of provider functions that do not exist: no value "
                "passes",
            "tree-source-control-char":
                "its module sources hold control characters: an error "
                "whatever the values"}
    # the module tree's own errors (module blocks, outputs, moved and
    # removed blocks, a child's defaults): no root value changes them
    skip.update((name, "the module tree's configuration fails, whatever "
                 "the root's values") for name in (
        "tofu-module-count-and-for-each", "tofu-module-reserved-blocks",
        "tree-same-dir-two-paths", "tree-output-type-not-quoted",
        "tree-output-precondition-waits", "eval-provider-functions-module",
        "tree-root-config-errors-before-values",
        "tree-output-precondition-fails-dependents",
        "root-output-type-without-modules",
        "root-output-deprecated-without-modules", "tree-cycle-across-modules-terraform",
        "tree-cycle-across-modules-opentofu", "tree-opentofu-child-final",
        "tree-terraform-child-final",
        "tree-child-default-no-source", "tree-depends-on",
        "tree-depends-on-static", "tree-depends-on-json",
        "tree-depends-on-json-invalid", "tree-depends-on-quoted",
        "tree-module-reserved-blocks",
        "tree-moved-module-exists", "tree-output-precondition",
        "tree-output-precondition-config", "tree-output-root-deprecated",
        "tree-removed-module-exists", "tofu-module-enabled-decode",
        "tree-module-enabled-terraform", "tree-removed-before-root-rules",
        "tree-child-error-not-the-roots", "tree-shared-rule-text-each-own",
        "tree-terraform-child-rule-engine-functions"))
    skip["tree-missing-info-child-same-name"] = (
        "a root variable whose default is null and whose rule refuses null "
        "(the case of -missing-required=info): the env template leaves it "
        "at null")
    skip["locals-error-stops-plan"] = (
        "a local value calls a function that does not exist: an error "
        "whatever the values")
    skip["inspect-envs"] = (
        "its module nc's source reads a variable that is not const: init "
        "cannot know it whatever the values (what inspect says of it)")
    skip["tofu-module-enabled-invalid"] = (
        "its calls' `enabled` values are refused whatever the root's values "
        "(a string, a list, a resource attribute)")
    for i, d in enumerate(dirs):
        if i % shards != shard - 1:
            continue
        name = os.path.basename(d)
        label = os.path.relpath(d, fixtures)
        if name in skip:
            say("SKIP", "%s: %s" % (label, skip[name]))
            continue
        engine = []
        args = os.path.join(d, "args")
        if os.path.isfile(args) and "-engine=opentofu" in open(args).read().split("\n"):
            engine = ["-engine=opentofu"]
        rc, out, err = run([tool, "init", "-no-color"] + engine + [d])
        if rc != 0:
            first = next((re.sub(r"^[^A-Za-z]*", "", l) for l in err.splitlines()
                          if re.search(r"(Error|init):", l)), "")
            erc = "0"
            if os.path.isfile(os.path.join(d, "expected.rc")):
                erc = open(os.path.join(d, "expected.rc")).read().strip()
            if "No configuration files" in first:
                say("SKIP", "%s: no module in this directory" % label)
            elif erc != "0":
                say("SKIP", "%s: meant to fail at load time (%s)" % (label, first))
            else:
                say("FAIL", "%s: init cannot load a module its golden case "
                    "accepts: %s" % (label, first))
            continue
        vals = os.path.join(values, name + ".tfvars")
        m = Module(label, d, engine, vals if os.path.isfile(vals) else None)
        m.tpl["tfvars"] = out
        yield m


def main():
    global tool, child_env
    if len(sys.argv) not in (4, 5):
        print("usage: init_roundtrip.py TFRESOLVE FIXTURES_DIR VALUES_DIR "
              "[SHARD/SHARDS]", file=sys.stderr)
        print("0 passed, 1 failed")
        return 1
    tool = os.path.abspath(sys.argv[1])
    fixtures, values = os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    shard, shards = (int(x) for x in (sys.argv[4] if len(sys.argv) == 5
                                      else "1/1").split("/"))
    child_env = {k: v for k, v in os.environ.items()
                 if k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")}
    child_env["LANG"] = "C.UTF-8"
    with tempfile.TemporaryDirectory(prefix="init_roundtrip.") as tmp:
        if shard == 1:
            cli_checks(tmp, fixtures)
        roundtrip(tmp, fixtures, values, shard, shards)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


def roundtrip(tmp, fixtures, values, shard, shards):
    mods = list(modules(fixtures, values, shard, shards))
    for i, m in enumerate(mods):
        m.key = "m%03d" % i
        want = wanted(m.values)
        for fmt in ("json", "env"):
            rc, out, err = run([tool, "init", "-format=" + fmt] + m.engine + [m.src])
            if rc != 0:
                say("FAIL", "%s [%s]: init failed\n%s" % (m.label, fmt, indent(err, 20)))
                m.done.add(fmt)
            m.tpl[fmt] = out
        # the tfvars form tells which variables are required, for all formats
        m.filled["tfvars"], m.names["tfvars"] = fill(m.tpl["tfvars"], "tfvars", want)
        m.nreq = m.filled["tfvars"].count(REQUIRED + "\n")
        m.filled["env"], m.names["env"] = fill(m.tpl["env"], "env", want)

    # tfvars and json: every module's copy with its template, checked by
    # one `check -recursive` per engine and stage
    files = {"tfvars": "terraform.tfvars", "json": "terraform.tfvars.json"}
    for engine in ([], ["-engine=opentofu"]):
        group = [m for m in mods if m.engine == engine]
        if not group:
            continue
        tag = "tofu" if engine else "tf"
        first = os.path.join(tmp, tag + "-1")
        for m in group:
            m.copy_to(os.path.join(first, "tfvars-template", m.key),
                      files["tfvars"], m.tpl["tfvars"])
            m.copy_to(os.path.join(first, "tfvars-filled", m.key),
                      files["tfvars"], m.filled["tfvars"])
            if "json" not in m.done:
                m.copy_to(os.path.join(first, "json-template", m.key),
                          files["json"], m.tpl["json"])
        verdicts, results = check_tree(first, engine)
        second = os.path.join(tmp, tag + "-2")
        for m in group:
            for fmt in ("tfvars", "json"):
                if fmt in m.done:
                    continue
                v = lookup(verdicts, first, m, "%s-template" % fmt)
                if not judge(m, fmt, "template", v):
                    m.done.add(fmt)
            v = lookup(verdicts, first, m, "tfvars-filled")
            if "tfvars" not in m.done:
                judge(m, "tfvars", "filled", v)
            if "json" in m.done:
                continue
            shown = results.get(os.path.join("tfvars-filled", m.key))
            try:
                m.filled["json"] = fill_json(m.tpl["json"], m.names["tfvars"],
                                             (shown or {}).get("variables", {}))
            except (ValueError, KeyError) as e:
                say("FAIL", "%s [json]: could not fill in the json template: %r"
                    % (m.label, e))
                m.done.add("json")
                continue
            m.copy_to(os.path.join(second, "json-filled", m.key),
                      files["json"], m.filled["json"])
        if os.path.isdir(second):
            verdicts, _ = check_tree(second, engine)
            for m in group:
                if "json" not in m.done:
                    judge(m, "json", "filled",
                          lookup(verdicts, second, m, "json-filled"))

    # env: the template sourced by a shell, one check each
    for m in mods:
        if "env" in m.done:
            continue
        mod = os.path.join(tmp, "env", m.key)
        m.copy_to(mod)
        for stage, text in (("template", m.tpl["env"]), ("filled", m.filled["env"])):
            script = os.path.join(tmp, "env", "%s-%s.sh" % (m.key, stage))
            with open(script, "w") as f:
                f.write(text)
            if not judge(m, "env", stage, check_one(mod, m.engine, source=script)):
                break


def lookup(verdicts, root, m, stage):
    """The module's verdict in a recursive run below root; a module that
    -recursive leaves out (it declares no variable) is checked on its own."""
    v = verdicts.get(os.path.join(stage, m.key))
    return v if v is not None else check_one(os.path.join(root, stage, m.key),
                                             m.engine)


# ---- the command line: -out, -force, -chdir ---------------------------------

def cli_checks(tmp, fixtures):
    def expect(label, ok):
        say("PASS" if ok else "FAIL", "cli: " + label)

    cli = os.path.join(tmp, "cli")
    os.mkdir(cli)
    demo = os.path.join(fixtures, "demo")
    p = lambda n: os.path.join(cli, n)
    read = lambda n: open(p(n)).read() if os.path.exists(p(n)) else None

    _, stdout_tpl, _ = run([tool, "init", demo])
    rc, out, err = run([tool, "init", "-out=" + p("new.tfvars"), demo])
    expect("-out writes a new file with what stdout gets",
           rc == 0 and read("new.tfvars") == stdout_tpl and
           re.search(r"^Wrote .*new.tfvars: 12 variables, 2 required",
                     out + err, re.M))
    with open(p("mine.tfvars"), "w") as f:
        f.write('keep = "me"\n')
    rc, out, err = run([tool, "init", "-out=" + p("mine.tfvars"), demo])
    expect("-out refuses an existing file (exit 2) and leaves it alone",
           rc == 2 and re.search(r"already exists.*-force", out + err) and
           read("mine.tfvars") == 'keep = "me"\n')
    os.symlink(p("nowhere"), p("dangling.tfvars"))
    rc, _, _ = run([tool, "init", "-out=" + p("dangling.tfvars"), demo])
    expect("-out refuses a dangling symbolic link",
           rc == 2 and not os.path.exists(p("nowhere")))
    rc, _, _ = run([tool, "init", "-force", "-out=" + p("mine.tfvars"), demo])
    expect("-out -force replaces an existing file",
           rc == 0 and read("mine.tfvars") == stdout_tpl)
    rc, _, _ = run([tool, "init", "-out=" + p("t.tfvars.json"), demo])
    expect("-out=*.json writes JSON unless -format says otherwise",
           rc == 0 and (read("t.tfvars.json") or "").startswith("{"))
    os.mkdir(p("broken"))
    with open(p("broken/main.tf"), "w") as f:
        f.write('variable "x" {\n  type = strin\n}\n')
    rc, out, err = run([tool, "init", "-no-color", "-out=" + p("b.tfvars"),
                        p("broken")])
    expect("a module that does not load: its errors, exit 1, no file",
           rc == 1 and not os.path.exists(p("b.tfvars")) and
           "Error: Invalid type specification" in out + err)
    os.mkdir(p("mod"))
    for n in os.listdir(demo):
        if n.endswith(".tf"):
            shutil.copy(os.path.join(demo, n), p("mod"))
    rc, _, _ = run([tool, "init", "-chdir=" + p("mod"), "-out=here.tfvars"])
    expect("-chdir: the module and a relative -out are in DIR",
           rc == 0 and read("mod/here.tfvars") == stdout_tpl)
    rc, _, _ = run([tool, "init", p("no-such-dir")])
    expect("a directory that does not exist: exit 2", rc == 2)
    rc, _, _ = run([tool, "init", "-format=yaml", demo])
    expect("an unknown format: exit 2", rc == 2)


if __name__ == "__main__":
    sys.exit(main())
