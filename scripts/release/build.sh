#!/bin/sh
# make release: the static release binaries and their archives.
#
#   scripts/release/build.sh DISTDIR [ARCH...]
#
# For each ARCH (default: amd64 arm64) a fully static, stripped
# tfresolve (glibc, and every library of meson.build from its static
# archive: Debian's -dev packages ship them), built in build-static-ARCH
# (arm64 with Debian's cross toolchain and its :arm64 packages, through
# scripts/release/linux-arm64.ini), packed as
# DISTDIR/tfresolve-VERSION-linux-ARCH.tar.gz: one directory holding the
# binary, the man page, the completions, LICENSE and README.md.  The
# archives are reproducible: files in name order, owner 0, every time the
# commit's.  SHA256SUMS (every archive and package in DISTDIR) is written
# by scripts/release/sums.sh.
set -e
cd "$(dirname "$0")/../.."
dist=${1:?usage: build.sh DISTDIR [ARCH...]}
shift
[ $# -gt 0 ] || set -- amd64 arm64
version=$(sh scripts/release/version.sh)
# the commit's time, for the archives (now outside a git checkout)
epoch=$(git log -1 --format=%ct 2>/dev/null || date +%s)
mkdir -p "$dist"
dist=$(cd "$dist" && pwd)

for arch in "$@"; do
  b=build-static-$arch
  case $arch in
    amd64) cross= strip=strip ;;
    arm64) cross=--cross-file=scripts/release/linux-arm64.ini
           strip=aarch64-linux-gnu-strip ;;
    *) echo "build.sh: no release build for $arch (amd64, arm64)" >&2; exit 2 ;;
  esac
  if [ ! -f "$b/build.ninja" ]; then
    # shellcheck disable=SC2086 # $cross is one word or none
    meson setup "$b" $cross -Dtests=disabled -Dbuildtype=release \
      -Ddefault_library=static -Dprefer_static=true -Dstatic=true \
      >"$b.setup.log" 2>&1 || { cat "$b.setup.log" >&2; exit 1; }
    rm -f "$b.setup.log"
  fi
  # glibc's static-linking warnings (getpwnam & co., unused by
  # tfresolve's paths but for ~ in the console) are not failures
  ninja -C "$b" tfresolve >"$b/release.log" 2>&1 ||
    { tail -40 "$b/release.log" >&2; exit 1; }

  name=tfresolve-$version-linux-$arch
  stage=$(mktemp -d)
  mkdir -p "$stage/$name/completions"
  "$strip" -o "$stage/$name/tfresolve" "$b/tfresolve"
  cp doc/tfresolve.1 LICENSE README.md "$stage/$name/"
  cp completions/tfresolve.bash completions/_tfresolve "$stage/$name/completions/"
  chmod 0755 "$stage/$name/tfresolve" "$stage/$name/completions"
  chmod 0644 "$stage/$name/tfresolve.1" "$stage/$name/LICENSE" \
    "$stage/$name/README.md" "$stage/$name/completions/"*
  tar -C "$stage" --sort=name --owner=0 --group=0 --numeric-owner \
    --mtime="@$epoch" -cf - "$name" | gzip -n -9 >"$dist/$name.tar.gz"
  rm -rf "$stage"
  echo "release: $dist/$name.tar.gz"
done
