/* bisect_build: a commit exported, configured and built out of tree into
 * the kernel cache, once. Every program runs through lib/child.h; make's
 * output goes to a log file in the cache, never to the terminal. */
#include "config.h"
#include "runner/bisect_build.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long git and the configuration steps may take; a kernel build has
 * no limit (a full build on a small machine takes an hour). */
#define SHORT_TIMEOUT_S 600
/* The lines of a failed build's log an error shows. */
#define LOG_TAIL_LINES 8

void bisect_kernel_release(struct bisect_kernel *k)
{
	free(k->commit);
	free(k->describe);
	free(k->subject);
	free(k->author);
	free(k->config_hash);
	free(k->compiler);
	free(k->image);
	free(k->log);
	memset(k, 0, sizeof(*k));
}

void bisect_build_cache_dir(struct strbuf *dir)
{
	const char *env = getenv("KBENCH_KERNEL_CACHE"), *xdg = getenv("XDG_CACHE_HOME");
	const char *home = getenv("HOME");

	if (env && *env)
		strbuf_addstr(dir, env);
	else if (xdg && *xdg)
		strbuf_addf(dir, "%s/kbench/kernels", xdg);
	else
		strbuf_addf(dir, "%s/.cache/kbench/kernels", home && *home ? home : ".");
}

/* mkdir -p dir. Return 0, or -1 with err saying why. */
static int make_dirs(const char *dir, struct strbuf *err)
{
	char *copy = xstrdup(dir);
	int rc = 0;

	for (char *p = copy + 1; !rc; p++) {
		if (*p && *p != '/')
			continue;
		char saved = *p;

		*p = '\0';
		if (mkdir(copy, 0755) && errno != EEXIST) {
			strbuf_addf(err, "cannot create '%s': %s", copy, strerror(errno));
			rc = -1;
		}
		*p = saved;
		if (!saved)
			break;
	}
	free(copy);
	return rc;
}

/* Run argv (in dir, NULL: here); its stdout into out (NULL: to fd_out),
 * its stderr with it when fd_out >= 0. Return 0 when it exits 0, else -1
 * with err saying how it ended (and what it said on stderr). */
static int run(const char *const *argv, const char *dir, int fd_out, struct strbuf *out,
	       double timeout_s, struct strbuf *err)
{
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf msg = STRBUF_INIT, how = STRBUF_INIT;
	struct child_io io = { .out = out, .err = fd_out >= 0 ? NULL : &msg,
			       .timeout_s = timeout_s };
	int end, rc = -1;

	p.argv = argv;
	p.dir = dir;
	p.in = CHILD_FD_NULL;
	p.new_group = 1;
	if (fd_out >= 0)
		p.out = p.err = fd_out;
	end = child_program_run(&p, &io, err);
	if (end < 0)
		goto out;
	if (end == CHILD_TIMEOUT) {
		strbuf_addf(err, "%s did not end within %.0f s", argv[0], timeout_s);
		goto out;
	}
	if (!WIFEXITED(p.w.status) || WEXITSTATUS(p.w.status)) {
		child_describe_status(p.w.status, &how);
		strbuf_rtrim(&msg);
		size_t last = 0;

		while (argv[last + 1])
			last++;
		strbuf_addf(err, "'%s%s%s' %s%s%s", argv[0], last ? " ... " : "",
			    last ? argv[last] : "", how.buf, msg.len ? ": " : "", msg.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&msg);
	strbuf_release(&how);
	return rc;
}

/* One line of git's output about the commit. */
static int git_line(const struct bisect_build_request *r, const char *what, const char *arg,
		    char **out, struct strbuf *err)
{
	const char *argv[] = { "git", "-C", r->tree, what, "-1", arg, r->ref, "--", NULL };

	if (!strcmp(what, "describe")) {
		argv[4] = arg;
		argv[5] = r->ref;
		argv[6] = NULL;
	}
	struct strbuf sb = STRBUF_INIT;
	int rc = run(argv, NULL, -1, &sb, SHORT_TIMEOUT_S, err);

	sb.buf[strcspn(sb.buf, "\n")] = '\0';
	*out = strbuf_detach(&sb);
	return rc;
}

static void fnv(uint64_t *h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++) {
		*h ^= p[i];
		*h *= 0x100000001b3ULL;
	}
}

/* Hash the config asked for: the file's text, or the target's name, then
 * each fragment's text. Return 0, or -1 with err saying why. */
static int config_hash(const struct bisect_build_request *r, char **out, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	const char *kconfig = r->kconfig ? r->kconfig : "defconfig";
	uint64_t h = 0xcbf29ce484222325ULL;
	struct stat st;
	int rc = -1;

	if (strchr(kconfig, '/') || !stat(kconfig, &st)) {
		if (strbuf_read_file(&text, kconfig) < 0) {
			strbuf_addf(err, "cannot read the config '%s': %s", kconfig, strerror(errno));
			goto out;
		}
		fnv(&h, "file\n", 5);
		fnv(&h, text.buf, text.len);
	} else {
		fnv(&h, "target\n", 7);
		fnv(&h, kconfig, strlen(kconfig));
	}
	for (size_t i = 0; i < r->nfragments; i++) {
		strbuf_reset(&text);
		if (strbuf_read_file(&text, r->fragments[i]) < 0) {
			strbuf_addf(err, "cannot read the fragment '%s': %s", r->fragments[i],
				    strerror(errno));
			goto out;
		}
		fnv(&h, "fragment\n", 9);
		fnv(&h, text.buf, text.len);
	}
	strbuf_reset(&text);
	strbuf_addf(&text, "%016" PRIx64, h);
	*out = strbuf_detach(&text);
	rc = 0;
out:
	strbuf_release(&text);
	return rc;
}

/* The compiler make will use: the first line of $CC --version. */
static char *compiler(void)
{
	const char *cc = getenv("CC");
	const char *argv[] = { cc && *cc ? cc : "cc", "--version", NULL };
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;

	if (run(argv, NULL, -1, &out, SHORT_TIMEOUT_S, &err) || !out.len) {
		strbuf_reset(&out);
		strbuf_addstr(&out, "unknown");
	}
	out.buf[strcspn(out.buf, "\n")] = '\0';
	strbuf_release(&err);
	return strbuf_detach(&out);
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	remove(path);
	return 0;
}

static void remove_tree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

/* The last lines of a log, each on a line of its own after a newline,
 * indented, appended to out. */
static void log_tail(const char *path, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	const char *start;
	int lines = 0;

	if (strbuf_read_file(&text, path) < 0)
		return;
	strbuf_rtrim(&text);
	start = text.buf + text.len;
	while (start > text.buf && lines < LOG_TAIL_LINES)
		if (*--start == '\n')
			lines++;
	if (*start == '\n')
		start++;
	for (const char *p = start; *p;) {
		size_t len = strcspn(p, "\n");

		strbuf_addf(out, "\n    %.*s", (int)len, p);
		p += len + (p[len] == '\n');
	}
	strbuf_release(&text);
}

/* Copy file from to to. Return 0, or -1 with err saying why. */
static int copy_file(const char *from, const char *to, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	int fd, rc = -1;

	if (strbuf_read_file(&text, from) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", from, strerror(errno));
		goto out;
	}
	fd = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, text.buf, text.len) != (ssize_t)text.len) {
		strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
		if (fd >= 0)
			close(fd);
		goto out;
	}
	if (close(fd)) {
		strbuf_addf(err, "cannot write '%s': %s", to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&text);
	return rc;
}

/* Configure and build the tree exported in src into obj, make's output
 * to fd. Return 0, or -1 with err saying which step failed. */
static int configure_and_build(const struct bisect_build_request *r, const char *src,
			       const char *obj, int fd, struct strbuf *err)
{
	struct strbuf o = STRBUF_INIT, cfg = STRBUF_INIT, jobs = STRBUF_INIT;
	const char *kconfig = r->kconfig ? r->kconfig : "defconfig";
	struct stat st;
	int rc = -1;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);

	strbuf_addf(&o, "O=%s", obj);
	strbuf_addf(&cfg, "%s/.config", obj);
	strbuf_addf(&jobs, "-j%ld", cpus > 0 ? cpus : 1);
	if (make_dirs(obj, err))
		goto out;
	if (strchr(kconfig, '/') || !stat(kconfig, &st)) {
		if (copy_file(kconfig, cfg.buf, err))
			goto out;
		kconfig = "olddefconfig";
	}
	{
		const char *argv[] = { "make", "-C", src, o.buf, kconfig, NULL };

		if (run(argv, NULL, fd, NULL, SHORT_TIMEOUT_S, err))
			goto out;
	}
	if (r->nfragments) {
		const char **argv = xcalloc(r->nfragments + 8, sizeof(*argv));
		size_t n = 0;
		int failed;

		argv[n++] = "sh";
		argv[n++] = "scripts/kconfig/merge_config.sh";
		argv[n++] = "-m";
		argv[n++] = "-O";
		argv[n++] = obj;
		argv[n++] = cfg.buf;
		for (size_t i = 0; i < r->nfragments; i++)
			argv[n++] = r->fragments[i];
		failed = run(argv, src, fd, NULL, SHORT_TIMEOUT_S, err);
		free(argv);
		if (failed)
			goto out;
		{
			const char *od[] = { "make", "-C", src, o.buf, "olddefconfig", NULL };

			if (run(od, NULL, fd, NULL, SHORT_TIMEOUT_S, err))
				goto out;
		}
	}
	{
		const char *argv[] = { "make", "-C", src, o.buf, jobs.buf, "bzImage", NULL };

		if (run(argv, NULL, fd, NULL, 0, err))
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&o);
	strbuf_release(&cfg);
	strbuf_release(&jobs);
	return rc;
}

int bisect_build(const struct bisect_build_request *r, struct bisect_kernel *k,
		 struct strbuf *err)
{
	struct strbuf cache = STRBUF_INIT, dir = STRBUF_INIT, tmp = STRBUF_INIT, path = STRBUF_INIT;
	struct strbuf src = STRBUF_INIT, obj = STRBUF_INIT, tar = STRBUF_INIT, why = STRBUF_INIT;
	uint64_t cch = 0xcbf29ce484222325ULL;
	struct stat st;
	int64_t t0;
	int fd = -1, rc = -1, keep_tmp = 0;

	memset(k, 0, sizeof(*k));
	k->commit = xstrdup(r->ref);
	if (git_line(r, "log", "--format=%s", &k->subject, err) ||
	    git_line(r, "log", "--format=%an <%ae>", &k->author, err) ||
	    git_line(r, "describe", "--always", &k->describe, err) ||
	    config_hash(r, &k->config_hash, err))
		goto out;
	k->compiler = compiler();
	fnv(&cch, k->compiler, strlen(k->compiler));
	if (r->cache_dir)
		strbuf_addstr(&cache, r->cache_dir);
	else
		bisect_build_cache_dir(&cache);
	strbuf_addf(&dir, "%s/%s-%s-%08" PRIx64, cache.buf, k->commit, k->config_hash,
		    cch & 0xffffffff);
	strbuf_addf(&path, "%s/bzImage", dir.buf);
	k->image = xstrdup(path.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/build.log", dir.buf);
	k->log = xstrdup(path.buf);
	if (!stat(k->image, &st) && S_ISREG(st.st_mode)) {
		k->cache_hit = 1;
		notice("the kernel of %.12s is in the cache (%s): nothing to build", k->commit,
		       dir.buf);
		rc = 0;
		goto out;
	}
	/* Built aside, then renamed into place: a half-built entry is never
	 * taken for a kernel. */
	if (make_dirs(cache.buf, err))
		goto out;
	strbuf_addf(&tmp, "%s/.build-XXXXXX", cache.buf);
	if (!mkdtemp(tmp.buf)) {
		strbuf_addf(err, "cannot create a directory in '%s': %s", cache.buf,
			    strerror(errno));
		goto out;
	}
	strbuf_addf(&src, "%s/src", tmp.buf);
	strbuf_addf(&obj, "%s/obj", tmp.buf);
	strbuf_addf(&tar, "%s/src.tar", tmp.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/build.log", tmp.buf);
	fd = open(path.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_APPEND, 0644);
	if (fd < 0) {
		strbuf_addf(err, "cannot create '%s': %s", path.buf, strerror(errno));
		goto out_tmp;
	}
	notice("building %.12s %s (make's output in %s)", k->commit, k->subject, path.buf);
	t0 = clock_ns(CLOCK_MONOTONIC);
	{
		const char *archive[] = { "git", "-C", r->tree, "archive", "--format=tar", "-o",
					  tar.buf, r->ref, NULL };
		const char *untar[] = { "tar", "-xf", tar.buf, "-C", src.buf, NULL };

		if (run(archive, NULL, -1, NULL, SHORT_TIMEOUT_S, err) || make_dirs(src.buf, err) ||
		    run(untar, NULL, -1, NULL, SHORT_TIMEOUT_S, err))
			goto out_tmp;
		unlink(tar.buf);
	}
	if (configure_and_build(r, src.buf, obj.buf, fd, &why)) {
		/* The log stays, beside the cache's kernels, for the user. */
		close(fd);
		fd = -1;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s.failed.log", dir.buf);
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/build.log", tmp.buf);
		if (rename(dir.buf, path.buf)) {
			strbuf_reset(&path);
			strbuf_addstr(&path, dir.buf);
			keep_tmp = 1;
		}
		free(k->log);
		k->log = xstrdup(path.buf);
		strbuf_addf(err, "the build of %.12s failed: %s (its log: %s)", k->commit, why.buf,
			    k->log);
		log_tail(k->log, err);
		goto out_tmp;
	}
	{
		struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
		int failed;

		strbuf_addf(&from, "%s/arch/x86/boot/bzImage", obj.buf);
		strbuf_addf(&to, "%s/bzImage", tmp.buf);
		failed = copy_file(from.buf, to.buf, err);
		strbuf_reset(&from);
		strbuf_reset(&to);
		strbuf_addf(&from, "%s/.config", obj.buf);
		strbuf_addf(&to, "%s/config", tmp.buf);
		if (!failed && !stat(from.buf, &st))
			failed = copy_file(from.buf, to.buf, err);
		strbuf_release(&from);
		strbuf_release(&to);
		if (failed)
			goto out_tmp;
	}
	remove_tree(src.buf);
	remove_tree(obj.buf);
	if (rename(tmp.buf, dir.buf) && errno != EEXIST && errno != ENOTEMPTY) {
		strbuf_addf(err, "cannot put the kernel in the cache as '%s': %s", dir.buf,
			    strerror(errno));
		goto out_tmp;
	}
	k->build_s = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	notice("built %.12s in %.0f s", k->commit, k->build_s);
	rc = 0;
out_tmp:
	if (fd >= 0)
		close(fd);
	/* Another kbench may have put the same kernel in place first: then
	 * this copy goes, and its own is used. */
	if (tmp.len && !keep_tmp && !access(tmp.buf, F_OK))
		remove_tree(tmp.buf);
out:
	if (rc)
		bisect_kernel_release(k);
	strbuf_release(&cache);
	strbuf_release(&dir);
	strbuf_release(&tmp);
	strbuf_release(&path);
	strbuf_release(&src);
	strbuf_release(&obj);
	strbuf_release(&tar);
	strbuf_release(&why);
	return rc;
}
