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
passed=0 failed=0
out=$("$tool" parse -format=short "$corpus" 2>&1); rc=$?
if [ $rc -eq 0 ] && [ -z "$out" ]; then
  echo "PASS corpus parse: $files files parsed with no diagnostics"
  passed=$((passed + 1))
else
  echo "$out" | head -50
  echo "FAIL corpus parse: exit $rc, $(echo "$out" | grep -c ': error: ') errors in $files files"
  failed=$((failed + 1))
fi

# `check` in every directory that holds .tf files: no crash, and no
# problem reported but the true one of these modules (required variables
# that have no value here).
dirs=$(find "$corpus" -name '*.tf' -exec dirname {} \; | sort -u)
n=0 bad=0
for d in $dirs; do
  n=$((n + 1))
  out=$(cd "$d" && "$tool" check -no-env -no-color 2>&1); rc=$?
  other=$(echo "$out" | grep -E '^. (Error|Warning):' |
          grep -v 'No value for required variable')
  if [ $rc -ge 2 ] || [ -n "$other" ]; then
    echo "FAIL corpus check $d: exit $rc"
    echo "$other" | head -5
    bad=$((bad + 1))
  fi
done
if [ $bad -eq 0 ]; then
  echo "PASS corpus check: $n module directories, only missing required values reported"
  passed=$((passed + 1))
else
  failed=$((failed + 1))
fi
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
