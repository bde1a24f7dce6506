#!/bin/sh
# The build context of the Dockerfile, from a release's dist/ directory:
#
#   image-context.sh DISTDIR CONTEXTDIR
#
# verifies each dist/tfresolve-VERSION-linux-ARCH.tar.gz against
# dist/SHA256SUMS and writes CONTEXTDIR/tfresolve-linux-ARCH (mode 0755)
# for amd64 and arm64, and CONTEXTDIR/LICENSE.  Prints the version.
# Exit status 1 when a tarball is missing or does not match its checksum.
set -eu
if [ $# -ne 2 ]; then
  echo "usage: image-context.sh DISTDIR CONTEXTDIR" >&2
  exit 2
fi
dist=$1 ctx=$2
mkdir -p "$ctx"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-ctx.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
version=
for arch in amd64 arm64; do
  set -- "$dist"/tfresolve-*-linux-"$arch".tar.gz
  if [ $# -ne 1 ] || [ ! -f "$1" ]; then
    echo "image-context: want one tfresolve-VERSION-linux-$arch.tar.gz in $dist" >&2
    exit 1
  fi
  tarball=${1##*/}
  base=${tarball%.tar.gz}
  v=${base#tfresolve-}
  v=${v%-linux-"$arch"}
  if [ -n "$version" ] && [ "$v" != "$version" ]; then
    echo "image-context: $tarball: version $v, not $version" >&2
    exit 1
  fi
  version=$v
  want=$(awk -v f="$tarball" '$2 == f || $2 == "*" f { print $1 }' "$dist/SHA256SUMS")
  have=$(sha256sum "$dist/$tarball" | awk '{ print $1 }')
  if [ -z "$want" ] || [ "$want" != "$have" ]; then
    echo "image-context: $tarball: checksum ${want:-missing from SHA256SUMS} != $have" >&2
    exit 1
  fi
  tar -xzf "$dist/$tarball" -C "$tmp"
  install -m 0755 "$tmp/$base/tfresolve" "$ctx/tfresolve-linux-$arch"
  install -m 0644 "$tmp/$base/LICENSE" "$ctx/LICENSE"
done
echo "$version"
