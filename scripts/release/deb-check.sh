#!/bin/sh
# Install the three Debian packages of scripts/release/deb.sh, try them,
# and remove them again (also when a check fails or the script is
# interrupted): the machine is left as it was found.
#
#   scripts/release/deb-check.sh DISTDIR SRCDIR
#
# DISTDIR: where deb.sh put tfresolve_*.deb, libtfresolve0_*.deb and
# libtfresolve-dev_*.deb (one version of each).  SRCDIR: a tfresolve
# source tree (its fixtures and doc/example.c).  Runs dpkg as root (sudo
# when not root); none of the three packages may be installed already.
# The dependencies of the packages must be installed (debian/control's
# Build-Depends bring them all).  One PASS/FAIL line a check; the last
# line "deb-check: N passed, M failed"; non-zero exit status on a failure.
set -e

if [ $# -ne 2 ]; then
  echo "usage: $0 DISTDIR SRCDIR" >&2
  exit 2
fi
dist=$(cd "$1" && pwd)
srcdir=$(cd "$2" && pwd)
packages="tfresolve libtfresolve-dev libtfresolve0"

SUDO=
if [ "$(id -u)" != 0 ]; then
  SUDO=sudo
fi

pass=0 fail=0
ok() { pass=$((pass + 1)); echo "PASS: $*"; }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
has() { case $out in *"$1"*) ;; *) return 1 ;; esac; }
installed() { # the package is (at least partly) installed
  s=$(dpkg-query -W -f '${db:Status-Status}' "$1" 2>/dev/null) || return 1
  [ -n "$s" ] && [ "$s" != not-installed ] && [ "$s" != config-files ]
}

# The .deb files: exactly one of each package.
debs=""
for p in tfresolve libtfresolve0 libtfresolve-dev; do
  set -- "$dist/${p}"_*.deb
  if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "deb-check: need exactly one ${p}_*.deb in $dist" >&2
    exit 2
  fi
  case $1 in
    *' '*) echo "deb-check: no spaces in DISTDIR please: $dist" >&2; exit 2 ;;
  esac
  debs="$debs $1"
done
for p in $packages; do
  if installed "$p"; then
    echo "deb-check: $p is installed already; not touching this machine" >&2
    exit 2
  fi
done

tmp=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-deb-check.XXXXXX")
touched=no
cleanup() {
  if [ "$touched" = yes ]; then
    # shellcheck disable=SC2086 # $packages: words
    $SUDO dpkg -P $packages >"$tmp/purge.log" 2>&1 ||
      { echo "deb-check: dpkg -P failed:" >&2; cat "$tmp/purge.log" >&2; }
  fi
  rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM HUP

# Installation.
touched=yes
# shellcheck disable=SC2086 # $debs: the three file names
if $SUDO dpkg -i $debs >"$tmp/install.log" 2>&1; then
  ok "dpkg -i$debs"
else
  ko "dpkg -i (are the packages' dependencies installed?)"
  cat "$tmp/install.log"
fi
for p in $packages; do
  s=$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null || true)
  if [ "$s" = "install ok installed" ]; then
    ok "$p: $s"
  else
    ko "$p: '$s'"
  fi
done

# The CLI, in an environment of its own (none of the caller's TF_VAR_*).
demo=$srcdir/fixtures/demo
tfr() { env -i PATH=/usr/bin:/bin LANG=C.UTF-8 "$@"; }
want=$(dpkg-deb -f "$dist"/tfresolve_*.deb Version)
want=${want%-*}
v=$(tfr /usr/bin/tfresolve -version 2>&1 || true)
case $v in
  "tfresolve $want"*) ok "tfresolve -version: tfresolve $want" ;;
  *) ko "tfresolve -version: $v" ;;
esac
# the commit built and the libraries inside (tests/version.py)
if python3 "$srcdir/tests/version.py" /usr/bin/tfresolve "$srcdir" "$want" \
     >"$tmp/version.log" 2>&1; then
  ok "tfresolve -version: commit and libraries"
else
  ko "tfresolve -version: $(grep FAIL "$tmp/version.log" | head -3)"
fi
if out=$(tfr TF_VAR_db_password=x /usr/bin/tfresolve -chdir="$demo" check \
           -no-color 2>&1); then
  ok "TF_VAR_db_password=x tfresolve -chdir=fixtures/demo check: exit 0"
else
  ko "TF_VAR_db_password=x tfresolve -chdir=fixtures/demo check: $out"
fi
status=0
out=$(tfr /usr/bin/tfresolve -chdir="$demo" check -no-color 2>&1) || status=$?
case $status:$out in
  1:*'No value for required variable'*'db_password'*)
    ok "tfresolve -chdir=fixtures/demo check without db_password: exit 1" ;;
  *) ko "tfresolve check without db_password: exit $status: $out" ;;
esac

# Man page and completions.
man1=/usr/share/man/man1/tfresolve.1.gz
if [ -f "$man1" ]; then
  ok "$man1"
  if command -v man >/dev/null 2>&1; then
    w=$(man -w tfresolve 2>&1 || true)
    if [ "$w" = "$man1" ]; then ok "man -w tfresolve: $w"; else ko "man -w tfresolve: $w"; fi
  else
    echo "SKIP: man -w tfresolve (no man-db)"
  fi
elif grep -qs '^path-exclude=*/usr/share/man' /etc/dpkg/dpkg.cfg.d/*; then
  echo "SKIP: $man1 (dpkg excludes /usr/share/man here)"
else
  ko "not installed: $man1"
fi
bash_comp=/usr/share/bash-completion/completions/tfresolve
if [ -f "$bash_comp" ] &&
   bash --norc --noprofile -c ". '$bash_comp' && complete -p tfresolve" \
     >/dev/null 2>&1; then
  ok "$bash_comp loads"
else
  ko "$bash_comp: missing or does not load"
fi
zsh_comp=/usr/share/zsh/vendor-completions/_tfresolve
if [ -f "$zsh_comp" ]; then ok "$zsh_comp"; else ko "not installed: $zsh_comp"; fi

# The library: a program built with the installed pkg-config file.
pc=$(dpkg-query -L libtfresolve-dev | grep '/tfresolve\.pc$' || true)
if flags=$(pkg-config --cflags --libs tfresolve 2>"$tmp/pc.log") &&
   [ "$(pkg-config --variable=pcfiledir tfresolve)/tfresolve.pc" = "$pc" ]; then
  ok "pkg-config --cflags --libs tfresolve: $flags"
else
  ko "pkg-config --cflags --libs tfresolve (the packaged $pc): $(cat "$tmp/pc.log")"
fi
# shellcheck disable=SC2086 # $flags: words
if cc -std=c11 -Wall -Werror -o "$tmp/example" "$srcdir/doc/example.c" \
     $flags >"$tmp/cc.log" 2>&1; then
  ok "cc -std=c11 doc/example.c \$(pkg-config --cflags --libs tfresolve)"
  lib=$(tfr ldd "$tmp/example" | sed -n 's/.*libtfresolve\.so\.0 => \([^ ]*\).*/\1/p')
  if [ -n "$lib" ] &&
     dpkg-query -S "$(readlink -f "$lib")" 2>/dev/null | grep -q '^libtfresolve0:'; then
    ok "example links $lib (libtfresolve0)"
  else
    ko "example's libtfresolve.so.0: '$lib', not libtfresolve0's"
  fi
  # fixtures/demo: a required variable (db_password) has no value.
  status=0
  out=$(tfr "$tmp/example" "$demo" 2>&1) || status=$?
  # (its stdout and the diagnostics on stderr come in either order)
  if [ "$status" = 1 ] &&
     has "libtfresolve $want (compiled against $want)" &&
     has 'db_password: (not resolved)' &&
     has 'No value for required variable' &&
     has 'variable "db_password"'; then
    ok "example fixtures/demo: exit 1, db_password not set"
  else
    ko "example fixtures/demo: exit $status: $out"
  fi
  # fixtures/example: every variable resolved.
  status=0
  out=$(tfr "$tmp/example" "$srcdir/fixtures/example" 2>&1) || status=$?
  case $status:$out in
    0:*'instance_count = 3 (the number 3)'*'region = "us-east-1"'*'0 bytes of diagnostics'*)
      ok "example fixtures/example: exit 0" ;;
    *) ko "example fixtures/example: exit $status: $out" ;;
  esac
else
  ko "cc doc/example.c: $(cat "$tmp/cc.log")"
fi

# Removal: nothing of the three is left.
touched=no
# shellcheck disable=SC2086 # $packages: words
if $SUDO dpkg -P $packages >"$tmp/purge.log" 2>&1; then
  ok "dpkg -P $packages"
else
  ko "dpkg -P $packages"
  cat "$tmp/purge.log"
fi
for p in $packages; do
  if installed "$p"; then ko "$p still installed"; else ok "$p removed"; fi
done
for f in /usr/bin/tfresolve "$man1" "$bash_comp" "$zsh_comp" "$pc"; do
  if [ -e "$f" ]; then ko "left behind: $f"; fi
done

echo "deb-check: $pass passed, $fail failed"
[ "$fail" = 0 ]
