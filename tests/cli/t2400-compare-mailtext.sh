#!/bin/sh
# t2400: compare's mail-ready text on a store of fixed samples (three hosts,
# as imported from a fleet): the header block and its diffs, 80 columns
# with five runs, --stats, --order, the brief format, --per-host, pft's
# tables; then a single run's report and pft's layout from a real tiny run.
# Covers: compare/render_text.c compare/render_brief.c compare/render_facts.c compare/perhost.c compare/stat_rows.c

. "$TOP_SRCDIR/tests/cli/lib.sh"

# The fixture, written with SQL into a store kbench created.
machine() {	# machine ID HOST CPU-MODEL CPUS CORES NODES GIB
	echo "INSERT INTO machines (id, hostname, cpu_model, cpus, cores, packages,
		numa_nodes, mem_bytes, fingerprint)
		VALUES ($1, '$2', '$3', $4, $5, $6, $6, $7 * 1073741824, 'fp-$2');"
}
run() {		# run ID MACHINE NAME KERNEL CMDLINE CONFIG-NAME CONFIG-TEXT
	echo "INSERT INTO runs (id, uuid, name, machine_id, kernel_release,
		kernel_version, kernel_cmdline, config_name, config_text,
		kbench_version, started_at, finished_at, status)
		VALUES ($1, printf('%08d-0000-4000-8000-000000000000', $1), '$3', $2, '$4',
		'#1 SMP', '$5', '$6', '$7', '0.1.0', printf('2026-11-%02dT10:00:00Z', $1),
		printf('2026-11-%02dT10:05:00Z', $1), 'complete');"
}
# Samples of one row, iterations 1, 2, ... (0.1 s user, 0.3 s system,
# 0.5 s elapsed each).
samples() {	# samples RUN SECTION WORKLOAD UNIT BETTER ROW VALUE...
	s_run=$1 s_sec=$2 s_wl=$3 s_unit=$4 s_better=$5 s_row=$6
	shift 6
	s_i=0
	for s_v; do
		s_i=$((s_i + 1))
		echo "INSERT INTO samples (run_id, section, workload, row, iteration,
			value, unit, better, started_at, duration_ns, user_ns, sys_ns)
			VALUES ($s_run, '$s_sec', '$s_wl', '$s_row', $s_i, $s_v, '$s_unit',
			'$s_better', 0, 500000000, 100000000, 300000000);"
	done
}
monitor() {	# monitor RUN SECTION ROW ITERATIONS SOURCE KEY VALUE
	m_i=0
	while [ "$m_i" -lt "$4" ]; do
		m_i=$((m_i + 1))
		echo "INSERT INTO monitor_values (run_id, section, row, iteration, source,
			key, value, kind) VALUES ($1, '$2', '$3', $m_i, '$5', '$6', $7, 'delta');"
	done
}
hb() {		# hb RUN ROW VALUE...: hackbench-process-sockets
	r=$1 row=$2
	shift 2
	samples "$r" hackbench-process-sockets hackbench s lower "$row" "$@"
}
rr() {		# rr RUN VALUE...: netperf-tcp-rr, size 1
	r=$1
	shift
	samples "$r" netperf-tcp-rr netperf trans/s higher 1 "$@"
}

conf='[global]
iterations = 3

[hackbench-process-sockets]
groups = 12 1 4

[netperf-tcp-rr]
size = 1
'
conf_new=$(printf '%s' "$conf" | sed 's/^iterations = 3$/iterations = 4/')
cmd_base='BOOT_IMAGE=/vmlinuz-6.1.0 root=/dev/sda1 ro quiet mem=64G'
cmd_new='BOOT_IMAGE=/vmlinuz-6.1.0-slub+ root=/dev/sda1 ro mem=128G mitigations=off'
xeon='Intel(R) Xeon(R) Gold 5218R CPU @ 2.10GHz   '
{
	machine 1 alpha "$xeon" 80 40 2 384
	machine 2 beta 'AMD EPYC 7713 64-Core Processor' 256 128 8 256
	machine 3 gamma 'Intel(R) Xeon(R) CPU E3-1240 v5 @ 3.50GHz' 8 4 1 32
	# alpha: the base and the patched kernel; hackbench rows stored in
	# the config's order (12 1 4), a section only the base has, and a
	# patched run of 4 samples a row.
	run 1 1 6.1.0-vanilla 6.1.0 "$cmd_base" hb-rr "$conf"
	hb 1 12 0.7833 0.7853 0.7873
	hb 1 1 0.536 0.538 0.540
	hb 1 4 0.749 0.751 0.753
	samples 1 hackbench-thread-pipes hackbench s lower 1 0.61 0.62 0.63
	rr 1 127045 126000 128100
	monitor 1 hackbench-process-sockets 1 9 rusage minor-faults 100
	monitor 1 hackbench-thread-pipes 1 3 rusage minor-faults 50
	run 2 1 6.1.0-slub-v1r1 6.1.0-slub+ "$cmd_new" hb-rr "$conf_new"
	hb 2 12 1.1273 1.1313 1.1353 1.1313
	hb 2 1 0.5543 0.5583 0.5623 0.5583
	hb 2 4 0.811 0.815 0.819 0.815
	rr 2 121092 120000 122200
	monitor 2 hackbench-process-sockets 1 12 rusage minor-faults 100
	# beta: both kernels, hackbench within noise, netperf better.
	run 3 2 6.1.0-vanilla 6.1.0 "$cmd_base" hb-rr "$conf"
	hb 3 12 2.90 2.95 3.00
	hb 3 1 0.50 0.52 0.54
	hb 3 4 1.10 1.12 1.14
	rr 3 93571 93000 94100
	run 4 2 6.1.0-slub-v1r1 6.1.0-slub+ "$cmd_new" hb-rr "$conf_new"
	hb 4 12 2.91 2.99 2.93
	hb 4 1 0.51 0.50 0.53
	hb 4 4 1.11 1.13 1.09
	rr 4 96428 96000 96900
	# gamma: the base kernel only.
	run 5 3 6.1.0-vanilla 6.1.0 "$cmd_base" hb-rr "$conf"
	hb 5 1 1.47 1.48 1.49
	# alpha: five tries of a 6.2 kernel, side by side.
	for t in 1 2 3 4 5; do
		run $((5 + t)) 1 "6.2.0-try$t" 6.2.0 "$cmd_base" hb-rr "$conf"
		hb $((5 + t)) 1 "0.5$t" "0.5$((t + 1))" "0.5$((t + 2))"
		hb $((5 + t)) 4 "0.7$t" "0.7$((t + 1))" "0.7$((t + 2))"
	done
	# alpha: a config that keeps its rows in its own order.
	for r in 13 14; do
		run $r 1 "ordered-$r" 6.1.0 "$cmd_base" ordered \
			"$(printf '[hackbench-process-sockets]\ngroups = 12 1 4\norder = config\n')"
		hb $r 12 0.78 0.79 0.80
		hb $r 1 0.53 0.54 0.55
		hb $r 4 0.74 0.75 0.76
	done
	# alpha: pft, the layout mmtests printed.
	run 11 1 pft-base 6.1.0 "$cmd_base" pft '[pft-threads]'
	run 12 1 pft-new 6.1.0 "$cmd_base" pft '[pft-threads]'
	for w in 2 1; do
		for r in 11 12; do
			f=$((r - 10))
			samples $r pft-threads pft s lower "system-$w" "2$f.4$w" "2$f.5$w" "2$f.6$w"
			samples $r pft-threads pft s lower "elapsed-$w" "3$w.1$f" "3$w.2$f" "3$w.3$f"
			samples $r pft-threads pft faults/s higher "faults/sec-$w" \
				"40000$w$f" "41000$w$f" "42000$w$f"
			samples $r pft-threads pft faults/cpu-s higher "faults/cpu-$w" \
				"50000$f$w" "51000$f$w" "52000$f$w"
		done
	done
} >"$tmp/fixture.sql"
: >"$db"	# an empty file: the first reader makes it a store
kb runs >/dev/null 2>&1
check "the fixture store is written" sql_write_file "$tmp/fixture.sql"

# Run names resolve on this host only: the comparisons of the fixture are
# made on alpha (NAME@HOST names the runs of beta and gamma).
KBENCH_HOSTNAME=alpha
export KBENCH_HOSTNAME

# Every line of FILE within 80 columns, ASCII, without trailing blanks,
# the scratch directory's path counted as TMP (as in the transcripts), so
# the checkout's own path does not count against the width.
mailable() {
	sed "s|$tmp|TMP|g" "$1" |
		awk 'length > 80 || / $/ || /[^ -~]/ { print NR ": " $0; bad = 1 } END { exit bad }'
}

expect_transcript -f t2400-header.txt \
	"the header block: facts shared once, the others per run, cmdline and config as diffs" \
	kb compare 6.1.0-vanilla@alpha 6.1.0-slub-v1r1@alpha
check "... mailable: 80 columns, ASCII, no trailing blanks" mailable "$tmp/tr.out"

expect_transcript -f t2400-five.txt "five runs wrap into column groups, each with the labels" \
	kb compare 6.2.0-try1 6.2.0-try2 6.2.0-try3 6.2.0-try4 6.2.0-try5
check "... mailable" mailable "$tmp/tr.out"

expect_transcript -f t2400-stats.txt "--stats picks the statistic rows, in its order" \
	kb compare --stats stddev,amean,hmean --monitors none 6.1.0-vanilla@beta 6.1.0-slub-v1r1@beta
expect_transcript -e '1,/^$/d' "--order config keeps the rows in the order they were measured" \
	kb compare --order config --stats mean --monitors none --only hackbench-process \
	6.1.0-vanilla@beta 6.1.0-slub-v1r1@beta <<'T'
hackbench-process-sockets
                          6.1.0                  6.1.0
                        vanilla              slub-v1r1
Amean 12      2.9500 (   0.00%)      2.9433 ?   0.23%?
Amean 1       0.5200 (   0.00%)      0.5133 ?   1.28%?
Amean 4       1.1200 (   0.00%)      1.1100 ?   0.89%?

                       6.1.0       6.1.0
                     vanilla   slub-v1r1
Duration User           0.90        0.90
Duration System         2.70        2.70
Duration Elapsed        4.50        4.50

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Between-run noise unknown (fewer than 3 stored runs of one host, config, options
  and kernel): a test on the samples of two runs ignores the drift between them,
  so it gives no verdict; --within-run shows its stars.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the between-run noise is unknown. For a verdict: calibrate the baseline
  (kbench calibrate --runs 3), or run an interleaved A/B experiment (kbench ab),
  which cancels the drift between runs.
Cannot tell: 3 rows, 3 without between-run noise.
Positive % = better: the sign follows each metric's direction.
[exit 0]
T
expect_transcript -e '1,/^$/d' "order = config in the baseline's config does the same" \
	kb compare --stats mean --monitors none ordered-13 ordered-14 <<'T'
hackbench-process-sockets
                        ordered                ordered
                             13                     14
Amean 12      0.7900 (   0.00%)      0.7900 ?   0.00%?
Amean 1       0.5400 (   0.00%)      0.5400 ?   0.00%?
Amean 4       0.7500 (   0.00%)      0.7500 ?   0.00%?

                     ordered     ordered
                          13          14
Duration User           0.90        0.90
Duration System         2.70        2.70
Duration Elapsed        4.50        4.50

Significance: Welch's t-test on the mean row only, alpha 0.05; a significant
  change prints *  x.xx%* instead of (  x.xx%).
Between-run noise unknown (fewer than 3 stored runs of one host, config, options
  and kernel): a test on the samples of two runs ignores the drift between them,
  so it gives no verdict; --within-run shows its stars.
? after a mean row's %: cannot tell, neither a change nor its absence is shown:
  the between-run noise is unknown. For a verdict: calibrate the baseline
  (kbench calibrate --runs 3), or run an interleaved A/B experiment (kbench ab),
  which cancels the drift between runs.
Cannot tell: 3 rows, 3 without between-run noise.
Positive % = better: the sign follows each metric's direction.
[exit 0]
T
printf '[hackbench-x]\ngroups = 4 1\norder = size\n' >"$tmp/order.conf"
expect_transcript "order takes numeric or config" kb run --dry-run -c "$tmp/order.conf" <<'T'
$ kb run --dry-run -c TMP/order.conf
2> kbench: TMP/order.conf:3: invalid value 'size' for 'order': expected one of numeric|config (in [hackbench-x])
[exit 2]
T
expect_transcript -f t2400-brief.txt "--format brief: mean and spread, the change and its verdict" \
	kb compare --format brief 6.1.0-vanilla@alpha 6.1.0-slub-v1r1@alpha
expect_transcript -f t2400-per-host.txt \
	"--per-host: a table per host with both runs, lines prefixed, a summary per section" \
	kb compare --per-host 6.1.0-vanilla 6.1.0-slub-v1r1
check "... mailable" mailable "$tmp/tr.out"
expect_transcript -f t2400-per-host-brief.txt "--per-host --format brief" \
	kb compare --per-host --format brief --stats hmean 6.1.0-vanilla 6.1.0-slub-v1r1
expect_transcript -f t2400-pft.txt "pft: a timings table, then a faults table, rows in numeric order" \
	kb compare --monitors none pft-base pft-new

# The same from the command line's side: the errors.
expect_transcript "an unknown statistic" kb compare --stats amean,median a b <<'T'
$ kb compare --stats amean,median a b
2> kbench: unknown statistic 'median' in --stats (expected min, amean, hmean, stddev, coeffvar, max or bmean-95)
[exit 2]
T
expect_transcript "a bad --order" kb compare --order size a b <<'T'
$ kb compare --order size a b
2> kbench: invalid --order 'size': expected numeric or config
[exit 2]
T
expect_transcript "--per-host takes two names" kb compare --per-host a b c <<'T'
$ kb compare --per-host a b c
2> kbench: --per-host compares two run names, BASE and NEW
[exit 2]
T
expect_transcript "--per-host with no host that has both" \
	kb compare --per-host 6.1.0-vanilla 6.3.0 <<'T'
$ kb compare --per-host 6.1.0-vanilla 6.3.0
2> kbench: no host has complete runs named both '6.1.0-vanilla' and '6.3.0'
[exit 1]
T
expect_transcript "--per-host prints text, brief or html" \
	kb compare --per-host --format json 6.1.0-vanilla 6.1.0-slub-v1r1 <<'T'
$ kb compare --per-host --format json 6.1.0-vanilla 6.1.0-slub-v1r1
2> kbench: --per-host prints text, brief or html, not json
[exit 2]
T

# A real tiny pft run: its report is the single-run layout (no
# percentages, no footer), pft's two tables.
# It runs on this machine, under its own host name.
unset KBENCH_HOSTNAME
printf '[pft-threads]\niterations = 3\nworkers = 1 2\nmapping_size = 16M\n' >"$tmp/pft.conf"
expect_transcript -m -e "$header_sed" -f t2400-single.txt \
	"a single run's report: its statistics alone, pft's timings and faults tables" \
	kb --quiet run -c "$tmp/pft.conf" -n tiny-pft
check "... mailable" mailable "$tmp/tr.out"

done_testing
