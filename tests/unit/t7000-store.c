/* t7000-store: the store creates and migrates its schema, commits sample sets,
 * resolves selectors and refuses files that are not kbench databases.
 * Covers: db/store.c db/store_write.c db/schema.c */
#include "config.h"
#include "../tap.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count_cb(const struct sample_row *r, void *arg)
{
	(*(int *)arg)++;
	return 0;
}

struct monitors_seen {
	int n;		/* rows read back */
	int same;	/* of those, equal to the record stored */
};

static int monitor_cb(const struct monitor_row *r, void *arg)
{
	struct monitors_seen *m = arg;

	m->n++;
	if (!strcmp(r->section, "hackbench-a") && !strcmp(r->row, "1") && r->iteration == 1 &&
	    !strcmp(r->source, "workload") && !strcmp(r->key, "losses") && r->value == 3)
		m->same++;
	return 0;
}

static int begin(struct store *s, const char *name, const char *uuid, int64_t *id)
{
	struct machine_info m = { .hostname = "h", .cpu_model = "cpu", .cpus = 2, .cores = 2,
				  .packages = 1, .numa_nodes = 1, .mem_bytes = 1 << 30,
				  .topology_xml = "", .fingerprint = "fp1" };
	struct kernel_info k = { .release = "6.18.0", .version = "#1", .cmdline = "quiet" };
	struct run_record r = { .uuid = uuid, .name = name, .config_name = "quick",
				.config_text = "[hackbench-a]\n", .kbench_version = "t",
				.started_at = "2026-11-29T00:00:00Z" };

	return store_begin_run(s, &m, &k, &r, id);
}

int main(void)
{
	char path[] = "t_store.XXXXXX.db";
	struct store *s = NULL;
	struct strbuf err = STRBUF_INIT;
	int64_t id1, id2, got;
	int n = 0, found;
	struct monitors_seen mons = { 0 };
	int mons_rc, rc;
	struct sample_record rec[2] = { { "1", 0.5, "s", 0 }, { "2", 0.9, "s", 0 } };
	struct monitor_record mon = { .row = "1", .source = "workload", .key = "losses", .value = 3 };
	struct sample_set set = { .section = "hackbench-a", .workload = "hackbench",
				  .iteration = 1, .samples = rec, .nsamples = 2,
				  .monitors = &mon, .nmonitors = 1 };
	FILE *f;

	/* The runs below are made on host "h": a bare name means this host. */
	setenv("KBENCH_HOSTNAME", "h", 1);
	mkstemps(path, 3);
	unlink(path);
	ok(!store_open(path, &s), "a new database is created");
	ok(!begin(s, "base", "aaaaaaaa-0000-4000-8000-000000000001", &id1), "a run is recorded");
	ok(!store_add_sample_set(s, id1, &set), "a sample set is committed");
	ok(!store_finish_run(s, id1, "complete", "2026-11-29T00:01:00Z"), "the run is finished");
	ok(!begin(s, "base", "bbbbbbbb-0000-4000-8000-000000000002", &id2), "a second run of the same name");
	ok(!store_finish_run(s, id2, "complete", "2026-11-29T00:02:00Z"), "and finished");
	ok(!store_each_sample(s, id1, count_cb, &n) && n == 2, "its samples read back (%d)", n);
	mons_rc = store_each_monitor(s, id1, monitor_cb, &mons);
	ok(!mons_rc && mons.n == 1 && mons.same == 1,
	   "its monitor record reads back as stored (%d rows, %d equal)", mons.n, mons.same);
	ok(!store_resolve_run(s, "base", &got, &err) && got == id2, "a name picks the latest complete run");
	ok(!store_resolve_run(s, "#1", &got, &err) && got == id1, "#ID picks that run");
	ok(!store_resolve_run(s, "@1", &got, &err) && got == id1, "@ID picks that run");
	ok(!store_resolve_run(s, "@2", &got, &err) && got == id2, "... and @2 the second");
	strbuf_reset(&err);
	rc = store_resolve_run(s, "@9", &got, &err);
	ok(rc && strstr(err.buf, "no run @9 in "), "an id no run has says so: %s", err.buf);
	strbuf_reset(&err);
	rc = store_resolve_run(s, "@h", &got, &err);
	ok(rc && !strcmp(err.buf, "invalid run id '@h': expected @ID, a run's number (NAME@HOST "
			 "names a host)"), "@ and no number is no run id: %s", err.buf);
	strbuf_reset(&err);
	rc = store_resolve_run(s, "@-1", &got, &err);
	ok(rc && strstr(err.buf, "invalid run id '@-1'"), "nor @ and a sign: %s", err.buf);
	ok(!store_resolve_run(s, "aaaaaaaa", &got, &err) && got == id1, "a uuid prefix picks that run");
	ok(!store_resolve_run(s, "base@h", &got, &err) && got == id2, "NAME@HOST works");
	strbuf_reset(&err);
	ok(store_resolve_run(s, "nope", &got, &err) && strstr(err.buf, "no run named 'nope'"),
	   "an unknown name says so: %s", err.buf);
	ok(!store_previous_run(s, id2, &got, &found) && found && got == id1,
	   "the previous run of the same config on the same machine is found");
	store_close(s);
	ok(!store_open(path, &s), "reopening an existing database works");
	store_close(s);

	/* Not a database, and a database from the future. */
	f = fopen(path, "w");
	fputs("this is not sqlite, just text that is long enough to be a header..........\n", f);
	fclose(f);
	unlink("t_store.wal-check");
	ok(store_open(path, &s) && !s, "a text file is refused");
	unlink(path);
	{
		sqlite3 *db = NULL;
		int rc = sqlite3_open(path, &db);

		if (rc == SQLITE_OK)
			rc = sqlite3_exec(db, "PRAGMA user_version = 99; CREATE TABLE x(a);",
					  NULL, NULL, NULL);
		sqlite3_close(db);
		ok(rc == SQLITE_OK && store_open(path, &s) && !s, "a newer schema version is refused");
	}
	unlink(path);
	strbuf_release(&err);
	return done_testing();
}
