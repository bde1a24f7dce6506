#!/bin/sh
# `tfresolve init` round trip (issue 6): for every module fixture, in
# every format (tfvars, json, env), the template as written must FAIL
# `check` when the module has required variables ("No value for required
# variable"), and PASS once its required values are filled in.
#
#   init_roundtrip.sh TFRESOLVE FIXTURES_DIR VALUES_DIR
#
# The modules: FIXTURES_DIR/demo, FIXTURES_DIR/console and every
# FIXTURES_DIR/cases/* directory with a module in it.  Each module's
# configuration is copied to a temporary directory without its *.tfvars
# and *.tfvars.json files, so that the template is the only value source
# (`check -no-env -var-file=TEMPLATE`; for env, the template is sourced in
# a subshell with an otherwise empty environment and `check` runs there).
#
# Filling in, as a user would: in the tfvars and env templates, each
# required variable's commented-out line is uncommented (its skeleton
# value: "", 0, [], ...).  VALUES_DIR/<fixture>.tfvars may give values
# (`name = VALUE`, one line each) where a user would write something
# else: a required value its validation rule wants (no skeleton passes
# `length(var.x) >= 12`), or a default that the case's own rule rejects on
# purpose; the variable's assignment is then replaced by that value.  For
# json, those variables are added (or replaced) with the values that the
# filled tfvars template resolves to (`show -json`).  A case run with
# -engine=opentofu (in its `args`) is initialised and checked that way.
#
# Prints PASS/FAIL/SKIP lines and "N passed, M failed" last.
tool="$1"; fixtures="$2"; values="$3"
if [ ! -x "$tool" ] || [ ! -d "$fixtures" ]; then
  echo "usage: $0 TFRESOLVE FIXTURES_DIR VALUES_DIR" >&2
  echo "0 passed, 1 failed"
  exit 1
fi
case "$tool" in /*) ;; *) tool="$PWD/$tool" ;; esac
tmp=$(mktemp -d "${TMPDIR:-/tmp}/init_roundtrip.XXXXXX") || exit 2
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
passed=0 failed=0

# Fixtures that are not templates' business, and why.  Case directories
# whose own golden result is an error (expected.rc not 0) and that init
# refuses too are skipped automatically, with init's first error as the
# reason; directories without configuration files are skipped as well,
# and so are modules whose validation rules refer to things the module
# does not declare ("Reference to undeclared ...", "Invalid reference"):
# no value passes them.
skip_reason() {
  case "$1" in
    demo-broken) echo "a syntax error on purpose (the parse demo)" ;;
    *) return 1 ;;
  esac
}

# Fill in a tfvars or env template (stdin; $1 tfvars|env): the
# assignment of a variable that file $2 has a value for is replaced by
# that value, and the commented-out assignment of every other required
# variable is uncommented.  The names of the variables filled in or
# replaced go to file $3.  The assignment is what follows the "# type:"
# comment of a variable's paragraph (a description may hold anything).
fill() {
  : >"$3"
  awk -v fmt="$1" -v vf="$2" -v names="$3" '
    BEGIN {
      while ((getline l < vf) > 0)
        if (match(l, /^[A-Za-z_][A-Za-z0-9_-]* *= */)) {
          name = l; sub(/ *=.*/, "", name)
          val = l; sub(/^[^=]*= */, "", val)
          want[name] = val
        }
    }
    function flush(   i, t, at, req, lit, line, name, v) {
      t = 0; at = 0; req = 0; lit = 0
      for (i = 1; i <= n; i++) {
        if (!t && para[i] ~ /^# type: /) t = i
        if (para[i] == "# REQUIRED: uncomment and set a value") req = 1
        if (para[i] == "# TF_VAR_ value: literal text") lit = 1
        if (t && !at && fmt == "env" && para[i] ~ /^(# )?export TF_VAR_/) at = i
        if (t && !at && fmt != "env" && para[i] ~ /^(# )?[A-Za-z_][A-Za-z0-9_-]* = /) at = i
      }
      if (!at) {
        for (i = 1; i <= n; i++) print para[i]
        n = 0
        return
      }
      line = para[at]; sub(/^# /, "", line)
      name = line
      if (fmt == "env") { sub(/^export TF_VAR_/, "", name); sub(/=.*/, "", name) }
      else sub(/ *=.*/, "", name)
      if (!(name in want) && !req) {
        for (i = 1; i <= n; i++) print para[i]
        n = 0
        return
      }
      print name > names
      for (i = 1; i < at; i++) print para[i]
      if (name in want) {
        v = want[name]
        if (fmt == "env") {
          if (lit && v ~ /^".*"$/) v = substr(v, 2, length(v) - 2)
          gsub(/'\''/, "'\''\\'\'''\''", v)
          print "export TF_VAR_" name "='\''" v "'\''"
        } else {
          print name " = " v
        }
      } else {
        for (i = at; i <= n; i++) {
          line = para[i]; sub(/^# ?/, "", line); print line
        }
      }
      n = 0
    }
    /^$/ { flush(); print; next }
    { para[++n] = $0 }
    END { flush() }
  '
}

# The json template $1 with the variables named in $2 set to the values
# of the `show -json` output $3; to stdout.  Numbers stay exact.
fill_json() {
  python3 - "$1" "$2" "$3" <<'EOF'
import decimal, json, sys
tpl, names, shown = sys.argv[1:4]
vals = json.load(open(shown), parse_float=decimal.Decimal)["variables"]
doc = json.load(open(tpl), parse_float=decimal.Decimal)
for n in open(names).read().split():
    doc[n] = vals[n]["value"]
def dump(v, ind):
    pad = " " * (ind + 2)
    if isinstance(v, decimal.Decimal):
        return str(v)
    if isinstance(v, list) and v:
        return "[\n" + ",\n".join(pad + dump(x, ind + 2) for x in v) + \
               "\n" + " " * ind + "]"
    if isinstance(v, dict) and v:
        return "{\n" + ",\n".join(pad + json.dumps(k) + ": " + dump(x, ind + 2)
                                  for k, x in v.items()) + "\n" + " " * ind + "}"
    return json.dumps(v)
print(dump(doc, 0))
EOF
}

# One module in one format: $1 label, $2 module dir (a copy), $3 source
# dir, $4 format, $5 values file, $6 engine flag (or empty).
one() {
  label="$1" mod="$2" src="$3" fmt="$4" vals="$5" engine="$6"
  w="$tmp/work"; rm -rf "$w"; mkdir "$w"
  if ! "$tool" init -format="$fmt" $engine "$src" >"$w/tpl" 2>"$w/err"; then
    echo "FAIL $label [$fmt]: init failed"; sed 's/^/    /' "$w/err" | head -20
    failed=$((failed + 1)); return
  fi
  ext=$fmt; [ "$fmt" = json ] && ext=tfvars.json; [ "$fmt" = env ] && ext=sh
  cp "$w/tpl" "$w/template.$ext"
  # the tfvars form tells which variables are required, for all formats
  "$tool" init $engine "$src" 2>/dev/null | fill tfvars "$vals" "$w/names" \
    >"$w/filled.tfvars"
  nreq=$(grep -c '^# REQUIRED: uncomment and set a value$' "$w/filled.tfvars")
  case "$fmt" in
    tfvars) ;;
    env) fill env "$vals" "$w/names.env" <"$w/tpl" >"$w/filled.$ext" ;;
    json)
      "$tool" show -json -no-env -show-sensitive $engine \
        -var-file="$w/filled.tfvars" "$mod" >"$w/shown.json" 2>/dev/null
      if ! fill_json "$w/tpl" "$w/names" "$w/shown.json" \
           >"$w/filled.$ext" 2>"$w/err"; then
        echo "FAIL $label [$fmt]: could not fill in the json template"
        sed 's/^/    /' "$w/err" | tail -5
        failed=$((failed + 1)); return
      fi ;;
  esac
  # check with a template: $1 the file; output in $w/out, status returned
  run_check() {
    if [ "$fmt" = env ]; then
      env -i PATH="$PATH" sh -c '. "$1" && exec "$2" check -no-color $4 "$3"' \
        sh "$1" "$tool" "$mod" "$engine" >"$w/out" 2>&1
    else
      "$tool" check -no-env -no-color $engine -var-file="$1" "$mod" \
        >"$w/out" 2>&1
    fi
  }
  # errors of the configuration alone, which no value can mend
  undeclared_refs() {
    grep -q 'Error: ' "$w/out" &&
      ! grep 'Error: ' "$w/out" |
        grep -Evq 'Error: (Reference to undeclared |Invalid reference$)'
  }
  run_check "$w/template.$ext"; rc=$?
  if [ $rc -ne 0 ] && undeclared_refs; then
    echo "SKIP $label [$fmt]: $(grep -m1 -o 'Reference to undeclared [a-z ]*' "$w/out")" \
         "in a validation rule: no value passes"
    return
  fi
  if [ "$nreq" -gt 0 ]; then
    if [ $rc -ne 1 ] || ! grep -q 'No value for required variable' "$w/out"; then
      echo "FAIL $label [$fmt]: the unfilled template (with $nreq required" \
           "variables) did not fail with \"No value for required variable\" (exit $rc)"
      sed 's/^/    /' "$w/out" | head -20
      failed=$((failed + 1)); return
    fi
  elif [ $rc -ne 0 ] && [ ! -s "$w/names" ]; then
    # (with values to replace, the defaults are the case's problem)
    echo "FAIL $label [$fmt]: check of the template (nothing required): exit $rc"
    sed 's/^/    /' "$w/out" | head -30
    failed=$((failed + 1)); return
  fi
  run_check "$w/filled.$ext"; rc=$?
  if [ $rc -ne 0 ] && undeclared_refs; then
    echo "SKIP $label [$fmt]: $(grep -m1 -o 'Reference to undeclared [a-z ]*' "$w/out")" \
         "in a validation rule: no value passes"
    return
  fi
  if [ $rc -ne 0 ]; then
    echo "FAIL $label [$fmt]: check of the filled template: exit $rc"
    sed 's/^/    /' "$w/out" | head -30
    echo "    --- filled template:"; sed 's/^/    /' "$w/filled.$ext" | head -60
    failed=$((failed + 1)); return
  fi
  echo "PASS $label [$fmt]: $nreq required filled in, check passes"
  passed=$((passed + 1))
}

# ---- the command line: -out, -force, -chdir -------------------------------
# One check: $1 label, $2 1 if it holds.
expect() {
  if [ "$2" = 1 ]; then
    echo "PASS cli: $1"; passed=$((passed + 1))
  else
    echo "FAIL cli: $1"; failed=$((failed + 1))
  fi
}
cli="$tmp/cli"; mkdir "$cli"
demo="$fixtures/demo"
"$tool" init "$demo" >"$cli/stdout.tfvars" 2>/dev/null
"$tool" init -out="$cli/new.tfvars" "$demo" >"$cli/msg" 2>&1; rc=$?
expect "-out writes a new file with what stdout gets" \
  "$([ $rc -eq 0 ] && cmp -s "$cli/new.tfvars" "$cli/stdout.tfvars" &&
     grep -q '^Wrote .*new.tfvars: 12 variables, 2 required' "$cli/msg" && echo 1)"
echo 'keep = "me"' >"$cli/mine.tfvars"
"$tool" init -out="$cli/mine.tfvars" "$demo" >"$cli/msg" 2>&1; rc=$?
expect "-out refuses an existing file (exit 2) and leaves it alone" \
  "$([ $rc -eq 2 ] && grep -q 'already exists.*-force' "$cli/msg" &&
     [ "$(cat "$cli/mine.tfvars")" = 'keep = "me"' ] && echo 1)"
ln -s "$cli/nowhere" "$cli/dangling.tfvars"
"$tool" init -out="$cli/dangling.tfvars" "$demo" >/dev/null 2>&1; rc=$?
expect "-out refuses a dangling symbolic link" \
  "$([ $rc -eq 2 ] && [ ! -e "$cli/nowhere" ] && echo 1)"
"$tool" init -force -out="$cli/mine.tfvars" "$demo" >/dev/null 2>&1; rc=$?
expect "-out -force replaces an existing file" \
  "$([ $rc -eq 0 ] && cmp -s "$cli/mine.tfvars" "$cli/stdout.tfvars" && echo 1)"
"$tool" init -out="$cli/t.tfvars.json" "$demo" >/dev/null 2>&1; rc=$?
expect "-out=*.json writes JSON unless -format says otherwise" \
  "$([ $rc -eq 0 ] && [ "$(head -c 1 "$cli/t.tfvars.json")" = '{' ] && echo 1)"
mkdir "$cli/broken"; printf 'variable "x" {\n  type = strin\n}\n' >"$cli/broken/main.tf"
"$tool" init -no-color -out="$cli/b.tfvars" "$cli/broken" >"$cli/msg" 2>&1; rc=$?
expect "a module that does not load: its errors, exit 1, no file" \
  "$([ $rc -eq 1 ] && [ ! -e "$cli/b.tfvars" ] &&
     grep -q 'Error: Invalid type specification' "$cli/msg" && echo 1)"
mkdir "$cli/mod"; cp "$demo"/*.tf "$cli/mod"/
"$tool" init -chdir="$cli/mod" -out=here.tfvars >/dev/null 2>&1; rc=$?
expect "-chdir: the module and a relative -out are in DIR" \
  "$([ $rc -eq 0 ] && cmp -s "$cli/mod/here.tfvars" "$cli/stdout.tfvars" && echo 1)"
"$tool" init "$cli/no-such-dir" >/dev/null 2>&1; rc=$?
expect "a directory that does not exist: exit 2" "$([ $rc -eq 2 ] && echo 1)"
"$tool" init -format=yaml "$demo" >/dev/null 2>&1; rc=$?
expect "an unknown format: exit 2" "$([ $rc -eq 2 ] && echo 1)"

# ---- every module, every format ------------------------------------------
for dir in "$fixtures/demo" "$fixtures/console" "$fixtures/demo-broken" \
           "$fixtures"/cases/*/; do
  dir=${dir%/}
  [ -d "$dir" ] || continue
  name=${dir##*/}
  label=${dir#"$fixtures"/}
  if why=$(skip_reason "$name"); then
    echo "SKIP $label: $why"; continue
  fi
  engine=
  [ -f "$dir/args" ] && grep -qx -- '-engine=opentofu' "$dir/args" &&
    engine=-engine=opentofu
  if ! "$tool" init -no-color $engine "$dir" >/dev/null 2>"$tmp/load"; then
    first=$(grep -m1 -E '(Error|init):' "$tmp/load" | sed 's/^[^A-Za-z]*//')
    erc=0; [ -f "$dir/expected.rc" ] && erc=$(cat "$dir/expected.rc")
    case "$first" in
      *"No configuration files"*)
        echo "SKIP $label: no module in this directory"; continue ;;
    esac
    if [ "$erc" != 0 ]; then
      echo "SKIP $label: meant to fail at load time ($first)"; continue
    fi
    echo "FAIL $label: init cannot load a module its golden case accepts: $first"
    failed=$((failed + 1)); continue
  fi
  mod="$tmp/mod"; rm -rf "$mod"; mkdir "$mod"
  cp -R "$dir"/. "$mod"/ 2>/dev/null
  rm -f "$mod"/*.tfvars "$mod"/*.tfvars.json "$mod"/args "$mod"/env \
        "$mod"/expected.*
  vals="$values/$name.tfvars"; [ -f "$vals" ] || vals=/dev/null
  for fmt in tfvars json env; do
    one "$label" "$mod" "$dir" "$fmt" "$vals" "$engine"
  done
done
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
