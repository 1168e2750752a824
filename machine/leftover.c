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
	int fd;

	hostlock_dir(&path);
	if (mkdir(path.buf, 01777) == 0)
		chmod(path.buf, 01777);
	strbuf_addf(&path, "/" RECORD_PREFIX "%ld", (long)pgid);
	fd = open(path.buf, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || flock(fd, LOCK_EX | LOCK_NB)) {
		strbuf_addf(err, "cannot record background process group %ld in %s: %s",
			    (long)pgid, path.buf, strerror(errno));
		if (fd >= 0)
			close(fd);
		strbuf_release(&path);
		return -1;
	}
	strbuf_addf(&text, "pgid %ld\nstart %llu\nwhat %s\n", (long)pgid,
		    leftover_start_time(pgid), what);
	if (restore_path)
		strbuf_addf(&text, "restore %s %s\n", restore_path, restore_value);
	if (write_full(fd, text.buf, text.len)) {
		strbuf_addf(err, "cannot write %s: %s", path.buf, strerror(errno));
		unlink(path.buf);
		close(fd);
		strbuf_release(&path);
		strbuf_release(&text);
		return -1;
	}
	strbuf_release(&text);
	l->fd = fd;
	l->path = strbuf_detach(&path);
	return 0;
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

/* Kill the processes of group pgid started no earlier than start; return
 * how many were sent SIGKILL. */
static int kill_group(pid_t pgid, unsigned long long start)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	if (!d)
		return 0;
	while ((de = readdir(d))) {
		char *end;
		long pid = strtol(de->d_name, &end, 10);
		pid_t g;
		unsigned long long t;

		if (*end || pid <= 0 || proc_stat((pid_t)pid, &g, &t) || g != pgid || t < start)
			continue;
		if (!kill((pid_t)pid, SIGKILL))
			n++;
	}
	closedir(d);
	return n;
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
	fd = open(path, O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : read(fd, now, sizeof(now) - 1);
	if (fd >= 0)
		close(fd);
	now[len > 0 ? len : 0] = '\0';
	now[strcspn(now, "\n")] = '\0';
	if (len > 0 && strcmp(now, sp + 1)) {
		fd = open(path, O_WRONLY | O_CLOEXEC);
		if (fd >= 0 && write(fd, sp + 1, strlen(sp + 1)) >= 0 && !close(fd))
			strbuf_addf(said, "; %s set back to '%s'", path, sp + 1);
		else
			strbuf_addf(said, "; cannot set %s back to '%s': %s", path, sp + 1,
				    strerror(errno));
	}
	free(path);
}

int leftover_reap(struct strbuf *said, struct strbuf *err)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, text = STRBUF_INIT;
	struct strbuf f = STRBUF_INIT;
	struct dirent *de;
	DIR *d;
	int reaped = 0;

	hostlock_dir(&dir);
	d = opendir(dir.buf);
	if (!d) {
		strbuf_release(&dir);
		if (errno == ENOENT)
			return 0;
		strbuf_addf(err, "cannot read the lock directory: %s", strerror(errno));
		return -1;
	}
	while ((de = readdir(d))) {
		unsigned long long start;
		long pgid;
		int fd, n;
		ssize_t len;

		if (strncmp(de->d_name, RECORD_PREFIX, strlen(RECORD_PREFIX)))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir.buf, de->d_name);
		fd = open(path.buf, O_RDWR | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* Held: its kbench still lives and stops it itself. */
		if (flock(fd, LOCK_EX | LOCK_NB)) {
			close(fd);
			continue;
		}
		strbuf_reset(&text);
		{
			char buf[RECORD_MAX];

			len = read(fd, buf, sizeof(buf));
			if (len > 0)
				strbuf_add(&text, buf, (size_t)len);
		}
		strbuf_reset(&f);
		if (field(text.buf, "pgid", &f) || (pgid = strtol(f.buf, NULL, 10)) <= 1) {
			/* Not one of ours, or cut short while written. */
			unlink(path.buf);
			close(fd);
			continue;
		}
		strbuf_reset(&f);
		start = field(text.buf, "start", &f) ? 0 : strtoull(f.buf, NULL, 10);
		{
			struct strbuf cg = STRBUF_INIT, mark = STRBUF_INIT;
			int has_cg = !field(text.buf, "cgroup", &cg);
			int has_mark = !field(text.buf, "marker", &mark);

			/* Its box first (the group and what left it), waiting
			 * until they are gone; then what is left of the group. */
			n = has_cg || has_mark ? cgroup_box_reap(has_cg ? cg.buf : NULL,
								 has_mark ? mark.buf : NULL) : 0;
			n += kill_group((pid_t)pgid, start);
			strbuf_reset(&cg);
			if (field(text.buf, "kind", &cg))
				strbuf_addstr(&cg, "background");
			strbuf_reset(&f);
			field(text.buf, "what", &f);
			strbuf_addf(said, "%skilled %d process%s of %s process group %ld (%s) "
				    "left by a kbench that is gone", said->len ? "\n" : "", n,
				    n == 1 ? "" : "es", cg.buf, pgid, f.buf);
			strbuf_release(&cg);
			strbuf_release(&mark);
		}
		strbuf_reset(&f);
		if (!field(text.buf, "restore", &f))
			restore(f.buf, said);
		unlink(path.buf);
		close(fd);
		reaped++;
	}
	closedir(d);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&f);
	return reaped;
}
