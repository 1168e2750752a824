#!/bin/sh
# t4002-pft-run: pft through `kbench run`: the shipped configs' sections
# run (shrunk to a tiny mapping), every row and value is stored, a dying
# worker is a recorded failure and the run goes on, bad sizes in a config
# are errors naming the file, line and section.
# Covers: workloads/pft.c runner/runner.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# check, with the command as one string, and its output shown on failure.
checkx() {
	if eval "$2"; then
		ok 0 "$1"
	else
		ok 1 "$1"
		sed 's/^/#   /' "$tmp/out" "$tmp/err"
	fi
}
# A hung sample must fail the test, not hang it.
kb() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }

cpus=$(nproc)
[ "$cpus" -gt 2 ] && cpus=2
rows=$(seq 1 "$cpus" | tr '\n' ' ')

# The shipped configs, shrunk: 64 MiB (a few scheduler ticks per worker,
# so that CPU time is measurable), two samples, worker counts 1..2.
for model in threads processes; do
	sed -e 's/^mapping_size = .*/mapping_size = 64M/' -e 's/^iterations = .*/iterations = 2/' \
	    -e "s/^workers = .*/workers = $rows/" \
	    "$TOP_SRCDIR/configs/pft-$model.conf" >"$tmp/pft-$model.conf"
	kb run -n tiny -c "$tmp/pft-$model.conf"
	checkx "configs/pft-$model.conf runs (shrunk)" '[ $rc -eq 0 ]'
	for w in $rows; do
		checkx "[pft-$model] $w workers: two samples, each with a warm-up first" \
			'[ $(grep -c "\[pft-$model\] workers $w: sample [12]/2: system-$w " "$tmp/err") -eq 2 ] &&
			 grep -q "\[pft-$model\] workers $w: warm-up 1/1:" "$tmp/err"'
	done
done
kb runs
per_run=$(( $(echo $rows | wc -w) * 2 ))
checkx "both runs complete, $per_run samples each" \
	'[ $(grep -c " tiny .* pft-.* complete *$per_run [^ ]*\$" "$tmp/out") -eq 2 ]'
checkx "... of 4 values each" \
	'[ "$(sql "SELECT count(*) FROM samples WHERE warmup = 0")" -eq $((2 * per_run * 4)) ]'
kb show '#1'
checkx "a sample that faulted every page once is not flagged" \
	'grep -Eq "^pft-threads +[0-9]+ +0$" "$tmp/out"'

# Worker counts above the CPUs: capped, flagged, stored under the row asked.
over=$(( $(nproc) + 1 ))
cat >"$tmp/over.conf" <<EOC
[pft-threads]
iterations = 1
workers = $over
mapping_size = 64M
EOC
kb run -c "$tmp/over.conf"
checkx "$over workers on $(nproc) CPUs: the run completes" '[ $rc -eq 0 ]'
checkx "... and says so on the sample's line" \
	'grep -q "system-$over .*\[ran $(nproc) workers, not $over: capped at the CPUs this process may use\]" "$tmp/err"'
kb show '#3'
checkx "... and in the store" \
	'grep -q "\[pft-threads\] system-$over sample 1: .*FLAGGED: ran $(nproc) workers, not $over" "$tmp/out"'

# A worker killed mid-sample: a recorded failure, then the next section.
if [ "$(nproc)" -ge 2 ]; then
	cat >"$tmp/die.conf" <<'EOC'
[global]
iterations = 1
mapping_size = 16M
workers = 2

[pft-processes]
model = processes
kill_worker = 1

[pft-threads]
model = threads
kill_worker = 1
kill_point = ready

[pft-after]
workload = pft
EOC
	kb run -c "$tmp/die.conf"
	checkx "dying workers: the run ends, the sections after still run" \
		'[ $rc -ne 124 ] && grep -q "\[pft-after\] workers 2: sample 1/1: system-2 " "$tmp/err"'
	kb show '#4'
	checkx "a killed worker process is a failure naming it" \
		'grep -Eq "^  \[pft-processes\] row 2 sample 1: worker 1 \(pid [0-9]+\) was killed by signal 9 \(Killed\)$" "$tmp/out"'
	checkx "a killed worker thread is a failure of the sample's process" \
		'grep -Eq "^  \[pft-threads\] row 2 sample 1: .*killed by signal 9" "$tmp/out"'
else
	for i in 1 2 3; do skip "one CPU: no second worker to kill"; done
fi
runs=3
[ "$(nproc)" -ge 2 ] && runs=4

# A pinned section: the plan is stored with the run, no sample is flagged.
cat >"$tmp/pin.conf" <<EOC
[pft-processes]
model = processes
iterations = 2
workers = $rows
mapping_size = 64M
pin = spread
EOC
kb run -c "$tmp/pin.conf"
checkx "pin = spread: the run completes" '[ $rc -eq 0 ] && ! grep -q "\[.*pinned CPU" "$tmp/err"'
kb show "#$(( runs + 1 ))"
is "... its plan is stored with it: the PUs kbench topology picks" \
	"$(sed -n 's/^  pin_cpus  *//p' "$tmp/out")" \
	"spread: $("$KBENCH" topology --cpus spread | sed 's/[0-9][0-9]*/P#&/g')"
checkx "... and no sample is flagged" 'grep -Eq "^pft-processes +$((per_run * 4)) +0$" "$tmp/out"'
runs=$((runs + 1))

# Bad sizes in a config: errors before anything runs.
printf '[pft-threads]\nworkers = 1\nmapping_size = 0\n' >"$tmp/zero.conf"
expect_transcript "mapping_size = 0 in a config rejected" "$KBENCH" --db "$db" run -c "$tmp/zero.conf" <<'T'
$ kbench --db TMP/k.db run -c TMP/zero.conf
2> kbench: TMP/zero.conf:1: [pft-threads] 'mapping_size' is 0 bytes: the mapping must hold at least one page
[exit 2]
T
printf '[pft-threads]\nworkers = 1\nmapping_size = a lot\n' >"$tmp/word.conf"
expect_transcript "mapping_size that is not a size rejected with its line" \
	"$KBENCH" --db "$db" run -c "$tmp/word.conf" <<'T'
$ kbench --db TMP/k.db run -c TMP/word.conf
2> kbench: TMP/word.conf:3: invalid value 'a lot' for 'mapping_size': expected a size in bytes (e.g. 4096, 64k, 64M, 2G, or 20% of MemTotal) (in [pft-threads])
[exit 2]
T
kb runs
checkx "no run was started for them" '[ $(grep -c "^ *[0-9]" "$tmp/out") -eq $runs ]'

done_testing
