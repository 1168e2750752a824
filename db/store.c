/* store: the SQLite results database: open (looking before writing, and
 * read-only for readers), migrate (schema in schema.sql, migrations below)
 * under the write lock, and insert; the read paths are in query.c. Expects
 * a few writers (kbench run) and any number of readers; WAL keeps readers
 * from blocking writers. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char store_schema_v1[];
extern const char store_migration_v2[];
extern const char store_migration_v3[];

/* migrations[v] takes a database from user_version v to v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[0] = store_schema_v1,
	[1] = store_migration_v2,
	[2] = store_migration_v3,
};
#define NMIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

static const char *const monitor_kind_names[MONITOR_NKINDS] = {
	[MONITOR_KIND_DELTA] = "delta",
	[MONITOR_KIND_MAX] = "max",
	[MONITOR_KIND_FRACTION] = "fraction",
	[MONITOR_KIND_BEFORE] = "before",
	[MONITOR_KIND_AFTER] = "after",
};

const char *monitor_kind_name(enum monitor_kind kind)
{
	return (unsigned)kind < MONITOR_NKINDS ? monitor_kind_names[kind] : NULL;
}

const char *store_path(const struct store *s)
{
	return s->path;
}

int store_db_error(struct store *s, const char *what)
{
	return error("%s: %s: %s", s->path, what, sqlite3_errmsg(s->db));
}

void store_default_path(struct strbuf *sb)
{
	const char *env = getenv("KBENCH_DB");
	const char *xdg = getenv("XDG_DATA_HOME");
	const char *home = getenv("HOME");

	if (env && *env) {
		strbuf_addstr(sb, env);
		return;
	}
	if (xdg && *xdg)
		strbuf_addf(sb, "%s/kbench/kbench.db", xdg);
	else
		strbuf_addf(sb, "%s/.local/share/kbench/kbench.db", home && *home ? home : ".");
}

/* mkdir -p of the directory holding path. */
static int make_parent_dirs(const char *path)
{
	char *dup = xstrdup(path);
	int rc = 0;

	for (char *p = dup + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dup, 0755) && errno != EEXIST) {
			rc = error("cannot create directory '%s': %s", dup, strerror(errno));
			break;
		}
		*p = '/';
	}
	free(dup);
	return rc;
}

static int exec_sql(struct store *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		error("%s: %s", s->path, msg ? msg : sqlite3_errmsg(s->db));
		sqlite3_free(msg);
		return -1;
	}
	return 0;
}

static struct store *store_alloc(const char *path)
{
	struct store *s = xcalloc(1, sizeof(*s));

	s->path = xstrdup(path);
	return s;
}

/* Open a connection to name (the path, or a file: URI with flags
 * SQLITE_OPEN_URI) into s->db. Return 0, or -1 after printing why. */
static int open_db(struct store *s, const char *name, int flags)
{
	int rc = sqlite3_open_v2(name, &s->db, flags, NULL);

	if (rc != SQLITE_OK) {
		error("cannot open database '%s': %s", s->path,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		return -1;
	}
	sqlite3_busy_timeout(s->db, 10000);
	sqlite3_extended_result_codes(s->db, 0);
	return 0;
}

static void close_db(struct store *s)
{
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_monitor);
	s->ins_sample = s->ins_monitor = NULL;
	if (s->db)
		sqlite3_close(s->db);
	s->db = NULL;
}

/* An integer PRAGMA (user_version, application_id) into *v; return the
 * SQLite result code. */
static int pragma_int(struct store *s, const char *sql, int *v)
{
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*v = sqlite3_column_int(st, 0);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Whether the tables and key columns of a kbench store are there: a file
 * with a schema version but no application id (kbench before it set one)
 * is taken for a store only then. */
static int has_kbench_tables(struct store *s)
{
	sqlite3_stmt *st;
	int ours = 0;

	if (sqlite3_prepare_v2(s->db,
		"SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
		"('machines', 'runs', 'samples', 'monitor_values', 'failures', 'run_meta')) = 6 "
		"AND (SELECT count(*) FROM pragma_table_info('runs') WHERE name IN "
		"('uuid', 'name', 'status', 'pid')) = 4 "
		"AND (SELECT count(*) FROM pragma_table_info('samples') WHERE name IN "
		"('run_id', 'section', 'row', 'iteration', 'value')) = 5",
		-1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		ours = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return ours;
}

/* Read what the open file is and refuse it unless it is a kbench store
 * this build can use, or an empty file to make one of. *version is its
 * schema version (0: empty), *app_id its application id. Reads only.
 * Return 0, or -1 after printing why. */
static int identify(struct store *s, int *version, int *app_id)
{
	int rc, nobjects = 0;

	rc = pragma_int(s, "PRAGMA application_id", app_id);
	if (rc == SQLITE_OK)
		rc = pragma_int(s, "PRAGMA user_version", version);
	if (rc == SQLITE_OK)
		rc = pragma_int(s, "SELECT count(*) FROM sqlite_master", &nobjects);
	if (rc != SQLITE_OK) {
		if ((rc & 0xff) == SQLITE_NOTADB)
			return error("%s: not a kbench database (not an SQLite file)", s->path);
		return store_db_error(s, "cannot read the database");
	}
	if (*app_id && *app_id != STORE_APPLICATION_ID)
		return error("%s: not a kbench database (it belongs to another program: "
			     "application id 0x%08x)", s->path, (unsigned)*app_id);
	if (*version > STORE_SCHEMA_VERSION)
		return error("%s: schema version %d is newer than this kbench understands (%d); "
			     "upgrade kbench", s->path, *version, STORE_SCHEMA_VERSION);
	if (*version == 0 && nobjects)
		return error("%s: not a kbench database (it has tables but no kbench schema version)",
			     s->path);
	if (*version > 0 && *app_id != STORE_APPLICATION_ID && !has_kbench_tables(s))
		return error("%s: not a kbench database (schema version %d, but not kbench's tables)",
			     s->path, *version);
	return 0;
}

/* Bring the store to STORE_SCHEMA_VERSION, creating its schema if it is
 * empty. Under the write lock, and looked at again once it is held:
 * another process may have created or migrated the file meanwhile. */
static int migrate(struct store *s)
{
	char pragma[96];
	int v, app_id;

	if (identify(s, &v, &app_id))
		return -1;
	if (v == STORE_SCHEMA_VERSION && app_id == STORE_APPLICATION_ID)
		return 0;
	if (exec_sql(s, "BEGIN IMMEDIATE"))
		return -1;
	if (identify(s, &v, &app_id))
		goto fail;
	for (; v < (int)NMIGRATIONS; v++)
		if (exec_sql(s, migrations[v])) {
			error("%s: migration to schema version %d failed", s->path, v + 1);
			goto fail;
		}
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d; PRAGMA application_id = %d",
		 STORE_SCHEMA_VERSION, STORE_APPLICATION_ID);
	if (exec_sql(s, pragma) || exec_sql(s, "COMMIT"))
		goto fail;
	return 0;
fail:
	exec_sql(s, "ROLLBACK");
	return -1;
}

/* Whether the file at path is an SQLite database in WAL mode (header
 * bytes 18 and 19 are 2). */
static int file_is_wal(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return 0;
	rc = read_full(fd, h, sizeof(h));
	close(fd);
	return !rc && !memcmp(h, "SQLite format 3", 16) && h[18] == 2 && h[19] == 2;
}

/* path as a file: URI asking SQLite to take the file as immutable. */
static void immutable_uri(const char *path, struct strbuf *uri)
{
	strbuf_addstr(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			strbuf_addch(uri, (char)*p);
		else
			strbuf_addf(uri, "%%%02X", *p);
	}
	strbuf_addstr(uri, "?immutable=1");
}

/* Open s->path read-only. A WAL store needs its -shm (and -wal) beside it,
 * and a reader that cannot create them (a read-only directory or mount)
 * gets SQLITE_READONLY or SQLITE_CANTOPEN on the first read: then, when no
 * write-ahead log is left, nothing can be missed and the file is opened as
 * immutable (without locks, which such a reader could not take anyway).
 * Return 0, or -1 after printing why. */
static int open_readonly(struct store *s)
{
	struct strbuf wal = STRBUF_INIT, uri = STRBUF_INIT;
	struct stat st;
	int rc = -1, code;

	if (open_db(s, s->path, SQLITE_OPEN_READONLY))
		goto out;
	code = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (code == SQLITE_OK || !((code & 0xff) == SQLITE_READONLY ||
				   (code & 0xff) == SQLITE_CANTOPEN) || !file_is_wal(s->path)) {
		rc = 0;		/* what is wrong, if anything, is said by identify() */
		goto out;
	}
	strbuf_addf(&wal, "%s-wal", s->path);
	if (!stat(wal.buf, &st) && st.st_size > 0) {
		error("cannot read database '%s' without write access to its directory: "
		      "its write-ahead log '%s' is not checkpointed yet; open it once where "
		      "it can be written", s->path, wal.buf);
		goto out;
	}
	close_db(s);
	immutable_uri(s->path, &uri);
	rc = open_db(s, uri.buf, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
out:
	strbuf_release(&wal);
	strbuf_release(&uri);
	return rc;
}

int store_open(const char *path, struct store **out)
{
	struct store *s = store_alloc(path);
	struct stat st;
	int v, app_id;

	*out = NULL;
	if (make_parent_dirs(path))
		goto fail;
	/* Look before writing anything, read-only: a file that is not a
	 * kbench store is left exactly as it is. */
	if (!stat(path, &st) && st.st_size > 0) {
		if (open_readonly(s) || identify(s, &v, &app_id))
			goto fail;
		close_db(s);
	}
	if (open_db(s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
		goto fail;
	if (exec_sql(s, "PRAGMA journal_mode=WAL") ||
	    exec_sql(s, "PRAGMA synchronous=NORMAL") ||
	    exec_sql(s, "PRAGMA foreign_keys=ON"))
		goto fail;
	if (migrate(s))
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

/* A reader found schema version `version`, older than this build's: bring
 * the store up to date once through a writer's open. */
static int upgrade_for_reading(struct store *s, int version)
{
	struct strbuf dir = STRBUF_INIT;
	struct store *w = NULL;
	const char *slash = strrchr(s->path, '/');
	int rc = -1;

	if (slash)
		strbuf_add(&dir, s->path, (size_t)(slash - s->path) + (slash == s->path));
	else
		strbuf_addch(&dir, '.');
	if (access(s->path, W_OK) || access(dir.buf, W_OK)) {
		if (!version)
			error("%s: an empty file, not a kbench store yet, and making it one "
			      "needs write access to the file and its directory (%s)", s->path,
			      strerror(errno));
		else
			error("%s: schema version %d is older than this kbench's (%d) and "
			      "bringing it up to date needs write access to the file and its "
			      "directory (%s); open it once where it can be written", s->path,
			      version, STORE_SCHEMA_VERSION, strerror(errno));
		goto out;
	}
	if (store_open(s->path, &w)) {
		error("%s: cannot bring schema version %d up to %d for reading", s->path,
		      version, STORE_SCHEMA_VERSION);
		goto out;
	}
	rc = 0;
out:
	store_close(w);
	strbuf_release(&dir);
	return rc;
}

int store_open_readonly(const char *path, struct store **out)
{
	struct store *s = store_alloc(path);
	struct stat st;
	int v, app_id;

	*out = NULL;
	if (stat(path, &st)) {
		if (errno == ENOENT)
			error("cannot open database '%s': no such file (only 'kbench run' creates one)",
			      path);
		else
			error("cannot open database '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		error("cannot open database '%s': it is a directory", path);
		goto fail;
	}
	if (open_readonly(s) || identify(s, &v, &app_id))
		goto fail;
	if (v < STORE_SCHEMA_VERSION) {
		close_db(s);
		if (upgrade_for_reading(s, v) || open_readonly(s) || identify(s, &v, &app_id))
			goto fail;
	}
	if (exec_sql(s, "PRAGMA foreign_keys=ON"))
		goto fail;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	close_db(s);
	free(s->path);
	free(s);
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return store_db_error(s, "cannot prepare a statement");
	return 0;
}

void store_bind_text(sqlite3_stmt *st, int i, const char *v)
{
	if (v)
		sqlite3_bind_text(st, i, v, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

/* Step a write statement to completion, then reset it. */
static int step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, what);
	return 0;
}

static int machine_id(struct store *s, const struct machine_info *m, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (store_prepare(s, "INSERT INTO machines(hostname, cpu_model, cpus, cores, packages, "
		    "numa_nodes, mem_bytes, topology_xml, fingerprint) "
		    "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(fingerprint) DO NOTHING", &st))
		return -1;
	store_bind_text(st, 1, m->hostname);
	store_bind_text(st, 2, m->cpu_model);
	sqlite3_bind_int(st, 3, m->cpus);
	sqlite3_bind_int(st, 4, m->cores);
	sqlite3_bind_int(st, 5, m->packages);
	sqlite3_bind_int(st, 6, m->numa_nodes);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)m->mem_bytes);
	store_bind_text(st, 8, m->topology_xml);
	store_bind_text(st, 9, m->fingerprint);
	if (step_done(s, st, "cannot record the machine"))
		goto out;
	sqlite3_finalize(st);
	if (store_prepare(s, "SELECT id FROM machines WHERE fingerprint = ?", &st))
		return -1;
	store_bind_text(st, 1, m->fingerprint);
	if (sqlite3_step(st) != SQLITE_ROW) {
		store_db_error(s, "cannot find the machine just recorded");
		goto out;
	}
	*id = sqlite3_column_int64(st, 0);
	rc = 0;
out:
	sqlite3_finalize(st);
	return rc;
}

int store_begin_run(struct store *s, const struct machine_info *m,
		    const struct kernel_info *k, const struct run_record *r,
		    int64_t *run_id)
{
	sqlite3_stmt *st = NULL;
	int64_t mid;
	int rc = -1;

	if (exec_sql(s, "BEGIN IMMEDIATE"))
		return -1;
	if (machine_id(s, m, &mid))
		goto out;
	if (store_prepare(s, "INSERT INTO runs(uuid, name, machine_id, kernel_release, "
		    "kernel_version, kernel_cmdline, config_name, config_text, "
		    "kbench_version, started_at, status, pid, boot_id, pid_start_ticks) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,'running',?,?,?)", &st))
		goto out;
	store_bind_text(st, 1, r->uuid);
	store_bind_text(st, 2, r->name);
	sqlite3_bind_int64(st, 3, mid);
	store_bind_text(st, 4, k->release);
	store_bind_text(st, 5, k->version);
	store_bind_text(st, 6, k->cmdline);
	store_bind_text(st, 7, r->config_name);
	store_bind_text(st, 8, r->config_text);
	store_bind_text(st, 9, r->kbench_version);
	store_bind_text(st, 10, r->started_at);
	if (r->writer) {
		sqlite3_bind_int64(st, 11, (sqlite3_int64)r->writer->pid);
		store_bind_text(st, 12, *r->writer->boot_id ? r->writer->boot_id : NULL);
		if (r->writer->start_ticks)
			sqlite3_bind_int64(st, 13, (sqlite3_int64)r->writer->start_ticks);
	} else {
		sqlite3_bind_int64(st, 11, (sqlite3_int64)getpid());
	}
	if (step_done(s, st, "cannot record the run"))
		goto out;
	*run_id = sqlite3_last_insert_rowid(s->db);
	rc = 0;
out:
	sqlite3_finalize(st);
	if (exec_sql(s, rc ? "ROLLBACK" : "COMMIT"))
		rc = -1;
	return rc;
}

int store_finish_run(struct store *s, int64_t run_id, const char *status,
		     const char *finished_at)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", &st))
		return -1;
	store_bind_text(st, 1, status);
	store_bind_text(st, 2, finished_at);
	sqlite3_bind_int64(st, 3, run_id);
	rc = step_done(s, st, "cannot mark the run finished");
	sqlite3_finalize(st);
	return rc;
}

int store_add_meta(struct store *s, int64_t run_id, const char *section,
		   const char *key, const char *value)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT INTO run_meta(run_id, section, key, value) VALUES (?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, section ? section : "");
	store_bind_text(st, 3, key);
	store_bind_text(st, 4, value);
	rc = step_done(s, st, "cannot record a run fact");
	sqlite3_finalize(st);
	return rc;
}

int store_add_sample_set(struct store *s, int64_t run_id, const struct sample_set *set)
{
	if (!s->ins_sample &&
	    store_prepare(s, "INSERT INTO samples(run_id, section, workload, row, iteration, value, "
		    "unit, better, started_at, duration_ns, user_ns, sys_ns, flag) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", &s->ins_sample))
		return -1;
	if (!s->ins_monitor &&
	    store_prepare(s, "INSERT INTO monitor_values(run_id, section, row, iteration, source, key, "
		    "kind, value) VALUES (?,?,?,?,?,?,?,?)", &s->ins_monitor))
		return -1;
	if (exec_sql(s, "BEGIN IMMEDIATE"))
		return -1;
	for (size_t i = 0; i < set->nsamples; i++) {
		const struct sample_record *r = &set->samples[i];
		sqlite3_stmt *st = s->ins_sample;

		sqlite3_bind_int64(st, 1, run_id);
		store_bind_text(st, 2, set->section);
		store_bind_text(st, 3, set->workload);
		store_bind_text(st, 4, r->row);
		sqlite3_bind_int(st, 5, set->iteration);
		sqlite3_bind_double(st, 6, r->value);
		store_bind_text(st, 7, r->unit);
		store_bind_text(st, 8, r->higher_better ? "higher" : "lower");
		sqlite3_bind_int64(st, 9, set->started_ns);
		sqlite3_bind_int64(st, 10, set->duration_ns);
		sqlite3_bind_int64(st, 11, set->user_ns);
		sqlite3_bind_int64(st, 12, set->sys_ns);
		store_bind_text(st, 13, set->flag);
		if (step_done(s, st, "cannot store a sample"))
			goto fail;
	}
	for (size_t i = 0; i < set->nmonitors; i++) {
		const struct monitor_record *m = &set->monitors[i];
		sqlite3_stmt *st = s->ins_monitor;

		sqlite3_bind_int64(st, 1, run_id);
		store_bind_text(st, 2, set->section);
		store_bind_text(st, 3, m->row);
		sqlite3_bind_int(st, 4, set->iteration);
		store_bind_text(st, 5, m->source);
		store_bind_text(st, 6, m->key);
		if (!monitor_kind_name(m->kind)) {
			error("%s: BUG: monitor value '%s/%s' has no kind", s->path, m->source,
			      m->key);
			goto fail;
		}
		store_bind_text(st, 7, monitor_kind_name(m->kind));
		sqlite3_bind_double(st, 8, m->value);
		if (step_done(s, st, "cannot store a monitor value"))
			goto fail;
	}
	return exec_sql(s, "COMMIT");
fail:
	exec_sql(s, "ROLLBACK");
	return -1;
}

int store_add_failure(struct store *s, int64_t run_id, const char *section,
		      const char *row, int iteration, const char *reason)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "INSERT INTO failures(run_id, section, row, iteration, reason, at) "
		    "VALUES (?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'))", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	store_bind_text(st, 2, section);
	store_bind_text(st, 3, row);
	sqlite3_bind_int(st, 4, iteration);
	store_bind_text(st, 5, reason);
	rc = step_done(s, st, "cannot record a failure");
	sqlite3_finalize(st);
	return rc;
}
