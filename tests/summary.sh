#!/bin/sh
# Add up the "N passed, M failed" lines that every test program prints
# (found in meson's testlog.txt) into one final line for the whole suite.
# A program that failed without reporting a failure of its own (a crash,
# a sanitizer abort, a timeout) counts as one more failure.
log="$1"
if [ ! -f "$log" ]; then
  echo "0 passed, 1 failed"
  exit 0
fi
awk '
  function flush() {
    if (!inblock) return
    P += p; F += f
    if (!ok && f == 0) F += 1
  }
  /^test:/ { flush(); inblock = 1; p = 0; f = 0; ok = 0; next }
  /^result:/ { ok = ($0 ~ /exit status 0$/); next }
  /^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; next }
  END { flush(); printf "%d passed, %d failed\n", P, F }
' "$log"
