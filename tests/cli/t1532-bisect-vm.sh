#!/bin/sh
# t1532-bisect-vm: kbench bisect over a tree whose "kernel" is one of the
# two Debian kernels of lib-vm.sh: commits c0 (the good end, the cloud
# kernel), c1, c2 (which cannot be built), c3, c4 (switches to the
# PREEMPT_RT kernel, three times slower on a hackbench of threads over
# pipes under TCG) and c5 (the bad end). The guests' clocks count
# instructions (--icount), so that the verdicts do not hang on the
# host's load. The bisection confirms the
# regression (step 0), skips c2 (it cannot be built) and tries c3 next,
# finds c3 good, is killed with SIGKILL during c4's step, and --resume
# goes on from there: the steps it had finished are kept, and the time
# they took counts in the elapsed time; c4 is named the first bad commit.
# The config is trimmed as a shipped one would be: -o sets the loops,
# --only leaves a section out, and both hold after the resume. Each step
# says its three arms' order and what each look decided. Its log reads
# as git bisect log; its report names the commit, its author and date,
# the change (every change from the older commit to the newer one), the
# table, the monitors (none in a guest), the kernel config in words, the
# benchmark config's text, how it ran and how to reproduce it (commands
# never wrapped), and ends in a #regzbot line; kbench mail --bisect
# mails it. Costs some 25 guest boots, 4 to 5 minutes on a 2-CPU machine
# under TCG.
# Covers: bisect/bisect_run.c bisect/bisect_step.c bisect/bisect_ctx.c bisect/bisect_settings.c bisect/bisect.c views/bisect_report.c views/bisect_monitors.c db/bisect.c cli/cmd_bisect.c compare/verdict.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi

# The tree: lib-kbuild.sh's stand-in for the kernel's build interface,
# whose bzImage is a copy of the cloud kernel or, from c4 on, of the -rt
# one. The kernels built go to a cache of the test's own.
export KBENCH_KERNEL_CACHE="$tmp/builds"
fixture() {
	kbuild_fake_tree "$tmp/tree" 1 0 &&
	kbuild_git -C "$tmp/tree" commit -q --amend -m "c0: the good end" &&
	kbuild_git -C "$tmp/tree" tag good &&
	kbuild_commit "$tmp/tree" "c1: a file" f 1 &&
	kbuild_commit "$tmp/tree" "c2: break the build" broken "this commit does not build" &&
	kbuild_commit "$tmp/tree" "c3: mend the build" broken - f 3 &&
	echo second >"$tmp/tree/image" &&
	kbuild_git -C "$tmp/tree" -c user.name="Pat Planter" -c user.email=pat@example.org \
		commit -q -a -m "c4: sched: plant a slowdown" &&
	kbuild_commit "$tmp/tree" "c5: the bad end" f 5 &&
	kbuild_git -C "$tmp/tree" tag bad
}
fixture
ok $? "a tree of six commits"
sha() { git -C "$tmp/tree" rev-parse "$1"; }
c0=$(sha good) c2=$(sha bad~3) c3=$(sha bad~2) c4=$(sha bad~1) c5=$(sha bad)

# (loops is given by -o; --only leaves [hackbench-process-sockets] out)
cat > "$tmp/tp.conf" <<'EOF'
[hackbench-thread-pipes]
workload = hackbench
mode = thread
transport = pipes
groups = 1
iterations = 3

[hackbench-process-sockets]
workload = hackbench
groups = 1
iterations = 3
EOF

# Killed with SIGKILL once c3's step has its verdict and c4's experiment
# has begun.
"$KBENCH" --db "$db" bisect --tree "$tmp/tree" --good good --bad bad -c "$tmp/tp.conf" \
	-o loops=50 --only thread-pipes --rounds 3 --max-rounds 6 --append quiet --icount --vcpus 1 --boot-timeout 300 \
	>"$tmp/first.out" 2>"$tmp/first.err" &
pid=$!
began() {
	! kill -0 "$pid" 2>/dev/null || {
		[ "$(sql "SELECT count(*) FROM bisect_steps WHERE step = 3" 2>/dev/null)" = 1 ] &&
		[ "$(sql "SELECT count(*) FROM runs WHERE name LIKE 'bisect-1.3/%'" 2>/dev/null)" -ge 1 ]
	}
}
wait_until 1800 began
kill -0 "$pid" 2>/dev/null
rc=$?
ok $rc "the bisection reaches its third step"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/first.err"
kill -9 "$pid"
wait "$pid" 2>/dev/null
steps=$(sql "SELECT step || ' ' || coalesce(verdict, '-') || ' ' || substr(commit_id, 1, 12)
	FROM bisect_steps ORDER BY step" | tr '\n' ',')
want="0 regression $(echo "$c5" | cut -c1-12),1 skip $(echo "$c2" | cut -c1-12),2 good $(echo "$c3" | cut -c1-12),3 - $(echo "$c4" | cut -c1-12),"
is "... and is killed there" "$steps" "$want"
[ "$steps" = "$want" ] || sed 's/^/#   /' "$tmp/first.err"
grep -q "skipping $(echo "$c2" | cut -c1-12): it cannot be built: the build of [^ ]* ($(echo "$c2" | cut -c1-12)) failed: make bzImage exited with status 2" "$tmp/first.err" &&
	grep -q "^    init/main.c:1:1: error: this commit does not build\$" "$tmp/first.err"
ok $? "the commit that cannot be built is skipped, saying why, with its log's end"
check "... and no kernel of it is in the cache" sh -c "! ls -d '$tmp/builds/entries/$c2'-*"
is "the kernels built: the ends, c3 and c4" "$(ls "$tmp/builds/entries" | wc -l)" 4
grep -q "^kbench: notice: bisect @1 step 2: testing $(echo "$c3" | cut -c1-12) c3: mend the build (3 commits left to test, roughly 2 steps; a look every 3 rounds, up to 6) \[[0-9]*:[0-9][0-9] elapsed\]$" \
	"$tmp/first.err"
ok $? "each step says the commit, what is left, its looks and the time"
grep -q "^kbench: notice: experiment @[0-9]* 'bisect-1.2' ([0-9a-f-]*): 3 arms, 6 rounds, order abc cba;" \
	"$tmp/first.err"
ok $? "... and its three arms' real order"
grep -q "^kbench: notice: bisect @1 step 2: the look after round 3\( decided: good\| decided: bad\|: .*; going on to round 6 (at most 6)\)" \
	"$tmp/first.err" &&
	grep -q "^kbench: notice: bisect @1 step 0: the look after round 3\( decided: a regression, hackbench-thread-pipes 1 -[0-9.]*%\|: no regression yet; going on to round 6 (at most 6)\)$" \
	"$tmp/first.err"
rc=$?
ok $rc "... and what each look decided, or that the step goes on"
[ $rc -eq 0 ] || grep "look" "$tmp/first.err" | sed 's/^/#   /'
is "-o holds in every run" "$(sql "SELECT DISTINCT value FROM run_meta WHERE key = 'loops'")" 50
is "... and --only leaves the other section out" \
	"$(sql "SELECT count(*) FROM samples WHERE section = 'hackbench-process-sockets'")" 0
no_qemu
ok $? "the killed bisection's guest is gone with it"
check "--list shows it interrupted" kb bisect --list
grep -q "^   1 interrupted -  *4 hackbench-thread-pipes/1 -  " "$tmp/check.out"
rc=$?
ok $rc "... with its steps and its row, whole"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/check.out"
before=$(sql "SELECT step || ':' || experiment_id FROM bisect_steps WHERE verdict IS NOT NULL
	ORDER BY step" | tr '\n' ' ')

kb bisect --resume >"$tmp/out" 2>"$tmp/err"
rc=$?
is "--resume finishes it, naming a commit: exit 0" "$rc" 0
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/err"
grep -q "^kbench: notice: bisect @1 resumed: 3 steps finished, 1 commit left to test" "$tmp/err"
ok $? "... from the steps it had finished"
# The elapsed time goes on from the time the finished steps took.
spent=$(sql "SELECT sum(strftime('%s', finished_at) - strftime('%s', started_at))
	FROM bisect_steps WHERE verdict IS NOT NULL AND step < 3")
spent=$(printf '%d:%02d' $((spent / 60)) $((spent % 60)))
grep -q "^kbench: notice: bisect @1 resumed: .* \[$spent elapsed\]$" "$tmp/err"
rc=$?
ok $rc "... its elapsed time counting theirs ($spent)"
[ $rc -eq 0 ] || grep "resumed" "$tmp/err" | sed 's/^/#   /'
is "... and -o and --only stored with it" \
	"$(sql "SELECT settings FROM bisects" | grep -e '^override=' -e '^only=')" "override=loops=50
only=thread-pipes"
is "... which it keeps as they were" "$(sql "SELECT step || ':' || experiment_id FROM bisect_steps
	WHERE step < 3 AND verdict IS NOT NULL ORDER BY step" | tr '\n' ' ')" "$before"
is "the first bad commit is c4" "$(sql "SELECT status || ' ' || result || ' ' || first_bad FROM bisects")" \
	"complete found $c4"
grep -q "^kbench: notice: bisect @1: $(echo "$c4" | cut -c1-12) is the first bad commit" "$tmp/err"
ok $? "... as it says"

# The log, as git bisect log writes one.
kb bisect --log >"$tmp/log" 2>&1
grep -v '^#' "$tmp/log" > "$tmp/log.git"
cat > "$tmp/want" <<EOF
git bisect start '--first-parent'
git bisect bad $c5
git bisect good $c0
git bisect skip $c2
git bisect good $c3
git bisect bad $c4
EOF
if cmp -s "$tmp/want" "$tmp/log.git"; then
	ok 0 "--log: git bisect's commands"
else
	ok 1 "--log: git bisect's commands"
	diff -u "$tmp/want" "$tmp/log.git" | sed 's/^/# /'
fi
is "... the commits as git bisect log names them" \
	"$(grep '^# \(good\|bad\|skip\|first bad commit\): ' "$tmp/log" | sed 's/ \[[0-9a-f]*\]/ [X]/')" \
	"# bad: [X] c5: the bad end
# good: [X] c0: the good end
# skip: [X] c2: break the build
# good: [X] c3: mend the build
# bad: [X] c4: sched: plant a slowdown
# first bad commit: [X] c4: sched: plant a slowdown"
grep -q "^# kbench step 3, experiment @[0-9]*, [36] rounds under \(tcg\|kvm\): bad:" "$tmp/log"
ok $? "... each step's experiment, rounds and verdict as comments"
check "git bisect replay takes the log" git -C "$tmp/tree" bisect replay "$tmp/log" \
	'&&' git -C "$tmp/tree" bisect reset

# The report, printed after the bisection and by --report.
check "--report" kb bisect --report 1
cp "$tmp/check.out" "$tmp/report"
is "the report after --resume is --report's" "$(sed 1d "$tmp/out")" "$(cat "$tmp/report")"
date=$(git -C "$tmp/tree" log -1 --format=%ad "$c4")
is "the report names the first bad commit, its author and date, as git log" \
	"$(grep -A4 "^commit $c4\$" "$tmp/report")" "commit $c4
Author: Pat Planter <pat@example.org>
Date:   $date

    c4: sched: plant a slowdown"
grep -q "^Every change in this report reads from the older commit to the newer one" "$tmp/report" &&
	! grep -q "against bad\|against good" "$tmp/report"
ok $? "... every change in one direction, said"
tr '\n' ' ' < "$tmp/report" |
	grep -q "from its parent $(echo "$c3" | cut -c1-12) to it: .*; from the good end to the bad end: -[0-9.]*%"
ok $? "... the bad end worse than the good one: a minus, as the commit"
is "the report ends in the line regzbot reads" "$(tail -2 "$tmp/report")" "
#regzbot introduced: $(echo "$c4" | cut -c1-12)"
grep -q "^No monitors were recorded for these runs (a run in a QEMU guest records none: docs/vm.md).\$" \
	"$tmp/report"
ok $? "... the monitors: none in a guest, said"
is "... the kernel config in words" "$(sed -n '/^The kernels. config: /,/^$/p' "$tmp/report")" \
	"The kernels' config: tinyconfig (make tinyconfig, kbench build's default),
then these fragments merged into it in this order (merge_config.sh):
  - kbench-guest.config, the guest fragment kbench ships
    (configs/kernel/kbench-guest.config in its source)"
sed -n '/^The benchmark config, as stored/,/^To reproduce/p' "$tmp/report" | sed '1,/^$/d' |
	sed '$d' | sed '$d' | sed 's/^  //' > "$tmp/conf.shown"
check "... the benchmark config's text, as given" cmp "$tmp/tp.conf" "$tmp/conf.shown"
grep -q "kernel=$tmp/builds/entries/$c3-[0-9a-f-]*/bzImage" "$tmp/report" &&
	grep -q "^#   kbench bisect --tree $tmp/tree --good good --bad bad -c $tmp/tp.conf -o loops=50 --only thread-pipes --rounds 3 " \
	"$tmp/report"
ok $? "... paths and commands never wrapped: the kernel's path, the command in the log"
grep -q "^hackbench-thread-pipes amean 1: -[0-9.]*%, worse\$" "$tmp/report"
ok $? "... the row's change against its parent"
accel=$(sql "SELECT accel FROM bisect_steps WHERE step = 3")
tr '\n' ' ' < "$tmp/report" > "$tmp/report.flat"
case $accel in
tcg)	grep -q "under TCG in every step, the guests' clocks counting instructions" \
		"$tmp/report.flat" && grep -q "Confirm the figure under KVM" "$tmp/report.flat" ;;
*)	grep -q "under KVM in every step" "$tmp/report.flat" ;;
esac
ok $? "... how the kernels ran ($accel)"
grep -q "^The first bad commit against its parent (step 3, experiment @[0-9]*):" "$tmp/report" &&
	grep -q "^Significance: a paired t-test on [36] rounds' mean differences" "$tmp/report"
ok $? "... the table of the two, paired"
grep -q "^  kbench vm --tree $tmp/tree --ref $(echo "$c3" | cut -c1-12) --ref $(echo "$c4" | cut -c1-12) -c tp.conf -o loops=50 --only thread-pipes --vcpus 1 --append quiet --icount --boot-timeout 300 --rounds [36]\$" \
	"$tmp/report" &&
	grep -q "^  kbench bisect --tree $tmp/tree --good $(echo "$c0" | cut -c1-12) --bad $(echo "$c5" | cut -c1-12) -c tp.conf -o loops=50 --only thread-pipes --rounds 3 --max-rounds 6 --vcpus 1 --append quiet --icount --boot-timeout 300 --row hackbench-thread-pipes/1\$" \
		"$tmp/report"
rc=$?
ok $rc "... the commands that reproduce it"
[ $rc -eq 0 ] || sed -n '/^To reproduce/,/^Bisect log/p' "$tmp/report" | sed 's/^/#   /'
is "the runs carry the kernels' commits" \
	"$(sql "SELECT count(DISTINCT value) FROM run_meta WHERE key = 'kernel-commit'")" 4
check "kbench mail --bisect" kb mail --to dev@example.org --from kbench@example.org --dry-run \
	--bisect 1
# (headers unfolded: a long subject is folded over lines)
awk '/^$/ { exit } /^[ \t]/ { sub(/^[ \t]+/, " "); line = line $0; next }
	{ if (line != "") print line; line = $0 } END { print line }' "$tmp/check.out" |
	tr -d '\r' > "$tmp/headers"
grep -q "^Subject: \[kbench bisect\] $(echo "$c4" | cut -c1-12) c4: sched: plant a slowdown: hackbench-thread-pipes amean 1 -[0-9.]*%\$" \
	"$tmp/headers" && tr -d '\r' < "$tmp/check.out" | grep -q "^commit $c4\$"
rc=$?
ok $rc "... mails the report"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/headers"
expect_err "--report --mail goes through the mail path" 2 "no sender: give --from ADDR" \
	env HOME="$tmp" XDG_CONFIG_HOME="$tmp/none" "$KBENCH" --db "$db" bisect --report \
	--mail dev@example.org
kb bisect --resume >"$tmp/again" 2>&1
is "--resume of a complete one: nothing to do" "$?" 0
grep -q "bisect @1 is complete: nothing to resume" "$tmp/again"
ok $? "... saying so"
no_qemu
ok $? "no QEMU is left"

done_testing
