#!/bin/sh
# t1311-everyday-columns: the 80-column promise. Every command's --help
# (each fleet subcommand's too), a run's report with its "Compared with"
# line, compare as text and brief, compare --per-host (whose empty lines
# stay empty), kbench configs and fleet status (Slurm's squeue and sacct
# played by scripts here) stay within 80 columns; kbench runs shows the
# kernel release whole, at the end of the line.
# Covers: lib/parse-options.c views/report.c compare/render_text.c compare/render_brief.c compare/perhost.c cli/cmd_fleet.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

# within80 DESC FILE: no line of FILE passes 80 columns (the source
# tree's path counted as SRCDIR, as in t1304).
within80() {
	normalise <"$2" >"$tmp/w80"
	is "$1: no line past 80 columns" \
		"$(awk 'length > 80 { print length ": " $0 }' "$tmp/w80")" ""
}

# Every command kbench --help lists, and every fleet subcommand.
"$KBENCH" --help >"$tmp/help" 2>&1
cmds=$(awk '/^Commands:$/ { on = 1; next } /^$/ { on = 0 } on && /^  [a-z]/ { print $1 }' \
	"$tmp/help")
check "kbench --help lists commands (got: $(echo $cmds))" test "$(echo "$cmds" | wc -l)" -ge 15
for c in $cmds; do
	"$KBENCH" "$c" --help >"$tmp/out" 2>&1
	within80 "kbench $c --help" "$tmp/out"
done
"$KBENCH" fleet --help >"$tmp/help" 2>&1
subs=$(awk '/^  [a-z]+  +[a-z]/ { print $1 }' "$tmp/help")
check "kbench fleet --help lists subcommands (got: $(echo $subs))" \
	test "$(echo "$subs" | wc -l)" -ge 5
for c in $subs; do
	"$KBENCH" fleet "$c" --help >"$tmp/out" 2>&1
	within80 "kbench fleet $c --help" "$tmp/out"
done

# A run, another of the same config: the report compares them.
printf '[hackbench-a]\nloops = 10\ngroups = 1\niterations = 2\n' >"$tmp/a.conf"
check "a first run" kb --quiet run -c "$tmp/a.conf" -n 6.18.0-rc3-vanilla
within80 "its report" "$tmp/check.out"
check "a second run, of a long name" kb --quiet run -c "$tmp/a.conf" -n 6.18.0-rc3-slub-percpu-v2
cp "$tmp/check.out" "$tmp/report"
within80 "its report" "$tmp/report"
is "... whose Compared-with paragraph is wrapped" \
	"$(sed -n '/^Compared with/,/^$/p' "$tmp/report" |
		sed -E 's/[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z/DATE/')" \
	"Compared with 6.18.0-rc3-vanilla (id 1, DATE), the previous
complete run here with the same effective options:"
for f in text brief; do
	check "compare --format $f" kb compare --format $f 6.18.0-rc3-vanilla 6.18.0-rc3-slub-percpu-v2
	within80 "compare --format $f" "$tmp/check.out"
done
check "kbench configs" kb configs
within80 "kbench configs" "$tmp/check.out"

# Per host: runs of a host named vm, whose prefix "vm-" stays off the
# empty lines.
check "two runs on host vm" env KBENCH_HOSTNAME=vm "$KBENCH" --db "$db" --quiet run \
	-c "$tmp/a.conf" -n base --no-report '&&' \
	env KBENCH_HOSTNAME=vm "$KBENCH" --db "$db" --quiet run -c "$tmp/a.conf" -n new --no-report
check "compare --per-host" kb compare --per-host base new
cp "$tmp/check.out" "$tmp/per-host"
within80 "compare --per-host" "$tmp/per-host"
is "... its empty lines are empty, not 'vm-'" "$(grep -c '^vm-$' "$tmp/per-host")" 0
check "... and it has empty lines between its tables" grep -q '^$' "$tmp/per-host"

# kbench runs: the kernel release whole, at the end of the line.
sql_write "UPDATE runs SET kernel_release = '6.18.0-rc3-00123-gabcdef0123456-dirty' WHERE id = 2"
expect_transcript -e "$runs_sed" "runs shows a long kernel release whole" kb runs --last 3 <<'T'
$ kb runs --last 3
   id name               config      host       started          status      samples kernel
    2 6.18.0-rc3-slub-p~ a           HOST YYYY-MM-DD hh:mm complete          2 6.18.0-rc3-00123-gabcdef0123456-dirty
    3 base               a           HOST YYYY-MM-DD hh:mm complete          2 KERNEL
    4 new                a           HOST YYYY-MM-DD hh:mm complete          2 KERNEL
[exit 0]
T

# fleet status, from squeue and sacct played here: one job waiting, one
# running, three finished (one collected into the store, one failed).
mkdir "$tmp/bin"
cat >"$tmp/bin/squeue" <<'SH'
#!/bin/sh
echo '1240|kbench-daily-nightly|PENDING||node-01|2026-12-04T02:00:00|BeginTime|'
echo '1239|kbench-fleet-quick|RUNNING|node-07||2026-12-03T15:40:12|None|https://results.example.org/kbench/'
SH
cat >"$tmp/bin/sacct" <<'SH'
#!/bin/sh
echo '1236|kbench-fleet-quick|COMPLETED|node-05|2026-12-03T15:01:02|2026-12-03T15:20:40|0:0'
echo '1237|kbench-fleet-quick|FAILED|node-06|2026-12-03T15:01:02|2026-12-03T15:03:10|1:0'
echo '1238|kbench-fleet-quick|COMPLETED|node-08|2026-12-03T15:01:03|2026-12-03T15:21:00|0:0'
SH
chmod +x "$tmp/bin/squeue" "$tmp/bin/sacct"
check "a run collected from job 1236, stored before runs held their job" \
	kb note '#1' 'kbench fleet: Slurm job 1236 on node node-05'
check "a run collected from job 1238, which holds its job as a fact" \
	sql_write "INSERT INTO run_meta (run_id, section, key, value) VALUES (2, '', 'slurm-job', '1238')"
slurm_kb() { PATH="$tmp/bin:$PATH" "$KBENCH" --db "$db" "$@"; }
expect_transcript "fleet status fits 80 columns; running jobs' results URL once" \
	slurm_kb fleet status <<'T'
$ slurm_kb fleet status
job   name           state      node     start        end    result
1236  fleet-quick    COMPLETED  node-05  12-03 15:01  15:20  run @1
1237  fleet-quick    FAILED     node-06  12-03 15:01  15:03  exit 1:0
1238  fleet-quick    COMPLETED  node-08  12-03 15:01  15:21  run @2
1239  fleet-quick    RUNNING    node-07  12-03 15:40  -      -
1240  daily-nightly  PENDING    node-01  12-04 02:00  -      waits (BeginTime)
running jobs upload to https://results.example.org/kbench/
[exit 0]
T
within80 "fleet status" "$tmp/tr.out"

done_testing
