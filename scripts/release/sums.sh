#!/bin/sh
# DISTDIR/SHA256SUMS: the checksum of every archive and package in
# DISTDIR, in sha256sum's format (sha256sum -c SHA256SUMS verifies).
set -e
cd "${1:?usage: sums.sh DISTDIR}"
rm -f SHA256SUMS
set -- *.tar.gz *.deb
files=
for f in "$@"; do
  [ -f "$f" ] && files="$files $f"
done
[ -n "$files" ] || { echo "sums.sh: nothing to sum in $(pwd)" >&2; exit 1; }
# shellcheck disable=SC2086 # file names without blanks, ours
sha256sum $files >SHA256SUMS
echo "release: $(pwd)/SHA256SUMS"
