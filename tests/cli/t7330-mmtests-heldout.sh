#!/bin/sh
# t7330: bench/mmtests-heldout.sh runs compare-kernels.sh on the export,
# every benchmark but those compare-mmtests.pl could not table, and fails
# on any Perl error in its output. mmtests is not part of the tree (the
# script takes a checkout's path), so a stand-in checkout answers here:
# its compare-mmtests.pl prints the table it is given, its
# compare-kernels.sh dies as mmtests' Duration step does (Compare.pm) for
# a benchmark without a "time ::" line in tests-timestamp, and notes the
# benchmarks it found in the activity files.
# Covers: mmtests/mmtests_export.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# Two runs of hackbench and tbench, from the fixture.
for r in p1 p2; do
	cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-patched" "$tmp/$r" &&
		chmod -R u+w "$tmp/$r" &&
		cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla/iter-0/tbench" \
			"$tmp/$r/iter-0/" &&
		sed -i "s/5.15.0-patched/5.15.0-$r/" "$tmp/$r/iter-0/kernel.version" || break
done
ok $? "two mmtests runs of hackbench and tbench"
check "... imported" kb import --mmtests "$tmp/p1" '&&' kb import --mmtests "$tmp/p2"

mm=$tmp/mmtests
mkdir -p "$mm/bin" "$tmp/tables"
cat >"$mm/bin/compare-mmtests.pl" <<'EOF'
#!/bin/sh
# compare-mmtests.pl -d . -b BENCH -n BASE,NEW: the table given for BENCH
cat "$STANDIN_TABLES/$4" 2>/dev/null || echo "no module for $4" >&2
EOF
cat >"$mm/compare-kernels.sh" <<'EOF'
#!/bin/sh
# compare-kernels.sh --baseline BASE --compare NEW
for run in "$2" "$4"; do
	for b in $(sed -n 's/.* test start :: \([^ ]*\) .*/\1/p' "$run/mmtests-activity"); do
		echo "$run $b" >>"$STANDIN_SEEN"
		grep -q "^time :: $b " "$run/iter-0/tests-timestamp" ||
			echo "Can't use an undefined value as an ARRAY reference at $(dirname "$0")/bin/lib/MMTests/Compare.pm line 464."
	done
done
[ -z "${STANDIN_DIE:-}" ] || echo "Died at $(dirname "$0")/bin/lib/MMTests/ExtractFactory.pm line 60."
EOF
chmod +x "$mm/bin/compare-mmtests.pl" "$mm/compare-kernels.sh"
kb compare --test ci --only hackbench-process-pipes p1@testhost p2@testhost \
	>"$tmp/tables/hackbench-process-pipes"
ok $? "kbench's table of hackbench, for the stand-in to print"

# heldout [VAR=VALUE]...: the script on p1 and p2, its output in $tmp/out
heldout() {
	: >"$tmp/seen"
	env "$@" MMTESTS="$mm" KBENCH="$KBENCH" KBENCH_DB="$db" STANDIN_TABLES="$tmp/tables" \
		STANDIN_SEEN="$tmp/seen" sh "$TOP_SRCDIR/bench/mmtests-heldout.sh" \
		p1@testhost p2@testhost >"$tmp/out" 2>&1
}
heldout
is "the export, tabled and reported on: exit 0" "$?" 0
is "... compare-kernels.sh without tbench, which mmtests did not table; no Perl error" \
	"$(tail -3 "$tmp/out")" "compare-kernels.sh: left out, not tabled: tbench
values equal 24/24, percentages equal 24/24
compare-kernels.sh: 0 Perl errors"
is "... it reported on hackbench alone" "$(cat "$tmp/seen")" "p1 hackbench-process-pipes
p2 hackbench-process-pipes"

heldout STANDIN_DIE=1
is "a Perl error in compare-kernels.sh's output: exit 1" "$?" 1
is "... the error shown, and counted" "$(tail -4 "$tmp/out")" "compare-kernels.sh printed Perl errors:
  Died at $mm/bin/lib/MMTests/ExtractFactory.pm line 60.
values equal 24/24, percentages equal 24/24
compare-kernels.sh: 1 Perl error"

heldout COMPARE_KERNELS=no
is "COMPARE_KERNELS=no leaves it out" "$?.$(tail -1 "$tmp/out")" \
	"0.values equal 24/24, percentages equal 24/24"
done_testing
