/* t7103-store-foreign: SQLite files of other programs, with or without a
 * schema version, in rollback or WAL mode, are refused as "not a kbench
 * database" by writers and readers alike, and are byte for byte what they
 * were afterwards: nothing (not even the switch to WAL) is written before
 * a file is known to be a kbench store. (Before, such a file was switched
 * to WAL before being refused, and one with user_version 1 gave "no such
 * table: runs" and an empty "kbench: " line.)
 * Covers: db/store.c */
#include "config.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "t7103.XXXXXX";

/* The whole file into sb; -1 if it cannot be read. */
static int slurp(const char *path, struct strbuf *sb)
{
	strbuf_reset(sb);
	return strbuf_read_file(sb, path) < 0 ? -1 : 0;
}

/* Make a foreign database at path with sql, through libsqlite3. */
static int make_foreign(const char *path, const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;
	int rc;

	unlink(path);
	if (sqlite3_open(path, &db) != SQLITE_OK)
		return -1;
	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc != SQLITE_OK)
		diag("cannot make %s: %s", path, msg);
	sqlite3_free(msg);
	sqlite3_close(db);
	return rc == SQLITE_OK ? 0 : -1;
}

/* Open path with opener (store_open or store_open_readonly), stderr going to
 * a file read back into err. Return what open returned. */
static int open_capturing(int (*opener)(const char *, struct store **), const char *path,
			  struct store **s, struct strbuf *err)
{
	char errpath[64];
	int fd, saved = dup(2), rc;

	snprintf(errpath, sizeof(errpath), "%s/stderr", dir);
	fd = creat(errpath, 0644);
	fflush(stderr);
	dup2(fd, 2);
	close(fd);
	rc = opener(path, s);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	slurp(errpath, err);
	return rc;
}

/* Both opens refuse the file at path, saying why, and leave it as it was. */
static void refused(const char *path, const char *what)
{
	static const struct {
		const char *name;
		int (*opener)(const char *, struct store **);
	} opens[] = {
		{ "kbench run", store_open },
		{ "a reader", store_open_readonly },
	};
	struct strbuf before = STRBUF_INIT, after = STRBUF_INIT, err = STRBUF_INIT;
	char wal[80];

	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (slurp(path, &before)) {
		ok(0, "%s: made", what);
		return;
	}
	for (size_t i = 0; i < sizeof(opens) / sizeof(opens[0]); i++) {
		struct store *s = NULL;
		int rc = open_capturing(opens[i].opener, path, &s, &err);

		ok(rc && !s && strstr(err.buf, "not a kbench database") &&
		   !strstr(err.buf, "kbench: \n"),
		   "%s: %s refuses it, saying so", what, opens[i].name);
		if (!rc || !strstr(err.buf, "not a kbench database"))
			diag("stderr: %s", err.buf);
		store_close(s);
		slurp(path, &after);
		ok(after.len == before.len && !memcmp(after.buf, before.buf, before.len),
		   "%s: and leaves it byte for byte as it was (%zu bytes, %zu after)", what,
		   before.len, after.len);
	}
	strbuf_release(&before);
	strbuf_release(&after);
	strbuf_release(&err);
}

int main(void)
{
	char path[64];
	struct strbuf sb = STRBUF_INIT;
	struct store *s;
	int journal_byte;

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	snprintf(path, sizeof(path), "%s/other.db", dir);

	make_foreign(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1);");
	refused(path, "a table, no schema version");

	make_foreign(path, "CREATE TABLE t(x); INSERT INTO t VALUES (1); PRAGMA user_version = 1;");
	refused(path, "a table and user_version 1");
	slurp(path, &sb);
	journal_byte = sb.len > 19 ? sb.buf[18] : -1;
	ok(journal_byte == 1, "and it is still in rollback mode (header byte 18: %d)", journal_byte);

	make_foreign(path, "CREATE TABLE runs(id INTEGER, what TEXT); PRAGMA user_version = 1;");
	refused(path, "a table named runs and user_version 1");

	make_foreign(path, "CREATE TABLE machines(a); CREATE TABLE runs(a); CREATE TABLE samples(a);"
		     "CREATE TABLE monitor_values(a); CREATE TABLE failures(a);"
		     "CREATE TABLE run_meta(a); PRAGMA user_version = 2;");
	refused(path, "kbench's table names with other columns, user_version 2");

	make_foreign(path, "CREATE TABLE t(x); PRAGMA application_id = 305419896;"
		     "PRAGMA user_version = 2;");
	refused(path, "another program's application id");

	make_foreign(path, "PRAGMA journal_mode = WAL; CREATE TABLE t(x); INSERT INTO t VALUES (1);"
		     "PRAGMA user_version = 1;");
	refused(path, "a WAL-mode file with user_version 1");

	/* What is kbench's is still taken: an SQLite file with nothing in it
	 * yet becomes a store. */
	make_foreign(path, "PRAGMA page_size = 4096; VACUUM;");
	ok(!store_open(path, &s), "an SQLite file without tables becomes a store");
	store_close(s);
	ok(!store_open_readonly(path, &s), "which then opens for reading");
	store_close(s);

	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("cannot remove %s", dir);
	}
	strbuf_release(&sb);
	return done_testing();
}
