/* hostlock: who measures on this machine and who owns its knobs
 * (machine/hostlock.h): flock(2) on files of one lock directory. */
#include "config.h"
#include "machine/hostlock.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The most of a holder file or a journal line read. */
#define HOLDER_MAX 4096
/* How often a wait for the knobs looks again. */
#define KNOBS_POLL_S 0.2

static struct {
	int holder_fd;		/* our holder file, flock()ed; -1: none */
	int knobs_fd;		/* the knobs file, flock()ed exclusively; -1 */
	struct strbuf holder;	/* its path */
	char *what, *store;
	char since[32];
} me = { .holder_fd = -1, .knobs_fd = -1 };

void hostlock_dir(struct strbuf *out)
{
	const char *env = getenv("KBENCH_LOCK_DIR");

	strbuf_addstr(out, env && *env ? env : "/run/lock/kbench");
}

/* Make the lock directory (sticky and writable by all, as /run/lock is:
 * a measuring kbench need not be root) and its path into dir. */
static int make_dir(struct strbuf *dir, struct strbuf *err)
{
	struct stat st;

	hostlock_dir(dir);
	if (mkdir(dir->buf, 01777) == 0) {
		chmod(dir->buf, 01777);	/* past the umask */
		return 0;
	}
	if (errno == EEXIST && !stat(dir->buf, &st) && S_ISDIR(st.st_mode))
		return 0;
	strbuf_addf(err, "cannot make the lock directory %s: %s", dir->buf,
		    errno == EEXIST ? "not a directory" : strerror(errno));
	return -1;
}

static void write_holder(void)
{
	struct strbuf sb = STRBUF_INIT;

	if (me.holder_fd < 0)
		return;
	strbuf_addf(&sb, "pid %ld\nwhat %s\nstore %s\nsince %s\nknobs %s\n", (long)getpid(),
		    me.what, me.store, me.since, me.knobs_fd >= 0 ? "yes" : "no");
	if (ftruncate(me.holder_fd, 0) == 0)
		(void)!pwrite(me.holder_fd, sb.buf, sb.len, 0);
	strbuf_release(&sb);
}

/* One field of a holder file's text ("what"), into out. */
static void holder_field(const char *text, const char *key, struct strbuf *out)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ') {
			strbuf_add(out, p + n + 1, strcspn(p + n + 1, "\n"));
			return;
		}
}

/* The holder file path of dir/name, when it is a live holder's other
 * than ours, described into out ("pid 12: what, store S, since T");
 * *knobs set when it holds the knobs. A stale one is removed. Return
 * 1 when live, 0 otherwise. */
static int live_holder(const char *dir, const char *name, struct strbuf *out, int *knobs)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, f = STRBUF_INIT;
	char buf[HOLDER_MAX + 1];
	int fd, live = 0;
	ssize_t n;

	strbuf_addf(&path, "%s/%s", dir, name);
	if (me.holder_fd >= 0 && !strcmp(path.buf, me.holder.buf))
		goto out;
	fd = open(path.buf, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		goto out;
	if (!flock(fd, LOCK_SH | LOCK_NB)) {
		/* Nobody holds it: its process is gone. */
		unlink(path.buf);
		close(fd);
		goto out;
	}
	n = read_upto(fd, buf, HOLDER_MAX);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	strbuf_addstr(&text, buf);
	live = 1;
	holder_field(text.buf, "pid", &f);
	strbuf_addf(out, "pid %s: ", f.len ? f.buf : "?");
	strbuf_reset(&f);
	holder_field(text.buf, "what", &f);
	strbuf_addstr(out, f.len ? f.buf : "kbench");
	strbuf_reset(&f);
	holder_field(text.buf, "store", &f);
	if (f.len)
		strbuf_addf(out, ", store %s", f.buf);
	strbuf_reset(&f);
	holder_field(text.buf, "since", &f);
	if (f.len)
		strbuf_addf(out, ", since %s", f.buf);
	strbuf_reset(&f);
	holder_field(text.buf, "knobs", &f);
	*knobs = !strcmp(f.buf, "yes");
	if (*knobs)
		strbuf_addstr(out, ", changing knobs");
out:
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&f);
	return live;
}

/* The live holders but us, one line each, into out; only the one holding
 * the knobs when knobs_only. */
static void scan(struct strbuf *out, int knobs_only)
{
	struct strbuf dir = STRBUF_INIT, one = STRBUF_INIT;
	struct dirent *d;
	DIR *dp;

	hostlock_dir(&dir);
	dp = opendir(dir.buf);
	while (dp && (d = readdir(dp))) {
		int knobs = 0;

		if (strncmp(d->d_name, "holder.", 7))
			continue;
		strbuf_reset(&one);
		if (live_holder(dir.buf, d->d_name, &one, &knobs) && (knobs || !knobs_only))
			strbuf_addf(out, "%s%s", out->len ? "\n" : "", one.buf);
	}
	if (dp)
		closedir(dp);
	strbuf_release(&dir);
	strbuf_release(&one);
}

int hostlock_measuring(void)
{
	return me.holder_fd >= 0;
}

void hostlock_others(struct strbuf *others)
{
	scan(others, 0);
}

int hostlock_measure(const char *what, const char *store, struct strbuf *others,
		     struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT;
	int rc = -1;

	free(me.what);
	free(me.store);
	me.what = xstrdup(what);
	/* Absolute: the reader of the holder file may be anywhere. */
	me.store = store && *store ? realpath(store, NULL) : NULL;
	if (!me.store)
		me.store = xstrdup(store ? store : "");
	if (me.holder_fd >= 0) {
		write_holder();
		rc = 0;
		goto out;
	}
	if (make_dir(&dir, err))
		goto out;
	strbuf_init(&me.holder);
	strbuf_addf(&me.holder, "%s/holder.%ld", dir.buf, (long)getpid());
	/* A file of that name is a dead process's: the pid is ours now. */
	me.holder_fd = open(me.holder.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (me.holder_fd < 0 || flock(me.holder_fd, LOCK_EX | LOCK_NB)) {
		strbuf_addf(err, "cannot hold %s: %s", me.holder.buf, strerror(errno));
		if (me.holder_fd >= 0)
			close(me.holder_fd);
		me.holder_fd = -1;
		goto out;
	}
	clock_iso_utc(me.since, sizeof(me.since), time(NULL));
	write_holder();
	rc = 0;
out:
	if (!rc)
		scan(others, 0);
	strbuf_release(&dir);
	return rc;
}

/* Restore what the journal at path lists (a holder killed before its
 * restore left it), then remove it. Return 0, or -1 with why in err. */
static int restore_left(const char *path,
			int (*restore)(const char *path, const char *original, struct strbuf *err),
			struct strbuf *err)
{
	FILE *f = fopen(path, "re");
	char line[HOLDER_MAX + 2];
	struct strbuf who = STRBUF_INIT, why = STRBUF_INIT;
	int done = 0, bad = 0;

	if (!f)
		return errno == ENOENT ? 0 : (strbuf_addf(err, "cannot read %s: %s", path,
							   strerror(errno)), -1);
	while (fgets(line, sizeof(line), f)) {
		char *tab;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#') {
			strbuf_reset(&who);
			strbuf_addstr(&who, line + 1 + (line[1] == ' '));
			continue;
		}
		tab = strchr(line, '\t');
		if (!tab)
			continue;
		*tab = '\0';
		strbuf_reset(&why);
		if (restore(line, tab + 1, &why)) {
			error("cannot restore %s to '%s' (left changed by %s): %s", line, tab + 1,
			      who.len ? who.buf : "a kbench that is gone", why.buf);
			bad++;
		} else {
			done++;
		}
	}
	fclose(f);
	if (done)
		warning("restored %d knob file%s left changed by %s, which is gone", done,
			done == 1 ? "" : "s", who.len ? who.buf : "a kbench");
	strbuf_release(&who);
	strbuf_release(&why);
	if (bad) {
		strbuf_addf(err, "%d knob%s left changed by a killed kbench cannot be restored "
			    "(listed in %s)", bad, bad == 1 ? "" : "s", path);
		return -1;
	}
	unlink(path);
	return 0;
}

int hostlock_knobs(const char *what, const char *store, double wait_s,
		   int (*restore)(const char *path, const char *original, struct strbuf *err),
		   struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, who = STRBUF_INIT;
	int64_t until = clock_ns(CLOCK_MONOTONIC) + (int64_t)(wait_s * 1e9);
	int fd = -1, rc = -1, said = 0;

	if (me.knobs_fd >= 0)
		return 0;
	if (make_dir(&dir, err))
		goto out;
	strbuf_addf(&path, "%s/knobs", dir.buf);
	fd = open(path.buf, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0) {
		strbuf_addf(err, "cannot open %s: %s", path.buf, strerror(errno));
		goto out;
	}
	while (flock(fd, LOCK_EX | LOCK_NB)) {
		if (errno != EWOULDBLOCK) {
			strbuf_addf(err, "cannot lock %s: %s", path.buf, strerror(errno));
			goto out;
		}
		strbuf_reset(&who);
		scan(&who, 1);
		if (clock_ns(CLOCK_MONOTONIC) >= until) {
			strbuf_addf(err, "another kbench is changing this machine's knobs (%s)%s",
				    who.len ? who.buf : "its holder file is gone",
				    wait_s > 0 ? "; waited for it in vain" :
				    "; --wait-knobs SECONDS waits for it");
			rc = 1;
			goto out;
		}
		if (!said++)
			notice("waiting up to %g s for the knobs, held by %s", wait_s,
			       who.len ? who.buf : "another kbench");
		nanosleep(&(struct timespec){ .tv_nsec = (long)(KNOBS_POLL_S * 1e9) }, NULL);
	}
	me.knobs_fd = fd;
	fd = -1;
	if (hostlock_measure(what, store, &who, err)) {
		hostlock_knobs_release(0);
		goto out;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/knobs.journal", dir.buf);
	if (restore_left(path.buf, restore, err)) {
		hostlock_knobs_release(0);
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&who);
	return rc;
}

int hostlock_journal(const char *path, const char *original, struct strbuf *err)
{
	struct strbuf jp = STRBUF_INIT, line = STRBUF_INIT;
	struct stat st;
	int fd, rc = -1;

	if (me.knobs_fd < 0) {
		strbuf_addstr(err, "the knobs are not held");
		return -1;
	}
	hostlock_dir(&jp);
	strbuf_addstr(&jp, "/knobs.journal");
	fd = open(jp.buf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0644);
	if (fd < 0 || fstat(fd, &st)) {
		strbuf_addf(err, "cannot write %s: %s", jp.buf, strerror(errno));
		goto out;
	}
	if (!st.st_size)
		strbuf_addf(&line, "# pid %ld (%s, store %s)\n", (long)getpid(), me.what, me.store);
	strbuf_addf(&line, "%s\t%s\n", path, original);
	if (write_full(fd, line.buf, line.len) || fsync(fd)) {
		strbuf_addf(err, "cannot write %s: %s", jp.buf, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	strbuf_release(&jp);
	strbuf_release(&line);
	return rc;
}

int hostlock_holds_knobs(void)
{
	return me.knobs_fd >= 0;
}

void hostlock_knobs_release(int restored)
{
	struct strbuf jp = STRBUF_INIT;

	if (me.knobs_fd < 0)
		return;
	hostlock_dir(&jp);
	strbuf_addstr(&jp, "/knobs.journal");
	if (restored)
		unlink(jp.buf);
	close(me.knobs_fd);
	me.knobs_fd = -1;
	write_holder();
	strbuf_release(&jp);
}

void hostlock_release(void)
{
	hostlock_knobs_release(0);
	if (me.holder_fd >= 0) {
		unlink(me.holder.buf);
		close(me.holder_fd);
		me.holder_fd = -1;
		strbuf_release(&me.holder);
	}
	free(me.what);
	free(me.store);
	me.what = me.store = NULL;
}
