#!/bin/sh
# Deep-nesting regression test: inputs nested DEPTH (default 100000) levels
# deep must be rejected with exactly one "Nesting too deep" diagnostic,
# never a stack overflow, a hang or a sanitizer report; and the decoding
# functions at their own limits (10,000 levels) give their errors.  Every
# run has a stack limit of 1 MiB (`ulimit -s`, soft and hard): the program
# must not depend on the caller's stack.
#
# Usage: deep_nesting.sh TFRESOLVE [DEPTH]
# Prints PASS/FAIL per input and "N passed, M failed" last; exit 1 on any
# failure, 2 on a usage error.
set -u

tfr=${1:-}
depth=${2:-100000}
if [ -z "$tfr" ] || [ ! -x "$tfr" ]; then
  echo "usage: $0 TFRESOLVE [DEPTH]" >&2
  exit 2
fi

tmp=$(mktemp -d "${TMPDIR:-/tmp}/deep_nesting.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 2' HUP INT TERM

# A run that takes longer than this is a hang (timeout is not POSIX, so
# only used when present).
limit=30
if command -v timeout >/dev/null 2>&1; then
  run_limited() { (ulimit -s 1024 && exec timeout "$limit" "$@"); }
else
  run_limited() { (ulimit -s 1024 && exec "$@"); }
fi

# gen FILE PREFIX OPEN MIDDLE CLOSE SUFFIX: PREFIX, OPEN DEPTH times,
# MIDDLE, CLOSE DEPTH times, SUFFIX and a newline.  printf-style escapes
# are not interpreted (awk -v would), so values go through ENVIRON.
gen() {
  file=$1
  P=$2 O=$3 M=$4 C=$5 S=$6 N=$depth awk 'BEGIN {
    n = ENVIRON["N"] + 0
    printf "%s", ENVIRON["P"]
    for (i = 0; i < n; i++) printf "%s", ENVIRON["O"]
    printf "%s", ENVIRON["M"]
    for (i = 0; i < n; i++) printf "%s", ENVIRON["C"]
    printf "%s\n", ENVIRON["S"]
  }' > "$tmp/$file" || { echo "cannot write $tmp/$file" >&2; exit 2; }
}

gen lists.tfvars      'a = ' '['     ''  ']'  ''
gen objects.tfvars    'a = ' '{x='   '1' '}'  ''
gen parens.tfvars     'a = ' '('     '1' ')'  ''
gen nots.tfvars       'a = ' '!'     'x' ''   ''
gen negs.tfvars       'a = ' '-'     '1' ''   ''
gen sum.tfvars        'a = 1' ''     ''  '+1' ''
gen templates.tfvars  'a = ' '"${'   'x' '}"' ''
gen traversal.tfvars  'a = a' ''     ''  '.b' ''
gen lists.tfvars.json '{"a": ' '['   ''  ']'  '}'
# Expressions for eval -functions: one level past each decoder's limit.
depth_fn=$depth
depth=10001
gen yaml.expr         'yamldecode("' '[' '' ']' '")'
gen json.expr         'jsondecode("[' '[' '' ']' ']")'
depth=$depth_fn

pass=0
fail=0
# judge NAME RC WANT_LINES PATTERN: the verdict on a run whose output is
# in $tmp/NAME.out: exit status 1, no signal, no sanitizer report, no hang,
# the pattern (grep -F) in the output and, unless WANT_LINES is empty,
# that many lines of it.
judge() {
  out="$tmp/$1.out"
  rc=$2
  why=""
  if [ "$rc" -eq 124 ] && command -v timeout >/dev/null 2>&1; then
    why="no result within ${limit}s"
  elif [ "$rc" -ge 128 ]; then
    why="killed by signal $((rc - 128))"
  elif grep -q -e 'Sanitizer' -e 'runtime error:' "$out"; then
    why="sanitizer report"
  elif [ "$rc" -ne 1 ]; then
    why="exit status $rc, expected 1"
  elif [ -n "$3" ] && [ "$(wc -l < "$out" | tr -d ' ')" -ne "$3" ]; then
    why="$(wc -l < "$out" | tr -d ' ') output lines, expected $3"
  elif ! grep -q -F -e "$4" "$out"; then
    why="no \"$4\" in the output"
  fi
  if [ -z "$why" ]; then
    echo "PASS $1"
    pass=$((pass + 1))
  else
    echo "FAIL $1: $why"
    head -c 2000 "$out" | head -n 5 | sed 's/^/    /'
    fail=$((fail + 1))
  fi
}

# check NAME: the parser on $tmp/NAME: exactly one "Nesting too deep".
check() {
  run_limited "$tfr" parse -format=short "$tmp/$1" > "$tmp/$1.out" 2>&1
  judge "$1" $? 1 ': error: Nesting too deep'
}

for f in lists.tfvars objects.tfvars parens.tfvars nots.tfvars negs.tfvars \
         sum.tfvars templates.tfvars traversal.tfvars lists.tfvars.json; do
  check "$f"
done

# check_fn NAME WANT: eval -functions -json on the expression in
# $tmp/NAME must fail (exit 1) with WANT in its error.
check_fn() {
  run_limited "$tfr" eval -functions -json - < "$tmp/$1" > "$tmp/$1.out" 2>&1
  judge "$1" $? "" "$2"
}

check_fn yaml.expr 'failed: nesting too deep.'
check_fn json.expr 'exceeded max depth.'

echo "$pass passed, $fail failed"
[ "$fail" -eq 0 ]
