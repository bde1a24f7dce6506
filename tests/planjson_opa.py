#!/usr/bin/env python3
"""Rego policies written against plan JSON, run by OPA on our plan-json
(issue 43, must-show 2).

  planjson_opa.py TFRESOLVE MODULE_DIR

MODULE_DIR (fixtures/planjson-opa) is a root module with one var file a
environment in envs/ and conftest-style policies in policy/ (package
main, deny rules): variables.rego reads plan JSON's "variables" block
({"NAME": {"value": V}}, Terraform's internal/command/jsonplan/plan.go:
190-193) as policies on `terraform show -json PLANFILE` do, modules.rego
reads the resolved inputs of each module instance under our "tfresolve"
member.  For each var file, `show -format=plan-json` is handed to
`opa eval -d policy -i PLAN data.main.deny` and the set of denials must
be the one listed below; with -show-sensitive the policies that would
print a secret fire, without it they do not (the plan JSON, and so
OPA's answer, has no secret).

The opa binary: $TFR_OPA, else `opa` on PATH.  Neither OPA nor conftest
is a Debian package, so CI has none: the test is then skipped (exit 77,
"skipped: opa not found (set TFR_OPA=path)") and planjson-schema is
the check CI runs.  The policies are in Rego v0's syntax (deny[msg] {...},
what conftest policies are mostly written in); an OPA 1.x runs them with
--v0-compatible.

Prints a line per failure and "N passed, M failed" last.
"""
import json
import os
import re
import shutil
import sys
import tempfile

from harness import Tally, run, child_env

SECRETS = ("opa-fixture-secret-dev", "opa-fixture-secret-prod",
           "opa-fixture-secret-qa")

TOO_LARGE = '%s: instance_type "%s" is larger than large'
EXPECTED = {
    "dev": set(),
    "prod": {TOO_LARGE % ("module.batch", "m5.24xlarge")},
    "qa": {'environment "qa" is not one of dev, staging, prod',
           'instance_type "c5.9xlarge" is larger than large',
           TOO_LARGE % ('module.web["a"]', "c5.9xlarge"),
           TOO_LARGE % ('module.web["b"]', "c5.9xlarge")},
}
# with -show-sensitive, the rules that print the password fire too
SHOWN_DEV = {'db_password is "opa-fixture-secret-dev"'} | {
    '%s: password is "opa-fixture-secret-dev"' % a
    for a in ('module.web["a"]', 'module.web["b"]', "module.batch")}


def find_opa():
    opa = os.environ.get("TFR_OPA") or shutil.which("opa")
    if opa and os.access(opa, os.X_OK):
        return opa
    return None


def opa_flags(opa):
    """--v0-compatible for an OPA 1.x (whose default is Rego v1)."""
    st, out, err = run([opa, "version"])
    m = re.search(r"^Version: v?(\d+)\.", out, re.M)
    if st != 0 or not m:
        return None, out + err
    return (["--v0-compatible"] if int(m.group(1)) >= 1 else []), out


def deny(opa, flags, module, plan_text, tmp):
    """The set of data.main.deny for the plan, or an error string."""
    path = os.path.join(tmp, "plan.json")
    with open(path, "w") as f:
        f.write(plan_text)
    st, out, err = run([opa, "eval"] + flags +
                       ["--format", "json", "-d",
                        os.path.join(module, "policy"), "-i", path,
                        "data.main.deny"])
    if st != 0:
        return "opa eval: status %d: %s%s" % (st, out, err)
    res = json.loads(out).get("result", [])
    if not res:
        return "opa eval: no result (data.main.deny undefined): " + out
    return set(res[0]["expressions"][0]["value"]), out


def plan(tool, module, env_name, extra=()):
    return run([tool, "-chdir=" + module, "show", "-format=plan-json",
                "-no-env", "-var-file=envs/%s.tfvars" % env_name] +
               list(extra), env=child_env())


def check_env(t, opa, flags, tool, module, tmp, name, extra, want):
    where = "%s%s" % (name, " " + " ".join(extra) if extra else "")
    st, text, err = plan(tool, module, name, extra)
    if st != 0:
        t(False, where, "show -format=plan-json: status %d: %s" % (st, err))
        return
    shown = "-show-sensitive" in extra
    leaked = [s for s in SECRETS if s in text]
    t(shown or not leaked, where + ": no secret in the plan JSON",
      ", ".join(leaked))
    got = deny(opa, flags, module, text, tmp)
    if isinstance(got, str):
        t(False, where, got)
        return
    denials, raw = got
    t(shown or not any(s in raw for s in SECRETS),
      where + ": no secret in OPA's answer")
    t(denials == want, where + ": the policies' denials",
      "got %s\nwant %s" % (sorted(denials), sorted(want)))


def main():
    tool, module = sys.argv[1], os.path.abspath(sys.argv[2])
    opa = find_opa()
    if not opa:
        print("skipped: opa not found (set TFR_OPA=path); "
              "planjson-schema is the plan-json check without it")
        return 77
    flags, version = opa_flags(opa)
    if flags is None:
        print("FAIL %s version: %s" % (opa, version))
        return 1
    print("# %s" % version.splitlines()[0])
    t = Tally()
    with tempfile.TemporaryDirectory() as tmp:
        for name, want in sorted(EXPECTED.items()):
            check_env(t, opa, flags, tool, module, tmp, name, (), want)
        check_env(t, opa, flags, tool, module, tmp, "dev",
                  ("-show-sensitive",), SHOWN_DEV)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
