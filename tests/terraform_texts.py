#!/usr/bin/env python3
"""Every diagnostic under a Terraform summary has Terraform's detail.

    terraform_texts.py TFRESOLVE SOURCE_ROOT [CASE|FILE.test ...]

tfresolve prints Terraform's diagnostics byte-exact; what it adds goes in
a note, and a diagnostic of its own carries "origin": "tfresolve".  This
test runs tfresolve with -json over every golden case of fixtures/cases
(with the case's args and env, as tests/run_golden.c runs them) and over
every record of tests/eval/*.test whose expected output is an error
(`eval -json`, with -functions for funcs_*.test), and checks every
diagnostic that is not marked as ours: its summary must be one that
Terraform, hcl or cty can give, and its detail must match in full one of
the patterns of that summary in tests/terraform_texts.tsv (extracted from
their sources by scripts/terraform_texts/build.sh) or
tests/terraform_texts_extra.tsv (rows added by hand, each with its
source).  Cases run with -engine=opentofu may also give OpenTofu's own
texts: for them tests/opentofu_texts.tsv (from OpenTofu's sources:
scripts/terraform_texts/build_opentofu.sh) and
tests/opentofu_texts_extra.tsv (by hand, with sources) count too, in one
table with Terraform's (so that {@funcerr} takes the errors of both).  Every offender is
reported with its case and texts.  With CASE or FILE.test arguments (names
of cases, paths of test files) only those run.

Prints "N passed, M failed" last (a diagnostic checked is one test).
"""
import concurrent.futures
import json
import os
import re
import subprocess
import sys

MARK = "golden_record_end"
MARK_EXPR = "{}." + MARK


# ---- the tables ----------------------------------------------------------

def read_table(path):
    """Rows (summary pattern, detail pattern, source) of a TSV file."""
    rows = []
    if not os.path.exists(path):
        return rows
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            cols = line.split("\t")
            if len(cols) != 3:
                sys.exit(f"{path}:{n}: not SUMMARY<TAB>DETAIL<TAB>SOURCE")
            rows.append(tuple(cols))
    return rows


class Table:
    """The diagnostics a program can give: summary -> detail patterns."""

    def __init__(self, rows):
        frags = {}
        self.by_summary = {}
        for s, d, src in rows:
            if s.startswith("@"):
                frags.setdefault(s[1:], []).append(d)
            else:
                self.by_summary.setdefault(s, []).append((d, src))
        alts = {k: "(?:" + "|".join(f"(?:{p})" for p in sorted(set(v))) + ")"
                for k, v in frags.items()}

        def expand(p):
            return re.sub(r"\{@(\w+)\}", lambda m: alts[m.group(1)], p)
        self.summaries = []
        for s, ds in self.by_summary.items():
            srx = re.compile(s, re.S)
            drx = re.compile("|".join(f"(?:{expand(d)})"
                                      for d in sorted({d for d, _ in ds})),
                             re.S)
            self.summaries.append((srx, drx))
        self.cache = {}

    def check(self, summary, detail):
        """None when Terraform can give these texts, else why not.
        A sensitive value is never printed (issue 13), where Terraform's
        cty functions would quote it: "(sensitive value)" stands for a
        quoted string or any text."""
        key = (summary, detail)
        redacted = detail.replace("(sensitive value)",
                                  '"(sensitive value)"')
        if key not in self.cache:
            known = [d for s, d in self.summaries if s.fullmatch(summary)]
            if not known:
                why = "summary not in the table"
            elif any(d.fullmatch(detail) or d.fullmatch(redacted)
                     for d in known):
                why = None
            else:
                why = "detail matches no pattern of this summary"
            self.cache[key] = why
        return self.cache[key]


# ---- running tfresolve -----------------------------------------------------

def child_env(extra=None):
    env = {"LANG": "C.UTF-8"}
    for k in ("PATH", "ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS"):
        if k in os.environ:
            env[k] = os.environ[k]
    env.update(extra or {})
    return env


def decode_all(text):
    """Every JSON document in text (one or many, line-wise or not)."""
    dec = json.JSONDecoder()
    out, i = [], 0
    while True:
        while i < len(text) and text[i].isspace():
            i += 1
        if i >= len(text):
            return out
        try:
            o, i = dec.raw_decode(text, i)
            out.append(o)
        except ValueError:
            nl = text.find("\n", i)
            if nl < 0:
                return out
            i = nl + 1


def diagnostics(o, out):
    """Every diagnostic (an object with a summary) inside a JSON value."""
    if isinstance(o, dict):
        if isinstance(o.get("summary"), str):
            out.append(o)
        for v in o.values():
            diagnostics(v, out)
    elif isinstance(o, list):
        for v in o:
            diagnostics(v, out)
    return out


def read_lines(path):
    if not os.path.exists(path):
        return []
    with open(path, encoding="utf-8") as f:
        return f.read().splitlines()


def run_case(tool, d):
    """(case, args, diagnostics) of a case directory's -json run."""
    args = read_lines(os.path.join(d, "args"))
    env = dict(line.split("=", 1) for line in read_lines(os.path.join(d, "env"))
               if "=" in line)
    c = 0
    while c < len(args) and args[c].startswith("-chdir="):
        c += 1
    argv = [tool] + args[:c] + [args[c] if c < len(args) else "show", "-json"]
    if not os.path.exists(os.path.join(d, "hide-sensitive")):
        argv.append("-show-sensitive")
    argv += args[c + 1:]
    p = subprocess.run(argv, cwd=d, env=child_env(env), capture_output=True,
                       timeout=120)
    out = []
    for o in decode_all(p.stdout.decode("utf-8", "replace")):
        diagnostics(o, out)
    return os.path.basename(d), args, out


def read_records(path):
    """The records of an eval test file, as tests/run_golden.c reads them:
    dicts of section texts, with "line"."""
    recs, r, section, pending = [], None, None, None
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for n, line in enumerate(lines + [None], 1):
        head = line is not None and line.startswith("%%")
        if line is None or (head and line.startswith("%% expr")):
            if r and "expr" in r:
                recs.append({k: v.rstrip("\n") if isinstance(v, str) else v
                             for k, v in r.items()})
            r = {"line": n}
            if pending is not None:
                r["args"] = pending
            pending = None
            if line is None:
                break
        if head:
            name = line[2:].strip()
            section = name if name in ("expr", "type", "json", "console",
                                       "yaml", "args") else None
            if section == "args" and any(k in r for k in
                                         ("json", "console", "yaml")):
                section = "pending"
            if section == "pending":
                pending = ""
            elif section:
                r[section] = ""
            continue
        if section is None or r is None:
            continue
        if section == "pending":
            pending += line + "\n"
        else:
            r[section] += line + "\n"
    return recs


def has_error(rec):
    if "json" in rec:
        return '"summary"' in rec["json"]
    return "Error: " in rec.get("console", "")


def run_eval_group(tool, path, recs):
    """Run records of one file that share type and args in one process:
    [(case, args, diagnostics)] per record."""
    argv = [tool, "eval", "-json", "-no-color"]
    if os.path.basename(path).startswith("funcs_"):
        argv.append("-functions")
    if recs[0].get("type") is not None:
        argv.append("-type=" + recs[0]["type"])
    extra = recs[0]["args"].split("\n") if recs[0].get("args") else []
    argv += extra + ["--", MARK_EXPR]
    for r in recs:
        argv += [r["expr"], MARK_EXPR]
    p = subprocess.run(argv, cwd=os.path.dirname(path) or ".",
                       env=child_env({"HOME": "/home/tfresolve-golden"}),
                       capture_output=True, timeout=120)
    lines = p.stdout.decode("utf-8", "replace").split("\n")
    chunks, cur = [], None
    for line in lines:
        if MARK in line:
            if cur is not None:
                chunks.append(cur)
            cur = []
        elif cur is not None:
            cur.append(line)
    res = []
    for i, r in enumerate(recs):
        case = f"{os.path.basename(path)}:{r['line']}"
        if i >= len(chunks):
            res.append((case, extra + [r["expr"]], None))
            continue
        out = []
        for o in decode_all("\n".join(chunks[i])):
            diagnostics(o, out)
        res.append((case, extra + ["--", r["expr"]], out))
    return res


def eval_groups(path):
    recs = [r for r in read_records(path) if has_error(r)]
    groups = {}
    for r in recs:
        groups.setdefault((r.get("type"), r.get("args")), []).append(r)
    return list(groups.values())


# ---- the check -------------------------------------------------------------

def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    tool, root = os.path.abspath(sys.argv[1]), sys.argv[2]
    only = sys.argv[3:]
    tests = os.path.join(root, "tests")
    tf_rows = (read_table(os.path.join(tests, "terraform_texts.tsv")) +
               read_table(os.path.join(tests, "terraform_texts_extra.tsv")))
    if not tf_rows:
        print("FAIL tests/terraform_texts.tsv is empty or missing")
        print("0 passed, 1 failed")
        return 1
    terraform = Table(tf_rows)
    tofu_rows = read_table(os.path.join(tests, "opentofu_texts.tsv"))
    opentofu = Table(tf_rows + tofu_rows + read_table(
        os.path.join(tests, "opentofu_texts_extra.tsv"))) if tofu_rows \
        else None

    cases_dir = os.path.join(root, "fixtures", "cases")
    cases = sorted(os.path.join(cases_dir, c) for c in os.listdir(cases_dir)
                   if os.path.isdir(os.path.join(cases_dir, c)))
    test_files = sorted(os.path.join(tests, "eval", f)
                        for f in os.listdir(os.path.join(tests, "eval"))
                        if f.endswith(".test"))
    if only:
        cases = [c for c in cases if os.path.basename(c) in only]
        test_files = [f for f in test_files
                      if os.path.basename(f) in only or f in only]

    passed = failed = 0
    skipped = []
    jobs = os.cpu_count() or 2
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        futs = [ex.submit(run_case, tool, c) for c in cases]
        for f in test_files:
            futs += [ex.submit(run_eval_group, tool, f, g)
                     for g in eval_groups(f)]
        results = []
        for fut in futs:
            r = fut.result()
            results += r if isinstance(r, list) else [r]

    for case, args, diags in results:
        if diags is None:
            print(f"FAIL {case}: no output for this record (args {args})")
            failed += 1
            continue
        tofu = "-engine=opentofu" in args
        for d in diags:
            if d.get("origin") == "tfresolve":
                continue
            summary, detail = d["summary"], d.get("detail") or ""
            why = terraform.check(summary, detail)
            if why and tofu:
                if opentofu is None:
                    skipped.append(case)
                    continue
                if opentofu.check(summary, detail) is None:
                    why = None
            if why:
                failed += 1
                print(f"FAIL {case}: {why}\n  summary: {json.dumps(summary)}"
                      f"\n  detail:  {json.dumps(detail, ensure_ascii=False)}")
            else:
                passed += 1
    for c in sorted(set(skipped)):
        print(f"SKIP {c}: -engine=opentofu and no tests/opentofu_texts.tsv "
              "for OpenTofu's own texts")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
