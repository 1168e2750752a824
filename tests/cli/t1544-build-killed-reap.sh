#!/bin/sh
# t1544-build-killed-reap: kill -9 of kbench build leaves make's recipe
# shells running in the cache's work tree (make dies with kbench, what
# its recipes started does not); the next build kills them, and what
# they started that left make's process group, before it takes the
# slot, and says so (kernel/kbuild.c, machine/leftover.c,
# machine/cgroup.c). On lib-kbuild.sh's small tree.
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES
export KBENCH_KERNEL_CACHE="$tmp/kcache"

printf 'fake kernel A\n' >"$tmp/image-a"
printf 'fake kernel B\n' >"$tmp/image-b"
tree=$tmp/linux
kbuild_fake_tree "$tree" 1 0 "$tmp/image-a" "$tmp/image-b"
ok $? "a tree of one commit"
# The build's recipe sleeps; a process it starts leaves the group too.
kbuild_commit "$tree" "fake: a slow build" slow 31.7 \
	Makefile.local "esc := \$(shell setsid sh -c 'exec sleep 32.7' </dev/null >/dev/null 2>&1 &)" \
	>/dev/null
sed -i '1a include Makefile.local' "$tree/Makefile"
kbuild_git -C "$tree" commit -q -a -m "fake: include Makefile.local"
slow=$(git -C "$tree" rev-parse HEAD)

"$KBENCH" build --tree "$tree" --ref "$slow" >"$tmp/k.out" 2>"$tmp/k.err" &
pid=$!
wait_until 20 sh -c "grep -qs '^  CC' '$KBENCH_KERNEL_CACHE'/tmp/*/build.log" ||
	diag "make bzImage never started"
sleep 0.3
kill -9 $pid
wait $pid
is "a build killed (kill -9) in make bzImage" "$?" 137
check "its recipe runs on after it" pgrep -f "sleep 31.7"
check "and what left make's group" pgrep -f "sleep 32.7"

kbuild_commit "$tree" "fake: quick again" slow - >/dev/null
start=$(date +%s)
check "the next build completes" kb build --tree "$tree" --ref HEAD
end=$(date +%s)
grep "killed" "$tmp/check.err" | sed 's/^/# /'
grep -q "^kbench: notice: killed [0-9]* process[es]* of build process group [0-9]* (make bzImage of .* in $KBENCH_KERNEL_CACHE/work/[0-9a-f]*) left by a kbench that is gone\$" \
	"$tmp/check.err"
ok $? "saying it killed what the killed build left"
no_process "sleep 31.7" && no_process "sleep 32.7"
ok $? "nothing of the killed build is left"
check "without waiting for the killed build's recipes" test $((end - start)) -lt 20
is "nothing is left recorded" "$(ls "$KBENCH_LOCK_DIR" 2>/dev/null | grep -c '^background\.')" 0

# No lock directory to record in: the build goes on, saying what it
# cannot promise.
kbuild_commit "$tree" "fake: one more" f 1 >/dev/null
check "a build that cannot record its processes still builds" \
	env KBENCH_LOCK_DIR=/proc/no-such-dir "$KBENCH" build --tree "$tree" --ref HEAD
grep -q "^kbench: warning: cannot record process group [0-9]* in /proc/no-such-dir/background\.[0-9]*: .*; a kill -9 of this build would leave make's recipes running\$" \
	"$tmp/check.err" && [ "$(grep -c "a kill -9 of this build" "$tmp/check.err")" -eq 1 ]
ok $? "saying so once"

for p in $(pgrep -f "sleep 3[12].7"); do kill -9 "$p"; done
done_testing
