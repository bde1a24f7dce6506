#!/usr/bin/env python3
"""`diff F F`: the same var file on both sides has no differences, whatever
plan knows only after apply (issue 37, point 5).

  diff_self.py TFRESOLVE SOURCE_ROOT [CORPUS_DIR]

Every directory of SOURCE_ROOT/fixtures holding .tf files and a .tfvars
(diffed with its first .tfvars by name), and every directory of the
corpus (../shared/corpus) whose .tf files have module blocks (diffed with
an empty var file), through `diff -json -no-env`: "differences" must be
empty and "equal" true.  A side that does not resolve (a required
variable without a value) is exit status 2 with its errors, and its
comparison must still find nothing.  The build before this test reported
91 corpus roots as different from themselves ("null -> null" for each
child argument built from a resource or data source).

The corpus part is skipped (a SKIP line) when there is no corpus.
Prints a FAIL line per directory that differs from itself, and
"N passed, M failed" last.
"""
import glob
import json
import os
import sys
import tempfile

import harness


def dirs_of(root, want):
    """The directories below root (not .terraform) with a .tf file that
    want(its directory, the text of its .tf files) accepts."""
    seen = set()
    for path in sorted(glob.glob(os.path.join(root, "**", "*.tf"),
                                 recursive=True)):
        d = os.path.dirname(path)
        if d in seen or "/.terraform/" in d + "/":
            continue
        seen.add(d)
        text = ""
        for f in sorted(glob.glob(os.path.join(d, "*.tf"))):
            try:
                with open(f, errors="replace") as fh:
                    text += fh.read()
            except OSError:  # a fixture of an unreadable file
                pass
        if want(d, text):
            yield d


def check_self(tool, tally, d, var_file):
    st, out, err = harness.run(
        [tool, "diff", "-json", "-no-env", var_file, var_file, d],
        cwd=d, env=harness.child_env())
    what = "%s: diff %s %s" % (d, var_file, var_file)
    try:
        doc = json.loads(out)
    except ValueError:
        # a module that does not load (a .tf file that does not parse):
        # its errors alone, exit 2, nothing compared
        tally(st == 2 and not out, what + ": not JSON (exit %d)" % st, err)
        return
    diffs = doc.get("differences")
    tally(st in (0, 2) and diffs == [] and
          (st == 2 or doc.get("equal") is True),
          what + ": exit %d, %d differences" % (st, len(diffs or [])),
          json.dumps(diffs)[:1500])


def main():
    tool = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2])
    corpus = os.path.abspath(sys.argv[3]) if len(sys.argv) > 3 else None
    tally = harness.Tally()
    for d in dirs_of(os.path.join(root, "fixtures"),
                     lambda d, _: glob.glob(os.path.join(d, "*.tfvars"))):
        first = sorted(glob.glob(os.path.join(d, "*.tfvars")))[0]
        check_self(tool, tally, d, os.path.basename(first))
    if corpus and os.path.isdir(corpus):
        with tempfile.NamedTemporaryFile("w", suffix=".tfvars") as empty:
            for d in dirs_of(corpus, lambda _, text: 'module "' in text):
                check_self(tool, tally, d, empty.name)
    else:
        print("SKIP the corpus part: no corpus at %s" % corpus)
    return tally.done()


if __name__ == "__main__":
    sys.exit(main())
