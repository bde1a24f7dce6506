#!/usr/bin/env python3
"""Every module instance counts, and the tree is charged to -max-memory
(issue 38, points 2 and 3).

  tree_limits.py TFRESOLVE

Hostile module trees generated in a temporary directory:

  doubling   N directories each calling the next twice (plain calls, no
             count): 2^N call paths from tiny files.  N=18 is "Too many
             module instances" naming the call path, quickly and in
             bounded memory; under -max-memory=64M too (the call paths
             loaded before the limit fit in it), its peak memory near the
             budget, never "Success!".
  symlink    two calls of a symlink to "." : "Module calls itself" at
             once (the tree would double until 32 levels deep).
  pairs      N directories, each with two symlinks to the next that it
             calls: 2^N distinct paths to N directories, each directory
             read once: "Too many module instances" as for doubling.
  grandchild 50,001 instances of a module with a plain call of its own:
             100,002 instances, "Too many module instances" at the plain
             call of the instance past the limit (only count and for_each
             were counted before).
  files      two child modules of 30 MB files under -max-memory=64M:
             "Value too large" loading the second (module files are
             charged, those mapped from disk too).
  variables  5,000 instances of a module of 3,000 variables under
             -max-memory=64M: "Value too large" at an instance (each
             instance's own memory is charged as it is made).
  arguments  2,000 instances of a 50 KB argument under -max-memory=64M:
             "Value too large" at the argument, not 100 MB of values.
  manifest   a 40 MB string in .terraform/modules/modules.json under
             -max-memory=64M: "Value too large" naming the manifest.
  editor     the language server on the doubling tree and on the
             symlink: it answers with the error and still answers a
             request afterwards (bounds generous: no timing asserted).

Every run is killed past RUN_LIMIT seconds or RSS_LIMIT bytes of
resident memory (watched through /proc, so that sanitizer builds, which
reserve terabytes of address space, run too): a run that would take the
machine down is a failure, not a hang.

Prints PASS or FAIL per check and "N passed, M failed" last.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import lsp_common  # noqa: E402

RUN_LIMIT = 60  # seconds
RSS_LIMIT = 1536 << 20  # bytes
BUDGET = "-max-memory=64M"

passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS", what)
    else:
        failed += 1
        print("FAIL", what, detail[:2000])


def rss(pid):
    try:
        with open("/proc/%d/status" % pid) as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(tool, *args):
    """(exit status or None when killed, stdout, why it was killed, peak
    RSS seen in bytes)."""
    env = dict(os.environ)  # AddressSanitizer's quarantine capped
    env["ASAN_OPTIONS"] = (env.get("ASAN_OPTIONS", "") +
                           ":quarantine_size_mb=16").lstrip(":")
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        p = subprocess.Popen([tool] + list(args), stdout=out, stderr=err,
                             env=env)
        start, peak, why = time.monotonic(), 0, None
        while p.poll() is None:
            peak = max(peak, rss(p.pid))
            if peak > RSS_LIMIT:
                why = "killed: resident memory past %d MB" % (RSS_LIMIT >> 20)
            elif time.monotonic() - start > RUN_LIMIT:
                why = "killed: still running after %d s" % RUN_LIMIT
            if why:
                p.kill()
                p.wait()
                break
            time.sleep(0.02)
        out.seek(0)
        err.seek(0)
        text = out.read().decode("utf-8", "replace")
        return (None if why else p.returncode), text, why or "", peak, \
            err.read().decode("utf-8", "replace")


def diags_of(text):
    try:
        return json.loads(text).get("diagnostics", [])
    except ValueError:
        return []


def write(path, text):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def doubling(root, n):
    """root and n directories below it, each calling the next twice."""
    for i in range(n + 1):
        d = os.path.join(root, *(["m"] * i))
        text = 'variable "x" {\n  default = "v"\n}\n'
        if i < n:
            text += ''.join('module "%s" {\n  source = "./m"\n  x = var.x\n}\n'
                            % c for c in "ab")
        write(os.path.join(d, "main.tf"), text)


def symlink_pairs(root, n):
    for i in range(n + 1):
        d = os.path.join(root, "d%d" % i)
        text = 'variable "x" {\n  default = "v"\n}\n'
        if i < n:
            text += ''.join('module "%s" {\n  source = "./%s"\n  x = var.x\n}\n'
                            % (c, c) for c in "ab")
        write(os.path.join(d, "main.tf"), text)
        if i < n:
            for c in "ab":
                os.symlink("../d%d" % (i + 1), os.path.join(d, c))


def self_call(root):
    write(os.path.join(root, "main.tf"),
          'variable "x" {\n  default = "v"\n}\n' +
          ''.join('module "%s" {\n  source = "./s"\n  x = var.x\n}\n' % c
                  for c in "ab"))
    os.symlink(".", os.path.join(root, "s"))


def big_arguments(root):
    write(os.path.join(root, "main.tf"),
          'variable "big" {\n  default = "%s"\n}\n'
          'module "c" {\n  source = "./c"\n  count  = 2000\n'
          '  x      = "${var.big}${count.index}"\n}\n' % ("a" * 50000))
    write(os.path.join(root, "c", "main.tf"),
          'variable "x" {\n  type = string\n}\n')


def grandchild(root):
    write(os.path.join(root, "main.tf"),
          'module "c" {\n  source = "./c"\n  count  = 50001\n}\n')
    write(os.path.join(root, "c", "main.tf"), 'module "g" {\n  source = "./g"\n}\n')
    write(os.path.join(root, "c", "g", "main.tf"),
          'variable "x" {\n  default = 1\n}\n')


def big_files(root):
    write(os.path.join(root, "main.tf"),
          ''.join('module "%s" {\n  source = "./%s"\n}\n' % (c, c)
                  for c in "ab"))
    for c in "ab":
        write(os.path.join(root, c, "main.tf"),
              'variable "x" {\n  default = "%s"\n}\n' % ("q" * 30000000))


def many_variables(root):
    write(os.path.join(root, "main.tf"),
          'module "c" {\n  source = "./c"\n  count  = 5000\n}\n')
    write(os.path.join(root, "c", "main.tf"),
          ''.join('variable "v%d" {\n  default = %d\n}\n' % (k, k)
                  for k in range(3000)))


def big_manifest(root):
    write(os.path.join(root, "main.tf"), 'module "c" {\n  source = "./c"\n}\n')
    write(os.path.join(root, "c", "main.tf"), 'variable "x" {\n  default = 1\n}\n')
    write(os.path.join(root, ".terraform", "modules", "modules.json"),
          json.dumps({"Modules": [
              {"Key": "", "Source": "", "Dir": "."},
              {"Key": "c", "Source": "./c", "Dir": "c"},
              {"Key": "unused", "Source": "a" * 40000000, "Dir": "x"}]}))


def has(diags, summary, *words):
    return any(g.get("summary") == summary and g.get("severity") == "error"
               and all(w in (g.get("detail") or "") for w in words)
               for g in diags)


BUDGET_WORDS = "takes the module tree past this run's memory budget " \
    "(-max-memory)."


def cli_checks(tool, tmp):
    tree = os.path.join(tmp, "doubling")
    doubling(tree, 18)
    rc, out, why, peak, err = run(tool, "-chdir=" + tree, "check", "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Too many module instances",
                          "With the module call module.",
                          "the configuration would have more than 100000 "
                          "module calls"),
          "doubling: 2^18 plain calls are too many module instances",
          "rc=%s %s %s %s" % (rc, why, out[:1500], err[:500]))
    rc, out, why, peak, err = run(tool, BUDGET, "-chdir=" + tree, "check",
                                  "-json")
    d = diags_of(out)
    # the limit first: 100,000 call paths take about 600 bytes each (the
    # paths are relative to -chdir, whatever the temporary directory)
    check(rc == 1 and has(d, "Too many module instances",
                          "more than 100000 module calls"),
          "doubling under %s: the instance limit" % BUDGET,
          "rc=%s %s %s" % (rc, why, out[:1500]))
    check(rc is not None and peak < (256 << 20),
          "doubling under %s: peak memory near the budget (%d MB)" %
          (BUDGET, peak >> 20))

    pairs = os.path.join(tmp, "pairs")
    symlink_pairs(pairs, 18)
    rc, out, why, peak, err = run(tool, "-chdir=" + os.path.join(pairs, "d0"),
                                  "check", "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Too many module instances",
                          "more than 100000 module calls"),
          "pairs: 2^18 paths through symlinks are too many module instances",
          "rc=%s %s %s" % (rc, why, out[:1500]))

    loop = os.path.join(tmp, "symlink")
    self_call(loop)
    rc, out, why, peak, err = run(tool, "-chdir=" + loop, "check", "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Module calls itself", "module.a loads s,"),
          "symlink: a call of a symlink to . calls itself",
          "rc=%s %s %s" % (rc, why, out[:1500]))

    gc = os.path.join(tmp, "grandchild")
    grandchild(gc)
    rc, out, why, peak, err = run(tool, "-chdir=" + gc, "check", "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Too many module instances",
                          "With module.c[49999].module.g the tree would have "
                          "more than 100000 module instances"),
          "grandchild: a plain call's instances count",
          "rc=%s %s %s" % (rc, why, out[:1500]))
    check(len([g for g in d if g.get("summary") ==
               "Too many module instances"]) == 1,
          "grandchild: said once", out[:1500])

    files = os.path.join(tmp, "files")
    big_files(files)
    rc, out, why, peak, err = run(tool, BUDGET, "-chdir=" + files, "check",
                                  "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Value too large", "Loading module.b ",
                          BUDGET_WORDS),
          "files: child module files charged to the budget",
          "rc=%s %s %s" % (rc, why, out[:1500]))

    many = os.path.join(tmp, "variables")
    many_variables(many)
    rc, out, why, peak, err = run(tool, BUDGET, "-chdir=" + many, "check",
                                  "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Value too large", "The instance module.c[",
                          BUDGET_WORDS),
          "variables: each instance's memory charged to the budget",
          "rc=%s %s %s" % (rc, why, out[:1500]))

    args = os.path.join(tmp, "arguments")
    big_arguments(args)
    rc, out, why, peak, err = run(tool, BUDGET, "-chdir=" + args, "check",
                                  "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Value too large",
                          "Evaluating this expression in module.c[",
                          BUDGET_WORDS),
          "arguments: instances' values charged to the budget",
          "rc=%s %s %s" % (rc, why, out[:1500]))
    at = [g for g in d if g.get("summary") == "Value too large"]
    check(len(at) == 1 and at[0].get("range", {}).get("start", {})
          .get("line") == 7, "arguments: said once, at the argument",
          json.dumps(at)[:1500])
    rc, out, why, peak, err = run(tool, "-chdir=" + args, "check", "-json")
    check(rc == 0, "arguments: the same tree passes without the budget",
          "rc=%s %s %s" % (rc, why, out[:1500]))

    man = os.path.join(tmp, "manifest")
    big_manifest(man)
    rc, out, why, peak, err = run(tool, BUDGET, "-chdir=" + man, "check",
                                  "-json")
    d = diags_of(out)
    check(rc == 1 and has(d, "Value too large", "Reading the module manifest "
                          ".terraform/modules/modules.json", BUDGET_WORDS),
          "manifest: its strings charged to the budget",
          "rc=%s %s %s" % (rc, why, out[:1500]))
    return tree, loop


def editor_checks(tool, tmp, tree, loop):
    for name, root, summary in (("doubling", tree,
                                 "Too many module instances"),
                                ("symlink", loop, "Module calls itself")):
        s = lsp_common.Server(tool, root)
        watch = [True]

        def guard():
            while watch[0] and s.p.poll() is None:
                if rss(s.p.pid) > RSS_LIMIT:
                    s.kill()
                time.sleep(0.05)
        import threading
        threading.Thread(target=guard, daemon=True).start()
        s.request("initialize", {"processId": None,
                                 "rootUri": "file://" + root,
                                 "capabilities": {}})
        s.notify("initialized", {})
        doc = "file://" + os.path.join(root, "main.tf")
        with open(os.path.join(root, "main.tf")) as f:
            s.open(doc, f.read())
        p = s.diags(doc, 0, lambda p: any(
            g.get("message", "").startswith(summary) or
            summary in g.get("message", "") for g in p.get("diagnostics", [])))
        check(p is not None, "editor, %s: the error is published" % name,
              str(s.dead) + " " + lsp_common.show(s.notes[-3:]))
        r = s.request("textDocument/hover", {
            "textDocument": {"uri": doc}, "position": {"line": 0,
                                                       "character": 10}})
        check(r is not None and s.p.poll() is None,
              "editor, %s: the server answers afterwards" % name, str(s.dead))
        s.request("shutdown")
        s.notify("exit")
        s.wait_exit()
        watch[0] = False
        s.finish()


def main():
    tool = sys.argv[1]
    tmp = tempfile.mkdtemp(prefix="tree_limits.")
    try:
        tree, loop = cli_checks(tool, tmp)
        editor_checks(tool, tmp, tree, loop)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
