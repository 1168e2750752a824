#!/bin/sh
# t1312-everyday-calibrate: kbench calibrate takes -o and --only as kbench
# run does: the runs it makes hold only the sections --only matches, with
# the -o keys set, and a bad -o is refused before anything runs.
# Covers: cli/cmd_calibrate.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat >"$tmp/c.conf" <<'CONF'
[hackbench-a]
loops = 10
groups = 1
iterations = 2

[hackbench-b]
loops = 10
groups = 1
iterations = 2
CONF
check "calibrate -o loops=20 --only '^hackbench-a\$' --runs 3" \
	kb --quiet calibrate -c "$tmp/c.conf" --runs 3 -o loops=20 --only '^hackbench-a$'
cp "$tmp/check.out" "$tmp/table"
is "three runs, each with the section --only matched alone" \
	"$(sql "SELECT run_id, section, count(*) FROM samples GROUP BY run_id, section")" \
	"1|hackbench-a|2
2|hackbench-a|2
3|hackbench-a|2"
is "... each started with the -o given" \
	"$(sql "SELECT run_id, value FROM run_meta WHERE key = 'override' ORDER BY run_id")" \
	"1|loops=20
2|loops=20
3|loops=20"
is "... which set loops in the section run" \
	"$(sql "SELECT DISTINCT section || ' ' || key || '=' || value FROM run_meta
		WHERE key = 'loops'")" "hackbench-a loops=20"
is "the table names only that section" "$(grep -c '^hackbench-' "$tmp/table")" 1
expect_transcript "a -o naming no key of the configs is refused before anything runs" \
	kb calibrate -c "$tmp/c.conf" -o lops=20 <<'T'
$ kb calibrate -c TMP/c.conf -o lops=20
2> kbench: -o 'lops=20': unknown key 'lops' in [global] (did you mean 'loops'?)
[exit 2]
T
expect_transcript "an --only that matches nothing is refused" \
	kb calibrate -c "$tmp/c.conf" --only nothing <<'T'
$ kb calibrate -c TMP/c.conf --only nothing
2> kbench: no section matches --only 'nothing'
[exit 2]
T
is "... and nothing was stored" "$(sql 'SELECT count(*) FROM runs')" 3

done_testing
