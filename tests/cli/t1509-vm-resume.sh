#!/bin/sh
# t1509-vm-resume: a kernel A/B of kbench vm, its kernels and config
# given by relative paths, interrupted, resumes with kbench ab --resume
# from another directory: the experiment is stored as it ran (its arms
# from the command line, every file absolute, the guest's options), a
# round its run holds whole is not booted again, each round's boot time
# is stored and kbench show and experiments give their spread; the interrupt names the
# command that resumes it, and compare of a bare arm name suggests
# CONFIG/ARM. Then what needs no guest: the arms of one image named
# apart, kbench ab's relative paths made absolute, and --accel kvm
# refused at QEMU's first refusal, or before any QEMU where /dev/kvm
# cannot be opened.
#
# Commands: kbench vm (arms, --accel kvm), kbench ab --resume, kbench show
# (Boots), kbench experiments (boots), kbench compare (did you mean
# CONFIG/ARM).
#
# KBENCH_QEMU is a wrapper that counts the boots (in $tmp/boots) and runs
# the real QEMU; a KVM boot fails as QEMU fails where it cannot set up
# the host's CPU ("failed to set MSR"), whatever this machine has.
# Covers: cli/cmd_vm.c experiment/experiment_resume.c experiment/experiment_stored.c views/experiment_view.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kbt() { timeout 300 "$KBENCH" --db "$db" "$@" >"$tmp/out" 2>"$tmp/err"; rc=$?; }
show() { sed 's/^/#   /' "$tmp/out" "$tmp/err"; }
boots() { cat "$tmp/boots" 2>/dev/null || echo 0; }
# samples RUN-NAME N: the store holds at least N samples of run RUN-NAME.
samples() {
	[ "$(sql "SELECT count(*) FROM samples s JOIN runs r ON r.id = s.run_id WHERE r.name = '$1'" 2>/dev/null || echo 0)" -ge "$2" ]
}

real=$(command -v qemu-system-x86_64)
cat >"$tmp/qemu" <<EOF2
#!/bin/sh
case " \$* " in *" -kernel "*) ;; *) exec "$real" "\$@" ;; esac
echo \$(( \$(cat "$tmp/boots" 2>/dev/null || echo 0) + 1 )) >"$tmp/boots"
case " \$* " in *" -accel kvm "*)
	echo "qemu-system-x86_64: error: failed to set MSR 0x10a to 0x69" >&2
	exit 1 ;;
esac
exec "$real" "\$@"
EOF2
chmod +x "$tmp/qemu"
export KBENCH_QEMU="$tmp/qemu"

mkdir -p "$tmp/work/k"
cp "$vm_cloud" "$tmp/work/k/vmlinuz-cloud"
cp "$vm_rt" "$tmp/work/k/vmlinuz-rt"
printf '[hackbench]\nworkload = hackbench\ngroups = 1\nloops = 10\niterations = 2\n' \
	>"$tmp/work/tiny.conf"

# Rounds 1 and 2, ABBA: cloud rt, rt cloud. Interrupted in rt's round 1.
(cd "$tmp/work" && exec timeout 300 "$KBENCH" --db "$db" vm -k k/vmlinuz-cloud \
	-k k/vmlinuz-rt -n cloud -n rt --rounds 2 -c tiny.conf --accel tcg --memory 256 \
	--no-report >"$tmp/out" 2>"$tmp/err") &
pid=$!
wait_until 200 samples tiny/rt 1
ok $? "the experiment reaches rt's first round"
kill -INT $pid
wait $pid
rc=$?
is "SIGINT stops it (exit 130)" "$rc" 130
[ $rc -eq 130 ] || show
grep -q "interrupted by signal 2; .*'kbench ab --resume tiny' runs the rest" "$tmp/err"
ok $? "the interrupt names the command that resumes it"
is "the experiment is interrupted" "$(sql "SELECT status FROM experiments")" interrupted
is "its arms' kernels are stored absolute" \
	"$(sql "SELECT value FROM run_meta WHERE key = 'arm kernel' ORDER BY run_id")" \
	"$tmp/work/k/vmlinuz-cloud
$tmp/work/k/vmlinuz-rt"

# From another directory, by name.
rm -f "$tmp/boots"
(cd / && exec timeout 300 "$KBENCH" --db "$db" ab --resume tiny --no-report \
	>"$tmp/out" 2>"$tmp/err")
rc=$?
ok $rc "kbench ab --resume finishes it from another directory"
[ $rc -eq 0 ] || show
grep -q "round 1/2 cloud: run @[0-9]* holds it already; not booted" "$tmp/err"
ok $? "the round its run holds whole is not booted again"
is "... so the resume boots rt's round 1 and the two of round 2" "$(boots)" 3
grep -q "under TCG (2 vCPUs, 256 MiB)" "$tmp/err" && ! grep -q "KVM" "$tmp/err"
ok $? "the guest's options of the command line hold for the resumed rounds"
is "each arm has its two rounds" \
	"$(sql "SELECT r.name, r.status, group_concat(DISTINCT s.round) FROM samples s JOIN runs r ON r.id = s.run_id GROUP BY r.id ORDER BY r.id")" \
	"tiny/cloud|complete|1,2
tiny/rt|complete|1,2"
is "the experiment is complete" "$(sql "SELECT status FROM experiments")" complete
is "each boot's time is stored with its round (rt's round 1 booted again)" \
	"$(sql "SELECT r.name || ' ' || m.key FROM run_meta m JOIN runs r ON r.id = m.run_id WHERE m.key LIKE 'vm.boot_s.round-%' ORDER BY r.id, m.key")" \
	"tiny/cloud vm.boot_s.round-1
tiny/cloud vm.boot_s.round-2
tiny/rt vm.boot_s.round-1
tiny/rt vm.boot_s.round-1
tiny/rt vm.boot_s.round-2"
kbt show tiny/cloud
grep -q "^Boots: 2, [0-9.]* to [0-9.]* s ([0-9.]* s apart): round 1 [0-9.]* s, round 2 [0-9.]* s$" "$tmp/out"
ok $? "kbench show gives the boot times and their spread"
[ $? -eq 0 ] || show
kbt experiments 1
grep -q "^  arms        cloud: run @[0-9]*, complete, 2 rounds, 4 samples, 2 boots [0-9.]* to [0-9.]* s$" "$tmp/out" &&
	grep -q "^              rt: run @[0-9]*, complete, 2 rounds, 4 samples, 3 boots [0-9.]* to [0-9.]* s$" "$tmp/out"
ok $? "kbench experiments gives each arm's boots and their spread"
[ $? -eq 0 ] || show
kbt compare cloud rt
ok $((rc == 0)) "compare of a bare arm name fails"
grep -q "no run named 'cloud' .*(did you mean 'tiny/cloud'?)$" "$tmp/err"
ok $? "... suggesting CONFIG/ARM"
[ $? -eq 0 ] || show
kbt compare tiny/cloud tiny/rt
ok $rc "... which compares"
no_qemu
ok $? "no QEMU is left"

# One image twice: both arms named after it, apart.
kbt vm -k "$vm_cloud" -k "$vm_cloud" --append quiet --append loglevel=3 \
	-c "$tmp/work/tiny.conf" --accel tcg --dry-run
ver=$(basename "$vm_cloud" | sed 's/^vmlinuz-//')
grep -q "$ver-1" "$tmp/out" && grep -q "$ver-2" "$tmp/out" && ! grep -q "arm2" "$tmp/out"
ok $? "the arms of one image are named from it, -1 and -2"
[ $? -eq 0 ] || show

# kbench ab's config: its relative paths are made absolute as it begins
# (its dry run shows the arms as they would be stored).
printf '[arm:a]\nkernel = k/vmlinuz-cloud\n[arm:b]\nkernel = k/vmlinuz-rt\ninitrd = k/none.cpio\n[hackbench]\ngroups = 1\nloops = 10\niterations = 1\n' \
	>"$tmp/work/kernels.conf"
(cd "$tmp/work" && exec "$KBENCH" --db "$db" ab -c kernels.conf --dry-run >"$tmp/out" 2>"$tmp/err")
grep -q "^    kernel = $tmp/work/k/vmlinuz-cloud$" "$tmp/out" &&
	grep -q "^    initrd = $tmp/work/k/none.cpio$" "$tmp/out"
ok $? "kbench ab makes its arms' relative paths absolute, a file still to come too"
[ $? -eq 0 ] || show

# --accel kvm where KVM does not run the guest: one QEMU at most.
rm -f "$tmp/boots"
kbt vm -k "$vm_cloud" -c "$tmp/work/tiny.conf" --accel kvm --no-report
ok $((rc == 0)) "--accel kvm where KVM cannot run the guest fails"
! grep -q "died" "$tmp/err"
ok $? "... with no warning of a guest that died"
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	is "... QEMU's refusal fails the run (exit 1)" "$rc" 1
	is "... after one QEMU" "$(boots)" 1
	grep -q "KVM does not run this guest here: qemu-system-x86_64: error: failed to set MSR" "$tmp/err"
	ok $? "... saying QEMU's reason"
else
	is "... /dev/kvm that cannot be opened is refused (exit 2)" "$rc" 2
	is "... before any QEMU" "$(boots)" 0
	grep -q "^kbench: --accel kvm: .*/dev/kvm" "$tmp/err"
	ok $? "... saying why /dev/kvm cannot be used"
fi
[ $? -eq 0 ] || show
no_qemu
ok $? "no QEMU is left"

done_testing
