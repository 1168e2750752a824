#!/bin/sh
# t1505-vm-boot-retry: a guest kernel that dies before kbench's init
# speaks (a panic of an emulated-hardware check under TCG, say) is booted
# again, three boots in all; the boots that died are said, counted and
# stored (vm.boot_retries), and a round whose three boots die fails with
# the console's last lines and leaves the experiment resumable, saying
# how to resume it. Under TCG
# the command line gets no_timer_check unless it names it already.
#
# The deaths are real panics: KBENCH_QEMU is a wrapper that runs the real
# QEMU (under TCG: a KVM boot fails at once), adding rdinit=/nonexistent to the command line of the boots listed
# in $tmp/fail (counted from 1 in $tmp/boots), so that the kernel finds no
# init, cannot mount a root and panics (panic=-1 ends QEMU).
# Covers: kernel/vm.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }

real=$(command -v qemu-system-x86_64)
cat >"$tmp/qemu" <<EOF2
#!/bin/bash
# Not a boot (--version): the real QEMU as it is.
case " \$* " in *" -kernel "*) ;; *) exec "$real" "\$@" ;; esac
# A KVM probe (an arm's accel auto) fails, uncounted, as where KVM cannot
# run the guest: the boots counted are TCG's, whatever this machine has.
case " \$* " in *" -accel kvm "*) echo "KVM is off in this test" >&2; exit 1 ;; esac
n=\$(( \$(cat "$tmp/boots" 2>/dev/null || echo 0) + 1 ))
echo \$n >"$tmp/boots"
args=()
prev=
for a in "\$@"; do
	if [ "\$prev" = -append ] && grep -qw "\$n" "$tmp/fail"; then
		a="\$a rdinit=/nonexistent"
	fi
	args+=("\$a")
	prev=\$a
done
exec "$real" "\${args[@]}"
EOF2
chmod +x "$tmp/qemu"
export KBENCH_QEMU="$tmp/qemu"
printf '[hackbench]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 1\n' >"$tmp/hb.conf"

kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" --accel tcg --append "mitigations=off" --dry-run
grep -q "^    -append 'console=ttyS0 panic=-1 no_timer_check mitigations=off'$" "$tmp/out"
ok $? "--dry-run under TCG shows no_timer_check on the command line"
[ $? -eq 0 ] || show
kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" --accel tcg --append "no_timer_check quiet" --dry-run
grep -q "^    -append 'console=ttyS0 panic=-1 no_timer_check quiet'$" "$tmp/out"
ok $? "... once, when the user's command line names it already"

echo 1 >"$tmp/fail"
kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" --accel tcg --memory 256 -n once --no-report
ok $rc "a guest that died once is booted again and the run completes"
[ $rc -eq 0 ] || show
is "two boots were made" "$(cat "$tmp/boots")" 2
grep -q "^kbench: warning: the guest died before kbench's init spoke under tcg (.*Kernel panic - not syncing: .*); booting it again$" "$tmp/err"
ok $? "the death is a warning with the kernel's panic line"
[ $? -eq 0 ] || show
grep -q "booted .* under TCG (2 vCPUs, 256 MiB) in [0-9.]* s (after 1 boot that died)$" "$tmp/err"
ok $? "the boot line counts the boot that died"
is "the count is a fact of the run" \
	"$(sql "SELECT value FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE r.name = 'once' AND key = 'vm.boot_retries'")" 1
sql "SELECT kernel_cmdline FROM runs WHERE name = 'once'" | grep -qw no_timer_check
ok $? "the guest's stored command line has no_timer_check"

rm -f "$tmp/boots"
echo "1 2 3" >"$tmp/fail"
kbt vm -k "$vm_cloud" -c "$tmp/hb.conf" --accel tcg --memory 256 -n never --no-report
ok $((rc == 0)) "three deaths are an error"
is "three boots were made, no more" "$(cat "$tmp/boots")" 3
grep -q "the guest kernel ended before kbench's init spoke" "$tmp/err" &&
	grep -q "Kernel panic - not syncing" "$tmp/err"
ok $? "the error shows the console's last lines"
is "no sample of it is stored" "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = 'never'")" 0

# An experiment of two kernel arms: round 2's first boot dies three
# times, so the round fails; --resume finishes the experiment.
cat >"$tmp/ab.conf" <<EOF2
[experiment]
rounds = 2

[arm:rt]
kernel = $vm_rt
memory = 256

[arm:cloud]
kernel = $vm_cloud
memory = 256

[hackbench]
workload = hackbench
groups = 1
loops = 10
iterations = 1
EOF2
rm -f "$tmp/boots"
echo "3 4 5" >"$tmp/fail"
kbt ab -c "$tmp/ab.conf" -n x --no-report
ok $((rc == 0)) "a round whose boots all die fails the experiment"
grep -q "arm cloud: the guest did not boot in round 2" "$tmp/err"
ok $? "... naming the arm and the round"
[ $? -eq 0 ] || show
is "the experiment can be resumed" "$(sql "SELECT status FROM experiments WHERE name = 'x'")" failed
grep -q "^kbench: notice: 'kbench ab --resume x' runs the rest of experiment @[0-9]*$" "$tmp/err"
ok $? "... and says how"
echo >"$tmp/fail"
kbt ab --resume x --no-report
ok $rc "--resume finishes it"
[ $rc -eq 0 ] || show
is "each arm has its two rounds" \
	"$(sql "SELECT r.name, r.status, group_concat(DISTINCT s.round) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name LIKE 'x/%' GROUP BY r.id ORDER BY r.id")" \
	"x/rt|complete|1,2
x/cloud|complete|1,2"
no_qemu
ok $? "no QEMU is left"

done_testing
