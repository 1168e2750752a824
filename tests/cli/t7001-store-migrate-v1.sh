#!/bin/sh
# A store written with schema version 1 is migrated to the current version
# (7) when kbench first opens it: each monitor value gets the kind its key
# stood for, no value changes, and show and compare print what version 1
# printed (tests/data/store-v1.transcript was made by kbench before the
# migration existed; it is a record of that version, not to be
# regenerated; only its compare parts were rewritten when compare's output
# changed on purpose: the header block, numeric row order, Ops as a mean
# per sample, and the between-run noise lines, the ~ and + marks and the
# json noise fields, each run's kind and different_kinds). One line differs on purpose: version 1 counted
# result rows as samples, and the run has 9 samples (6 hackbench, 3 pft)
# for 12 rows.
. "$TOP_SRCDIR/tests/cli/lib.sh"

data=$TOP_SRCDIR/tests/data
# The store's runs were made on testhost: a bare name means this host.
KBENCH_HOSTNAME=testhost
export KBENCH_HOSTNAME

"$KB_SQL" --write "$db" "$(cat "$data/store-v1.sql")"
ok $? "the version-1 store loads"
values=$(sql "SELECT count(*) || ' ' || total(value) FROM monitor_values")
check "it is at schema version 1" test "$(sql 'PRAGMA user_version')" = 1

# The commands of the transcript, one a line, run in this order (the first
# one migrates).
transcript() {
	while read -r cmd; do
		echo "\$ kbench $cmd"
		# shellcheck disable=SC2086 # the arguments are words
		kb $cmd 2>&1
		echo "[exit $?]"
	done <<-'COMMANDS'
	show v1-new
	show --monitors v1-base
	show --monitors v1-new
	show --slab v1-new
	compare v1-base v1-new
	compare --monitors all v1-base v1-new
	compare --format json --monitors all v1-base v1-new
	COMMANDS
}

transcript > "$tmp/got"
# KBENCH_REGEN=1 rewrites the expected transcript from what was printed.
if [ -n "${KBENCH_REGEN:-}" ]; then
	sed 's/^  samples     9 (1 failed)$/  samples     12 (1 failed)/' "$tmp/got" \
		> "$data/store-v1.transcript"
fi
sed 's/^  samples     12 (1 failed)$/  samples     9 (1 failed)/' \
	"$data/store-v1.transcript" > "$tmp/want"
if cmp -s "$tmp/want" "$tmp/got"; then
	ok 0 "show and compare print what version 1 printed"
else
	ok 1 "show and compare print what version 1 printed"
	diff -u "$tmp/want" "$tmp/got" | sed 's/^/# /'
fi

v=$(sql 'PRAGMA user_version')
check "the store is now at schema version 12 ($v)" test "$v" = 12
got=$(sql "SELECT count(*) || ' ' || total(value) FROM monitor_values")
check "no monitor value is lost or changed ($got)" test "$got" = "$values"
got=$(sql "SELECT count(*) || ' ' || total(round = 1) FROM samples")
check "every sample is of round 1 ($got)" test "${got% *}" -gt 0 -a "${got% *}.0" = "${got#* }"
check "no row results" test "$(sql 'SELECT count(*) FROM row_results')" = 0
check "no warm-up among the samples" test "$(sql 'SELECT total(warmup) FROM samples')" = 0.0
got=$(sql "SELECT group_concat(name || '=' || nsamples, ' ') FROM runs")
check "each run's count is stored: samples, not result rows ($got)" \
	test "$got" = "v1-base=9 v1-new=9"

# Every kind but delta, by what version 1 recognised it from.
want="perf/cycles:running=fraction rusage/max-rss-bytes=max slab/SReclaimable:after=after"
want="$want slab/SReclaimable:before=before slab/SUnreclaim:after=after"
want="$want slab/SUnreclaim:before=before slab/Slab:after=after slab/Slab:before=before"
want="$want slabcache/row after=after slabcache/row before=before"
got=$(sql "SELECT group_concat(k, ' ') FROM (SELECT DISTINCT source || '/' ||
	CASE source WHEN 'slabcache' THEN 'row ' || row ELSE key END || '=' || kind AS k
	FROM monitor_values WHERE kind <> 'delta' ORDER BY k)")
if [ "$got" = "$want" ]; then
	ok 0 "maxima, fractions and before/after pairs get their kind"
else
	ok 1 "maxima, fractions and before/after pairs get their kind"
	diag "want: $want"
	diag "got:  $got"
fi
n=$(sql "SELECT count(*) FROM monitor_values WHERE kind = 'delta' AND
	(key GLOB '*:*' OR key = 'max-rss-bytes' OR source = 'slabcache')")
check "every other value is a delta ($n left over)" test "$n" = 0

check "the migrated store opens again" kb runs
check "and stays at version 12" test "$(sql 'PRAGMA user_version')" = 12

done_testing
