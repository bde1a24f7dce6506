#!/bin/sh
# make release-check: README's "Building from source" and "Installing"
# recipes, run line by line as written (sudo dropped when root; `meson
# install` into a scratch DESTDIR, ldconfig skipped), in a copy of the
# tracked files, with pkg-config unable to find cmocka: a release build
# must need no test library.  Last line: "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT

# the indented block after a heading (continued lines joined)
block() {
  awk -v h="$1" '
    $0 == h { on = 1; next }
    on && /^### / { exit }
    on && /^    / { sub(/^    /, ""); print; seen = 1; next }
    on && seen && !/^    / && $0 != "" { exit }
  ' README.md | sed -e ':a' -e '/\\$/N; s/\\\n//; ta'
}
block "### Building from source" >"$tmp/build.txt"
block "### Installing" >"$tmp/install.txt"
for f in build install; do
  if grep -q "meson setup" "$tmp/$f.txt"; then ok "README's $f recipe found"
  else ko "README has no $f recipe (### heading, indented block)"; fi
done

# the tracked files, as a clean clone has them
src=$tmp/src
mkdir "$src"
git ls-files -z | xargs -0 sh -c 'for f; do
    if [ -e "$f" ] || [ -L "$f" ]; then printf "%s\0" "$f"; fi
  done' sh | tar -cf - --null --no-recursion -T - | tar -xf - -C "$src"

# every pkg-config module but cmocka
pc=$tmp/pc
mkdir "$pc"
for d in $(pkg-config --variable pc_path pkg-config | tr : ' '); do
  [ -d "$d" ] || continue
  for f in "$d"/*.pc; do
    [ -e "$f" ] && [ ! -e "$pc/${f##*/}" ] && ln -s "$f" "$pc/"
  done
done
rm -f "$pc/cmocka.pc"

run() { # a recipe, line by line
  while IFS= read -r line; do
    [ -n "$line" ] || continue
    if [ "$(id -u)" = 0 ]; then line=$(printf '%s' "$line" | sed 's/sudo //g'); fi
    line=$(printf '%s' "$line" | sed 's/ *&& *\(sudo \)*ldconfig//')
    echo "+ $line"
    (cd "$src" && PKG_CONFIG_LIBDIR=$pc DESTDIR=$tmp/dest \
       DEBIAN_FRONTEND=noninteractive sh -c "$line") >"$tmp/log" 2>&1 ||
      { ko "$1: $line"; tail -20 "$tmp/log"; return 1; }
  done <"$tmp/$1.txt"
  ok "README's $1 recipe ran"
}
if run build; then
  if "$src/build/tfresolve" -version | head -1 | grep -q '^tfresolve '; then
    ok "the recipe's build/tfresolve runs"
  else ko "the recipe's build/tfresolve does not run"; fi
  if grep -q "cmocka.*skipped\|Dependency cmocka skipped" \
       "$src/build/meson-logs/meson-log.txt"; then
    ok "the release build did not look for cmocka"
  else ko "the release build looked for cmocka"; fi
fi
rm -rf "$src/build"
if run install; then
  for f in usr/local/bin/tfresolve usr/local/include/tfresolve/tfresolve.h \
           usr/local/share/man/man1/tfresolve.1; do
    if [ -e "$tmp/dest/$f" ]; then ok "installed /$f"; else ko "no /$f"; fi
  done
fi
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
