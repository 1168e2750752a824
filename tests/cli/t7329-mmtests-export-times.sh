#!/bin/sh
# t7329: export --mmtests writes what compare-kernels.sh reads besides the
# logs as run-mmtests.sh writes it: tests-timestamp's "time :: BENCH U user
# S system E elapsed" line per benchmark (its Duration table; without it
# mmtests' Compare.pm dies once per benchmark), the tests begun one after
# another, and tests-activity in mmtests' wording since 2024 ("Iteration
# 1 start", "test start :: BENCH T"), every iteration's lines in the
# run's mmtests-activity too. The times are those compare's Duration
# block gives, each sample set counted once.
# Covers: mmtests/mmtests_export.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '%s\n' '[global]' 'iterations = 3' 'warmup = 0' '' '[hackbench-process-pipes]' \
	'mode = process' 'transport = pipes' 'loops = 50' 'groups = 1 2' '' '[pft-processes]' \
	'model = processes' 'workers = 1 2' 'mapping_size = 16M' 'thp = off' >"$tmp/run.conf"
check "a run of hackbench and pft" kb --quiet run -c "$tmp/run.conf" -n 6.1-times --no-report
check "... exported" kb export --mmtests "$tmp/mm" 6.1-times
it=$tmp/mm/6.1-times/iter-0
expect_transcript -e 's/[0-9]{10}/T/g' -e 's/[0-9]+\.[0-9]{2}/N.NN/g' "tests-timestamp: the tests one after another, with their times" \
	cat "$it/tests-timestamp" <<'T'
$ cat TMP/mm/6.1-times/iter-0/tests-timestamp
start :: T
test begin :: hackbench-process-pipes T
test end :: hackbench-process-pipes T 0
time :: hackbench-process-pipes N.NN user N.NN system N.NN elapsed
test begin :: pft T
test end :: pft T 0
time :: pft N.NN user N.NN system N.NN elapsed
finish :: T
[exit 0]
T
check "... each begun when the one before ended, all within the run" awk '
	/^start ::/ { t = $3; first = t }
	/^test begin ::/ { if ($5 != t) bad = 1 }
	/^test end ::/ { if ($5 < t) bad = 1; t = $5 }
	/^finish ::/ { if (t > $3 || first > $3) bad = 1 }
	END { exit bad }' "$it/tests-timestamp"

# compare's Duration block per section, as "BENCH U user S system E elapsed"
kb compare 6.1-times >"$tmp/report"
awk '/^[a-z][^ ]*( timings| faults)?$/ { sec = $1 == "pft-processes" ? "pft" : $1 }
	/^Duration User/ { u = $3 } /^Duration System/ { s = $3 }
	/^Duration Elapsed/ { print sec " " u " user " s " system " $3 " elapsed" }' \
	"$tmp/report" >"$tmp/want"
is "... the times compare's Duration block gives" "$(sed -n 's/^time :: //p' "$it/tests-timestamp")" \
	"$(cat "$tmp/want")"
check "... which are not all nothing" grep -qv ' 0.00 user 0.00 system 0.00 elapsed$' "$tmp/want"

expect_transcript -e 's/[0-9]{10}/T/g' "tests-activity in run-mmtests.sh's words" cat "$it/tests-activity" <<'T'
$ cat TMP/mm/6.1-times/iter-0/tests-activity
T run-mmtests: Start
T run-mmtests: Iteration 1 start
T run-mmtests: test start :: hackbench-process-pipes T
T run-mmtests: test end :: hackbench-process-pipes T 0
T run-mmtests: test start :: pft T
T run-mmtests: test end :: pft T 0
T run-mmtests: Iteration 1 end
T run-mmtests: End
[exit 0]
T
is "mmtests-activity: the iterations' lines, then the exit status" \
	"$(sed '$d' "$tmp/mm/6.1-times/mmtests-activity")" "$(cat "$it/tests-activity")"
is "... status 0" "$(tail -1 "$tmp/mm/6.1-times/mmtests-activity" | cut -d' ' -f2-)" "status :: 0"

# tbench's second sample goes to iter-1: that iteration runs tbench alone,
# and ends the run.
cp -R "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla" "$tmp/two" && chmod -R u+w "$tmp/two" &&
	cp -R "$tmp/two/iter-0/tbench" "$tmp/two/iter-1/"
ok $? "an mmtests run with tbench in two iterations"
check "... imported" kb import --mmtests "$tmp/two"
check "... exported" kb export --mmtests "$tmp/mm" two@testhost
expect_transcript "iter-1: tbench's test alone, then the end of the run" \
	cat "$tmp/mm/two/iter-1/tests-activity" <<'T'
$ cat TMP/mm/two/iter-1/tests-activity
1635724800 run-mmtests: Start
1635724800 run-mmtests: Iteration 2 start
1635724800 run-mmtests: test start :: tbench 1635724800
1635724800 run-mmtests: test end :: tbench 1635724800 0
1635726700 run-mmtests: Iteration 2 end
1635726700 run-mmtests: End
[exit 0]
T
is "... iter-0 is not the end" "$(grep -c 'run-mmtests: End' "$tmp/mm/two/iter-0/tests-activity")" 0
is "... iter-1's tests-timestamp: tbench's time" \
	"$(grep '^time ::' "$tmp/mm/two/iter-1/tests-timestamp")" \
	"time :: tbench 0.00 user 0.00 system 0.00 elapsed"
check "the export imports back" "$KBENCH" --db "$tmp/back.db" import --mmtests "$tmp/mm/two"
is "... with the same samples" \
	"$("$KB_SQL" "$tmp/back.db" "SELECT section, row, iteration, value FROM samples ORDER BY 1, 2, 3")" \
	"$(sql "SELECT s.section, s.row, s.iteration, s.value FROM samples s JOIN runs r
		ON r.id = s.run_id WHERE r.name = 'two' ORDER BY 1, 2, 3")"
done_testing
