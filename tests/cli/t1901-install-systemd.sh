#!/bin/sh
# t1901-install-systemd: make install puts the nightly watch's systemd
# units (kbench-watch@.service and its timer) under the prefix, naming
# that prefix's kbench and watch configs; systemd-analyze verify finds
# nothing wrong with them (a unit with a fault it does report), the timer
# is nightly and makes up a missed night, make installcheck verifies
# them too, and make uninstall takes them away, directories too.
# Covers: Makefile.am
. "$TOP_SRCDIR/tests/cli/lib.sh"

builddir=$(dirname "$KBENCH")
prefix=$tmp/kb
units=$prefix/lib/systemd/system
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make --no-print-directory -C "$builddir" "$@"; }

check "make install prefix=P" mk install prefix="$prefix"
is "the service and the timer are in P/lib/systemd/system" \
	"$(cd "$units" 2>/dev/null && ls)" "kbench-watch@.service
kbench-watch@.timer"
is "the service runs P's kbench on P's watch config NAME (%i)" \
	"$(grep '^ExecStart=' "$units/kbench-watch@.service")" \
	"ExecStart=$prefix/bin/kbench watch $prefix/etc/kbench/watch/%i.conf"
is "... with a store and a kernel cache of its own" \
	"$(grep -E '^(StateDirectory|CacheDirectory|Environment)=' "$units/kbench-watch@.service")" \
	"StateDirectory=kbench
CacheDirectory=kbench
Environment=KBENCH_DB=%S/kbench/kbench.db KBENCH_KERNEL_CACHE=%C/kbench/kernels"
is "the timer is nightly and makes up a night the machine was off" \
	"$(grep -E '^(OnCalendar|Persistent|WantedBy)=' "$units/kbench-watch@.timer")" \
	"OnCalendar=*-*-* 02:00:00
Persistent=true
WantedBy=timers.target"

if command -v systemd-analyze >/dev/null; then
	# An instance of each template (a template alone is no unit).
	mkdir "$tmp/v" "$tmp/bad"
	cp "$units/kbench-watch@.service" "$tmp/v/kbench-watch@nightly.service"
	cp "$units/kbench-watch@.timer" "$tmp/v/kbench-watch@nightly.timer"
	check "systemd-analyze verify the installed units" \
		env MANPATH="$prefix/share/man" systemd-analyze verify \
		"$tmp/v/kbench-watch@nightly.service" "$tmp/v/kbench-watch@nightly.timer"
	is "... finds nothing to say" "$(cat "$tmp/check.out")" ""
	sed "s|^ExecStart=$prefix/bin/kbench|ExecStart=$prefix/bin/no-such-kbench|" \
		"$units/kbench-watch@.service" >"$tmp/bad/kbench-watch@nightly.service"
	env MANPATH="$prefix/share/man" systemd-analyze verify \
		"$tmp/bad/kbench-watch@nightly.service" >"$tmp/bad.out" 2>&1
	is "... and says what is wrong with a unit whose program is not there" \
		"$? $(grep -c 'no-such-kbench is not executable' "$tmp/bad.out")" "1 1"
	check "make installcheck prefix=P" mk installcheck prefix="$prefix"
	is "... verifies the units too" \
		"$(grep -c '^installcheck: systemd-analyze verify: the units are sound$' "$tmp/check.out")" 1
else
	skip "systemd-analyze is not installed (Debian: systemd)"
fi

check "make uninstall prefix=P" mk uninstall prefix="$prefix"
is "make uninstall leaves no file, no directory it made" \
	"$(find "$prefix" -mindepth 1 | sed "s|^$prefix/||")" ""

done_testing
