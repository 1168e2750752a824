/* bundle: run bundles, SQLite files of the store's own schema that carry
 * runs between hosts (kbench export, kbench import). Export copies runs in
 * one read transaction; import works on a private copy of the file, checks
 * its schema and every value before a run of it joins the store, and adds
 * what the store lacks in one transaction. A bundle may come from anyone:
 * nothing in it is trusted before it is checked. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "db/bundle_check.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

const char *const store_run_tables[STORE_NRUN_TABLES] = {
	"samples", "monitor_values", "failures", "run_meta", "row_results",
};

/* The largest value a bundle may hold, in bytes (SQLite refuses to read a
 * larger one on the copy's connection). */
#define BUNDLE_MAX_VALUE (16 << 20)

struct bundle {
	char *path;	/* as given */
	char *name;	/* what messages call it: path, or the caller's name for it */
	char *copy;	/* the private copy checked and imported */
	sqlite3 *db;	/* on the copy */
};

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

static int attach(struct store *s, const char *path)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "ATTACH DATABASE ? AS bundle", &st))
		return -1;
	store_bind_text(st, 1, path);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot open the bundle");
	return 0;
}

/* ---- export ---- */

static int check_exportable(struct store *s, const int64_t *ids, size_t n, struct strbuf *list)
{
	for (size_t i = 0; i < n; i++) {
		struct run_info r;
		int running;

		if (store_get_run(s, ids[i], &r))
			return -1;
		running = !strcmp(r.status, "running");
		if (running)
			error("run @%lld '%s' is still running; export it when it has finished",
			      (long long)r.id, r.name);
		run_info_release(&r);
		if (running)
			return -1;
		strbuf_addf(list, "%s%lld", i ? "," : "", (long long)ids[i]);
	}
	return 0;
}

int store_export(struct store *s, const int64_t *run_ids, size_t n, const char *path)
{
	struct strbuf ids = STRBUF_INIT, sql = STRBUF_INIT;
	struct stat st;
	int rc = -1;

	if (!lstat(path, &st))
		return error("'%s' already exists: export writes a new file", path);
	if (check_exportable(s, run_ids, n, &ids))
		goto out;
	/* Both files have the same schema, columns in the same order. */
	strbuf_addf(&sql, "INSERT INTO main.machines SELECT * FROM store.machines WHERE id IN "
		    "(SELECT machine_id FROM store.runs WHERE id IN (%s)) ORDER BY id;"
		    "INSERT INTO main.runs SELECT * FROM store.runs WHERE id IN (%s) ORDER BY id;"
		    "UPDATE main.runs SET status = 'interrupted' WHERE status = 'running';",
		    ids.buf, ids.buf);
	for (size_t i = 0; i < STORE_NRUN_TABLES; i++)
		strbuf_addf(&sql, "INSERT INTO main.%s SELECT * FROM store.%s WHERE run_id IN (%s) "
			    "ORDER BY rowid;", store_run_tables[i], store_run_tables[i], ids.buf);
	rc = bundle_export_sql(s, path, sql.buf);
out:
	strbuf_release(&ids);
	strbuf_release(&sql);
	return rc;
}

/* ---- checking a bundle ---- */

static int bundle_error(const struct bundle *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static int bundle_error(const struct bundle *b, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	error("%s: %s", b->name, sb.buf);
	strbuf_release(&sb);
	return -1;
}

/* Why an SQLite call on the copy failed, as a bundle error. */
static int copy_error(const struct bundle *b, const char *what)
{
	int code = sqlite3_errcode(b->db);

	if (code == SQLITE_NOTADB)
		return bundle_error(b, "not a kbench bundle (not an SQLite file)");
	if (code == SQLITE_CORRUPT)
		return bundle_error(b, "corrupt (%s)", sqlite3_errmsg(b->db));
	if (code == SQLITE_TOOBIG)
		return bundle_error(b, "not a kbench bundle: a value is larger than %d bytes",
				    BUNDLE_MAX_VALUE);
	return bundle_error(b, "%s: %s", what, sqlite3_errmsg(b->db));
}

/* Copy the file given into a private file, page by page: what is checked
 * and imported cannot change behind our back, and the original is only
 * read. */
static int make_copy(struct bundle *b)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf uri = STRBUF_INIT;
	sqlite3 *src = NULL;
	sqlite3_backup *bk;
	struct stat st;
	int fd, rc = -1;

	if (stat(b->path, &st))
		return error("cannot open bundle '%s': %s", b->name, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return bundle_error(b, "not a kbench bundle (not a regular file)");
	{
		struct strbuf copy = STRBUF_INIT;

		strbuf_addf(&copy, "%s/kbench-import-XXXXXX", dir && *dir ? dir : "/tmp");
		b->copy = strbuf_detach(&copy);
	}
	fd = mkstemp(b->copy);
	if (fd < 0) {
		error("cannot create a file in '%s': %s", dir && *dir ? dir : "/tmp", strerror(errno));
		free(b->copy);
		b->copy = NULL;
		return -1;
	}
	close(fd);
	/* Read-only and immutable: no lock taken, no journal or WAL read or
	 * made beside it. */
	bundle_file_uri(&uri, b->path, "mode=ro&immutable=1");
	if (sqlite3_open_v2(uri.buf, &src, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, NULL) != SQLITE_OK) {
		bundle_error(b, "cannot open: %s", src ? sqlite3_errmsg(src) : "out of memory");
		goto out;
	}
	if (sqlite3_open_v2(b->copy, &b->db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		error("cannot open '%s': %s", b->copy, b->db ? sqlite3_errmsg(b->db) : "out of memory");
		goto out;
	}
	/* A scratch file: no journal, no waiting for the disk. */
	if (exec_on(b->db, b->copy, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF"))
		goto out;
	bk = sqlite3_backup_init(b->db, "main", src, "main");
	if (!bk) {
		copy_error(b, "cannot copy");
		goto out;
	}
	sqlite3_backup_step(bk, -1);
	if (sqlite3_backup_finish(bk) != SQLITE_OK) {
		copy_error(b, "cannot copy");
		goto out;
	}
	rc = 0;
out:
	sqlite3_close(src);
	strbuf_release(&uri);
	return rc;
}

/* sqlite_master's text of an object, comments dropped and blanks folded,
 * quoted literals and names kept as they are. */
static void normalise_sql(struct strbuf *out, const char *sql)
{
	int blank = 0;

	strbuf_reset(out);
	for (const char *p = sql; p && *p; p++) {
		if (*p == '\'' || *p == '"' || *p == '`' || *p == '[') {
			char close = *p == '[' ? ']' : *p;
			const char *q = strchr(p + 1, close);

			if (blank && out->len)
				strbuf_addch(out, ' ');
			blank = 0;
			q = q ? q : p + strlen(p) - 1;
			strbuf_add(out, p, (size_t)(q - p) + 1);
			p = q;
		} else if (p[0] == '-' && p[1] == '-') {
			while (p[1] && p[1] != '\n')
				p++;
			blank = 1;
		} else if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			blank = 1;
		} else {
			if (blank && out->len)
				strbuf_addch(out, ' ');
			blank = 0;
			strbuf_addch(out, *p);
		}
	}
}

struct schema_object {
	char *type, *name, *tbl_name, *sql;	/* sql normalised; "" for none */
};

struct schema {
	struct schema_object *o;
	size_t n, alloc;
};

static void schema_release(struct schema *sc)
{
	for (size_t i = 0; i < sc->n; i++) {
		free(sc->o[i].type);
		free(sc->o[i].name);
		free(sc->o[i].tbl_name);
		free(sc->o[i].sql);
	}
	free(sc->o);
}

/* Read sqlite_master of db; -1 when it cannot be read. */
static int schema_load(sqlite3 *db, struct schema *sc)
{
	struct strbuf norm = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc;

	memset(sc, 0, sizeof(*sc));
	if (sqlite3_prepare_v2(db, "SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY rowid",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct schema_object *o;

		ALLOC_GROW(sc->o, sc->n + 1, sc->alloc);
		o = &sc->o[sc->n++];
		o->type = store_column_dup(st, 0);
		o->name = store_column_dup(st, 1);
		o->tbl_name = store_column_dup(st, 2);
		normalise_sql(&norm, (const char *)sqlite3_column_text(st, 3));
		o->sql = xstrdup(norm.buf);
	}
	sqlite3_finalize(st);
	strbuf_release(&norm);
	return rc == SQLITE_DONE ? 0 : -1;
}

static const struct schema_object *schema_find(const struct schema *sc, const char *type,
					       const char *name)
{
	for (size_t i = 0; i < sc->n; i++)
		if (!strcmp(sc->o[i].type, type) && !strcmp(sc->o[i].name, name))
			return &sc->o[i];
	return NULL;
}

/* kbench's schema of version v, built in memory the first time a bundle
 * of that version is checked and kept for the others (a collect imports
 * many): into *out. Return 0, or -1 after printing why. */
static int reference_schema(int v, const struct schema **out)
{
	static struct schema built[STORE_SCHEMA_VERSION + 1];
	static int ready[STORE_SCHEMA_VERSION + 1];
	sqlite3 *ref = NULL;
	int rc = 0;

	if (!ready[v]) {
		if (sqlite3_open_v2(":memory:", &ref, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK ||
		    store_migrate_db(ref, "kbench's schema", 0, v) || schema_load(ref, &built[v])) {
			schema_release(&built[v]);
			memset(&built[v], 0, sizeof(built[v]));
			rc = error("BUG: cannot build kbench's schema version %d", v);
		}
		sqlite3_close(ref);
		ready[v] = !rc;
	}
	*out = &built[v];
	return rc;
}

/* sqlite_master of the copy must be kbench's schema of version v, object
 * for object: no trigger, view, table or index more or less. */
static int check_schema(struct bundle *b, int v)
{
	const struct schema *want;
	struct schema got = { .n = 0 };
	int rc = -1;

	if (reference_schema(v, &want))
		goto out;
	if (schema_load(b->db, &got)) {
		copy_error(b, "cannot read its schema");
		goto out;
	}
	for (size_t i = 0; i < got.n; i++) {
		const struct schema_object *g = &got.o[i], *w = schema_find(want, g->type, g->name);

		if (!w) {
			bundle_error(b, "not a kbench bundle: unexpected %s '%s'", g->type, g->name);
			goto out;
		}
		if (strcmp(w->tbl_name, g->tbl_name) || strcmp(w->sql, g->sql)) {
			bundle_error(b, "not a kbench bundle: %s '%s' is not kbench's", g->type, g->name);
			goto out;
		}
	}
	for (size_t i = 0; i < want->n; i++)
		if (!schema_find(&got, want->o[i].type, want->o[i].name)) {
			bundle_error(b, "not a kbench bundle: no %s '%s'", want->o[i].type,
				     want->o[i].name);
			goto out;
		}
	rc = 0;
out:
	schema_release(&got);
	return rc;
}

/* Run a query on the copy whose first row, if any, is a problem; the
 * row's columns 0 and 1 (as text) go into the message format (two %s). */
static int check_none(struct bundle *b, const char *sql, const char *fmt)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (sqlite3_prepare_v2(b->db, sql, -1, &st, NULL) != SQLITE_OK)
		return copy_error(b, "cannot check it");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		const unsigned char *c0 = sqlite3_column_text(st, 0);
		const unsigned char *c1 = sqlite3_column_text(st, 1);
		struct strbuf msg = STRBUF_INIT;

		strbuf_addf(&msg, fmt, c0 ? name_printable((const char *)c0) : "",
			    c1 ? name_printable((const char *)c1) : "");
		bundle_error(b, "not a kbench bundle: %s", msg.buf);
		strbuf_release(&msg);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return copy_error(b, "cannot check it");
	return 0;
}

static int is_word(char c)
{
	return c && strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_", c);
}

/* check with each X replaced by the quoted column name. */
static void add_check(struct strbuf *sql, const char *check, const char *column)
{
	for (const char *p = check; *p; p++)
		if (*p == 'X' && (p == check || !is_word(p[-1])) && !is_word(p[1]))
			strbuf_addf(sql, "\"%s\"", column);
		else
			strbuf_addch(sql, *p);
}

/* Every value of table must pass its column's check. */
static int check_values(struct bundle *b, const char *table)
{
	struct strbuf sql = STRBUF_INIT, cases = STRBUF_INIT, msg = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, ncols = 0;

	strbuf_addf(&sql, "PRAGMA table_info(\"%s\")", table);
	if (sqlite3_prepare_v2(b->db, sql.buf, -1, &st, NULL) != SQLITE_OK) {
		rc = copy_error(b, "cannot check it");
		goto out;
	}
	while (sqlite3_step(st) == SQLITE_ROW) {
		const char *col = (const char *)sqlite3_column_text(st, 1);

		strbuf_addstr(&cases, " WHEN NOT coalesce((");
		add_check(&cases, bundle_column_rule(table, col), col);
		strbuf_addf(&cases, "), 0) THEN '%s'", col);
		ncols++;
	}
	sqlite3_finalize(st);
	strbuf_reset(&sql);
	strbuf_addf(&sql, "SELECT bad, rowid FROM (SELECT rowid, CASE%s END AS bad FROM \"%s\") "
		    "WHERE bad IS NOT NULL LIMIT 1", cases.buf, table);
	strbuf_addf(&msg, "%s.%%s of row %%s is not a value kbench writes", table);
	rc = ncols ? check_none(b, sql.buf, msg.buf) : 0;
out:
	strbuf_release(&sql);
	strbuf_release(&cases);
	strbuf_release(&msg);
	return rc;
}

/* kbench_name_ok(X, KIND): 1 when X is a text that name_invalid() takes
 * as a name of KIND ('run', 'host', 'label'), else 0: the names a bundle
 * brings pass the check run -n does. */
static void sql_name_ok(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	const char *kind = (const char *)sqlite3_value_text(argv[1]);
	enum name_kind k = NAME_LABEL;
	const char *name;

	(void)argc;
	if (sqlite3_value_type(argv[0]) != SQLITE_TEXT || !kind) {
		sqlite3_result_int(ctx, 0);
		return;
	}
	if (!strcmp(kind, "run"))
		k = NAME_RUN;
	else if (!strcmp(kind, "host"))
		k = NAME_HOST;
	name = (const char *)sqlite3_value_text(argv[0]);
	sqlite3_result_int(ctx, name && !name_invalid(k, name,
						      (size_t)sqlite3_value_bytes(argv[0]), NULL));
}

static int check_copy(struct bundle *b)
{
	static const char *const tables[] = { "machines", "runs", "samples", "monitor_values",
					      "failures", "run_meta" };
	sqlite3_stmt *st = NULL;
	const char *verdict;
	int v = 0, rc;

	sqlite3_db_config(b->db, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_ENABLE_TRIGGER, 0, NULL);
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_ENABLE_VIEW, 0, NULL);
	sqlite3_db_config(b->db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_limit(b->db, SQLITE_LIMIT_LENGTH, BUNDLE_MAX_VALUE);
	if (sqlite3_create_function_v2(b->db, "kbench_name_ok", 2,
				       SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
				       NULL, sql_name_ok, NULL, NULL, NULL) != SQLITE_OK)
		return copy_error(b, "cannot check it");
	if (sqlite3_prepare_v2(b->db, "PRAGMA integrity_check(1)", -1, &st, NULL) != SQLITE_OK)
		return copy_error(b, "cannot check it");
	rc = sqlite3_step(st);
	verdict = rc == SQLITE_ROW ? (const char *)sqlite3_column_text(st, 0) : NULL;
	if (rc != SQLITE_ROW || !verdict || strcmp(verdict, "ok")) {
		if (verdict) {
			/* One line: "*** in database main ***\nPage 2: ..." */
			const char *nl = strrchr(verdict, '\n');

			bundle_error(b, "corrupt (%s)", nl ? nl + 1 : verdict);
		} else {
			copy_error(b, "cannot check it");
		}
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (sqlite3_prepare_v2(b->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return copy_error(b, "cannot read its schema version");
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (v <= 0)
		return bundle_error(b, "not a kbench bundle (no kbench schema version)");
	if (v > STORE_SCHEMA_VERSION)
		return bundle_error(b, "schema version %d is newer than this kbench understands "
				    "(%d); upgrade kbench", v, STORE_SCHEMA_VERSION);
	if (check_schema(b, v))
		return -1;
	if (v < STORE_SCHEMA_VERSION) {
		/* The copy, never the file given. */
		if (exec_on(b->db, b->name, "BEGIN") ||
		    store_migrate_db(b->db, b->name, v, STORE_SCHEMA_VERSION) ||
		    exec_on(b->db, b->name, "COMMIT") || check_schema(b, STORE_SCHEMA_VERSION))
			return -1;
	}
	if (check_none(b, "SELECT rootpage, name FROM sqlite_master WHERE rootpage > 0 "
		       "GROUP BY rootpage HAVING count(*) > 1",
		       "page %s is the root of '%s' and another object"))
		return -1;
	for (size_t i = 0; i < sizeof(tables) / sizeof(tables[0]); i++)
		if (check_values(b, tables[i]))
			return -1;
	if (check_none(b, "SELECT fingerprint, '' FROM machines GROUP BY fingerprint "
		       "HAVING count(*) > 1", "two machines have fingerprint '%s'%s") ||
	    check_none(b, "SELECT uuid, '' FROM runs GROUP BY uuid HAVING count(*) > 1",
		       "two runs have uuid '%s'%s") ||
	    check_none(b, "SELECT id, machine_id FROM runs WHERE machine_id NOT IN "
		       "(SELECT id FROM machines)", "run #%s names machine #%s, which it lacks") ||
	    check_none(b, "SELECT run_id, count(*) FROM samples GROUP BY run_id HAVING count(*) > "
		       BUNDLE_MAX_RUN_SAMPLES " LIMIT 1", "run #%s holds %s samples, more than "
		       "run stores (" BUNDLE_MAX_RUN_SAMPLES ")"))
		return -1;
	for (size_t i = 0; i < bundle_nwatch_tables; i++)
		if (check_values(b, bundle_watch_tables[i]))
			return -1;
	for (size_t i = 0; i < bundle_nwatch_checks; i++)
		if (check_none(b, bundle_watch_checks[i].sql, bundle_watch_checks[i].fmt))
			return -1;
	for (size_t i = 0; i < STORE_NRUN_TABLES; i++) {
		struct strbuf sql = STRBUF_INIT, msg = STRBUF_INIT;

		strbuf_addf(&sql, "SELECT rowid, run_id FROM %s WHERE run_id NOT IN "
			    "(SELECT id FROM runs)", store_run_tables[i]);
		strbuf_addf(&msg, "%s row %%s names run #%%s, which it lacks", store_run_tables[i]);
		rc = check_none(b, sql.buf, msg.buf);
		strbuf_release(&sql);
		strbuf_release(&msg);
		if (rc)
			return -1;
	}
	return 0;
}

int bundle_open_as(const char *path, const char *name, struct bundle **out)
{
	struct bundle *b = xcalloc(1, sizeof(*b));

	b->path = xstrdup(path);
	b->name = xstrdup(name ? name : path);
	*out = NULL;
	if (make_copy(b) || check_copy(b) ||
	    exec_on(b->db, b->name, "PRAGMA journal_mode = DELETE")) {
		bundle_close(b);
		return -1;
	}
	/* The store attaches the copy: this connection is done with it. */
	sqlite3_close(b->db);
	b->db = NULL;
	*out = b;
	return 0;
}

int bundle_open(const char *path, struct bundle **out)
{
	return bundle_open_as(path, NULL, out);
}

void bundle_close(struct bundle *b)
{
	if (!b)
		return;
	sqlite3_close(b->db);
	if (b->copy)
		store_remove_db_files(b->copy);
	free(b->copy);
	free(b->path);
	free(b->name);
	free(b);
}

/* ---- import ---- */

/* Runs of the bundle the store lacks, the bundle's machines they ran on. */
#define NEW_RUNS "(SELECT id FROM bundle.runs WHERE uuid NOT IN (SELECT uuid FROM main.runs))"
#define NEW_RUN_MACHINES "(SELECT machine_id FROM bundle.runs WHERE id IN " NEW_RUNS ")"

static int list_runs(struct store *s, int (*cb)(const struct bundle_run *r, void *arg),
		     void *arg, struct import_counts *c)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT r.uuid, r.name, m.hostname, r.started_at, "
		    "(SELECT count(*) FROM bundle.samples WHERE run_id = r.id AND warmup = 0), "
		    "EXISTS (SELECT 1 FROM main.runs WHERE uuid = r.uuid) "
		    "FROM bundle.runs r JOIN bundle.machines m ON m.id = r.machine_id ORDER BY r.id",
		    &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct bundle_run r = {
			.uuid = (const char *)sqlite3_column_text(st, 0),
			.name = (const char *)sqlite3_column_text(st, 1),
			.hostname = (const char *)sqlite3_column_text(st, 2),
			.started_at = (const char *)sqlite3_column_text(st, 3),
			.nsamples = sqlite3_column_int64(st, 4),
			.present = sqlite3_column_int(st, 5),
		};

		if (r.present) {
			c->present++;
		} else {
			c->runs++;
			c->samples += r.nsamples;
		}
		if (cb && cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the bundle");
	return 0;
}

/* A machine of the bundle and one of the store with one fingerprint must
 * be the same machine: the facts the fingerprint is made of agree. */
static int check_machines(struct store *s, const char *path, struct import_counts *c)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT b.fingerprint, b.hostname, m.hostname FROM bundle.machines b "
		    "JOIN main.machines m ON m.fingerprint = b.fingerprint WHERE b.id IN "
		    NEW_RUN_MACHINES " AND (b.hostname IS NOT m.hostname OR "
		    "b.cpu_model IS NOT m.cpu_model OR b.cpus IS NOT m.cpus OR "
		    "b.cores IS NOT m.cores OR b.packages IS NOT m.packages OR "
		    "b.numa_nodes IS NOT m.numa_nodes OR "
		    "b.mem_bytes >> 20 IS NOT m.mem_bytes >> 20) LIMIT 1", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		error("%s: machine fingerprint '%s' is host '%s' there but a different machine "
		      "('%s') in %s", path, sqlite3_column_text(st, 0), sqlite3_column_text(st, 1),
		      sqlite3_column_text(st, 2), s->path);
		sqlite3_finalize(st);
		return -1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the bundle");
	if (store_prepare(s, "SELECT count(*) FROM bundle.machines WHERE id IN " NEW_RUN_MACHINES
		    " AND fingerprint NOT IN (SELECT fingerprint FROM main.machines)", &st))
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		c->machines = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return 0;
}

static int add_runs(struct store *s)
{
	static const char *const machine_repl[] = { "id", NULL, NULL };
	static const char *const run_repl[] = {
		"id", NULL,
		"machine_id", "(SELECT m.id FROM main.machines m WHERE m.fingerprint = "
			      "(SELECT fingerprint FROM bundle.machines WHERE id = t.machine_id))",
		/* Nobody writes an imported run any more. */
		"status", "CASE t.status WHEN 'running' THEN 'interrupted' ELSE t.status END",
		NULL,
	};
	static const char *const child_repl[] = { "run_id", "i.new_id", NULL };

	if (exec_on(s->db, s->path,
		    "CREATE TEMP TABLE IF NOT EXISTS import_runs(bundle_id INTEGER PRIMARY KEY, "
		    "uuid TEXT, new_id INTEGER); DELETE FROM temp.import_runs;"
		    "INSERT INTO temp.import_runs(bundle_id, uuid) SELECT id, uuid FROM bundle.runs "
		    "WHERE id IN " NEW_RUNS) ||
	    bundle_copy_table(s, "machines", machine_repl,
		       "WHERE t.id IN " NEW_RUN_MACHINES " AND t.fingerprint NOT IN "
		       "(SELECT fingerprint FROM main.machines) ORDER BY t.id") ||
	    bundle_copy_table(s, "runs", run_repl,
		       "WHERE t.id IN (SELECT bundle_id FROM temp.import_runs) ORDER BY t.id") ||
	    exec_on(s->db, s->path, "UPDATE temp.import_runs SET new_id = "
		    "(SELECT id FROM main.runs r WHERE r.uuid = import_runs.uuid)"))
		return -1;
	for (size_t i = 0; i < STORE_NRUN_TABLES; i++)
		if (bundle_copy_table(s, store_run_tables[i], child_repl,
			       "JOIN temp.import_runs i ON i.bundle_id = t.run_id ORDER BY t.rowid"))
			return -1;
	/* Counted here, not taken from the bundle. */
	return exec_on(s->db, s->path, "UPDATE main.runs SET nsamples = "
		       STORE_COUNT_SAMPLES("runs.id") " WHERE id IN "
		       "(SELECT new_id FROM temp.import_runs)");
}

int store_import(struct store *s, struct bundle *b, int dry_run,
		 int (*cb)(const struct bundle_run *r, void *arg), void *arg,
		 struct import_counts *c)
{
	int rc = -1, in_tx = 0;

	memset(c, 0, sizeof(*c));
	if (attach(s, b->copy))
		return -1;
	if (exec_on(s->db, s->path, dry_run ? "BEGIN" : "BEGIN IMMEDIATE"))
		goto out;
	in_tx = 1;
	if (list_runs(s, cb, arg, c) || check_machines(s, b->name, c))
		goto out;
	if (!dry_run && c->runs && add_runs(s))
		goto out;
	if (bundle_import_watch(s, dry_run, &c->cycles))
		goto out;
	if (exec_on(s->db, s->path, dry_run ? "ROLLBACK" : "COMMIT"))
		goto out;
	in_tx = 0;
	rc = 0;
out:
	if (in_tx)
		exec_on(s->db, s->path, "ROLLBACK");
	exec_on(s->db, s->path, "DROP TABLE IF EXISTS temp.import_runs");
	exec_on(s->db, s->path, "DETACH DATABASE bundle");
	return rc;
}
