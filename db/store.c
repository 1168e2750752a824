/* store: the SQLite results database: open, migrate (schema in
 * schema.sql, migrations below) and insert; the read paths are in
 * query.c. Expects one writer (kbench run) and any number of readers;
 * WAL keeps readers from blocking the writer. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char store_schema_v1[];
extern const char store_migration_v2[];

/* migrations[v] takes a database from user_version v to v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[0] = store_schema_v1,
	[1] = store_migration_v2,
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

static int user_version(struct store *s, int *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(s->db, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : -1;
}

static int migrate(struct store *s)
{
	int v;

	if (user_version(s, &v)) {
		int code = sqlite3_errcode(s->db);

		if (code == SQLITE_NOTADB)
			return error("%s: not a kbench database (not an SQLite file)", s->path);
		return store_db_error(s, "cannot read the schema version");
	}
	if (v > (int)NMIGRATIONS)
		return error("%s: schema version %d is newer than this kbench understands (%d); "
			     "upgrade kbench", s->path, v, (int)NMIGRATIONS);
	if (v == 0) {
		/* A version-0 file must be empty, or it belongs to someone else. */
		sqlite3_stmt *st;
		int n = 0;

		if (sqlite3_prepare_v2(s->db, "SELECT count(*) FROM sqlite_master", -1, &st, NULL) == SQLITE_OK &&
		    sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
		if (n)
			return error("%s: not a kbench database (it has tables but no kbench schema version)",
				     s->path);
	}
	for (; v < (int)NMIGRATIONS; v++) {
		char pragma[64];

		if (exec_sql(s, "BEGIN IMMEDIATE"))
			return -1;
		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if (exec_sql(s, migrations[v]) || exec_sql(s, pragma)) {
			exec_sql(s, "ROLLBACK");
			return error("%s: migration to schema version %d failed", s->path, v + 1);
		}
		if (exec_sql(s, "COMMIT"))
			return -1;
	}
	return 0;
}

/* How long a statement waits for another writer's lock before it fails:
 * KBENCH_BUSY_TIMEOUT_MS (tests make a store fail with it), else 10 s. */
static int busy_timeout_ms(void)
{
	const char *env = getenv("KBENCH_BUSY_TIMEOUT_MS");
	char *end;
	long ms;

	if (!env || !*env)
		return 10000;
	errno = 0;
	ms = strtol(env, &end, 10);
	if (errno || *end || ms < 0 || ms > 3600000)
		return 10000;
	return (int)ms;
}

int store_open(const char *path, struct store **out)
{
	struct store *s = xcalloc(1, sizeof(*s));
	int rc;

	s->path = xstrdup(path);
	*out = NULL;
	if (make_parent_dirs(path))
		goto fail;
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		error("cannot open database '%s': %s", path,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(s->db, busy_timeout_ms());
	sqlite3_extended_result_codes(s->db, 0);
	/* Look before writing anything: another file is left as it is. */
	if (sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
		if (sqlite3_errcode(s->db) == SQLITE_NOTADB)
			error("%s: not a kbench database (not an SQLite file)", path);
		else
			store_db_error(s, "cannot read the database");
		goto fail;
	}
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

void store_close(struct store *s)
{
	if (!s)
		return;
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_monitor);
	if (s->db)
		sqlite3_close(s->db);
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
		    "kbench_version, started_at, status, pid) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,'running',?)", &st))
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
	sqlite3_bind_int64(st, 11, (sqlite3_int64)getpid());
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
