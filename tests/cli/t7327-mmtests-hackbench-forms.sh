#!/bin/sh
# t7327: import --mmtests reads a hackbench log in one form, the one the
# mmtests that wrote the run reads: perf bench's "Total time:" lines
# (mmtests since May 2019: a run that records its mmtests version, an
# appended hackbench-G, or a log that holds such a line), else the
# "Time:" lines of the hackbench.c older mmtests ran. Lines of the other
# form are left out with a warning, so that a log holding both pools the
# samples mmtests pools.
# Covers: mmtests/mmtests_log.c mmtests/mmtests.c mmtests/bench_hackbench.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# mkrun NAME RELEASE VERSION: a run directory as run-mmtests.sh leaves it
# (tests-sysstate with 'version ::' when VERSION is not empty, as mmtests
# has written it since November 2019), its hackbench logs to be added.
mkrun() {
	d=$tmp/log/$1/iter-0
	mkdir -p "$d/hackbench-process-pipes/logs" &&
		echo "Linux testhost $2 #1 SMP Mon May 6 00:00:00 UTC 2019 x86_64 GNU/Linux" \
			>"$d/kernel.version" &&
		{ [ -z "$3" ] || echo "version :: $3"; echo "arch :: x86_64"; } >"$d/tests-sysstate" &&
		printf '%s\n' 'start :: 1557100800' \
			'test begin :: hackbench-process-pipes 1557100801' \
			'test end :: hackbench-process-pipes 1557100900' \
			'time :: hackbench-process-pipes 1.20 user 30.40 system 99.00 elapsed' \
			'finish :: 1557101000' >"$d/tests-timestamp"
}
# perf_out GROUPS TIME: what perf bench sched messaging prints
perf_out() {
	printf "# Running 'sched/messaging' benchmark:\n# 20 sender and receiver processes per group\n# %d groups == %d processes run\n\n     Total time: %s [sec]\n" \
		"$1" $(($1 * 40)) "$2"
}
# old_out GROUPS TIME: what the hackbench.c of mmtests before May 2019 printed
old_out() {
	printf 'Running with %d*40 (== %d) tasks.\nTime: %s\n' "$1" $(($1 * 40)) "$2"
}
logs() {
	echo "$tmp/log/$1/iter-0/hackbench-process-pipes/logs"
}
samples() {
	sql "SELECT r.name, s.row, s.iteration, s.value FROM samples s JOIN runs r
		ON r.id = s.run_id WHERE r.name = '$1' ORDER BY s.row, s.iteration"
}

# mmtests of 2018: hackbench.c, one file per invocation, no version.
mkrun 4.19.0-old 4.19.0-old "" && l=$(logs 4.19.0-old) &&
	old_out 1 0.052 >"$l/hackbench-1-1" && old_out 1 0.049 >"$l/hackbench-1-2" &&
	old_out 4 0.161 >"$l/hackbench-4-1" && old_out 4 0.158 >"$l/hackbench-4-2"
ok $? "a run of mmtests before May 2019"
check "... imports" kb import --mmtests "$tmp/log/4.19.0-old"
is "... its 'Time:' lines are the samples" "$(samples 4.19.0-old)" "4.19.0-old|1|1|0.052
4.19.0-old|1|2|0.049
4.19.0-old|4|1|0.161
4.19.0-old|4|2|0.158"
is "... and nothing is said" "$(cat "$tmp/check.err")" ""

# A run that records its version, whose logs hold both forms: mmtests
# reads the 'Total time:' lines only, and so does kbench.
mkrun 5.15.0-base 5.15.0-base v0.25-12-g1a2b3c4 && l=$(logs 5.15.0-base) &&
	{ perf_out 4 0.4600 && old_out 4 0.5034; } >"$l/hackbench-4-1" &&
	perf_out 4 0.4644 >"$l/hackbench-4-2" &&
	{ perf_out 4 0.4688 && old_out 4 0.5100 && old_out 4 0.5200; } >"$l/hackbench-4-3" &&
	old_out 4 0.5300 >"$l/hackbench-4-4"
ok $? "a run of mmtests that records its version, logs holding both forms"
expect_transcript "... imports the 'Total time:' lines, saying what it leaves out" \
	kb import --mmtests "$tmp/log/5.15.0-base" <<'T'
$ kb import --mmtests TMP/log/5.15.0-base
TMP/log/5.15.0-base: imported 1 run (3 samples), 0 new machines; 0 already present
2> kbench: warning: TMP/log/5.15.0-base/iter-0/hackbench-process-pipes/logs/hackbench-4-1: 1 'Time:' line not read: the mmtests that wrote it reads the 'Total time:' lines of this log (docs/mmtests.md)
2> kbench: warning: TMP/log/5.15.0-base/iter-0/hackbench-process-pipes/logs/hackbench-4-3: 2 'Time:' lines not read: the mmtests that wrote it reads the 'Total time:' lines of this log (docs/mmtests.md)
2> kbench: warning: TMP/log/5.15.0-base/iter-0/hackbench-process-pipes/logs/hackbench-4-4: 1 'Time:' line not read: the mmtests that wrote it reads the 'Total time:' lines of this log (docs/mmtests.md)
[exit 0]
T
is "... the samples mmtests pools" "$(samples 5.15.0-base)" "5.15.0-base|4|1|0.46
5.15.0-base|4|2|0.4644
5.15.0-base|4|3|0.4688"

# mmtests since April 2026: every invocation appended to hackbench-G.
mkrun 5.15.0-new 5.15.0-new 638401e0 && l=$(logs 5.15.0-new) &&
	{ perf_out 4 0.4700 && perf_out 4 0.4741 && perf_out 4 0.4782; } >"$l/hackbench-4"
ok $? "a run of mmtests of today"
check "... imports" kb import --mmtests "$tmp/log/5.15.0-new"
check "... compares with the base, by mmtests' rule" kb compare --test ci \
	--only hackbench-process-pipes \
	5.15.0-base@testhost 5.15.0-new@testhost
is "... on the base's 'Total time:' mean" "$(grep '^Amean' "$tmp/check.out")" \
	"Amean     4      0.4644 (   0.00%)      0.4741 (  -2.09%)"

# Between May and November 2019 mmtests ran perf bench and recorded no
# version: the log that holds a 'Total time:' line is read for those.
mkrun 5.2.0-mid 5.2.0-mid "" && l=$(logs 5.2.0-mid) &&
	{ perf_out 1 0.047 && old_out 1 0.090; } >"$l/hackbench-1-1" &&
	perf_out 1 0.046 >"$l/hackbench-1-2"
ok $? "a run of mmtests of mid-2019, a log holding both forms"
check "... imports" kb import --mmtests "$tmp/log/5.2.0-mid"
is "... the 'Total time:' lines" "$(samples 5.2.0-mid)" "5.2.0-mid|1|1|0.047
5.2.0-mid|1|2|0.046"
is "... the 'Time:' line left out, and said" "$(sed 's/.*: \([0-9]* .Time:. line\).*/\1/' \
	"$tmp/check.err")" "1 'Time:' line"

# An appended hackbench-G of 'Time:' lines (no mmtests wrote one, nor
# reads one): no sample, and the warning says why.
mkrun 6.1.0-appended 6.1.0-appended "" && l=$(logs 6.1.0-appended) &&
	old_out 2 0.071 >"$l/hackbench-2" && old_out 2 0.069 >>"$l/hackbench-2" &&
	perf_out 1 0.050 >"$l/hackbench-1"
ok $? "an appended hackbench-G holding 'Time:' lines only"
check "... imports" kb import --mmtests "$tmp/log/6.1.0-appended"
is "... no sample of it" "$(samples 6.1.0-appended)" "6.1.0-appended|1|1|0.05"
is "... and says so" "$(sed 's/^kbench: warning: [^:]*: //' "$tmp/check.err")" \
	"2 'Time:' lines not read: the mmtests that wrote it reads the 'Total time:' lines of this log (docs/mmtests.md)"

# A malformed line of the form read is refused; of the other, left out.
mkrun 4.19.0-bad 4.19.0-bad "" && l=$(logs 4.19.0-bad) &&
	printf 'Running with 1*40 (== 40) tasks.\nTime: 0.0x2\n' >"$l/hackbench-1-1"
ok $? "a 'Time:' log of mmtests before May 2019 with a garbled time"
before=$(store_digest "$db")
expect_err "... is refused at its line" 1 \
	"4.19.0-bad/iter-0/hackbench-process-pipes/logs/hackbench-1-1:2: expected a time in seconds, found '0.0x2'" \
	kb import --mmtests "$tmp/log/4.19.0-bad"
is "... nothing stored" "$(store_digest "$db")" "$before"
done_testing
