#!/usr/bin/env python3
"""One truth about the Terraform and OpenTofu versions followed (issue 40,
point 21): `tfresolve -version` says it from the engine table
(src/module/engine_tofu.c), and README.md says the same.

    versions_truth.py TFRESOLVE SOURCE_ROOT

Checked: -version's "Follows ..." line names a release and a development
head with its commit for each engine; README's -version example has that
line word for word; README's "Which Terraform" section names the same
releases and commits; engine_tofu.c's header names the same commits.
"N passed, M failed" last.
"""
import os
import re
import sys

import harness

HEAD = re.compile(r"(Terraform|OpenTofu) (\d+\.\d+) and its development head "
                  r"\((\d+\.\d+\.\d+-dev), commit ([0-9a-f]{12})\)")


def main():
    tool, root = sys.argv[1], sys.argv[2]
    t = harness.Tally()
    rc, out, err = harness.run([tool, "-version"], env=harness.child_env())
    line = next((l for l in out.splitlines() if l.startswith("Follows ")), "")
    heads = HEAD.findall(line)
    t(rc == 0 and [h[0] for h in heads] == ["Terraform", "OpenTofu"],
      "-version names a release and a development head of each engine",
      out + err)
    with open(os.path.join(root, "README.md")) as f:
        readme = f.read()
    t(("    " + line + "\n") in readme,
      "README's -version example has the line -version prints", line)
    m = re.search(r"### Which Terraform, and in what order\n\n(.*?)\n\n",
                  readme, re.S)
    section = " ".join(m.group(1).split()) if m else ""
    with open(os.path.join(root, "src", "module", "engine_tofu.c")) as f:
        table = " ".join(f.read().split())
    for product, release, dev, commit in heads:
        t("%s %s" % (product, release) in section and dev in section
          and commit in section,
          "README's Which Terraform names %s %s, %s and %s" % (
              product, release, dev, commit), section)
        t(commit in table and dev in table,
          "engine_tofu.c's header names %s %s (%s)" % (product, dev, commit))
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
