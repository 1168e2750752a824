/* sql: the read-only SQL of kbench query. It opens a store's file by its
 * path, read-only, and runs the user's statements under an authorizer
 * that lets reads alone through, with limits on time, memory and rows. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "db/sql.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <limits.h>
#include <sqlite3.h>
#include <stdlib.h>
#include <string.h>

/* The pragmas that only read. Those of the first list take an argument
 * that names what to read (table_info(runs)); those of the second set
 * something when given a value, so they are read only without one. */
static const char *const reading_pragmas[] = {
	"collation_list", "compile_options", "database_list", "foreign_key_check",
	"foreign_key_list", "function_list", "index_info", "index_list", "index_xinfo",
	"integrity_check", "module_list", "pragma_list", "quick_check", "table_info",
	"table_list", "table_xinfo", NULL,
};
static const char *const value_pragmas[] = {
	"application_id", "data_version", "encoding", "freelist_count", "journal_mode",
	"page_count", "page_size", "schema_version", "user_version", NULL,
};

/* Functions query never calls: fts3_tokenizer() returns the address of a
 * tokenizer (and with two arguments would call one at an address given),
 * load_extension() runs code from a file. */
static const char *const refused_functions[] = {
	"fts3_tokenizer", "load_extension", NULL,
};

/* Why the authorizer refused a statement: its first refusal, or what it
 * let pass but noted (see guard_authorize). */
struct sql_guard {
	int denied;
	int noted;
	int function;		/* the refusal is of a function */
	struct strbuf why;
};

/* The tables that hold the schema. */
static int schema_table(const char *name)
{
	return name && (!strcmp(name, "sqlite_master") || !strcmp(name, "sqlite_temp_master") ||
			!strcmp(name, "sqlite_schema") || !strcmp(name, "sqlite_temp_schema"));
}

static int listed(const char *const *list, const char *name)
{
	for (; name && *list; list++)
		if (!strcmp(*list, name))
			return 1;
	return 0;
}

/* The authorizer: reading is allowed, everything else refused and said.
 * A change to the schema tables comes before the statement that makes it
 * (CREATE, DROP), and SQLite reports one for reading a pragma function
 * too: it is noted and let pass, for the statement's own action to be
 * refused by name, or sqlite3_stmt_readonly() to decide. */
static int guard_authorize(void *arg, int action, const char *a1, const char *a2,
			   const char *dbname, const char *trigger)
{
	struct sql_guard *g = arg;
	const char *what = NULL;

	if ((action == SQLITE_INSERT || action == SQLITE_UPDATE || action == SQLITE_DELETE) &&
	    schema_table(a1)) {
		if (!g->denied && !g->noted++)
			strbuf_addstr(&g->why, "change the schema");
		return SQLITE_OK;
	}
	switch (action) {
	case SQLITE_FUNCTION:
		if (!listed(refused_functions, a2))
			return SQLITE_OK;
		if (!g->denied)
			g->function = 1;
		what = "function";
		a1 = a2;
		break;
	case SQLITE_SELECT:
	case SQLITE_READ:
	case SQLITE_RECURSIVE:
		return SQLITE_OK;
	case SQLITE_PRAGMA:
		if (listed(reading_pragmas, a1) || (!a2 && listed(value_pragmas, a1)))
			return SQLITE_OK;
		what = a2 ? "set pragma" : "run pragma";
		break;
	case SQLITE_INSERT: what = "insert into table"; break;
	case SQLITE_UPDATE: what = "update table"; break;
	case SQLITE_DELETE: what = "delete from table"; break;
	case SQLITE_CREATE_INDEX:
	case SQLITE_CREATE_TEMP_INDEX: what = "create index"; break;
	case SQLITE_CREATE_TABLE:
	case SQLITE_CREATE_TEMP_TABLE: what = "create table"; break;
	case SQLITE_CREATE_TRIGGER:
	case SQLITE_CREATE_TEMP_TRIGGER: what = "create trigger"; break;
	case SQLITE_CREATE_VIEW:
	case SQLITE_CREATE_TEMP_VIEW: what = "create view"; break;
	case SQLITE_CREATE_VTABLE: what = "create virtual table"; break;
	case SQLITE_DROP_INDEX:
	case SQLITE_DROP_TEMP_INDEX: what = "drop index"; break;
	case SQLITE_DROP_TABLE:
	case SQLITE_DROP_TEMP_TABLE: what = "drop table"; break;
	case SQLITE_DROP_TRIGGER:
	case SQLITE_DROP_TEMP_TRIGGER: what = "drop trigger"; break;
	case SQLITE_DROP_VIEW:
	case SQLITE_DROP_TEMP_VIEW: what = "drop view"; break;
	case SQLITE_DROP_VTABLE: what = "drop virtual table"; break;
	case SQLITE_ALTER_TABLE: what = "alter table"; a1 = a2; break;
	case SQLITE_REINDEX: what = "reindex"; break;
	case SQLITE_ANALYZE: what = "analyze"; break;
	case SQLITE_ATTACH: what = "attach database"; break;
	case SQLITE_DETACH: what = "detach database"; break;
	case SQLITE_TRANSACTION: what = "begin or end a transaction"; a1 = NULL; break;
	case SQLITE_SAVEPOINT: what = "set a savepoint"; a1 = NULL; break;
	default: what = "do more than read"; a1 = NULL; break;
	}
	if (!g->denied++) {
		strbuf_reset(&g->why);
		strbuf_addstr(&g->why, what);
		if (a1 && *a1)
			strbuf_addf(&g->why, " '%s'", a1);
	}
	return SQLITE_DENY;
}

/* What bounds a query while it runs: the progress handler's deadline and
 * the row count, with the limits for the messages. */
struct sql_bounds {
	const struct store_sql_limits *lim;
	int64_t deadline_ns;	/* CLOCK_MONOTONIC; 0: none */
	int timed_out;
	int64_t rows;		/* rows returned, all statements */
};

/* The progress handler: non-zero interrupts the statement. */
static int sql_progress(void *arg)
{
	struct sql_bounds *b = arg;

	if (b->deadline_ns && clock_ns(CLOCK_MONOTONIC) >= b->deadline_ns)
		b->timed_out = 1;
	return b->timed_out;
}

/* Say why statement number stopped: a limit by name, else SQLite's words. */
static void statement_error(sqlite3 *db, const char *path, int number,
			    const struct sql_bounds *b)
{
	const struct store_sql_limits *l = b->lim;

	if (b->timed_out)
		error("query stopped: statement %d ran past the time limit of %lld ms "
		      "(--timeout)", number, (long long)l->timeout_ms);
	else if (sqlite3_errcode(db) == SQLITE_NOMEM)
		error("query stopped: statement %d needs more than the memory limit of "
		      "%lld MiB (--max-memory)", number, (long long)(l->heap_bytes >> 20));
	else if (sqlite3_errcode(db) == SQLITE_TOOBIG)
		error("query stopped: statement %d makes a value larger than %lld bytes "
		      "(a quarter of --max-memory)", number, (long long)(l->heap_bytes / 4));
	else
		error("%s: statement %d: %s", path, number, sqlite3_errmsg(db));
}

/* Step st to its end, its rows to sink. Returns 0, or -1 (printed). */
static int run_statement(sqlite3 *db, const char *path, sqlite3_stmt *st, int number,
			 struct sql_bounds *b, const struct store_sql_sink *sink, void *arg)
{
	int ncols = sqlite3_column_count(st), rc;
	const char **names = NULL;
	struct store_sql_value *values = NULL;

	if (ncols) {
		names = xcalloc((size_t)ncols, sizeof(*names));
		values = xcalloc((size_t)ncols, sizeof(*values));
		for (int c = 0; c < ncols; c++)
			names[c] = sqlite3_column_name(st, c);
		if (sink->begin(arg, number, ncols, names)) {
			rc = SQLITE_ABORT;
			goto out;
		}
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (b->lim->max_rows && ++b->rows > b->lim->max_rows) {
			error("query stopped: more than %lld rows (--max-rows)",
			      (long long)b->lim->max_rows);
			rc = SQLITE_ABORT;
			goto out;
		}
		for (int c = 0; c < ncols; c++) {
			struct store_sql_value *v = &values[c];

			*v = (struct store_sql_value){ .type = STORE_SQL_NULL };
			switch (sqlite3_column_type(st, c)) {
			case SQLITE_INTEGER:
				v->type = STORE_SQL_INTEGER;
				v->i = sqlite3_column_int64(st, c);
				break;
			case SQLITE_FLOAT:
				v->type = STORE_SQL_REAL;
				v->d = sqlite3_column_double(st, c);
				break;
			case SQLITE_TEXT:
			case SQLITE_BLOB:
				v->type = sqlite3_column_type(st, c) == SQLITE_TEXT ?
					STORE_SQL_TEXT : STORE_SQL_BLOB;
				v->text = (const char *)sqlite3_column_text(st, c);
				v->len = (size_t)sqlite3_column_bytes(st, c);
				if (!v->text)
					v->text = "";
				break;
			}
		}
		if (ncols && sink->row(arg, ncols, values)) {
			rc = SQLITE_ABORT;
			goto out;
		}
	}
	if (rc == SQLITE_DONE && ncols && sink->end(arg))
		rc = SQLITE_ABORT;
out:
	if (rc != SQLITE_DONE && rc != SQLITE_ABORT)
		statement_error(db, path, number, b);
	free(names);
	free(values);
	return rc == SQLITE_DONE ? 0 : -1;
}

int store_sql_query(const char *path, const char *sql, const struct store_sql_limits *lim,
		    const struct store_sql_sink *sink, void *arg)
{
	struct sql_guard guard = { .why = STRBUF_INIT };
	struct sql_bounds bounds = { .lim = lim };
	sqlite3_stmt **stmts = NULL;
	size_t n = 0, alloc = 0;
	struct store *s = NULL;
	sqlite3 *db = NULL;
	const char *tail = sql;
	sqlite3_int64 old_heap = sqlite3_hard_heap_limit64(-1);
	int rc = -1;

	/* The readers' open: missing files refused, another program's file
	 * refused, a store on a read-only mount or in a directory this user
	 * cannot write read all the same. */
	if (store_open_readonly(path, &s))
		goto out;
	db = s->db;
	sqlite3_extended_result_codes(db, 0);
	/* Belt and braces: the connection itself refuses to write. */
	if (sqlite3_exec(db, "PRAGMA query_only = 1", NULL, NULL, NULL) != SQLITE_OK) {
		error("%s: cannot make the connection read-only: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	/* Sorts and temporary tables in memory, under the heap limit, rather
	 * than in files that could fill the disk. */
	if (sqlite3_exec(db, "PRAGMA temp_store = MEMORY", NULL, NULL, NULL) != SQLITE_OK) {
		error("%s: cannot keep temporary data in memory: %s", path, sqlite3_errmsg(db));
		goto out;
	}
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_FTS3_TOKENIZER, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_LOAD_EXTENSION, 0, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	if (lim->heap_bytes > 0) {
		sqlite3_hard_heap_limit64(lim->heap_bytes);
		/* One value may take a quarter of it: zeroblob(1e9) is refused
		 * at once rather than after the allocation. */
		sqlite3_limit(db, SQLITE_LIMIT_LENGTH,
			      lim->heap_bytes / 4 > INT_MAX ? INT_MAX : (int)(lim->heap_bytes / 4));
	}
	if (lim->timeout_ms > 0) {
		bounds.deadline_ns = clock_ns(CLOCK_MONOTONIC) + lim->timeout_ms * 1000000;
		sqlite3_progress_handler(db, 1000, sql_progress, &bounds);
	}
	sqlite3_set_authorizer(db, guard_authorize, &guard);
	/* Check every statement before running any. */
	while (*tail) {
		sqlite3_stmt *st = NULL;
		int prc;

		guard.denied = guard.noted = guard.function = 0;
		strbuf_reset(&guard.why);
		prc = sqlite3_prepare_v2(db, tail, -1, &st, &tail);

		if (prc != SQLITE_OK && guard.denied && guard.function) {
			error("query does not allow %s (statement %zu): it reveals or runs code "
			      "at memory addresses", guard.why.buf, n + 1);
			goto out;
		}
		if (prc != SQLITE_OK && guard.denied) {
			error("query is read-only: statement %zu would %s", n + 1, guard.why.buf);
			goto out;
		}
		if (prc != SQLITE_OK) {
			error("%s: statement %zu: %s", path, n + 1, sqlite3_errmsg(db));
			goto out;
		}
		if (!st)
			continue;	/* blanks or a comment */
		ALLOC_GROW(stmts, n + 1, alloc);
		stmts[n++] = st;
		if (!sqlite3_stmt_readonly(st)) {
			error("query is read-only: statement %zu would %s", n,
			      guard.noted ? guard.why.buf : "write to the store");
			goto out;
		}
	}
	if (!n) {
		error("no SQL statement to run");
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (run_statement(db, path, stmts[i], (int)i + 1, &bounds, sink, arg))
			goto out;
	rc = 0;
out:
	for (size_t i = 0; i < n; i++)
		sqlite3_finalize(stmts[i]);
	free(stmts);
	strbuf_release(&guard.why);
	if (db) {
		sqlite3_set_authorizer(db, NULL, NULL);
		sqlite3_progress_handler(db, 0, NULL, NULL);
	}
	store_close(s);
	sqlite3_hard_heap_limit64(old_heap);
	return rc;
}
