#!/usr/bin/env bash
# The shell completions (completions/): the bash one is loaded into this
# shell (run it as `bash --norc --noprofile tests/completions.sh`) and
# asked for the completions of a few command lines; the zsh one must
# parse (`zsh -n`; skipped when zsh is not installed).
#
#   tests/completions.sh COMPLETIONS_DIR [TFRESOLVE]
#
# With TFRESOLVE, the variable names of a small module are completed too
# (they come from `tfresolve show -json`).  Last line: "N passed, M failed".
dir=${1:?usage: completions.sh COMPLETIONS_DIR [TFRESOLVE]}
tfr=${2:-}
# absolute: the tests below change directory
dir=$(cd "$dir" && pwd) || exit 2
if [[ -n $tfr ]]; then
  tfr=$(cd "$(dirname "$tfr")" && pwd)/$(basename "$tfr") || exit 2
fi
pass=0 fail=0

# shellcheck source=../completions/tfresolve.bash
. "$dir/tfresolve.bash" || { echo "0 passed, 1 failed"; exit 1; }

# Split a command line as bash does for COMP_WORDS with the default
# COMP_WORDBREAKS: blanks separate words, "=" is a word of its own.
# The cursor is at the end of the line.
complete_line() {
  local line=$1 w="" c i
  COMP_WORDS=()
  for ((i = 0; i < ${#line}; i++)); do
    c=${line:i:1}
    if [[ $c == " " ]]; then
      [[ -n $w ]] && COMP_WORDS+=("$w")
      w=""
    elif [[ $c == "=" ]]; then
      [[ -n $w ]] && COMP_WORDS+=("$w")
      COMP_WORDS+=("=")
      w=""
    else
      w+=$c
    fi
  done
  # the word being completed: what follows the last blank or "="
  if [[ -n $w || $line == *" " ]]; then
    COMP_WORDS+=("$w")
  fi
  COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
  COMP_LINE=$line
  COMP_POINT=${#line}
  COMPREPLY=()
  _tfresolve "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" \
    "${COMP_WORDS[COMP_CWORD - 1]}" 2>/dev/null
}

# expect LINE WORD...: the completions of LINE are exactly the WORDs
# (in any order).
expect() {
  local line=$1
  shift
  complete_line "$line"
  local got want
  got=$( ((${#COMPREPLY[@]})) && printf '%s\n' "${COMPREPLY[@]}" | sort |
    tr '\n' ' ')
  want=$( (($#)) && printf '%s\n' "$@" | sort | tr '\n' ' ')
  if [[ $got == "$want" ]]; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: '$line<TAB>'"
    echo "  expected: $want"
    echo "  got:      $got"
  fi
}

expect "tfresolve ch" check
expect "tfresolve e" eval explain
expect "tfresolve " show check explain diff lsp eval console init test parse
expect "tfresolve -" -help -version -max-memory= -chdir=
expect "tfresolve check -for" -format=
expect "tfresolve check -format=" human json sarif github junit plan-json
expect "tfresolve check -format=s" sarif
expect "tfresolve check --format=g" github
expect "tfresolve show -format=" human json yaml plan-json tfvars env
expect "tfresolve explain -format=" human json
expect "tfresolve eval -format=" console json yaml
expect "tfresolve parse -format=" human json short
expect "tfresolve init -format=" tfvars json env
expect "tfresolve init -f" -force -format=
expect "tfresolve test -f" -filter=
expect "tfresolve show -engine=" terraform opentofu
expect "tfresolve check -re" -recursive
expect "tfresolve show -re" -required # -recursive is check's
expect "tfresolve explain -a" -all
expect "tfresolve diff -" -a= -b= -var -var-file= -chdir= -no-env -engine= -json -no-modules -show-sensitive -no-color -help -max-memory=
expect "tfresolve check -var-file-" -var-file-each=
expect "tfresolve check --no-e" --no-env
expect "tfresolve eval -f" -format= -functions
expect "tfresolve eval -type=" string number bool any
expect "tfresolve parse -" -ast -format= -json -no-color -help -max-memory=
expect "tfresolve show -var a=" # a value: nothing to offer

# Paths, in a scratch directory.
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/mod/sub" "$tmp/mod/env"
cat >"$tmp/mod/variables.tf" <<'EOF'
variable "alpha" {
  type = string
}
variable "beta" {
  default = 1
}
EOF
: >"$tmp/mod/prod.tfvars"
: >"$tmp/mod/dev.tfvars.json"
: >"$tmp/mod/notes.txt"
cd "$tmp/mod" || exit 2
expect "tfresolve check -var-file=" dev.tfvars.json env prod.tfvars sub
expect "tfresolve check -var-file p" prod.tfvars
expect "tfresolve check -var-file-each=" dev.tfvars.json env prod.tfvars sub
expect "tfresolve show -chdir=" env sub
expect "tfresolve init -out=" dev.tfvars.json env prod.tfvars sub
expect "tfresolve test -test-directory=" env sub
expect "tfresolve check " env sub
expect "tfresolve check -no-env s" sub
expect "tfresolve parse " dev.tfvars.json env prod.tfvars sub variables.tf

if [[ -n $tfr ]]; then
  expect "$tfr explain " alpha beta
  expect "$tfr explain a" alpha
  expect "$tfr explain alpha " env sub
  expect "$tfr explain -var b=2 -json " alpha beta
  expect "$tfr show -var " alpha= beta=
  expect "$tfr show -var=b" beta=
  expect "$tfr eval 1 -var " alpha= beta=
  cd "$tmp" || exit 2
  expect "$tfr explain -chdir=mod " alpha beta
  expect "$tfr explain " # no module here
  expect "$tfr explain -chdir=nowhere " # no such directory
fi

# zsh: the file must parse, and define its function when autoloaded.
if command -v zsh >/dev/null; then
  if zsh -n "$dir/_tfresolve"; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: zsh -n $dir/_tfresolve"
  fi
  if head -n 1 "$dir/_tfresolve" | grep -q '^#compdef tfresolve'; then
    pass=$((pass + 1))
  else
    fail=$((fail + 1))
    echo "FAIL: $dir/_tfresolve does not start with #compdef tfresolve"
  fi
else
  echo "zsh not installed: zsh completion not checked"
fi

echo "$pass passed, $fail failed"
[[ $fail == 0 ]]
