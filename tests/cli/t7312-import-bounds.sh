#!/bin/sh
# t7312: import refuses values no run could have stored, as run bounds
# its plans: a sample's iteration of INT64_MAX or -1, a round of
# INT64_MIN, a failure's iteration past the warm-up bound; a run of
# kbench's own stays importable.
# Covers: db/bundle.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' > "$tmp/hb.conf"
check "a run and a good bundle of it" \
	kb --quiet run -c "$tmp/hb.conf" -n a --no-report '&&' kb export a -o "$tmp/good.kbb"
store=$tmp/store.db
n=0
refused() {	# refused DESC MESSAGE SQL
	n=$((n + 1))
	f=$tmp/bad$n.kbb
	cp "$tmp/good.kbb" "$f" && "$KB_SQL" --write "$f" "$3" || { ok 1 "$1 (fixture)"; return; }
	expect_err "$1 is refused" 1 "$2" "$KBENCH" --db "$store" import "$f"
}
refused "a sample iteration of INT64_MAX" "samples.iteration of row" \
	"UPDATE samples SET iteration = 9223372036854775807 WHERE rowid = 1"
refused "a sample iteration of -1" "samples.iteration of row" \
	"UPDATE samples SET iteration = -1 WHERE rowid = 1"
refused "a warm-up sample of iteration 1" "samples.iteration of row" \
	"UPDATE samples SET warmup = 1 WHERE rowid = 1"
refused "a sample marked 2 as a warm-up" "CHECK constraint failed in samples" \
	"PRAGMA ignore_check_constraints = ON; UPDATE samples SET warmup = 2 WHERE rowid = 1"
refused "a run's sample count below 0" "runs.nsamples of row" \
	"UPDATE runs SET nsamples = -1"
refused "a round of INT64_MIN" "samples.round of row" \
	"UPDATE samples SET round = -9223372036854775808 WHERE rowid = 1"
refused "a monitor iteration of -2000" "monitor_values.iteration of row" \
	"UPDATE monitor_values SET iteration = -2000 WHERE rowid = (SELECT min(rowid) FROM monitor_values)"
check "nothing was imported" test ! -e "$store" -o \
	"$("$KB_SQL" "$store" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" = 0
check "the good bundle imports" "$KBENCH" --db "$store" import "$tmp/good.kbb"
done_testing
