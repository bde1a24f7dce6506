#!/bin/sh
# tfresolve lsp with a real editor (issue 18): Neovim, headless and with
# no configuration but tests/lsp_nvim.lua, starts the server with its own
# LSP client on terraform.tfvars of a copy of fixtures/lsp-editor and
# checks the diagnostic of its one error (message, line, column), hover
# (type, description, provenance; no sensitive value), completion (the
# variables not set yet, attribute names), go to definition, that an edit
# clears the diagnostic, a quick fix, and a clean shutdown.  Skipped (exit
# 77, meson's SKIP) when nvim is not installed (Debian: apt-get install
# neovim; `make test` installs it).
#
#   tests/lsp_nvim.sh TFRESOLVE SOURCE_ROOT [SCRIPT MODULE [TFVARS [SECONDS]]]
#
# The same run for another Lua SCRIPT on a copy of another MODULE (TFVARS,
# if given, copied in as its terraform.tfvars; nvim killed after SECONDS,
# default 100): tests/lsp_nvim_alz.sh.
tool=$1 root=$2
script=${3:-$root/tests/lsp_nvim.lua} module=${4:-$root/fixtures/lsp-editor}
tfvars=${5:-} limit=${6:-100}
case $tool in /*) ;; *) tool=$(pwd)/$tool ;; esac
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP nvim not installed: the editor test needs Neovim 0.7 or later (apt-get install neovim)"
  echo "0 passed, 0 failed"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
cp -R "$module" "$tmp/module" || exit 2
chmod -R u+w "$tmp/module"
if [ -n "$tfvars" ]; then
  cp "$tfvars" "$tmp/module/terraform.tfvars" || exit 2
fi
# nothing of the user's: configuration, state, logs, swap files
mkdir -p "$tmp/home" "$tmp/xdg/config" "$tmp/xdg/data" "$tmp/xdg/state" "$tmp/xdg/cache"
result=$tmp/result
: >"$result"
HOME=$tmp/home XDG_CONFIG_HOME=$tmp/xdg/config XDG_DATA_HOME=$tmp/xdg/data \
  XDG_STATE_HOME=$tmp/xdg/state XDG_CACHE_HOME=$tmp/xdg/cache \
  TFR_TOOL=$tool TFR_MODULE=$tmp/module TFR_RESULT=$result \
  timeout "$limit" nvim --headless --clean -u NONE -i NONE -n \
  -c "luafile $script" </dev/null >"$tmp/nvim.out" 2>&1
rc=$?
cat "$result"
passed=$(grep -c '^PASS ' "$result")
failed=$(grep -c '^FAIL ' "$result")
if [ "$rc" -ne 0 ] || [ "$passed" -eq 0 ]; then
  echo "FAIL nvim exited with status $rc (124: killed after $limit s)"
  failed=$((failed + 1))
fi
if [ "$failed" -ne 0 ]; then
  # what nvim said, and its LSP log (the server's stderr is in it)
  awk '{ print "  nvim: " $0 }' "$tmp/nvim.out"
  tail -n 20 "$tmp/xdg/cache/nvim/lsp.log" 2>/dev/null |
    awk '{ print "  lsp.log: " $0 }'
fi
nvim --version | head -n 1
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
