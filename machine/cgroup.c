/* cgroup: the boxes kbench keeps the processes it starts beside its work
 * in, and the killing of them (machine/cgroup.h). */
#include "config.h"
#include "machine/cgroup.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* The most of a process's environment searched for a marker. */
#define ENVIRON_MAX (256 * 1024)

/* Where cgroup2 is mounted, into out; -1 when it is not. */
static int cgroup2_mount(struct strbuf *out)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int rc = -1;

	while (f && rc && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - cgroup2 ");
		char *p = line;

		if (!dash)
			continue;
		/* ID PARENT MAJ:MIN ROOT MOUNTPOINT ... */
		for (int i = 0; i < 4 && p; i++) {
			p = strchr(p, ' ');
			p = p ? p + 1 : NULL;
		}
		if (!p || p > dash)
			continue;
		strbuf_add(out, p, strcspn(p, " "));
		rc = 0;
	}
	if (f)
		fclose(f);
	return rc;
}

/* The directory kbench's boxes are made in (CGROUP2/kbench) into out;
 * -1 when there is no cgroup2. */
static int boxes_dir(struct strbuf *out)
{
	if (cgroup2_mount(out))
		return -1;
	strbuf_addstr(out, "/kbench");
	return 0;
}

void cgroup_box_open(struct cgroup_box *b, const char *kind, struct strbuf *why)
{
	static unsigned serial;
	struct strbuf sb = STRBUF_INIT;
	struct stat st;

	strbuf_addf(&sb, "%s.%ld.%u", kind, (long)getpid(), serial++);
	b->name = strbuf_detach(&sb);
	strbuf_addf(&sb, CGROUP_MARKER "=%s", b->name);
	b->marker = strbuf_detach(&sb);
	b->dir = NULL;
	if (boxes_dir(&sb)) {
		if (why)
			strbuf_addstr(why, "cgroup2 is not mounted");
		goto out;
	}
	if (mkdir(sb.buf, 0755) && errno != EEXIST) {
		if (why)
			strbuf_addf(why, "cannot make %s: %s", sb.buf, strerror(errno));
		goto out;
	}
	/* Only a directory of kbench's own user holds its boxes. */
	if (lstat(sb.buf, &st) || !S_ISDIR(st.st_mode) || st.st_uid != geteuid() ||
	    (st.st_mode & 022)) {
		if (why)
			strbuf_addf(why, "%s is not a directory of this user's, writable by it "
				    "alone", sb.buf);
		goto out;
	}
	strbuf_addf(&sb, "/%s", b->name);
	if (mkdir(sb.buf, 0755)) {
		if (why)
			strbuf_addf(why, "cannot make %s: %s", sb.buf, strerror(errno));
		goto out;
	}
	b->dir = strbuf_detach(&sb);
out:
	strbuf_release(&sb);
}

/* Whether process pid is kbench's own user's: another user's process
 * can carry any environment, the marker too, and is never killed for
 * it. */
static int own_process(long pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%ld", pid);
	return !stat(path, &st) && st.st_uid == geteuid();
}

/* Whether the environment of process pid holds marker as one entry. */
static int has_marker(long pid, const char *marker)
{
	struct strbuf sb = STRBUF_INIT;
	char path[64], buf[8192];
	size_t n = strlen(marker);
	ssize_t len;
	int fd, yes = 0;

	snprintf(path, sizeof(path), "/proc/%ld/environ", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	while (sb.len < ENVIRON_MAX && (len = read(fd, buf, sizeof(buf))) > 0)
		strbuf_add(&sb, buf, (size_t)len);
	close(fd);
	for (size_t at = 0; at < sb.len && !yes; at += strlen(sb.buf + at) + 1)
		yes = !strncmp(sb.buf + at, marker, n) && sb.buf[at + n] == '\0';
	strbuf_release(&sb);
	return yes;
}

/* The processes of the box: those of the cgroup dir (NULL: none) and
 * those that carry marker (NULL: none), but keep and kbench itself,
 * into *pids; return how many. */
static size_t members(const char *dir, const char *marker, pid_t keep, pid_t **pids,
		      size_t *alloc)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n = 0;

	if (dir) {
		strbuf_addf(&sb, "%s/cgroup.procs", dir);
		{
			struct strbuf list = STRBUF_INIT;

			if (!strbuf_read_file(&list, sb.buf))
				for (char *p = list.buf, *end; *p; p = end) {
					long pid = strtol(p, &end, 10);

					if (end == p)
						break;
					if (pid > 0 && pid != keep && pid != getpid()) {
						ALLOC_GROW(*pids, n + 1, *alloc);
						(*pids)[n++] = (pid_t)pid;
					}
				}
			strbuf_release(&list);
		}
	}
	if (marker) {
		DIR *d = opendir("/proc");
		struct dirent *de;

		while (d && (de = readdir(d))) {
			char *end;
			long pid = strtol(de->d_name, &end, 10);

			if (*end || pid <= 0 || pid == keep || pid == getpid() ||
			    !own_process(pid) || !has_marker(pid, marker))
				continue;
			ALLOC_GROW(*pids, n + 1, *alloc);
			(*pids)[n++] = (pid_t)pid;
		}
		if (d)
			closedir(d);
	}
	strbuf_release(&sb);
	return n;
}

/* Kill what dir and marker hold until nothing is left or the bound
 * passes; return how many processes were sent SIGKILL. */
static int kill_members(const char *dir, const char *marker, pid_t keep)
{
	int64_t until = clock_ns(CLOCK_MONOTONIC) + (int64_t)(CGROUP_KILL_WAIT_S * 1e9);
	pid_t *pids = NULL, *killed = NULL;
	size_t alloc = 0, kalloc = 0, nkilled = 0;

	for (;;) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		size_t n = members(dir, marker, keep, &pids, &alloc);

		if (!n || clock_ns(CLOCK_MONOTONIC) > until)
			break;
		for (size_t i = 0; i < n; i++) {
			size_t k;

			if (kill(pids[i], SIGKILL))
				continue;
			for (k = 0; k < nkilled && killed[k] != pids[i]; k++)
				;
			if (k == nkilled) {
				ALLOC_GROW(killed, nkilled + 1, kalloc);
				killed[nkilled++] = pids[i];
			}
		}
		nanosleep(&ts, NULL);
		/* Those kbench reaps (it is the reaper of what its children
		 * leave) are gone once reaped. */
		for (size_t i = 0; i < nkilled; i++)
			waitpid(killed[i], NULL, WNOHANG);
	}
	/* Gone from the box, a process may not be a zombie yet: a moment
	 * more for each of kbench's own, so that none is left unreaped. */
	for (size_t i = 0; i < nkilled; i++)
		for (int k = 0; k < 20 && waitpid(killed[i], NULL, WNOHANG) == 0; k++) {
			struct timespec ts = { 0, 5 * 1000 * 1000 };

			nanosleep(&ts, NULL);
		}
	free(pids);
	free(killed);
	return (int)nkilled;
}

int cgroup_box_kill(const struct cgroup_box *b, pid_t keep)
{
	if (!b->marker)
		return 0;
	return kill_members(b->dir, b->marker, keep);
}

/* Remove the cgroup dir, emptied: within the bound, as its last
 * processes are freed. */
static void remove_dir(const char *dir)
{
	for (int i = 0; i < 200 && rmdir(dir) && errno == EBUSY; i++) {
		struct timespec ts = { 0, 10 * 1000 * 1000 };

		nanosleep(&ts, NULL);
	}
}

void cgroup_box_close(struct cgroup_box *b)
{
	if (b->marker)
		cgroup_box_kill(b, 0);
	if (b->dir)
		remove_dir(b->dir);
	free(b->name);
	free(b->dir);
	free(b->marker);
	b->name = b->dir = b->marker = NULL;
}

int cgroup_box_reap(const char *dir, const char *marker)
{
	struct strbuf boxes = STRBUF_INIT;
	const char *name;
	int n;

	if (dir && (boxes_dir(&boxes) || strncmp(dir, boxes.buf, boxes.len) ||
		    dir[boxes.len] != '/' || !*(name = dir + boxes.len + 1) ||
		    strchr(name, '/') || *name == '.'))
		dir = NULL;
	if (marker && (strncmp(marker, CGROUP_MARKER "=", strlen(CGROUP_MARKER) + 1) ||
		       !marker[strlen(CGROUP_MARKER) + 1]))
		marker = NULL;
	n = dir || marker ? kill_members(dir, marker, 0) : 0;
	if (dir)
		remove_dir(dir);
	strbuf_release(&boxes);
	return n;
}
