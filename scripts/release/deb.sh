#!/bin/sh
# The Debian packages of tfresolve (debian/): tfresolve (the CLI, its man
# page and completions), libtfresolve0 (the shared library) and
# libtfresolve-dev (headers, pkg-config file), built with
# dpkg-buildpackage and checked with lintian.
#
#   scripts/release/deb.sh DISTDIR
#
# The build runs in a copy of the repository's tracked files (as they are
# in the working tree, uncommitted edits included) in a fresh temporary
# directory: dpkg-buildpackage writes its results into the parent of the
# source tree, and nothing untracked (build/, build-asan/, an earlier
# in-tree package build) reaches the package.  Any lintian error (an E:
# line) fails the script; the three .deb files are copied into DISTDIR.
# Needs, beyond debian/control's Build-Depends: git, dpkg-dev, debhelper,
# lintian.  scripts/release/deb-check.sh installs and tries them.
set -e

if [ $# -ne 1 ]; then
  echo "usage: $0 DISTDIR" >&2
  exit 2
fi
mkdir -p "$1"
dist=$(cd "$1" && pwd)
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"

for t in git dpkg-buildpackage dpkg-parsechangelog dh lintian tar; do
  if ! command -v "$t" >/dev/null 2>&1; then
    echo "deb: $t not found (Debian: apt-get install git dpkg-dev debhelper lintian)" >&2
    exit 2
  fi
done

work=$(mktemp -d "${TMPDIR:-/tmp}/tfresolve-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM HUP

# The source tree: the tracked files that exist in the working tree
# (a tracked file deleted there is left out), symbolic links as links.
version=$(dpkg-parsechangelog -l debian/changelog -S Version)
upstream=${version%-*}
src=$work/tfresolve-$upstream
mkdir "$src"
# shellcheck disable=SC2016 # the inner shell expands $f
git ls-files -z |
  xargs -0 sh -c 'for f; do
      if [ -e "$f" ] || [ -L "$f" ]; then printf "%s\0" "$f"; fi
    done' sh |
  tar -cf - --null --no-recursion -T - | tar -xf - -C "$src"

# The commit -version names (the copy is not a git checkout).
commit=$(git describe --always --dirty --abbrev=12 --exclude='*' 2>/dev/null ||
         echo unknown)

# The binary packages (no source package, no debug symbol packages).
log=$work/build.log
echo "deb: building tfresolve $version in $src"
if ! (cd "$src" &&
      DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:+$DEB_BUILD_OPTIONS }noddebs" \
      TFR_COMMIT="$commit" \
      dpkg-buildpackage -us -uc -b) >"$log" 2>&1; then
  echo "deb: dpkg-buildpackage failed; the end of its log:" >&2
  tail -n 60 "$log" >&2
  exit 1
fi

arch=$(cd "$src" && dpkg-architecture -qDEB_HOST_ARCH)
changes=$work/tfresolve_${version}_$arch.changes
packages="tfresolve libtfresolve0 libtfresolve-dev"
for p in $packages; do
  if [ ! -f "$work/${p}_${version}_$arch.deb" ]; then
    echo "deb: dpkg-buildpackage made no ${p}_${version}_$arch.deb" >&2
    ls "$work" >&2
    exit 1
  fi
done

# lintian: its report is printed; an error fails the build.
lint=$work/lintian.log
status=0
lintian "$changes" >"$lint" 2>&1 || status=$?
grep -v '^running with root privileges' "$lint" || true
if [ "$status" -gt 1 ]; then
  echo "deb: lintian itself failed (exit status $status)" >&2
  exit 1
fi
errors=$(grep -c '^E: ' "$lint" || true)
warnings=$(grep -c '^W: ' "$lint" || true)
echo "deb: lintian: $errors errors, $warnings warnings"
if [ "$errors" -ne 0 ]; then
  exit 1
fi

for p in $packages; do
  cp "$work/${p}_${version}_$arch.deb" "$dist/"
  echo "deb: $dist/${p}_${version}_$arch.deb"
done
