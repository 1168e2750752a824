#!/bin/sh
# t7325: the facts import --mmtests reads are read as numbers within
# bounds: lscpu's counts (a count of 2147483647 cores per socket is
# refused, naming the file and line, not multiplied past INT_MAX), its
# cores per socket times sockets, MemTotal, and the start and finish
# times (from 1 to the end of 9999, the finish no earlier than the
# start); a count or size must be 1 or more; lscpu's '-' is a count not
# known.
# Covers: mmtests/mmtests.c db/machine.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

check "a store holding one imported run" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla"
before=$(store_digest "$db")
n=0
# refused DESC TEXT: a fresh copy of one run, changed in its iter-0 by
# the commands on stdin, is refused with TEXT on stderr; nothing stored.
refused() {
	n=$((n + 1))
	d=$tmp/run$n
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$d" && chmod -R u+w "$d" &&
		(cd "$d/iter-0" && sh -e) || { ok 1 "$1 (fixture)"; return; }
	expect_err "$1" 1 "$2" kb import --mmtests "$d"
	is "... nothing stored" "$(store_digest "$db")" "$before"
}

refused "2147483647 cores per socket" \
	"run1/iter-0/lscpu.txt:5: expected a count of at most 1048576 after 'Core(s) per socket:', found '2147483647'" <<'S'
sed -i 's/^Core(s) per socket:.*/Core(s) per socket:      2147483647/' lscpu.txt
S
refused "a CPU count past the range of a number" \
	"run2/iter-0/lscpu.txt.gz:2: expected a count of at most 1048576 after 'CPU(s):', found '99999999999999999999999'" <<'S'
sed -i 's/^CPU(s):.*/CPU(s):  99999999999999999999999/' lscpu.txt && gzip lscpu.txt
S
refused "more cores than the bound, per socket times sockets" \
	"run3/iter-0/lscpu.txt: expected at most 1048576 cores, found 65536 per socket on 65536 sockets" <<'S'
sed -i 's/^Core(s) per socket:.*/Core(s) per socket: 65536/; s/^Socket(s):.*/Socket(s): 65536/' lscpu.txt
S
refused "a MemTotal past an exbibyte" \
	"run4/iter-0/tests-sysstate:3: expected a size in kB of at most 2^50 after 'MemTotal:', found '18446744073709551615 kB'" <<'S'
sed -i 's/^MemTotal:.*/MemTotal: 18446744073709551615 kB/' tests-sysstate
S
refused "a start time past the year 9999" \
	"run5/iter-0/tests-timestamp:1: expected seconds since 1970 (from 1 to 253402300799) after 'start ::', found '9223372036854775807'" <<'S'
sed -i 's/^start ::.*/start :: 9223372036854775807/' tests-timestamp
S
refused "a finish time that is not a number" \
	"run6/iter-0/tests-timestamp:2: expected seconds since 1970 (from 1 to 253402300799) after 'finish ::', found '-1'" <<'S'
sed -i 's/^finish ::.*/finish :: -1/' tests-timestamp
S
# Before, these were taken: a count or size of 0 or below stored as 0
# (not known), a finish at 0 or before the start.
refused "a finish at 0" \
	"run7/iter-0/tests-timestamp:2: expected seconds since 1970 (from 1 to 253402300799) after 'finish ::', found '0'" <<'S'
sed -i 's/^finish ::.*/finish :: 0/' tests-timestamp
S
refused "a finish before the start" \
	"run8/iter-0/tests-timestamp:2: expected a finish no earlier than the start (1635811200), found 'finish :: 1635811199'" <<'S'
sed -i 's/^start ::.*/start :: 1635811200/; s/^finish ::.*/finish :: 1635811199/' tests-timestamp
S
refused "CPU(s): 0" \
	"run9/iter-0/lscpu.txt:2: expected a count from 1 to 1048576 (or '-') after 'CPU(s):', found '0'" <<'S'
sed -i 's/^CPU(s):.*/CPU(s):   0/' lscpu.txt
S
refused "CPU(s): -8" \
	"run10/iter-0/lscpu.txt:2: expected a count from 1 to 1048576 (or '-') after 'CPU(s):', found '-8'" <<'S'
sed -i 's/^CPU(s):.*/CPU(s):   -8/' lscpu.txt
S
refused "MemTotal: -5 kB" \
	"run11/iter-0/tests-sysstate:3: expected a size in kB from 1 to 2^50 after 'MemTotal:', found '-5 kB'" <<'S'
sed -i 's/^MemTotal:.*/MemTotal: -5 kB/' tests-sysstate
S
refused "MemTotal: 0 kB" \
	"run12/iter-0/tests-sysstate:3: expected a size in kB from 1 to 2^50 after 'MemTotal:', found '0 kB'" <<'S'
sed -i 's/^MemTotal:.*/MemTotal: 0 kB/' tests-sysstate
S

# lscpu prints '-' for a count it does not know.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$tmp/dash" && chmod -R u+w "$tmp/dash" &&
	sed -i 's/^Socket(s):.*/Socket(s):               -/' "$tmp/dash/iter-0/lscpu.txt"
ok $? "a run whose lscpu knows no socket count"
check "it imports" kb import --mmtests "$tmp/dash"
is "... with no sockets and no cores known" \
	"$(sql "SELECT m.cpus || ' ' || m.packages || ' ' || m.cores FROM runs r
		JOIN machines m ON m.id = r.machine_id WHERE r.name = 'dash'")" "8 0 0"
done_testing
