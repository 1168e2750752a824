#!/bin/sh
# kill -9 at 20 random points of a small run of three workloads (seeded:
# T9100_SEED=N repeats a sequence). After each kill: the store passes
# PRAGMA integrity_check, it holds every sample the progress lines
# reported (and at most the one committed as the kill landed), the run
# reads as interrupted, and no process of it is left. Each run is then
# resumed, killed again, ..., and ends complete with a clean run's samples.
# Then kill -9 during import and fleet collect (the store intact, each run
# there whole or not at all, a second try completes it), during the first
# run into a new store (the readers after it say what they find in
# kbench's words) and, where root may change the knobs, during an A/B
# experiment (the knobs restored).
# Covers: runner/runner.c runner/record.c db/recover.c db/store.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# One value of a query on the store, through kb-sql.
val() { "$KB_SQL" "$db" "$1"; }
# Sample sets (one per measured sample, whatever its rows) of run $1;
# warm-ups, stored too, are left out.
sets() { val "SELECT count(*) FROM (SELECT DISTINCT section, iteration, started_at
	FROM samples WHERE run_id = $1 AND warmup = 0)"; }
run_id() { val "SELECT coalesce(max(id), 0) FROM runs WHERE name = '$1'"; }
now_ms() { date +%s%3N; }

cat > "$tmp/fi.conf" <<'CONF'
[hackbench-fi]
groups = 1 2
loops = 20
fds = 5
iterations = 4
warmup = 1

[pft-fi]
workers = 1 2
mapping_size = 4M
iterations = 3

[netperf-fi]
test = TCP_RR
duration = 0.05
iterations = 3
timeout = 10
CONF

t0=$(now_ms)
check "a clean run completes" "$KBENCH" --db "$db" run -c "$tmp/fi.conf" -n clean --no-report
clean_ms=$(( $(now_ms) - t0 ))
clean=$(sets "$(run_id clean)")
seed=${T9100_SEED:-$(date +%s)}
diag "seed $seed (T9100_SEED=$seed repeats it); a clean run: $clean samples in $clean_ms ms"

# 20 kill points within 0.7 times a clean run, start-up included: most
# land in the middle of a run, some in its start-up, a few after its end.
awk -v seed="$seed" -v ms="$clean_ms" 'BEGIN {
	srand(seed); for (i = 0; i < 20; i++) printf "%.3f\n", rand() * ms * 0.7 / 1000 }' \
	> "$tmp/delays"

gen=1
complete=0
k=0	# lib.sh's helpers use i
while read -r delay; do
	k=$((k + 1))
	name=fi$gen
	id=$(run_id "$name")
	if [ "$id" -gt 0 ]; then
		before=$(sets "$id")
		set -- run --resume "$name" --no-report
	else
		before=0
		set -- run -c "$tmp/fi.conf" -n "$name" --no-report
	fi
	# Emptied here: a kill that lands before the shell's redirection
	# would leave the last attempt's lines in it.
	: >"$tmp/err"
	"$KBENCH" --db "$db" "$@" >/dev/null 2>"$tmp/err" &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid"
	st=$?
	id=$(run_id "$name")
	what="kill $k at ${delay} s ($*)"
	check "$what: integrity_check is ok" "$KB_SQL" --integrity "$db"
	reported=$(grep -Ec ': sample [0-9]+/[0-9]+: ' "$tmp/err")
	failed=$(grep -Ec ': sample [0-9]+/[0-9]+: failed: ' "$tmp/err")
	reported=$((reported - failed))
	stored=0
	[ "$id" -gt 0 ] && stored=$(( $(sets "$id") - before ))
	if [ "$stored" -eq "$reported" ] || [ "$stored" -eq $((reported + 1)) ]; then
		ok 0 "$what: every reported sample is stored ($reported reported, $stored stored)"
		[ "$stored" -gt "$reported" ] && diag "the kill landed between a commit and its line"
	else
		ok 1 "$what: every reported sample is stored ($reported reported, $stored stored)"
		sed 's/^/#   /' "$tmp/err"
	fi
	status=none
	# The status as readers show it (interrupted is a reading of a dead
	# writer's run), from show's JSON: runs' columns are for people.
	[ "$id" -gt 0 ] && status=$("$KBENCH" --db "$db" show --format json "#$id" |
		tr ',' '\n' | sed -n 's/^"status":"\([a-z]*\)"$/\1/p' | head -n 1)
	if [ "$st" -eq 0 ] || [ "$status" = complete ]; then
		# The run ended before the kill (or as it landed, complete
		# already): the next kill goes to a new one.
		check "$what: the run ended complete first" test "$status" = complete
		complete=$((complete + 1))
		gen=$((gen + 1))
	elif [ "$id" -gt 0 ]; then
		check "$what: the run reads as interrupted" test "$status" = interrupted
	else
		ok 0 "$what: killed before its run was recorded"
	fi
	check "$what: no process of it is left" no_workers
done < "$tmp/delays"

# Resume what is left; every run ends complete with a clean run's samples.
g=1
while [ "$g" -le "$gen" ]; do
	id=$(run_id "fi$g")
	if [ "$id" -gt 0 ]; then
		"$KBENCH" --db "$db" run --resume "fi$g" --no-report >/dev/null 2>"$tmp/err"
		st=$?
		n=$(sets "$id")
		# A sample or section that failed (a netperf window with no
		# transaction, or its server not up in time, on a loaded
		# machine) is recorded as a failure, not a sample: then the
		# run has fewer samples, says why, and exits non-zero.
		f=$(val "SELECT count(*) FROM failures WHERE run_id = $id")
		status=$(val "SELECT status FROM runs WHERE id = $id")
		if [ "$status" = complete ] &&
		   { { [ "$st" -eq 0 ] && [ "$n" -eq "$clean" ]; } ||
		     { [ "$f" -gt 0 ] && [ "$n" -lt "$clean" ]; }; }; then
			ok 0 "run fi$g ends complete with a clean run's $clean samples, or fewer with failures ($n, $f failures)"
			[ "$f" -gt 0 ] && val "SELECT section || ' ' || row || ' ' || iteration || ': ' ||
				reason FROM failures WHERE run_id = $id" | comment
		else
			ok 1 "run fi$g ends complete with $n samples and $f failures, not $clean (exit $st, $status)"
			sed 's/^/#   /' "$tmp/err"
		fi
		check "run fi$g stores no sample twice" test "$(val "SELECT count(*) FROM
			(SELECT 1 FROM samples WHERE run_id = $id AND warmup = 0
			 GROUP BY section, row, iteration HAVING count(*) > 1)")" = 0
	fi
	g=$((g + 1))
done
check "the store is intact at the end" "$KB_SQL" --integrity "$db"

# ---- kill -9 during import and fleet collect ----
# kill_points N MS: N seeded delays in seconds within MS milliseconds.
kill_points() {
	# mawk's srand takes no seed beyond 2^31 well: folded below it.
	awk -v seed="$(( (seed % 1000000007) * 31 + $1 ))" -v n="$1" -v ms="$2" 'BEGIN {
		srand(seed); for (i = 0; i < n; i++) printf "%.3f\n", rand() * ms / 1000 }'
}
# intact DB WHAT: integrity_check of DB right after a kill. A kill while
# the store was being created can leave a journal that only a writer
# rolls back (a read-only open answers "attempt to write a readonly
# database"): said as a diagnostic, and the store checked again, strictly,
# once the next try has opened it as a writer.
intact() {
	if "$KB_SQL" --integrity "$1" >"$tmp/int" 2>&1; then
		ok 0 "$2: integrity_check is ok"
	elif grep -q "attempt to write a readonly database" "$tmp/int"; then
		ok 0 "$2: only a writer may open the store: checked after the next try"
		diag "$2: $(cat "$tmp/int")"
	else
		ok 1 "$2: integrity_check is ok"
		comment <"$tmp/int"
	fi
}
# whole DB: every run of DB holds all its samples or is not there; the
# sample count of the run named clean, if any, is a clean run's. A store
# killed before its schema was made has no run at all.
# orphans DB: how many bundles DB records as collected without their run
# (0 when it was killed before its schema was made).
orphans() {
	if [ "$("$KB_SQL" "$1" "SELECT count(*) FROM sqlite_master
		WHERE name = 'fleet_collected'")" -eq 0 ]; then
		echo 0
		return
	fi
	"$KB_SQL" "$1" "SELECT count(*) FROM fleet_collected
		WHERE NOT EXISTS (SELECT 1 FROM runs WHERE uuid = '$uuid')"
}
whole() {
	[ "$("$KB_SQL" "$1" "SELECT count(*) FROM sqlite_master WHERE name = 'runs'")" -eq 1 ] ||
		return 0
	wh_n=$("$KB_SQL" "$1" "SELECT count(*) FROM runs WHERE name = 'clean'")
	[ "$wh_n" -eq 0 ] && return 0
	[ "$("$KB_SQL" "$1" "SELECT count(*) FROM (SELECT DISTINCT section, iteration,
		started_at FROM samples WHERE warmup = 0 AND
		run_id = (SELECT id FROM runs WHERE name = 'clean'))")" \
		-eq "$clean" ]
}
"$KBENCH" --db "$db" export clean -o "$tmp/clean.kbench" 2>"$tmp/err"
ok $? "the clean run exported"
t0=$(now_ms)
"$KBENCH" --db "$tmp/i0.db" import "$tmp/clean.kbench" >/dev/null 2>&1
import_ms=$(( $(now_ms) - t0 ))
k=0
for delay in $(kill_points 5 "$import_ms"); do
	k=$((k + 1))
	"$KBENCH" --db "$tmp/i$k.db" import "$tmp/clean.kbench" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid"
	what="import killed at $delay s"
	if [ -e "$tmp/i$k.db" ]; then
		intact "$tmp/i$k.db" "$what"
		"$KB_SQL" --integrity "$tmp/i$k.db" >/dev/null 2>&1 &&
			check "$what: the run is whole or absent" whole "$tmp/i$k.db"
	else
		ok 0 "$what: before the store was created"
	fi
	check "$what: importing again completes it" \
		"$KBENCH" --db "$tmp/i$k.db" import "$tmp/clean.kbench"
	check "$what: ... whole" whole "$tmp/i$k.db"
	check "$what: ... integrity_check is ok" "$KB_SQL" --integrity "$tmp/i$k.db"
done

mkdir -p "$tmp/results/h1"
uuid=$(val "SELECT uuid FROM runs WHERE name = 'clean'")
cp "$tmp/clean.kbench" "$tmp/results/h1/$uuid.kbench"
t0=$(now_ms)
"$KBENCH" --db "$tmp/c0.db" fleet collect "$tmp/results" >/dev/null 2>&1
collect_ms=$(( $(now_ms) - t0 ))
k=0
for delay in $(kill_points 5 "$collect_ms"); do
	k=$((k + 1))
	"$KBENCH" --db "$tmp/c$k.db" fleet collect "$tmp/results" >/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid"
	what="fleet collect killed at $delay s"
	if [ -e "$tmp/c$k.db" ]; then
		intact "$tmp/c$k.db" "$what"
		"$KB_SQL" --integrity "$tmp/c$k.db" >/dev/null 2>&1 &&
			check "$what: the run is whole or absent" whole "$tmp/c$k.db" &&
			check "$what: recorded as collected only with its run" test \
			"$(orphans "$tmp/c$k.db")" = 0
	else
		ok 0 "$what: before the store was created"
	fi
	"$KBENCH" --db "$tmp/c$k.db" fleet collect "$tmp/results" >"$tmp/out" 2>&1
	ok $? "$what: collecting again succeeds"
	check "$what: ... the run whole, once" test \
		"$("$KB_SQL" "$tmp/c$k.db" "SELECT count(*) FROM runs WHERE uuid = '$uuid'")" = 1
	check "$what: ... whole" whole "$tmp/c$k.db"
	check "$what: ... integrity_check is ok" "$KB_SQL" --integrity "$tmp/c$k.db"
done

# ---- kill -9 while the first run creates its store ----
# Right after the kill, the readers (runs, query) either read the store
# or say in kbench's words what is wrong; never SQLite's words for a
# journal left behind or a store they cannot write: first where they
# cannot write (a read-only mount, where root may make one), then where
# they can. Then a run into the same file completes, the store intact.
# The kill points: seeded, within twice the time a command takes to
# create a store; and, with strace, before each of the first writes and
# removals of files of the first run, one by one.
printf '[hackbench-cr]\ngroups = 1\nloops = 5\niterations = 2\n' >"$tmp/cr.conf"
cr_can_ro=
mkdir "$tmp/cr-probe"
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
	unshare -m sh -c 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"' sh \
		"$tmp/cr-probe" 2>/dev/null; then
	cr_can_ro=1
fi
# cr_reader DIR [ro] ARGS...: kbench ARGS on DIR/k.db (DIR mounted
# read-only with ro), its output in cr.out and cr.err, its status in cr_st.
cr_reader() {
	cr_d=$1
	shift
	if [ "$1" = ro ]; then
		shift
		unshare -m sh -c 'd=$1; shift; mount --bind "$d" "$d" &&
			mount -o remount,bind,ro "$d" && exec "$@"' sh "$cr_d" \
			"$KBENCH" --db "$cr_d/k.db" "$@" >"$tmp/cr.out" 2>"$tmp/cr.err"
	else
		"$KBENCH" --db "$cr_d/k.db" "$@" >"$tmp/cr.out" 2>"$tmp/cr.err"
	fi
	cr_st=$?
}
# cr_read DIR WHAT [ro]: runs and query on DIR/k.db read it: with no
# file, they say there is no store yet; with one, whatever the kill left,
# they read the store (empty if its schema was not committed), or, where
# they may not write, say that its write-ahead log needs a writer first.
cr_read() {
	cr_ro=${3:-}
	for cr_cmd in runs query; do
		# shellcheck disable=SC2086
		if [ "$cr_cmd" = runs ]; then
			cr_reader "$1" $cr_ro runs
		else
			cr_reader "$1" $cr_ro query "SELECT count(*) FROM runs"
		fi
		if [ ! -e "$1/k.db" ]; then
			cr_want="exits 1: no store yet"
			[ "$cr_st" -eq 1 ] &&
				grep -q "no such file (only 'kbench run' creates one)" "$tmp/cr.err"
		else
			cr_want="reads the store"
			[ "$cr_st" -eq 0 ] || { [ -n "$cr_ro" ] && [ "$cr_st" -eq 1 ] &&
				grep -q "is not checkpointed yet; open it once where it can be written" \
					"$tmp/cr.err"; }
		fi
		cr_ok=$?
		ok $cr_ok "$2: ${cr_ro:+read-only }$cr_cmd $cr_want"
		if [ "$cr_ok" -ne 0 ]; then
			echo "#   exit $cr_st; files: $(ls "$1" | tr '\n' ' ')"
			comment "$tmp/cr.err"
		fi
	done
}
# cr_after DIR WHAT: the readers, then a run into the store completes.
cr_after() {
	[ -n "$cr_can_ro" ] && cr_read "$1" "$2" ro
	cr_read "$1" "$2"
	"$KBENCH" --db "$1/k.db" run -c "$tmp/cr.conf" -n again --no-report >/dev/null 2>"$tmp/cr.err"
	cr_st=$?
	ok $cr_st "$2: a run into it then completes"
	[ "$cr_st" -eq 0 ] || comment "$tmp/cr.err"
	check "$2: ... integrity_check is ok" "$KB_SQL" --integrity "$1/k.db"
}
t0=$(now_ms)
"$KBENCH" --db "$tmp/cr0/k.db" recover >/dev/null 2>&1
create_ms=$(( $(now_ms) - t0 ))
diag "a store is created in $create_ms ms"
k=0
for delay in $(kill_points 8 $((create_ms * 2))); do
	k=$((k + 1))
	"$KBENCH" --db "$tmp/cr$k/k.db" run -c "$tmp/cr.conf" -n first --no-report \
		>/dev/null 2>&1 &
	pid=$!
	sleep "$delay"
	kill -9 "$pid" 2>/dev/null
	wait "$pid"
	mkdir -p "$tmp/cr$k"
	cr_after "$tmp/cr$k" "first run killed at $delay s"
done
if command -v strace >/dev/null 2>&1 && strace -qq -o /dev/null true 2>/dev/null; then
	# With SQLite 3.40: pwrite64 1-3 and unlink 1 are the journal of the
	# switch to WAL (4 and fdatasync 3: page 1 written, the journal hot),
	# 4-12 the -shm, 13 the log's header, 14 on its first frames.
	for cr_at in pwrite64:1 pwrite64:2 pwrite64:3 pwrite64:4 pwrite64:12 pwrite64:13 \
		pwrite64:14 pwrite64:20 unlink:1 fdatasync:1 fdatasync:3 fdatasync:5; do
		d=$tmp/cs-${cr_at%:*}-${cr_at#*:}
		mkdir -p "$d"
		strace -f -qq -o /dev/null -e trace="${cr_at%:*}" \
			-e inject="${cr_at%:*}:signal=KILL:when=${cr_at#*:}" \
			"$KBENCH" --db "$d/k.db" run -c "$tmp/cr.conf" -n first --no-report \
			>/dev/null 2>&1
		cr_after "$d" "first run killed before ${cr_at%:*} ${cr_at#*:}"
	done
else
	skip "kill -9 at each write of a new store needs strace"
fi

# ---- kill -9 during an A/B experiment: the knobs restored ----
. "$TOP_SRCDIR/tests/cli/lib-ab.sh"
ab_can=1
for f in $(ab_knobs); do
	{ [ -w "$f" ] && [ "$(id -u)" = 0 ]; } || ab_can=
done
if [ -z "$ab_can" ]; then
	skip "kill -9 during an A/B experiment needs root and writable knobs"
else
	ab_save
	ab_conf "$tmp/ab.conf" "sysctl.vm.percpu_pagelist_high_fraction = 8" \
		"sysfs.$slab_glob = 0" "sysfs.$thp = never"
	before=$(ab_values)
	for delay in $(kill_points 3 1500); do
		"$KBENCH" --db "$tmp/ab.db" ab -c "$tmp/ab.conf" --rounds 40 --no-report \
			>/dev/null 2>&1 &
		pid=$!
		sleep "$delay"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		what="A/B experiment killed at $delay s"
		check "$what: no process of it is left" no_workers
		if [ -e "$tmp/ab.db" ]; then
			intact "$tmp/ab.db" "$what"
			"$KBENCH" --db "$tmp/ab.db" recover >"$tmp/rec" 2>&1
			ok $? "$what: kbench recover succeeds"
		else
			ok 0 "$what: before the store was created"
		fi
		is "$what: every knob reads its original value" "$(ab_values)" "$before"
	done
fi
diag "$complete of 20 kills came after their run had ended"
done_testing
