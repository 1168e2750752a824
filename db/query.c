/* query: the read paths of the store: runs listed, fetched and resolved
 * from selectors; a run's samples, monitor values, failures and facts
 * streamed to callbacks. Readers never write. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <ctype.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	free(r->notes);
	memset(r, 0, sizeof(*r));
}

/* A run's samples are counted as they are stored (runs.nsamples, schema
 * version 7): a listing of many runs reads no sample row. */
#define RUN_COLUMNS \
	"r.id, r.uuid, r.name, m.hostname, m.cpu_model, m.cpus, m.cores, m.mem_bytes, " \
	"m.fingerprint, r.kernel_release, r.kernel_version, r.kernel_cmdline, " \
	"r.config_name, r.config_text, r.kbench_version, r.started_at, r.finished_at, " \
	"r.status, r.pid, " \
	"r.nsamples, " \
	"(SELECT count(*) FROM failures f WHERE f.run_id = r.id), " \
	"r.boot_id, r.pid_start_ticks, r.notes, m.numa_nodes " \
	"FROM runs r LEFT JOIN machines m ON m.id = r.machine_id "

static void fill_run(struct store *s, sqlite3_stmt *st, struct run_info *r)
{
	const unsigned char *uuid = sqlite3_column_text(st, 1);

	memset(r, 0, sizeof(*r));
	r->id = sqlite3_column_int64(st, 0);
	snprintf(r->uuid, sizeof(r->uuid), "%s", uuid ? (const char *)uuid : "");
	r->name = store_column_dup(st, 2);
	r->hostname = store_column_dup(st, 3);
	r->cpu_model = store_column_dup(st, 4);
	r->cpus = sqlite3_column_int(st, 5);
	r->cores = sqlite3_column_int(st, 6);
	r->mem_bytes = (uint64_t)sqlite3_column_int64(st, 7);
	r->fingerprint = store_column_dup(st, 8);
	r->kernel_release = store_column_dup(st, 9);
	r->kernel_version = store_column_dup(st, 10);
	r->kernel_cmdline = store_column_dup(st, 11);
	r->config_name = store_column_dup(st, 12);
	r->config_text = store_column_dup(st, 13);
	r->kbench_version = store_column_dup(st, 14);
	r->started_at = store_column_dup(st, 15);
	r->finished_at = store_column_dup(st, 16);
	r->status = store_column_dup(st, 17);
	/* A run still marked running whose writer is gone was killed. */
	if (!strcmp(r->status, "running") &&
	    !run_writer_alive(s, r->hostname, sqlite3_column_int64(st, 18),
			      (const char *)sqlite3_column_text(st, 21),
			      (uint64_t)sqlite3_column_int64(st, 22))) {
		free(r->status);
		r->status = xstrdup("interrupted");
	}
	r->nsamples = sqlite3_column_int64(st, 19);
	r->nfailures = sqlite3_column_int64(st, 20);
	if (sqlite3_column_type(st, 23) != SQLITE_NULL)
		r->notes = store_column_dup(st, 23);
	r->numa_nodes = sqlite3_column_int(st, 24);
}

/* Whether r passes the filters SQL cannot apply: the name pattern, and
 * the status as shown (a dead writer's run reads interrupted). */
static int run_matches(const struct run_filter *f, const struct run_info *r)
{
	if (f->name_re && !kb_regex_match(f->name_re, r->name))
		return 0;
	return !f->status || !strcmp(f->status, r->status);
}

/* Bind v to the parameter called name, when the statement has one. */
static void bind_named(sqlite3_stmt *st, const char *name, const char *v)
{
	int i = sqlite3_bind_parameter_index(st, name);

	if (i)
		store_bind_text(st, i, v);
}

/* The statement of the runs f selects, newest first when newest_first. */
static int prepare_runs(struct store *s, const struct run_filter *f, int newest_first,
			sqlite3_stmt **st)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_addstr(&sql, "SELECT " RUN_COLUMNS "WHERE 1");
	if (f->name)
		strbuf_addstr(&sql, " AND r.name = :name");
	if (f->host)
		strbuf_addstr(&sql, " AND m.hostname = :host");
	if (f->config)
		strbuf_addstr(&sql, " AND r.config_name = :config");
	if (f->kernel)
		strbuf_addstr(&sql, " AND r.kernel_release GLOB :kernel");
	if (f->since)
		strbuf_addstr(&sql, " AND r.started_at >= :since");
	if (f->until)
		strbuf_addstr(&sql, " AND r.started_at < :until");
	/* Only a running run can read interrupted: its writer may be dead. */
	if (f->status)
		strbuf_addstr(&sql, !strcmp(f->status, "interrupted") ?
			      " AND r.status IN ('interrupted', 'running')" :
			      " AND r.status = :status");
	strbuf_addstr(&sql, newest_first ? " ORDER BY r.id DESC" : " ORDER BY r.id");
	rc = store_prepare(s, sql.buf, st);
	strbuf_release(&sql);
	if (rc)
		return -1;
	bind_named(*st, ":name", f->name);
	bind_named(*st, ":host", f->host);
	bind_named(*st, ":config", f->config);
	bind_named(*st, ":kernel", f->kernel);
	bind_named(*st, ":since", f->since);
	bind_named(*st, ":until", f->until);
	bind_named(*st, ":status", f->status);
	return 0;
}

/* store_each_run()'s walk: runs that pass the filters go to the caller's
 * callback, or with a limit are kept (the newest first) until it is met. */
struct run_walk {
	const struct run_filter *f;
	int (*cb)(const struct run_info *r, void *arg);
	void *arg;
	struct run_info *last;	/* with a limit: the newest matches, newest first */
	size_t nlast, alloc;
	int stopped;		/* the callback asked to stop */
};

static int run_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	struct run_walk *w = ctx;
	struct run_info r;

	fill_run(s, st, &r);
	if (!run_matches(w->f, &r)) {
		run_info_release(&r);
		return 0;
	}
	if (w->f->limit > 0) {
		ALLOC_GROW(w->last, w->nlast + 1, w->alloc);
		w->last[w->nlast++] = r;
		return w->nlast == (size_t)w->f->limit;
	}
	w->stopped = w->cb(&r, w->arg) != 0;
	run_info_release(&r);
	return w->stopped;
}

int store_each_run(struct store *s, const struct run_filter *filter,
		   int (*cb)(const struct run_info *r, void *arg), void *arg)
{
	static const struct run_filter all = { .limit = 0 };
	struct run_walk w = { .f = filter ? filter : &all, .cb = cb, .arg = arg };
	sqlite3_stmt *st = NULL;
	int failed;

	if (prepare_runs(s, w.f, w.f->limit > 0, &st))
		return -1;
	failed = store_step_rows(s, st, "cannot list runs", run_row, &w) != 0;
	/* The newest matches, listed oldest first like every listing. */
	for (size_t i = w.nlast; i-- > 0;) {
		if (!failed && !w.stopped)
			w.stopped = cb(&w.last[i], arg) != 0;
		run_info_release(&w.last[i]);
	}
	free(w.last);
	return failed ? -1 : 0;
}

int store_get_run(struct store *s, int64_t run_id, struct run_info *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT " RUN_COLUMNS "WHERE r.id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		fill_run(s, st, out);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return error("%s: no run @%lld", s->path, (long long)run_id);
	return 0;
}

int store_run_name(struct store *s, int64_t run_id, char **name)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*name = NULL;
	if (store_prepare(s, "SELECT name FROM runs WHERE id = ?", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*name = store_column_dup(st, 0);
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 0;
	if (rc == SQLITE_DONE)
		return error("%s: no run @%lld", s->path, (long long)run_id);
	return store_db_error(s, "cannot read a run's name");
}

/* Run a query binding one text parameter; collect the integer column 0. */
static int collect_ids(struct store *s, const char *sql, const char *p1, const char *p2,
		       int64_t **ids, size_t *n)
{
	sqlite3_stmt *st = NULL;
	size_t alloc = 0;
	int rc;

	*n = 0;
	*ids = NULL;
	if (store_prepare(s, sql, &st))
		return -1;
	if (p1)
		store_bind_text(st, 1, p1);
	if (p2)
		store_bind_text(st, 2, p2);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		ALLOC_GROW(*ids, *n + 1, alloc);
		(*ids)[(*n)++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot look up runs");
	return 0;
}

/* Every run of that name (complete ones), for pooling; *ids malloc'd
 * (NULL when there is none). */
static int store_runs_named(struct store *s, const char *name, int64_t **ids, size_t *n)
{
	return collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
			   "ORDER BY id", name, NULL, ids, n);
}

/* The hosts with a complete run named name, as "NAME@HOST" choices joined
 * by ", " into out; returns how many, or -1 after printing why. */
static int complete_hosts(struct store *s, const char *name, struct strbuf *out)
{
	sqlite3_stmt *st = NULL;
	int rc, n = 0;

	if (store_prepare(s, "SELECT m.hostname FROM runs r JOIN machines m ON m.id = r.machine_id "
		    "WHERE r.name = ? AND r.status = 'complete' GROUP BY m.hostname "
		    "ORDER BY m.hostname", &st))
		return -1;
	store_bind_text(st, 1, name);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		strbuf_addf(out, "%s%s@%s", n++ ? ", " : "", name,
			    (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot look up runs");
	return n;
}

/* The latest complete run named name on host (NULL: any host). */
static int latest_complete(struct store *s, const char *name, const char *host,
			   int64_t **ids, size_t *n)
{
	if (!host)
		return collect_ids(s, "SELECT id FROM runs WHERE name = ? AND status = 'complete' "
				   "ORDER BY id DESC LIMIT 1", name, NULL, ids, n);
	return collect_ids(s, "SELECT r.id FROM runs r JOIN machines m ON m.id = r.machine_id "
			   "WHERE r.name = ? AND m.hostname = ? AND r.status = 'complete' "
			   "ORDER BY r.id DESC LIMIT 1", name, host, ids, n);
}

/* "NAME@HOST", or "NAME@*" for any host. */
static int resolve_at_host(struct store *s, const char *sel, int64_t *run_id,
			   struct strbuf *err)
{
	char *name = xstrdup(sel), *host = strrchr(name, '@');
	struct strbuf choices = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	*host++ = '\0';
	rc = latest_complete(s, name, strcmp(host, "*") ? host : NULL, &ids, &n);
	if (rc)
		goto out;
	if (n) {
		*run_id = ids[0];
		goto out;
	}
	rc = -1;
	strbuf_addf(err, "no complete run named '%s' in %s", sel, s->path);
	if (strcmp(host, "*") && complete_hosts(s, name, &choices) > 0)
		strbuf_addf(err, "; choose one of: %s", choices.buf);
out:
	strbuf_release(&choices);
	free(ids);
	free(name);
	return rc;
}

/* The longest selector: NAME@HOST. */
#define SELECTOR_MAX (NAME_RUN_MAX + 1 + NAME_HOST_MAX)
/* A uuid's length, which a prefix of it cannot pass. */
#define UUID_LEN 36

static int resolve_run(struct store *s, const char *sel, int64_t *run_id,
		       struct strbuf *err);

/* The stored run name closest to a mistyped one (lib/suggest.h). */
struct run_name_suggest {
	struct suggest sg;
	struct strbuf best;
};

/* Whether name is CONFIG/ARM for arm `arm`: an experiment's arm is
 * stored so, and a bare ARM typed means its run. */
static int arm_of(const char *name, const char *arm)
{
	size_t n = strlen(name), a = strlen(arm);

	return a && n > a + 1 && name[n - a - 1] == '/' && !strcmp(name + n - a, arm) &&
	       !strchr(arm, '/');
}

static int offer_run_name(const char *name, void *arg)
{
	struct run_name_suggest *ns = arg;

	if (arm_of(name, ns->sg.typed)) {
		ns->sg.best = name;	/* the last such offered wins */
		ns->sg.distance = 0;
	} else
		suggest_add(&ns->sg, name);
	suggest_keep(&ns->sg, &ns->best, name);
	return 0;
}

/* Append " (did you mean 'NAME'?)" to err when a stored run's name is
 * close to sel, the name that names no run. */
static void suggest_run_name(struct store *s, const char *sel, struct strbuf *err)
{
	struct run_name_suggest ns = { .sg = SUGGEST_INIT(sel), .best = STRBUF_INIT };

	if (!store_each_name(s, STORE_NAME_RUN, offer_run_name, &ns) && ns.sg.best)
		strbuf_addf(err, " (did you mean '%s'?)", ns.sg.best);
	strbuf_release(&ns.best);
}

/* The id of sel when it is a label NAME#ID as compare prints one (a run
 * name, '#', digits), else 0. */
static int64_t label_id(const char *sel)
{
	const char *hash = strrchr(sel, '#');

	if (!hash || hash == sel || !hash[1] || strspn(hash + 1, "0123456789") != strlen(hash + 1))
		return 0;
	return strtoll(hash + 1, NULL, 10);
}

/* "NAME#ID": run ID, which must be named NAME (any status, as @ID). */
static int resolve_label(struct store *s, const char *sel, int64_t id, int64_t *run_id,
			 struct strbuf *err)
{
	char *name = xstrndup(sel, strrchr(sel, '#') - sel);
	struct strbuf idtext = STRBUF_INIT;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = -1;

	strbuf_addf(&idtext, "%lld", (long long)id);
	if (collect_ids(s, "SELECT id FROM runs WHERE id = CAST(? AS INTEGER) AND name = ?",
			idtext.buf, name, &ids, &n))
		goto out;
	if (n) {
		*run_id = ids[0];
		rc = 0;
	} else
		strbuf_addf(err, "no run '%s' in %s: NAME#ID is run @ID when it is named NAME "
			    "(see kbench runs)", sel, s->path);
out:
	strbuf_release(&idtext);
	free(ids);
	free(name);
	return rc;
}

int store_resolve_run(struct store *s, const char *sel, int64_t *run_id,
		      struct strbuf *err)
{
	size_t len = strlen(sel);
	int rc;

	if (len > SELECTOR_MAX) {
		strbuf_addf(err, "run selector of %zu bytes is too long: a run name has at most %d, "
			    "NAME@HOST at most %d", len, NAME_RUN_MAX, SELECTOR_MAX);
		return -1;
	}
	rc = resolve_run(s, sel, run_id, err);
	/* A failed lookup has printed its own message: say what it was for. */
	if (rc && !err->len)
		strbuf_addf(err, "cannot look up run '%s' in %s", sel, s->path);
	return rc;
}

static int resolve_run(struct store *s, const char *sel, int64_t *run_id,
		       struct strbuf *err)
{
	struct strbuf choices = STRBUF_INIT;
	char *here = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc = -1;

	/* No run name starts with '#' or holds '@' (lib/name.c): "@ID" is
	 * the id a shell passes as it is, "#ID" the older form. */
	if (sel[0] == '#' || sel[0] == '@') {
		char *end;
		long long id = strtoll(sel + 1, &end, 10);

		if (!isdigit((unsigned char)sel[1]) || *end) {
			strbuf_addf(err, "invalid run id '%s': expected @ID, a run's number (NAME@HOST "
				    "names a host)", sel);
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
	if (strchr(sel, '@'))
		return resolve_at_host(s, sel, run_id, err);
	/* A name first: names are what people type. A bare name means this
	 * host: the same name on another machine is another experiment. */
	here = sysinfo_hostname();
	if (latest_complete(s, sel, here, &ids, &n))
		goto out;
	if (n) {
		*run_id = ids[0];
		rc = 0;
		goto out;
	}
	free(ids);
	ids = NULL;
	/* An id as kbench runs lists it (ID), when no run is named so; a
	 * uuid prefix of those digits too makes it ambiguous. */
	if (strspn(sel, "0123456789") == strlen(sel)) {
		if (collect_ids(s, "SELECT id FROM runs WHERE name = ? LIMIT 1", sel, NULL,
				&ids, &n))
			goto out;
		free(ids);
		ids = NULL;
		if (n)
			n = 0;	/* a name: said below as names are */
		else if (collect_ids(s, "SELECT id FROM runs WHERE id = CAST(?1 AS INTEGER) UNION "
				     "SELECT id FROM runs WHERE length(?1) >= 4 AND uuid LIKE ?1 || '%' "
				     "LIMIT 2", sel, NULL, &ids, &n))
			goto out;
		if (n == 1) {
			*run_id = ids[0];
			rc = 0;
			goto out;
		}
		if (n > 1) {
			strbuf_addf(err, "run selector '%s' is ambiguous: give @ID for a run id, or more "
				    "digits of a uuid", sel);
			goto out;
		}
		free(ids);
		ids = NULL;
	}
	/* A label compare printed: NAME#ID, when no run is named so. */
	if (label_id(sel)) {
		if (collect_ids(s, "SELECT id FROM runs WHERE name = ? LIMIT 1", sel, NULL,
				&ids, &n))
			goto out;
		if (!n) {
			rc = resolve_label(s, sel, label_id(sel), run_id, err);
			goto out;
		}
		free(ids);
		ids = NULL;
	}
	if (strlen(sel) >= 4 && strlen(sel) <= UUID_LEN &&
	    strspn(sel, "0123456789abcdef-") == strlen(sel)) {
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
	n = 0;
	switch (complete_hosts(s, sel, &choices)) {
	case -1:
		goto out;
	case 0:
		break;
	default:
		strbuf_addf(err, "no complete run named '%s' on this host '%s'; choose one of: "
			    "%s (%s@* picks the latest on any host)", sel, here, choices.buf, sel);
		goto out;
	}
	if (!collect_ids(s, "SELECT id FROM runs WHERE name = ? ORDER BY id DESC LIMIT 1",
			 sel, NULL, &ids, &n) && n) {
		struct run_info ri = { .id = 0 };
		int got = !store_get_run(s, ids[0], &ri);

		strbuf_addf(err, "run '%s' has no complete run: @%lld is %s (use @%lld to pick "
			    "it%s)", sel, (long long)ids[0], got ? ri.status : "unfinished",
			    (long long)ids[0], got && !strcmp(ri.status, "running") ?
			    ", as far as it has gone" : "");
		if (got)
			run_info_release(&ri);
	} else {
		strbuf_addf(err, "no run named '%s' in %s (see kbench runs)", sel, s->path);
		suggest_run_name(s, sel, err);
	}
out:
	strbuf_release(&choices);
	free(here);
	free(ids);
	return rc;
}

int store_previous_run(struct store *s, int64_t run_id, int64_t *prev, int *found)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (store_prepare(s, "SELECT p.id FROM runs p, runs r WHERE r.id = ?1 AND p.id < r.id "
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
		return store_db_error(s, "cannot look up the previous run");
	return 0;
}

static int sample_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct sample_row r;
	const unsigned char *better = sqlite3_column_text(st, 6);

	(void)s;
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
	r.round = sqlite3_column_int(st, 11);
	if (!r.unit)
		r.unit = "";
	return c->fn.sample(&r, c->arg) != 0;
}

int store_each_sample(struct store *s, int64_t run_id,
		      int (*cb)(const struct sample_row *r, void *arg), void *arg)
{
	struct row_cb c = { .fn.sample = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, workload, row, iteration, value, unit, better, "
		    "duration_ns, user_ns, sys_ns, flag, round FROM samples WHERE run_id = ? "
		    "AND warmup = 0 ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read samples", sample_row, &c);
}

/* The kind stored in column i; returns 0, or -1 after printing why (the
 * schema's CHECK should make that impossible). */
static int column_kind(struct store *s, sqlite3_stmt *st, int i, enum monitor_kind *kind)
{
	const char *name = (const char *)sqlite3_column_text(st, i);

	for (int k = 0; k < MONITOR_NKINDS; k++)
		if (name && !strcmp(name, monitor_kind_name(k))) {
			*kind = k;
			return 0;
		}
	return error("%s: unknown monitor value kind '%s'", s->path, name ? name : "(null)");
}

static int monitor_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct monitor_row r;

	r.section = (const char *)sqlite3_column_text(st, 0);
	r.row = (const char *)sqlite3_column_text(st, 1);
	r.iteration = sqlite3_column_int(st, 2);
	r.source = (const char *)sqlite3_column_text(st, 3);
	r.key = (const char *)sqlite3_column_text(st, 4);
	if (column_kind(s, st, 5, &r.kind))
		return -1;
	r.value = sqlite3_column_double(st, 6);
	return c->fn.monitor(&r, c->arg) != 0;
}

int store_each_monitor(struct store *s, int64_t run_id,
		       int (*cb)(const struct monitor_row *r, void *arg), void *arg)
{
	struct row_cb c = { .fn.monitor = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, row, iteration, source, key, kind, value "
		    "FROM monitor_values WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read monitor values", monitor_row, &c);
}

static int monitor_summary_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct monitor_summary m;

	m.section = (const char *)sqlite3_column_text(st, 0);
	m.row = (const char *)sqlite3_column_text(st, 1);
	m.source = (const char *)sqlite3_column_text(st, 2);
	m.key = (const char *)sqlite3_column_text(st, 3);
	if (column_kind(s, st, 4, &m.kind))
		return -1;
	m.mean = sqlite3_column_double(st, 5);
	m.min = sqlite3_column_double(st, 6);
	m.max = sqlite3_column_double(st, 7);
	m.n = sqlite3_column_int64(st, 8);
	return c->fn.monitor_summary(&m, c->arg) != 0;
}

int store_each_monitor_summary(struct store *s, int64_t run_id,
			       int (*cb)(const struct monitor_summary *m, void *arg),
			       void *arg)
{
	struct row_cb c = { .fn.monitor_summary = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, row, source, key, kind, avg(value), min(value), "
		    "max(value), count(*) FROM monitor_values WHERE run_id = ? AND iteration > 0 "
		    "GROUP BY section, row, source, key, kind ORDER BY min(rowid)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot summarise monitor values", monitor_summary_row,
			       &c);
}

static int section_count_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct section_count n;

	(void)s;
	n.section = (const char *)sqlite3_column_text(st, 0);
	n.samples = sqlite3_column_int64(st, 1);
	n.flagged = sqlite3_column_int64(st, 2);
	n.warmups = sqlite3_column_int64(st, 3);
	n.warmup_ns = sqlite3_column_int64(st, 4);
	return c->fn.section_count(&n, c->arg) != 0;
}

int store_each_section_count(struct store *s, int64_t run_id,
			     int (*cb)(const struct section_count *c, void *arg), void *arg)
{
	struct row_cb c = { .fn.section_count = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	/* A warm-up's time once, however many result rows it stored. */
	if (store_prepare(s, "SELECT section, total(warmup = 0), "
		    "total(warmup = 0 AND flag IS NOT NULL AND flag <> ''), total(warmup), "
		    "(SELECT total(d) FROM (SELECT max(w.duration_ns) AS d FROM samples w "
		    "WHERE w.run_id = ?1 AND w.section = s.section AND w.warmup "
		    "GROUP BY w.round, w.iteration, w.started_at)) "
		    "FROM samples s WHERE run_id = ?1 GROUP BY section ORDER BY min(rowid)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot count samples", section_count_row, &c);
}

static int failure_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct failure_row r;

	(void)s;
	r.section = (const char *)sqlite3_column_text(st, 0);
	r.row = (const char *)sqlite3_column_text(st, 1);
	r.iteration = sqlite3_column_int(st, 2);
	r.reason = (const char *)sqlite3_column_text(st, 3);
	return c->fn.failure(&r, c->arg) != 0;
}

int store_each_failure(struct store *s, int64_t run_id,
		       int (*cb)(const struct failure_row *r, void *arg), void *arg)
{
	struct row_cb c = { .fn.failure = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, row, iteration, reason FROM failures "
		    "WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read failures", failure_row, &c);
}

static int meta_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const unsigned char *v = sqlite3_column_text(st, 2);

	(void)s;
	return c->fn.meta((const char *)sqlite3_column_text(st, 0),
			  (const char *)sqlite3_column_text(st, 1),
			  v ? (const char *)v : "", c->arg) != 0;
}

int store_each_meta(struct store *s, int64_t run_id,
		    int (*cb)(const char *section, const char *key, const char *value, void *arg),
		    void *arg)
{
	struct row_cb c = { .fn.meta = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, key, value FROM run_meta WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read run facts", meta_row, &c);
}

static int run_meta_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	const unsigned char *v = sqlite3_column_text(st, 1);

	(void)s;
	return c->fn.run_meta(sqlite3_column_int64(st, 0), v ? (const char *)v : "",
			      c->arg) != 0;
}

int store_each_run_with_meta(struct store *s, const char *section, const char *key,
			     int (*cb)(int64_t run_id, const char *value, void *arg),
			     void *arg)
{
	struct row_cb c = { .fn.run_meta = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT run_id, value FROM run_meta WHERE section = ? AND key = ? "
		    "ORDER BY run_id, rowid", &st))
		return -1;
	store_bind_text(st, 1, section);
	store_bind_text(st, 2, key);
	return store_step_rows(s, st, "cannot read run facts", run_meta_row, &c);
}

int store_runs_named_on(struct store *s, const char *name, const char *host,
			int64_t **ids, size_t *n)
{
	if (!host)
		return store_runs_named(s, name, ids, n);
	return collect_ids(s, "SELECT r.id FROM runs r JOIN machines m ON m.id = r.machine_id "
			   "WHERE r.name = ? AND m.hostname = ? AND r.status = 'complete' "
			   "ORDER BY r.id", name, host, ids, n);
}

int store_count_runs(struct store *s, int64_t *n)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*n = 0;
	if (store_prepare(s, "SELECT count(*) FROM runs", &st))
		return -1;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_db_error(s, "cannot count runs");
	return 0;
}

struct name_walk {
	int (*cb)(const char *name, void *arg);
	void *arg;
};

static int name_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	struct name_walk *w = ctx;

	(void)s;
	return w->cb((const char *)sqlite3_column_text(st, 0), w->arg) ? 1 : 0;
}

int store_each_name(struct store *s, enum store_name_kind kind,
		    int (*cb)(const char *name, void *arg), void *arg)
{
	static const char *const sql[] = {
		[STORE_NAME_RUN] = "SELECT DISTINCT name FROM runs ORDER BY 1",
		[STORE_NAME_CONFIG] = "SELECT DISTINCT config_name FROM runs "
				      "WHERE config_name IS NOT NULL ORDER BY 1",
		[STORE_NAME_HOST] = "SELECT DISTINCT hostname FROM machines ORDER BY 1",
		[STORE_NAME_EXPERIMENT] = "SELECT DISTINCT name FROM experiments ORDER BY 1",
	};
	struct name_walk w = { .cb = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, sql[kind], &st))
		return -1;
	return store_step_rows(s, st, "cannot list names", name_row, &w);
}

/* A column that may be NULL, as a double (NaN for NULL). */
static double col_double(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static int row_result_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct row_result r = {
		.section = (const char *)sqlite3_column_text(st, 0),
		.row = (const char *)sqlite3_column_text(st, 1),
		.round = sqlite3_column_int(st, 2),
		.iterations = sqlite3_column_int(st, 3),
		.ci_target = sqlite3_column_double(st, 4),
		.ci_reached = col_double(st, 5),
		.met = sqlite3_column_int(st, 6),
	};

	(void)s;
	return c->fn.row_result(&r, c->arg) != 0;
}

int store_each_row_result(struct store *s, int64_t run_id,
			  int (*cb)(const struct row_result *r, void *arg), void *arg)
{
	struct row_cb c = { .fn.row_result = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, row, round, iterations, ci_target, ci_reached, met "
			  "FROM row_results WHERE run_id = ? ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read the run's row results", row_result_row, &c);
}

static int sample_round_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;

	(void)s;
	return c->fn.sample_round((const char *)sqlite3_column_text(st, 0),
				  (const char *)sqlite3_column_text(st, 1),
				  sqlite3_column_int(st, 2), sqlite3_column_int(st, 3),
				  sqlite3_column_double(st, 4), c->arg) != 0;
}

int store_each_sample_round(struct store *s, int64_t run_id,
			    int (*cb)(const char *section, const char *row, int round,
				      int iteration, double value, void *arg), void *arg)
{
	struct row_cb c = { .fn.sample_round = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT section, row, round, iteration, value FROM samples "
			  "WHERE run_id = ? AND warmup = 0 ORDER BY rowid", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	return store_step_rows(s, st, "cannot read the run's samples", sample_round_row, &c);
}

int store_run_rounds(struct store *s, int64_t run_id, int *rounds)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*rounds = 1;
	if (store_prepare(s, "SELECT max(round) FROM samples WHERE run_id = ? AND warmup = 0", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		*rounds = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the run's rounds");
	return 0;
}

int store_section_time(struct store *s, int64_t run_id, const char *section,
		       int64_t *nsamples, int64_t *duration_ns)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*nsamples = *duration_ns = 0;
	/* The result rows of one sample share its start time. */
	if (store_prepare(s, "SELECT COUNT(*), COALESCE(SUM(d), 0) FROM (SELECT MAX(duration_ns) d "
		    "FROM samples WHERE run_id = ? AND section = ? AND duration_ns IS NOT NULL "
		    "GROUP BY started_at, iteration)", &st))
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	sqlite3_bind_text(st, 2, section, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		*nsamples = sqlite3_column_int64(st, 0);
		*duration_ns = sqlite3_column_int64(st, 1);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_db_error(s, "cannot read the samples' durations");
	return 0;
}
