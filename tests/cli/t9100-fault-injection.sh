#!/bin/sh
# kill -9 at 20 random points of a small run of three workloads (seeded:
# T9100_SEED=N repeats a sequence). After each kill: the store passes
# PRAGMA integrity_check, it holds every sample the progress lines
# reported (and at most the one committed as the kill landed), the run
# reads as interrupted, and no process of it is left. Each run is then
# resumed, killed again, ..., and ends complete with a clean run's samples.
. "$TOP_SRCDIR/tests/cli/lib.sh"

# One value of a query on the store, through kb-sql.
val() { "$KB_SQL" "$db" "$1"; }
# Sample sets (one per measured sample, whatever its rows) of run $1.
sets() { val "SELECT count(*) FROM (SELECT DISTINCT section, iteration, started_at
	FROM samples WHERE run_id = $1)"; }
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
	[ "$id" -gt 0 ] && status=$("$KBENCH" --db "$db" runs --name "$name" |
		awk 'NR == 2 { print $(NF - 1) }')
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
			(SELECT 1 FROM samples WHERE run_id = $id
			 GROUP BY section, row, iteration HAVING count(*) > 1)")" = 0
	fi
	g=$((g + 1))
done
check "the store is intact at the end" "$KB_SQL" --integrity "$db"
diag "$complete of 20 kills came after their run had ended"
done_testing
