#!/usr/bin/env python3
"""docs -write and -check (issue 43) on temporary copies of a module.

  docs_write.py TFRESOLVE MODULE_DIR

MODULE_DIR (fixtures/cases/docs-check-stale) holds a module and a
README.md whose block between the terraform-docs markers is stale:

1. `docs -check` fails (status 1) and changes nothing; `docs -write`
   rewrites the block (status 0), keeping the text around it byte for
   byte; `docs -check` then passes (status 0), and the block is exactly
   `<!-- BEGIN_TF_DOCS -->`, the output of `docs`, `<!-- END_TF_DOCS -->`
   on lines of their own (terraform-docs' print/config.go:210 template).
2. A change to the module (a variable's description) makes `-check`
   fail again, and `-write` makes it pass again.
3. terraform-docs' inject mode (internal/cli/writer.go:62-160) where
   the markers are missing: no README.md, or an empty one, becomes the
   block alone; a README.md with neither marker gets a newline and the
   block appended; a begin marker without its end, an end marker without
   its begin, or the end before the begin, is an error (status 2) and the
   file is left as it was.

Prints PASS/FAIL lines and "N passed, M failed" last.
"""
import os
import shutil
import sys
import tempfile

import harness

BEGIN, END = "<!-- BEGIN_TF_DOCS -->", "<!-- END_TF_DOCS -->"
passed = failed = 0


def report(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
        print("PASS", what)
    else:
        failed += 1
        print("FAIL", what, detail[-1500:])


def docs(tool, d, *args):
    rc, out, err = harness.run([tool, "docs", "-no-color", *args, d])
    return rc, out + err


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


def write(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def cycle(tool, d):
    readme = os.path.join(d, "README.md")
    before = read(readme)
    rc, out = docs(tool, d, "-check")
    report(rc == 1 and read(readme) == before,
           "-check on a stale README.md: status 1, nothing written", out)
    rc, out = docs(tool, d, "-write")
    report(rc == 0, "-write: status 0", out)
    rc, md, _ = harness.run([tool, "docs", d])
    after = read(readme)
    head, tail = before.split(BEGIN)[0], before.split(END)[1]
    report(after == head + BEGIN + "\n" + md + "\n" + END + tail,
           "-write: the block is the markers around docs' output, the text "
           "around it as it was", after)
    rc, out = docs(tool, d, "-check")
    report(rc == 0, "-check after -write: status 0", out)
    tf = os.path.join(d, "main.tf")
    write(tf, read(tf).replace('"The environment"', '"Where it runs"'))
    rc, out = docs(tool, d, "-check")
    report(rc == 1, "-check after a description changed: status 1", out)
    docs(tool, d, "-write")
    rc, out = docs(tool, d, "-check")
    report(rc == 0 and "Where it runs" in read(readme),
           "-write then -check again: status 0, the new description", out)


def markers(tool, d):
    readme = os.path.join(d, "README.md")
    rc, md, _ = harness.run([tool, "docs", d])
    block = BEGIN + "\n" + md + "\n" + END
    for label, text in (("no README.md", None), ("an empty README.md", "")):
        if os.path.exists(readme):
            os.remove(readme)
        if text is not None:
            write(readme, text)
        rc, out = docs(tool, d, "-write")
        report(rc == 0 and read(readme) == block,
               f"{label}: -write makes it the block alone", out)
    write(readme, "# Title\n\nText.\n")
    rc, out = docs(tool, d, "-write")
    report(rc == 0 and read(readme) == "# Title\n\nText.\n\n" + block,
           "no marker: -write appends a newline and the block", out)
    for label, text in (("a begin marker alone", f"x\n{BEGIN}\ny\n"),
                        ("an end marker alone", f"x\n{END}\ny\n"),
                        ("the end before the begin",
                         f"x\n{END}\ny\n{BEGIN}\n")):
        write(readme, text)
        rc, out = docs(tool, d, "-write")
        report(rc == 2 and read(readme) == text,
               f"{label}: -write fails (status 2), the file unchanged", out)


def main():
    tool, module = os.path.abspath(sys.argv[1]), sys.argv[2]
    with tempfile.TemporaryDirectory() as tmp:
        d = os.path.join(tmp, "m")
        shutil.copytree(module, d)
        for f in ("args", "expected.txt", "expected.rc"):
            if os.path.exists(os.path.join(d, f)):
                os.remove(os.path.join(d, f))
        cycle(tool, d)
        markers(tool, d)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
