#!/bin/sh
# make release-check, the portable build: clang with -Wpedantic (warnings
# are errors: meson.build's werror), which flags the GNU extensions of C,
# and the project's -D_POSIX_C_SOURCE=200809L, which hides every call
# beyond POSIX.1-2008 from the C library's headers; tests/portable.py then
# checks that no file but src/base/compat.c asks for more (a feature-test
# macro, an unguarded attribute, a known glibc-only call).
set -e
cd "$(dirname "$0")/../.."
b=build-portable
if [ ! -f "$b/build.ninja" ]; then
  CC=clang CXX=clang++ meson setup "$b" -Dtests=disabled -Dbuildtype=release \
    -Dc_args=-Wpedantic -Dcpp_args=-Wpedantic >"$b.setup.log" 2>&1 ||
    { cat "$b.setup.log" >&2; exit 1; }
  rm -f "$b.setup.log"
fi
ninja -C "$b" >"$b/portable.log" 2>&1 ||
  { tail -40 "$b/portable.log" >&2; exit 1; }
echo "portable: clang -Wpedantic build without warnings"
python3 tests/portable.py .
