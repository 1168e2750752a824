#!/bin/sh
# t1307-everyday-overrides: kbench run -o KEY=VALUE sets a key in every
# section that takes it, -o SECTION.KEY=VALUE in one section; both are
# checked as config keys are, the errors naming the argument. The -o list
# is stored with the run, shown by show, applied again by --resume, and a
# resume with another list is refused unless forced.
# Covers: runner/conf.c runner/plan.c cli/cmd_run.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cat > "$tmp/o.conf" <<'CONF'
[global]
groups = 1

[hackbench-a]
loops = 10
iterations = 2

[hackbench-b.v2]
loops = 20
CONF

expect_transcript "-o sets a key over the configs, SECTION.KEY in one section" \
	kb run -c "$tmp/o.conf" -o iterations=1 -o loops=5 -o hackbench-b.v2.mode=thread --dry-run <<'T'
$ kb run -c TMP/o.conf -o iterations=1 -o loops=5 -o hackbench-b.v2.mode=thread --dry-run
section                      workload   iters warmup  rows
hackbench-a                  hackbench      1      0  groups 1
hackbench-b.v2               hackbench      1      0  groups 1
2 samples in all (warm-up included)

Overrides: -o 'iterations=1' -o 'loops=5' -o 'hackbench-b.v2.mode=thread'

Effective options:
  [hackbench-a] pin=unbound iterations=1 warmup=0 timeout=600 groups=1 loops=5
  [hackbench-b.v2] pin=unbound iterations=1 warmup=0 timeout=600 groups=1
    loops=5 mode=thread

estimate                     plan       last run of the same options here
hackbench-a                  unknown    none
hackbench-b.v2               unknown    none
estimated duration: unknown (no a-priori figure, no earlier run here)
[exit 0]
T

# Each error names the -o argument; names typed wrong get the closest.
bad() {	# bad ARG EXPECTED-STDERR-LINE
	printf '$ kb run -c TMP/o.conf -o %s --dry-run\n2> %s\n[exit 2]\n' "$1" "$2" \
		>"$tmp/want"
	expect_transcript "$3" kb run -c "$tmp/o.conf" -o "$1" --dry-run <"$tmp/want"
}
bad pinn=unbound "kbench: -o 'pinn=unbound': unknown key 'pinn' in [global] (did you mean 'pin'?)" \
	"a mistyped KEY gets the closest key"
bad hackbench-c.loops=3 "kbench: -o 'hackbench-c.loops=3': no section [hackbench-c] in the configs (did you mean 'hackbench-a'?)" \
	"a mistyped SECTION gets the closest section"
bad nosuch.section.loops=1 "kbench: -o 'nosuch.section.loops=1': no section [nosuch.section] in the configs" \
	"a SECTION far from any is named"
bad hackbench-a.loopz=3 "kbench: -o 'hackbench-a.loopz=3': unknown key 'loopz' in [hackbench-a] (did you mean 'loops'?)" \
	"a mistyped key of a section gets the closest key"
bad pin=bogus "kbench: -o 'pin=bogus': invalid value 'bogus' for 'pin': expected one of unbound|spread|compact (in [global])" \
	"a bad value is refused as in a config"
bad hackbench-b.v2.loops=0 "kbench: -o 'hackbench-b.v2.loops=0': invalid value '0' for 'loops': expected an integer from 1 to 100000000 (in [hackbench-b.v2])" \
	"a section named with a dot takes its keys"
bad global.iterations=x "kbench: -o 'global.iterations=x': invalid value 'x' for 'iterations': expected an integer from 1 to 1000000, or auto (in [global])" \
	"global.KEY is [global]"
bad metric.v=x "kbench: -o 'metric.v=x': unknown key 'metric.v' in [global]: no section's workload takes it" \
	"a KEY with a dot that a workload takes (external's metric.NAME) is a KEY, not SECTION.KEY"
bad loops "kbench: -o 'loops': expected KEY=VALUE or SECTION.KEY=VALUE" "an argument without '=' is refused"
bad hackbench-a.=3 "kbench: -o 'hackbench-a.=3': expected KEY=VALUE or SECTION.KEY=VALUE" \
	"an argument without a key is refused"
check "nothing was stored" test ! -e "$db"

# A run stores its -o list in order; show prints it.
check "a run with -o" \
	kb --quiet run -c "$tmp/o.conf" -o iterations=1 -o hackbench-a.loops=3 -n over --no-report
is "the -o list is stored with the run, in order" \
	"$(sql "SELECT section, key, value FROM run_meta WHERE key = 'override' ORDER BY rowid")" \
	"|override|iterations=1
|override|hackbench-a.loops=3"
is "and its options are in effect" \
	"$(sql "SELECT section, key, value FROM run_meta WHERE key IN ('loops', 'iterations') ORDER BY rowid")" \
	"hackbench-a|loops|3
hackbench-a|iterations|1
hackbench-b.v2|loops|20
hackbench-b.v2|iterations|1"
kb show over >"$tmp/show"
is "show prints the overrides" "$(sed -n '/^  samples /,/^$/p' "$tmp/show")" \
	"  samples     2 (0 failed)
  overrides   -o 'iterations=1' -o 'hackbench-a.loops=3'"
kb --quiet run -c "$tmp/o.conf" -n plain --no-report >/dev/null 2>&1
kb show plain >"$tmp/show"
check "a run without -o has no overrides line" sh -c "! grep -q '^  overrides' '$tmp/show'"

# An interrupted run (made so here: its second section's samples are
# removed): --resume applies its -o list again unless given another.
id=$(sql "SELECT id FROM runs WHERE name = 'over'")
sql_write "UPDATE runs SET status = 'interrupted', finished_at = NULL WHERE id = $id;
	DELETE FROM samples WHERE run_id = $id AND section = 'hackbench-b.v2'"
expect_transcript "a resume with other -o overrides is refused" \
	kb run --resume over -o iterations=2 --no-report <<'T'
$ kb run --resume over -o iterations=2 --no-report
2> kbench: the -o overrides differ from those run @1 was started with (-o 'iterations=1' -o 'hackbench-a.loops=3'): give the same ones, none (the run's own are used), or --force
[exit 2]
T
check "a resume without -o uses the run's own" kb --quiet run --resume over --no-report
is "it ran the missing samples with them (one iteration)" \
	"$(sql "SELECT section, iteration FROM samples WHERE run_id = $id ORDER BY section")" \
	"hackbench-a|1
hackbench-b.v2|1"
is "the run is complete" "$(sql "SELECT status FROM runs WHERE id = $id")" complete
sql_write "UPDATE runs SET status = 'interrupted', finished_at = NULL WHERE id = $id;
	DELETE FROM samples WHERE run_id = $id AND section = 'hackbench-b.v2'"
check "a resume with the same -o list runs" kb --quiet run --resume over -o iterations=1 -o hackbench-a.loops=3 --no-report
sql_write "UPDATE runs SET status = 'interrupted', finished_at = NULL WHERE id = $id;
	DELETE FROM samples WHERE run_id = $id AND section = 'hackbench-b.v2'"
expect_transcript -e '/^2> kbench: (notice|\[)/d' "--force resumes with other -o overrides, saying so" \
	kb run --resume over -o iterations=2 --force --no-report <<'T'
$ kb run --resume over -o iterations=2 --force --no-report
2> kbench: warning: resuming run @1 with -o overrides that differ from its own (-o 'iterations=1' -o 'hackbench-a.loops=3')
[exit 0]
T
is "... with the options given (two iterations)" \
	"$(sql "SELECT count(*) FROM samples WHERE run_id = $id AND section = 'hackbench-b.v2'")" 2

done_testing
