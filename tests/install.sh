#!/bin/sh
# `meson install` of a build, into a scratch DESTDIR: every file is where
# a package expects it, the installed binary runs, the man page renders
# without warnings, the bash completion loads, and a small C program
# compiles and links against the installed library with the flags of the
# installed pkg-config file.
#
#   tests/install.sh MESON BUILDDIR CC SANITIZE EXAMPLE MODULE
#
# SANITIZE: the build's b_sanitize (a sanitized library needs the same
# -fsanitize flags in the program).  EXAMPLE: the example program of the
# docs (doc/example.c), built and run on the module directory MODULE.
# Last line: "N passed, M failed".
meson=$1 build=$2 cc=$3 san=${4:-none} example=$5 module=$6
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
finish() {
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
  exit
}

tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
dest=$tmp/dest
if "$meson" install -C "$build" --no-rebuild --destdir "$dest" \
     >"$tmp/install.log" 2>&1; then
  ok
else
  ko "meson install"
  cat "$tmp/install.log"
  finish
fi

# the prefix, as installed under DESTDIR
bin=$(find "$dest" -path '*/bin/tfresolve' | head -n 1)
if [ -z "$bin" ]; then
  ko "no bin/tfresolve installed"
  finish
fi
prefix=$(dirname "$(dirname "$bin")")
pc=$(find "$prefix" -name tfresolve.pc | head -n 1)
libdir=$(dirname "$(dirname "$pc")")

for f in bin/tfresolve include/tfresolve/tfresolve.h \
         include/tfresolve/arena.h include/tfresolve/diag.h \
         include/tfresolve/value.h include/tfresolve/export.h \
         include/tfresolve/syntax.h include/tfresolve/resolution.h \
         include/tfresolve/version.h include/tfresolve/tftest.h \
         share/man/man1/tfresolve.1 \
         share/bash-completion/completions/tfresolve \
         share/zsh/site-functions/_tfresolve; do
  if [ -f "$prefix/$f" ]; then ok; else ko "not installed: $f"; fi
done
if [ -n "$pc" ]; then ok; else ko "not installed: tfresolve.pc"; fi
if ls "$libdir"/libtfresolve.* >/dev/null 2>&1; then
  ok
else
  ko "not installed: libtfresolve in $libdir"
fi

# The installed binary runs (the library is found with LD_LIBRARY_PATH:
# under DESTDIR it is not where the binary's run path says).
v=$(LD_LIBRARY_PATH=$libdir "$bin" -version 2>&1)
case $v in
  "tfresolve "[0-9]*) ok ;;
  *) ko "installed tfresolve -version: $v" ;;
esac

# The man page renders without warnings.
if command -v man >/dev/null; then
  w=$(man --warnings -l "$prefix/share/man/man1/tfresolve.1" 2>&1 >/dev/null)
  if [ -z "$w" ]; then ok; else ko "man page warnings: $w"; fi
fi

# The bash completion loads and registers itself.
if command -v bash >/dev/null; then
  if bash --norc --noprofile -c \
       ". '$prefix/share/bash-completion/completions/tfresolve' &&
        complete -p tfresolve" >/dev/null 2>&1; then
    ok
  else
    ko "the installed bash completion does not load"
  fi
fi

# A program against the installed library, with the installed .pc (its
# prefix moved to where DESTDIR put it).
if ! command -v pkg-config >/dev/null || [ -z "$pc" ]; then
  echo "pkg-config or tfresolve.pc missing: program not built"
  finish
fi
static=
ls "$libdir"/libtfresolve.so* >/dev/null 2>&1 || static=--static
flags=$(PKG_CONFIG_PATH=$(dirname "$pc") pkg-config $static \
  --define-variable=prefix="$prefix" --cflags --libs tfresolve) || {
  ko "pkg-config --cflags --libs tfresolve"
  finish
}
case $flags in
  *"-I$prefix/include"*) ok ;;
  *) ko "pkg-config --cflags: $flags" ;;
esac
sanflags=
[ "$san" = none ] || [ -z "$san" ] || sanflags="-fsanitize=$san"
# shellcheck disable=SC2086 # flags are words
if "$cc" -std=c11 -Wall -Werror $sanflags -o "$tmp/prog" "$example" $flags \
     2>"$tmp/cc.log"; then
  ok
else
  ko "compile and link against the installed library: $cc $flags"
  cat "$tmp/cc.log"
  finish
fi
# The CLI itself is a client of the public API: its sources (and the
# language server's, src/lsp/) build against the installed headers and
# library alone (and the build's generated commit.h, -version's commit).
cli_src=$(dirname "$example")/../src/cli
lsp_src=$(dirname "$example")/../src/lsp
# shellcheck disable=SC2086 # flags are words
if "$cc" -std=c11 -D_POSIX_C_SOURCE=200809L -I"$build" \
     -DTFR_LIBEDIT_VERSION='"3.1"' $sanflags -o "$tmp/cli" \
     "$cli_src"/*.c "$lsp_src"/*.c $flags $(pkg-config --cflags --libs jansson) -ledit \
     -lpthread 2>"$tmp/cli.log" &&
   LD_LIBRARY_PATH=$libdir "$tmp/cli" -version >/dev/null 2>&1; then
  ok
else
  ko "the CLI's sources against the installed headers and library"
  head -n 20 "$tmp/cli.log"
fi
out=$(LD_LIBRARY_PATH=$libdir "$tmp/prog" "$module" 2>&1)
case $out in
  *'instance_count = 3 (the number 3)'*'region = "us-east-1"'*'0 bytes of diagnostics'*) ok ;;
  *) ko "the example's output: $out" ;;
esac
finish
