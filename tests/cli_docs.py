#!/usr/bin/env python3
"""The CLI's tables (`tfresolve cli-tables`: every command, its options
and formats, the global options) against what documents them, so that
none can drift from the program:

  help   each command's -help lists exactly its table's options;
  man    doc/tfresolve.1 has every command, and an OPTIONS entry for
         every option of the tables (terraform plan's accepted ones
         too), and no entry for an option no table has;
  bash   completions/tfresolve.bash offers, for each command, exactly its
         table's options (and -max-memory) and exactly its formats;
  zsh    completions/_tfresolve, likewise per command (read from its
         _arguments specs: the case arm of each command and the arrays
         it uses), where terraform plan's accepted options may be
         offered too.

Hidden options (-h, lsp's -stdio) are in none of them.  lsp prints a
help of its own (src/lsp/server.c), with no option list.

  cli_docs.py TFRESOLVE SOURCE_ROOT

Prints PASS/FAIL lines and "N passed, M failed" last."""
import os
import re
import shlex
import subprocess
import sys

OPT = re.compile(r"(?<![a-z-])(-[a-z][a-z-]*)")


def run(*args):
    return subprocess.run(args, capture_output=True, text=True,
                          timeout=30).stdout


def read_tables(tool):
    cmds, opts, ignored, formats, globals_ = [], {}, {}, {}, set()
    own_help = set()
    for line in run(tool, "cli-tables").splitlines():
        w = line.split()
        if w[0] == "command":
            cmds.append(w[1])
            if "own-help" in w[2:]:
                own_help.add(w[1])
            opts[w[1]], ignored[w[1]], formats[w[1]] = set(), set(), []
        elif w[0] == "option" and "hidden" not in w[4:]:
            (ignored if "ignored" in w[4:] else opts)[w[1]].add(w[2])
        elif w[0] == "format":
            formats[w[1]].append(w[2])
        elif w[0] == "global":
            globals_.add(w[1])
    return cmds, opts, ignored, formats, globals_, own_help


def help_options(tool, cmd):
    text = run(tool, cmd, "-help")
    if "\nOptions:\n" not in text:
        return set()
    block = text.split("\nOptions:\n")[1].split("\n\n")[0]
    return set(re.findall(r"^  (-[a-z][a-z-]*)", block, re.M))


def man_options(text):
    """The options of the OPTIONS section's entries (the line after .TP)."""
    section = text.split("\n.SH OPTIONS\n")[1].split("\n.SH ")[0]
    found = set()
    lines = section.split("\n")
    for i, line in enumerate(lines[:-1]):
        if line == ".TP":
            term = lines[i + 1].replace("\\-", "-").replace("\\-", "-")
            found |= {o for o in OPT.findall(term) if not o.startswith("--")}
    return found


def bash_lists(path, cmd):
    script = 'source "$1"; _tfresolve_options "$2"; echo @; ' \
             '_tfresolve_formats "$2"'
    out = run("bash", "-c", script, "bash", path, cmd)
    opts, fmts = out.split("@")
    return {o.rstrip("=") for o in opts.split()}, fmts.split()


def zsh_specs(path):
    """Per command, the options its _arguments specs offer, and its
    formats; and the options offered before any command."""
    text = open(path).read()
    body = text[text.index("\n_tfresolve() {"):]
    words = shlex.split(body, comments=True)

    def spec_option(w):
        w = re.sub(r"^\([^)]*\)", "", w).lstrip("*")
        m = re.match(r"\{(-[a-z][a-z-]*),", w) or \
            re.match(r"(-[a-z][a-z-]*)[=\[-]", w)
        return m.group(1) if m else None

    arrays, arms, arm_stack = {}, {}, []
    current = None  # the array being assigned
    top = set()
    for w in words:
        m = re.match(r"^(\w+)=\((.*)$", w)
        if m:
            current = m.group(1)
            arrays.setdefault(current, {"opts": set(), "refs": []})
            w = m.group(2)
            if not w:
                continue
        if current:
            done = w.endswith(")") and not w.endswith("])")
            item = w[:-1] if done else w
            if item.startswith("$"):
                arrays[current]["refs"].append(item[1:])
            elif item:
                o = spec_option(item)
                if o:
                    arrays[current]["opts"].add(o)
                else:
                    arrays[current].setdefault("words", []).append(item)
            if done or w.endswith("')") or w == ")":
                current = None
            continue
        m = re.match(r"^([a-z|]+)\)$", w)
        if m:
            arm_stack.append(m.group(1).split("|"))
            continue
        if w == ";;" and arm_stack:
            arm_stack.pop()
            continue
        if w == "esac" and arm_stack:
            arm_stack.pop()
            continue
        o = spec_option(w) if not w.startswith("$") else None
        refs = [w[1:]] if re.match(r"^\$\w+$", w) else []
        targets = arm_stack[-1] if arm_stack else None
        for name in targets or []:
            arms.setdefault(name, {"opts": set(), "refs": []})
            if o:
                arms[name]["opts"].add(o)
            arms[name]["refs"] += refs
        if o and not targets:
            top.add(o)

    def expand(entry, seen=()):
        out = set(entry["opts"])
        for r in entry["refs"]:
            if r in arrays and r not in seen:
                out |= expand(arrays[r], seen + (r,))
        return out

    # the format arrays are assigned in a case of their own
    fmts = {}
    for m in re.finditer(r"^\s*([a-z|]+)\) formats=\(([^)]*)\)", text, re.M):
        for name in m.group(1).split("|"):
            fmts[name] = m.group(2).split()
    return {c: expand(a) for c, a in arms.items()}, fmts, top


def main():
    tool, root = sys.argv[1], sys.argv[2]
    bash = os.path.join(root, "completions/tfresolve.bash")
    zsh = os.path.join(root, "completions/_tfresolve")
    man = open(os.path.join(root, "doc/tfresolve.1")).read()
    passed = failed = 0

    def check(ok, what, diff=None):
        nonlocal passed, failed
        if not ok and diff:
            what += ": " + diff
        print(("PASS " if ok else "FAIL ") + what)
        if ok:
            passed += 1
        else:
            failed += 1

    def differ(want, got, allowed=()):
        missing = sorted(set(want) - set(got))
        extra = sorted(set(got) - set(want) - set(allowed))
        return (not missing and not extra,
                " ".join(["missing"] + missing if missing else []) +
                (" " if missing and extra else "") +
                " ".join(["not in the tables"] + extra if extra else []))

    cmds, opts, ignored, formats, globals_, own_help = read_tables(tool)
    check(len(cmds) >= 10, "the tables have the commands: " + " ".join(cmds))
    main_help = run(tool, "-help")
    listed = re.findall(r"^  ([a-z]+)\s{2,}", main_help.split("Commands:")[1]
                        .split("Global options:")[0], re.M)
    check(listed == cmds, "tfresolve -help lists the commands of the table")
    help_globals = set(re.findall(r"^  (-[a-z-]+)",
                                  main_help.split("Global options:")[1], re.M))
    ok, diff = differ(globals_, help_globals)
    check(ok, "tfresolve -help lists the global options", diff)

    # man page
    plain = man.replace("\\-", "-").replace("\\f[BIR]", "").replace("\\fP", "")
    for c in cmds:
        check(re.search(r"\b%s\b" % c, plain) is not None,
              "man page has the command " + c)
    every = set().union(*opts.values())
    every_ignored = set().union(*ignored.values())
    ok, diff = differ(every | every_ignored | globals_, man_options(man))
    check(ok, "man page OPTIONS: an entry for every option of the tables, "
          "and no other", diff)

    zsh_arms, zsh_formats, zsh_top = zsh_specs(zsh)
    ok, diff = differ(globals_, zsh_top)
    check(ok, "zsh completion: the global options", diff)
    bash_top = set(o.rstrip("=") for o in re.search(
        r'compgen -W "(-help[^"]*)"', open(bash).read()).group(1).split())
    ok, diff = differ(globals_, bash_top)
    check(ok, "bash completion: the global options", diff)

    for c in cmds:
        if c in own_help:  # its help is its own text (src/lsp/server.c), no list
            check(not help_options(tool, c) - opts[c],
                  "%s -help (its own) lists no option its table lacks" % c)
        else:
            ok, diff = differ(opts[c], help_options(tool, c))
            check(ok, "%s -help lists its table's options" % c, diff)
        b_opts, b_fmts = bash_lists(bash, c)
        ok, diff = differ(opts[c] | {"-max-memory"}, b_opts)
        check(ok, "bash completion: %s's options" % c, diff)
        check(b_fmts == formats[c], "bash completion: %s's formats %s"
              % (c, " ".join(formats[c]) or "(none)"),
              "offers " + " ".join(b_fmts))
        ok, diff = differ(opts[c], zsh_arms.get(c, set()), ignored[c])
        check(ok, "zsh completion: %s's options" % c, diff)
        check(zsh_formats.get(c, []) == formats[c],
              "zsh completion: %s's formats %s"
              % (c, " ".join(formats[c]) or "(none)"),
              "offers " + " ".join(zsh_formats.get(c, [])))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
