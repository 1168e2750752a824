#!/bin/sh
# "Did you mean": a mistyped key in [global] or a section, a workload
# name, an enum value and a run name in a selector each get the closest
# known name.
# Covers: lib/suggest.c runner/plan.c workloads/params.c db/query.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[global]\nloopz = 3\n[hackbench-a]\nloops = 3\n' > "$tmp/g.conf"
expect_transcript "a key in [global] gets the closest" kb run -c "$tmp/g.conf" --dry-run <<'T'
$ kb run -c TMP/g.conf --dry-run
2> kbench: TMP/g.conf:2: unknown key 'loopz' in [global] (did you mean 'loops'?)
[exit 2]
T
printf '[global]\niterashuns = 3\n[hackbench-a]\nloops = 3\n' > "$tmp/g2.conf"
expect_transcript "a far-off key in [global] gets no guess" kb run -c "$tmp/g2.conf" --dry-run <<'T'
$ kb run -c TMP/g2.conf --dry-run
2> kbench: TMP/g2.conf:2: unknown key 'iterashuns' in [global]: no section's workload takes it
[exit 2]
T
printf '[a]\nworkload = hackbnech\n' > "$tmp/w.conf"
expect_transcript "a workload name gets the closest" kb run -c "$tmp/w.conf" --dry-run <<'T'
$ kb run -c TMP/w.conf --dry-run
2> kbench: TMP/w.conf:2: unknown workload 'hackbnech' in [a] (did you mean 'hackbench'?)
[exit 2]
T
printf '[hackbench-a]\npin = sprad\n' > "$tmp/e.conf"
expect_transcript "an enum value gets the closest" kb run -c "$tmp/e.conf" --dry-run <<'T'
$ kb run -c TMP/e.conf --dry-run
2> kbench: TMP/e.conf:2: invalid value 'sprad' for 'pin': expected one of unbound|spread|compact (did you mean 'spread'?) (in [hackbench-a])
[exit 2]
T
expect_transcript "an enum value on the command line too" kb hackbench --pin=compcat <<'T'
$ kb hackbench --pin=compcat
2> kbench: invalid value 'compcat' for 'pin': expected one of unbound|spread|compact (did you mean 'compact'?)
[exit 2]
T

printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 1\n' > "$tmp/good.conf"
check "a run named baseline is stored" kb --quiet run -c "$tmp/good.conf" -n baseline
expect_transcript "a run name in a selector gets the closest" kb compare basline baseline <<'T'
$ kb compare basline baseline
2> kbench: no run named 'basline' in TMP/k.db (see kbench runs) (did you mean 'baseline'?)
[exit 1]
T

done_testing
