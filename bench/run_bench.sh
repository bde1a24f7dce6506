#!/bin/sh
# One parse benchmark: generate the input (once, cached in DATADIR), then
# time `tfresolve parse FILE` with parse_bench and, when the reference
# program hclstages is there, time it on the same file in the same run.
#
# Usage: run_bench.sh hcl|json PARSE_BENCH TFRESOLVE PYTHON GEN DATADIR
#                     [HCLSTAGES]
# Environment: BENCH_SIZE_MB (default 50), BENCH_RUNS (default 5),
# HCLSTAGES (overrides the reference program's path; empty = none).
set -eu

if [ $# -lt 6 ]; then
  echo "usage: $0 hcl|json PARSE_BENCH TFRESOLVE PYTHON GEN DATADIR" \
       "[HCLSTAGES]" >&2
  exit 2
fi
syntax=$1 harness=$2 tfr=$3 python=$4 gen=$5 data=$6
ref=${HCLSTAGES-${7:-}}
size=${BENCH_SIZE_MB:-50}
runs=${BENCH_RUNS:-5}

dir=$data/tfvars-${size}mb
case $syntax in
  hcl) file=$dir/hcl/terraform.tfvars ;;
  json) file=$dir/json/terraform.tfvars.json ;;
  *) echo "$0: unknown syntax $syntax" >&2; exit 2 ;;
esac

# Regenerate when missing or older than the generator.
stamp=$dir/.done
if [ ! -f "$stamp" ] || [ -n "$(find "$gen" -newer "$stamp")" ]; then
  rm -f "$stamp"
  "$python" "$gen" "$dir" "$size"
  touch "$stamp"
fi

# The reference is optional: compared only when it is executable.
if [ -n "$ref" ] && [ -x "$ref" ]; then
  exec "$harness" -f "$file" -n "$runs" -label "tfresolve-$syntax" \
    -ref-label hclstages -ref-stages tfvars_read,tfvars_parse \
    -- "$tfr" parse "$file" -- "$ref" -dir "$(dirname "$file")"
fi
echo "(reference hclstages not found${ref:+ at $ref}: comparison skipped)"
exec "$harness" -f "$file" -n "$runs" -label "tfresolve-$syntax" \
  -- "$tfr" parse "$file"
