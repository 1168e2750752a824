#!/bin/sh
# t1507-vm-boot-interrupt: SIGINT while a guest boots is acted on at
# once, not after the boot (which --boot-timeout bounds at 300 s here)
# nor after the round's samples: kbench vm and kbench bisect stop QEMU,
# exit 130 within 5 s (a boot left to finish takes more, and a loaded
# machine some slack), and say so (bisect with its --resume hint); no
# QEMU is left (kernel/vm.c, experiment/experiment.c,
# cli/cmd_vm.c). Boots the cloud kernel of lib-vm.sh under QEMU twice,
# each stopped part way.
# Covers: kernel/vm.c kernel/vm_run.c runner/stop.c bisect/bisect_run.c bisect/bisect_step.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES
export KBENCH_KERNEL_CACHE="$tmp/builds"
printf '[hb]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' >"$tmp/hb.conf"

qemu_runs() { pgrep -f -- "$tmp/kbench-vm" >/dev/null; }
now() { date +%s.%N; }
# interrupt PID OUT: SIGINT to PID half a second into its guest's boot;
# sets $rc and $took (seconds from the signal to its exit).
interrupt() {
	if ! wait_until 120 qemu_runs; then
		diag "QEMU never started: $(tr '\n' '|' <"$2")"
	fi
	sleep 0.5
	t0=$(now)
	kill -INT "$1"
	wait "$1"
	rc=$?
	took=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }')
	diag "exit $rc, $took s after SIGINT: $(tr '\n' '|' <"$2")"
}

"$KBENCH" --db "$db" vm -k "$vm_cloud" -c "$tmp/hb.conf" --boot-timeout 300 --no-report \
	>"$tmp/vm.out" 2>"$tmp/vm.err" &
interrupt $! "$tmp/vm.err"
is "kbench vm: SIGINT during the boot exits 130" "$rc" 130
check "... within 5 s" awk -v t="$took" 'BEGIN { exit !(t < 5) }'
check "... saying the boot was interrupted" grep -q \
	"^kbench: interrupted by signal 2 while the guest booted: QEMU was stopped\$" "$tmp/vm.err"
no_qemu
ok $? "... and no QEMU is left"
is "... nothing was stored" "$(sql "SELECT count(*) FROM runs")" 0

# A bisection of two commits, both the cloud kernel: SIGINT during the
# first boot of its first step.
kbuild_fake_tree "$tmp/tree" 2 0
ok $? "a tree of two commits"
"$KBENCH" --db "$db" bisect --tree "$tmp/tree" --good v1.0 --bad HEAD -c "$tmp/hb.conf" \
	--rounds 3 --append quiet --vcpus 1 --boot-timeout 300 --no-report \
	>"$tmp/b.out" 2>"$tmp/b.err" &
interrupt $! "$tmp/b.err"
is "kbench bisect: SIGINT during a boot exits 130" "$rc" 130
check "... within 5 s" awk -v t="$took" 'BEGIN { exit !(t < 5) }'
check "... saying the boot was interrupted" grep -q \
	"^kbench: notice: arm [^ ]*: its boot in round 1 was interrupted by signal 2: QEMU was stopped\$" \
	"$tmp/b.err"
check "... with the resume hint" grep -q \
	"^kbench: bisect @1 interrupted by signal 2; 'kbench bisect --resume 1' goes on from its last finished step\$" \
	"$tmp/b.err"
no_qemu
ok $? "... and no QEMU is left"
is "the bisection is stored interrupted" "$(sql "SELECT status FROM bisects")" interrupted

done_testing
