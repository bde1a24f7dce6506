#!/usr/bin/env python3
"""check -policy on broken policy files: a located diagnostic, never a
crash or a hang (issue 43).

  policy_robust.py TFRESOLVE CASES_DIR

The policy files of the golden cases policy-check and policy-errors and
of fixtures/secrets-policy, joined, are cut at 150 places and have three
bytes changed each time (a fixed seed: the same files every run); each
result is the only policy file of a copy of the module of policy-check.
check -policy must end with exit status 0, 1 or 2 within the time limit,
never by a signal, and when it fails say why on its output (an error
diagnostic).  The policy files as they are must pass through untouched
(the harness itself is checked).

Prints a line per failure and "N passed, M failed" last.
"""
import os
import random
import shutil
import sys
import tempfile

from harness import Tally, run, child_env

SOURCES = ["policy-check/policies/db.policy.hcl",
           "policy-errors/policies/good.policy.hcl",
           "policy-errors/policies/bad.policy.hcl",
           "../secrets-policy/leak.policy.hcl"]
BYTES = b'{}[]()="$*.,\n xa0\\%~'


def main():
    tool, cases = sys.argv[1], sys.argv[2]
    t = Tally()
    text = b"".join(open(os.path.join(cases, s), "rb").read() + b"\n"
                    for s in SOURCES)
    rng = random.Random(43)
    with tempfile.TemporaryDirectory() as tmp:
        mod = os.path.join(tmp, "mod")
        shutil.copytree(os.path.join(cases, "policy-check"), mod,
                        ignore=shutil.ignore_patterns("policies", "expected*"))
        pol = os.path.join(tmp, "pol")
        os.mkdir(pol)
        path = os.path.join(pol, "x.policy.hcl")
        for i in range(151):
            b = bytearray(text if i == 0 else
                          text[:rng.randrange(len(text))])
            for _ in range(0 if i == 0 else 3):
                if b:
                    b[rng.randrange(len(b))] = rng.choice(BYTES)
            with open(path, "wb") as f:
                f.write(bytes(b))
            st, out, err = run([tool, "check", "-no-color", "-policy=" + pol,
                                mod], env=child_env(), timeout=30)
            ok = st in (0, 1, 2) and (st == 0 or "Error" in out + err)
            t(ok, "mutation %d: exit status %d" % (i, st),
              (out + err)[-1500:] + "\n--- the file:\n" +
              bytes(b).decode("utf-8", "replace")[-1500:])
    return t.done()


if __name__ == "__main__":
    sys.exit(main())
