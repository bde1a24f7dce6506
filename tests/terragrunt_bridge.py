#!/usr/bin/env python3
"""The bridge between a terragrunt unit and its module is the environment.

For every golden case fixtures/cases/tg-*/ with a file `bridge` (the module
directory on its first line, then the exact TF_VAR_NAME=VALUE lines
terragrunt would set for the unit -- run.go:721-748, util/jsons.go:26-144
of gruntwork-io/terragrunt -- and the -var / -var-file options its
extra_arguments add, in order), `tfresolve check` on the module with that
environment and those options must give the same verdict (exit status)
as `tfresolve check` on the unit itself (in the case's `env`), and `show
-json` the same value for every variable.

Usage: terragrunt_bridge.py TFRESOLVE SOURCE_ROOT
"""
import glob
import json
import os
import subprocess
import sys


def run(tfr, cwd, args, env, cmd="check"):
    e = {"PATH": os.environ.get("PATH", ""), "LANG": "C.UTF-8"}
    e.update(env)
    extra = ["-json", "-show-sensitive"] if cmd == "show" else ["-no-color"]
    p = subprocess.run([tfr, cmd] + extra + args, cwd=cwd, env=e,
                       capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def values(out):
    """{variable: its value (or preview) as show -json gives it}"""
    doc = json.loads(out)
    return {k: (v.get("value"), v.get("unknown", False), v.get("error", False))
            for k, v in doc["variables"].items()}


def main():
    tfr, root = sys.argv[1], sys.argv[2]
    bad = n = 0
    for case in sorted(glob.glob(os.path.join(root, "fixtures/cases/tg-*"))):
        bridge = os.path.join(case, "bridge")
        if not os.path.exists(bridge):
            continue
        with open(bridge, encoding="utf-8") as f:
            lines = [l.rstrip("\n") for l in f if not l.startswith("#")]
        module, env, opts = lines[0], {}, []
        for l in lines[1:]:
            if l.startswith("-"):
                opts.append(l)
            elif l:
                k, v = l.split("=", 1)
                env[k] = v
        with open(os.path.join(case, "args"), encoding="utf-8") as f:
            unit = [l for l in f.read().split("\n") if l][-1]
        shell = {}  # the case's own environment, the unit's to read
        if os.path.exists(os.path.join(case, "env")):
            with open(os.path.join(case, "env"), encoding="utf-8") as f:
                shell = dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
        rc_unit, out_unit = run(tfr, case, [unit], shell)
        rc_mod, out_mod = run(tfr, case, opts + [module], env)
        n += 1
        _, js_unit = run(tfr, case, [unit], shell, "show")
        _, js_mod = run(tfr, case, opts + [module], env, "show")
        if values(js_unit) != values(js_mod):
            bad += 1
            print("FAIL %s: the values differ\nunit:   %s\nmodule: %s" %
                  (os.path.basename(case), values(js_unit), values(js_mod)))
        elif rc_unit != rc_mod:
            bad += 1
            print("FAIL %s: unit %d, module with the env %d\n%s\n%s" %
                  (os.path.basename(case), rc_unit, rc_mod, out_unit,
                   out_mod))
        else:
            print("PASS %s (%d)" % (os.path.basename(case), rc_unit))
    print("%d passed, %d failed" % (n - bad, bad))
    return 1 if bad or not n else 0


if __name__ == "__main__":
    sys.exit(main())
