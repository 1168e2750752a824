/* kmod: kernel modules in a modules tree (what `make modules_install`
 * writes under INSTALL_MOD_PATH, or what a kernel package holds): find
 * the modules asked for by name and everything they depend on, in the
 * order they load. A guest kernel booted by kbench vm loads them from its
 * initramfs; kbench never loads a module on the host.
 *
 *	struct kmod_set set = KMOD_SET_INIT;
 *
 *	if (kmod_resolve(dir, "dummy,loop", &set, &err))
 *		... err says why ...
 *	for (size_t i = 0; i < set.n; i++)
 *		set.mods[i].name, set.mods[i].path	(dependencies first)
 *	kmod_set_release(&set);
 */
#ifndef KBENCH_KMOD_H
#define KBENCH_KMOD_H

#include <stddef.h>

struct strbuf;

struct kmod {
	char *name;	/* "dummy": the file's name without .ko[.xz|.zst|.gz], '-' as '_' */
	char *path;	/* the file on this machine */
	int compressed;	/* .ko.xz, .ko.zst or .ko.gz: the kernel decompresses it */
};

struct kmod_set {
	char *release_dir;	/* DIR/lib/modules/RELEASE, or DIR itself */
	char *release;		/* its last component: the kernel release the modules are for */
	struct kmod *mods;	/* in load order: each after what it depends on */
	size_t n;
	char **builtin;		/* names asked for that the kernel has built in */
	size_t nbuiltin;
};
#define KMOD_SET_INIT { 0 }

/* Resolve names (comma- or space-separated module names, '-' and '_'
 * alike) in the modules tree dir: a release directory (with kernel/ or
 * modules.order in it), or a directory holding lib/modules/RELEASE or
 * RELEASE for one release. Dependencies come from modules.dep when the
 * tree has one, else from each module's own .modinfo "depends=". Return
 * 0 with set filled, or -1 with why in err (nothing to free). */
int kmod_resolve(const char *dir, const char *names, struct kmod_set *set, struct strbuf *err);
void kmod_set_release(struct kmod_set *set);

#endif
