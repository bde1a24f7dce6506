#!/bin/sh
# The C sources are formatted as .clang-format says: clang-format would
# change nothing.  Skipped (exit 77, meson's SKIP, with a SKIP line) when
# clang-format is missing.
#
#   tests/format.sh SOURCE_ROOT
root=$1
if ! command -v clang-format >/dev/null 2>&1; then
  echo "SKIP clang-format not installed: format not checked"
  exit 77
fi
cd "$root" || exit 2
pass=0 fail=0
for f in src/*.c src/*/*.c src/*/*.h src/*/*.cc include/tfresolve/*.h \
         tests/*.c tests/*.h \
         tests/fuzz/*.c tests/fuzz/*.h tests/sarif/*.c bench/*.c doc/*.c; do
  [ -f "$f" ] || continue
  if clang-format --dry-run -Werror "$f" >/dev/null 2>&1; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL $f: not formatted (clang-format -i $f)"
  fi
done
echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
