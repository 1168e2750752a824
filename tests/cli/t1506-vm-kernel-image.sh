#!/bin/sh
# t1506-vm-kernel-image: kbench vm checks its kernel images before
# anything, --dry-run included: a missing file, a directory, an ELF
# vmlinux and a file without the x86 boot header are usage errors naming
# the image (exit 2, nothing stored); a file with the boot header passes
# --dry-run. A kernel arm of kbench ab is checked when its config is
# read, naming the config's line. No QEMU and no kernel are needed: the
# images here are made up.
# Covers: kernel/vm_image.c cli/cmd_vm.c
. "$TOP_SRCDIR/tests/cli/lib.sh"

printf '[hackbench]\ngroups = 1\nloops = 10\niterations = 1\n' >"$tmp/hb.conf"
# A made-up bzImage: the boot protocol's "HdrS" at offset 0x202.
head -c 514 /dev/zero >"$tmp/bzImage" &&
	printf 'HdrS' >>"$tmp/bzImage" && head -c 512 /dev/zero >>"$tmp/bzImage"
head -c 2048 /dev/zero >"$tmp/zeros"
mkdir "$tmp/dir"

expect_transcript "--dry-run: a missing image is an error" \
	kb vm --dry-run -k "$tmp/linux/arch/x86/boot/bzImage" -c "$tmp/hb.conf" <<'T'
$ kb vm --dry-run -k TMP/linux/arch/x86/boot/bzImage -c TMP/hb.conf
2> kbench: cannot use the kernel image 'TMP/linux/arch/x86/boot/bzImage': No such file or directory
[exit 2]
T
expect_transcript "--dry-run: a directory is not an image" \
	kb vm --dry-run -k "$tmp/dir" -c "$tmp/hb.conf" <<'T'
$ kb vm --dry-run -k TMP/dir -c TMP/hb.conf
2> kbench: cannot use the kernel image 'TMP/dir': not a regular file
[exit 2]
T
expect_transcript "--dry-run: an ELF file (a vmlinux) is not an image QEMU boots here" \
	kb vm --dry-run -k "$KBENCH" -c "$tmp/hb.conf" <<'T'
$ kb vm --dry-run -k kbench -c TMP/hb.conf
2> kbench: cannot use the kernel image 'kbench': it is an ELF file (a vmlinux?); kbench vm boots a bzImage (arch/x86/boot/bzImage) or a /boot/vmlinuz
[exit 2]
T
expect_transcript "--dry-run: a file without the boot header is not a kernel" \
	kb vm --dry-run -k "$tmp/zeros" -c "$tmp/hb.conf" <<'T'
$ kb vm --dry-run -k TMP/zeros -c TMP/hb.conf
2> kbench: cannot use the kernel image 'TMP/zeros': it is not an x86 Linux kernel (no boot header 'HdrS' at offset 0x202); give a bzImage (arch/x86/boot/bzImage) or a /boot/vmlinuz
[exit 2]
T
expect_err "two kernels: the second is checked too" 2 \
	"cannot use the kernel image '$tmp/nope'" \
	kb vm --dry-run -k "$tmp/bzImage" -k "$tmp/nope" -c "$tmp/hb.conf"
expect_err "without --dry-run: the same usage error before QEMU is looked for" 2 \
	"cannot use the kernel image '$tmp/nope'" \
	env KBENCH_QEMU="$tmp/no-such-qemu" "$KBENCH" --db "$db" vm -k "$tmp/nope" -c "$tmp/hb.conf"
is "... and no store is made" "$(test -e "$db" && echo "$db")" ""

# The arms and the guest's options are checked before anything boots.
expect_err "two arms of one name are refused" 2 "two arms are named 'a'" \
	kb vm --dry-run -k "$tmp/bzImage" -k "$tmp/bzImage" -n a -n a -c "$tmp/hb.conf"
expect_err "a boot timeout of 0 is refused" 2 "--boot-timeout must be more than 0 seconds" \
	kb vm --dry-run -k "$tmp/bzImage" --boot-timeout 0 -c "$tmp/hb.conf"
expect_err "--modprobe without --modules is refused" 2 \
	"--modprobe needs --modules DIR, the tree to load them from" \
	kb vm --dry-run -k "$tmp/bzImage" --modprobe dummy -c "$tmp/hb.conf"

check "--dry-run: an image with the boot header passes" \
	kb vm --dry-run -k "$tmp/bzImage" -c "$tmp/hb.conf"
grep -q "^    -kernel $tmp/bzImage \\\\\$" "$tmp/check.out"
ok $? "... and QEMU's command line names it"

printf '[arm:a]\n\n[arm:b]\nkernel = %s\n\n[hackbench]\ngroups = 1\nloops = 10\n' \
	"$tmp/zeros" >"$tmp/arms.conf"
expect_transcript "kbench ab: a kernel arm's image is checked when the config is read" \
	kb ab --dry-run -c "$tmp/arms.conf" <<'T'
$ kb ab --dry-run -c TMP/arms.conf
2> kbench: TMP/arms.conf:4: kernel in [arm:b]: cannot use the kernel image 'TMP/zeros': it is not an x86 Linux kernel (no boot header 'HdrS' at offset 0x202); give a bzImage (arch/x86/boot/bzImage) or a /boot/vmlinuz
[exit 2]
T

done_testing
