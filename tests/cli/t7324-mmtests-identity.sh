#!/bin/sh
# t7324: which runs import --mmtests takes, and as what. A run mmtests
# has not finished (a tests-timestamp with 'start ::' and no 'finish ::',
# an iteration without one, a tests-activity with Start and no End) is
# listed and left for a later import, which then takes it whole; with
# --unfinished it is stored as interrupted, and the finished run is
# added beside it later. Runs without a start time are told apart by what
# they hold. A run directory reached through '..' is named as it is.
# Covers: mmtests/mmtests.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

fixture=$TOP_SRCDIR/tests/data/mmtests/log
# copy NAME [RUN]: a writable copy of the fixture's run RUN (default
# 5.15.0-patched) at $tmp/NAME.
copy() {
	mkdir -p "$(dirname "$tmp/$1")" && cp -R "$fixture/${2:-5.15.0-patched}" "$tmp/$1" &&
		chmod -R u+w "$tmp/$1"
}

# ---- a run mmtests is still running ----
copy running && sed -i '/^finish ::/d' "$tmp/running/iter-0/tests-timestamp"
ok $? "a run whose tests-timestamp has 'start ::' and no 'finish ::'"
expect_transcript "it is listed and not imported" kb import --mmtests "$tmp/running" <<'T'
$ kb import --mmtests TMP/running
  skip  running: mmtests has not finished it (iter-0/tests-timestamp has 'start ::' but no 'finish ::'); import it once it has, or with --unfinished
2> kbench: TMP/running: no finished mmtests run there (1 unfinished: import again once mmtests has finished, or with --unfinished)
[exit 1]
T
check "... and nothing is stored" test "$(sql 'SELECT count(*) FROM runs')" = 0
expect_err "--dry-run says the same" 1 "no finished mmtests run there" \
	kb import --dry-run --mmtests "$tmp/running"

# Beside a finished run, the finished one is imported.
mkdir "$tmp/log" && cp -R "$tmp/running" "$tmp/log/running" && copy log/done
ok $? "a directory of a finished and an unfinished run"
expect_transcript "the finished run is imported, the other listed" kb import --mmtests "$tmp/log" <<'T'
$ kb import --mmtests TMP/log
  skip  running: mmtests has not finished it (iter-0/tests-timestamp has 'start ::' but no 'finish ::'); import it once it has, or with --unfinished
TMP/log: imported 1 run (4 samples), 1 new machine; 0 already present
[exit 0]
T
echo 'finish :: 1635812100' >> "$tmp/log/running/iter-0/tests-timestamp"
check "once mmtests has finished it, the run is imported" kb import --mmtests "$tmp/log"
is "... whole, and complete" \
	"$(sql "SELECT status || ' ' || nsamples || ' ' || finished_at FROM runs WHERE name = 'running'")" \
	"complete 2 2021-11-02T00:15:00Z"
is "... with all its samples" \
	"$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'running'")" 4

# The other signs of a run under way.
copy iters 5.15.0-vanilla && rm "$tmp/iters/iter-1/tests-timestamp"
expect_err "an iteration without tests-timestamp beside one with it is unfinished" 1 \
	"no finished mmtests run there" kb import --mmtests "$tmp/iters"
check "... which is said" grep -qF \
	"(iter-1 has no tests-timestamp, beside iterations that have one)" "$tmp/out"
copy activity && printf '1635811200 run-mmtests: Start\n1635811200 run-mmtests: Iteration 0 start\n' \
	> "$tmp/activity/tests-activity"
expect_err "a tests-activity with Start and no End is unfinished" 1 \
	"no finished mmtests run there" kb import --mmtests "$tmp/activity"
check "... which is said" grep -qF \
	"(tests-activity has 'run-mmtests: Start' but no 'run-mmtests: End')" "$tmp/out"
echo '1635812100 run-mmtests: End' >> "$tmp/activity/tests-activity"
# Before, a Start after the last End (a run begun again) read as finished.
echo '1635812200 run-mmtests: Start' >> "$tmp/activity/tests-activity"
expect_err "a tests-activity with Start, End, Start is unfinished" 1 \
	"no finished mmtests run there" kb import --mmtests "$tmp/activity"
check "... which is said" grep -qF \
	"(tests-activity has 'run-mmtests: Start' after its last 'run-mmtests: End')" "$tmp/out"
echo '1635812300 run-mmtests: End' >> "$tmp/activity/tests-activity"
check "... and imports once it has its End" kb import --mmtests "$tmp/activity"

# --unfinished: as it is, interrupted; the finished run later beside it.
copy later/partial && sed -i '/^finish ::/d' "$tmp/later/partial/iter-0/tests-timestamp"
ok $? "another unfinished run"
check "--unfinished imports it" kb import --unfinished --mmtests "$tmp/later/partial"
is "... as interrupted, finished when it started" \
	"$(sql "SELECT status || ' ' || started_at || ' ' || finished_at FROM runs WHERE name = 'partial'")" \
	"interrupted 2021-11-02T00:00:00Z 2021-11-02T00:00:00Z"
is "... with why in its facts" \
	"$(sql "SELECT value FROM run_meta x JOIN runs r ON r.id = x.run_id
		WHERE r.name = 'partial' AND x.key = 'mmtests-unfinished'")" \
	"iter-0/tests-timestamp has 'start ::' but no 'finish ::'"
check "importing it so again adds nothing" kb import --unfinished --mmtests "$tmp/later/partial"
is "... one run of it" "$(sql "SELECT count(*) FROM runs WHERE name = 'partial'")" 1
echo 'finish :: 1635812100' >> "$tmp/later/partial/iter-0/tests-timestamp"
check "finished, it is imported again" kb import --mmtests "$tmp/later/partial"
is "... beside the interrupted one" \
	"$(sql "SELECT group_concat(status, ' ') FROM (SELECT status FROM runs WHERE name = 'partial' ORDER BY id)")" \
	"interrupted complete"
kb show partial@testhost > "$tmp/show.out"
is "its name selects the complete one" "$(grep '^  status' "$tmp/show.out")" \
	"  status      complete"
expect_err "--unfinished goes with --mmtests" 2 "--unfinished goes with --mmtests" \
	kb import --unfinished x.kbb

# ---- runs without a start time ----
copy a/same && rm "$tmp/a/same/iter-0/tests-timestamp" &&
	copy b/same && rm "$tmp/b/same/iter-0/tests-timestamp" &&
	sed -i 's/0\.150/0.250/' "$tmp/b/same/iter-0/hackbench-process-pipes/logs/hackbench-4-1"
ok $? "two runs of one name and host, without tests-timestamp, of other samples"
check "the first imports" kb import --mmtests "$tmp/a/same"
expect_transcript "the second is another run, not one already present" kb import --mmtests "$tmp/b/same" <<'T'
$ kb import --mmtests TMP/b/same
TMP/b/same: imported 1 run (4 samples), 0 new machines; 0 already present
[exit 0]
T
is "... two runs named same" "$(sql "SELECT count(*) FROM runs WHERE name = 'same'")" 2
expect_transcript "the same one again is present" kb import --mmtests "$tmp/a/same" <<'T'
$ kb import --mmtests TMP/a/same
TMP/a/same: imported 0 runs (0 samples), 0 new machines; 1 already present
[exit 0]
T

# ---- the run's name is its directory's ----
copy dots/named
ok $? "a run directory named 'named'"
check "import --mmtests DIR/iter-0/.. names it so" \
	kb import --dry-run --mmtests "$tmp/dots/named/iter-0/.."
check "... and so do DIR/ and DIR/." \
	kb import --mmtests "$tmp/dots/named/./"
is "one run, named after the directory" "$(sql "SELECT group_concat(name) FROM runs
	WHERE name IN ('named', '..', '.', 'iter-0')")" named
(cd "$tmp/dots/named/iter-0" && "$KBENCH" --db "$db" import --mmtests ..) > "$tmp/rel.out"
is "... also from inside it, as '..'" "$(cat "$tmp/rel.out")" \
	"..: imported 0 runs (0 samples), 0 new machines; 1 already present"
done_testing
