#!/bin/sh
# kbench run --resume RUN continues an interrupted run in place: the same
# config text, only the samples it lacks, appended to the same run, which
# ends complete with as many samples as a clean run. Changed configs, a
# complete run, a run still going and a run from another kernel are
# refused (--force overrides what it can).
# Covers: cli/cmd_run.c runner/runner.c runner/effective.c db/store.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# One value of a query on the store, through kb-sql.
val() { "$KB_SQL" "$db" "$1"; }
id_of() { val "SELECT max(id) FROM runs WHERE name = '$1'"; }
# Measured samples: a resumed round runs its warm-up again, and stores it.
count() { val "SELECT count(*) FROM samples WHERE run_id = $1 AND warmup = 0"; }
# Samples stored twice for one (section, row, iteration) of run $1.
dups() { val "SELECT count(*) FROM (SELECT 1 FROM samples WHERE run_id = $1 AND warmup = 0
	GROUP BY section, row, iteration HAVING count(*) > 1)"; }
wait_samples() {	# wait_samples RUN_NAME N: until run holds N samples (max ~60 s)
	i=0
	while [ "$i" -lt 600 ]; do
		n=$(val "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id
			WHERE r.name = '$1'" 2>/dev/null)
		[ "${n:-0}" -ge "$2" ] && return 0
		sleep 0.1
		i=$((i + 1))
	done
	return 1
}

cat > "$tmp/r.conf" <<'CONF'
[hackbench-a]
groups = 1 2
loops = 100
iterations = 4
warmup = 1

[pft-b]
workers = 1
mapping_size = 8M
iterations = 3
CONF
check "a clean run completes" kb --quiet run -c "$tmp/r.conf" -n clean --no-report
clean=$(count "$(id_of clean)")
diag "a clean run stores $clean samples"

# kill -9 in the middle, then resume.
"$KBENCH" --db "$db" --quiet run -c "$tmp/r.conf" -n killed --no-report >/dev/null 2>&1 &
pid=$!
check "samples are stored while the run goes on" wait_samples killed 3
kill -9 "$pid"
wait "$pid" 2>/dev/null
id=$(id_of killed)
before=$(count "$id")
check "the killed run reads as interrupted" \
	test "$(run_status killed)" = interrupted
check "no worker of the killed run is left" no_workers
kb run --resume killed --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "--resume NAME resumes its latest run"
check "it says what the run holds" grep -q "run @$id holds $before of the plan's samples" "$tmp/err"
after=$(count "$id")
check "the resumed run holds as many samples as a clean run ($after, $clean)" test "$after" = "$clean"
check "no sample is stored twice" test "$(dups "$id")" = 0
check "it is the same run, now complete" \
	test "$(val "SELECT count(*) || ' ' || status FROM runs WHERE name = 'killed'")" = "1 complete"
check "its config text is unchanged" \
	test "$(val "SELECT config_text = (SELECT config_text FROM runs WHERE name = 'clean') FROM runs WHERE id = $id")" = 1

expect_err "a complete run has nothing to resume" 0 "is complete: nothing to resume" \
	kb run --resume "#$id"

# Interrupted again; resumed with the same config files given.
"$KBENCH" --db "$db" --quiet run -c "$tmp/r.conf" -n again --no-report >/dev/null 2>&1 &
pid=$!
wait_samples again 2
kill -9 "$pid"
wait "$pid" 2>/dev/null
id=$(id_of again)
uuid=$(val "SELECT substr(uuid, 1, 8) FROM runs WHERE id = $id")
sed 's/iterations = 3/iterations = 4/' "$tmp/r.conf" > "$tmp/changed.conf"
expect_err "configs that differ from the run's text are refused" 2 \
	"the configs differ from the text run @$id was started with" \
	kb run --resume "$uuid" -c "$tmp/changed.conf"
expect_err "--resume with --name is refused" 2 "--name cannot be combined with --resume" \
	kb run --resume "$uuid" -n other
expect_err "--force without --resume is refused" 2 "--force applies to --resume only" \
	kb run -c "$tmp/r.conf" --force
"$KB_SQL" --write "$db" "UPDATE runs SET kernel_release = 'other-kernel' WHERE id = $id" >/dev/null
expect_err "a run measured on another kernel is refused" 1 \
	"run @$id cannot be resumed here: it was measured on another kernel (other-kernel" \
	kb run --resume "$uuid" -c "$tmp/r.conf"
kb run --resume "$uuid" -c "$tmp/r.conf" --force --no-report >"$tmp/out" 2>"$tmp/err"
ok $? "--force resumes it, by uuid prefix, with the same files"
check "saying why it needed forcing" grep -q "resuming run @$id although it was measured on another kernel" "$tmp/err"
check "that run too ends with a clean run's samples" test "$(count "$id")" = "$clean"
check "no sample is stored twice" test "$(dups "$id")" = 0

# A run still going is not resumed under its writer.
printf '[hackbench-long]\ngroups = 1\nloops = 100\niterations = 1000\n' > "$tmp/long.conf"
"$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n going --no-report >/dev/null 2>&1 &
pid=$!
wait_samples going 1
expect_err "a run still going is refused" 1 "is still running" kb run --resume going
kill -INT "$pid"
wait "$pid"
check "SIGINT marks it interrupted" test "$(val "SELECT status FROM runs WHERE name = 'going'")" = interrupted

# SIGHUP (the terminal gone) stops a run as SIGINT does, but not one
# started with it ignored, as nohup starts it. The first is started with
# SIGHUP at its default whatever this suite inherited (a suite run under
# nohup would pass it on ignored).
env --default-signal=HUP "$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n hup \
	--no-report >/dev/null 2>&1 &
pid=$!
wait_samples hup 1
kill -HUP "$pid"
wait "$pid"
is "SIGHUP stops a run: exit 129" "$?" 129
check "... marked interrupted" test "$(val "SELECT status FROM runs WHERE name = 'hup'")" = interrupted
(trap '' HUP && exec "$KBENCH" --db "$db" --quiet run -c "$tmp/long.conf" -n nohup \
	--no-report >/dev/null 2>&1) &
pid=$!
wait_samples nohup 1
kill -HUP "$pid"
n=$(val "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'nohup'")
wait_samples nohup $((n + 1))
check "a run that ignores SIGHUP goes on past it" kill -0 "$pid"
kill -INT "$pid"
wait "$pid"
check "... and SIGINT still stops it" \
	test "$(val "SELECT status FROM runs WHERE name = 'nohup'")" = interrupted
expect_err "a run that does not exist is named" 1 "no run named 'nosuch'" kb run --resume nosuch
check "no worker is left" no_workers
check "the store is intact" "$KB_SQL" --integrity "$db"
done_testing
