#!/bin/sh
# pre-commit hook: `tfresolve check` in the directory of every changed
# .tf, .tf.json, .tofu, .tofu.json, .tfvars or .tfvars.json file, once per
# directory.  tfresolve must be installed (on PATH, or named by $TFRESOLVE).
#
#   pre-commit-check.sh [CHECK OPTIONS...] [--] FILE...
#
# Leading arguments that start with "-" (up to an optional "--") are
# options of `tfresolve check`, given as the hook's `args`; write them in
# the one-word form (-var-file=FILE, -format=github).  The rest are the
# file names pre-commit passes.  A directory with no .tf, .tf.json, .tofu
# or .tofu.json file is skipped: var files kept apart from their module
# (envs/prod.tfvars) are checked with `tfresolve check -var-file-each`
# in the module's directory.  Exit status: 0 when every directory is
# valid, 1 when one is not, 2 when tfresolve could not run.
tfr=${TFRESOLVE:-tfresolve}
if ! command -v "$tfr" >/dev/null 2>&1; then
  echo "pre-commit-check: $tfr not found: install tfresolve first" >&2
  exit 2
fi

# Options stay in "$@" (rotated to the end, in order); the directories of
# the files go to $dirs, one a line.
total=$# i=0 opts=1 dirs=
while [ "$i" -lt "$total" ]; do
  a=$1
  shift
  i=$((i + 1))
  if [ "$opts" = 1 ]; then
    case $a in
      --) opts=0; continue ;;
      -*) set -- "$@" "$a"; continue ;;
      *) opts=0 ;;
    esac
  fi
  case $a in
    */*) d=${a%/*} ;;
    *) d=. ;;
  esac
  dirs="$dirs$d
"
done

rc=0
# one directory a line (names with a newline are not supported)
dirs=$(printf '%s' "$dirs" | sort -u)
old_ifs=$IFS
IFS='
'
for d in $dirs; do
  IFS=$old_ifs
  [ -d "$d" ] || continue
  # var files alone (envs/prod.tfvars): no module here to check them with
  has_config=0
  for f in "$d"/*.tf "$d"/*.tf.json "$d"/*.tofu "$d"/*.tofu.json; do
    [ -e "$f" ] && has_config=1 && break
  done
  [ "$has_config" = 1 ] || continue
  "$tfr" check "$@" "$d"
  s=$?
  if [ "$s" -ne 0 ]; then
    echo "tfresolve check $d: exit status $s" >&2
    [ "$s" -gt "$rc" ] && rc=$s
  fi
done
exit "$rc"
