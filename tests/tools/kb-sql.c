/* kb-sql: the CLI tests' window into a store. Runs the SQL given on the
 * command line against one SQLite file, read-only unless --write, and
 * prints each result row as the sqlite3 shell's list mode does. */
#include "config.h"

#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

static const char usage[] =
	"usage: kb-sql [--write] DB SQL\n"
	"Run SQL (one or more statements) on DB and print each row, its columns\n"
	"joined by '|' (NULL prints empty). DB is opened read-only; --write opens\n"
	"it read-write, creating it, to make test fixtures.\n";

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

int main(int argc, char **argv)
{
	int flags = SQLITE_OPEN_READONLY, rc = 1;
	const char *path, *sql;
	sqlite3 *db = NULL;

	if (argc == 4 && !strcmp(argv[1], "--write")) {
		flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
		argv++;
		argc--;
	}
	if (argc != 3 || argv[1][0] == '-') {
		fputs(usage, stderr);
		return 2;
	}
	path = argv[1];
	sql = argv[2];
	if (sqlite3_open_v2(path, &db, flags, NULL) != SQLITE_OK) {
		fprintf(stderr, "kb-sql: cannot open '%s': %s\n", path,
			db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	/* A test may read while kbench writes (WAL): wait for its lock. */
	sqlite3_busy_timeout(db, 10000);
	while (*sql) {
		sqlite3_stmt *st = NULL;
		const char *tail;

		if (sqlite3_prepare_v2(db, sql, -1, &st, &tail) != SQLITE_OK) {
			fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
			goto out;
		}
		if (st && print_rows(st)) {
			fprintf(stderr, "kb-sql: %s: %s\n", path, sqlite3_errmsg(db));
			sqlite3_finalize(st);
			goto out;
		}
		sqlite3_finalize(st);
		sql = tail;
	}
	rc = 0;
out:
	sqlite3_close(db);
	return rc;
}
