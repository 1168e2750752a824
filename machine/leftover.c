/* leftover: records of the process groups kbench starts beside its
 * samples, and the reaping of those a killed kbench left
 * (machine/leftover.h). */
#include "config.h"
#include "machine/leftover.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/cgroup.h"
#include "machine/hostlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#define RECORD_PREFIX "background."
/* The most of a record read. */
#define RECORD_MAX 4096

/* Fields of /proc/PID/stat: its process group and start time. Return 0,
 * or -1 when the process is gone. */
static int proc_stat(pid_t pid, pid_t *pgrp, unsigned long long *start)
{
	char path[64], buf[1024];
	const char *p;
	unsigned long long v[20];
	int fd, n;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	len = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	/* The name in parentheses may hold blanks: fields follow the last ')'. */
	p = strrchr(buf, ')');
	if (!p)
		return -1;
	p += 2;
	/* Field 3 (state) is a letter; 4 to 22 are numbers. */
	p = strchr(p, ' ');
	for (n = 0; p && n < 20; n++) {
		char *end;

		v[n] = strtoull(p + 1, &end, 10);
		p = *end == ' ' ? end : NULL;
	}
	if (n < 19)
		return -1;
	*pgrp = (pid_t)v[1];
	*start = v[18];
	return 0;
}

unsigned long long leftover_start_time(pid_t pid)
{
	pid_t g;
	unsigned long long t;

	return proc_stat(pid, &g, &t) ? 0 : t;
}

int leftover_record(struct leftover *l, pid_t pgid, const char *what, const char *restore_path,
		    const char *restore_value, struct strbuf *err)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	char name[48], boot[64];
	int dirfd, fd = -1, rc = -1;

	hostlock_dir(&path);
	snprintf(name, sizeof(name), RECORD_PREFIX "%ld", (long)pgid);
	strbuf_addf(&path, "/%s", name);
	dirfd = hostlock_dir_open(1, &text);
	if (dirfd < 0) {
		strbuf_addf(err, "cannot record process group %ld in %s: %s", (long)pgid,
			    path.buf, dirfd == -2 ? "the lock directory is missing" : text.buf);
		strbuf_reset(&text);
		goto out;
	}
	/* Emptied once checked, not by O_TRUNC: a file planted there (a
	 * link to another) is refused before anything is written to it. */
	fd = hostlock_open_file(dirfd, name, O_RDWR | O_CREAT, 0644);
	if (fd < 0 && errno == EPERM)	/* another user's, said and removed */
		fd = hostlock_open_file(dirfd, name, O_RDWR | O_CREAT, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB) || ftruncate(fd, 0)) {
		strbuf_addf(err, "cannot record process group %ld in %s: %s",
			    (long)pgid, path.buf, strerror(errno));
		goto out;
	}
	hostlock_boot_id(boot, sizeof(boot));
	strbuf_addf(&text, "pgid %ld\nstart %llu\nboot %s\nwhat %s\n", (long)pgid,
		    leftover_start_time(pgid), boot, what);
	if (restore_path)
		strbuf_addf(&text, "restore %s %s\n", restore_path, restore_value);
	if (write_full(fd, text.buf, text.len)) {
		strbuf_addf(err, "cannot write %s: %s", path.buf, strerror(errno));
		unlinkat(dirfd, name, 0);
		goto out;
	}
	l->fd = fd;
	fd = -1;
	l->path = strbuf_detach(&path);
	rc = 0;
out:
	if (fd >= 0)
		close(fd);
	if (dirfd >= 0)
		close(dirfd);
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

int leftover_note(struct leftover *l, const char *key, const char *value, struct strbuf *err)
{
	struct strbuf line = STRBUF_INIT;
	int rc = 0;

	if (l->fd < 0)
		return 0;
	strbuf_addf(&line, "%s %s\n", key, value);
	if (strchr(value, '\n') || write_full(l->fd, line.buf, line.len)) {
		strbuf_addf(err, "cannot write %s: %s", l->path,
			    strchr(value, '\n') ? "a value of two lines" : strerror(errno));
		rc = -1;
	}
	strbuf_release(&line);
	return rc;
}

void leftover_forget(struct leftover *l)
{
	if (l->fd < 0)
		return;
	unlink(l->path);
	close(l->fd);
	free(l->path);
	l->fd = -1;
	l->path = NULL;
}

/* One field of a record ("what"), into out; 0 when found. */
static int field(const char *text, const char *key, struct strbuf *out)
{
	size_t n = strlen(key);

	for (const char *p = text; p && *p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ' ') {
			strbuf_add(out, p + n + 1, strcspn(p + n + 1, "\n"));
			return 0;
		}
	return -1;
}

/* Kill the processes of group pgid started no earlier than start and
 * owned by this user, when the group is the one recorded: its leader,
 * while it lives, started at start. Return how many were sent SIGKILL;
 * -1 when the group is another (its leader started at another time). */
static int kill_group(pid_t pgid, unsigned long long start)
{
	DIR *d;
	struct dirent *de;
	pid_t g;
	unsigned long long t;
	int n = 0;

	if (!proc_stat(pgid, &g, &t) && (g != pgid || t != start))
		return -1;
	d = opendir("/proc");
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end, path[64];
		long pid = strtol(de->d_name, &end, 10);
		struct stat st;

		if (*end || pid <= 0 || proc_stat((pid_t)pid, &g, &t) || g != pgid || t < start)
			continue;
		snprintf(path, sizeof(path), "/proc/%ld", pid);
		if (stat(path, &st) || st.st_uid != geteuid())
			continue;
		if (!kill((pid_t)pid, SIGKILL))
			n++;
	}
	closedir(d);
	return n;
}

/* Whether path is what a background load may have changed and the value
 * what kbench writes back: a memory block's state, online
 * (experiment/background.c offlines one). */
static int restorable(const char *path, const char *value)
{
	unsigned long block;
	int end = 0;

	return sscanf(path, "/sys/devices/system/memory/memory%lu/state%n", &block, &end) == 1 &&
	       end > 0 && !path[end] && !strcmp(value, "online");
}

/* Write the value a record names back to its file when it reads
 * otherwise; one clause into said. */
static void restore(const char *line, struct strbuf *said)
{
	const char *sp = strchr(line, ' ');
	char *path, now[256];
	int fd;
	ssize_t len;

	if (!sp)
		return;
	path = xstrndup(line, (size_t)(sp - line));
	if (!restorable(path, sp + 1)) {
		strbuf_addf(said, "; not setting %s to '%s': a background load's record sets "
			    "only a memory block's state back to online", path, sp + 1);
		free(path);
		return;
	}
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	len = fd < 0 ? -1 : read(fd, now, sizeof(now) - 1);
	if (fd >= 0)
		close(fd);
	now[len > 0 ? len : 0] = '\0';
	now[strcspn(now, "\n")] = '\0';
	if (len > 0 && strcmp(now, sp + 1)) {
		fd = open(path, O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 && write(fd, sp + 1, strlen(sp + 1)) >= 0 && !close(fd))
			strbuf_addf(said, "; %s set back to '%s'", path, sp + 1);
		else
			strbuf_addf(said, "; cannot set %s back to '%s': %s", path, sp + 1,
				    strerror(errno));
	}
	free(path);
}

/* Reap a record (its text) left by a kbench that is gone, recorded in
 * boot (this boot's id): kill what is left of its group and write back
 * its file; say so into said. */
static void reap_one(const char *text, const char *boot, struct strbuf *said)
{
	struct strbuf f = STRBUF_INIT, what = STRBUF_INIT, kind = STRBUF_INIT;
	unsigned long long start;
	long pgid;
	int n, boxed;

	field(text, "what", &what);
	if (field(text, "kind", &kind))
		strbuf_addstr(&kind, "background");
	if (field(text, "pgid", &f) || (pgid = strtol(f.buf, NULL, 10)) <= 1)
		goto out;	/* not one of ours, or cut short while written */
	strbuf_reset(&f);
	start = field(text, "start", &f) ? 0 : strtoull(f.buf, NULL, 10);
	strbuf_reset(&f);
	if (field(text, "boot", &f) || !*boot || strcmp(f.buf, boot)) {
		strbuf_addf(said, "%s%s process group %ld (%s) was recorded in another boot "
			    "(or with no boot id): nothing killed", said->len ? "\n" : "",
			    kind.buf, pgid, what.buf);
		goto out;
	}
	if (!start) {
		strbuf_addf(said, "%s%s process group %ld (%s) was recorded with no start "
			    "time: nothing killed", said->len ? "\n" : "", kind.buf, pgid, what.buf);
		goto out;
	}
	{
		struct strbuf cg = STRBUF_INIT, mark = STRBUF_INIT;
		int has_cg = !field(text, "cgroup", &cg);
		int has_mark = !field(text, "marker", &mark);

		/* Its box first (the group and what left it), waiting until
		 * they are gone; then what is left of the group. */
		boxed = has_cg || has_mark ? cgroup_box_reap(has_cg ? cg.buf : NULL,
							 has_mark ? mark.buf : NULL) : 0;
		strbuf_release(&cg);
		strbuf_release(&mark);
	}
	n = kill_group((pid_t)pgid, start);
	if (n < 0 && !boxed) {
		strbuf_addf(said, "%sprocess group %ld is not the %s recorded (%s): "
			    "its leader started at another time; nothing killed",
			    said->len ? "\n" : "", pgid,
			    strcmp(kind.buf, "background") ? kind.buf : "background load", what.buf);
		goto out;
	}
	n = (n < 0 ? 0 : n) + boxed;
	strbuf_addf(said, "%skilled %d process%s of %s process group %ld (%s) "
		    "left by a kbench that is gone", said->len ? "\n" : "", n,
		    n == 1 ? "" : "es", kind.buf, pgid, what.buf);
	strbuf_reset(&f);
	if (!field(text, "restore", &f))
		restore(f.buf, said);
out:
	strbuf_release(&f);
	strbuf_release(&what);
	strbuf_release(&kind);
}

int leftover_reap(struct strbuf *said, struct strbuf *err)
{
	struct strbuf text = STRBUF_INIT;
	struct dirent *de;
	char boot[64];
	DIR *d;
	int reaped = 0, dirfd = hostlock_dir_open(0, err);

	if (dirfd == -2)
		return 0;
	if (dirfd < 0)
		return -1;
	d = fdopendir(dirfd);
	if (!d) {
		strbuf_addf(err, "cannot read the lock directory: %s", strerror(errno));
		close(dirfd);
		return -1;
	}
	hostlock_boot_id(boot, sizeof(boot));
	while ((de = readdir(d))) {
		char buf[RECORD_MAX];
		ssize_t len;
		int fd;

		if (strncmp(de->d_name, RECORD_PREFIX, strlen(RECORD_PREFIX)))
			continue;
		fd = hostlock_open_file(dirfd, de->d_name, O_RDWR, 0);
		if (fd < 0)
			continue;
		/* Held: its kbench still lives and stops it itself. */
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			continue;
		}
		strbuf_reset(&text);
		len = read_upto(fd, buf, sizeof(buf) - 1);
		if (len > 0)
			strbuf_add(&text, buf, (size_t)len);
		reap_one(text.buf, boot, said);
		unlinkat(dirfd, de->d_name, 0);
		close(fd);
		reaped++;
	}
	closedir(d);
	strbuf_release(&text);
	return reaped;
}
