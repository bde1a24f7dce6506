#!/bin/sh
# tfresolve lsp in Emacs with eglot (issue 28), in batch and with no
# configuration but tests/lsp_emacs.el: on terraform.tfvars of a copy of
# fixtures/lsp-editor, the diagnostic, hover as plain text, an edit while
# Emacs holds its lock file, the fix, a clean shutdown.  Skipped (exit 77,
# meson's SKIP) when Emacs or eglot is not installed (Debian 12:
# apt-get install emacs-nox elpa-eglot; Emacs 29 has eglot).
#
#   tests/lsp_emacs.sh TFRESOLVE SOURCE_ROOT [SECONDS]
tool=$1 root=$2 limit=${3:-100}
case $tool in /*) ;; *) tool=$(pwd)/$tool ;; esac
skip() {
  echo "SKIP $1"
  echo "0 passed, 0 failed"
  exit 77
}
command -v emacs >/dev/null 2>&1 ||
  skip "emacs not installed: the test needs Emacs 28 and elpa-eglot, or Emacs 29"
HOME=/nonexistent emacs --batch --eval '(require (quote eglot))' \
  >/dev/null 2>&1 || skip "eglot not installed (Debian 12: apt-get install elpa-eglot)"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cp -R "$root/fixtures/lsp-editor" "$tmp/module" || exit 2
chmod -R u+w "$tmp/module"
mkdir -p "$tmp/home"
result=$tmp/result
: >"$result"
HOME=$tmp/home TFR_TOOL=$tool TFR_MODULE=$tmp/module TFR_RESULT=$result \
  timeout "$limit" emacs --batch \
  -l "$root/tests/lsp_emacs.el" </dev/null >"$tmp/emacs.out" 2>&1
rc=$?
cat "$result"
passed=$(grep -c '^PASS ' "$result")
failed=$(grep -c '^FAIL ' "$result")
if [ "$rc" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "FAIL emacs exited with status $rc (124: killed after $limit s)"
  failed=$((failed + 1))
fi
if [ "$failed" -ne 0 ]; then
  awk '{ print "  emacs: " $0 }' "$tmp/emacs.out" | tail -n 40
fi
emacs --version | head -n 1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
