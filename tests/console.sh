#!/bin/sh
# tfresolve console reading standard input that is not a terminal, as
# Terraform's console reads it (internal/command/console.go, modePiped):
# one expression a line, only the last result printed, the first error
# (on stderr, named <console-input>) ends the run with status 1, "exit"
# ends it printing nothing, a blank last line prints an empty line.
tool="$1"; module="$2"
passed=0 failed=0
check() { # name, expected, actual
  if [ "$2" = "$3" ]; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    printf 'FAIL %s\n--- expected\n%s\n--- actual\n%s\n---\n' "$1" "$2" "$3"
  fi
}
# Terraform's piped console (console.go modePiped): one expression a
# line, only the last result printed, the first error ends the run (1)
out=$(printf '%s\n' 'var.region' 'local.azs[0]' '  length(var.zones)  ' |
  "$tool" console -no-color "$module" 2>/dev/null); rc=$?
check "only the last line's result" '2' "$out"
check "exit status after good lines" 0 "$rc"
out=$(printf '%s\n' 'var.region' 'upper(1, 2)' 'var.region' |
  "$tool" console -no-color "$module" 2>&1); rc=$?
check "the first error ends the run" 1 "$rc"
check "an error prints no result" 0 "$(echo "$out" | grep -c eu-west-1)"
check "errors name <console-input>" '1' "$(echo "$out" | grep -c 'on <console-input> line 1:')"
out=$(printf '%s\n' 'var.region' 'exit' 'upper(1, 2)' |
  "$tool" console -no-color "$module" 2>&1); rc=$?
check "exit ends the run, printing nothing" "0:" "$rc:$out"
out=$(printf '%s\n' 'var.region' '' | "$tool" console -no-color "$module"; echo "rc=$?")
check "a blank last line's result is an empty line" '
rc=0' "$out"
out=$(printf '[\n  1,\n]\n' | "$tool" console -no-color "$module" 2>&1); rc=$?
check "no expression spans lines when piped" 1 "$(echo "$out" | grep -c 'Error: ')"
check "exit status of an unfinished line" 1 "$rc"
printf 'nosuch()\n' | "$tool" console -no-color "$module" >/dev/null 2>&1
check "exit status after a failed last expression" 1 $?
out=$(printf 'help\n' | "$tool" console -no-color "$module")
check "help says how to leave" 1 "$(echo "$out" | grep -c exit)"
out=$(printf '[1,\n2' | "$tool" console -no-color "$module" 2>&1)
check "a line ending inside a bracket is an error" 1 \
  "$(echo "$out" | grep -c 'Error: ')"
out=$(printf 'var.region\n' |
  TF_CLI_ARGS_console='-var region=from-args' "$tool" console -no-color "$module")
check "TF_CLI_ARGS_console's -var" '"from-args"' "$out"
out=$(printf 'var.region\n' | TF_CLI_ARGS_console='-var region=from-args' \
  "$tool" console -no-color -var region=own "$module")
check "the command line's own -var comes after TF_CLI_ARGS_console's" \
  '"own"' "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
