#!/bin/sh
# t8503: fleet collect meeting a bad bundle among good ones, its name
# sorting before the good ones and then after them: every bundle is tried
# and the bad one named, the summary table is printed, the same both ways,
# and the exit status is 1. A host's newest run is the one that started
# last, then finished last, whichever bundle the collect met first.
# Covers: fleet/collect.c db/fleet.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cd "$tmp" || exit 1
printf '[hackbench-process-pipes]\niterations = 1\nloops = 10\ngroups = 1\n' >hb.conf
node=$tmp/node.db
for n in old new; do
	check "run '$n' on the node" \
		env KBENCH_HOSTNAME=h1 "$KBENCH" --db "$node" run --no-report -n "$n" -c hb.conf
done
# Both started in the same second; 'new' finished after 'old'.
"$KB_SQL" --write "$node" "UPDATE runs SET started_at = '2026-01-02T03:04:05Z';
	UPDATE runs SET finished_at = '2026-01-02T03:04:06Z' WHERE name = 'old';
	UPDATE runs SET finished_at = '2026-01-02T03:04:07Z' WHERE name = 'new'"
ok $? "the node's runs share a start time"
for n in old new; do
	check "export '$n'" "$KBENCH" --db "$node" export "$n@h1" -o "$n.kbench"
done

# results-a: bad, new, old in name order; results-b: old, new, bad.
mkdir -p results-a/h1 results-b/h1
cp new.kbench results-a/h1/44444444-4444-4444-4444-444444444444.kbench
cp old.kbench results-a/h1/55555555-5555-5555-5555-555555555555.kbench
printf 'not a bundle' >results-a/h1/00000000-0000-0000-0000-000000000000.kbench
cp old.kbench results-b/h1/44444444-4444-4444-4444-444444444444.kbench
cp new.kbench results-b/h1/55555555-5555-5555-5555-555555555555.kbench
printf 'not a bundle' >results-b/h1/ffffffff-ffff-ffff-ffff-ffffffffffff.kbench

TMPDIR=$tmp
export TMPDIR
for o in a b; do
	"$KBENCH" --db "$tmp/central-$o.db" fleet collect "results-$o" >"out-$o" 2>"err-$o"
	is "results-$o: a bad bundle fails the collect" "$?" 1
	check "... naming it" grep -Eqx \
		"kbench: '$tmp/results-$o/h1/(0{8}-0{4}-0{4}-0{4}-0{12}|f{8}-f{4}-f{4}-f{4}-f{12})\.kbench' not collected; a later collect tries it again" \
		"err-$o"
	is "... the table and the total are printed" \
		"$(sed "s|results-$o|RESULTS|" "out-$o")" \
		"host  bundles    new  runs added  newest run
h1          3      2           2  new  2026-01-02T03:04:05Z
$tmp/RESULTS: 2 new bundles, 2 runs added (2 samples); 1 bundle could not be collected"
	is "... both good runs are stored" \
		"$("$KB_SQL" "$tmp/central-$o.db" "SELECT name FROM runs ORDER BY name")" "new
old"
done
check "no scratch directory is left" test -z "$(find "$tmp" -name 'kbench-collect-*')"

# Again: the bad bundle is tried again, the good ones are not.
"$KBENCH" --db "$tmp/central-a.db" fleet collect results-a >out 2>err
is "a second collect fails again on the bad bundle" "$?" 1
is "... and collects nothing new" "$(sed -n '$p' out)" \
	"$tmp/results-a: 0 new bundles, 0 runs added (0 samples); 1 bundle could not be collected"
done_testing
