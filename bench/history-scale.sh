#!/bin/sh
# history-scale: how long history, regressions, runs and import take on a
# store of months of nightly runs. Builds 10,000 runs x 50 samples (5 hosts
# x 10 configs x 200 nights; 10 rows x 5 iterations a run: 500 series of
# 200 points; config cfg-3 gets 5% slower from night 120 on) through SQL in
# one transaction, then times, best of three:
#   runs                          goal < 0.1 s
#   history of one row            goal < 0.2 s
#   regressions over 500 series   goal < 2 s
#   import of a 100,000-sample bundle (2,000 runs) into a new store: goal < 1 s
# Each command must end with the status it has on such a store
# (regressions 1: it finds the slowdown; the others 0); one that does not,
# or whose time cannot be read, stops the script with status 1.
# Variables: NIGHTS (default 200, at least 10: 50 runs a night; the
# slowdown starts at three fifths of them, the bundle holds at most 2,000
# runs).
# Usage: bench/history-scale.sh [KBENCH]   (default ./kbench; needs sqlite3)
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/empty-store.sh"
. "$(dirname "$0")/figure.sh"
set -e
kbench=${1:-${KBENCH:-./kbench}}
NIGHTS=${NIGHTS:-200}
[ "$NIGHTS" -ge 10 ] 2>/dev/null ||
	{ echo "history-scale: NIGHTS must be a number of nights, 10 or more" >&2; exit 2; }
runs=$((NIGHTS * 50))
slow=$((NIGHTS * 3 / 5))
bundled=$((runs < 2000 ? runs : 2000))
command -v sqlite3 >/dev/null || { echo "history-scale: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 2; }
tmp=$(mktemp -d ./history-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/scale.db

empty_store "$kbench" "$db"
start=$(date +%s.%N)
nightly_rows "$db" "$runs" "$slow" history-scale
end=$(date +%s.%N)
echo "store: $(sqlite3 "$db" 'SELECT count(*) FROM runs') runs, $(sqlite3 "$db" 'SELECT count(*) FROM samples') samples, built in $(echo "$end - $start" | bc) s"

# best STATUS CMD...: "WALL CPU" of the run with the best wall time of
# three, in seconds (CPU: user + system, from /usr/bin/time; "-" without
# it). On a loaded machine wall time waits for CPUs and disks: CPU time
# says what the command itself costs. CMD must exit with STATUS; when it
# does not, it says so and prints nothing.
best() {
	want=$1
	shift
	bw= bc_=-
	for i in 1 2 3; do
		# Wall time from the clock in ns: /usr/bin/time's %e has 10 ms
		# steps, and a small store's command takes less.
		s=$(date +%s.%N)
		if [ -x /usr/bin/time ]; then
			/usr/bin/time -f '%U %S' -o "$tmp/time" "$@" >/dev/null 2>"$tmp/err" &&
				rc=0 || rc=$?
			w=$(echo "$(date +%s.%N) - $s" | bc)
			# the last line: a failing command adds one before it
			read -r u sy <<-EOT
			$(tail -1 "$tmp/time")
			EOT
			c=$(printf '%.2f' "$(echo "$u + $sy" | bc)")
		else
			"$@" >/dev/null 2>"$tmp/err" && rc=0 || rc=$?
			w=$(echo "$(date +%s.%N) - $s" | bc) c=-
		fi
		if [ "$rc" != "$want" ]; then
			echo "history-scale: '$*' exited with status $rc, expected $want:" >&2
			sed 's/^/  | /' "$tmp/err" >&2
			return 1
		fi
		if [ -z "$bw" ] || [ "$(echo "$w < $bw" | bc)" = 1 ]; then bw=$w bc_=$c; fi
	done
	echo "$bw $bc_"
}
report() {	# report WHAT "WALL CPU" GOAL
	need_figure "$1: its wall time" "${2%% *}"
	set -- "$1" ${2} "$3"
	printf '%-36s wall %6.3f s  cpu %6s s  (goal < %s s)%s\n' "$1" "$2" "$3" "$4" \
		"$([ "$(echo "$2 < $4" | bc)" = 1 ] || echo '  wall over goal')"
}
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"

report "runs ($runs runs)" "$(best 0 "$kbench" --db "$db" runs)" 0.1
report "history of one row ($NIGHTS runs)" "$(best 0 "$kbench" --db "$db" history --config cfg-3 \
	--host host-1 --section hackbench-process-pipes --row 1)" 0.2
report "regressions (500 series)" "$(best 1 "$kbench" --db "$db" regressions)" 2
"$kbench" --db "$db" regressions | tail -1

ids=$(seq -f '#%g' 1 "$bundled")
# shellcheck disable=SC2086 # one argument a run
"$kbench" --db "$db" export $ids -o "$tmp/bundle.kbb" >/dev/null
echo "bundle: $(sqlite3 "$tmp/bundle.kbb" 'SELECT count(*) FROM samples') samples, $(du -k "$tmp/bundle.kbb" | cut -f1) KiB"
# shellcheck disable=SC2016 # expanded by the inner shell
report "import of the bundle (new store)" "$(best 0 sh -c 'rm -f "$1"*; "$2" --db "$1" import "$3"' \
	import "$tmp/new.db" "$kbench" "$tmp/bundle.kbb")" 1
