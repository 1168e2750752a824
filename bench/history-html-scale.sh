#!/bin/sh
# history-html-scale: how long kbench history --format html takes for a
# fleet's worth of series. Builds a store of 500 series (5 hosts x 10
# configs x 10 rows, NIGHTS nightly runs each: 50 runs a night, 5 samples
# a row; config cfg-3 gets 5% slower from three fifths of the nights on,
# so that the page has change points to mark) through SQL in one
# transaction, then times, best of three, the html page of every series of
# the last night's 50 runs (history RUN..., 500 series) and measures its
# size (wall time, and CPU time: on a loaded machine wall time waits for
# CPUs). Goal: under 2 s. Exits 1 when the goal is missed or a figure could
# not be measured (history failed, a time that is not a number), 2 when
# it cannot run (no sqlite3, no gnuplot).
# Variables: NIGHTS (default 200, at least 10).
# Usage: bench/history-html-scale.sh [KBENCH]   (default ./kbench; needs sqlite3)
. "$(dirname "$0")/usage.sh"
. "$(dirname "$0")/empty-store.sh"
set -e
kbench=${1:-${KBENCH:-./kbench}}
NIGHTS=${NIGHTS:-200}
[ "$NIGHTS" -ge 10 ] 2>/dev/null ||
	{ echo "history-html-scale: NIGHTS must be a number of nights, 10 or more" >&2; exit 2; }
runs=$((NIGHTS * 50))
slow=$((NIGHTS * 3 / 5))
command -v sqlite3 >/dev/null ||
	{ echo "history-html-scale: needs the sqlite3 CLI (apt-get install sqlite3)" >&2; exit 2; }
command -v gnuplot >/dev/null ||
	{ echo "history-html-scale: needs gnuplot (apt-get install gnuplot-nox)" >&2; exit 2; }
tmp=$(mktemp -d ./history-html-scale.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db=$tmp/scale.db

empty_store "$kbench" "$db"
nightly_rows "$db" "$runs" "$slow" history-html-scale
echo "store: $(sqlite3 "$db" 'SELECT count(*) FROM runs') runs, $(sqlite3 "$db" 'SELECT count(*) FROM samples') samples"
echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) CPUs"

last=$(seq -f '#%g' $((runs - 49)) "$runs")
best= cpu=-
for i in 1 2 3; do
	s=$(date +%s.%N)
	# shellcheck disable=SC2086 # one argument a run
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f '%U %S' -o "$tmp/time" "$kbench" --db "$db" history --format html \
			-o "$tmp/h.html" $last || { best=; break; }
		read -r u sy < "$tmp/time"
		c=$(printf '%.2f' "$(echo "$u + $sy" | bc)")
	else
		"$kbench" --db "$db" history --format html -o "$tmp/h.html" $last || { best=; break; }
		c=-
	fi
	t=$(echo "$(date +%s.%N) - $s" | bc)
	if [ -z "$best" ] || [ "$(echo "$t < $best" | bc)" = 1 ]; then best=$t cpu=$c; fi
done
series=$(grep -c '^<section id="series' "$tmp/h.html" 2>/dev/null) || series=0
size=$(stat -c %s "$tmp/h.html" 2>/dev/null) || size=
case $best in '' | *[!0-9.]*)
	echo "history html of 500 series: could not be measured (history failed)"
	exit 1 ;;
esac
verdict=ok status=0
[ "$series" = 500 ] || { verdict="but $series series, not 500"; status=1; }
[ "$(echo "$best < 2" | bc)" = 1 ] || { verdict="OVER the 2 s goal"; status=1; }
printf 'history html of %s series (%s runs each): %.3f s (cpu %s s), %s KiB  %s\n' "$series" \
	"$NIGHTS" "$best" "$cpu" "$((size / 1024))" "$verdict"
exit $status
