#!/bin/sh
# Sum the "N passed, M failed" lines that every test program prints into
# one final line for the whole suite.  A test program that crashed or
# printed no summary counts as one failure.
log="$1"
awk '
  /^==================================== [0-9]+\/[0-9]+ ====/ { progs++ }
  /^[0-9]+ passed, [0-9]+ failed$/ { p += $1; f += $3; seen++ }
  /^test:/ { tests++ }
  /^result:/ { if ($0 !~ /exit status 0/ && $0 !~ /passed/) bad++ }
  END {
    missing = bad - 0
    if (missing < 0) missing = 0
    printf "%d passed, %d failed\n", p, f + (f == 0 ? missing : 0)
  }' "$log"
