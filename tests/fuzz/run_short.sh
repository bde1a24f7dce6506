#!/bin/sh
# A short libFuzzer run of one target, for the suite of a -Dfuzz=true
# build: SECONDS of fuzzing from the checked-in seeds (and the inputs of
# past findings), new inputs kept in a scratch directory removed after.
# Prints libFuzzer's last status line and "N passed, M failed".
#
# Usage: run_short.sh TARGET SECONDS DICT SEEDS...
set -u
target=$1 secs=$2 dict=$3
shift 3
work=$(mktemp -d "${TMPDIR:-/tmp}/fuzz_short.XXXXXX") || exit 2
trap 'rm -rf "$work"' EXIT
trap 'exit 2' HUP INT TERM
mkdir "$work/corpus" "$work/crashes"
"$target" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
  -max_len=32768 -dict="$dict" -artifact_prefix="$work/crashes/" \
  -print_final_stats=1 "$work/corpus" "$@" > "$work/log" 2>&1
rc=$?
grep -E '^(#[0-9]+.*(DONE|pulse)|stat::number_of_executed_units)' "$work/log" | tail -2
if [ "$rc" -eq 0 ]; then
  echo "1 passed, 0 failed"
else
  tail -n 40 "$work/log"
  echo "0 passed, 1 failed"
fi
exit "$rc"
