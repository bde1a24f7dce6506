#!/usr/bin/env python3
"""Only C11 and POSIX.1-2008 outside src/base/compat.c (issue 27).

  portable.py SOURCE_ROOT

Checks every C/C++ file under src/ and include/ (comments and string
literals left out):
  - no feature-test macro (_GNU_SOURCE, _DEFAULT_SOURCE, _XOPEN_SOURCE...)
    is defined or undefined but in src/base/compat.c: the build asks for
    POSIX.1-2008 (-D_POSIX_C_SOURCE=200809L) and nothing more;
  - __attribute__ only in src/base/compat.h and include/tfresolve/export.h,
    and there, as every other compiler extension (__builtin_*, typeof,
    __extension__, asm), only inside an #if/#ifdef whose condition names
    __GNUC__ or __clang__ (not in its #else);
  - no function or macro of glibc, the BSDs or Linux beyond POSIX.1-2008
    (fopencookie, getrandom, MAP_ANONYMOUS, MADV_*, GLOB_BRACE, realpath
    (XSI only)...) and no header of theirs (<err.h>, <sys/random.h>...)
    but in compat.c;
  - readdir's d_type only inside an #if defined(DT_DIR) (or glibc's
    _DIRENT_HAVE_D_TYPE), DT_* only inside #if defined(DT_DIR), TIOCGWINSZ
    only inside #ifdef TIOCGWINSZ.
Prints PASS/FAIL lines and "N passed, M failed" last; exits 1 on failure.
"""
import os
import re
import sys

COMPAT_C = "src/base/compat.c"
ATTRIBUTE_OK = {"src/base/compat.h", "include/tfresolve/export.h"}

FEATURE_MACROS = ["_GNU_SOURCE", "_DEFAULT_SOURCE", "_BSD_SOURCE",
                  "_SVID_SOURCE", "_XOPEN_SOURCE", "_XOPEN_SOURCE_EXTENDED",
                  "_DARWIN_C_SOURCE", "_NETBSD_SOURCE", "_ALL_SOURCE",
                  "__EXTENSIONS__", "_POSIX_C_SOURCE", "_POSIX_SOURCE"]

# Compiler extensions: only where a GNU C compiler is known to be in use.
EXTENSIONS = r"\b(__attribute__|__builtin_\w+|__typeof__|typeof|" \
             r"__extension__|__asm__|asm)\b"

# Beyond POSIX.1-2008: glibc's, the BSDs', Linux's, or XSI's.
FUNCTIONS = ["fopencookie", "funopen", "strchrnul", "memrchr", "mempcpy",
             "asprintf", "vasprintf", "qsort_r", "get_current_dir_name",
             "canonicalize_file_name", "pthread_setname_np",
             "pthread_getattr_np", "secure_getenv", "reallocarray",
             "getrandom", "getentropy", "arc4random", "explicit_bzero",
             "strlcpy", "strlcat", "rawmemchr", "memmem", "strcasestr",
             "strsep", "alloca", "error", "error_at_line", "err", "errx",
             "warn", "warnx", "realpath", "madvise", "timegm", "pipe2",
             "dup3", "accept4", "ppoll", "memfd_create", "gettid", "syscall",
             "strverscmp", "versionsort", "malloc_usable_size", "backtrace",
             "getprogname", "closefrom", "getauxval", "prctl"]
CALL = re.compile(r"(?<![\w.>])(%s)\s*\(" % "|".join(FUNCTIONS))
# err/warn/error are common names for a file's own static functions: a
# definition or declaration of one is not a call of the C library's
OWN = re.compile(r"\b(static|void|int|bool|char)\s+\**\s*(%s)\s*\("
                 % "|".join(FUNCTIONS))
NAMES = re.compile(r"\b(MAP_ANONYMOUS|MAP_ANON|MADV_\w+|GLOB_BRACE|"
                   r"GLOB_TILDE\w*|GLOB_ONLYDIR|program_invocation_\w+|"
                   r"FNM_CASEFOLD|FNM_EXTMATCH|O_DIRECT|O_NOATIME|"
                   r"O_TMPFILE|O_PATH)\b")
HEADERS = re.compile(r"#\s*include\s*<(err\.h|error\.h|sys/random\.h|"
                     r"malloc\.h|alloca\.h|features\.h|sys/cdefs\.h|"
                     r"sys/sysinfo\.h|sys/prctl\.h|sys/syscall\.h|"
                     r"sys/auxv\.h|execinfo\.h|endian\.h|byteswap\.h|"
                     r"linux/[^>]*|bsd/[^>]*|sys/sysctl\.h)>")
# Not POSIX.1-2008, but usable behind an #if that asks for it (a fallback
# otherwise): name -> what the condition must name.
D_TYPE = "DT_DIR|_DIRENT_HAVE_D_TYPE"
GUARDED = {"d_type": D_TYPE, "DT_DIR": "DT_DIR", "DT_UNKNOWN": "DT_DIR",
           "DT_REG": "DT_DIR", "DT_LNK": "DT_DIR", "TIOCGWINSZ": "TIOCGWINSZ"}

EXTS = (".c", ".h", ".cc", ".cpp", ".hh", ".hpp", ".h.in", ".c.in")


def strip(text):
    """Comments and string/char literals blanked, lines kept."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            # keep #include <...> and "..." lines intact: only strings
            out.append(c + re.sub(r"[^\n]", " ", text[i + 1:j - 1]) + c
                       if j - i >= 2 else text[i:j])
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def logical_lines(text):
    """(line number, text) with backslash-newlines joined."""
    lines = text.split("\n")
    k = 0
    while k < len(lines):
        start, cur = k, lines[k]
        while cur.endswith("\\") and k + 1 < len(lines):
            k += 1
            cur = cur[:-1] + " " + lines[k]
        yield start + 1, cur
        k += 1


def check_file(rel, text):
    """The problems of one file, as strings."""
    problems = []
    is_compat = rel == COMPAT_C
    # each open conditional: [condition text, kind, in #else]
    stack = []

    def names(cond, name):
        """Whether cond asks for name (not for its absence)."""
        cond = re.sub(r"!\s*(defined\s*\(?\s*)?\w+", " ", cond)
        return re.search(r"\b(%s)\b" % name, cond) is not None

    def guarded(name):
        return any(not in_else and kind != "ifndef" and names(cond, name)
                   for cond, kind, in_else in stack)

    def gnu_guarded():
        return guarded("__GNUC__|__clang__")

    for no, line in logical_lines(strip(text)):
        where = "%s:%d" % (rel, no)
        d = re.match(r"\s*#\s*(\w+)\s*(.*)", line)
        if d:
            kw, rest = d.group(1), d.group(2)
            if kw in ("if", "ifdef", "ifndef"):
                stack.append([rest, kw, False])
            elif kw == "elif" and stack:
                stack[-1] = [rest, "if", False]
            elif kw == "else" and stack:
                stack[-1][2] = True
            elif kw == "endif" and stack:
                stack.pop()
            elif kw in ("define", "undef") and not is_compat:
                m = re.match(r"(\w+)", rest)
                if m and m.group(1) in FEATURE_MACROS:
                    problems.append("%s: #%s %s (only in %s)"
                                    % (where, kw, m.group(1), COMPAT_C))
        if not is_compat:
            m = HEADERS.search(line)
            if m:
                problems.append("%s: #include <%s> (not POSIX.1-2008)"
                                % (where, m.group(1)))
        if d and d.group(1) in ("if", "ifdef", "ifndef", "elif"):
            continue  # a condition may name what it tests
        for m in re.finditer(EXTENSIONS, line):
            word = m.group(1)
            if word == "__attribute__" and rel not in ATTRIBUTE_OK:
                problems.append("%s: __attribute__ (only in %s)"
                                % (where, " and ".join(sorted(ATTRIBUTE_OK))))
            elif not gnu_guarded():
                problems.append("%s: %s outside #if defined(__GNUC__)"
                                % (where, word))
        if is_compat:
            continue
        for m in CALL.finditer(line):
            if OWN.search(line) and OWN.search(line).group(2) == m.group(1):
                continue
            if m.group(1) in ("error", "err", "warn") and \
                    not re.search(r"#\s*include\s*<(err|error)\.h>", text):
                continue  # the file's own function of that name
            problems.append("%s: %s() (not POSIX.1-2008: %s)"
                            % (where, m.group(1), COMPAT_C))
        for m in NAMES.finditer(line):
            problems.append("%s: %s (not POSIX.1-2008: %s)"
                            % (where, m.group(1), COMPAT_C))
        for name, guard in GUARDED.items():
            if re.search(r"\b%s\b" % name, line) and not guarded(guard):
                problems.append("%s: %s outside #if %s" % (
                    where, name, " or ".join("defined(%s)" % g
                                             for g in guard.split("|"))))
    return problems


def main():
    if len(sys.argv) != 2:
        print("usage: portable.py SOURCE_ROOT", file=sys.stderr)
        return 2
    root = sys.argv[1]
    passed = failed = 0
    files = []
    for top in ("src", "include"):
        for d, _, names in os.walk(os.path.join(root, top)):
            for name in names:
                if name.endswith(EXTS):
                    files.append(os.path.join(d, name))
    for path in sorted(files):
        rel = os.path.relpath(path, root).replace(os.sep, "/")
        with open(path, encoding="utf-8", errors="replace") as f:
            problems = check_file(rel, f.read())
        if problems:
            failed += 1
            print("FAIL %s" % rel)
            for p in problems:
                print("  " + p)
        else:
            passed += 1
    if not files:
        print("FAIL no source under %s" % root)
        failed += 1
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
