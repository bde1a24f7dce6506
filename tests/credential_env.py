#!/usr/bin/env python3
"""tfresolve is started without the environment's credentials by the
scripts that run it on code someone else wrote (issue 38, point 5):
scripts/credential-env.sh, sourced by the GitHub Action's script and the
pre-commit hook's.

    credential_env.py TFRESOLVE SOURCE_ROOT

Checked:
  - credential_names picks the credential-looking variables of a table of
    names and values (tokens of GitHub, GitLab, the runner, cloud keys, a
    URL with a password) and leaves the rest, TF_VAR_* always;
  - without_credentials runs a command without them, the caller's
    environment untouched;
  - the pre-commit hook's script on a root whose validation rule prints
    file("/proc/self/environ"): no credential in its output, the plain
    variables and TF_VAR_* there (the file is read: the check can fail).
The action's script is tried the same way by
scripts/release/action-check.sh.  "N passed, M failed" last.
"""
import os
import shutil
import sys
import tempfile

import harness

# name -> (value, held back)
TABLE = {
    "GITHUB_TOKEN": ("ghs_canary1", True),
    "ACTIONS_RUNTIME_TOKEN": ("canary2", True),
    "ACTIONS_ID_TOKEN_REQUEST_URL": ("https://example.test/oidc", True),
    "ACTIONS_CACHE_URL": ("https://example.test/cache", True),
    "CI_JOB_TOKEN": ("canary3", True),
    "CI_REPOSITORY_URL": ("https://gitlab-ci-token:canary4@gitlab.test/g/p.git",
                          True),
    "CI_REGISTRY_PASSWORD": ("canary5", True),
    "CI_JOB_JWT_V2": ("canary6", True),
    "AWS_ACCESS_KEY_ID": ("AKIACANARY7", True),
    "AWS_SECRET_ACCESS_KEY": ("canary8", True),
    "AWS_SESSION_TOKEN": ("canary9", True),
    "ARM_CLIENT_SECRET": ("canary10", True),
    "ARM_ACCESS_KEY": ("canary11", True),
    "GOOGLE_CREDENTIALS": ("canary12", True),
    "TF_TOKEN_app_terraform_io": ("canary13", True),
    "gh_pat": ("canary14", True),
    "DEPLOY_KEY": ("canary15", True),
    "api_key": ("canary16", True),
    "DB_PASSWD": ("canary17", True),
    "VAULT_AUTH_METHOD": ("canary18", True),
    "SOME_HANDLE": ("ghp_canary19", True),
    "OTHER": ("glpat-canary20", True),
    "PLAIN_VALUE": ("visible1", False),
    "GITHUB_REPOSITORY": ("acme/infra", False),
    "TF_WORKSPACE": ("default", False),
    "KEYBOARD": ("visible2", False),
    "MONKEY_BUSINESS": ("visible3", False),
    "TF_VAR_api_token": ("visible4", False),
    "TF_VAR_password": ("visible5", False),
}

PROBE = r'''variable "api_token" {
  type    = string
  default = "none"
}

variable "probe" {
  type    = string
  default = "x"
  validation {
    condition     = var.probe == "never"
    error_message = "The environment: ${replace(file("/proc/self/environ"), "\u0000", " ")}"
  }
}
'''


def sh(root, script, env):
    return harness.run(["sh", "-c", ". \"$0\"; " + script,
                        os.path.join(root, "scripts", "credential-env.sh")],
                       env=env)


def main():
    tool, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    t = harness.Tally()
    env = harness.child_env({k: v for k, (v, _) in TABLE.items()})

    rc, out, err = sh(root, "credential_names", env)
    held = set(out.split())
    for name, (_, secret) in TABLE.items():
        t((name in held) == secret, "%s %s" % (
            name, "held back" if secret else "kept"), out + err)

    rc, out, err = sh(root, "without_credentials env; echo ==; env", env)
    child, _, caller = out.partition("==\n")
    t(rc == 0 and not any(v in child for v, s in TABLE.values() if s)
      and all(v in child for v, s in TABLE.values() if not s),
      "without_credentials: the command's environment has no credential",
      child + err)
    t(all(v in caller for v, _ in TABLE.values()),
      "without_credentials: the caller's environment is untouched", caller)

    d = tempfile.mkdtemp(prefix="tfr-credenv-")
    try:
        with open(os.path.join(d, "main.tf"), "w") as f:
            f.write(PROBE)
        bindir = os.path.join(d, "bin")
        os.mkdir(bindir)
        os.symlink(tool, os.path.join(bindir, "tfresolve"))
        henv = dict(env, PATH=bindir + ":" + env["PATH"])
        rc, out, err = harness.run(
            [os.path.join(root, "scripts", "pre-commit-check.sh"),
             "-format=github", "main.tf"], cwd=d, env=henv)
        both = out + err
        t(rc == 1 and "The environment: " in both,
          "the hook: the rule printing the environment fails (exit %d)" % rc,
          both)
        leaked = [n for n, (v, s) in TABLE.items() if s and v in both]
        t(not leaked, "the hook: no credential printed (%s)" %
          ", ".join(leaked), both)
        t(all(v in both for v, s in TABLE.values() if not s),
          "the hook: plain variables and TF_VAR_* are there", both)
    finally:
        shutil.rmtree(d, ignore_errors=True)
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
