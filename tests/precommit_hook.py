#!/usr/bin/env python3
"""The pre-commit hook tfresolve-check (issue 37, point 10), run as
pre-commit runs it, on a git repository this test builds.

    precommit_hook.py TFRESOLVE SOURCE_ROOT

The hook's definition is read from SOURCE_ROOT/.pre-commit-hooks.yaml
(entry, files, pass_filenames); the files are the staged ones (git diff
--staged --name-only, as pre-commit lists them) that match `files`, and
the entry runs in the repository's top directory with the args a user
writes in .pre-commit-config.yaml first, then the file names.  Checked:
  - a change in a child module directory checks the roots that call it
    (through ../.., however deep), never the child alone with its
    required variables missing;
  - a -var-file in args applies to the root it belongs to only;
  - a changed var file that is not loaded automatically and not in args
    is checked as an environment of its root;
  - a broken value is found (exit 1), a valid commit passes (exit 0), a
    commit touching no root's file checks nothing (exit 0).
The hook tfresolve-docs (issue 43), likewise: its entry with the module
directory as args fails while README.md is missing or stale, passes once
`tfresolve docs -write` wrote it, and fails again when a description
changes; a change to a .tf, .tofu or .md file runs it.
Skipped (exit 77) without git or PyYAML.  "N passed, M failed" last.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

import harness

try:
    import yaml
except ImportError:
    yaml = None

FILES = {
    "modules/net/main.tf": '''variable "cidr" {
  type = string
  validation {
    condition     = can(cidrhost(var.cidr, 0))
    error_message = "Not a CIDR block."
  }
}
''',
    "modules/app/main.tf": '''variable "name" {
  type = string
}

variable "cidr" {
  type = string
}

module "net" {
  source = "../net"
  cidr   = var.cidr
}
''',
    "live/prod/main.tf": '''variable "cidr" {
  type = string
}

variable "replicas" {
  type = number
}

module "app" {
  source = "../../modules/app"
  name   = "prod"
  cidr   = var.cidr
}
''',
    "live/prod/envs/prod.tfvars": 'cidr     = "10.0.0.0/16"\nreplicas = 3\n',
    "live/dev/main.tf": '''variable "cidr" {
  type = string
}

module "net" {
  source = "../../modules/net"
  cidr   = var.cidr
}
''',
    "live/dev/terraform.tfvars": 'cidr = "10.1.0.0/16"\n',
    "examples/simple/main.tf": '''module "net" {
  source = "../../modules/net"
  cidr   = "10.2.0.0/16"
}
''',
    "docs/notes.md": "notes\n",
}
# what a user writes in .pre-commit-config.yaml for the prod root's values
ARGS = ["-var-file=live/prod/envs/prod.tfvars"]


def git(repo, *argv):
    subprocess.run(["git", "-C", repo] + list(argv), check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                   env=harness.child_env({
                       "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@t",
                       "GIT_COMMITTER_NAME": "t",
                       "GIT_COMMITTER_EMAIL": "t@t", "HOME": repo}))


def write(repo, path, text):
    p = os.path.join(repo, path)
    os.makedirs(os.path.dirname(p), exist_ok=True)
    with open(p, "w") as f:
        f.write(text)


def checked(out):
    """The labels of the checks a run reports ("== LABEL: ...")."""
    return sorted(m.group(1) for m in re.finditer(r"^== (.+?): ", out, re.M))


def main():
    tool, root = os.path.abspath(sys.argv[1]), os.path.abspath(sys.argv[2])
    if yaml is None or not shutil.which("git"):
        print("SKIP git or PyYAML not found")
        return 77
    with open(os.path.join(root, ".pre-commit-hooks.yaml")) as f:
        hook = [h for h in yaml.safe_load(f) if h["id"] == "tfresolve-check"]
    t = harness.Tally()
    t(len(hook) == 1, "one tfresolve-check hook in .pre-commit-hooks.yaml")
    if not hook:
        return t.done()
    hook = hook[0]
    entry = os.path.join(root, hook["entry"])
    files_re = re.compile(hook.get("files", ""))
    t(hook.get("pass_filenames", True), "the hook is given the file names")
    bindir = tempfile.mkdtemp(prefix="tfr-hook-bin-")
    os.symlink(tool, os.path.join(bindir, "tfresolve"))  # as installed
    env = harness.child_env({"PATH": bindir + ":" + os.environ["PATH"]})

    repo = tempfile.mkdtemp(prefix="tfr-hook-")
    try:
        git(repo, "init", "-q")

        def commit(changes, args=ARGS):
            """Stage changes, run the hook on the staged files as pre-commit
            would, commit: (status, output, the checked labels)."""
            for path, text in changes.items():
                write(repo, path, text)
            git(repo, "add", "-A")
            staged = subprocess.run(
                ["git", "-C", repo, "diff", "--staged", "--name-only",
                 "--no-ext-diff", "--diff-filter=ACMRTUXB"],
                check=True, capture_output=True, text=True).stdout.split()
            files = [p for p in staged if files_re.search(p)]
            rc, out, err = (0, "", "") if not files else harness.run(
                [entry] + args + files, cwd=repo, env=env)
            git(repo, "commit", "-q", "-m", "c", "--allow-empty")
            return rc, out + err, checked(out)

        def expect(what, got, rc, labels, absent=(), present=()):
            status, out, seen = got
            t(status == rc and seen == sorted(labels)
              and not any(a in out for a in absent)
              and all(p in out for p in present),
              "%s: exit %d (want %d), checked %s (want %s)" % (
                  what, status, rc, seen, sorted(labels)), out)

        never = ["No value for required variable",
                 "Value for undeclared variable"]
        expect("the first commit: every root, each with its own values",
               commit(FILES), 0, ["examples/simple", "live/dev", "live/prod"],
               never)
        expect("a child module two calls down: the one root calling it",
               commit({"modules/app/main.tf":
                       FILES["modules/app/main.tf"] + "# a comment\n"}),
               0, ["live/prod"], never)
        expect("a child module every root calls, made stricter",
               commit({"modules/net/main.tf": FILES["modules/net/main.tf"]
                       .replace("can(cidrhost(var.cidr, 0))",
                                "can(cidrhost(var.cidr, 0)) && "
                                "!startswith(var.cidr, \"10.1.\")")}),
               1, ["examples/simple", "live/dev", "live/prod"], never,
               ["on live/dev/main.tf line 7", "2 of 3 modules valid."])
        write(repo, "modules/net/main.tf", FILES["modules/net/main.tf"])
        commit({})
        expect("a var file named in args: its root, with it",
               commit({"live/prod/envs/prod.tfvars":
                       'cidr     = "10.0.0.0/33"\nreplicas = 3\n'}),
               1, ["live/prod"], never,
               ["Not a CIDR block.", "0 of 1 module valid."])
        expect("an auto-loaded var file: its root only",
               commit({"live/dev/terraform.tfvars": '# dev\ncidr = "10.1.0.0/16"\n',
                       "live/prod/envs/prod.tfvars":
                       FILES["live/prod/envs/prod.tfvars"]}),
               0, ["live/dev", "live/prod"], never)
        expect("a var file not in args: an environment of its root",
               commit({"live/dev/envs/stage.tfvars": 'cidr = "nope"\n'}),
               1, ["live/dev/envs/stage.tfvars"], never,
               ["Not a CIDR block."])
        expect("-var-file-each in args: the root, once per file of its own",
               commit({"live/dev/main.tf":
                       FILES["live/dev/main.tf"] + "# a comment\n"},
                      args=ARGS + ["-var-file-each=live/*/envs/*.tfvars"]),
               1, ["live/dev/envs/stage.tfvars"], never,
               ["Not a CIDR block."])
        expect("a file no hook pattern matches: nothing runs",
               commit({"docs/notes.md": "more\n"}), 0, [])
        expect("without args, the prod root has no value: Terraform's error",
               commit({"live/prod/main.tf":
                       FILES["live/prod/main.tf"] + "# a comment\n"},
                      args=[]),
               1, ["live/prod"], present=["No value for required variable"])
        docs_hook(t, root, repo, env)
    finally:
        shutil.rmtree(repo, ignore_errors=True)
        shutil.rmtree(bindir, ignore_errors=True)
    return t.done()


def docs_hook(t, root, repo, env):
    """tfresolve-docs, run as pre-commit runs it (no file names)."""
    with open(os.path.join(root, ".pre-commit-hooks.yaml")) as f:
        hook = [h for h in yaml.safe_load(f) if h["id"] == "tfresolve-docs"]
    t(len(hook) == 1, "one tfresolve-docs hook in .pre-commit-hooks.yaml")
    if not hook:
        return
    hook = hook[0]
    files_re = re.compile(hook.get("files", ""))
    t(not hook.get("pass_filenames", True) and
      all(files_re.search(p) for p in ("a.tf", "b.tofu", "README.md")) and
      not files_re.search("x.tfvars"),
      "tfresolve-docs runs on .tf, .tofu and .md changes, no file names")

    def run():
        return harness.run(hook["entry"].split() + ["modules/net"], cwd=repo,
                           env=env)
    rc, out, err = run()
    t(rc == 1, "tfresolve-docs without README.md: exit 1", out + err)
    harness.run(["tfresolve", "docs", "-write", "modules/net"], cwd=repo,
                env=env)
    rc, out, err = run()
    t(rc == 0, "tfresolve-docs after docs -write: exit 0", out + err)
    write(repo, "modules/net/main.tf", FILES["modules/net/main.tf"].replace(
        'type = string', 'type        = string\n  description = "The CIDR"'))
    rc, out, err = run()
    t(rc == 1, "tfresolve-docs after a description is added: exit 1",
      out + err)


if __name__ == "__main__":
    sys.exit(main())
