#!/bin/sh
# t8506: kbench fleet submit --watch on a real Slurm (munged, slurmctld,
# slurmd -N n1 and -N n2 on one host, as t8500 starts them): each job runs
# one cycle of the watch carried in its script on its node, into the
# node's store under the node's name, and uploads the watch's records to
# a shared results directory; collect brings every node's cycles into the
# central store, where kbench watch --status lists them under each node's
# name. The watched tree's build fails at once (a stand-in kernel tree,
# tests/cli/lib-kbuild.sh) and its mail finds no SMTP server, so that a
# cycle is cheap: the first cycle of a node fails its build with its
# mail pending; a second on n1 finds nothing new and tries the mail
# again, and collect brings the central store's copy of that mail up to
# date; a bundle imported again changes nothing.
# Covers: fleet/slurm.c fleet/outbox.c cli/cmd_fleet.c db/watch_bundle.c watch/watch.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-fleet.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"

fleet_need slurm
cd "$tmp" || exit 1
nodes=$tmp/nodes
results=$tmp/results
mkdir "$results"
node_sql() {	# node_sql NODE SQL
	"$KB_SQL" "$nodes/$1/kbench.db" "$2"
}
submit() {	# submit NODE: one cycle of the watch on NODE, waited for
	"$KBENCH" fleet submit --watch "$tmp/mainline.conf" --nodes "$1" --results "$results" \
		--db-dir "$nodes/%n" --node-names >"$tmp/submit.out" 2>&1 &&
		grep -Eq "^submitted job [0-9]+ \\(kbench-watch-mainline\\) to $1\$" "$tmp/submit.out" &&
		wait_until 90 sh -c '! squeue -h -o %j | grep -q "^kbench-"'
}

# The tree and the remote it follows: its one commit's build fails.
check "a tree whose build fails, and its remote" sh -c '
	. "$1/tests/cli/lib-kbuild.sh"
	kbuild_fake_tree "$2/seed" 1 0 x y &&
	kbuild_commit "$2/seed" "fake: broken" broken "no such thing" &&
	git clone -q --bare "$2/seed" "$2/remote.git" &&
	git clone -q "$2/remote.git" "$2/linux"' sh "$TOP_SRCDIR" "$tmp"
tip=$(git -C "$tmp/seed" rev-parse HEAD)
smtp_port=$(free_port)
printf '%s\n' "[watch]" "tree = $tmp/linux" "remote = origin" "branch = master" \
	"cache = $tmp/kernels" "to = dev@example.org" "from = kbench@example.org" \
	"smtp = smtp://127.0.0.1:$smtp_port" "mail-timeout = 5" "" \
	"[hackbench-process-pipes]" "iterations = 2" "loops = 10" "groups = 1" >"$tmp/mainline.conf"

check "--watch cannot go with -c" sh -c \
	'! "$1" fleet submit --watch "$2" -c "$2" --nodes n1 --dry-run 2>"$3" &&
	grep -qx "kbench: --watch cannot be combined with -c (the watch names its configs)" "$3"' \
	sh "$KBENCH" "$tmp/mainline.conf" "$tmp/err"
check "a watch config that cannot be read is refused here" sh -c \
	'"$1" fleet submit --watch "$2/none.conf" --nodes n1 --dry-run 2>"$3"
	[ $? -eq 2 ] && grep -q "cannot read watch config" "$3"' sh "$KBENCH" "$tmp" "$tmp/err"
"$KBENCH" fleet submit --watch "$tmp/mainline.conf" --nodes n1 --dry-run --db-dir /d >"$tmp/dry"
ok $? "--dry-run"
is "... the job writes the watch where the node keeps it, then runs one cycle" \
	"$(grep -A1 '^watch=' "$tmp/dry")" \
	"watch=\$dir/watch/'mainline.conf'
mkdir -p \"\$dir/watch\" || exit 1"
is "... one cycle of it" "$(grep -c '^"$kbench" --db "$dir/kbench.db" watch "$watch"$' "$tmp/dry")" 1

start_slurm
st=$?
ok $st "munged, slurmctld and slurmd -N n1, -N n2 are up, both nodes idle"
if [ "$st" -ne 0 ]; then
	dump_logs
	done_testing
	exit
fi

# One node at a time: both nodes are this machine and follow one tree.
for n in n1 n2; do
	check "a watch job on $n ran to its end" submit $n
	is "$n's cycle: its build failed, recorded under the node's name" \
		"$(node_sql $n "SELECT w.hostname, c.state, c.result, c.new_tip FROM watch_cycles c JOIN watches w ON w.id = c.watch_id")" \
		"$n|failed|build-failed|$tip"
	is "... its mail queued, pending (no SMTP server), tried" \
		"$(node_sql $n "SELECT kind, row, state, attempts > 0 FROM watch_mails")" "failure|build|pending|1"
	check "... the watch's records uploaded to results/$n/" \
		test "$(ls "$results/$n" | grep -c '^[0-9a-f-]*\.kbench$')" -ge 1
	check "... nothing left in its outbox" test -z "$(ls "$nodes/$n/outbox/$n")"
done
check "the watch's config is kept on the node between jobs" \
	cmp -s "$tmp/mainline.conf" "$nodes/n1/watch/mainline.conf"

kb fleet collect "$results" >out 2>err
ok $? "collect"
check "... counts both nodes' cycles" grep -q ', 2 watch cycles$' out
tries1=$(node_sql n1 "SELECT attempts FROM watch_mails")
tries2=$(node_sql n2 "SELECT attempts FROM watch_mails")
is "the central store holds each node's cycle as the node does" \
	"$(sql "SELECT w.hostname, c.state, c.result, c.new_tip, m.state, m.attempts FROM watch_cycles c JOIN watches w ON w.id = c.watch_id JOIN watch_mails m ON m.cycle_id = c.id ORDER BY w.hostname")" \
	"n1|failed|build-failed|$tip|pending|$tries1
n2|failed|build-failed|$tip|pending|$tries2"
first=$(sql "SELECT id FROM watch_cycles WHERE hostname = 'n1'")

# A second night on n1: nothing new, the mail tried again.
check "a second watch job on n1" submit n1
is "n1's second cycle found nothing new" \
	"$(node_sql n1 "SELECT result FROM watch_cycles ORDER BY id")" "build-failed
nothing-new"
is "... and tried the pending mail again" \
	"$(node_sql n1 "SELECT state, attempts > $tries1 FROM watch_mails")" "pending|1"
again1=$(node_sql n1 "SELECT attempts FROM watch_mails")
kb fleet collect "$results" >out 2>err
ok $? "collect again"
check "... brings n1's two cycles: the new one, the first brought up to date" \
	grep -q ', 2 watch cycles$' out
is "the central store: n1's cycles, the first (same id) with its mail's tries now; n2's as it was" \
	"$(sql "SELECT w.hostname, c.id = $first, c.result, (SELECT group_concat(m.attempts) FROM watch_mails m WHERE m.cycle_id = c.id) FROM watch_cycles c JOIN watches w ON w.id = c.watch_id ORDER BY w.hostname, c.started_at")" \
	"n1|1|build-failed|$again1
n1|0|nothing-new|
n2|0|build-failed|$tries2"

kb watch --status >status 2>&1
ok $? "watch --status on the central store"
is "... lists n1's watch with its cycles, then n2's" \
	"$(sed -n 's/^watch .* on \([^ ]*\) (.*/watch on \1/p; s/^cycle #[0-9]*  [^ ]*  \([a-z]*\)  \([a-z-]*\)  .*/  \1 \2/p' status)" \
	"watch on n1
  failed build-failed
  complete nothing-new
watch on n2
  failed build-failed"
kb watch --status --format html >page.html 2>&1
ok $? "watch --status --format html on the central store"
is "... a page of both nodes' watches" "$(grep -o '^<h2 id="watch[0-9]*">[^:]*' page.html)" \
	"<h2 id=\"watch1\">n1
<h2 id=\"watch2\">n2"

for f in "$results"/n1/*.kbench; do
	kb import "$f" >>reimport 2>&1 || echo "failed: $f" >>reimport
done
check "importing every bundle again adds nothing" sh -c '! grep -q "watch cycle\|failed:" "$1"' \
	sh reimport
is "... and changes nothing" "$(sql "SELECT count(*), sum(result = 'nothing-new') FROM watch_cycles")" "3|1"

stop_daemons
done_testing
