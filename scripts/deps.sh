#!/bin/sh
# Install those of the Debian packages named as arguments that are missing
# (make deps).  Two clones set up at the same time: the second waits for
# the first (a lock file) and then finds nothing missing; an apt-get of
# someone else's is waited for too (its lock, up to 10 minutes).
set -e
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
