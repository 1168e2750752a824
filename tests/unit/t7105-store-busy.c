/* t7105-store-busy: a store locked by another process is waited for, with
 * backoff, up to KBENCH_BUSY_TIMEOUT_MS, and a sample stored as soon as
 * the lock is free; past the timeout, or on a full database or a
 * read-only store, the write fails with a message naming the database and
 * the sample, and store_last_error_kind() says BUSY, FULL or IO.
 * Covers: db/store.c */
#include "config.h"
#include "db/internal.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "tests/tap.h"

#include <fcntl.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static char dir[] = "t7105.XXXXXX";

static int begin(struct store *s, int64_t *id)
{
	struct machine_info m = { .hostname = "h", .cpu_model = "cpu", .cpus = 2, .cores = 2,
				  .packages = 1, .numa_nodes = 1, .mem_bytes = 1 << 30,
				  .topology_xml = "", .fingerprint = "fp1" };
	struct kernel_info k = { .release = "6.18.0", .version = "#1", .cmdline = "quiet" };
	struct run_record r = { .uuid = "aaaaaaaa-0000-4000-8000-000000000001", .name = "busy",
				.config_name = "quick", .config_text = "[hackbench-x]\n",
				.kbench_version = "t", .started_at = "2026-11-29T00:00:00Z" };

	return store_begin_run(s, &m, &k, &r, id);
}

/* Store sample `iteration` of [hackbench-x] row 4 (with a long flag when
 * big, to fill pages), stderr going into err. Return what the store did. */
static int add_sample(struct store *s, int64_t id, int iteration, int big, struct strbuf *err)
{
	static char flag[8192];
	struct sample_record rec = { .row = "4", .value = 0.5, .unit = "s" };
	struct sample_set set = { .section = "hackbench-x", .workload = "hackbench",
				  .iteration = iteration, .started_ns = iteration,
				  .samples = &rec, .nsamples = 1 };
	char errpath[64];
	int fd, saved = dup(2), rc;

	memset(flag, 'x', sizeof(flag) - 1);
	if (big)
		set.flag = flag;
	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	fd = creat(errpath, 0644);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	rc = store_add_sample_set(s, id, &set);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	strbuf_reset(err);
	strbuf_read_file(err, errpath);
	return rc;
}

/* A child that takes the write lock of path, says so on fd, holds it for
 * hold_ms and lets go. */
static pid_t hold_lock(const char *path, int hold_ms, int *ready_fd)
{
	int p[2];
	pid_t pid;

	if (pipe(p))
		return -1;
	pid = fork();
	if (pid == 0) {
		sqlite3 *db;

		close(p[0]);
		if (sqlite3_open(path, &db) != SQLITE_OK ||
		    sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
			_exit(1);
		if (write(p[1], "x", 1) != 1)
			_exit(1);
		usleep((useconds_t)hold_ms * 1000);
		sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);
		sqlite3_close(db);
		_exit(0);
	}
	close(p[1]);
	*ready_fd = p[0];
	return pid;
}

static int wait_ready(int fd)
{
	char c;
	int rc = read(fd, &c, 1) == 1 ? 0 : -1;

	close(fd);
	return rc;
}

int main(void)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	char path[64];
	struct store *s = NULL, *r = NULL;
	int64_t id, t0, waited_ms;
	pid_t pid;
	int fd, st, rc;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/k.db", dir);

	setenv("KBENCH_BUSY_TIMEOUT_MS", "ten", 1);
	ok(store_open(path, &s) && !s, "an invalid KBENCH_BUSY_TIMEOUT_MS is refused");

	setenv("KBENCH_BUSY_TIMEOUT_MS", "20000", 1);
	if (!ok(!store_open(path, &s) && !begin(s, &id), "a store and a run"))
		return done_testing();
	ok(store_last_error_kind(s) == STORE_ERROR_NONE, "no error to begin with");

	/* Locked for 0.5 s out of a 20 s timeout: waited for, then stored. */
	pid = hold_lock(path, 500, &fd);
	if (pid > 0 && !wait_ready(fd)) {
		t0 = clock_ns(CLOCK_MONOTONIC);
		rc = add_sample(s, id, 1, 0, &err);
		waited_ms = (clock_ns(CLOCK_MONOTONIC) - t0) / 1000000;
		ok(!rc, "a sample waits for a lock held 0.5 s and is stored (after %lld ms)",
		   (long long)waited_ms);
		ok(waited_ms >= 300, "it did wait for the lock (%lld ms)", (long long)waited_ms);
		if (rc)
			diag("stderr: %s", err.buf);
	} else {
		ok(0, "a child holds the lock");
	}
	waitpid(pid, &st, 0);
	store_close(s);

	/* Locked for 3 s out of a 0.3 s timeout: a named failure, kind BUSY. */
	setenv("KBENCH_BUSY_TIMEOUT_MS", "300", 1);
	if (store_open(path, &s))
		return done_testing();
	pid = hold_lock(path, 3000, &fd);
	if (pid > 0 && !wait_ready(fd)) {
		t0 = clock_ns(CLOCK_MONOTONIC);
		rc = add_sample(s, id, 3, 0, &err);
		waited_ms = (clock_ns(CLOCK_MONOTONIC) - t0) / 1000000;
		ok(rc && store_last_error_kind(s) == STORE_ERROR_BUSY,
		   "past KBENCH_BUSY_TIMEOUT_MS the sample fails as busy (kind %d)",
		   store_last_error_kind(s));
		ok(waited_ms >= 250 && waited_ms < 2500, "after about the timeout (%lld ms)",
		   (long long)waited_ms);
		strbuf_addf(&want, "kbench: cannot store sample 3 of [hackbench-x] row 4 in %s: "
			    "database is locked\n", path);
		ok(!strcmp(err.buf, want.buf), "the message names the sample and the database");
		if (strcmp(err.buf, want.buf))
			diag("want: %sgot:  %s", want.buf, err.buf);
	} else {
		ok(0, "a child holds the lock");
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);

	/* A full database (its size limit reached): kind FULL, nothing half
	 * stored. */
	sqlite3_exec(s->db, "PRAGMA max_page_count = 1", NULL, NULL, NULL);
	rc = 0;
	for (int i = 10; i < 200 && !rc; i++)
		rc = add_sample(s, id, i, 1, &err);
	ok(rc && store_last_error_kind(s) == STORE_ERROR_FULL,
	   "a full database fails as full (kind %d)", store_last_error_kind(s));
	ok(strstr(err.buf, "in t7105.") && strstr(err.buf, "full"),
	   "the message names the database and says it is full");
	if (!strstr(err.buf, "full"))
		diag("stderr: %s", err.buf);
	store_close(s);

	/* A store opened read-only cannot be written: kind IO. */
	if (!store_open_readonly(path, &r)) {
		rc = add_sample(r, id, 500, 0, &err);
		ok(rc && store_last_error_kind(r) == STORE_ERROR_IO,
		   "a write through a read-only store fails as I/O (kind %d)",
		   store_last_error_kind(r));
		store_close(r);
	} else {
		ok(0, "the store opens read-only");
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
