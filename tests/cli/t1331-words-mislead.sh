#!/bin/sh
# t1331-words-mislead: what kbench says is what happened: ab --dry-run
# lists under "Overrides" only the -o given, and the values the
# experiment sets (an arm's option.KEY, its rounds) apart, each with what
# set it; kbench experiments on a store without one says so; importing
# kbench's own mmtests export recognises the machine the store holds.
# Covers: experiment/experiment.c experiment/experiment_design.c cli/cmd_experiments.c mmtests/mmtests_export.c mmtests/mmtests.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

HOME=$tmp/home XDG_CONFIG_HOME=$tmp/config XDG_DATA_HOME=$tmp/data
export HOME XDG_CONFIG_HOME XDG_DATA_HOME
mkdir -p "$HOME"

cat >"$tmp/k.conf" <<'C'
[experiment]
rounds = 3

[arm:a]
option.loops = 10

[arm:b]
option.loops = 20

[hackbench-a]
loops = 10
groups = 1
iterations = 2
C
kb ab -c "$tmp/k.conf" -n t1 --dry-run >"$tmp/plain" 2>&1
ok $? "ab --dry-run without -o"
is "... no Overrides line: no -o was given" "$(grep -c '^Overrides' "$tmp/plain")" 0
is "... what the experiment sets, with what set it" \
	"$(sed -n '/^Set over the configs by the experiment:/,/^$/p' "$tmp/plain" | sed -n 1,3p)" \
	"Set over the configs by the experiment:
  [arm:a] option.loops: loops=10
  the experiment's rounds: rounds=3"
kb ab -c "$tmp/k.conf" -n t1 -o groups=2 --dry-run >"$tmp/o" 2>&1
ok $? "ab --dry-run with -o groups=2"
is "... Overrides lists the -o given, once an arm" "$(grep '^Overrides' "$tmp/o")" \
	"Overrides: -o 'groups=2'
Overrides: -o 'groups=2'"

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/a.conf"
check "a store with one run" kb --quiet run -c "$tmp/a.conf" -n one --no-report
expect_transcript "experiments on a store without one says so" kb experiments <<'T'
$ kb experiments
2> kbench: no experiments in TMP/k.db
[exit 0]
T
kb experiments --format json >"$tmp/json"
is "... JSON: an empty list, nothing said" "$(cat "$tmp/json")" \
	'{"format":"kbench-experiments","format_version":1,"experiments":[]}'

check "the run exported for mmtests" kb export --mmtests "$tmp/mm" one
check "... imported back" kb import --mmtests "$tmp/mm"
is "... onto the machine the store holds" "$(sed -n 1p "$tmp/check.out" | sed "s|$tmp|TMP|")" \
	"TMP/mm: imported 1 run (2 samples), 0 new machines; 0 already present"
is "one machine in the store" "$(sql 'SELECT count(*) FROM machines')" 1
check "imported again" kb import --mmtests "$tmp/mm"
is "... the run is present" "$(sed -n 1p "$tmp/check.out" | sed "s|$tmp|TMP|")" \
	"TMP/mm: imported 0 runs (0 samples), 0 new machines; 1 already present"

done_testing
