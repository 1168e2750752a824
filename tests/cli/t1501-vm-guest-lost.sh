#!/bin/sh
# t1501-vm-guest-lost: a guest kernel that panics before kbench's init
# speaks is a clear error with its console's last lines (the panic's
# first line among them) and stores nothing; a guest killed in the middle
# of a run, or one that stops answering, ends the run failed, keeping
# every sample it sent, with the console's tail in the failure; SIGINT
# ends it interrupted. No QEMU is
# left in any case.
# Covers: kernel/vm.c sampler/guest.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
# stored N [RUN]: the store holds at least N samples (of run RUN).
stored() {
	[ "$(sql "SELECT count(*) FROM samples WHERE run_id = ${2:-1}" 2>/dev/null || echo 0)" -ge "$1" ]
}
printf '[hackbench]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 500\n' \
	>"$tmp/long.conf"

# No init to run: the kernel looks for a root file system and panics.
kbt vm -k "$vm_cloud" -c "$tmp/long.conf" --accel tcg --vcpus 1 --memory 256 \
	--append "rdinit=/nonexistent"
ok $((rc != 1)) "a guest that panics at boot is an error (exit 1)"
grep -q "the guest kernel ended before kbench's init spoke" "$tmp/err"
ok $? "... saying that the kernel ended"
grep -q "^    \[ *[0-9.]*\] Kernel panic - not syncing: " "$tmp/err"
ok $? "... and showing the console's lines from the panic on"
[ $? -eq 0 ] || show
ls "$tmp"/kbench-vm-*/console.log >/dev/null 2>&1
ok $? "... whose whole console log is kept"
is "nothing is stored" "$(sql "SELECT count(*) FROM runs" 2>/dev/null || echo 0)" "0"
no_qemu
ok $? "no QEMU is left"
rm -rf "$tmp"/kbench-vm-*

# Killed while it runs: the samples it sent stay.
timeout 300 "$KBENCH" --db "$db" vm -k "$vm_cloud" -c "$tmp/long.conf" --accel tcg \
	--vcpus 1 --memory 256 --no-report >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_until 120 stored 2
ok $? "the guest's samples are stored as they arrive"
pkill -KILL -f -- "$tmp/kbench-vm-.*/initramfs.cpio"
wait $pid
rc=$?
ok $((rc != 1)) "a guest killed mid-run fails the run (exit 1)"
grep -q "stopped because its guest is gone: it kept [0-9]* samples and is marked failed" \
	"$tmp/err"
ok $? "... saying how many samples it kept"
[ $? -eq 0 ] || show
is "the run is marked failed" "$(sql "SELECT status FROM runs")" "failed"
stored=$(sql "SELECT count(*) FROM samples")
[ "$stored" -ge 2 ]
ok $? "the samples sent before are kept ($stored)"
sql "SELECT reason FROM failures" | grep -q "the guest ended during the sample"
ok $? "the failure says the guest ended"
sql "SELECT reason FROM failures" | grep -q "Run /init as init process"
ok $? "... with the console's last lines"
no_qemu
ok $? "no QEMU is left"
rm -rf "$tmp"/kbench-vm-*

# A guest that stops answering (QEMU stopped): killed once the sample's
# timeout and 30 s more have passed.
timeout 300 "$KBENCH" --db "$db" vm -k "$vm_cloud" -c "$tmp/long.conf" --accel tcg \
	--vcpus 1 --memory 256 --no-report -o timeout=2 >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_until 120 stored 1 2
pkill -STOP -f -- "$tmp/kbench-vm-.*/initramfs.cpio"
wait $pid
rc=$?
ok $((rc != 1)) "a guest that stops answering fails the run (exit 1)"
sql "SELECT reason FROM failures WHERE run_id = 2" | grep -q "the guest stopped answering"
ok $? "... saying so"
[ $? -eq 0 ] || show
no_qemu
ok $? "no QEMU is left"
rm -rf "$tmp"/kbench-vm-*

# SIGINT: interrupted, as a native run.
timeout 300 "$KBENCH" --db "$db" vm -k "$vm_cloud" -c "$tmp/long.conf" --accel tcg \
	--vcpus 1 --memory 256 --no-report >"$tmp/out" 2>"$tmp/err" &
pid=$!
wait_until 120 stored 1 3
kill -INT $pid
wait $pid
rc=$?
ok $((rc != 130)) "SIGINT interrupts the run (exit 130)"
[ $rc -eq 130 ] || show
is "the run is marked interrupted" "$(sql "SELECT status FROM runs WHERE id = 3")" "interrupted"
no_qemu
ok $? "no QEMU is left"
is "the guest's scratch files are gone" "$(ls "$tmp" | grep -c kbench-vm)" "0"

done_testing
