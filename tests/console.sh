#!/bin/sh
# tfresolve console reading standard input (not a terminal: no prompt):
# an expression spread over lines while a bracket is open, blank lines,
# "help", an error (on stderr, named <console-input>) that does not end
# the session, and "exit" that does (what follows is not read).
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
out=$(printf '%s\n' 'var.region' '' '[' '  local.azs[0],' '  "x",' ']' \
  'upper(1, 2)' 'length(var.zones)' 'exit' 'var.region' |
  "$tool" console -no-color "$module" 2>/dev/null); rc=$?
check "values, in order" '"eu-west-1"
[
  "eu-west-1a",
  "x",
]
2' "$out"
err=$(printf '%s\n' 'upper(1, 2)' | "$tool" console -no-color "$module" 2>&1 >/dev/null)
check "errors name <console-input>" '1' "$(echo "$err" | grep -c 'on <console-input> line 1:')"
check "exit status after a good last expression" 0 "$rc"
printf 'nosuch()\n' | "$tool" console -no-color "$module" >/dev/null 2>&1
check "exit status after a failed last expression" 1 $?
out=$(printf 'help\n' | "$tool" console -no-color "$module")
check "help says how to leave" 1 "$(echo "$out" | grep -c exit)"
out=$(printf '[1,\n2' | "$tool" console -no-color "$module" 2>&1)
check "input ending inside a bracket is evaluated: an error" 1 \
  "$(echo "$out" | grep -c 'Error: Unterminated tuple constructor expression')"
out=$(printf 'var.region\n' |
  TF_CLI_ARGS_console='-var region=from-args' "$tool" console -no-color "$module")
check "TF_CLI_ARGS_console's -var" '"from-args"' "$out"
out=$(printf 'var.region\n' | TF_CLI_ARGS_console='-var region=from-args' \
  "$tool" console -no-color -var region=own "$module")
check "the command line's own -var comes after TF_CLI_ARGS_console's" \
  '"own"' "$out"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
