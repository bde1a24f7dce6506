#!/bin/sh
# make release-check, the static binaries: what a user downloads works
# with nothing else on the machine.
#
#   scripts/release/check-binaries.sh DISTDIR [ARCH...]
#
# For each archive: its checksum in SHA256SUMS, its contents; a static
# executable for the right machine (file, readelf: no interpreter, no
# NEEDED, stripped), hardened (static-PIE, full RELRO with BIND_NOW, and
# in the build's own objects the stack protector and fortified calls);
# -version (tests/version.py:
# this tree's version and commit, every library named with a version);
# the functions of each library inside and `check` in every format.
# amd64 runs in an otherwise empty root directory (chroot: no libraries,
# no /etc, no /tmp, no /dev), arm64 under qemu-user.  Then the golden
# cases, eval and parse tests of the suite against the binary
# (tests/run_golden.c, compiled here), and for amd64 the largest inputs
# under `ulimit -v` (tests/ulimit_oom.py: out of memory is a message, never
# a signal).  Last line: "N passed, M failed".
set -u
cd "$(dirname "$0")/../.."
src=$(pwd)
dist=$(cd "${1:?usage: check-binaries.sh DISTDIR [ARCH...]}" && pwd)
shift
[ $# -gt 0 ] || set -- amd64 arm64
version=$(sh scripts/release/version.sh)
pass=0 fail=0
ok() { pass=$((pass + 1)); }
ko() { fail=$((fail + 1)); echo "FAIL: $*"; }
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
# chroot needs root: user namespaces stand in elsewhere
# (absolute paths: the commands run under env -i)
PATH=$PATH:/usr/sbin:/sbin
chroot=$(command -v chroot)
[ "$(id -u)" = 0 ] || chroot="$(command -v unshare) -r $chroot"
qemu=$(command -v qemu-aarch64)

cc -std=c11 -O2 -D_POSIX_C_SOURCE=200809L -o "$tmp/run_golden" \
  tests/run_golden.c || { echo "FAIL: cannot build run_golden"; exit 1; }

if (cd "$dist" && sha256sum --quiet -c SHA256SUMS); then ok; else
  ko "SHA256SUMS does not verify"
fi

# expect STATUS OUT_PATTERN CMD...: CMD exits STATUS and its output
# (stdout and stderr) contains OUT_PATTERN (a grep -F string)
expect() {
  want=$1 pat=$2
  shift 2
  "$@" >"$tmp/out" 2>&1
  st=$?
  if [ "$st" = "$want" ] && grep -qF -- "$pat" "$tmp/out"; then ok; else
    ko "$* -> exit $st (want $want), output:"
    sed 's/^/    /' "$tmp/out" | head -20
  fi
}

# hardening ARCH BIN: a position-independent executable, its relocations
# read-only after start (GNU_RELRO, BIND_NOW); the objects of the library
# built for it (build-static-ARCH, unstripped) call the stack protector
# and glibc's fortified functions (the binary itself is stripped, and
# glibc's own objects would call them anyway).
hardening() {
  if readelf -hW "$2" | grep -q 'Type:.*DYN'; then ok; else
    ko "$1: not position-independent"; fi
  if readelf -lW "$2" | grep -q 'GNU_RELRO'; then ok; else
    ko "$1: no RELRO segment"; fi
  if readelf -dW "$2" | grep -q 'BIND_NOW'; then ok; else
    ko "$1: no BIND_NOW"; fi
  case $1 in arm64) nm=aarch64-linux-gnu-nm ;; *) nm=nm ;; esac
  lib=build-static-$1/libtfresolve.a
  ssp=$("$nm" -A "$lib" 2>/dev/null | grep -c ' U __stack_chk_fail$')
  chk=$("$nm" -A "$lib" 2>/dev/null | grep -cE ' U __[a-z_]+_chk$')
  if [ "$ssp" -ge 20 ]; then ok; else
    ko "$1: $ssp objects of $lib use the stack protector"; fi
  if [ "$chk" -ge 10 ]; then ok; else
    ko "$1: $chk fortified calls in $lib"; fi
}

for arch in "$@"; do
  name=tfresolve-$version-linux-$arch
  tgz=$dist/$name.tar.gz
  if [ ! -f "$tgz" ]; then ko "$tgz missing"; continue; fi
  grep -q " $name.tar.gz\$" "$dist/SHA256SUMS" && ok ||
    ko "$name.tar.gz not in SHA256SUMS"
  mkdir -p "$tmp/$arch"
  tar -C "$tmp/$arch" -xzf "$tgz"
  (cd "$tmp/$arch" && find . -type f | sort) >"$tmp/files"
  printf '%s\n' "./$name/LICENSE" "./$name/README.md" \
    "./$name/completions/_tfresolve" "./$name/completions/tfresolve.bash" \
    "./$name/tfresolve" "./$name/tfresolve.1" >"$tmp/want"
  if cmp -s "$tmp/files" "$tmp/want"; then ok; else
    ko "$name.tar.gz holds:"; cat "$tmp/files"
  fi
  bin=$tmp/$arch/$name/tfresolve
  case $arch in
    amd64) machine=x86-64 ;;
    arm64) machine=aarch64 ;;
  esac
  info=$(file -b "$bin")
  case $info in
    *"$machine"*"static-pie linked"*stripped*)
      case $info in *"not stripped"*) ko "$arch: $info" ;; *) ok ;; esac ;;
    *) ko "$arch: file says: $info" ;;
  esac
  if readelf -lW "$bin" | grep -q 'program interpreter'; then
    ko "$arch: an interpreter"
  else ok; fi
  if readelf -dW "$bin" | grep -q 'NEEDED'; then
    ko "$arch: NEEDED entries"; readelf -dW "$bin"
  else ok; fi
  hardening "$arch" "$bin"

  # how to run it: amd64 alone in a root of its own, arm64 under qemu
  if [ "$arch" = amd64 ]; then
    root=$tmp/root
    mkdir -p "$root/src"
    cp "$bin" "$root/tfresolve"
    cp -R fixtures/demo fixtures/recursive fixtures/console "$root/src/"
    run="$chroot $root /tfresolve"
    at=/src
  else
    run="$qemu $bin"
    at=$src/fixtures
  fi
  # shellcheck disable=SC2086 # $run is a command line
  if python3 tests/version.py "$run" "$src" "$version" >"$tmp/v" 2>&1; then
    ok
  else
    ko "$arch: -version"; cat "$tmp/v"
  fi
  # each library inside, through a function that uses it
  while IFS='|' read -r expr want; do
    # shellcheck disable=SC2086
    expect 0 "$want" env -i $run eval -functions "$expr"
  done <<'END'
regex("[a-z]+", "abc123")|"abc"
yamldecode("a: [1, 2]")["a"][1]|2
sha256("x")|"2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"
base64gzip("hello")|"H4sIAAAAAAAA/8pIzcnJBwAAAP//AQAA//+GphA2BQAAAA=="
length(bcrypt("pw", 4))|60
1/3 * 3 == 1|true
10000000000000000000000000000001 + 1|10000000000000000000000000000002
upper("straße")|"STRAßE"
length(uuid())|36
cidrsubnet("10.0.0.0/8", 8, 2)|"10.2.0.0/16"
formatdate("YYYY", "2024-01-01T00:00:00Z")|"2024"
END
  # shellcheck disable=SC2086
  expect 1 "No value for required variable" env -i $run -chdir=$at/demo check
  # shellcheck disable=SC2086
  expect 0 "" env -i TF_VAR_db_password=x $run -chdir=$at/demo check
  for f in json sarif github junit; do
    # shellcheck disable=SC2086
    expect 1 "db_password" env -i $run -chdir=$at/demo check -format=$f
  done
  # shellcheck disable=SC2086
  env -i $run -chdir=$at/demo check -format=sarif >"$tmp/sarif" 2>/dev/null
  if python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); assert d["version"]=="2.1.0" and d["runs"][0]["results"]' "$tmp/sarif"; then
    ok
  else ko "$arch: check -format=sarif is not a SARIF log with results"; fi
  # shellcheck disable=SC2086
  expect 1 "" env -i $run -chdir=$at/recursive check -recursive .
  # shellcheck disable=SC2086
  expect 0 "eu-west-1a" sh -c "printf 'local.azs\n' | env -i $run -chdir=$at/console console"

  # the suite's golden cases (a wrapper without PWD: run_golden's
  # environment is PATH and LANG only)
  if [ "$arch" = amd64 ]; then gold=$bin; else
    gold=$tmp/arm64-run
    printf '#!/bin/sh\nunset PWD OLDPWD\nexec %s %s "$@"\n' "$qemu" "$bin" >"$gold"
    chmod +x "$gold"
  fi
  for kind in "cases fixtures/cases" "eval tests/eval/*.test" \
              "parse tests/parse/hcl tests/parse/json"; do
    # shellcheck disable=SC2086 # a glob and words
    if "$tmp/run_golden" "$gold" $kind >"$tmp/g" 2>&1; then ok; else
      ko "$arch: golden $kind:"; grep -A12 '^FAIL' "$tmp/g" | head -40
      tail -1 "$tmp/g"
    fi
  done
  # out of memory is a message, never a signal (amd64 only: qemu-user's
  # own reservations do not fit under the limits)
  if [ "$arch" = amd64 ]; then
    if python3 tests/ulimit_oom.py "$bin" >"$tmp/u" 2>&1; then ok; else
      ko "$arch: under ulimit -v:"; grep '^FAIL' "$tmp/u" | head -20
      tail -1 "$tmp/u"
    fi
  fi
  echo "release: $arch binary checked ($pass passed so far)"
done
echo "$pass passed, $fail failed"
[ "$fail" = 0 ]
