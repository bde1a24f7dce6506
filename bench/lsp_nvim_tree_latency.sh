#!/bin/sh
# The language server's latency in a real client with the module tree on
# (issue 41): headless Neovim (bench/lsp_nvim_latency.lua, run by
# tests/lsp_nvim.sh) on copies of ../shared/corpus's caf-enterprise-scale
# (root_id set alternately to a value its child modules' rules reject in
# 8 instances, folded into one diagnostic on the tfvars line, and to a
# valid one) and ALZ platform landing zone (enable_telemetry, as
# lsp_nvim_latency.sh): from the edit to the diagnostics Neovim shows,
# median and best, with the client's debounce at 0 and at its default.
# Skipped without nvim or the corpus.
#
#   bench/lsp_nvim_tree_latency.sh TFRESOLVE CORPUS_DIR SOURCE_ROOT
tool=$1 corpus=$2 root=$3
caf=$corpus/Azure__terraform-azurerm-caf-enterprise-scale
alz=$corpus/Azure__alz-terraform-accelerator/templates/platform_landing_zone
if [ ! -f "$caf/variables.tf" ] ||
  [ ! -f "$alz/examples/full-multi-region/hub-and-spoke-vnet.tfvars" ]; then
  echo "SKIP the corpus modules are not there: $caf, $alz"
  exit 77
fi
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' 'root_parent_id   = "tenant"' 'root_id          = "myorg"' \
  'default_location = "eastus"' >"$tmp/caf.tfvars"
echo "caf-enterprise-scale, root_id (child rules in 8 instances):"
BENCH_LSP_KEY=root_id BENCH_LSP_BAD='"My Org!"' BENCH_LSP_GOOD='"myorg"' \
  BENCH_LSP_WORDS='Value must be a valid Management Group ID' \
  sh "$root/tests/lsp_nvim.sh" "$tool" "$root" \
  "$root/bench/lsp_nvim_latency.lua" "$caf" "$tmp/caf.tfvars" 300 || exit 1
echo "ALZ platform landing zone, enable_telemetry:"
exec sh "$root/tests/lsp_nvim.sh" "$tool" "$root" \
  "$root/bench/lsp_nvim_latency.lua" "$alz" \
  "$alz/examples/full-multi-region/hub-and-spoke-vnet.tfvars" 300
