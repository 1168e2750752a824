/* bundle_io: what writing and reading a bundle takes of SQLite that both
 * the runs' side (bundle.c) and the watch's (watch_bundle.c) use: a new
 * bundle file written whole from SQL, a table of an attached bundle
 * copied into the store, the files of a database removed. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "db/bundle_check.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int exec_on(sqlite3 *db, const char *name, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", name, msg ? msg : sqlite3_errmsg(db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

void store_remove_db_files(const char *path)
{
	static const char *const suffixes[] = { "", "-journal", "-wal", "-shm" };
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(suffixes) / sizeof(suffixes[0]); i++) {
		strbuf_reset(&sb);
		strbuf_addf(&sb, "%s%s", path, suffixes[i]);
		unlink(sb.buf);
	}
	strbuf_release(&sb);
}

/* "file:" URI of path with query (e.g. "mode=ro"), for a connection
 * opened with SQLITE_OPEN_URI. */
void bundle_file_uri(struct strbuf *uri, const char *path, const char *query)
{
	strbuf_addstr(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			strbuf_addch(uri, (char)*p);
		else
			strbuf_addf(uri, "%%%02X", *p);
	strbuf_addf(uri, "?%s", query);
}

int bundle_export_sql(struct store *s, const char *path, const char *sql)
{
	struct strbuf tmp = STRBUF_INIT, uri = STRBUF_INIT;
	struct store *fresh = NULL;
	sqlite3 *db = NULL;
	sqlite3_stmt *st_attach = NULL;
	struct stat st;
	mode_t mask;
	int fd, rc = -1, attach_rc;

	if (!lstat(path, &st))
		return error("'%s' already exists: export writes a new file", path);
	/* A new file beside the target, renamed into place when complete. */
	strbuf_addf(&tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		strbuf_reset(&tmp);
		goto out;
	}
	mask = umask(0);
	umask(mask);
	if (fchmod(fd, 0666 & ~mask))
		warning("cannot set the mode of '%s': %s", tmp.buf, strerror(errno));
	close(fd);
	/* The schema as a store gets it: every migration, this version. */
	if (store_open(tmp.buf, &fresh))
		goto out;
	store_close(fresh);
	/*
	 * The bundle's own connection writes it and reads the store, attached
	 * read-only: the store's connection is a reader's, and a file attached
	 * to it could not be written.
	 */
	if (sqlite3_open_v2(tmp.buf, &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_URI, NULL) !=
	    SQLITE_OK) {
		error("cannot open '%s': %s", tmp.buf, db ? sqlite3_errmsg(db) : "out of memory");
		goto out;
	}
	sqlite3_busy_timeout(db, s->busy_timeout_ms > INT_MAX ? INT_MAX : (int)s->busy_timeout_ms);
	if (exec_on(db, s->path, "PRAGMA journal_mode = DELETE"))
		goto out;
	/* A store its reader could only open as immutable (a read-only
	 * mount, a directory this user cannot write) is attached so too. */
	bundle_file_uri(&uri, s->path, s->immutable ? "mode=ro&immutable=1" : "mode=ro");
	if (sqlite3_prepare_v2(db, "ATTACH DATABASE ? AS store", -1, &st_attach, NULL) !=
	    SQLITE_OK) {
		error("%s: %s", s->path, sqlite3_errmsg(db));
		goto out;
	}
	store_bind_text(st_attach, 1, uri.buf);
	attach_rc = sqlite3_step(st_attach);
	sqlite3_finalize(st_attach);
	if (attach_rc != SQLITE_DONE) {
		error("%s: cannot read the store for the bundle: %s", s->path, sqlite3_errmsg(db));
		goto out;
	}
	if (exec_on(db, s->path, "BEGIN") || exec_on(db, s->path, sql) ||
	    exec_on(db, s->path, "COMMIT"))
		goto out;
	sqlite3_close(db);
	db = NULL;
	/* link() will not replace a file that appeared meanwhile. */
	if (link(tmp.buf, path)) {
		error("cannot create '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(db);	/* rolls back what was not committed */
	if (tmp.len)
		store_remove_db_files(tmp.buf);
	strbuf_release(&tmp);
	strbuf_release(&uri);
	return rc;
}

/* The columns of main.table as an INSERT list (into) and as what to
 * SELECT from the bundle's table aliased t (from): t.column, or the
 * expression repl gives for it (pairs of name and expression, NULL-ended;
 * a NULL expression leaves the column out). */
static int column_lists(struct store *s, const char *table, const char *const *repl,
			struct strbuf *into, struct strbuf *from)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	strbuf_addf(&sql, "PRAGMA main.table_info(\"%s\")", table);
	rc = store_prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 1);
		const char *expr = NULL;
		int replaced = 0;

		for (const char *const *r = repl; r && *r; r += 2)
			if (!strcmp(*r, col)) {
				replaced = 1;
				expr = r[1];
			}
		if (replaced && !expr)
			continue;
		strbuf_addf(into, "%s\"%s\"", into->len ? ", " : "", col);
		if (expr)
			strbuf_addf(from, "%s%s", from->len ? ", " : "", expr);
		else
			strbuf_addf(from, "%st.\"%s\"", from->len ? ", " : "", col);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the schema");
	return 0;
}

int bundle_copy_table(struct store *s, const char *table, const char *const *repl,
		      const char *tail)
{
	struct strbuf into = STRBUF_INIT, from = STRBUF_INIT, sql = STRBUF_INIT;
	int rc = -1;

	if (column_lists(s, table, repl, &into, &from))
		goto out;
	strbuf_addf(&sql, "INSERT INTO main.\"%s\"(%s) SELECT %s FROM bundle.\"%s\" t %s", table,
		    into.buf, from.buf, table, tail);
	rc = exec_on(s->db, s->path, sql.buf);
out:
	strbuf_release(&into);
	strbuf_release(&from);
	strbuf_release(&sql);
	return rc;
}
