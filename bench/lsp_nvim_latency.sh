#!/bin/sh
# The language server's latency in a real client (issue 28): headless
# Neovim on a copy of ../shared/corpus's ALZ platform landing zone module
# (bench/lsp_nvim_latency.lua, run by tests/lsp_nvim.sh): from an edit to
# the diagnostics Neovim shows, median and best, with the client's
# debounce at 0 and at its default.  Skipped without nvim or the corpus.
#
#   bench/lsp_nvim_latency.sh TFRESOLVE CORPUS_DIR SOURCE_ROOT
tool=$1 corpus=$2 root=$3
src=$corpus/Azure__alz-terraform-accelerator/templates/platform_landing_zone
if [ ! -f "$src/examples/full-multi-region/hub-and-spoke-vnet.tfvars" ]; then
  echo "SKIP the corpus module is not there: $src"
  exit 77
fi
exec sh "$root/tests/lsp_nvim.sh" "$tool" "$root" \
  "$root/bench/lsp_nvim_latency.lua" "$src" \
  "$src/examples/full-multi-region/hub-and-spoke-vnet.tfvars" 300
