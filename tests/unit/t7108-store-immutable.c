/* t7108-store-immutable: a store whose files are made immutable inside a
 * write transaction (after the look at its files that precedes each
 * one) fails the write as an I/O error; looked at again, it is said
 * damaged, naming the file, and is not closed: SQLite's checkpoint on
 * close would write the mapped index of an immutable file and die of
 * SIGBUS.
 * Covers: db/store.c db/store_watch.c */
#include "config.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <fcntl.h>
#include <linux/fs.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "t7108.XXXXXX";

/* Set or clear the immutable attribute of path. Return 0, or -1. */
static int set_immutable(const char *path, int on)
{
	int fd = open(path, O_RDONLY | O_NONBLOCK), flags, rc = -1;

	if (fd < 0)
		return -1;
	if (!ioctl(fd, FS_IOC_GETFLAGS, &flags)) {
		flags = on ? flags | FS_IMMUTABLE_FL : flags & ~FS_IMMUTABLE_FL;
		rc = ioctl(fd, FS_IOC_SETFLAGS, &flags);
	}
	close(fd);
	return rc;
}

static void set_all(const char *path, int on)
{
	static const char *const ends[] = { "", "-wal", "-shm" };
	char p[96];

	for (size_t i = 0; i < 3; i++) {
		snprintf(p, sizeof(p), "%s%s", path, ends[i]);
		set_immutable(p, on);
	}
}

/* In a child: open the store, write once, begin a write transaction
 * behind the store's back (as if the files changed just after its
 * look), make the files immutable, write and close. The child's stderr
 * goes to errpath; it exits 0 when the write failed as DAMAGED, 2 when
 * it failed otherwise, 3 when it did not fail. */
static pid_t child(const char *path, const char *errpath)
{
	pid_t pid = fork();

	if (pid == 0) {
		struct store *s;
		int fd = creat(errpath, 0644), rc;

		dup2(fd, 2);
		close(fd);
		if (store_open(path, &s) ||
		    store_exec(s, "CREATE TABLE t(x); INSERT INTO t VALUES (1)", "a table"))
			_exit(4);
		if (sqlite3_exec(s->db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			_exit(4);
		set_all(path, 1);
		rc = store_exec(s, "INSERT INTO t VALUES (zeroblob(100000)); COMMIT", "a row");
		rc = !rc ? 3 : store_last_error_kind(s) == STORE_ERROR_DAMAGED ? 0 : 2;
		store_close(s);
		_exit(rc);
	}
	return pid;
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	char path[64], errpath[64], probe[64];
	int fd, st;
	pid_t pid;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/k.db", dir);
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	snprintf(probe, sizeof(probe), "%s/probe", dir);
	fd = creat(probe, 0644);
	close(fd);
	if (set_immutable(probe, 1)) {
		skip("the immutable attribute cannot be set here (needs CAP_LINUX_IMMUTABLE and "
		     "ext4 or the like)");
		skip("the immutable attribute cannot be set here");
		skip("the immutable attribute cannot be set here");
	} else {
		set_immutable(probe, 0);
		pid = child(path, errpath);
		waitpid(pid, &st, 0);
		set_all(path, 0);
		ok(WIFEXITED(st), "the process is not killed by a signal (%s %d)",
		   WIFSIGNALED(st) ? "signal" : "exit",
		   WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		ok(WIFEXITED(st) && WEXITSTATUS(st) == 0,
		   "the write fails, and the store is found damaged (exit %d)",
		   WIFEXITED(st) ? WEXITSTATUS(st) : -1);
		strbuf_read_file(&err, errpath);
		strbuf_addf(&want, "kbench: a row in %s: disk I/O error\nkbench: database '%s' was "
			    "made immutable or append-only while it was open for writing: nothing "
			    "more can be written to it\n", path, path);
		ok(!strcmp(err.buf, want.buf), "it says what failed, then what became of the file");
		if (strcmp(err.buf, want.buf))
			diag("want: %sgot:  %s", want.buf, err.buf);
	}

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("cannot remove %s", dir);
	}
	strbuf_release(&err);
	strbuf_release(&want);
	return done_testing();
}
