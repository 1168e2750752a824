/* kb-sql: the CLI tests' window into a store, without the sqlite3 shell.
 * Runs the SQL given on the command line against one SQLite file,
 * read-only unless --write, and prints each result row as the sqlite3
 * shell's list mode does; also checks a store's integrity, and holds a
 * writer's lock on it from another process (to make kbench's store fail). */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
	"usage: kb-sql [--write] DB SQL\n"
	"   or: kb-sql --integrity DB\n"
	"   or: kb-sql --lock DB SECONDS [SAMPLES]\n"
	"Run SQL (one or more statements) on DB and print each row, its columns\n"
	"joined by '|' (NULL prints empty). DB is opened read-only; --write opens\n"
	"it read-write, creating it, to make test fixtures.\n"
	"--integrity prints PRAGMA integrity_check and exits 0 when it is 'ok'.\n"
	"--lock waits until DB holds SAMPLES samples (default 0), takes the write\n"
	"lock, prints 'locked', holds it SECONDS (or until killed), lets it go.\n";

static void pause_s(double s)
{
	struct timespec ts = {
		.tv_sec = (time_t)s,
		.tv_nsec = (long)((s - (double)(time_t)s) * 1e9),
	};

	nanosleep(&ts, NULL);
}

/* Print every row of one statement; 0, or the SQLite error code. */
static int print_rows(sqlite3_stmt *st)
{
	int rc, ncol = sqlite3_column_count(st);

	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (int i = 0; i < ncol; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);

			printf("%s%s", i ? "|" : "", v ? (const char *)v : "");
		}
		putchar('\n');
	}
	return rc == SQLITE_DONE ? 0 : rc;
}

/* Run every statement of sql, printing its rows; 0, or 1 after printing
 * the error. */
static int run_sql(sqlite3 *db, const char *path, const char *sql)
{
	while (*sql) {
		sqlite3_stmt *st = NULL;
		const char *tail;

		if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
			fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
			return 1;
		}
		if (st && print_rows(st)) {
			fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
			sqlite3_finalize(st);
			return 1;
		}
		sqlite3_finalize(st);
		sql = tail;
	}
	return 0;
}

/* Print PRAGMA integrity_check; 0 when it says just "ok". */
static int integrity(sqlite3 *db, const char *path)
{
	sqlite3_stmt *st;
	int ok = 1, n = 0, rc;

	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK) {
		fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
		return 1;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(st, 0);

		printf("%s\n", line ? line : "");
		ok &= line && !strcmp(line, "ok");
		n++;
	}
	if (rc != SQLITE_DONE) {
		fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
		ok = 0;
	}
	sqlite3_finalize(st);
	return ok && n == 1 ? 0 : 1;
}

/* The count of samples into *n; an SQLite code. */
static int count_samples(sqlite3 *db, long *n)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM samples", -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*n = (long)sqlite3_column_int64(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

static int lock(sqlite3 *db, const char *path, double seconds, long samples)
{
	/* A read may fail for a moment while the writer works: give up only
	 * after 30 s of failures. */
	for (int failures = 0; failures < 3000;) {
		long have = 0;
		int rc = count_samples(db, &have);

		failures = rc == SQLITE_OK ? 0 : failures + 1;
		if (rc == SQLITE_OK && have >= samples)
			break;
		pause_s(0.01);
	}
	/* Also after 30 s of failed reads: the last one's error. */
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
		return 1;
	}
	printf("locked\n");
	fflush(stdout);
	pause_s(seconds);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	enum { SQL, INTEGRITY, LOCK } mode = SQL;
	int flags = SQLITE_OPEN_READONLY, rc = 1;
	const char *path;
	sqlite3 *db = NULL;

	if (argc == 4 && !strcmp(argv[1], "--write")) {
		flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
		argv++;
		argc--;
	} else if (argc == 3 && !strcmp(argv[1], "--integrity")) {
		mode = INTEGRITY;
		argv++;
		argc--;
	} else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "--lock")) {
		mode = LOCK;
		flags = SQLITE_OPEN_READWRITE;
		argv++;
		argc--;
	}
	if ((mode == SQL && argc != 3) || argv[1][0] == '-') {
		fputs(usage, stderr);
		return 2;
	}
	path = argv[1];
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		fprintf(stderr, "kb-sql: cannot open '%s': %s\n", path,
			db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	/* A test may read while kbench writes (WAL): wait for its lock. */
	sqlite3_busy_timeout(db, mode == SQL ? 10000 : 30000);
	switch (mode) {
	case SQL:
		rc = run_sql(db, path, argv[2]);
		break;
	case INTEGRITY:
		rc = integrity(db, path);
		break;
	case LOCK:
		rc = lock(db, path, atof(argv[2]), argc == 4 ? atol(argv[3]) : 0);
		break;
	}
out:
	sqlite3_close(db);
	return rc;
}
