#!/bin/sh
# t1920-release-files: the release's files agree with each other: the
# version kbench prints is the one debian/changelog and NEWS give; every
# package debian/control builds with is one .ci/install-deps installs;
# the license is the one COPYING holds and the README names. (.ci/deb
# builds, lints, installs and runs the package itself, in CI.)
# Covers: configure.ac Makefile.am
. "$TOP_SRCDIR/tests/cli/lib.sh"

version=$("$KBENCH" --version | sed -n 's/^kbench //p')
is "debian/changelog's latest entry is this version" \
	"$(sed -n '1s/^kbench (\([^)]*\)).*/\1/p' "$TOP_SRCDIR/debian/changelog")" "$version"
is "NEWS has an entry for this version" \
	"$(grep -c "^\* kbench $version\( \|\$\)" "$TOP_SRCDIR/NEWS")" 1

# The Build-Depends field's package names, one a line.
awk '/^Build-Depends:/ { f = 1; sub(/^Build-Depends:/, "") } f && /^[A-Z]/ && !/^Build-Depends:/ { f = 0 }
	f { print }' "$TOP_SRCDIR/debian/control" | tr ',' '\n' |
	sed -e 's/(.*//' -e 's/|.*//' -e 's/[[:space:]]//g' | grep -v '^$' >"$tmp/build-depends"
grep -q '^debhelper-compat$' "$tmp/build-depends"
ok $? "Build-Depends names debhelper-compat"
missing=
while read -r p; do
	[ "$p" = debhelper-compat ] && p=debhelper
	grep -q "\\(^\\|[[:space:]\"]\\)$p\\([[:space:]\"]\\|\$\\)" "$TOP_SRCDIR/.ci/install-deps" ||
		missing="$missing $p"
done <"$tmp/build-depends"
is "every package of Build-Depends is one .ci/install-deps installs" "$missing" ""

head -2 "$TOP_SRCDIR/COPYING" | grep -q 'GNU GENERAL PUBLIC LICENSE' &&
	sed -n 2p "$TOP_SRCDIR/COPYING" | grep -q 'Version 2, June 1991'
ok $? "COPYING is the GPL, version 2"
is "the README names the license by its SPDX identifier" \
	"$(grep -c '^SPDX-License-Identifier: GPL-2.0-only$' "$TOP_SRCDIR/README.md")" 1
grep -q '^License: GPL-2$' "$TOP_SRCDIR/debian/copyright" &&
	grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' \
		"$TOP_SRCDIR/debian/copyright"
ok $? "debian/copyright is DEP-5 and says GPL-2"

# make check-fast: the suite but the QEMU guests and kernel builds
# (tests/cli/t15xx; the unit tests of t15xx stay) and SLOW_TESTS (t0001
# among them); tests/README says what each part takes.
builddir=$(dirname "$KBENCH")
if command -v make >/dev/null && [ -f "$builddir/Makefile" ]; then
	is "make check-fast leaves out tests/cli/t15xx and SLOW_TESTS only" \
		"$(t='tests/cli/t1500-vm-run.sh tests/cli/t1545-build-edges.sh tests/cli/t0001-rooms.sh'
		env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n -C "$builddir" check-fast \
			TESTS="$t tests/unit/t1510-vm-wire tests/cli/t0002-covers.sh" 2>/dev/null | sed -n "s/^list='\([^']*\.log\)';.*/\1/p" | sed -n 1p)" \
		"tests/unit/t1510-vm-wire.log tests/cli/t0002-covers.log"
else
	skip "no Makefile beside the kbench under test"
fi
if command -v make >/dev/null && [ -f "$builddir/Makefile" ]; then
	is "the tarball holds m4/, which ACLOCAL_AMFLAGS names" \
		"$(env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -n -C "$builddir" distdir \
		2>/dev/null | grep -c "[' ]m4/\.keep[' ]")" 1
else
	skip "no Makefile beside the kbench under test"
fi
is "tests/README says what the suite takes, and names make check-fast" \
	"$(grep -c 'under a minute' "$TOP_SRCDIR/tests/README") $(grep -c 'make check-fast' \
	"$TOP_SRCDIR/tests/README" | sed 's/^[1-9][0-9]*$/some/')" "0 some"

done_testing
