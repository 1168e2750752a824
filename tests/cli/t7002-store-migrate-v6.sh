#!/bin/sh
# t7002-store-migrate-v6: a store of schema version 6 is migrated to
# the current version when kbench first opens it: every sample it holds is a
# measured one (warmup 0), each run's sample count is stored with it
# (runs.nsamples: one a sample, as runs and show counted them, a pft
# sample's four result rows once), and runs and show print what they
# printed before. The version-6 store is one this kbench wrote, with the
# two columns of version 7, the tables of version 9 (bisections) and
# what versions 10, 11 and 12 added dropped.
. "$TOP_SRCDIR/tests/cli/lib.sh"

val() { "$KB_SQL" "$db" "$1"; }

cat > "$tmp/m.conf" <<'CONF'
[hackbench-process-pipes]
transport = pipes
groups = 1 2
loops = 10
iterations = 2

[pft-threads]
workload = pft
workers = 1
mapping_size = 8M
iterations = 3
CONF
check "a run of hackbench and pft is stored" kb --quiet run -c "$tmp/m.conf" -n m --no-report
check "... and a second one" kb --quiet run -c "$tmp/m.conf" -n m2 --no-report
rows=$(val "SELECT count(*) FROM samples")
kb runs > "$tmp/runs-before" 2>&1
kb show m > "$tmp/show-before" 2>&1
"$KB_SQL" --write "$db" "DROP TABLE watch_mails; DROP TABLE watch_verdicts;
	DROP TABLE watch_cycles; DROP TABLE watches; ALTER TABLE samples DROP COLUMN warmup;
	ALTER TABLE runs DROP COLUMN nsamples; DROP TABLE bisect_steps;
	DROP TABLE bisect_commits; DROP TABLE bisects; DROP TABLE experiment_looks;
	ALTER TABLE experiments DROP COLUMN design;
	ALTER TABLE knob_journal DROP COLUMN written; PRAGMA user_version = 6"
ok $? "the store is taken back to version 6"
is "... without the columns of version 7" \
	"$(val "SELECT count(*) FROM pragma_table_info('samples') WHERE name = 'warmup'")
$(val "SELECT count(*) FROM pragma_table_info('runs') WHERE name = 'nsamples'")" "0
0"

kb runs > "$tmp/runs-after" 2>&1
ok $? "runs opens it"
is "... which is now at version 12" "$(val 'PRAGMA user_version')" 12
is "... with every sample a measured one" \
	"$(val "SELECT count(*) || ' ' || total(warmup) FROM samples")" "$rows 0.0"
is "... each run's count stored: 2 x 2 hackbench samples and 3 pft ones" \
	"$(val "SELECT group_concat(nsamples, ' ') FROM runs")" "7 7"
is "... and runs lists what it listed" "$(cat "$tmp/runs-after")" "$(cat "$tmp/runs-before")"
kb show m > "$tmp/show-after" 2>&1
is "... as show shows it" "$(cat "$tmp/show-after")" "$(cat "$tmp/show-before")"
check "a run after the migration is stored" kb --quiet run -c "$tmp/m.conf" -n m3 --no-report
is "... and counted as it goes" "$(val "SELECT nsamples FROM runs WHERE name = 'm3'")" 7
done_testing
