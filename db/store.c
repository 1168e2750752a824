/* store: the SQLite results database (schema in schema.sql, migrations
 * below). Expects one writer (kbench run) and any number of readers;
 * WAL keeps readers from blocking the writer. */
#include "config.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

extern const char store_schema_v1[];

/* migrations[v] takes a database from user_version v to v + 1. */
static const char *const migrations[] = {
	store_schema_v1,
};
#define NMIGRATIONS (sizeof(migrations) / sizeof(migrations[0]))

struct store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins_sample;
	sqlite3_stmt *ins_monitor;
};

const char *store_path(const struct store *s)
{
	return s->path;
}

static int db_error(struct store *s, const char *what)
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
	char *dup = strdup(path);
	int rc = 0;

	if (!dup)
		abort();
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
		return db_error(s, "cannot read the schema version");
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

int store_open(const char *path, struct store **out)
{
	struct store *s = calloc(1, sizeof(*s));
	int rc;

	if (!s)
		abort();
	s->path = strdup(path);
	if (!s->path)
		abort();
	*out = NULL;
	if (make_parent_dirs(path))
		goto fail;
	rc = sqlite3_open_v2(path, &s->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL);
	if (rc != SQLITE_OK) {
		error("cannot open database '%s': %s", path,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		goto fail;
	}
	sqlite3_busy_timeout(s->db, 10000);
	sqlite3_extended_result_codes(s->db, 0);
	/* Look before writing anything: another file is left as it is. */
	if (sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL) != SQLITE_OK) {
		if (sqlite3_errcode(s->db) == SQLITE_NOTADB)
			error("%s: not a kbench database (not an SQLite file)", path);
		else
			db_error(s, "cannot read the database");
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

static int prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(s->db, sql, -1, st, NULL) != SQLITE_OK)
		return db_error(s, "cannot prepare a statement");
	return 0;
}

static void bind_text(sqlite3_stmt *st, int i, const char *v)
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
		return db_error(s, what);
	return 0;
}

static int machine_id(struct store *s, const struct machine_info *m, int64_t *id)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	if (prepare(s, "INSERT INTO machines(hostname, cpu_model, cpus, cores, packages, "
		    "numa_nodes, mem_bytes, topology_xml, fingerprint) "
		    "VALUES (?,?,?,?,?,?,?,?,?) ON CONFLICT(fingerprint) DO NOTHING", &st))
		return -1;
	bind_text(st, 1, m->hostname);
	bind_text(st, 2, m->cpu_model);
	sqlite3_bind_int(st, 3, m->cpus);
	sqlite3_bind_int(st, 4, m->cores);
	sqlite3_bind_int(st, 5, m->packages);
	sqlite3_bind_int(st, 6, m->numa_nodes);
	sqlite3_bind_int64(st, 7, (sqlite3_int64)m->mem_bytes);
	bind_text(st, 8, m->topology_xml);
	bind_text(st, 9, m->fingerprint);
	if (step_done(s, st, "cannot record the machine"))
		goto out;
	sqlite3_finalize(st);
	if (prepare(s, "SELECT id FROM machines WHERE fingerprint = ?", &st))
		return -1;
	bind_text(st, 1, m->fingerprint);
	if (sqlite3_step(st) != SQLITE_ROW) {
		db_error(s, "cannot find the machine just recorded");
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
	if (prepare(s, "INSERT INTO runs(uuid, name, machine_id, kernel_release, "
		    "kernel_version, kernel_cmdline, config_name, config_text, "
		    "kbench_version, started_at, status, pid) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,'running',?)", &st))
		goto out;
	bind_text(st, 1, r->uuid);
	bind_text(st, 2, r->name);
	sqlite3_bind_int64(st, 3, mid);
	bind_text(st, 4, k->release);
	bind_text(st, 5, k->version);
	bind_text(st, 6, k->cmdline);
	bind_text(st, 7, r->config_name);
	bind_text(st, 8, r->config_text);
	bind_text(st, 9, r->kbench_version);
	bind_text(st, 10, r->started_at);
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

	if (prepare(s, "UPDATE runs SET status = ?, finished_at = ? WHERE id = ?", &st))
		return -1;
	bind_text(st, 1, status);
	bind_text(st, 2, finished_at);
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

	if (prepare(s, "INSERT INTO run_meta(run_id, section, key, value) VALUES (?,?,?,?)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, section ? section : "");
	bind_text(st, 3, key);
	bind_text(st, 4, value);
	rc = step_done(s, st, "cannot record a run fact");
	sqlite3_finalize(st);
	return rc;
}

int store_add_sample_set(struct store *s, int64_t run_id, const struct sample_set *set)
{
	if (!s->ins_sample &&
	    prepare(s, "INSERT INTO samples(run_id, section, workload, row, iteration, value, "
		    "unit, better, started_at, duration_ns, user_ns, sys_ns, flag) "
		    "VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)", &s->ins_sample))
		return -1;
	if (!s->ins_monitor &&
	    prepare(s, "INSERT INTO monitor_values(run_id, section, row, iteration, source, key, value) "
		    "VALUES (?,?,?,?,?,?,?)", &s->ins_monitor))
		return -1;
	if (exec_sql(s, "BEGIN IMMEDIATE"))
		return -1;
	for (size_t i = 0; i < set->nsamples; i++) {
		const struct sample_record *r = &set->samples[i];
		sqlite3_stmt *st = s->ins_sample;

		sqlite3_bind_int64(st, 1, run_id);
		bind_text(st, 2, set->section);
		bind_text(st, 3, set->workload);
		bind_text(st, 4, r->row);
		sqlite3_bind_int(st, 5, set->iteration);
		sqlite3_bind_double(st, 6, r->value);
		bind_text(st, 7, r->unit);
		bind_text(st, 8, r->higher_better ? "higher" : "lower");
		sqlite3_bind_int64(st, 9, set->started_ns);
		sqlite3_bind_int64(st, 10, set->duration_ns);
		sqlite3_bind_int64(st, 11, set->user_ns);
		sqlite3_bind_int64(st, 12, set->sys_ns);
		bind_text(st, 13, set->flag);
		if (step_done(s, st, "cannot store a sample"))
			goto fail;
	}
	for (size_t i = 0; i < set->nmonitors; i++) {
		const struct monitor_record *m = &set->monitors[i];
		sqlite3_stmt *st = s->ins_monitor;

		sqlite3_bind_int64(st, 1, run_id);
		bind_text(st, 2, set->section);
		bind_text(st, 3, m->row);
		sqlite3_bind_int(st, 4, set->iteration);
		bind_text(st, 5, m->source);
		bind_text(st, 6, m->key);
		sqlite3_bind_double(st, 7, m->value);
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

	if (prepare(s, "INSERT INTO failures(run_id, section, row, iteration, reason, at) "
		    "VALUES (?,?,?,?,?,strftime('%Y-%m-%dT%H:%M:%SZ','now'))", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, section);
	bind_text(st, 3, row);
	sqlite3_bind_int(st, 4, iteration);
	bind_text(st, 5, reason);
	rc = step_done(s, st, "cannot record a failure");
	sqlite3_finalize(st);
	return rc;
}

/* ---- reading ---- */

static char *col_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);
	char *d = strdup(t ? (const char *)t : "");

	if (!d)
		abort();
	return d;
}

void run_info_release(struct run_info *r)
{
	free(r->name);
	free(r->hostname);
	free(r->cpu_model);
	free(r->fingerprint);
	free(r->kernel_release);
	free(r->kernel_version);
	free(r->kernel_cmdline);
	free(r->config_name);
	free(r->config_text);
	free(r->kbench_version);
	free(r->started_at);
	free(r->finished_at);
	free(r->status);
	memset(r, 0, sizeof(*r));
}

#define RUN_COLUMNS \
	"r.id, r.uuid, r.name, m.hostname, m.cpu_model, m.cpus, m.cores, m.mem_bytes, " \
	"m.fingerprint, r.kernel_release, r.kernel_version, r.kernel_cmdline, " \
	"r.config_name, r.config_text, r.kbench_version, r.started_at, r.finished_at, " \
	"r.status, r.pid, " \
	"(SELECT count(*) FROM samples s WHERE s.run_id = r.id), " \
	"(SELECT count(*) FROM failures f WHERE f.run_id = r.id) " \
	"FROM runs r LEFT JOIN machines m ON m.id = r.machine_id "

/* A run still marked running whose writer is gone on this host was killed. */
static int writer_alive(const char *hostname, int64_t pid)
{
	char host[256] = "";

	if (pid <= 0)
		return 0;
	gethostname(host, sizeof(host) - 1);
	if (strcmp(host, hostname))
		return 1;	/* cannot tell for another host */
	return kill((pid_t)pid, 0) == 0 || errno == EPERM;
}

static void fill_run(sqlite3_stmt *st, struct run_info *r)
{
	const unsigned char *uuid = sqlite3_column_text(st, 1);

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid ? (const char *)uuid : "");
	r->name = col_dup(st, 2);
	r->hostname = col_dup(st, 3);
	r->cpu_model = col_dup(st, 4);
	r->cpus = sqlite3_column_int(st, 5);
	r->cores = sqlite3_column_int(st, 6);
	r->mem_bytes = (uint64_t)sqlite3_column_int64(st, 7);
	r->fingerprint = col_dup(st, 8);
	r->kernel_release = col_dup(st, 9);
	r->kernel_version = col_dup(st, 10);
	r->kernel_cmdline = col_dup(st, 11);
	r->config_name = col_dup(st, 12);
	r->config_text = col_dup(st, 13);
	r->kbench_version = col_dup(st, 14);
	r->started_at = col_dup(st, 15);
	r->finished_at = col_dup(st, 16);
	r->status = col_dup(st, 17);
	if (!strcmp(r->status, "running") &&
	    !writer_alive(r->hostname, sqlite3_column_int64(st, 18))) {
		free(r->status);
		r->status = strdup("interrupted");
		if (!r->status)
			abort();
	}
	r->nsamples = sqlite3_column_int64(st, 19);
	r->nfailures = sqlite3_column_int64(st, 20);
}

int store_each_run(struct store *s, const struct run_filter *f,
		   int (*cb)(const struct run_info *r, void *arg), void *arg)
{
	struct strbuf sql = STRBUF_INIT;
	sqlite3_stmt *st = NULL;
	int rc, n = 0;

	strbuf_addstr(&sql, "SELECT " RUN_COLUMNS "WHERE 1");
	if (f && f->name)
		strbuf_addstr(&sql, " AND r.name = :name");
	if (f && f->host)
		strbuf_addstr(&sql, " AND m.hostname = :host");
	if (f && f->config)
		strbuf_addstr(&sql, " AND r.config_name = :config");
	if (f && f->since)
		strbuf_addstr(&sql, " AND r.started_at >= :since");
	if (f && f->limit > 0)
		strbuf_addstr(&sql, " AND r.id IN (SELECT id FROM runs ORDER BY id DESC LIMIT :limit)");
	strbuf_addstr(&sql, " ORDER BY r.id");
	rc = prepare(s, sql.buf, &st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	if (f) {
		if (f->name)
			bind_text(st, sqlite3_bind_parameter_index(st, ":name"), f->name);
		if (f->host)
			bind_text(st, sqlite3_bind_parameter_index(st, ":host"), f->host);
		if (f->config)
			bind_text(st, sqlite3_bind_parameter_index(st, ":config"), f->config);
		if (f->since)
			bind_text(st, sqlite3_bind_parameter_index(st, ":since"), f->since);
		if (f->limit > 0)
			sqlite3_bind_int(st, sqlite3_bind_parameter_index(st, ":limit"), f->limit);
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct run_info r;
		int stop;

		fill_run(st, &r);
		stop = cb(&r, arg);
		run_info_release(&r);
		n++;
		if (stop)
			break;
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
		sqlite3_finalize(st);
		return db_error(s, "cannot list runs");
	}
	sqlite3_finalize(st);
	return 0;
}

int store_get_run(struct store *s, int64_t run_id, struct run_info *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, "SELECT " RUN_COLUMNS "WHERE r.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		fill_run(st, out);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error("%s: no run #%lld", s->path, (long long)run_id);
	return 0;
}

/* Run a query binding one text parameter; collect the integer column 0. */
static int collect_ids(struct store *s, const char *sql, const char *p1, const char *p2,
		       int64_t **ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t cap = 8;
	int rc;

	*n = 0;
	*ids = malloc(cap * sizeof(**ids));
	if (!*ids)
		abort();
	if (prepare(s, sql, &st))
		return -1;
	if (p1)
		bind_text(st, 1, p1);
	if (p2)
		bind_text(st, 2, p2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap *= 2;
			*ids = realloc(*ids, cap * sizeof(**ids));
			if (!*ids)
				abort();
		}
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return db_error(s, "cannot look up runs");
	return 0;
}

int store_runs_named(struct store *s, const char *name, int64_t **ids, size_t *n)
{
	return collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
			   "ORDER BY id", name, NULL, ids, n);
}

int store_resolve_run(struct store *s, const char *sel, int64_t *run_id,
		      struct strbuf *err)
{
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = -1;

	if (sel[0] == '#') {
		char *end;
		long long id = strtoll(sel + 1, &end, 10);

		if (!sel[1] || *end) {
			strbuf_addf(err, "invalid run id '%s': expected #NUMBER", sel);
			return -1;
		}
		if (collect_ids(s, "SELECT id FROM runs WHERE id = CAST(? AS INTEGER)",
				sel + 1, NULL, &ids, &n))
			goto out;
		if (!n) {
			strbuf_addf(err, "no run %s in %s", sel, s->path);
			goto out;
		}
		*run_id = id;
		rc = 0;
		goto out;
	}
	if (strchr(sel, '@')) {
		char *name = strdup(sel), *host = strrchr(name, '@');

		if (!name)
			abort();
		*host++ = '\0';
		rc = collect_ids(s, "SELECT r.id FROM runs r JOIN machines m ON m.id = r.machine_id "
				 "WHERE r.name = ? AND m.hostname = ? AND r.status = 'complete' "
				 "ORDER BY r.id DESC LIMIT 1", name, host, &ids, &n);
		free(name);
		if (rc)
			goto out;
		rc = -1;
		if (!n) {
			strbuf_addf(err, "no complete run named '%s' in %s", sel, s->path);
			goto out;
		}
		*run_id = ids[0];
		rc = 0;
		goto out;
	}
	/* A name first: names are what people type. */
	if (collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
			"ORDER BY id DESC LIMIT 1", sel, NULL, &ids, &n))
		goto out;
	if (n) {
		*run_id = ids[0];
		rc = 0;
		goto out;
	}
	free(ids);
	ids = NULL;
	if (strlen(sel) >= 4 && strspn(sel, "0123456789abcdef-") == strlen(sel)) {
		struct strbuf like = STRBUF_INIT;

		strbuf_addf(&like, "%s%%", sel);
		rc = collect_ids(s, "SELECT id FROM runs WHERE uuid LIKE ? LIMIT 2",
				 like.buf, NULL, &ids, &n);
		strbuf_release(&like);
		if (rc)
			goto out;
		rc = -1;
		if (n == 1) {
			*run_id = ids[0];
			rc = 0;
			goto out;
		}
		if (n > 1) {
			strbuf_addf(err, "run uuid prefix '%s' is ambiguous: give more digits", sel);
			goto out;
		}
	}
	free(ids);
	ids = NULL;
	if (!collect_ids(s, "SELECT id FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1",
			 sel, NULL, &ids, &n) && n)
		strbuf_addf(err, "run '%s' has no complete run (use #%lld to pick an "
			    "unfinished one)", sel, (long long)ids[0]);
	else
		strbuf_addf(err, "no run named '%s' in %s (see kbench runs)", sel, s->path);
out:
	free(ids);
	return rc;
}

int store_previous_run(struct store *s, int64_t run_id, int64_t *prev, int *found)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (prepare(s, "SELECT p.id FROM runs p, runs r WHERE r.id = ?1 AND p.id < r.id "
		    "AND p.config_name = r.config_name AND p.machine_id = r.machine_id "
		    "AND p.status = 'complete' ORDER BY p.id DESC LIMIT 1", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*prev = sqlite3_column_int64(st, 0);
		*found = 1;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot look up the previous run");
	return 0;
}

int store_each_sample(struct store *s, int64_t run_id,
		      int (*cb)(const struct sample_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, "SELECT section, workload, row, iteration, value, unit, better, "
		    "duration_ns, user_ns, sys_ns, flag FROM samples WHERE run_id = ? "
		    "ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct sample_row r;
		const unsigned char *better = sqlite3_column_text(st, 6);

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.workload = (const char *)sqlite3_column_text(st, 1);
		r.row = (const char *)sqlite3_column_text(st, 2);
		r.iteration = sqlite3_column_int(st, 3);
		r.value = sqlite3_column_double(st, 4);
		r.unit = (const char *)sqlite3_column_text(st, 5);
		r.higher_better = better && !strcmp((const char *)better, "higher");
		r.duration_ns = sqlite3_column_int64(st, 7);
		r.user_ns = sqlite3_column_int64(st, 8);
		r.sys_ns = sqlite3_column_int64(st, 9);
		r.flag = (const char *)sqlite3_column_text(st, 10);
		if (!r.unit)
			r.unit = "";
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot read samples");
	return 0;
}

int store_each_monitor(struct store *s, int64_t run_id,
		       int (*cb)(const struct monitor_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, "SELECT section, row, iteration, source, key, value FROM monitor_values "
		    "WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct monitor_row r;

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.row = (const char *)sqlite3_column_text(st, 1);
		r.iteration = sqlite3_column_int(st, 2);
		r.source = (const char *)sqlite3_column_text(st, 3);
		r.key = (const char *)sqlite3_column_text(st, 4);
		r.value = sqlite3_column_double(st, 5);
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot read monitor values");
	return 0;
}

int store_each_failure(struct store *s, int64_t run_id,
		       int (*cb)(const struct failure_row *r, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, "SELECT section, row, iteration, reason FROM failures "
		    "WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct failure_row r;

		r.section = (const char *)sqlite3_column_text(st, 0);
		r.row = (const char *)sqlite3_column_text(st, 1);
		r.iteration = sqlite3_column_int(st, 2);
		r.reason = (const char *)sqlite3_column_text(st, 3);
		if (cb(&r, arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot read failures");
	return 0;
}

int store_each_meta(struct store *s, int64_t run_id,
		    int (*cb)(const char *section, const char *key, const char *value, void *arg),
		    void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (prepare(s, "SELECT section, key, value FROM run_meta WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		const unsigned char *v = sqlite3_column_text(st, 2);

		if (cb((const char *)sqlite3_column_text(st, 0),
		       (const char *)sqlite3_column_text(st, 1),
		       v ? (const char *)v : "", arg))
			break;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return db_error(s, "cannot read run facts");
	return 0;
}
