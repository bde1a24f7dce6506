#!/bin/sh
# tfresolve lsp in Neovim with the module tree (issue 41): a caf-like
# root written in a temporary directory (tests/lsp_common.py's keyed
# root: keyed instances whose argument is each.key, a local child whose
# directory is missing, a registry child not installed), only its
# terraform.tfvars open; tests/lsp_nvim_keyed.lua checks what Neovim
# shows on it and on main.tf, which is not open.  Skipped (exit 77)
# without nvim.
#
#   tests/lsp_nvim_keyed.sh TFRESOLVE SOURCE_ROOT
tool=$1 root=$2
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
python3 -c "import sys; sys.path.insert(0, sys.argv[1] + '/tests'); \
import lsp_common; lsp_common.keyed_root(sys.argv[2], 'keyed')" \
  "$root" "$tmp" || exit 2
sh "$root/tests/lsp_nvim.sh" "$tool" "$root" "$root/tests/lsp_nvim_keyed.lua" \
  "$tmp/keyed"
