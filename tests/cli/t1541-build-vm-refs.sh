#!/bin/sh
# t1541-build-vm-refs: commits of a kernel tree as kbench vm's kernels.
# On lib-kbuild.sh's small tree whose build gives the cloud kernel of
# lib-vm.sh, or from its third commit on the -rt one: kbench vm --ref
# builds a commit and boots it, the run storing the commit's facts
# (kernel-commit...) that kbench show prints; two --ref are the arms of
# an interleaved experiment, each built once; --dry-run says what it
# would build; the arm keys tree, ref, kconfig and fragment of kbench ab
# configs, and their errors.
# Covers: kernel/kbuild.c cli/cmd_vm.c experiment/experiment_design.c
. "$TOP_SRCDIR/tests/cli/lib.sh"
. "$TOP_SRCDIR/tests/cli/lib-vm.sh"
. "$TOP_SRCDIR/tests/cli/lib-kbuild.sh"
GIT_CEILING_DIRECTORIES=$tmp
export GIT_CEILING_DIRECTORIES
export KBENCH_KERNEL_CACHE="$tmp/kcache"

hb='[hackbench]
workload = hackbench
groups = 1
loops = 10
iterations = 2'

# The arm keys' errors need no kernel: images that are not ones will do.
printf 'not a kernel\n' >"$tmp/image-a"
printf 'not a kernel either\n' >"$tmp/image-b"
kbuild_fake_tree "$tmp/fake" 2 2 "$tmp/image-a" "$tmp/image-b"
ok $? "a tree of two commits"
printf '[arm:a]\ntree = %s\n\n[arm:b]\n\n%s\n' "$tmp/fake" "$hb" >"$tmp/noref.conf"
expect_err "tree needs ref" 2 "tree in [arm:a] builds the arm's kernel from a git tree, which needs ref = COMMIT" \
	kb ab -c "$tmp/noref.conf" --dry-run
printf '[arm:a]\nfragment = x.config\n\n[arm:b]\n\n%s\n' "$hb" >"$tmp/notree.conf"
expect_err "a fragment needs a tree" 2 \
	"fragment in [arm:a] builds the arm's kernel from a git tree, which needs tree = DIR and ref = COMMIT" \
	kb ab -c "$tmp/notree.conf" --dry-run
printf '[arm:a]\nkernel = %s\ntree = %s\nref = v1.0\n\n[arm:b]\n\n%s\n' "$tmp/image-a" \
	"$tmp/fake" "$hb" >"$tmp/both.conf"
expect_err "an image or a tree, not both" 2 \
	"tree in [arm:a]: an arm boots the image of kernel = IMAGE or one built from tree = DIR, not both" \
	kb ab -c "$tmp/both.conf" --dry-run
printf '[arm:a]\ntree = %s\nref = nope\n\n[arm:b]\n\n%s\n' "$tmp/fake" "$hb" >"$tmp/badref.conf"
expect_err "a ref that is not there" 2 "[arm:a]: no commit 'nope' in the tree '$tmp/fake'" \
	kb ab -c "$tmp/badref.conf" --dry-run
printf '[arm:a]\ntree = %s\nref = v1.0\nsysctl.vm.swappiness = 1\n\n[arm:b]\n\n%s\n' \
	"$tmp/fake" "$hb" >"$tmp/knob.conf"
expect_err "a built arm is a kernel arm" 2 \
	"sysctl.vm.swappiness in [arm:a]: a kernel arm runs in a guest booted for each round" \
	kb ab -c "$tmp/knob.conf" --dry-run
# A kbench copied away from its build tree, not installed, cannot find
# the shipped guest fragment: it runs arms of this machine's, and
# refuses an arm built from a tree, whose kernel needs the fragment.
mkdir "$tmp/copy" && cp "$KBENCH" "$tmp/copy/kbench"
printf '[arm:a]\n\n[arm:b]\noption.loops = 12\n\n%s\n' "$hb" >"$tmp/plain.conf"
"$tmp/copy/kbench" --db "$db" ab -c "$tmp/plain.conf" --dry-run >"$tmp/out" 2>&1
st=$?
is "a copied kbench plans an experiment of arms on this machine" "$st" 0
[ "$st" -eq 0 ] || comment "$tmp/out"
printf '[arm:a]\ntree = %s\nref = v1.0\n\n[arm:b]\n\n%s\n' "$tmp/fake" "$hb" >"$tmp/tree.conf"
expect_err "... and refuses an arm built from a tree, naming it and the fragment" 1 \
	"kbench: arm 'a' is built from a tree, and its kernel needs the shipped config fragment 'kbench-guest', which this kbench cannot find: run the kbench of a build tree or an installed one" \
	"$tmp/copy/kbench" --db "$db" ab -c "$tmp/tree.conf" --dry-run
expect_err "-k and --ref" 2 "-k and --ref cannot be combined" \
	kb vm -k "$tmp/image-a" --ref v1.0 --tree "$tmp/fake" -c "$tmp/noref.conf"
expect_err "build options need --ref" 2 \
	"--tree, --kconfig, --fragment, --no-guest-fragment, --cache, --jobs and --build-timeout build the kernel of a --ref" \
	kb vm -k "$tmp/image-a" --fragment x.config -c "$tmp/noref.conf"
printf '%s\n' "$hb" >"$tmp/hb.conf"
expect_err "kbench vm --ref of a ref that is not there" 1 "no commit 'v9' in the tree" \
	kb vm --tree "$tmp/fake" --ref v9 -c "$tmp/hb.conf"

if ! vm_kernels; then
	skip "$vm_why"
	done_testing
	exit
fi
kbuild_fake_tree "$tmp/linux" 3 3
ok $? "a tree of three commits, the third switching to the -rt kernel"
set -- $kbuild_commits
c1=$1 c3=$3

check "--dry-run says what it would build" \
	kb vm --tree "$tmp/linux" --ref v1.0 -c "$tmp/hb.conf" --dry-run
grep -q "^KERNEL: v1.0 (${c1%"${c1#????????????}"} fake: commit 1) of $tmp/linux, tinyconfig + kbench-guest.config: not in the kernel cache, built first\$" \
	"$tmp/check.out" && [ ! -d "$tmp/kcache/entries" ]
ok $? "not in the cache, and builds nothing"

timeout 300 "$KBENCH" --db "$db" vm --tree "$tmp/linux" --ref v1.0 -c "$tmp/hb.conf" -n one \
	>"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "kbench vm --ref builds the commit and boots it"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/out" "$tmp/err"
grep -q "^kbench: notice: built v1.0 (${c1%"${c1#????????????}"} fake: commit 1) in 0m[0-9][0-9]s\$" "$tmp/err"
ok $? "saying it built it"
is "the run is on the cloud kernel, complete" \
	"$(sql "SELECT status || ' ' || (kernel_release LIKE '%-cloud-amd64') FROM runs WHERE name = 'one'")" \
	"complete 1"
hash=$(sed -n 's/^kernel-config-hash *//p' "$tmp/kcache"/entries/"$c1"-*/facts)
is "the run stores the commit's facts" \
	"$(sql "SELECT key || '=' || value FROM run_meta m JOIN runs r ON r.id = m.run_id
		WHERE r.name = 'one' AND key LIKE 'kernel-%' ORDER BY key")" \
	"kernel-commit=$c1
kernel-compiler=$(gcc --version | head -1)
kernel-config-hash=$hash
kernel-describe=v1.0
kernel-subject=fake: commit 1
kernel-tree=$tmp/linux"
check "kbench show prints them" kb show one
grep -q "^  kernel-commit    $c1\$" "$tmp/check.out" &&
	grep -q "^  kernel-describe  v1.0\$" "$tmp/check.out"
ok $? "kernel-commit and kernel-describe among the run's facts"

check "--dry-run of two refs" \
	kb vm --tree "$tmp/linux" --ref v1.0 --ref master -c "$tmp/hb.conf" --rounds 2 --dry-run
grep -q "^    builds v1.0 (${c1%"${c1#????????????}"} fake: commit 1) of $tmp/linux, tinyconfig + kbench-guest.config: in the kernel cache\$" "$tmp/check.out" &&
	grep -q "^    builds v1.0-2-g[0-9a-f]* (${c3%"${c3#????????????}"} fake: switch to the second kernel) of .*: not in the kernel cache, built first\$" "$tmp/check.out"
ok $? "one in the cache, one to build"

timeout 400 "$KBENCH" --db "$db" vm --tree "$tmp/linux" --ref v1.0 --ref master \
	-c "$tmp/hb.conf" --rounds 2 -o hackbench.iterations=1 >"$tmp/out" 2>"$tmp/err"
rc=$?
ok $rc "two refs are the arms of an experiment"
[ $rc -eq 0 ] || sed 's/^/#   /' "$tmp/out" "$tmp/err"
grep -q "^kbench: notice: arm v1.0: v1.0 (${c1%"${c1#????????????}"} fake: commit 1) from the kernel cache\$" "$tmp/err" &&
	grep -q "^kbench: notice: arm master: built v1.0-2-g" "$tmp/err"
ok $? "one found in the cache, the other built"
is "each arm's run on its commit's kernel" \
	"$(sql "SELECT r.name || ' ' || r.status || ' ' || (r.kernel_release LIKE '%-rt-amd64') || ' ' || m.value
		FROM runs r JOIN run_meta m ON m.run_id = r.id AND m.key = 'kernel-commit'
		WHERE r.name LIKE 'hb/%' ORDER BY r.id")" \
	"hb/v1.0 complete 0 $c1
hb/master complete 1 $c3"
grep -q "hb/v1.0 *hb/master" "$tmp/out"
ok $? "the paired comparison follows"
no_qemu
ok $? "no QEMU left"

done_testing
