#!/bin/sh
# t1308-everyday-report: the report after a run compares it with the
# previous complete run here with the same effective options, whatever
# its config file, and names it; a run of the same config name with other
# options is not compared, its changed options are listed; comment and
# whitespace edits do not count; a run stored without its options is
# matched by config name. --dry-run estimates from the stored durations
# of the last run of the same options, scaled to the plan.
# Covers: views/report.c runner/effective.c compare/compare.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

mkdir "$tmp/a" "$tmp/b"
cat > "$tmp/a/t.conf" <<'CONF'
[hackbench-x]
loops = 10
groups = 1
iterations = 2
warmup = 1
CONF
cat > "$tmp/b/t.conf" <<'CONF'
[hackbench-x]
loops = 20
groups = 1
iterations = 2
warmup = 1
CONF
# report DESC RUN-ARGS...: kbench run, its report in $tmp/out;
# after_table: what that report says after the run's own table.
report() {
	desc=$1
	shift
	check "$desc" kb --quiet run "$@"
	cp "$tmp/check.out" "$tmp/out"
}
after_table() { sed -n '/^\(Compared with\|Not compared\|Nothing to compare\)/,/^$/p' "$tmp/out" |
	sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/DATE/'; }

report "a first run" -c "$tmp/a/t.conf" -n a1
is "... has nothing to compare with" "$(after_table)" \
"Nothing to compare with yet: this is the first complete run of config 't' here.
Run it again (on the kernel to compare with, say) and the report ends with the
comparison of the two; 'kbench compare BASE NEW' compares any two runs."
report "a config of the same file name with another loops" -c "$tmp/b/t.conf" -n b1
is "... is not compared: the options that differ are listed" "$(after_table)" \
"Not compared with a1 (id 1, DATE), the previous complete run of
config 't' here: config differs
  [hackbench-x]
    loops: 10 -> 20
('kbench compare @1 @2' compares them anyway)"
report "a second run of the first config" -c "$tmp/a/t.conf" -n a2
is "... is compared with the run of the same options, not the latest of the name" \
	"$(after_table)" \
	"Compared with a1 (id 1, DATE), the previous complete run here
with the same effective options:"
{ echo '# the same test, commented'; sed 's/ = /=/; s/$/   /' "$tmp/a/t.conf"; } >"$tmp/a/t2"
mv "$tmp/a/t2" "$tmp/a/t.conf"
report "comment and whitespace edits" -c "$tmp/a/t.conf" -n a3
is "... do not count" "$(after_table)" \
	"Compared with a2 (id 3, DATE), the previous complete run here
with the same effective options:"
report "-o that makes the other config the same" -c "$tmp/b/t.conf" -o loops=10 -n b2
is "... is compared with a run of those options" "$(after_table)" \
	"Compared with a3 (id 4, DATE), the previous complete run here
with the same effective options:"

# Runs stored before their sections' options were: by config name.
printf '[hackbench-y]\nloops = 10\ngroups = 1\niterations = 1\n' >"$tmp/c.conf"
report "a run of another config" -c "$tmp/c.conf" -n c1
sql_write "DELETE FROM run_meta WHERE run_id = 6"
report "the next run of it, the first stored without its options" -c "$tmp/c.conf" -n c2
is "... is compared by config name, saying why" "$(after_table)" \
	"Compared with c1 (id 6, DATE), the previous complete run of
config 'c' here (stored without its effective options):"

# --dry-run: each sample of b2 (the last run of a's options, through its
# -o) took 30 s; the plan has 3 (warm-up included).
sql_write "UPDATE samples SET duration_ns = 30000000000 WHERE run_id = 5"
expect_transcript "--dry-run estimates from the last run of the same options" \
	kb run -c "$tmp/a/t.conf" --dry-run <<'T'
$ kb run -c TMP/a/t.conf --dry-run
section                      workload   iters warmup  rows
hackbench-x                  hackbench      2      1  groups 1
3 samples in all (warm-up included)

Effective options:
  [hackbench-x] pin=unbound iterations=2 warmup=1 timeout=600 loops=10 groups=1

estimate                     plan       last run of the same options here
hackbench-x                  unknown    1:30 (run @5)
estimated duration: 1:30
[exit 0]
T
expect_transcript -e 's/ [0-9.]+ s \(run/ D s (run/; s/^(estimated duration:) [0-9.]+ s$/\1 D s/' \
	"... and from none for options no run had" \
	kb run -c "$tmp/a/t.conf" -o iterations=3 --dry-run <<'T'
$ kb run -c TMP/a/t.conf -o iterations=3 --dry-run
section                      workload   iters warmup  rows
hackbench-x                  hackbench      3      1  groups 1
4 samples in all (warm-up included)

Overrides: -o 'iterations=3'

Effective options:
  [hackbench-x] pin=unbound iterations=3 warmup=1 timeout=600 loops=10 groups=1

estimate                     plan       last run of the same options here
hackbench-x                  unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
T

done_testing
