#!/bin/sh
# Install those of the Debian packages named as arguments that are missing
# (make deps).  Two clones set up at the same time: the second waits for
# the first (a lock file) and then finds nothing missing; an apt-get of
# someone else's is waited for too (its lock, up to 10 minutes).
set -e
# Off Debian (no dpkg, or no apt-get): say what to install, by pkg-config
# name ($PC_MODULES), rather than fail in apt.
if ! command -v dpkg >/dev/null 2>&1 || ! command -v apt-get >/dev/null 2>&1; then
  need=""
  for m in $PC_MODULES; do
    pkg-config --exists "$m" 2>/dev/null || need="$need $m"
  done
  for t in cc flex bison meson ninja pkg-config; do
    command -v "$t" >/dev/null 2>&1 || need="$need $t(program)"
  done
  [ -z "$need" ] && exit 0
  echo "tfresolve: not a Debian system, and these are missing:$need" >&2
  echo "Install them with your package manager (the development packages" >&2
  echo "of those pkg-config modules), then run make again; or run" >&2
  echo "make NODEPS=1 to build with what is there." >&2
  exit 1
fi
missing() {
  m=""
  for p in "$@"; do
    dpkg -s "$p" >/dev/null 2>&1 || m="$m $p"
  done
  echo "$m"
}
[ -n "$(missing "$@")" ] || exit 0
SUDO=
[ "$(id -u)" = 0 ] || SUDO=sudo
exec 9>"${TMPDIR:-/tmp}/tfresolve-deps.lock"
flock -w 1200 9
m=$(missing "$@")
[ -n "$m" ] || exit 0
echo "Installing:$m"
# :ARCH packages (make release's arm64 libraries) need the architecture
for p in $m; do
  case $p in
    *:*) a=${p##*:}
         if [ "$a" != "$(dpkg --print-architecture)" ] &&
            ! dpkg --print-foreign-architectures | grep -qx "$a"; then
           $SUDO dpkg --add-architecture "$a"
         fi ;;
  esac
done
err=$(mktemp)
trap 'rm -f "$err"' EXIT
tries=0
until $SUDO apt-get -o DPkg::Lock::Timeout=600 update 2>"$err"; do
  tries=$((tries + 1))
  if ! grep -q 'lock' "$err" || [ "$tries" -ge 60 ]; then
    cat "$err" >&2
    exit 1
  fi
  echo "apt-get update: another apt-get holds its lock; trying again in 10 s" >&2
  sleep 10
done
cat "$err" >&2
# shellcheck disable=SC2086 # one word per package
$SUDO env DEBIAN_FRONTEND=noninteractive \
  apt-get -o DPkg::Lock::Timeout=600 install -y $m
