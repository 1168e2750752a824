#!/bin/sh
# t2620: kbench calibrate on a tiny hackbench config: N ordinary runs tagged
# as calibration, the noise table from those runs, and compare using them
# as the history of the host, config and kernel.
# Covers: cli/cmd_calibrate.c compare/noise.c

. "$TOP_SRCDIR/tests/cli/lib.sh"
cat > "$tmp/tiny.conf" <<'CONF'
[global]
iterations = 3
loops = 5
groups = 1 2

[hackbench-process-pipes]
mode = process
transport = pipes

[hackbench-thread-sockets]
mode = thread
transport = sockets
CONF

kb --quiet calibrate -c "$tmp/tiny.conf" --runs 3 -n calib >"$tmp/out" 2>"$tmp/err"
st=$?
ok $st "calibrate --runs 3 runs and reports"
[ $st -eq 0 ] || { comment "$tmp/out"; comment "$tmp/err"; }

is "three complete runs, each tagged calibration i/3" \
	"$(sql "SELECT r.id, r.name, r.status, m.value FROM runs r LEFT JOIN run_meta m
		ON m.run_id = r.id AND m.section = '' AND m.key = 'calibration' ORDER BY r.id")" \
"1|calib|complete|1/3
2|calib|complete|2/3
3|calib|complete|3/3"

# The table: a title, then per section a header and a line per row whose
# figures are percentages (or - when they cannot be told), then the legend.
is "the title names the runs, the config, the host and the kernel" "$(sed -n 1p "$tmp/out")" \
	"calibration: 3 runs of config 'tiny' on $(uname -n), kernel $(uname -r): @1 @2 @3"
is "a header per section and a line per mean row, 3 runs of 3 samples each" \
	"$(awk '/^[^ ].* runs +samples / { print $1, $2, $3, $4, $5, $6 }
		/^  [AH]mean / { print $1, $2, $3, $4 }' "$tmp/out")" \
"hackbench-process-pipes runs samples CoeffVar between-run MDE
Amean 1 3 3
Amean 2 3 3
hackbench-thread-sockets runs samples CoeffVar between-run MDE
Amean 1 3 3
Amean 2 3 3"
check "every figure is a percentage (CoeffVars >= 0, MDE > 0) or -" awk '
	/^  [AH]mean / {
		for (i = 5; i <= 7; i++) {
			if ($i == "-")
				continue
			if ($i !~ /^[0-9]+\.[0-9][0-9]%$/ || (i == 7 && $i + 0 <= 0)) {
				print "bad field " i ": " $0
				bad = 1
			}
		}
		rows++
	}
	END { exit bad || rows != 4 }' "$tmp/out"
check "the legend says what the columns are" grep -q '^MDE: the smallest change of the mean' "$tmp/out"

# compare: the calibration runs are the history of this host, config and
# kernel, and the footer counts them.
kb --quiet run -c "$tmp/tiny.conf" -n after --no-report >/dev/null 2>&1
kb compare calib after >"$tmp/cmp"
is "compare counts the calibration runs as history" \
	"$(sed -n '/^Between-run noise:/,/^  later\.$/p' "$tmp/cmp")" \
"Between-run noise: from 4 stored runs of one host, config, options and kernel
  (df 3, 3 calibration runs); the difference of the run means is tested against
  it plus each side's within-run variance.
Noise read from runs @1-@4: --noise-from with them gives the same verdicts
  later."

expect_err "--runs below 3 is refused" 2 "invalid value '2' for '--runs'" \
	kb calibrate -c "$tmp/tiny.conf" --runs 2
expect_err "a config is required" 2 "no config given: use -c FILE" kb calibrate
expect_err "a bad config is refused before anything runs" 2 "nope.conf" \
	kb calibrate -c "$tmp/nope.conf"
expect_err "a run name that reads as a selector is refused, as by run" 2 \
	"invalid run name 'calib@elsewhere': it must not contain '@'" \
	kb calibrate -c "$tmp/tiny.conf" -n calib@elsewhere
is "nothing more was stored" "$(sql 'SELECT count(*) FROM runs')" 4
check "no worker left behind" no_workers
expect_transcript "--help says what calibrate does" kb calibrate --help <<'T'
$ kb calibrate --help
usage: kbench calibrate -c CONFIG [-c CONFIG...] [-o [SECTION.]KEY=VALUE...]
                  [--only REGEX] [--runs N] [-n NAME] [--dry-run]

Run the configs N times back to back, as ordinary runs tagged as
calibration, and print each row's noise from those runs: the within-run
CoeffVar, the between-run CoeffVar (the spread of the run means) and the
smallest change of the mean that compare's default test detects between
two runs with 80% power. compare uses these runs as the history of the
host, config and kernel.

  -c, --config FILE   an INI config (repeatable); see kbench.conf(5)
  -o KEY=VALUE        set KEY in every section that takes it, over the
                      configs; -o SECTION.KEY=VALUE sets it in that
                      section only (repeatable), as for kbench run
      --only REGEX    run only the sections whose name matches (PCRE2)
      --runs N        how many runs (default 5, at least 3)
  -n, --name NAME     the runs' name (default: uname -r)
      --dry-run       validate the configs and print the plan, run nothing
  -h, --help          this text

The formulas are in docs/statistics.md.
[exit 0]
T

done_testing
