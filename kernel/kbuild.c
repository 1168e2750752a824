/* kbuild: build a commit of a kernel git tree out of tree into kbench's
 * kernel cache (see kbuild.h for the cache's layout), with git and make
 * run through lib/child, every wait bounded, and nothing stored in an
 * entry unless the build completed. */
#include "config.h"
#include "kernel/kbuild.h"
#include "kernel/kbuild_internal.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/cgroup.h"
#include "machine/leftover.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The log lines a failed build's error quotes. */
#define LOG_TAIL_LINES 20

void kbuild_facts(const struct kbuild_result *res, const char *kv[2 * KBUILD_NFACTS])
{
	kv[0] = "kernel-commit";
	kv[1] = res->commit;
	kv[2] = "kernel-describe";
	kv[3] = res->describe;
	kv[4] = "kernel-subject";
	kv[5] = res->subject;
	kv[6] = "kernel-config-hash";
	kv[7] = res->config_hash;
	kv[8] = "kernel-compiler";
	kv[9] = res->compiler;
	kv[10] = "kernel-tree";
	kv[11] = res->tree;
}

int kbuild_store_facts(struct store *s, int64_t run_id, const struct kbuild_result *res)
{
	const char *kv[2 * KBUILD_NFACTS];

	if (!run_id)
		return 0;
	kbuild_facts(res, kv);
	for (size_t i = 0; i < KBUILD_NFACTS; i++)
		if (store_add_meta(s, run_id, "", kv[2 * i], kv[2 * i + 1]))
			return -1;
	return 0;
}

/* ---- files ---- */

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	else
		unlink(path);
	return 0;
}

/* Remove path and everything under it; a missing path is fine. */
static void remove_tree(const char *path)
{
	nftw(path, remove_one, 16, FTW_DEPTH | FTW_PHYS);
}

/* Write len bytes of buf into the file path (made or truncated) and
 * fsync it. Return 0, or -1 with err saying why. */
static int write_synced(const char *path, const char *buf, size_t len, struct strbuf *err)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644), rc = 0;

	if (fd < 0 || write_full(fd, buf, len) || fsync(fd)) {
		strbuf_addf(err, "cannot write '%s': %s", path, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The last n lines of the file at path, each indented, into out. */
static void file_tail(const char *path, int n, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	size_t at;

	if (strbuf_read_file(&text, path) < 0) {
		strbuf_addf(out, "    (cannot read the log: %s)\n", strerror(errno));
		return;
	}
	strbuf_rtrim(&text);
	at = text.len;
	for (int i = 0; i < n && at > 0; i++) {
		while (at > 0 && text.buf[at - 1] != '\n')
			at--;
		if (i + 1 < n && at > 0)
			at--;
	}
	if (!text.len)
		strbuf_addstr(out, "    (the log is empty)\n");
	for (const char *s = text.buf + at; *s; ) {
		size_t len = strcspn(s, "\n");

		strbuf_addstr(out, "    ");
		strbuf_add(out, s, len);
		strbuf_addch(out, '\n');
		s += len + (s[len] == '\n');
	}
	strbuf_release(&text);
}

/* ---- building ---- */

/* A build in progress. */
struct build {
	const struct kbuild_request *rq;
	struct kbuild_result *res;
	struct kbuild_paths *paths;
	struct strbuf slot_dir, src, obj, tmp, log_path, marker;
	int log_fd, lock_fd;
	int tty;
	int shown;		/* a progress line is on the terminal */
	int64_t start_ns, deadline_ns;
	int signal;		/* the build was stopped by *rq->stop */
	int killed;		/* a step was killed: compilers may have left parts */
	int unrecorded;		/* steps whose processes could not be recorded */
};

static double elapsed_s(const struct build *b)
{
	return (double)(clock_ns(CLOCK_MONOTONIC) - b->start_ns) / NSEC_PER_SEC;
}

static void clear_line(struct build *b)
{
	if (b->shown) {
		fputs("\r\033[K", stderr);
		b->shown = 0;
	}
}

/* The last target kbuild names in the log ("CC      mm/slub.o"). */
static void last_target(const struct build *b, char *buf, size_t size)
{
	char tail[4096];
	off_t end = lseek(b->log_fd, 0, SEEK_END);
	off_t at = end > (off_t)sizeof(tail) - 1 ? end - (off_t)sizeof(tail) + 1 : 0;
	ssize_t n = end > 0 ? pread(b->log_fd, tail, (size_t)(end - at), at) : 0;
	char *line = NULL;

	buf[0] = '\0';
	if (n <= 0)
		return;
	tail[n] = '\0';
	for (char *s = tail; (s = strstr(s, "\n  ")); s++)
		if (isupper((unsigned char)s[3]))
			line = s + 3;
	if (line)
		snprintf(buf, size, "%.*s", (int)strcspn(line, "\n"), line);
}

static void show_progress(struct build *b, const char *step)
{
	char target[160];
	struct winsize ws;
	int cols = 80;
	double s = elapsed_s(b);
	struct strbuf line = STRBUF_INIT;

	if (!b->tty)
		return;
	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 20)
		cols = ws.ws_col;
	last_target(b, target, sizeof(target));
	strbuf_addf(&line, "building %s: %s %dm%02ds %s", b->res->describe, step, (int)s / 60,
		    (int)s % 60, target);
	if (line.len >= (size_t)cols)
		line.buf[cols - 1] = '\0';
	fprintf(stderr, "\r\033[K%s", line.buf);
	fflush(stderr);
	b->shown = 1;
	strbuf_release(&line);
}

/* Run one step of the build, its output appended to the log, waiting
 * with the progress line until it ends, the deadline passes or *stop is
 * set. Return 0 when it exited with status 0; -1 with err saying why. */
static int build_step(struct build *b, const char *dir, const char *const *argv, const char *name,
		struct strbuf *err)
{
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf why = STRBUF_INIT, rec_err = STRBUF_INIT;
	struct cgroup_box box = CGROUP_BOX_INIT;
	struct leftover rec = LEFTOVER_INIT;
	const char *env[sizeof(kbuild_make_env) / sizeof(*kbuild_make_env) + 1];
	size_t n = 0;
	int rc = -1;

	if (!b->tty && b->rq->progress && !kb_quiet)
		notice("%s: %s", b->res->describe, name);
	dprintf(b->log_fd, "### %s\n", name);
	/* make and its recipes in a box of their own, recorded, so that what
	 * a killed kbench left running is killed by the next build. */
	cgroup_box_open(&box, "build", NULL);
	for (; kbuild_make_env[n]; n++)
		env[n] = kbuild_make_env[n];
	env[n++] = box.marker;
	env[n] = NULL;
	p.argv = argv;
	p.dir = dir;
	p.env = env;
	p.cgroup = box.dir;
	p.new_group = 1;
	p.in = CHILD_FD_NULL;
	p.out = p.err = b->log_fd;
	if (child_program_start(&p, &why)) {
		strbuf_addf(err, "%s: %s", name, why.buf);
		goto out;
	}
	/* Without a record the build goes on: only a kill -9 needs it. */
	strbuf_addf(&why, "%s of %s in %s", name, b->res->describe, b->slot_dir.buf);
	strbuf_reset(&rec_err);
	if (leftover_record(&rec, p.w.pid, why.buf, NULL, NULL, &rec_err) ||
	    leftover_note(&rec, "kind", "build", &rec_err) ||
	    (box.dir && leftover_note(&rec, "cgroup", box.dir, &rec_err)) ||
	    leftover_note(&rec, "marker", box.marker, &rec_err)) {
		if (!b->unrecorded++)
			warning("%s; a kill -9 of this build would leave make's recipes running",
				rec_err.buf);
		leftover_forget(&rec);
	}
	strbuf_reset(&why);
	for (;;) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		if (worker_poll(&p.w))
			break;
		if (b->rq->stop && *b->rq->stop) {
			worker_kill_group(&p.w);
			b->signal = *b->rq->stop;
			b->killed = 1;
			strbuf_addf(err, "%s: stopped by signal %d", name, b->signal);
			goto out;
		}
		if (clock_ns(CLOCK_MONOTONIC) > b->deadline_ns) {
			worker_kill_group(&p.w);
			b->killed = 1;
			strbuf_addf(err, "%s: killed after the build's %.0f s (--timeout)", name,
				    b->rq->timeout_s > 0 ? b->rq->timeout_s :
				    KBUILD_DEFAULT_TIMEOUT_S);
			goto out;
		}
		if (b->rq->progress && !kb_quiet)
			show_progress(b, name);
		nanosleep(&ts, NULL);
	}
	if (!WIFEXITED(p.w.status) || WEXITSTATUS(p.w.status)) {
		strbuf_addf(err, "%s ", name);
		child_describe_status(p.w.status, err);
		goto out;
	}
	rc = 0;
out:
	/* Nothing make started outlives it. */
	cgroup_box_close(&box);
	leftover_forget(&rec);
	clear_line(b);
	strbuf_release(&why);
	strbuf_release(&rec_err);
	return rc;
}

/* Take the slot's lock, waiting for another build of it until the
 * deadline. The descriptor is inherited by make and what it starts, so
 * that a killed kbench's compilers hold the slot until they are gone. */
static int lock_slot(struct build *b, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT;
	int said = 0, rc = -1;

	strbuf_addf(&path, "%s/lock", b->slot_dir.buf);
	b->lock_fd = open(path.buf, O_RDWR | O_CREAT, 0644);
	if (b->lock_fd < 0) {
		strbuf_addf(err, "cannot open '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	while (flock(b->lock_fd, LOCK_EX | LOCK_NB)) {
		struct timespec ts = { 0, 200 * 1000 * 1000 };

		if (errno != EWOULDBLOCK && errno != EINTR) {
			strbuf_addf(err, "cannot lock '%s': %s", path.buf, strerror(errno));
			goto out;
		}
		if (b->rq->stop && *b->rq->stop) {
			b->signal = *b->rq->stop;
			strbuf_addf(err, "stopped by signal %d while waiting for '%s'", b->signal,
				    path.buf);
			goto out;
		}
		if (clock_ns(CLOCK_MONOTONIC) > b->deadline_ns) {
			strbuf_addf(err, "another build holds '%s' still, after the build's "
				    "timeout", path.buf);
			goto out;
		}
		if (!said++)
			notice("waiting for another build of this tree and config (%s)", path.buf);
		nanosleep(&ts, NULL);
	}
	rc = 0;
out:
	strbuf_release(&path);
	return rc;
}

/* The object files a killed build may have left half written: every
 * file of the object directory written since its marker. */
static int64_t marker_ns;
static int remove_newer(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)ftw;
	if (flag == FTW_F &&
	    (int64_t)st->st_mtim.tv_sec * NSEC_PER_SEC + st->st_mtim.tv_nsec >= marker_ns)
		unlink(path);
	return 0;
}

static void clean_after_kill(struct build *b)
{
	struct stat st;

	if (stat(b->marker.buf, &st))
		return;
	notice("the last build in %s was interrupted: removing what it wrote", b->obj.buf);
	marker_ns = (int64_t)st.st_mtim.tv_sec * NSEC_PER_SEC + st.st_mtim.tv_nsec;
	nftw(b->obj.buf, remove_newer, 16, FTW_PHYS);
}

/* Entries being written by builds that are gone (their pid is in the
 * name: KEY.PID.XXXXXX). */
static void clean_tmp(struct build *b)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	DIR *d;
	struct dirent *e;

	strbuf_addf(&dir, "%s/tmp", b->paths->cache.buf);
	d = opendir(dir.buf);
	while (d && (e = readdir(d))) {
		const char *dot = strchr(e->d_name, '.');
		long pid = dot ? strtol(dot + 1, NULL, 10) : 0;

		if (e->d_name[0] == '.')
			continue;
		if (pid <= 0 || (kill((pid_t)pid, 0) && errno == ESRCH)) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir.buf, e->d_name);
			remove_tree(path.buf);
		}
	}
	if (d)
		closedir(d);
	strbuf_release(&dir);
	strbuf_release(&path);
}

/* The options the fragments set, last one winning, checked against the
 * .config make olddefconfig wrote: each must be there as asked. */
struct wanted {
	char *name, *value;	/* value NULL: "is not set" */
	const char *file;
	int line;
};

static void add_wanted(struct wanted **w, size_t *n, size_t *alloc, const char *name,
		       size_t len, const char *value, size_t vlen, const char *file, int line)
{
	size_t i;

	for (i = 0; i < *n && (strlen((*w)[i].name) != len || strncmp((*w)[i].name, name, len));
	     i++)
		;
	if (i == *n) {
		ALLOC_GROW(*w, *n + 1, *alloc);
		(*w)[(*n)++].name = xstrndup(name, len);
	} else {
		free((*w)[i].value);
	}
	(*w)[i].value = value ? xstrndup(value, vlen) : NULL;
	(*w)[i].file = file;
	(*w)[i].line = line;
}

/* The value of option name in a .config's text, or NULL when not set;
 * *len set to its length. */
static const char *config_value(const char *text, const char *name, size_t *len)
{
	size_t nlen = strlen(name);

	for (const char *s = text; *s; ) {
		if (!strncmp(s, name, nlen) && s[nlen] == '=') {
			*len = strcspn(s + nlen + 1, "\n");
			return s + nlen + 1;
		}
		s += strcspn(s, "\n");
		s += *s == '\n';
	}
	return NULL;
}

static int check_fragments(struct build *b, struct strbuf *err)
{
	struct wanted *w = NULL;
	size_t n = 0, alloc = 0, bad = 0;
	struct strbuf text = STRBUF_INIT, config = STRBUF_INIT, path = STRBUF_INIT;
	int rc = -1;

	for (size_t f = 0; f < b->rq->nfragments; f++) {
		const char *file = b->rq->fragments[f];
		int line = 0;

		strbuf_reset(&text);
		if (strbuf_read_file(&text, file) < 0) {
			strbuf_addf(err, "cannot read the config fragment '%s': %s", file,
				    strerror(errno));
			goto out;
		}
		for (const char *s = text.buf; *s; ) {
			size_t len = strcspn(s, "\n"), nlen;

			line++;
			nlen = strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
					 "0123456789_");
			if (!strncmp(s, "CONFIG_", 7) && nlen < len && s[nlen] == '=')
				add_wanted(&w, &n, &alloc, s, nlen, s + nlen + 1, len - nlen - 1,
					   file, line);
			else if (!strncmp(s, "# CONFIG_", 9) && len > 13 &&
				 !strncmp(s + len - 11, " is not set", 11))
				add_wanted(&w, &n, &alloc, s + 2, len - 13, NULL, 0, file, line);
			s += len + (s[len] == '\n');
		}
	}
	strbuf_addf(&path, "%s/.config", b->obj.buf);
	if (strbuf_read_file(&config, path.buf) < 0) {
		strbuf_addf(err, "make olddefconfig wrote no '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		size_t len = 0;
		const char *v = config_value(config.buf, w[i].name, &len);
		int ok = w[i].value ? v && strlen(w[i].value) == len &&
				      !strncmp(v, w[i].value, len) : !v || (len == 1 && *v == 'n');

		if (ok)
			continue;
		if (!bad++)
			strbuf_addstr(err, "the config lacks options its fragments set (a "
				      "dependency is missing, or the option is not in this "
				      "kernel):");
		strbuf_addf(err, "\n    %s:%d: %s%s%s, but the .config has ", w[i].file,
			    w[i].line, w[i].name, w[i].value ? "=" : " is not set",
			    w[i].value ? w[i].value : "");
		if (v)
			strbuf_addf(err, "%s=%.*s", w[i].name, (int)len, v);
		else
			strbuf_addstr(err, "it not set");
	}
	rc = bad ? -1 : 0;
out:
	for (size_t i = 0; i < n; i++) {
		free(w[i].name);
		free(w[i].value);
	}
	free(w);
	strbuf_release(&text);
	strbuf_release(&config);
	strbuf_release(&path);
	return rc;
}

/* Export the commit into the slot's worktree: added the first time,
 * checked out (only the files that differ change) after. */
static int export_commit(struct build *b, struct strbuf *err)
{
	struct strbuf dotgit = STRBUF_INIT;
	int rc;

	strbuf_addf(&dotgit, "%s/.git", b->src.buf);
	if (access(dotgit.buf, F_OK)) {
		const char *argv[] = { "git", "-C", b->res->tree, "worktree", "add", "-f",
				       "--detach", b->src.buf, b->res->commit, NULL };

		remove_tree(b->src.buf);
		rc = build_step(b, NULL, argv, "git worktree add", err);
	} else {
		const char *co[] = { "git", "checkout", "-q", "-f", "--detach", b->res->commit,
				     NULL };
		const char *clean[] = { "git", "clean", "-q", "-f", "-d", "-x", NULL };

		rc = build_step(b, b->src.buf, co, "git checkout", err) ||
		     build_step(b, b->src.buf, clean, "git clean", err) ? -1 : 0;
	}
	strbuf_release(&dotgit);
	return rc;
}

static int configure(struct build *b, struct strbuf *err)
{
	const char *kconfig = b->rq->kconfig ? b->rq->kconfig : KBUILD_DEFAULT_KCONFIG;
	struct strbuf o = STRBUF_INIT, path = STRBUF_INIT, merge = STRBUF_INIT;
	char **abs = xcalloc(b->rq->nfragments + 1, sizeof(*abs));
	const char **argv = xcalloc(b->rq->nfragments + 8, sizeof(*argv));
	int rc = -1;

	strbuf_addf(&o, "O=%s", b->obj.buf);
	if (mkdir_p(b->obj.buf, NULL)) {
		strbuf_addf(err, "cannot create '%s': %s", b->obj.buf, strerror(errno));
		goto out;
	}
	if (kbuild_kconfig_is_file(kconfig)) {
		strbuf_addf(&path, "%s/.config", b->obj.buf);
		if (copy_file(kconfig, path.buf, 0, err))
			goto out;
	} else {
		const char *make[] = { "make", "-C", b->src.buf, o.buf, "ARCH=x86_64", kconfig,
				       NULL };

		strbuf_addf(&path, "make %s", kconfig);
		if (build_step(b, NULL, make, path.buf, err))
			goto out;
	}
	if (b->rq->nfragments) {
		size_t n = 0;

		strbuf_addf(&merge, "%s/scripts/kconfig/merge_config.sh", b->src.buf);
		if (access(merge.buf, X_OK)) {
			strbuf_addf(err, "the tree has no scripts/kconfig/merge_config.sh at %s, to "
				    "merge the config fragments with", b->res->describe);
			goto out;
		}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/.config", b->obj.buf);
		argv[n++] = merge.buf;
		argv[n++] = "-m";
		argv[n++] = "-O";
		argv[n++] = b->obj.buf;
		argv[n++] = path.buf;
		/* merge_config.sh runs in the object directory. */
		for (size_t i = 0; i < b->rq->nfragments; i++) {
			abs[i] = realpath(b->rq->fragments[i], NULL);
			if (!abs[i]) {
				strbuf_addf(err, "cannot read the config fragment '%s': %s",
					    b->rq->fragments[i], strerror(errno));
				goto out;
			}
			argv[n++] = abs[i];
		}
		argv[n] = NULL;
		if (build_step(b, b->obj.buf, argv, "merge_config.sh", err))
			goto out;
	}
	{
		const char *make[] = { "make", "-C", b->src.buf, o.buf, "ARCH=x86_64",
				       "olddefconfig", NULL };

		if (build_step(b, NULL, make, "make olddefconfig", err))
			goto out;
	}
	rc = check_fragments(b, err);
out:
	for (size_t i = 0; i < b->rq->nfragments; i++)
		free(abs[i]);
	free(abs);
	free(argv);
	strbuf_release(&o);
	strbuf_release(&path);
	strbuf_release(&merge);
	return rc;
}

/* Whether the .config in obj builds modules. */
static int builds_modules(const struct build *b)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	size_t len = 0;
	const char *v;
	int yes;

	strbuf_addf(&path, "%s/.config", b->obj.buf);
	strbuf_read_file(&text, path.buf);
	v = config_value(text.buf, "CONFIG_MODULES", &len);
	yes = v && len == 1 && *v == 'y';
	strbuf_release(&path);
	strbuf_release(&text);
	return yes;
}

static int make_kernel(struct build *b, struct strbuf *err)
{
	struct strbuf o = STRBUF_INIT, j = STRBUF_INIT, mod = STRBUF_INIT;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	int modules = builds_modules(b), rc = -1;
	const char *make[] = { "make", "-C", b->src.buf, NULL, "ARCH=x86_64", NULL, "bzImage",
			       modules ? "modules" : NULL, NULL };

	strbuf_addf(&o, "O=%s", b->obj.buf);
	strbuf_addf(&j, "-j%d", b->rq->jobs > 0 ? b->rq->jobs : cpus > 0 ? (int)cpus : 1);
	make[3] = o.buf;
	make[5] = j.buf;
	if (build_step(b, NULL, make, modules ? "make bzImage modules" : "make bzImage", err))
		goto out;
	if (modules) {
		const char *inst[] = { "make", "-C", b->src.buf, o.buf, "ARCH=x86_64",
				       NULL, "INSTALL_MOD_STRIP=1", "modules_install", NULL };

		strbuf_addf(&mod, "INSTALL_MOD_PATH=%s/modules", b->tmp.buf);
		inst[5] = mod.buf;
		if (build_step(b, NULL, inst, "make modules_install", err))
			goto out;
	}
	rc = 0;
out:
	strbuf_release(&o);
	strbuf_release(&j);
	strbuf_release(&mod);
	return rc;
}

/* What the entry holds beside the kernel: its facts, one "key value" a
 * line. */
static int write_facts(struct build *b, struct strbuf *err)
{
	const char *kv[2 * KBUILD_NFACTS];
	struct strbuf text = STRBUF_INIT, path = STRBUF_INIT;
	int rc;

	kbuild_facts(b->res, kv);
	for (int i = 0; i < KBUILD_NFACTS; i++)
		strbuf_addf(&text, "%s %s\n", kv[2 * i], kv[2 * i + 1]);
	strbuf_addf(&text, "kernel-author %s\nkernel-config %s\nbuild-seconds %.0f\n",
		    b->res->author, b->res->config_desc, elapsed_s(b));
	strbuf_addf(&path, "%s/facts", b->tmp.buf);
	rc = write_synced(path.buf, text.buf, text.len, err);
	strbuf_release(&text);
	strbuf_release(&path);
	return rc;
}

/* Copy what was built into the temporary entry and rename it into
 * place. */
static int store_entry(struct build *b, struct strbuf *err)
{
	struct strbuf from = STRBUF_INIT, to = STRBUF_INIT;
	int rc = -1;

	strbuf_addf(&from, "%s/arch/x86/boot/bzImage", b->obj.buf);
	strbuf_addf(&to, "%s/bzImage", b->tmp.buf);
	if (copy_file(from.buf, to.buf, 0, err))
		goto out;
	strbuf_reset(&from);
	strbuf_reset(&to);
	strbuf_addf(&from, "%s/.config", b->obj.buf);
	strbuf_addf(&to, "%s/config", b->tmp.buf);
	if (copy_file(from.buf, to.buf, 0, err) || write_facts(b, err))
		goto out;
	if (fsync(b->log_fd)) {
		strbuf_addf(err, "cannot write '%s': %s", b->log_path.buf, strerror(errno));
		goto out;
	}
	if (rename(b->tmp.buf, b->res->entry)) {
		/* Another build of the commit (from another clone: another
		 * slot) stored it first: its entry is as good as ours. */
		if ((errno == ENOTEMPTY || errno == EEXIST) && !access(b->res->image, R_OK)) {
			notice("%s was stored meanwhile by another build of it: using that one",
			       b->res->describe);
			remove_tree(b->tmp.buf);
			rc = 0;
			goto out;
		}
		strbuf_addf(err, "cannot rename '%s' to '%s': %s", b->tmp.buf, b->res->entry,
			    strerror(errno));
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&from);
	strbuf_release(&to);
	return rc;
}

/* After a failed build: keep its log as failed/KEY.log, drop the rest. */
static void keep_failed_log(struct build *b)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;

	strbuf_addf(&dir, "%s/failed", b->paths->cache.buf);
	strbuf_addf(&path, "%s/%s.log", dir.buf, b->paths->key.buf);
	if (b->log_fd >= 0 && !mkdir_p(dir.buf, NULL) && !rename(b->log_path.buf, path.buf)) {
		free(b->res->log);
		b->res->log = strbuf_detach(&path);
	}
	strbuf_release(&dir);
	strbuf_release(&path);
}

static void build_release(struct build *b)
{
	strbuf_release(&b->slot_dir);
	strbuf_release(&b->src);
	strbuf_release(&b->obj);
	strbuf_release(&b->tmp);
	strbuf_release(&b->log_path);
	strbuf_release(&b->marker);
	if (b->log_fd >= 0)
		close(b->log_fd);
	if (b->lock_fd >= 0)
		close(b->lock_fd);
}

/* Start the build in its slot: the marker that says one is under way
 * (and whose), what a killed build left cleaned, the entry's temporary
 * directory and the build's log. */
static int start_build(struct build *b, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	int fd, rc = -1;

	strbuf_addf(&b->src, "%s/src", b->slot_dir.buf);
	strbuf_addf(&b->obj, "%s/obj", b->slot_dir.buf);
	strbuf_addf(&b->marker, "%s/building", b->slot_dir.buf);
	clean_after_kill(b);
	clean_tmp(b);
	unlink(b->marker.buf);
	fd = open(b->marker.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		strbuf_addf(err, "cannot create '%s': %s", b->marker.buf, strerror(errno));
		goto out;
	}
	dprintf(fd, "%ld\n", (long)getpid());
	close(fd);
	strbuf_addf(&dir, "%s/tmp", b->paths->cache.buf);
	strbuf_addf(&b->tmp, "%s/%s.%ld.XXXXXX", dir.buf, b->paths->key.buf, (long)getpid());
	if (mkdir_p(dir.buf, NULL) || !mkdtemp(b->tmp.buf)) {
		strbuf_addf(err, "cannot create a directory in '%s': %s", dir.buf, strerror(errno));
		goto out;
	}
	chmod(b->tmp.buf, 0755);
	strbuf_addf(&b->log_path, "%s/build.log", b->tmp.buf);
	b->log_fd = open(b->log_path.buf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (b->log_fd < 0) {
		strbuf_addf(err, "cannot create '%s': %s", b->log_path.buf, strerror(errno));
		goto out;
	}
	dprintf(b->log_fd, "### kbench build of %s (%s) from %s\n### config %s (%s), %s\n",
		b->res->commit, b->res->describe, b->res->tree, b->res->config_hash,
		b->res->config_desc, b->res->compiler);
	rc = 0;
out:
	strbuf_release(&dir);
	return rc;
}

int kbuild_build(const struct kbuild_request *rq, struct kbuild_result *res,
		 struct strbuf *err)
{
	struct kbuild_paths paths = KBUILD_PATHS_INIT;
	struct build b = { .rq = rq, .res = res, .paths = &paths, .log_fd = -1, .lock_fd = -1,
			   .slot_dir = STRBUF_INIT, .src = STRBUF_INIT, .obj = STRBUF_INIT,
			   .tmp = STRBUF_INIT, .log_path = STRBUF_INIT, .marker = STRBUF_INIT };
	struct strbuf why = STRBUF_INIT, dir = STRBUF_INIT, tail = STRBUF_INIT;
	double timeout_s = rq->timeout_s > 0 ? rq->timeout_s : KBUILD_DEFAULT_TIMEOUT_S;
	int rc = -1;

	b.start_ns = clock_ns(CLOCK_MONOTONIC);
	b.deadline_ns = b.start_ns + (int64_t)(timeout_s * NSEC_PER_SEC);
	b.tty = rq->progress && isatty(STDERR_FILENO);
	if (kbuild_resolve_paths(rq, res, &paths, err))
		goto fail;
	if (res->cache_hit) {
		rc = 0;
		goto out;
	}
	strbuf_addf(&b.slot_dir, "%s/work/%s", paths.cache.buf, paths.slot.buf);
	strbuf_addf(&dir, "%s/entries", paths.cache.buf);
	if (mkdir_p(b.slot_dir.buf, NULL) || mkdir_p(dir.buf, NULL)) {
		strbuf_addf(err, "cannot create the kernel cache in '%s': %s", paths.cache.buf,
			    strerror(errno));
		goto fail;
	}
	/* make and recipes a killed build left running are killed first:
	 * they would hold the slot, and write into its object directory. */
	{
		struct strbuf said = STRBUF_INIT;

		if (leftover_reap(&said, &why) < 0)
			warning("cannot look for builds left running: %s", why.buf);
		else if (said.len)
			notice("%s", said.buf);
		strbuf_reset(&why);
		strbuf_release(&said);
	}
	if (lock_slot(&b, err))
		goto fail;
	/* Built while we waited? */
	if (!access(res->image, R_OK)) {
		res->cache_hit = 1;
		rc = 0;
		goto out;
	}
	if (start_build(&b, err))
		goto fail;
	if (rq->progress && !kb_quiet)
		notice("building %s (%.12s %s) in %s", res->describe, res->commit, res->subject,
		       b.slot_dir.buf);
	if (export_commit(&b, &why) || configure(&b, &why) || make_kernel(&b, &why) ||
	    store_entry(&b, &why)) {
		if (b.signal) {
			strbuf_addf(err, "the build of %s was interrupted: nothing was stored",
				    res->describe);
			rc = 128 + b.signal;
			goto fail;
		}
		strbuf_addf(err, "the build of %s (%.12s) failed: %s", res->describe, res->commit,
			    why.buf);
		keep_failed_log(&b);
		file_tail(res->log, LOG_TAIL_LINES, &tail);
		strbuf_addf(err, "\nthe last lines of its log (all of it in %s):\n%s", res->log,
			    tail.buf);
		strbuf_rtrim(err);
		goto fail;
	}
	res->build_s = elapsed_s(&b);
	strbuf_reset(&dir);
	strbuf_addf(&dir, "%s/modules", res->entry);
	if (path_is_dir(dir.buf))
		res->modules_dir = strbuf_detach(&dir);
	unlink(b.marker.buf);
	rc = 0;
	goto out;
fail:
	/* A step killed part way may leave half-written objects: the marker
	 * stays, and the next build removes what was written since. */
	if (b.marker.len && !b.killed)
		unlink(b.marker.buf);
	if (b.tmp.len)
		remove_tree(b.tmp.buf);
	if (rc < 128)
		rc = -1;
out:
	strbuf_release(&why);
	strbuf_release(&dir);
	strbuf_release(&tail);
	build_release(&b);
	kbuild_paths_release(&paths);
	return rc;
}
