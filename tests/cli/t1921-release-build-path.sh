#!/bin/sh
# t1921-release-build-path: the programs hold neither the source nor the
# build directory (configure maps both to '.' with -ffile-prefix-map, and
# kbench finds its source tree through the Makefile beside it), so that
# two builds of the same sources in two directories are the same bytes
# (.ci/deb builds the package twice and compares); kbench run from its
# build tree still finds the shipped configs there.
# Covers: cli/setup.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

builddir=$(cd "$(dirname "$KBENCH")" && pwd)
srcdir=$(cd "$TOP_SRCDIR" && pwd)
if ! grep -q '^KB_PREFIX_MAP_CFLAGS = -ffile-prefix-map' "$builddir/Makefile" 2>/dev/null; then
	skip "the compiler has no -ffile-prefix-map"
	done_testing
	exit
fi
for p in kbench kbench-sample; do
	is "$p holds no build or source directory" \
		"$(grep -c -a -F -e "$builddir" -e "$srcdir" "$builddir/$p")" 0
done
check "kbench from its build tree finds the shipped configs" "$KBENCH" configs
is "... quick among them" "$(grep -c '^quick ' "$tmp/check.out")" 1

done_testing
