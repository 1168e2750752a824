/* sqlite-tool: what the CLI tests need of a store without the sqlite3
 * shell: an integrity check, one value of a query, a statement, and a
 * writer's lock held from another process (to make kbench's store fail). */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char usage[] =
	"usage: sqlite-tool integrity DB      print PRAGMA integrity_check; exit 0 if ok\n"
	"   or: sqlite-tool value DB SQL      print column 0 of the first row\n"
	"   or: sqlite-tool exec DB SQL       run SQL\n"
	"   or: sqlite-tool lock DB SECONDS [SAMPLES]\n"
	"                                     once DB holds SAMPLES samples (default 0),\n"
	"                                     take the write lock, print 'locked', hold\n"
	"                                     it SECONDS (or until killed), let it go\n";

static void pause_s(double s)
{
	struct timespec ts = { .tv_sec = (time_t)s, .tv_nsec = (long)((s - (double)(time_t)s) * 1e9) };

	nanosleep(&ts, NULL);
}

/* Column 0 of the first row of sql as text, or NULL; *rc the step's code. */
static char *value(sqlite3 *db, const char *sql, int *rc)
{
	sqlite3_stmt *st;
	char *v = NULL;

	*rc = sqlite3_prepare_v2(db, sql, -1, &st, NULL);
	if (*rc != SQLITE_OK)
		return NULL;
	*rc = sqlite3_step(st);
	if (*rc == SQLITE_ROW) {
		const unsigned char *t = sqlite3_column_text(st, 0);

		v = strdup(t ? (const char *)t : "");
		*rc = SQLITE_OK;
	} else if (*rc == SQLITE_DONE) {
		*rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return v;
}

static int integrity(sqlite3 *db)
{
	sqlite3_stmt *st;
	int ok = 1, n = 0;

	if (sqlite3_prepare_v2(db, "PRAGMA integrity_check", -1, &st, NULL) != SQLITE_OK)
		return 1;
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *line = (const char *)sqlite3_column_text(st, 0);

		printf("%s\n", line);
		ok &= !strcmp(line, "ok");
		n++;
	}
	sqlite3_finalize(st);
	return ok && n == 1 ? 0 : 1;
}

static int lock(sqlite3 *db, double seconds, long samples)
{
	/* A read may fail for a moment while the writer works: give up only
	 * after 30 s of failures. */
	for (int failures = 0; failures < 3000;) {
		int rc;
		char *n = value(db, "SELECT count(*) FROM samples", &rc);
		long have = n ? atol(n) : 0;

		free(n);
		failures = rc == SQLITE_OK ? 0 : failures + 1;
		if (rc == SQLITE_OK && have >= samples)
			break;
		pause_s(0.01);
	}
	if (sqlite3_exec(db, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return 1;	/* also after 30 s of failed reads: the last one's error */
	printf("locked\n");
	fflush(stdout);
	pause_s(seconds);
	sqlite3_exec(db, "ROLLBACK", NULL, NULL, NULL);
	return 0;
}

int main(int argc, char **argv)
{
	sqlite3 *db = NULL;
	int rc = 2;

	if (argc < 3) {
		fputs(usage, stderr);
		return 2;
	}
	if (sqlite3_open_v2(argv[2], &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		fprintf(stderr, "sqlite-tool: %s: %s\n", argv[2], sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_busy_timeout(db, 30000);
	if (!strcmp(argv[1], "integrity") && argc == 3) {
		rc = integrity(db);
	} else if (!strcmp(argv[1], "value") && argc == 4) {
		int step;
		char *v = value(db, argv[3], &step);

		if (v)
			printf("%s\n", v);
		free(v);
		rc = step == SQLITE_OK ? 0 : 1;
	} else if (!strcmp(argv[1], "exec") && argc == 4) {
		rc = sqlite3_exec(db, argv[3], NULL, NULL, NULL) == SQLITE_OK ? 0 : 1;
	} else if (!strcmp(argv[1], "lock") && (argc == 4 || argc == 5)) {
		rc = lock(db, atof(argv[3]), argc == 5 ? atol(argv[4]) : 0);
	} else {
		fputs(usage, stderr);
		goto out;
	}
	if (rc == 1)
		fprintf(stderr, "sqlite-tool: %s: %s\n", argv[2], sqlite3_errmsg(db));
out:
	sqlite3_close(db);
	return rc;
}
