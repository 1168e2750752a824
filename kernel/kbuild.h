/* kbuild: a kernel built from a commit of a git tree, kept in a cache
 * keyed by (commit id, config hash, compiler version). The commit is
 * checked out in a git worktree of the cache's own (git worktree add
 * --detach: the user's work tree and index are never touched), configured
 * (a make target such as tinyconfig, or a config file; fragments merged
 * with the kernel's scripts/kconfig/merge_config.sh, then olddefconfig)
 * and built out of tree (make O=). One exported source tree and one
 * object directory serve every commit of a (tree, config, compiler), so
 * that building a neighbouring commit rebuilds what changed only.
 *
 * Layout of the cache directory:
 *
 *	entries/COMMIT-CONFIG-CC/	a built kernel: bzImage, config,
 *					build.log, facts, modules/ (when
 *					CONFIG_MODULES=y); renamed into place
 *					complete, so that it exists or not
 *	work/SLOT/src, obj, lock	the worktree and object directory of
 *					a (tree, config, compiler)
 *	failed/COMMIT-CONFIG-CC.log	the log of a build that failed
 *	tmp/				entries being written
 */
#ifndef KBENCH_KBUILD_H
#define KBENCH_KBUILD_H

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

struct store;
struct strbuf;

/* The default bound on one build, configuration included, in s: a
 * defconfig kernel on two CPUs takes well under it. */
#define KBUILD_DEFAULT_TIMEOUT_S 7200.0
/* The most a build may be given: 7 days. */
#define KBUILD_MAX_TIMEOUT_S 604800.0
/* The default base config. */
#define KBUILD_DEFAULT_KCONFIG "tinyconfig"

struct kbuild_request {
	const char *tree;		/* a git tree (work tree, or bare repository) */
	const char *ref;		/* what git rev-parse takes: a commit id, tag... */
	/* A config file (a path with a '/', or an existing file), or a make
	 * target that writes .config (tinyconfig, defconfig...); NULL:
	 * KBUILD_DEFAULT_KCONFIG. */
	const char *kconfig;
	const char *const *fragments;	/* merged onto it, in order */
	size_t nfragments;
	const char *cache_dir;		/* NULL: kbuild_cache_dir() */
	int jobs;			/* make -jN; 0: the online CPUs */
	double timeout_s;		/* the whole build; 0: KBUILD_DEFAULT_TIMEOUT_S */
	/* A progress line on stderr while building: updated on a terminal,
	 * one line a step otherwise. */
	int progress;
	/* Set (by a signal handler): the build is killed and nothing stored. */
	volatile sig_atomic_t *stop;
};

/* A kernel of the cache (or one that would be). Strings are malloc'd. */
struct kbuild_result {
	char *commit;		/* the full commit id */
	char *describe;		/* git describe --tags --always */
	char *subject;		/* the commit's subject line */
	char *author;		/* "Name <mail>" */
	char *tree;		/* the tree's absolute path */
	char *config_hash;	/* 16 hex digits over the base config and fragments */
	char *config_desc;	/* "tinyconfig + kbench-guest.config" */
	char *compiler;		/* the first line of gcc --version */
	char *entry;		/* the cache entry's directory */
	char *image;		/* ENTRY/bzImage */
	char *config;		/* ENTRY/config: the .config it was built with */
	char *modules_dir;	/* ENTRY/modules (INSTALL_MOD_PATH), or NULL */
	char *log;		/* the build's log: ENTRY/build.log, or the failed one */
	int cache_hit;		/* the entry was there: nothing was built */
	double build_s;		/* how long the build took (0 on a hit) */
};

void kbuild_result_release(struct kbuild_result *r);

/* The default cache: $KBENCH_KERNEL_CACHE, else
 * $XDG_CACHE_HOME/kbench/kernels, else ~/.cache/kbench/kernels, into dir
 * (reset first). */
void kbuild_cache_dir(struct strbuf *dir);

/* What building rq would give, without building: the commit and its
 * facts, the config hash, the compiler and the entry's paths; cache_hit
 * says whether the entry is there. Return 0, or -1 with err saying why
 * (not a git tree, no such ref, a fragment that cannot be read, no
 * compiler). */
int kbuild_resolve(const struct kbuild_request *rq, struct kbuild_result *res,
		   struct strbuf *err);

/* The kernel of rq, from the cache or built into it. Return 0 with res
 * filled (res->cache_hit: nothing was built); -1 with err saying why
 * (a failed build: which step, how make ended and the last lines of its
 * log, whose path is in res->log; nothing is stored in the cache's
 * entries); or 128+N when *rq->stop was set by signal N (the build was
 * killed, nothing stored). */
int kbuild_build(const struct kbuild_request *rq, struct kbuild_result *res,
		 struct strbuf *err);

/* The facts a run made on res's kernel stores (run_meta, section ''):
 * kernel-commit, kernel-describe, kernel-subject, kernel-config-hash,
 * kernel-compiler, kernel-tree; pairs of key and value into kv[0..11],
 * pointing into res. */
#define KBUILD_NFACTS 6
void kbuild_facts(const struct kbuild_result *res, const char *kv[2 * KBUILD_NFACTS]);

/* Store res's facts (kbuild_facts) with run run_id of s (nothing when
 * run_id is 0). Return 0, or -1 after the store said why. */
int kbuild_store_facts(struct store *s, int64_t run_id, const struct kbuild_result *res);

#endif
