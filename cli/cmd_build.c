/* cmd_build: kbench build [--tree DIR] [--ref REF] [--kconfig FILE|TARGET]
 * [--fragment FILE...]: a commit of a kernel git tree built out of tree
 * into the kernel cache (kernel/kbuild.h), or found there; and the build
 * options kbench vm --ref shares. */
#include "config.h"
#include "cli/cmd.h"
#include "kernel/kbuild.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct parse_opt_usage build_usage = {
	.synopsis = "kbench build [--tree DIR] [--ref REF] [--kconfig FILE|TARGET]\n"
		    "                    [--fragment FILE...] [--no-guest-fragment] [--cache DIR]\n"
		    "                    [-j N] [--timeout SECONDS] [--dry-run]",
	.description = "Build a commit of a kernel git tree for kbench vm, out of tree, into a\n"
		       "cache keyed by (commit, config, compiler); a kernel built already is\n"
		       "taken from the cache.",
	.help_column = 26,
	.epilogue =
		"The commit is checked out in a git worktree inside the cache: the tree's own\n"
		"work tree and index are not touched. The config is the --kconfig base\n"
		"(default tinyconfig) with the shipped guest fragment (kbench-guest: what\n"
		"kbench vm and the workloads need) and each --fragment merged onto it by the\n"
		"kernel's scripts/kconfig/merge_config.sh, then make olddefconfig; an option\n"
		"a fragment sets that olddefconfig drops is an error. One worktree and object\n"
		"directory serve every commit of a tree, config and compiler, so a commit\n"
		"near the last one built rebuilds what changed only. make's output goes to\n"
		"the entry's build.log; a failed build prints the log's last lines and\n"
		"stores nothing. Prints the kernel image's path and the commit's facts, the\n"
		"ones runs on it store (kernel-commit, kernel-describe...). The cache is\n"
		"--cache, else $KBENCH_KERNEL_CACHE, else $XDG_CACHE_HOME/kbench/kernels\n"
		"(~/.cache/kbench/kernels). Exit status: 0 built or found, 1 the build\n"
		"failed, 2 bad arguments, 128+N interrupted by signal N. See docs/vm.md.",
};

static volatile sig_atomic_t build_stop;

static void on_signal(int sig)
{
	build_stop = sig;
}

/* The shipped fragment name (NAME or NAME.config in the shipped
 * configs' kernel/) into path: 0 when it is there to read, else -1. */
static int shipped_fragment(const char *name, struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT;

	strbuf_reset(path);
	cmd_shipped_configs_dir(&dir);
	strbuf_addf(path, "%s/kernel/%s", dir.buf, name);
	strbuf_release(&dir);
	if (!access(path->buf, R_OK))
		return 0;
	strbuf_addstr(path, ".config");
	return access(path->buf, R_OK) ? -1 : 0;
}

/* A --fragment: a file, or the name of a shipped fragment (kbench-guest,
 * kbench-guest.config), into path. Return 0, or -1 after saying there is
 * no such file. */
static int find_fragment(const char *name, struct strbuf *path)
{
	strbuf_reset(path);
	if (!access(name, F_OK) || strchr(name, '/')) {
		strbuf_addstr(path, name);
		if (!access(name, R_OK))
			return 0;
		return error("cannot read the config fragment '%s': %s", name, strerror(errno));
	}
	if (!shipped_fragment(name, path))
		return 0;
	return error("no config fragment '%s': not a file, nor a shipped fragment (%s)", name,
		     CMD_GUEST_FRAGMENT);
}

int cmd_build_guest_found(void)
{
	struct strbuf path = STRBUF_INIT;
	int found = !shipped_fragment(CMD_GUEST_FRAGMENT, &path);

	strbuf_release(&path);
	return found;
}

int cmd_build_request(const struct cmd_build_opts *o, struct kbuild_request *rq,
		      char ***fragments)
{
	struct strbuf path = STRBUF_INIT;
	size_t n = 0;
	int rc = -1;

	*fragments = xcalloc(o->fragments.n + 2, sizeof(**fragments));
	if (!o->no_guest_fragment) {
		if (find_fragment(CMD_GUEST_FRAGMENT, &path))
			goto out;
		(*fragments)[n++] = strbuf_detach(&path);
	}
	for (size_t i = 0; i < o->fragments.n; i++) {
		if (find_fragment(o->fragments.v[i], &path))
			goto out;
		(*fragments)[n++] = strbuf_detach(&path);
	}
	if (!(o->timeout_s >= 0 && o->timeout_s <= KBUILD_MAX_TIMEOUT_S)) {
		error("--%s takes seconds from 0 (the default, %.0f s) to %.0f (7 days), not %g",
		      o->timeout_name ? o->timeout_name : "timeout", KBUILD_DEFAULT_TIMEOUT_S,
		      KBUILD_MAX_TIMEOUT_S, o->timeout_s);
		goto out;
	}
	memset(rq, 0, sizeof(*rq));
	rq->tree = o->tree ? o->tree : ".";
	rq->kconfig = o->kconfig;
	rq->fragments = (const char *const *)*fragments;
	rq->nfragments = n;
	rq->cache_dir = o->cache;
	rq->jobs = o->jobs;
	rq->timeout_s = o->timeout_s;
	rq->progress = 1;
	rc = 0;
out:
	strbuf_release(&path);
	return rc;
}

void cmd_build_fragments_free(char **fragments)
{
	for (size_t i = 0; fragments && fragments[i]; i++)
		free(fragments[i]);
	free(fragments);
}

static void print_result(const struct kbuild_result *r, const char *cache)
{
	printf("image       %s\n", r->image);
	printf("commit      %s\n", r->commit);
	printf("describe    %s\n", r->describe);
	printf("subject     %s\n", r->subject);
	printf("author      %s\n", r->author);
	printf("tree        %s\n", r->tree);
	printf("config      %s (%s)\n", r->config_hash, r->config_desc);
	printf("compiler    %s\n", r->compiler);
	printf("modules     %s\n", r->modules_dir ? r->modules_dir : "-");
	printf("log         %s\n", r->log);
	if (cache)
		printf("cache       %s\n", cache);
}

int cmd_build(int argc, char **argv)
{
	struct cmd_build_opts o = CMD_BUILD_OPTS_INIT;
	const char *ref = "HEAD";
	int dry = 0;
	const struct parse_opt options[] = {
		OPT_STRING(0, "tree", &o.tree, "DIR",
			   "the kernel's git tree (default: the current\n"
			   "directory)"),
		OPT_STRING(0, "ref", &ref, "REF",
			   "the commit to build: an id, tag, branch, HEAD~3...\n"
			   "(default HEAD)"),
		CMD_BUILD_OPTIONS(&o, "timeout"),
		OPT_BOOL(0, "dry-run", &dry,
			 "say what would be built, and whether the cache has\n"
			 "it, without building"),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct sigaction sa = { .sa_handler = on_signal }, old_int, old_term, old_hup;
	struct kbuild_request rq;
	struct kbuild_result res;
	struct strbuf err = STRBUF_INIT, line = STRBUF_INIT;
	char **fragments = NULL;
	int rc = EXIT_USAGE;

	memset(&res, 0, sizeof(res));
	if (cmd_parse_options(&argc, argv, options, &build_usage, &rc))
		return rc;
	if (argc > 0) {
		error("unexpected argument '%s' (the commit is given with --ref)", argv[0]);
		goto out;
	}
	if (!*ref) {
		error("--ref is empty: give the commit to build (an id, tag, branch...)");
		goto out;
	}
	if (cmd_build_request(&o, &rq, &fragments))
		goto out;
	rq.ref = ref;
	if (dry) {
		rc = 1;
		if (kbuild_resolve(&rq, &res, &err)) {
			error("%s", err.buf);
			goto out;
		}
		print_result(&res, res.cache_hit ? "hit: built already, nothing to build" :
			     "miss: would be built");
		rc = 0;
		goto out;
	}
	build_stop = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	sigaction(SIGHUP, &sa, &old_hup);
	rq.stop = &build_stop;
	rc = kbuild_build(&rq, &res, &err);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	sigaction(SIGHUP, &old_hup, NULL);
	if (rc) {
		error("%s", err.buf);
		rc = rc >= 128 ? rc : 1;
		goto out;
	}
	if (res.cache_hit) {
		notice("cache hit: %s is built already, nothing to build", res.describe);
		print_result(&res, "hit: built already, nothing built");
	} else {
		strbuf_addf(&line, "built in %dm%02ds", (int)res.build_s / 60,
			    (int)res.build_s % 60);
		notice("%s (%.12s) %s", res.describe, res.commit, line.buf);
		print_result(&res, line.buf);
	}
out:
	kbuild_result_release(&res);
	cmd_build_fragments_free(fragments);
	opt_list_release(&o.fragments);
	strbuf_release(&err);
	strbuf_release(&line);
	return rc;
}
