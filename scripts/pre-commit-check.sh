#!/bin/sh
# pre-commit hook: `tfresolve check -recursive` over the repository (the
# working directory), keeping the roots that use a changed .tf, .tf.json,
# .tofu, .tofu.json, .tfvars or .tfvars.json file.  tfresolve must be
# installed (on PATH, or named by $TFRESOLVE).
#
#   pre-commit-check.sh [CHECK OPTIONS...] [--] FILE...
#
# Leading arguments that start with "-" (up to an optional "--") are
# options of `tfresolve check`, given as the hook's `args`; write them in
# the one-word form (-var-file=FILE, -format=github).  The rest are the
# file names pre-commit passes, each given to check as -affected-by=FILE:
#   - a file of a root module (a directory that no other calls) checks
#     that root; a file of a child module checks every root that calls it
#     (through local sources, however deep), never the child alone;
#   - a var file in a directory without configuration (envs/prod.tfvars)
#     belongs to the nearest root above it;
#   - a changed var file that Terraform does not load by itself and that
#     no -var-file names is checked as an environment of its root.
# A -var-file or -var-file-each file in args applies to the root it
# belongs to (the nearest at or above it), or to every root when it is in
# none (a shared file at the top).  Exit status: 0 when every root checked
# is valid (or none uses the files), 1 when one is not, 2 when tfresolve
# could not run.
#
# tfresolve runs without the environment's variables that look like
# credentials (scripts/credential-env.sh: the checked files may be someone
# else's, and file("/proc/self/environ") would print them); TF_VAR_* stay.
. "$(dirname "$0")/credential-env.sh"
tfr=${TFRESOLVE:-tfresolve}
if ! command -v "$tfr" >/dev/null 2>&1; then
  echo "pre-commit-check: $tfr not found: install tfresolve first" >&2
  exit 2
fi

# Options stay first in "$@", each file becomes -affected-by=FILE after
# them (rotated to the end, in order).
total=$# i=0 opts=1 files=0
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
  set -- "$@" "-affected-by=$a"
  files=$((files + 1))
done
[ "$files" -gt 0 ] || exit 0

without_credentials "$tfr" check -recursive "$@" .
s=$?
[ "$s" -ne 0 ] && echo "tfresolve check -recursive: exit status $s" >&2
exit "$s"
