#!/bin/sh
# t2050: compare neither pools nor compares the samples of a row that
# runs store in different units: it refuses, naming the row, the runs
# and both units, and prints no table. Runs of one unit compare as ever.
# Covers: compare/model.c compare/compare.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# conf UNIT: an external workload whose metric v is in UNIT
conf() {
	printf '%s\n' '[global]' 'workload = external' 'iterations = 2' '' '[latency]' \
		'command = echo v=12' 'metric.v = v=(?<value>[0-9.]+)' "unit.v = $1" \
		'better.v = lower' >"$tmp/$1.conf"
}
conf ms && conf s
check "runs lat-ms (in ms), lat-ms2 (in ms) and lat-s (in s)" \
	kb --quiet run -c "$tmp/ms.conf" -n lat-ms --no-report '&&' \
	kb --quiet run -c "$tmp/ms.conf" -n lat-ms2 --no-report '&&' \
	kb --quiet run -c "$tmp/s.conf" -n lat-s --no-report

kb compare lat-ms lat-ms2 >"$tmp/out" 2>"$tmp/err"
is "runs of one unit compare" "$?" 0
check "... into a table" grep -q '^Amean     v ' "$tmp/out"

kb compare lat-ms lat-s >"$tmp/out" 2>"$tmp/err"
is "runs of two units: refused" "$?" 1
is "... naming the row, the runs and the units" "$(cat "$tmp/err")" \
	"kbench: latency v: 'lat-ms' stores it in 'ms', 'lat-s' in 's': rows of different units are neither pooled nor compared"
is "... and no table" "$(cat "$tmp/out")" ""

check "a second run named lat-ms, in s" kb --quiet run -c "$tmp/s.conf" -n lat-ms --no-report
kb compare --pool lat-ms lat-ms2 >"$tmp/out" 2>"$tmp/err"
is "--pool of the two: refused" "$?" 1
is "... naming both units" "$(cat "$tmp/err")" \
	"kbench: latency v: 'lat-ms' stores it in 'ms', 'lat-ms' in 's': rows of different units are neither pooled nor compared"
is "... and no table" "$(cat "$tmp/out")" ""

# tbench imported from mmtests (MB/sec) against a native run whose config
# names the unit otherwise.
check "an mmtests run imported (tbench in MB/sec)" \
	kb import --mmtests "$TOP_SRCDIR/tests/data/mmtests/log/5.15.0-vanilla"
printf '%s\n' '[global]' 'workload = external' 'iterations = 2' 'param.clients = 1' '' \
	'[tbench]' 'command = echo Throughput 241.2 MB/sec {clients} clients' \
	'metric.tput = ^Throughput (?<value>[0-9.]+) MB/sec' 'unit.tput = MB/s' \
	'better.tput = higher' >"$tmp/tbench.conf"
check "a native tbench whose config says MB/s" \
	kb --quiet run -c "$tmp/tbench.conf" -n native-tbench --no-report
expect_err "... does not compare with it" 1 \
	"kbench: tbench clients-1: '5.15.0-vanilla' stores it in 'MB/sec', 'native-tbench' in 'MB/s': rows of different units are neither pooled nor compared" \
	kb compare --only tbench 5.15.0-vanilla@testhost native-tbench
sed -i 's|unit.tput = MB/s$|unit.tput = MB/sec|' "$tmp/tbench.conf"
check "one whose config says MB/sec, as mmtests' tbench" \
	kb --quiet run -c "$tmp/tbench.conf" -n native-tbench2 --no-report
check "... compares with it" kb compare --only tbench 5.15.0-vanilla@testhost native-tbench2
done_testing
