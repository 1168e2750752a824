/* knob: runtime knobs of an experiment (sysctl, sysfs, sysfs globs),
 * their reading, writing with read-back, and the restore of knobs whose
 * journal a dead writer left in the store. */
#include "config.h"
#include "experiment/knob.h"
#include "db/experiment.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/hostlock.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The longest knob value read or written: sysfs attributes are a page. */
#define KNOB_MAX 4096

void knob_files_release(struct knob_files *kf)
{
	for (size_t i = 0; i < kf->n; i++) {
		free(kf->v[i].path);
		free(kf->v[i].original);
	}
	free(kf->v);
	memset(kf, 0, sizeof(*kf));
}

long knob_files_find(const struct knob_files *kf, const char *path)
{
	for (size_t i = 0; i < kf->n; i++)
		if (!strcmp(kf->v[i].path, path))
			return (long)i;
	return -1;
}

int knob_key(const char *key)
{
	return !strncmp(key, "sysctl.", 7) || !strncmp(key, "sysfs.", 6);
}

/* Fold runs of blanks into one space and trim; keep the bracketed word of
 * a choice list. */
static void normalise(const char *text, struct strbuf *out)
{
	const char *lb = strchr(text, '['), *rb = lb ? strchr(lb, ']') : NULL;
	int blank = 0;

	strbuf_reset(out);
	if (lb && rb && rb > lb + 1 && !memchr(lb + 1, ' ', (size_t)(rb - lb - 1))) {
		strbuf_add(out, lb + 1, (size_t)(rb - lb - 1));
		return;
	}
	for (const char *p = text; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n') {
			blank = out->len > 0;
			continue;
		}
		if (blank)
			strbuf_addch(out, ' ');
		blank = 0;
		strbuf_addch(out, *p);
	}
}

void knob_normal(const char *value, struct strbuf *out)
{
	normalise(value, out);
}

int knob_read(const char *path, struct strbuf *value)
{
	char buf[KNOB_MAX + 1];
	int fd = open(path, O_RDONLY | O_CLOEXEC), saved;
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read_upto(fd, buf, KNOB_MAX);
	saved = errno;
	close(fd);
	if (n < 0) {
		errno = saved;
		return -1;
	}
	buf[n] = '\0';
	normalise(buf, value);
	return 0;
}

int knob_writable(const char *path, struct strbuf *err)
{
	if (!access(path, W_OK))
		return 1;
	strbuf_addf(err, "cannot write %s: %s", path, strerror(errno));
	if (errno == EACCES || errno == EPERM || errno == EROFS)
		strbuf_addstr(err, geteuid() ? " (changing it needs root)" : "");
	return 0;
}

/* Whether canon, a path realpath(3) gave, lies under /sys or /proc/sys:
 * the only files a knob may name. A glob or a symbolic link may lead a
 * key written under /sys elsewhere ("sysfs./sys/.?/etc/X" matches
 * /sys/../etc/X), so the check is made on where the path leads. */
static int knob_place(const char *canon)
{
	return !strncmp(canon, "/sys/", 5) || !strncmp(canon, "/proc/sys/", 10);
}

int knob_write(const char *path, const char *value, struct strbuf *err)
{
	struct strbuf back = STRBUF_INIT, want = STRBUF_INIT;
	char canon[PATH_MAX];
	int fd, rc = -1;

	if (!realpath(path, canon)) {
		strbuf_addf(err, "cannot find %s: %s", path, strerror(errno));
		return -1;
	}
	if (!knob_place(canon)) {
		strbuf_addf(err, "%s leads to %s, outside /sys and /proc/sys: not a knob, "
			    "not written", path, canon);
		return -1;
	}
	fd = open(canon, O_WRONLY | O_CLOEXEC);
	if (fd < 0) {
		strbuf_addf(err, "cannot open %s for writing: %s%s", path, strerror(errno),
			    (errno == EACCES || errno == EPERM) && geteuid() ?
			    " (changing it needs root)" : "");
		return -1;
	}
	/* One write(2) of the whole value: sysfs takes a store per write. */
	if (write(fd, value, strlen(value)) != (ssize_t)strlen(value)) {
		strbuf_addf(err, "%s refused '%s': %s", path, value, strerror(errno));
		close(fd);
		return -1;
	}
	if (close(fd)) {
		strbuf_addf(err, "%s refused '%s': %s", path, value, strerror(errno));
		return -1;
	}
	if (knob_read(canon, &back)) {
		strbuf_addf(err, "cannot read %s back: %s", path, strerror(errno));
		goto out;
	}
	normalise(value, &want);
	if (strcmp(back.buf, want.buf)) {
		strbuf_addf(err, "%s reads back '%s' after '%s' was written", path, back.buf,
			    value);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&back);
	strbuf_release(&want);
	return rc;
}

/* Whether value (normalised) is one of the lines of list. */
static int listed(const char *list, const char *value)
{
	size_t n = strlen(value);

	for (const char *p = list; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, value, n) && (p[n] == '\n' || !p[n]))
			return 1;
	return 0;
}

/* Knobs knob_restore_left could not write back in this process. */
static int unrestored;

int knob_unrestored(void)
{
	return unrestored;
}

int knob_restore_left(const char *path, const char *original, const char *written,
		      struct strbuf *err)
{
	struct strbuf now = STRBUF_INIT, want = STRBUF_INIT;
	char canon[PATH_MAX];
	int rc = -1;

	/* Where it leads first: nothing outside the knobs is even read. */
	if (!realpath(path, canon)) {
		if (errno == ENOENT) {
			strbuf_addstr(err, "the file is gone");
			return 2;
		}
		strbuf_addf(err, "cannot find %s: %s", path, strerror(errno));
		unrestored++;
		return -1;
	}
	if (!knob_place(canon)) {
		strbuf_addf(err, "%s leads to %s, outside /sys and /proc/sys: not a knob, "
			    "not written", path, canon);
		unrestored++;
		return -1;
	}
	if (knob_read(canon, &now)) {
		strbuf_addf(err, "cannot read %s: %s", path, strerror(errno));
		goto out;
	}
	normalise(original, &want);
	if (!strcmp(now.buf, want.buf)) {
		rc = 1;
		goto out;
	}
	if (written && !listed(written, now.buf)) {
		strbuf_addf(err, "it reads '%s', not ", now.buf);
		if (!*written)
			strbuf_addstr(err, "a value kbench wrote");
		for (const char *p = written; *p;) {
			size_t n = strcspn(p, "\n");

			strbuf_addf(err, "%s'%.*s'", p == written ? "" : " or ", (int)n, p);
			p += n + (p[n] == '\n');
		}
		strbuf_addstr(err, " as kbench set it: left as set since (by an admin, or "
			      "another tool)");
		rc = 2;
		goto out;
	}
	rc = knob_write(canon, original, err) ? -1 : 0;
out:
	if (rc < 0)
		unrestored++;
	strbuf_release(&now);
	strbuf_release(&want);
	return rc;
}

/* Add path (canonical) with its current setting to kf unless there; its
 * index into *idx. Return 0, or -1 after an error. */
static int add_file(const char *path, const char *where, struct knob_files *kf, size_t **idx,
		    size_t *nidx, size_t *nalloc)
{
	char canon[PATH_MAX];
	struct strbuf v = STRBUF_INIT;
	long at;

	if (!realpath(path, canon))
		return error("%s: cannot find knob %s: %s", where, path, strerror(errno));
	if (!knob_place(canon))
		return error("%s: %s leads to %s, outside /sys and /proc/sys: not a knob",
			     where, path, canon);
	at = knob_files_find(kf, canon);
	if (at < 0) {
		if (knob_read(canon, &v)) {
			int e = errno;

			strbuf_release(&v);
			return error("%s: cannot read knob %s: %s", where, canon, strerror(e));
		}
		ALLOC_GROW(kf->v, kf->n + 1, kf->alloc);
		kf->v[kf->n].path = xstrdup(canon);
		kf->v[kf->n].original = strbuf_detach(&v);
		at = (long)kf->n++;
	}
	for (size_t i = 0; i < *nidx; i++)
		if ((*idx)[i] == (size_t)at)
			return 0;
	ALLOC_GROW(*idx, *nidx + 1, *nalloc);
	(*idx)[(*nidx)++] = (size_t)at;
	strbuf_release(&v);
	return 0;
}

int knob_expand(const char *key, const char *where, struct knob_files *kf, size_t **idx,
		size_t *nidx)
{
	struct strbuf path = STRBUF_INIT;
	size_t nalloc = 0;
	glob_t g = { .gl_pathc = 0 };
	int rc = -1;

	*idx = NULL;
	*nidx = 0;
	if (!strncmp(key, "sysctl.", 7)) {
		const char *name = key + 7;

		if (!*name || strstr(name, "..") || *name == '/' || *name == '.')
			return error("%s: '%s' names no sysctl (sysctl.vm.NAME, as sysctl(8) "
				     "writes it)", where, key);
		strbuf_addstr(&path, "/proc/sys/");
		for (const char *p = name; *p; p++)
			strbuf_addch(&path, *p == '.' ? '/' : *p);
		rc = add_file(path.buf, where, kf, idx, nidx, &nalloc);
		goto out;
	}
	if (strncmp(key, "sysfs.", 6) || strncmp(key + 6, "/sys/", 5) || strstr(key, "/../"))
		return error("%s: '%s' names no sysfs attribute (sysfs./sys/PATH, a glob "
			     "allowed)", where, key);
	if (glob(key + 6, 0, NULL, &g) || !g.gl_pathc) {
		error("%s: no file matches %s", where, key + 6);
		goto out;
	}
	for (size_t i = 0; i < g.gl_pathc; i++)
		if (add_file(g.gl_pathv[i], where, kf, idx, nidx, &nalloc))
			goto out;
	rc = 0;
out:
	if (g.gl_pathc)
		globfree(&g);
	strbuf_release(&path);
	if (rc) {
		free(*idx);
		*idx = NULL;
		*nidx = 0;
	}
	return rc;
}

/* ---- the restore of what a dead writer left ---- */

struct left_row {
	int64_t experiment_id;
	int64_t pid;
	char *path, *original;
	char *written;		/* values the experiment may write; NULL: not known */
	int other_boot;		/* journalled before the last boot: drop, never write */
};

struct left {
	struct left_row *v;
	size_t n, alloc;
	size_t live;		/* rows of writers at work */
};

static int collect(const struct journal_row *r, void *arg)
{
	struct left *l = arg;

	if (!r->here)
		return 0;	/* another host's knobs are not ours to touch */
	if (r->alive) {
		l->live++;
		return 0;
	}
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = (struct left_row){
		.experiment_id = r->experiment_id,
		.pid = r->pid,
		.path = xstrdup(r->path),
		.original = xstrdup(r->original),
		.written = r->written ? xstrdup(r->written) : NULL,
		.other_boot = r->other_boot,
	};
	return 0;
}

static void left_release(struct left *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].path);
		free(l->v[i].original);
		free(l->v[i].written);
	}
	free(l->v);
}

/* Drop row r of the journal without writing its knob, saying why: an
 * error when it could not be written back (bad), else a warning. Return
 * 0 when dropped. */
static int drop_row(struct store *w, const struct left_row *r, const char *why, int bad)
{
	if (bad)
		error("cannot restore %s to '%s' (left by experiment @%lld, pid %lld): %s; its "
		      "journal row is dropped", r->path, r->original, (long long)r->experiment_id,
		      (long long)r->pid, why);
	else
		warning("not restoring %s to '%s' (left by experiment @%lld, pid %lld): %s; its "
			"journal row is dropped", r->path, r->original,
			(long long)r->experiment_id, (long long)r->pid, why);
	return store_journal_forget(w, r->experiment_id, r->path);
}

int knob_recover(struct store *s, int writable)
{
	struct left l = { .v = NULL };
	struct store *w = s;
	int failed = 0, took = 0;	/* took: 1 the knobs, 2 and said it measures */

	if (store_each_journal(s, collect, &l) < 0)
		return -1;
	if (!l.n)
		goto out;
	if (!writable && store_open(store_path(s), &w)) {
		error("knobs left changed by a kbench that died could not be restored: the "
		      "store cannot be written");
		failed = (int)l.n;
		w = NULL;
		goto out;
	}
	/* The machine's knobs are one kbench's at a time (machine/hostlock.h):
	 * while another changes them, the rows wait for a later command. */
	if (!hostlock_holds_knobs()) {
		int measuring = hostlock_measuring();
		struct strbuf err = STRBUF_INIT, what = STRBUF_INIT;
		int rc;

		strbuf_addf(&what, "kbench restoring the knobs of %s", store_path(s));
		rc = hostlock_knobs(what.buf, store_path(s), 0, knob_restore_left, &err);
		if (rc)
			warning("knobs left changed by a kbench that died are not restored now: %s",
				err.buf);
		strbuf_release(&err);
		strbuf_release(&what);
		if (rc) {
			failed = (int)l.n;
			goto out;
		}
		took = measuring ? 1 : 2;
	}
	for (size_t i = 0; i < l.n;) {
		size_t j = i, done = 0, bad = 0;
		char at[32];
		time_t t = time(NULL);

		for (; j < l.n && l.v[j].experiment_id == l.v[i].experiment_id; j++) {
			struct left_row *r = &l.v[j];
			struct strbuf err = STRBUF_INIT;
			int rc = 1;

			if (r->other_boot || access(r->path, F_OK)) {
				if (drop_row(w, r, r->other_boot ?
					     "the machine booted since, which reset it" :
					     "the file is gone", 0))
					bad++;
				strbuf_release(&err);
				continue;
			}
			rc = knob_restore_left(r->path, r->original, r->written, &err);
			if (rc == 2 || rc < 0) {
				drop_row(w, r, err.buf, rc < 0);
				if (rc < 0)
					bad++;
			} else if (store_journal_forget(w, r->experiment_id, r->path)) {
				bad++;
			} else {
				done++;	/* it reads its original again */
			}
			strbuf_release(&err);
		}
		if (done)
			warning("restored %zu knob%s left changed by experiment @%lld (pid %lld, "
				"gone)", done, done == 1 ? "" : "s", (long long)l.v[i].experiment_id,
				(long long)l.v[i].pid);
		clock_iso_utc(at, sizeof(at), t);
		store_experiment_abandoned(w, l.v[i].experiment_id, at);
		failed += (int)bad;
		i = j;
	}
out:
	if (took) {
		/* Nothing of this process is in the host-wide journal. */
		hostlock_knobs_release(1);
		if (took == 2)
			hostlock_release();
	}
	left_release(&l);
	if (w && w != s)
		store_close(w);
	return failed;
}

long knob_left(struct store *s)
{
	struct left l = { .v = NULL };
	long n;

	if (store_each_journal(s, collect, &l) < 0)
		return -1;
	n = (long)l.n;
	left_release(&l);
	return n;
}

int knob_reads(const char *path, const char *value, struct strbuf *now)
{
	struct strbuf want = STRBUF_INIT;
	int same;

	strbuf_reset(now);
	if (knob_read(path, now))
		return -1;
	normalise(value, &want);
	same = !strcmp(now->buf, want.buf);
	strbuf_release(&want);
	return same;
}
