/* hostlock: who measures on this machine and who owns its knobs
 * (machine/hostlock.h): flock(2) on files of one lock directory. */
#include "config.h"
#include "machine/hostlock.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The most of a holder file or a journal line read. */
#define HOLDER_MAX 4096
/* The host-wide journal of the knobs' original values. */
#define JOURNAL "knobs.journal"
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

void hostlock_boot_id(char *buf, size_t len)
{
	int fd = open("/proc/sys/kernel/random/boot_id", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read_upto(fd, buf, len - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
}

/* Whether a file or directory of owner uid may be trusted: this user's,
 * or root's. */
static int trusted_owner(uid_t uid)
{
	return uid == geteuid() || uid == 0;
}

int hostlock_dir_mine(int dirfd)
{
	struct stat st;

	return !fstat(dirfd, &st) && st.st_uid == geteuid();
}

/* Who uid is, for a message: "user nobody (65534)". */
static void user_name(uid_t uid, struct strbuf *out)
{
	struct passwd *pw = getpwuid(uid);

	if (pw)
		strbuf_addf(out, "user %s (%ld)", pw->pw_name, (long)uid);
	else
		strbuf_addf(out, "user %ld", (long)uid);
}

int hostlock_dir_open(int make, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, who = STRBUF_INIT;
	struct stat st;
	int fd = -1, made = 0;

	hostlock_dir(&dir);
	if (make && !mkdir(dir.buf, 0755))
		made = 1;
	else if (make && errno != EEXIST) {
		strbuf_addf(err, "cannot make the lock directory %s: %s", dir.buf, strerror(errno));
		goto out;
	}
	fd = open(dir.buf, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (errno == ENOENT && !make) {
			fd = -2;
			goto out;
		}
		if (!lstat(dir.buf, &st) && S_ISLNK(st.st_mode))
			strbuf_addf(err, "the lock directory %s is a symbolic link: kbench trusts "
				    "no file in it; remove it (kbench makes it again)", dir.buf);
		else if (errno == ENOTDIR)
			strbuf_addf(err, "the lock directory %s is not a directory; remove it "
				    "(kbench makes it again)", dir.buf);
		else
			strbuf_addf(err, "cannot open the lock directory %s: %s", dir.buf,
				    strerror(errno));
		goto out;
	}
	if (fstat(fd, &st)) {
		strbuf_addf(err, "cannot read the lock directory %s: %s", dir.buf, strerror(errno));
		goto fail;
	}
	if (!trusted_owner(st.st_uid)) {
		user_name(st.st_uid, &who);
		strbuf_addf(err, "the lock directory %s is owned by %s, not by ", dir.buf, who.buf);
		strbuf_reset(&who);
		user_name(geteuid(), &who);
		strbuf_addf(err, "%s%s: kbench trusts no file in it; remove it (kbench makes it "
			    "again)", geteuid() ? who.buf : "root", geteuid() ? " or root" : "");
		goto fail;
	}
	if (st.st_mode & 022) {
		mode_t mode = st.st_mode & 0755;

		/* A directory of this user writable by others is an older
		 * kbench's (it made it 1777): make it kbench's own. */
		if (st.st_uid != geteuid() || fchmod(fd, mode)) {
			strbuf_addf(err, "the lock directory %s is writable by other users (mode "
				    "%04o): kbench trusts no file in it; make it %04o, or remove it "
				    "(kbench makes it again)", dir.buf, (unsigned)(st.st_mode & 07777),
				    (unsigned)mode);
			goto fail;
		}
		notice("the lock directory %s was writable by other users (mode %04o, as older "
		       "kbench made it): it is now %04o, and the files other users left there "
		       "are ignored", dir.buf, (unsigned)(st.st_mode & 07777), (unsigned)mode);
	}
	if (made && st.st_uid == geteuid() && (st.st_mode & 0777) != 0755)
		(void)!fchmod(fd, 0755);	/* past a umask: others read who measures */
	goto out;
fail:
	close(fd);
	fd = -1;
out:
	strbuf_release(&dir);
	strbuf_release(&who);
	return fd;
}

/* Whether name is one kbench gives a file: letters, digits, '.', '-'. */
static int our_name(const char *name)
{
	for (const char *p = name; *p; p++)
		if (!isalnum((unsigned char)*p) && *p != '.' && *p != '-')
			return 0;
	return *name != '\0';
}

int hostlock_open_file(int dirfd, const char *name, int flags, mode_t mode)
{
	struct strbuf why = STRBUF_INIT, dir = STRBUF_INIT, shown = STRBUF_INIT;
	struct stat st;
	int fd = -1;

	if (!our_name(name))
		strbuf_addstr(&why, "a name kbench never gives a file");
	else
		fd = openat(dirfd, name, flags | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, mode);
	if (why.len) {
		/* said below */
	} else if (fd < 0) {
		if (errno == ELOOP)
			strbuf_addstr(&why, "a symbolic link");
		else
			return -1;
	} else if (fstat(fd, &st)) {
		int e = errno;

		close(fd);
		errno = e;
		return -1;
	} else if (!S_ISREG(st.st_mode)) {
		strbuf_addstr(&why, "not a regular file");
	} else if (!trusted_owner(st.st_uid)) {
		strbuf_addstr(&why, "owned by ");
		user_name(st.st_uid, &why);
		strbuf_addstr(&why, ", not by ");
		if (geteuid())
			user_name(geteuid(), &why);
		strbuf_addstr(&why, geteuid() ? " or root" : "root");
	} else if (st.st_mode & 022) {
		strbuf_addf(&why, "writable by other users (mode %04o)",
			    (unsigned)(st.st_mode & 07777));
	} else if (st.st_nlink != 1) {
		strbuf_addf(&why, "%lu links to it", (unsigned long)st.st_nlink);
	}
	if (!why.len) {
		/* Blocking reads and writes from here: a regular file. */
		fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
		return fd;
	}
	if (fd >= 0)
		close(fd);
	hostlock_dir(&dir);
	/* Another user chose the name: its bytes are not printed raw. */
	for (const char *p = name; *p; p++)
		strbuf_addch(&shown, isprint((unsigned char)*p) ? *p : '?');
	if (hostlock_dir_mine(dirfd) && !unlinkat(dirfd, name, 0))
		warning("ignored and removed %s/%s: %s", dir.buf, shown.buf, why.buf);
	else
		warning("ignored %s/%s: %s", dir.buf, shown.buf, why.buf);
	strbuf_release(&why);
	strbuf_release(&dir);
	strbuf_release(&shown);
	errno = EPERM;
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

/* Whether a kbench not running as root may make the lock directory: only
 * one it was told of. The machine's is root's: one a user made would be
 * refused by root's kbench. */
static int may_make(void)
{
	const char *env = getenv("KBENCH_LOCK_DIR");

	return !geteuid() || (env && *env);
}

/* The holder file name in the lock directory dirfd (path dir), when it is
 * a live holder's other than ours, described into out ("pid 12: what,
 * store S, since T"); *knobs set when it holds the knobs. A stale one is
 * removed. Return 1 when live, 0 otherwise. */
static int live_holder(int dirfd, const char *dir, const char *name, struct strbuf *out,
		       int *knobs)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, f = STRBUF_INIT;
	char buf[HOLDER_MAX + 1];
	int fd, live = 0;
	ssize_t n;

	strbuf_addf(&path, "%s/%s", dir, name);
	if (me.holder_fd >= 0 && !strcmp(path.buf, me.holder.buf))
		goto out;
	fd = hostlock_open_file(dirfd, name, O_RDONLY, 0);
	if (fd < 0)
		goto out;
	if (!flock(fd, LOCK_SH | LOCK_NB)) {
		/* Nobody holds it: its process is gone. */
		unlinkat(dirfd, name, 0);
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
	struct strbuf dir = STRBUF_INIT, one = STRBUF_INIT, err = STRBUF_INIT;
	struct dirent *d;
	DIR *dp = NULL;
	int fd = hostlock_dir_open(0, &err);

	hostlock_dir(&dir);
	if (fd >= 0 && !(dp = fdopendir(fd)))
		close(fd);
	while (dp && (d = readdir(dp))) {
		int knobs = 0;

		if (strncmp(d->d_name, "holder.", 7))
			continue;
		strbuf_reset(&one);
		if (live_holder(dirfd(dp), dir.buf, d->d_name, &one, &knobs) &&
		    (knobs || !knobs_only))
			strbuf_addf(out, "%s%s", out->len ? "\n" : "", one.buf);
	}
	if (dp)
		closedir(dp);
	strbuf_release(&dir);
	strbuf_release(&one);
	strbuf_release(&err);
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
	char name[32];
	int dirfd = -1, rc = -1;

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
	dirfd = hostlock_dir_open(may_make(), err);
	if (dirfd == -2) {
		/* The machine's, not made yet, and not this user's to make. */
		rc = 0;
		goto out;
	}
	if (dirfd < 0)
		goto out;
	hostlock_dir(&dir);
	snprintf(name, sizeof(name), "holder.%ld", (long)getpid());
	strbuf_init(&me.holder);
	strbuf_addf(&me.holder, "%s/%s", dir.buf, name);
	/* A file of that name is a dead process's: the pid is ours now. */
	me.holder_fd = hostlock_open_file(dirfd, name, O_RDWR | O_CREAT, 0644);
	if (me.holder_fd < 0 && errno == EACCES && !hostlock_dir_mine(dirfd)) {
		/* Root's directory, read by another user's kbench: it says
		 * who measures, and registers nothing. */
		strbuf_release(&me.holder);
		rc = 0;
		goto out;
	}
	if (me.holder_fd < 0 || flock(me.holder_fd, LOCK_EX | LOCK_NB)) {
		strbuf_addf(err, "cannot hold %s: %s", me.holder.buf, strerror(errno));
		if (me.holder_fd >= 0)
			close(me.holder_fd);
		me.holder_fd = -1;
		strbuf_release(&me.holder);
		goto out;
	}
	clock_iso_utc(me.since, sizeof(me.since), time(NULL));
	write_holder();
	rc = 0;
out:
	if (!rc)
		scan(others, 0);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&dir);
	return rc;
}

/* One row of a journal a killed holder left: path, its original value,
 * what it may have been set to (one a line), who left it. */
static void restore_row(char *line, const char *who, int this_boot, hostlock_restore_fn *restore,
			int *done)
{
	struct strbuf why = STRBUF_INIT, written = STRBUF_INIT;
	char *tab = strchr(line, '\t'), *original, *w;

	if (!tab)
		return;
	*tab = '\0';
	original = tab + 1;
	w = strchr(original, '\t');
	if (w) {
		*w++ = '\0';
		for (const char *p = w; *p; p++)
			strbuf_addch(&written, *p == '\t' ? '\n' : *p);
	}
	if (!this_boot) {
		warning("not restoring %s to '%s' (left by %s): journalled in another boot (or "
			"with no boot id), whose settings this boot reset; its journal row is dropped",
			line, original, who);
		goto out;
	}
	switch (restore(line, original, w ? written.buf : NULL, &why)) {
	case 0:
	case 1:
		(*done)++;	/* it reads its original again */
		break;
	case 2:
		warning("not restoring %s to '%s' (left by %s): %s; its journal row is dropped",
			line, original, who, why.buf);
		break;
	default:
		error("cannot restore %s to '%s' (left by %s): %s; its journal row is dropped",
		      line, original, who, why.buf);
	}
out:
	strbuf_release(&why);
	strbuf_release(&written);
}

/* Restore what the journal in the lock directory dirfd lists (a holder
 * killed before its restore left it), then remove it: a row that cannot
 * be restored is said and dropped. Return 0, or -1 with why in err. */
static int restore_left(int dirfd, hostlock_restore_fn *restore, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, who = STRBUF_INIT, boot = STRBUF_INIT;
	char line[HOLDER_MAX + 2], now[64];
	int fd, done = 0, rc = -1;
	FILE *f;

	hostlock_dir(&path);
	strbuf_addstr(&path, "/" JOURNAL);
	fd = hostlock_open_file(dirfd, JOURNAL, O_RDONLY, 0);
	if (fd < 0) {
		if (errno == ENOENT || errno == EPERM)
			rc = 0;
		else
			strbuf_addf(err, "cannot read %s: %s", path.buf, strerror(errno));
		goto out;
	}
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		strbuf_addf(err, "cannot read %s: %s", path.buf, strerror(errno));
		goto out;
	}
	hostlock_boot_id(now, sizeof(now));
	strbuf_addstr(&who, "a kbench that is gone");
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "# boot ", 7)) {
			strbuf_reset(&boot);
			strbuf_addstr(&boot, line + 7);
		} else if (!strncmp(line, "# pid ", 6)) {
			strbuf_reset(&who);
			strbuf_addstr(&who, line + 2);
		} else if (line[0] != '#') {
			restore_row(line, who.buf, boot.len && *now && !strcmp(boot.buf, now),
				    restore, &done);
		}
	}
	fclose(f);
	if (done)
		warning("restored %d knob file%s left changed by %s, which is gone", done,
			done == 1 ? "" : "s", who.buf);
	/* Every row is restored or said and dropped. */
	unlinkat(dirfd, JOURNAL, 0);
	rc = 0;
out:
	strbuf_release(&path);
	strbuf_release(&who);
	strbuf_release(&boot);
	return rc;
}

/* Drop the holder file this process made (it measured nothing before). */
static void drop_holder(void)
{
	if (me.holder_fd < 0)
		return;
	unlink(me.holder.buf);
	close(me.holder_fd);
	me.holder_fd = -1;
	strbuf_release(&me.holder);
}

int hostlock_knobs(const char *what, const char *store, double wait_s,
		   hostlock_restore_fn *restore, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, who = STRBUF_INIT;
	int64_t until = clock_ns(CLOCK_MONOTONIC) + (int64_t)(wait_s * 1e9);
	int dirfd, fd = -1, rc = -1, said = 0, measured = me.holder_fd >= 0;

	if (me.knobs_fd >= 0)
		return 0;
	dirfd = hostlock_dir_open(may_make(), err);
	if (dirfd == -2)
		strbuf_addstr(err, "the lock directory is missing, and only root makes it");
	if (dirfd < 0)
		goto out;
	hostlock_dir(&path);
	strbuf_addstr(&path, "/knobs");
	fd = hostlock_open_file(dirfd, "knobs", O_RDWR | O_CREAT, 0644);
	if (fd < 0 && errno == EPERM)	/* another user's, said and removed */
		fd = hostlock_open_file(dirfd, "knobs", O_RDWR | O_CREAT, 0644);
	if (fd < 0) {
		strbuf_addf(err, "cannot open %s: %s", path.buf,
			    errno == EPERM ? "it is not kbench's own" : strerror(errno));
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
	if (restore_left(dirfd, restore, err)) {
		hostlock_knobs_release(0);
		goto out;
	}
	rc = 0;
out:
	if (rc && !measured)
		drop_holder();
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&path);
	strbuf_release(&who);
	return rc;
}

int hostlock_journal(const char *path, const char *original, const char *written,
		     struct strbuf *err)
{
	struct strbuf jp = STRBUF_INIT, line = STRBUF_INIT;
	struct stat st;
	char boot[64];
	int dirfd, fd = -1, rc = -1;

	if (me.knobs_fd < 0) {
		strbuf_addstr(err, "the knobs are not held");
		return -1;
	}
	hostlock_dir(&jp);
	strbuf_addstr(&jp, "/" JOURNAL);
	dirfd = hostlock_dir_open(0, err);
	if (dirfd < 0) {
		if (dirfd == -2)
			strbuf_addf(err, "cannot write %s: the lock directory is gone", jp.buf);
		goto out;
	}
	fd = hostlock_open_file(dirfd, JOURNAL, O_WRONLY | O_CREAT | O_APPEND, 0644);
	if (fd < 0 || fstat(fd, &st)) {
		strbuf_addf(err, "cannot write %s: %s", jp.buf, strerror(errno));
		goto out;
	}
	if (!st.st_size) {
		hostlock_boot_id(boot, sizeof(boot));
		strbuf_addf(&line, "# kbench knobs journal\n# boot %s\n# pid %ld (%s, store %s)\n",
			    boot, (long)getpid(), me.what, me.store);
	}
	strbuf_addf(&line, "%s\t%s\t", path, original);
	for (const char *p = written ? written : ""; *p; p++)
		strbuf_addch(&line, *p == '\n' ? '\t' : *p);
	strbuf_addch(&line, '\n');
	if (write_full(fd, line.buf, line.len) || fsync(fd)) {
		strbuf_addf(err, "cannot write %s: %s", jp.buf, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
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
	strbuf_addstr(&jp, "/" JOURNAL);
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
	drop_holder();
	free(me.what);
	free(me.store);
	me.what = me.store = NULL;
}
