/* vm_image: the kernel check, the initramfs and QEMU's command line of a
 * guest (vm_image.c), shared by vm.c, which boots it and runs samples
 * there. Nothing outside kernel/vm*.c includes it. */
#ifndef KBENCH_VM_IMAGE_H
#define KBENCH_VM_IMAGE_H

#include <stddef.h>

struct kmod_set;
struct vm_config;

/* A command line being built: v[0..n-1], NULL-terminated. */
struct words {
	char **v;
	size_t n, alloc;
};
void vm_words_release(struct words *w);

/* The QEMU program: cfg's, else $KBENCH_QEMU, else qemu-system-x86_64. */
const char *vm_qemu_program(const struct vm_config *cfg);

/* Whether the guest's clock counts instructions: -icount under TCG. */
int vm_icount(const struct vm_config *cfg, const char *accel);

/* QEMU's command line for cfg under accel ("kvm" or "tcg"), booting
 * initramfs, its console into the file console, into w. */
void vm_command_words(const struct vm_config *cfg, const char *accel,
		      const char *initramfs, const char *console, struct words *w);

/* Write the guest's initramfs to path: cfg's own initramfs first, if
 * any, then the modules of mods, then kbench's, whose /init is
 * kbench-sample. Return 0, or -1 after an error message. */
int vm_write_initramfs(const struct vm_config *cfg, const struct kmod_set *mods,
		       const char *path);

#endif
