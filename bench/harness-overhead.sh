#!/bin/sh
# harness-overhead: what kbench itself adds to each sample of 'kbench run'.
# For each shipped config (scaled where a default run would take too long,
# and said so), N samples run through 'kbench run', after the warm-up
# samples the config asks for (stored, marked as warm-up, since schema
# version 7); the run's wall time is set against the samples' own times as
# stored (read back with 'kbench query', not the sqlite3 shell):
#
#   window    the workload's timed span: hackbench's Time, netperf's
#             duration; pft stores no span, so its sample's duration_ns
#   wall%     (wall - sum of windows) / sum of windows, warm-ups' windows
#             included: everything kbench adds to the time the samples
#             measure (the sample's start, the workload's set-up outside
#             its window, the store, monitors, progress, the run's
#             start); the goal is 3% or less (netperf: at the configs'
#             10 s)
#   nowarm%   the same against the measured samples' windows alone: the
#             warm-ups counted as a cost
#   sample    duration_ns: the sample process from spawn to reap
#   all       (wall - sum of windows) / samples, in ms (warm-ups are
#             samples here, as below)
#
# and splits the overhead:
#
#   setup     sample - window - fork: the workload's own work around its
#             window (hackbench creates and reaps its workers there, as
#             rt-tests does: see the peer line)
#   harness   between + fork: what kbench adds between two samples (the
#             sample's start, the store's commit, monitors, progress);
#             harn% is its share of the mean window (this script's figure
#             before wall%, which counts only the time between samples)
#   between   wall - sum of samples - start-up: monitors, the store's
#             commit, progress
#   monitors  the same run with monitors = none, the difference in
#             'between'
#   fork      what starting a sample costs: a run's samples are forked
#             by one kbench-sample serving the run, so a fork of that
#             process, exiting at once and reaped ('kbench-sample
#             --time-forks=EXECS' times it); the header also gives what
#             an exec of kbench-sample (direct mode's start) and of
#             true(1) (any program's) cost here
#   start     once per run: the same 'kbench run --dry-run', which reads
#             the configs, the machine's topology and plans
#
# With rt-tests' hackbench installed (HACKBENCH=path, default from PATH)
# a peer line gives its own wall time less its Time, at 100 loops and
# groups 1, 2 and 4 (the mean of 5): the same setup and teardown outside
# its window, for the 'setup' column's sake.
#
# A figure that cannot be read back (a run that stored no sample, a time
# that is not a number) stops the script with status 1.
#
# Environment: KBENCH (default ./kbench), N (samples per section and row,
# default 5), WARMUP (warm-up samples per row; default: as each config
# says), CONFIGS (default "quick hackbench netperf-rr netperf-rr-pinned
# pft-threads pft-processes"), NETPERF_DURATION (seconds per netperf
# sample, default 2 where the configs say 10; the shares are given for
# 10 s), PFT_SIZE (default 5% where the configs say 20%), EXECS (default
# 200), HACKBENCH (rt-tests hackbench for the peer line).
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/figure.sh"
set -u

KBENCH=${KBENCH:-./kbench}
N=${N:-5}
CONFIGS=${CONFIGS:-quick hackbench netperf-rr netperf-rr-pinned pft-threads pft-processes}
NETPERF_DURATION=${NETPERF_DURATION:-2}
PFT_SIZE=${PFT_SIZE:-5%}
EXECS=${EXECS:-200}
WARMUP=${WARMUP:-}
HACKBENCH=${HACKBENCH:-$(command -v hackbench || true)}

die() {
	echo "harness-overhead: $*" >&2
	exit 1
}

[ -x "$KBENCH" ] || die "no kbench at '$KBENCH' (set KBENCH=)"
sample_prog=$(dirname "$KBENCH")/kbench-sample
[ -x "$sample_prog" ] || die "no kbench-sample next to '$KBENCH'"
srcdir=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/harness-overhead.XXXXXX") || exit 1
trap 'rm -rf "$work"' EXIT
trap 'exit 130' INT TERM
db=$work/store.db

now_ns() {
	date +%s%N
}

# scale CONFIG MONITORS: the shipped config with N samples, WARMUP
# warm-ups when set, and the scaled sizes; MONITORS "none" adds monitors =
# none.
scale() {
	sed -e "s/^iterations = .*/iterations = $N/" \
	    -e "s/^duration = 10$/duration = $NETPERF_DURATION/" \
	    -e "s/^mapping_size = 20%$/mapping_size = $PFT_SIZE/" \
	    "$srcdir/configs/$1.conf" > "$work/$1-$2.conf"
	grep -q '^iterations' "$work/$1-$2.conf" ||
		sed -i "s/^\[global\]$/[global]\niterations = $N/" "$work/$1-$2.conf"
	if [ -n "$WARMUP" ]; then
		sed -i -e '/^warmup = /d' -e "s/^\[global\]$/[global]\nwarmup = $WARMUP/" \
			"$work/$1-$2.conf"
	fi
	[ "$2" = none ] && sed -i 's/^\[global\]$/[global]\nmonitors = none/' "$work/$1-$2.conf"
	return 0
}

# timed_run NAME CONF [--dry-run]: run it, print the wall time in ns
timed_run() {
	t0=$(now_ns)
	"$KBENCH" --quiet --db "$db" run -c "$2" -n "$1" --no-report ${3:-} >"$work/run.out" 2>&1 ||
		{ cat "$work/run.out" >&2; die "kbench run -c $2 failed"; }
	echo $(($(now_ns) - t0))
}

# figures NAME: "samples sum_duration_ns sum_window_ns warmups
# warmup_window_ns" of the run NAME, warm-ups included in the first three.
# One sample may store several results (pft, UDP_STREAM): a sample is a
# (section, round, iteration, start time).
figures() {
	"$KBENCH" --db "$db" query --format csv "
		SELECT count(*), sum(d), sum(w), total(warm), total(warm * w) FROM (
		  SELECT max(s.duration_ns) AS d, max(s.warmup) AS warm,
		         CASE s.workload
		           WHEN 'hackbench' THEN max(s.value) * 1e9
		           WHEN 'netperf' THEN $NETPERF_DURATION * 1e9
		           ELSE max(s.duration_ns) END AS w
		  FROM samples s JOIN runs r ON r.id = s.run_id
		  WHERE r.name = '$1'
		  GROUP BY s.section, s.round, s.iteration, s.started_at)" |
		sed -n '3p' | tr ',' ' '
}

# The cost of exec'ing a program from this shell, the mean of EXECS runs.
exec_cost() {
	t0=$(now_ns)
	i=0
	while [ $i -lt "$EXECS" ]; do
		"$@" 2>/dev/null
		i=$((i + 1))
	done
	awk -v t="$(($(now_ns) - t0))" -v n="$EXECS" 'BEGIN { printf "%.2f", t / n / 1e6 }'
}
# kbench-sample alone (it prints its usage and exits), and the machine's
# floor for a program: true(1), outside the shell.
exec_ms=$(exec_cost "$sample_prog")
true_prog=$(command -v true | grep / || echo /bin/true)
floor_ms=$(exec_cost "$true_prog")
fork_ms=$("$sample_prog" --time-forks="$EXECS" | awk '{ printf "%.2f", $1 / 1e6 }')
[ -n "$fork_ms" ] || die "'$sample_prog --time-forks=$EXECS' failed"

echo "# harness overhead of 'kbench run': $N samples per section and row," \
	"warm-up ${WARMUP:-as each config says}"
echo "# load average: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
echo "# a sample's start, a fork of the serving kbench-sample: $fork_ms ms (mean of $EXECS)"
echo "# exec of kbench-sample, alone, from a shell: $exec_ms ms (mean of $EXECS);" \
	"of $true_prog, the machine's floor: $floor_ms ms"
echo "# netperf samples scaled to $NETPERF_DURATION s (share given at the configs' 10 s);" \
	"pft mapping_size $PFT_SIZE (configs: 20%)"
if [ -n "$HACKBENCH" ] && [ -x "$HACKBENCH" ]; then
	line="# peer: rt-tests hackbench, process sockets, 100 loops, wall - Time (ms):"
	for g in 1 2 4; do
		t0=$(now_ns)
		sum=0
		for i in 1 2 3 4 5; do
			t=$("$HACKBENCH" -g "$g" -l 100 | sed -n 's/^Time: *//p')
			sum=$(awk -v s="$sum" -v t="$t" 'BEGIN { print s + t }')
		done
		line="$line g=$g $(awk -v w="$(($(now_ns) - t0))" -v s="$sum" \
			'BEGIN { printf "%.1f", (w / 1e6 - s * 1000) / 5 }')"
	done
	echo "$line"
fi
printf '%-18s %7s %6s %9s %7s %6s %8s %8s %8s %8s %7s %8s %8s %8s\n' config samples warmup \
	"window-s" "wall%" goal "nowarm%" "all-ms" "setup-ms" "harn-ms" "harn%" "betw-ms" \
	"monit-ms" "start-ms"
for c in $CONFIGS; do
	[ -f "$srcdir/configs/$c.conf" ] || die "no config configs/$c.conf"
	scale "$c" all
	scale "$c" none
	start=$(timed_run "$c-dry" "$work/$c-all.conf" --dry-run)
	wall=$(timed_run "$c-all" "$work/$c-all.conf")
	wall_none=$(timed_run "$c-none" "$work/$c-none.conf")
	figures "$c-all" > "$work/fig"
	read -r n dur win nw winw < "$work/fig"
	need_figure "$c: the samples' time" "${win:-}" "$work/fig"
	figures "$c-none" > "$work/fig"
	read -r n_none dur_none _ < "$work/fig"
	need_figure "$c, monitors = none: the samples' time" "${dur_none:-}" "$work/fig"
	awk -v c="$c" -v n="$n" -v wall="$wall" -v dur="$dur" -v win="$win" -v nw="$nw" \
	    -v winw="$winw" -v nn="$n_none" -v start="$start" -v walln="$wall_none" \
	    -v durn="$dur_none" -v fork="$fork_ms" \
	    -v scale="$([ "${c#netperf}" != "$c" ] && echo "10 / $NETPERF_DURATION" || echo 1)" '
	BEGIN {
		split(scale, s, " / "); k = (s[2] ? s[1] / s[2] : 1)
		all = (wall - win) / n / 1e6
		mean_win = win / n / 1e6
		# Everything kbench adds, against the windows of every sample
		# (warm-ups included), and of the measured ones alone.
		wallpct = 100 * all / (mean_win * k)
		nowarm = 100 * (wall - win + k * winw) / (k * (win - winw))
		setup = (dur - win) / n / 1e6 - fork
		if (setup < 0) setup = 0
		between = (wall - dur - start) / n / 1e6
		harness = between + fork
		share = 100 * harness / (mean_win * k)
		# monitors: the between-sample time with them less without
		mon = between - (walln - durn - start) / nn / 1e6
		printf "%-18s %7d %6d %9.3f %7.2f %6s %8.2f %8.2f %8.2f %8.2f %7.3f %8.2f %8.2f %8.1f\n",
			c, n - nw, nw, mean_win / 1000, wallpct, wallpct <= 3 ? "ok" : "MISSED", nowarm,
			all, setup, harness, share, between, mon, start / 1e6
	}'
done
