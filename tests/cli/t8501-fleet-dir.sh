#!/bin/sh
# t8501: kbench fleet without a cluster: its usage errors; the job script
# of --dry-run, whole; that script run here as if on two nodes (no
# Slurm), uploading into a results directory; collect from the directory,
# once per bundle, with --since and --dry-run; an upload that fails keeps
# the bundle for the next; bad bundles and stray files; no sbatch.
# Covers: cli/cmd_fleet.c fleet/slurm.c fleet/outbox.c fleet/results.c fleet/collect.c fleet/fleet.c db/fleet.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

cd "$tmp" || exit 1
printf '[hackbench-process-pipes]\niterations = 2\nloops = 10\ngroups = 1\n' >hb.conf
printf "[hackbench-process-pipes]\nloopz = 3\n" >bad.conf

expect_err "fleet needs a command" 2 "fleet needs a command" "$KBENCH" fleet
expect_err "an unknown command is refused" 2 \
	"'bogus' is not a kbench fleet command; see 'kbench fleet --help'" "$KBENCH" fleet bogus
check "fleet --help lists the commands" sh -c '"$KBENCH" fleet --help | grep -q "^  collect "'
expect_err "submit needs a config, as run does" 2 \
	"no config given: use -c FILE (e.g. configs/quick.conf)" "$KBENCH" fleet submit
expect_err "--all and --nodes do not go together" 2 "--all cannot be combined with --nodes" \
	"$KBENCH" fleet submit -c hb.conf --all --nodes n1
expect_err "a bad config is refused here, before any job" 2 \
	"bad.conf:2: unknown key 'loopz' in [hackbench-process-pipes]" \
	"$KBENCH" fleet submit -c bad.conf --nodes n1 --dry-run
expect_err "so is a bad run name" 2 "invalid run name '#x'" \
	"$KBENCH" fleet submit -c hb.conf -n '#x' --nodes n1 --dry-run
expect_err "schedule needs --daily" 2 "schedule needs --daily HH:MM" \
	"$KBENCH" fleet schedule -c hb.conf --nodes n1
expect_err "--daily is a time of day" 2 "invalid value '24:00' for '--daily'" \
	"$KBENCH" fleet schedule --daily 24:00 -c hb.conf --nodes n1
expect_err "unschedule needs a name" 2 "unschedule needs the chain's NAME or --all" \
	"$KBENCH" fleet unschedule
expect_err "collect needs a location" 2 "collect needs the results URL or directory" \
	"$KBENCH" fleet collect
expect_err "--since is a date" 2 "invalid value 'yesterday' for '--since'" \
	"$KBENCH" fleet collect --since yesterday "$tmp"
expect_err "without sbatch, submit says so" 1 "cannot run 'sbatch': no such program in PATH" \
	env PATH=/nonexistent "$KBENCH" fleet submit -c hb.conf --nodes n1

# The script, whole: what each node runs.
expect_transcript "--dry-run prints the job's script and the sbatch commands" \
	"$KBENCH" fleet schedule --daily 02:30 -c hb.conf -n "it's" --nodes n1,n2 \
	--kbench /usr/bin/kbench --db-dir '/var/tmp/kb/%n' --results http://h/results/ \
	--partition bench --node-names --time-limit 30 --dry-run <<'EOF'
$ kbench fleet schedule --daily 02:30 -c hb.conf -n 'it'\''s' --nodes n1,n2 --kbench /usr/bin/kbench --db-dir /var/tmp/kb/%n --results http://h/results/ --partition bench --node-names --time-limit 30 --dry-run
#!/bin/sh
#SBATCH --job-name=kbench-daily-it_s
#SBATCH --exclusive
#SBATCH --time=41
#SBATCH --partition=bench
#SBATCH --comment=http://h/results/
# A kbench fleet job: run the configs below on this node into a store of
# its own, then export each run not sent yet and upload its bundle to the
# results, with any an earlier job could not send (docs/fleet.md).
set -u
kbench='/usr/bin/kbench'
node=${SLURMD_NODENAME:-$(hostname -s)}
dir='/var/tmp/kb/'"$node"
# The next night's job is queued first, so that a night that fails or
# is missed does not end the chain: 'kbench fleet unschedule' does.
if next=$(sbatch --parsable --begin=02:30 --nodelist="$node" "$0"); then
	echo "kbench fleet: queued job $next for the next 02:30 on $node"
else
	echo "kbench fleet: cannot queue the next job of the chain" >&2
fi
# Runs are recorded under the Slurm node name.
KBENCH_HOSTNAME=$node
export KBENCH_HOSTNAME
work=$dir/job-${SLURM_JOB_ID:-$$}
mkdir -p "$work/1" || exit 1
printf '%s' '[hackbench-process-pipes]
iterations = 2
loops = 10
groups = 1
' >"$work/1/"'hb.conf' || exit 1
"$kbench" --db "$dir/kbench.db" run --no-report -n 'it'\''s' \
	--note "kbench fleet: Slurm job ${SLURM_JOB_ID:-none} on node $node" \
	-c "$work/1/"'hb.conf'
status=$?
rm -rf "$work"
results='http://h/results/'
"$kbench" --db "$dir/kbench.db" fleet upload --timeout 600 "$results" ||
	[ "$status" -ne 0 ] || status=1
exit "$status"
# sbatch --parsable --nodelist=n1 --begin=02:30 SCRIPT
# sbatch --parsable --nodelist=n2 --begin=02:30 SCRIPT
[exit 0]
EOF
expect_err "submit does not take schedule's --daily" 2 "unknown option '--daily'" \
	"$KBENCH" fleet submit --daily 02:30 -c hb.conf --nodes n1 --dry-run
"$KBENCH" fleet schedule --help >sched-help.txt 2>&1
"$KBENCH" fleet submit --help >submit-help.txt 2>&1
check "schedule --help lists --daily" grep -q -- '--daily HH:MM' sched-help.txt
check "... submit --help does not" test -z "$(grep -- '--daily' submit-help.txt)"
check "... and both list the options they share" \
	test "$(grep -c -- '^ *--db-dir DIR  ' sched-help.txt)$(grep -c -- '^ *--db-dir DIR  ' submit-help.txt)" = 11
expect_err "credentials in the URL draw a warning" 0 \
	"warning: the credentials in '--results' go into the job's script" \
	"$KBENCH" fleet submit -c hb.conf --nodes n1 --results http://u:pw@h/r --dry-run
check "... and the comment Slurm shows has none" grep -qx '#SBATCH --comment=http://h/r' "$tmp/out"

# The script of submit, run here as Slurm would run it on n7 and n8.
"$KBENCH" fleet submit -c hb.conf -n dir-1 --nodes n7 --kbench "$KBENCH" \
	--db-dir "$tmp/nodes/%n" --results "$tmp/results" --node-names --dry-run >job.sh
ok $? "a job's script for a results directory"
mkdir results
for n in n7 n8; do
	SLURMD_NODENAME=$n SLURM_JOB_ID=4$n sh job.sh >"job-$n.out" 2>&1
	ok $? "the script runs on $n"
done
check "... it says what it uploaded" grep -Eqx \
	"uploaded n7/[0-9a-f-]{36}\.kbench to $tmp/results" job-n7.out
for n in n7 n8; do
	uuid=$("$KB_SQL" "$tmp/nodes/$n/kbench.db" "SELECT uuid FROM runs")
	check "$n's bundle is in results/$n/" test -s "results/$n/$uuid.kbench"
	check "... remembered as sent" test -f "nodes/$n/sent/$uuid"
	is "... the run's note names the job and node" \
		"$("$KB_SQL" "$tmp/nodes/$n/kbench.db" "SELECT notes FROM runs")" \
		"kbench fleet: Slurm job 4$n on node $n"
	is "... and the run holds the job as a fact" \
		"$("$KB_SQL" "$tmp/nodes/$n/kbench.db" \
			"SELECT value FROM run_meta WHERE section = '' AND key = 'slurm-job'")" \
		"4$n"
done
check "the job's scratch directory is gone" test -z "$(find nodes -name 'job-*')"

# Stray files are not bundles.
echo junk >results/n7/notes.txt
echo junk >results/n7/.0123.kbench.part-1
mkdir results/.hidden
expect_transcript -e 's/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/UUID/g' \
	"collect --dry-run lists what it would fetch" kb fleet collect --dry-run results <<'EOF'
$ kb fleet collect --dry-run results
would collect n7/UUID.kbench
would collect n8/UUID.kbench
[exit 0]
EOF
check "... and creates no store" test ! -e "$db"
kb fleet collect --since 2999-01-01 results >out 2>&1
ok $? "collect --since a date to come"
check "... collects nothing" grep -qx "$tmp/results: 0 new bundles, 0 runs added (0 samples)" out
kb fleet collect results >out 2>&1
ok $? "collect from the directory"
check "... both hosts" test "$(awk '$1 ~ /^n[78]$/ { print $1, $2, $3, $4, $5 }' out | tr '\n' ' ')" = \
	"n7 1 1 1 dir-1 n8 1 1 1 dir-1 "
is "... both runs, every sample" \
	"$(sql "SELECT m.hostname, r.name, count(s.value) FROM runs r JOIN machines m ON m.id = r.machine_id JOIN samples s ON s.run_id = r.id GROUP BY r.id ORDER BY m.hostname")" \
	"n7|dir-1|2
n8|dir-1|2"
is "... recorded under the directory's absolute path" \
	"$(sql "SELECT DISTINCT source FROM fleet_collected")" "$tmp/results"
kb fleet collect "$tmp/results/" >out 2>&1
check "the same directory spelt otherwise: nothing new" \
	grep -qx "$tmp/results: 0 new bundles, 0 runs added (0 samples)" out

# An upload that fails keeps the bundle for the next.
"$KBENCH" fleet submit -c hb.conf -n dir-2 --nodes n7 --kbench "$KBENCH" \
	--db-dir "$tmp/nodes/%n" --results "$tmp/gone" --node-names --dry-run >job2.sh
SLURMD_NODENAME=n7 SLURM_JOB_ID=5 sh job2.sh >job2.out 2>&1
st=$?
is "a job whose upload fails exits 1" "$st" 1
check "... saying why" grep -q "cannot upload '.*' to results directory '$tmp/gone': No such file or directory" job2.out
kept=$(ls nodes/n7/outbox/n7)
check "... and keeps the bundle" test "$(echo "$kept" | wc -w)" = 1
mkdir gone
"$KBENCH" --db nodes/n7/kbench.db fleet upload "$tmp/gone" >out 2>&1
ok $? "upload by hand sends it"
check "... only it" test "$(cat out)" = "uploaded n7/$kept to $tmp/gone"
check "... the outbox is empty" test -z "$(ls nodes/n7/outbox/n7)"
"$KBENCH" --db nodes/n7/kbench.db fleet upload "$tmp/gone" >out 2>&1
ok $? "upload again"
check "... sends nothing" test ! -s out

# A file named like a bundle that is not one: reported, not recorded,
# the others collected.
cp "gone/n7/$kept" results/n7/
printf 'not a bundle' >results/n8/00000000-0000-0000-0000-000000000000.kbench
kb fleet collect results >out 2>err
is "a bad bundle fails the collect" "$?" 1
check "... saying why, naming the bundle where it lies" grep -qx \
	"kbench: $tmp/results/n8/00000000-0000-0000-0000-000000000000.kbench: not a kbench bundle.*" err
check "... and never the scratch copy it was fetched into" test -z "$(grep kbench-collect- err)"
check "... and which" grep -qx "kbench: '$tmp/results/n8/00000000-0000-0000-0000-000000000000.kbench' not collected; a later collect tries it again" err
is "... the good one is collected" \
	"$(sql "SELECT count(*) FROM runs r JOIN machines m ON m.id = r.machine_id WHERE m.hostname = 'n7' AND r.name = 'dir-2'")" 1
check "... the table shows it as n7's newest" grep -qx "n7  *2  *1  *1  dir-2  .*" out
check "... the total says so" grep -q "1 new bundle, 1 run added (2 samples); 1 bundle could not be collected$" out
is "... the bad one is not recorded" "$(sql "SELECT count(*) FROM fleet_collected WHERE path LIKE 'n8/0000%'")" 0
# Symbolic links are not followed: a bundle or host directory in a shared
# directory could point anywhere on the collecting host.
mkdir -p outside/n9
cp "gone/n7/$kept" outside/secret.kbench
cp "gone/n7/$kept" outside/n9/22222222-2222-2222-2222-222222222222.kbench
ln -s "$tmp/outside/secret.kbench" results/n8/11111111-1111-1111-1111-111111111111.kbench
ln -s "$tmp/outside/n9" results/n9
kb fleet collect results >out 2>err
check "a symlinked bundle is refused, named" grep -q \
	"warning: 'results/n8/11111111-1111-1111-1111-111111111111.kbench' is a symbolic link: not collected" err
is "... not recorded" "$(sql "SELECT count(*) FROM fleet_collected WHERE path LIKE 'n8/1111%' OR path LIKE 'n9/%'")" 0
check "... nor is a symlinked host directory listed" test -z "$(grep n9 out)"
done_testing
