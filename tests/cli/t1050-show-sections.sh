#!/bin/sh
# kbench show counts the samples of every section of a run on its own line,
# however many sections there are and however long their names.
# Covers: cli/cmd_show.c db/query.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# The store's runs were made on testhost: a bare name means this host.
KBENCH_HOSTNAME=testhost
export KBENCH_HOSTNAME
long=$(printf 'section-with-a-long-name-%.0s' 1 2 3 4 5 6)
"$KB_SQL" --write "$db" "$(cat "$TOP_SRCDIR/tests/data/store-v1.sql")" && "$KB_SQL" --write "$db" "
WITH RECURSIVE i(n) AS (SELECT 0 UNION ALL SELECT n + 1 FROM i WHERE n < 299)
INSERT INTO samples(run_id, section, workload, row, iteration, value, unit, better, flag)
SELECT 1, printf('s%03d', n), 'hackbench', '1', k, 1.0, 's', 'lower',
       CASE WHEN n % 100 = 0 AND k = 1 THEN 'noisy' END
FROM i, (SELECT 1 AS k UNION ALL SELECT 2);
INSERT INTO samples(run_id, section, workload, row, iteration, value, unit, better)
VALUES (1, '$long', 'hackbench', '1', 1, 1.0, 's', 'lower');
INSERT INTO run_meta VALUES (1, '$long', 'workload', 'hackbench'), (1, '$long', 'iterations', '1');"
ok $? "a run with 303 sections is stored"

kb show v1-base >"$tmp/out" 2>&1
ok $? "show exits 0"
n=$(grep -c '^s[0-9][0-9][0-9] ' "$tmp/out")
check "each of the 300 added sections has its line ($n)" test "$n" = 300
check "the last one counts its own samples" grep -Eq '^s299 +2 +0$' "$tmp/out"
check "flags are counted where they are" grep -Eq '^s200 +2 +1$' "$tmp/out"
check "a long section name is printed whole" grep -Eq "^$long +1 +0\$" "$tmp/out"
check "the flagged samples are listed" grep -q '^Flagged samples (3):$' "$tmp/out"
n=$(grep -c "^\[$long\]\$" "$tmp/out")
check "the options of a long-named section come under one heading ($n)" test "$n" = 1
if [ "$tap_failed" -ne 0 ]; then
	diag "show printed:"
	sed -n '/^section/,/^$/p' "$tmp/out" | tail -5 | sed 's/^/#   /'
fi

done_testing
