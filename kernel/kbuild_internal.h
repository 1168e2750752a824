/* kbuild_internal: what kbuild.c (the build) and kbuild_resolve.c (what
 * to build) share. */
#ifndef KBENCH_KBUILD_INTERNAL_H
#define KBENCH_KBUILD_INTERNAL_H

#include "kernel/kbuild.h"
#include "lib/strbuf.h"

/* What make must not take from kbench's own environment: a make that
 * runs kbench (make check) passes its jobserver and flags down. git and
 * the compiler run with it too. */
extern const char *const kbuild_make_env[6];

/* The paths of the build of res: its entry's key (COMMIT-CONFIG-CC) and
 * its slot (the worktree and object directory of tree, config and
 * compiler), from the tree's git directory. */
struct kbuild_paths {
	struct strbuf cache, key, slot, tmp_base;
};
#define KBUILD_PATHS_INIT { STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT }

void kbuild_paths_release(struct kbuild_paths *p);

/* Whether kconfig names a file rather than a make target. */
int kbuild_kconfig_is_file(const char *kconfig);

/* Resolve rq into res and paths, as kbuild_resolve() does; res is left
 * for the caller to release when it fails. Return 0, or -1 with err
 * saying why. */
int kbuild_resolve_paths(const struct kbuild_request *rq, struct kbuild_result *res,
			 struct kbuild_paths *paths, struct strbuf *err);

#endif
