#!/bin/sh
# Every .tf, .tf.json, .tfvars and .tfvars.json file of the public modules
# in ../shared/corpus must parse with no diagnostic at all.  Skipped (and
# counted as passed with a note) when the corpus is not there.
tool="$1"; corpus="$2"
if [ ! -d "$corpus" ]; then
  echo "corpus not found at $corpus: skipped"
  echo "0 passed, 0 failed"
  exit 0
fi
files=$(find "$corpus" -type f \( -name '*.tf' -o -name '*.tf.json' \
  -o -name '*.tfvars' -o -name '*.tfvars.json' \) | wc -l)
out=$("$tool" parse -format=short "$corpus" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
  echo "PASS corpus: $files files parsed with no diagnostics"
  echo "1 passed, 0 failed"
else
  echo "$out" | head -50
  echo "FAIL corpus: exit $rc, $(echo "$out" | grep -c ': error: ') errors in $files files"
  echo "0 passed, 1 failed"
  exit 1
fi
