"""What the suite's Python scripts share: running a program with a bounded
time and a clean environment, and counting checks.

    from harness import run, child_env, Tally

run() gives (status, stdout, stderr) as text; a program stopped at its
time limit gives status -9 and says so on stderr.  child_env() is the
environment a test gives the program: PATH and the sanitizers' options
only (nothing of the user's), LANG=C.UTF-8, plus what the test adds.
"""
import os
import subprocess
import time

from tally import Tally  # noqa: F401 (the scripts' count of checks)

SANITIZER_VARS = ("ASAN_OPTIONS", "UBSAN_OPTIONS", "LSAN_OPTIONS")


def child_env(extra=None, lang="C.UTF-8"):
    """PATH and the sanitizers' options of this process, LANG, and extra."""
    env = {"PATH": os.environ.get("PATH", "")}
    for k in SANITIZER_VARS:
        if k in os.environ:
            env[k] = os.environ[k]
    if lang:
        env["LANG"] = lang
    env.update(extra or {})
    return env


def run(argv, cwd=None, env=None, stdin=None, timeout=120, binary=False,
        errors="replace", retry_loading=False):
    """Runs argv: (status, stdout, stderr).  env None: this process's.
    binary: bytes instead of text.  retry_loading: a program that cannot
    be started, or whose shared library is only half written (a rebuild
    under way), is tried again a few times."""
    text = not binary
    for attempt in range(6 if retry_loading else 1):
        try:
            p = subprocess.run(argv, cwd=cwd, env=env, input=stdin,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=text, errors=errors if text else None,
                               timeout=timeout)
        except subprocess.TimeoutExpired:
            what = "%s: stopped after %d s (a hang)" % (" ".join(argv),
                                                        timeout)
            return -9, ("" if text else b""), (what if text else what.encode())
        except OSError as err:
            if not retry_loading:
                raise
            p = subprocess.CompletedProcess(argv, 126, "", str(err))
        if retry_loading and (p.returncode in (126, 127) or
                              "error while loading shared libraries"
                              in p.stderr):
            time.sleep(2 + 3 * attempt)
            continue
        return p.returncode, p.stdout, p.stderr
    return p.returncode, p.stdout, p.stderr
