#!/bin/sh
# tfresolve lsp in a real editor through the states editors create (issue
# 28): headless Neovim with its own LSP client (0.7: it watches no files
# for the server, so the server looks at the disk itself) on a copy of a
# real module of ../shared/corpus, Azure/alz-terraform-accelerator's
# templates/platform_landing_zone, with its example
# examples/full-multi-region/hub-and-spoke-vnet.tfvars as terraform.tfvars:
# a failing validation rule and its fix, a type error, a misspelt nested
# attribute (a warning; an error with strict), a broken other .tf (not
# open), a varFiles entry that does not exist, a new *.auto.tfvars written
# on disk while the tfvars is open, and Emacs's lock file (a dangling
# symbolic link .#NAME.auto.tfvars), each checked in what the user sees
# (vim.diagnostic.get).  Skipped (exit 77, meson's SKIP) without nvim or
# without the corpus; nvim is killed after 150 s.  /work/shared is never
# written: everything happens in a temporary copy.
#
#   tests/lsp_nvim_alz.sh TFRESOLVE CORPUS_DIR SOURCE_ROOT
tool=$1 corpus=$2 root=$3
case $tool in /*) ;; *) tool=$(pwd)/$tool ;; esac
src=$corpus/Azure__alz-terraform-accelerator/templates/platform_landing_zone
if ! command -v nvim >/dev/null 2>&1; then
  echo "SKIP nvim not installed: the editor test needs Neovim 0.7 or later (apt-get install neovim)"
  echo "0 passed, 0 failed"
  exit 77
fi
if [ ! -f "$src/variables.tf" ] ||
  [ ! -f "$src/examples/full-multi-region/hub-and-spoke-vnet.tfvars" ]; then
  echo "SKIP the corpus module is not there: $src"
  echo "0 passed, 0 failed"
  exit 77
fi
# the run itself is lsp_nvim.sh's, with this module and script
exec sh "$root/tests/lsp_nvim.sh" "$tool" "$root" "$root/tests/lsp_nvim_alz.lua" \
  "$src" "$src/examples/full-multi-region/hub-and-spoke-vnet.tfvars" 150
