/* kbuild_resolve: what a build of a kernel tree's commit is: the tree
 * and commit a ref names, the config's hash, the compiler, and so the
 * entry of the kernel cache that holds it (see kbuild.h). */
#include "config.h"
#include "kernel/kbuild.h"
#include "kernel/kbuild_internal.h"
#include "kernel/git.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

/* How long one git command that reads the tree may take, in s. */
#define GIT_TIMEOUT_S 120.0

void kbuild_result_release(struct kbuild_result *r)
{
	if (!r)
		return;
	free(r->commit);
	free(r->describe);
	free(r->subject);
	free(r->author);
	free(r->tree);
	free(r->config_hash);
	free(r->config_desc);
	free(r->compiler);
	free(r->entry);
	free(r->image);
	free(r->config);
	free(r->modules_dir);
	free(r->log);
	memset(r, 0, sizeof(*r));
}

void kbuild_cache_dir(struct strbuf *dir)
{
	const char *v = getenv("KBENCH_KERNEL_CACHE");

	strbuf_reset(dir);
	if (v && *v) {
		strbuf_addstr(dir, v);
		return;
	}
	v = getenv("XDG_CACHE_HOME");
	if (v && *v)
		strbuf_addf(dir, "%s/kbench/kernels", v);
	else
		strbuf_addf(dir, "%s/.cache/kbench/kernels", getenv("HOME") ? getenv("HOME") : "");
}

/* ---- programs ---- */

const char *const kbuild_make_env[6] = {
	"MAKEFLAGS=", "MFLAGS=", "MAKELEVEL=", "GNUMAKEFLAGS=", "LC_ALL=C", NULL
};

/* The first line of text, at most 200 bytes, into out. */
static void first_line(const char *text, struct strbuf *out)
{
	size_t n = strcspn(text, "\n");

	strbuf_add(out, text, n < 200 ? n : 200);
}

/* Say in err "WHAT: " and how a program that did not succeed ended: end
 * an enum child_end (or -1: it did not run, why says why), then status
 * or the first line of its stderr. */
static void say_failed(const char *what, int end, int status, const struct strbuf *stderr_text,
		       const char *why, double timeout_s, struct strbuf *err)
{
	if (end < 0) {
		strbuf_addf(err, "%s: %s", what, why);
	} else if (end == CHILD_TIMEOUT) {
		strbuf_addf(err, "%s: killed after %.0f s", what, timeout_s);
	} else if (end != CHILD_EXITED) {
		strbuf_addf(err, "%s: its output passed 16 MiB", what);
	} else {
		strbuf_addf(err, "%s: ", what);
		if (stderr_text->len)
			first_line(stderr_text->buf, err);
		else
			child_describe_status(status, err);
	}
}

/* Run argv, its stdout into out and its stderr kept for the error.
 * Return 0 when it exited with status 0; else -1 with err saying "WHAT: "
 * and how it ended or its first line of stderr. */
static int run_capture(const char *const *argv, struct strbuf *out, const char *what,
		       struct strbuf *err)
{
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf o = STRBUF_INIT, e = STRBUF_INIT, why = STRBUF_INIT;
	struct child_io io = { .out = &o, .err = &e, .timeout_s = GIT_TIMEOUT_S,
			       .out_max = 16 << 20 };
	int end, rc = -1;

	p.argv = argv;
	p.env = kbuild_make_env;
	p.new_group = 1;
	p.in = CHILD_FD_NULL;
	end = child_program_run(&p, &io, &why);
	if (end != CHILD_EXITED || !WIFEXITED(p.w.status) || WEXITSTATUS(p.w.status)) {
		say_failed(what, end, p.w.status, &e, why.buf, GIT_TIMEOUT_S, err);
	} else {
		strbuf_add(out, o.buf, o.len);
		rc = 0;
	}
	strbuf_release(&o);
	strbuf_release(&e);
	strbuf_release(&why);
	return rc;
}

/* git [-C tree] ARGS..., input (NULL: none) on its stdin, its stdout into
 * out (NULL: dropped): as run_capture(). */
static int run_git(const char *tree, const char *const *args, const char *input,
		   struct strbuf *out, const char *what, struct strbuf *err)
{
	struct git_cmd g = GIT_CMD_INIT;
	struct strbuf o = STRBUF_INIT, why = STRBUF_INIT;
	int rc;

	g.tree = tree;
	g.env = kbuild_make_env;
	g.input = input;
	g.out = &o;
	g.out_max = 16 << 20;
	g.timeout_s = GIT_TIMEOUT_S;
	rc = git_run(&g, args, &why);
	if (rc)
		say_failed(what, g.end, g.status, &g.msg, why.buf, GIT_TIMEOUT_S, err);
	else if (out)
		strbuf_add(out, o.buf, o.len);
	git_cmd_release(&g);
	strbuf_release(&o);
	strbuf_release(&why);
	return rc;
}

/* git -C tree ARGS..., its output's first line into out. */
static int git_line(const char *tree, const char *const *args, struct strbuf *out,
		    const char *what, struct strbuf *err)
{
	struct strbuf o = STRBUF_INIT;
	int rc = run_git(tree, args, NULL, &o, what, err);

	if (!rc)
		strbuf_add(out, o.buf, strcspn(o.buf, "\n"));
	strbuf_release(&o);
	return rc;
}

/* The first n hex digits of git's SHA-1 of text (as a blob), into out. */
static int hash_text(const char *text, size_t n, struct strbuf *out, struct strbuf *err)
{
	const char *args[] = { "hash-object", "--stdin", NULL };
	struct strbuf o = STRBUF_INIT;
	int rc = run_git(NULL, args, text, &o, "git hash-object", err);

	if (!rc && o.len < n) {
		strbuf_addf(err, "git hash-object printed '%s'", o.buf);
		rc = -1;
	}
	if (!rc)
		strbuf_add(out, o.buf, n);
	strbuf_release(&o);
	return rc;
}

/* ---- resolving ---- */

int kbuild_kconfig_is_file(const char *kconfig)
{
	struct stat st;

	return strchr(kconfig, '/') || !stat(kconfig, &st);
}

static int valid_target(const char *t)
{
	if (!*t || *t == '-')
		return 0;
	for (; *t; t++)
		if (!isalnum((unsigned char)*t) && !strchr("_.-", *t))
			return 0;
	return 1;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The config's hash over what makes it (the base: a target's name or
 * a file's bytes; each fragment's bytes, in order) and its description. */
static int config_hash(const struct kbuild_request *rq, struct kbuild_result *res,
		       struct strbuf *err)
{
	const char *kconfig = rq->kconfig ? rq->kconfig : KBUILD_DEFAULT_KCONFIG;
	struct strbuf text = STRBUF_INIT, file = STRBUF_INIT, hash = STRBUF_INIT;
	struct strbuf desc = STRBUF_INIT;
	int rc = -1;

	strbuf_addstr(&text, "kbench kernel config 1\n");
	if (kbuild_kconfig_is_file(kconfig)) {
		if (strbuf_read_file(&file, kconfig) < 0) {
			strbuf_addf(err, "cannot read the config '%s': %s", kconfig,
				    strerror(errno));
			goto out;
		}
		strbuf_addf(&text, "file %zu\n", file.len);
		strbuf_add(&text, file.buf, file.len);
		strbuf_addstr(&desc, base_name(kconfig));
	} else if (!valid_target(kconfig)) {
		strbuf_addf(err, "the config '%s' is neither a file nor a make target "
			    "(tinyconfig, defconfig...)", kconfig);
		goto out;
	} else {
		strbuf_addf(&text, "target %s\n", kconfig);
		strbuf_addstr(&desc, kconfig);
	}
	for (size_t i = 0; i < rq->nfragments; i++) {
		strbuf_reset(&file);
		if (strbuf_read_file(&file, rq->fragments[i]) < 0) {
			strbuf_addf(err, "cannot read the config fragment '%s': %s",
				    rq->fragments[i], strerror(errno));
			goto out;
		}
		strbuf_addf(&text, "\nfragment %zu\n", file.len);
		strbuf_add(&text, file.buf, file.len);
		strbuf_addf(&desc, " + %s", base_name(rq->fragments[i]));
	}
	if (hash_text(text.buf, 16, &hash, err))
		goto out;
	res->config_hash = strbuf_detach(&hash);
	res->config_desc = strbuf_detach(&desc);
	rc = 0;
out:
	strbuf_release(&text);
	strbuf_release(&file);
	strbuf_release(&hash);
	strbuf_release(&desc);
	return rc;
}

void kbuild_paths_release(struct kbuild_paths *p)
{
	strbuf_release(&p->cache);
	strbuf_release(&p->key);
	strbuf_release(&p->slot);
	strbuf_release(&p->tmp_base);
}

/* Check that rq->tree is the top of a git work tree (or a bare
 * repository), its real path into real and res->tree, its git directory
 * into gitdir. */
static int check_tree(const struct kbuild_request *rq, char real[PATH_MAX],
		      struct kbuild_result *res, struct strbuf *gitdir, struct strbuf *err)
{
	const char *args[] = { "rev-parse", "--path-format=absolute", "--git-common-dir", NULL };
	const char *top[] = { "rev-parse", "--is-bare-repository", "--show-cdup", NULL };
	/* DIR/.git of a work tree is its repository, not the tree. */
	const char *inside[] = { "rev-parse", "--is-inside-git-dir", "--is-bare-repository", NULL };
	struct strbuf sb = STRBUF_INIT, what = STRBUF_INIT;
	const char *cdup;
	struct stat st;
	int rc = -1;

	if (!realpath(rq->tree, real) || stat(real, &st)) {
		strbuf_addf(err, "cannot use the kernel tree '%s': %s", rq->tree, strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		strbuf_addf(err, "cannot use the kernel tree '%s': not a directory", rq->tree);
		goto out;
	}
	res->tree = xstrdup(real);
	strbuf_addf(&what, "'%s' is not a git tree", rq->tree);
	if (git_line(real, args, gitdir, what.buf, err) ||
	    run_git(real, top, NULL, &sb, what.buf, err))
		goto out;
	/* A directory inside a work tree is not the tree a user names: its
	 * top is ("../" to go up to it). */
	cdup = sb.buf + strcspn(sb.buf, "\n");
	if (strncmp(sb.buf, "true", 4) && *cdup && cdup[1] && cdup[1] != '\n') {
		strbuf_addf(err, "'%s' is not the top of a git tree (it is a directory "
			    "inside one)", rq->tree);
		goto out;
	}
	strbuf_reset(&sb);
	if (run_git(real, inside, NULL, &sb, what.buf, err))
		goto out;
	if (!strcmp(sb.buf, "true\nfalse\n")) {
		const char *slash = strrchr(real, '/');

		strbuf_addf(err, "'%s' is the git directory of a work tree, not a tree: "
			    "give the work tree (--tree %.*s)", rq->tree,
			    slash && slash != real ? (int)(slash - real) : 1, real);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&sb);
	strbuf_release(&what);
	return rc;
}

/* Warn when the tree real has HEAD at res->commit and changes that are
 * not committed: the commit is built, not the work tree. Read without
 * writing the tree's index (no optional locks). */
static void warn_uncommitted(const char *tree, const char *real, const struct kbuild_result *res)
{
	const char *head[] = { "rev-parse", "--verify", "--quiet", "HEAD", NULL };
	const char *st[] = { "--no-optional-locks", "status", "--porcelain=v1",
			     "--untracked-files=no", NULL };
	struct strbuf sb = STRBUF_INIT, e = STRBUF_INIT;

	if (!git_line(real, head, &sb, "git rev-parse HEAD", &e) &&
	    !strcmp(sb.buf, res->commit)) {
		strbuf_reset(&sb);
		if (!run_git(real, st, NULL, &sb, "git status", &e) && sb.len) {
			size_t n = 0;

			for (const char *p = sb.buf; (p = strchr(p, '\n')); p++)
				n++;
			warning("the tree '%s' has uncommitted changes (%zu file%s): "
				"they are not built; %s (%.12s) is built as committed",
				tree, n, n == 1 ? "" : "s", res->describe, res->commit);
		}
	}
	strbuf_release(&sb);
	strbuf_release(&e);
}

/* The commit rq->ref names in the tree real, its description, subject
 * and author, into res. */
static int resolve_commit(const struct kbuild_request *rq, const char *real,
			  struct kbuild_result *res, struct strbuf *err)
{
	const char *ref = rq->ref;
	struct strbuf sb = STRBUF_INIT, what = STRBUF_INIT, id = STRBUF_INIT, e = STRBUF_INIT;
	const char *args[] = { "rev-parse", "--verify", "--quiet", "--end-of-options", NULL,
			       NULL };
	const char *describe[] = { "describe", "--tags", "--always", NULL, NULL };
	const char *log[] = { "log", "-1", "--format=%s%n%an <%ae>", NULL, NULL };
	const char *nl;
	int rc = -1;

	strbuf_addf(&what, "no commit '%s' in the tree '%s'", ref, rq->tree);
	strbuf_addf(&sb, "%s^{commit}", ref);
	args[4] = sb.buf;
	if (*ref == '-' || git_line(real, args, &id, what.buf, &e)) {
		/* rev-parse --quiet says nothing: the message is ours. */
		strbuf_addstr(err, what.buf);
		goto out;
	}
	res->commit = strbuf_detach(&id);
	describe[3] = res->commit;
	strbuf_reset(&sb);
	if (git_line(real, describe, &sb, "git describe", err))
		goto out;
	res->describe = strbuf_detach(&sb);
	warn_uncommitted(rq->tree, real, res);
	log[3] = res->commit;
	if (run_git(real, log, NULL, &sb, "git log", err))
		goto out;
	nl = strchr(sb.buf, '\n');
	res->subject = xstrndup(sb.buf, nl ? (size_t)(nl - sb.buf) : sb.len);
	res->author = xstrndup(nl ? nl + 1 : "", nl ? strcspn(nl + 1, "\n") : 0);
	rc = 0;
out:
	strbuf_release(&sb);
	strbuf_release(&what);
	strbuf_release(&id);
	strbuf_release(&e);
	return rc;
}

int kbuild_resolve_paths(const struct kbuild_request *rq, struct kbuild_result *res,
			 struct kbuild_paths *paths, struct strbuf *err)
{
	struct strbuf gitdir = STRBUF_INIT, sb = STRBUF_INIT;
	struct strbuf cc = STRBUF_INIT, hash = STRBUF_INIT;
	char real[PATH_MAX];
	const char *cc_argv[] = { "gcc", "--version", NULL };
	int rc = -1;

	memset(res, 0, sizeof(*res));
	if (!rq->tree || !*rq->tree) {
		strbuf_addstr(err, "no kernel tree given");
		goto out;
	}
	if (!rq->ref || !*rq->ref) {
		strbuf_addstr(err, "no ref given: which commit of the tree to build");
		goto out;
	}
	if (check_tree(rq, real, res, &gitdir, err) || resolve_commit(rq, real, res, err) ||
	    config_hash(rq, res, err))
		goto out;
	if (run_capture(cc_argv, &cc, "cannot run gcc, the kernel's compiler", err))
		goto out;
	first_line(cc.buf, &sb);
	res->compiler = strbuf_detach(&sb);

	if (rq->cache_dir && *rq->cache_dir)
		strbuf_addstr(&paths->cache, rq->cache_dir);
	else
		kbuild_cache_dir(&paths->cache);
	if (hash_text(res->compiler, 8, &hash, err))
		goto out;
	strbuf_addf(&paths->key, "%s-%s-%s", res->commit, res->config_hash, hash.buf);
	strbuf_addf(&sb, "%s\n%s\n%s\n", gitdir.buf, res->config_hash, res->compiler);
	if (hash_text(sb.buf, 16, &paths->slot, err))
		goto out;
	strbuf_reset(&sb);
	strbuf_addf(&sb, "%s/entries/%s", paths->cache.buf, paths->key.buf);
	res->entry = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s/bzImage", res->entry);
	res->image = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s/config", res->entry);
	res->config = strbuf_detach(&sb);
	strbuf_addf(&sb, "%s/build.log", res->entry);
	res->log = strbuf_detach(&sb);
	/* An entry is renamed into place complete: there is one or none. */
	res->cache_hit = !access(res->image, R_OK);
	strbuf_addf(&sb, "%s/modules", res->entry);
	if (res->cache_hit && path_is_dir(sb.buf))
		res->modules_dir = strbuf_detach(&sb);
	rc = 0;
out:
	strbuf_release(&gitdir);
	strbuf_release(&sb);
	strbuf_release(&cc);
	strbuf_release(&hash);
	return rc;
}

int kbuild_resolve(const struct kbuild_request *rq, struct kbuild_result *res,
		   struct strbuf *err)
{
	struct kbuild_paths paths = KBUILD_PATHS_INIT;
	int rc = kbuild_resolve_paths(rq, res, &paths, err);

	if (rc)
		kbuild_result_release(res);
	kbuild_paths_release(&paths);
	return rc;
}

