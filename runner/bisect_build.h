/* bisect_build: the kernel of a commit, as kbench bisect needs it: the
 * commit exported with git archive (the tree's work tree and index are
 * never touched), configured (a config file, a make target such as
 * defconfig, fragments merged with the kernel's own merge_config.sh) and
 * built out of tree with make O=, its bzImage kept in a cache keyed by
 * (commit, config hash, compiler), so that a kernel is built once. This
 * is the part of the kernel builder (kbench build) that a bisection
 * uses. */
#ifndef KBENCH_BISECT_BUILD_H
#define KBENCH_BISECT_BUILD_H

#include <stddef.h>

struct strbuf;

struct bisect_build_request {
	const char *tree;		/* the git tree */
	const char *ref;		/* a commit id */
	const char *kconfig;		/* a config file, or a make target (defconfig,
					 * tinyconfig); NULL: defconfig */
	const char *const *fragments;	/* merged onto it, in order */
	size_t nfragments;
	const char *cache_dir;		/* NULL: bisect_build_cache_dir() */
};

/* A built kernel; the strings are malloc'd. */
struct bisect_kernel {
	char *commit;		/* full id */
	char *describe;		/* git describe --always */
	char *subject;
	char *author;		/* "Name <mail>" */
	char *config_hash;	/* of the config asked for: 16 hex digits */
	char *compiler;		/* the first line of $CC --version (default cc) */
	char *image;		/* the bzImage in the cache */
	char *log;		/* make's output, in the cache */
	int cache_hit;		/* nothing was built */
	double build_s;		/* how long the build took (0 on a hit) */
};

void bisect_kernel_release(struct bisect_kernel *k);

/* The cache: $KBENCH_KERNEL_CACHE, else $XDG_CACHE_HOME/kbench/kernels,
 * else ~/.cache/kbench/kernels. Into dir. */
void bisect_build_cache_dir(struct strbuf *dir);

/* The kernel of r->ref, from the cache or built into it (a notice
 * says which, and where the log is). Return 0 with *k filled, or -1 with
 * err saying why (a failed build: the last lines of its log, and the
 * log's path; the cache keeps no image of it). */
int bisect_build(const struct bisect_build_request *r, struct bisect_kernel *k,
		 struct strbuf *err);

#endif
