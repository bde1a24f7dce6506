#!/bin/sh
# The project's version, as meson.build declares it (project(... version :
# 'X.Y.Z')): what the release scripts name their archives and packages by.
#
#   scripts/release/version.sh [SOURCE_ROOT]
sed -n "s/^ *version *: *'\([^']*\)'.*/\1/p" "${1:-.}/meson.build" | head -n 1
