#!/usr/bin/env python3
"""`show -format=tfvars|env|yaml` read back to the same values (issue 17).

  format_roundtrip.py TFRESOLVE FIXTURES_DIR

The modules: FIXTURES_DIR/demo, console, envs and secrets (each with the
few values it needs to resolve, in SETUP below), and every
FIXTURES_DIR/cases/* directory, run as the golden runner runs it: its
`args` after the command (show and check cases only; not those that use
-chdir, -var-file-each or -recursive), its `env` lines in an environment
that otherwise holds only PATH and LANG=C.UTF-8.  A module whose `show
-json -show-sensitive` does not exit 0 (it is not valid) is skipped.  The
resolved values are the `value`s of that JSON; then, for each format, the
output of `show -format=F -show-sensitive` with the same arguments must
read back to them:

  tfvars  written to a file, given last with -var-file=FILE (so it wins
          over every other source) in the module directory, with the
          same arguments and environment: `show -json` gives the values.
  env     the `export TF_VAR_...` lines run by sh with an otherwise empty
          environment, in a copy of the module directory without its
          terraform.tfvars(.json) and *.auto.tfvars(.json) files, with
          the arguments less -var, -var-file and -no-env: so the exported
          values are the only source above the defaults, each read in
          Terraform's parse mode for its type.  A variable left out with
          a comment (one that TF_VAR_ cannot express) is not compared,
          but counted; when one was left out, a variable of the read-back
          module may be a preview (a required one left out stops plan),
          and its preview value is compared.
  yaml    parsed by PyYAML's SafeLoader, a YAML 1.1 reader, with numbers
          built as decimal.Decimal of their text; it must give every
          resolved value (the JSON is read with Decimal numbers too; sets
          are lists in both).

Values are compared strictly: a string never equals a number or a bool.
Prints PASS/FAIL/SKIP per module and format (SKIP once for a module not
run) and "N passed, M failed" last; exits 1 on any failure.
"""
import concurrent.futures
import decimal
import glob
import json
import os
import re
import shutil
import sys
import tempfile

import yaml

import harness

TIMEOUT = 60  # per command; each takes well under a second
FORMATS = ["tfvars", "env", "yaml"]
AUTO_FILES = ["terraform.tfvars", "terraform.tfvars.json",
              "*.auto.tfvars", "*.auto.tfvars.json"]
# What the fixed modules need to resolve: more environment, more args.
SETUP = {
    "demo": ({"TF_VAR_db_password": "hunter2"}, []),
    "console": ({}, []),
    "envs": ({}, ["-var-file=envs/dev.tfvars"]),
    "secrets": ({"TF_VAR_s_env": "SECRETenvK4M9",
                 "TF_VAR_s_all": "SECRETallEnvG5", "TF_VAR_s_num": "73914286"},
                ["-var", "s_cli=SECRETcliV5T7", "-var", "s_all=SECRETallCliH6",
                 "-var-file=extra.tfvars", "-var", "plain=" + "p" * 110,
                 "-var", "s_checked=abc"]),
}
# modules valid only through an option of theirs that reading back
# (values alone) does not have
NOT_BACK = {"planjson-corpus-caf":
            "its module and var file are corpus paths relative to the case "
            "directory, which the read-back's copy does not have",
            "missing-required-info-null-rule":
            "valid only with -missing-required=info (a rule that fails at a "
            "null default): its values alone fail, as they should",
            "cli-option-spellings":
            "its \"--\" ends the options: the var file this test adds "
            "after its arguments would be an operand"}
SOURCE_OPTS = {"-var", "-var-file"}  # value sources, with their value
BASE_ENV = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LANG": "C.UTF-8"}

tool = None


class DecimalLoader(yaml.SafeLoader):
    """PyYAML's safe loader (YAML 1.1 resolvers), numbers as Decimal."""


def _number(loader, node):
    text = node.value
    if re.fullmatch(r"[-+]?[0-9]+(\.[0-9]*)?", text):
        return decimal.Decimal(text)
    # another YAML 1.1 form (0x1F, 1:20, .inf): what safe_load makes of it
    tag = node.tag.rsplit(":", 1)[1]
    return getattr(yaml.SafeLoader, "construct_yaml_" + tag)(loader, node)


DecimalLoader.add_constructor("tag:yaml.org,2002:int", _number)
DecimalLoader.add_constructor("tag:yaml.org,2002:float", _number)


def run(args, cwd, env, script=None):
    """Run args (after sourcing script in sh, if given); rc, out, err."""
    if script is not None:
        args = ["sh", "-c", script + '\nexec "$@"', "sh"] + args
    return harness.run(args, cwd=cwd, env=env, errors="surrogateescape",
                       timeout=TIMEOUT)


def plain_options(args):
    """args with the output options this script sets itself left out."""
    return [a for a in args if a not in ("-json", "--json", "-show-sensitive",
                                         "--show-sensitive")
            and not re.match(r"^--?format=", a)]


def without_sources(args):
    """args less -var, -var-file (either spelling) and -no-env."""
    out, skip = [], False
    for a in args:
        if skip:
            skip = False
            continue
        opt = a[1:] if a.startswith("--") else a
        if opt in SOURCE_OPTS:
            skip = True
        elif opt.split("=", 1)[0] in SOURCE_OPTS or opt == "-no-env":
            continue
        else:
            out.append(a)
    return out


def values_of(doc, previews=False):
    """NAME -> value of the resolved variables of a `show -json` (not
    those that JSON cannot give: an infinite number); with previews, a
    preview value stands for a variable that has none."""
    out = {}
    for name, v in doc["variables"].items():
        if "value_unencodable" in v:  # an infinity: JSON has no value
            continue
        if "error" not in v:
            out[name] = v.get("value")
        elif previews and "preview" in v:
            out[name] = v["preview"].get("value")
    return out


def show_json(args, cwd, env, script=None):
    """The values of `show -json -show-sensitive`, or None and why."""
    rc, out, err = run([tool, "show", "-json", "-show-sensitive"] + args,
                       cwd, env, script)
    try:
        doc = json.loads(out, parse_float=decimal.Decimal,
                         parse_int=decimal.Decimal)
    except ValueError:
        return None, rc, "exit %d, no JSON: %s" % (rc, (out + err)[-1500:])
    return doc, rc, "exit %d: %s" % (rc, json.dumps(
        [d["summary"] + ": " + d.get("detail", "")
         for d in doc.get("diagnostics", [])], ensure_ascii=False)[-1500:])


def kind(v):
    if isinstance(v, bool):
        return "bool"
    if isinstance(v, decimal.Decimal):
        return "number"
    return type(v).__name__


def differ(want, got, path="."):
    """Where got is not want, or None (strict: no str/number/bool mix)."""
    if kind(want) != kind(got):
        return "%s: %s %r, read back as %s %r" % (path, kind(want), want,
                                                  kind(got), got)
    if isinstance(want, list):
        if len(want) != len(got):
            return "%s: %d elements, read back %d" % (path, len(want), len(got))
        for i, (w, g) in enumerate(zip(want, got)):
            d = differ(w, g, "%s[%d]" % (path, i))
            if d:
                return d
        return None
    if isinstance(want, dict):
        if sorted(want) != sorted(got):
            return "%s: keys %r, read back %r" % (path, sorted(want),
                                                  sorted(got))
        for k in want:
            d = differ(want[k], got[k], "%s[%r]" % (path, k))
            if d:
                return d
        return None
    if want != got:
        return "%s: %r, read back as %r" % (path, want, got)
    return None


def compare(want, got, names):
    """The first difference among the variables names, or None."""
    for n in sorted(names):
        if n not in got:
            return "%s: not read back" % n
        d = differ(want[n], got[n], n)
        if d:
            return d
    return None


def exported(text):
    """The names of the `export TF_VAR_name=` lines of env output."""
    return set(re.findall(r"^export TF_VAR_([^=]*)=", text, re.M))


def commented(text, name):
    return re.search(r"^# %s: " % re.escape(name), text, re.M) is not None


def copy_without_auto_files(mod, dest):
    shutil.copytree(mod, dest, symlinks=True)
    for pattern in AUTO_FILES:
        for f in glob.glob(os.path.join(dest, pattern)):
            os.remove(f)


def check_tfvars(mod, args, env, want, out, tmp):
    path = os.path.join(tmp, "roundtrip.tfvars")
    with open(path, "w", errors="surrogateescape") as f:
        f.write(out)
    doc, rc, why = show_json(args + ["-var-file=" + path], mod, env)
    if doc is None or rc != 0:
        return False, "read back: " + why
    d = compare(want, values_of(doc), want)
    return (d is None), d or "%d values" % len(want)


def check_env(mod, args, want, unencodable, out, tmp):
    names = exported(out)
    left = (set(want) | unencodable) - names
    for n in sorted(left):
        if not commented(out, n):
            return False, "%s: left out without a comment saying why" % n
    copy = os.path.join(tmp, "module")
    copy_without_auto_files(mod, copy)
    doc, rc, why = show_json(without_sources(args), copy, dict(BASE_ENV),
                             script=out)
    if doc is None:
        return False, "read back: " + why
    got = values_of(doc, previews=bool(left))
    if rc != 0 and not left:
        return False, "read back: " + why
    d = compare(want, got, names & set(want))
    note = "%d values, %d left out with a comment" % (len(names), len(left))
    return (d is None), d or note


def check_yaml(want, out, unencodable):
    try:
        got = yaml.load(out, Loader=DecimalLoader)
    except yaml.YAMLError as e:
        return False, "PyYAML: %s" % e
    if got is None:
        got = {}
    if not isinstance(got, dict):
        return False, "not a mapping: %r" % (got,)
    extra = set(got) - set(want) - unencodable
    if extra:
        return False, "unexpected keys %r" % sorted(extra, key=str)
    d = compare(want, got, want)
    return (d is None), d or "%d values" % len(want)


def case_setup(mod):
    """(env, args) of a golden case, or None and why it is not run."""
    args, env = [], {}
    path = os.path.join(mod, "args")
    if os.path.exists(path):
        with open(path) as f:
            args = [l for l in f.read().split("\n") if l]
    if args and not args[0].startswith("-"):
        cmd, args = args[0], args[1:]
    elif args and re.match(r"^--?chdir", args[0]):
        return None, "uses -chdir"
    else:
        cmd = "show"
    if cmd not in ("show", "check"):
        return None, "a %s case" % cmd
    for a in args:
        if re.match(r"^--?(chdir|var-file-each|recursive)\b", a):
            return None, "uses %s" % a.split("=")[0]
    path = os.path.join(mod, "env")
    if os.path.exists(path):
        with open(path) as f:
            for line in f.read().split("\n"):
                if "=" in line:
                    k, v = line.split("=", 1)
                    env[k] = v
    return (env, plain_options(args)), None


def one_module(mod, name):
    """The verdict lines of one module: [(verdict, text)]."""
    base = os.path.basename(mod)
    if base in NOT_BACK:
        return [("SKIP", "%s: %s" % (name, NOT_BACK[base]))]
    if base.startswith("tg-"):
        return [("SKIP", "%s: a terragrunt unit: its values are the unit's "
                 "inputs, which terragrunt passes itself (tests/"
                 "terragrunt_bridge.py reads them back through TF_VAR_)"
                 % name)]
    if base in SETUP:
        setup, why = SETUP[base], None
    else:
        setup, why = case_setup(mod)
    if setup is None:
        return [("SKIP", "%s: %s" % (name, why))]
    more_env, args = setup
    env = dict(BASE_ENV)
    env.update(more_env)
    doc, rc, why = show_json(args, mod, env)
    if doc is None or rc != 0 or not doc.get("valid"):
        return [("SKIP", "%s: not valid (%s)" % (name, why[:200]))]
    want = values_of(doc)
    unencodable = {n for n, v in doc["variables"].items()
                   if "value_unencodable" in v}
    lines = []
    with tempfile.TemporaryDirectory(prefix="fmt-rt-") as tmp:
        for fmt in FORMATS:
            rc, out, err = run([tool, "show", "-format=" + fmt,
                                "-show-sensitive"] + args, mod, env)
            if rc != 0:
                ok, note = False, "show -format=%s: exit %d: %s" % (
                    fmt, rc, err[-1500:])
            elif fmt == "tfvars":
                ok, note = check_tfvars(mod, args, env, want, out, tmp)
            elif fmt == "env":
                ok, note = check_env(mod, args, want, unencodable, out,
                                     tempfile.mkdtemp(dir=tmp))
            else:
                ok, note = check_yaml(want, out, unencodable)
            text = "%s %s: %s" % (name, fmt, note)
            if not ok:
                text += "\n    " + "\n    ".join(out.splitlines()[:40])
            lines.append(("PASS" if ok else "FAIL", text))
    return lines


def main():
    global tool
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    tool = os.path.abspath(sys.argv[1])
    fixtures = os.path.abspath(sys.argv[2])
    mods = [(os.path.join(fixtures, m), m) for m in SETUP]
    cases = os.path.join(fixtures, "cases")
    mods += [(os.path.join(cases, c), "cases/" + c)
             for c in sorted(os.listdir(cases))
             if os.path.isdir(os.path.join(cases, c))]
    passed = failed = 0
    # one process; two threads keep both cores of a small machine busy
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        for lines in pool.map(lambda m: one_module(*m), mods):
            for verdict, text in lines:
                print("%s %s" % (verdict, text))
                passed += verdict == "PASS"
                failed += verdict == "FAIL"
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
