#!/bin/sh
# t1542-build-real-kernel: kbench build on a real kernel: Debian's
# linux-source-6.1 as a git tree of two commits (lib-kbuild.sh), built
# with tinyconfig and the shipped guest fragment into a kernel cache that
# outlives build trees (the first run of this test on a machine builds
# for minutes, about 11 on two CPUs; later runs find both kernels
# in the cache). A second build is a cache hit, the second commit (one
# file more changed) rebuilds in the first one's object directory, and
# both kernels boot under kbench vm, alone and as the arms of an
# experiment, their runs storing the commits' facts.
# Covers: kernel/kbuild.c cli/cmd_build.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"

if ! kbuild_linux_tree; then
	skip "$kbuild_why"
	done_testing
	exit
fi
export KBENCH_KERNEL_CACHE="$kbuild_kernels"
c1=$(git -C "$kbuild_linux" rev-parse v6.1-debian)
c2=$(git -C "$kbuild_linux" rev-parse HEAD)

"$KBENCH" build --tree "$kbuild_linux" --ref v6.1-debian >"$tmp/b1.out" 2>"$tmp/b1.err"
rc=$?
ok $rc "kbench build builds Debian's kernel source (or has it in the cache)"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/b1.err"
diag "$(grep '^cache' "$tmp/b1.out")"
image1=$(sed -n 's/^image  *//p' "$tmp/b1.out")
is "a bzImage (the x86 boot header's magic)" "$(dd if="$image1" bs=1 skip=514 count=4 2>/dev/null)" HdrS
entry1=$(dirname "$image1")
for opt in CONFIG_SMP CONFIG_SERIAL_8250_CONSOLE CONFIG_BLK_DEV_INITRD CONFIG_UNIX CONFIG_INET \
	   CONFIG_DEVTMPFS CONFIG_TRANSPARENT_HUGEPAGE CONFIG_SLUB CONFIG_PERF_EVENTS; do
	grep -q "^$opt=y\$" "$entry1/config" || echo "# $opt is not =y"
done >"$tmp/missing"
is "the guest fragment's options are in its config" "$(cat "$tmp/missing")" ""
check "a second build" kb build --tree "$kbuild_linux" --ref v6.1-debian
grep -q "^kbench: notice: cache hit: v6.1-debian is built already, nothing to build\$" \
	"$tmp/check.err"
ok $? "is a cache hit"

"$KBENCH" build --tree "$kbuild_linux" --ref HEAD >"$tmp/b2.out" 2>"$tmp/b2.err"
rc=$?
ok $rc "the second commit builds"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/b2.err"
diag "$(grep '^cache' "$tmp/b2.out")"
image2=$(sed -n 's/^image  *//p' "$tmp/b2.out")
n1=$(grep -c "^  CC  " "$entry1/build.log")
n2=$(grep -c "^  CC  " "$(dirname "$image2")/build.log")
diag "compiled: $n1 files for the first commit, $n2 for the second"
[ "$n1" -gt 300 ] && [ "$n2" -lt 20 ] && grep -q "^  CC      kernel/fork.o" \
	"$(dirname "$image2")/build.log"
ok $? "incrementally: kernel/fork.c and little more"
cmp -s "$image1" "$image2"
ok $((!$?)) "another image"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
vm_tiny_conf "$tmp/tiny.conf"
timeout 300 "$KBENCH" --db "$db" vm --tree "$kbuild_linux" --ref HEAD -c "$tmp/tiny.conf" \
	--only hackbench -n built >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "kbench vm boots the built kernel and runs hackbench in it"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "the run's facts are the commit's" \
	"$(sql "SELECT key || '=' || value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'built' AND key IN ('kernel-commit', 'kernel-describe',
		'kernel-subject', 'kernel-tree') ORDER BY key")" \
	"kernel-commit=$c2
kernel-describe=v6.1-debian-1-g${c2%"${c2#???????}"}
kernel-subject=fork: a comment
kernel-tree=$kbuild_linux"
is "the guest ran the built kernel" \
	"$(sql "SELECT status, kernel_release LIKE '6.1.%' FROM runs WHERE name = 'built'")" \
	"complete|1"
check "kbench show prints the facts" kb show built
grep -q "^  kernel-subject   fork: a comment\$" "$tmp/check.out"
ok $? "the subject among them"

timeout 400 "$KBENCH" --db "$db" vm --tree "$kbuild_linux" --ref v6.1-debian --ref HEAD \
	-c "$tmp/tiny.conf" --only hackbench --rounds 2 -o hackbench.iterations=1 \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "the two commits as the arms of an experiment"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/err"
is "each arm's run on its commit, from the kernel cache" \
	"$(sql "SELECT r.name || ' ' || r.status || ' ' || m.value FROM runs r
		JOIN run_meta m ON m.run_id = r.id AND m.key = 'kernel-commit'
		WHERE r.name LIKE 'tiny/%' ORDER BY r.id") $(grep -c 'from the kernel cache$' "$tmp/err")" \
	"tiny/v6.1-debian complete $c1
tiny/HEAD complete $c2 2"
no_qemu
ok $? "no QEMU left"

done_testing
