/* watch_bundle: a watch's records in bundles, so that the cycles a node
 * ran reach the store that collects its bundles: export writes a host's
 * watches with their cycles, verdicts and mails, and the experiments and
 * bisections they name; import checks them (with the rules of
 * bundle_rules.c) and adds what the store lacks, a cycle it holds in an
 * earlier state (running, its mail pending) brought up to date. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "db/bundle_check.h"
#include "lib/strbuf.h"

#include <sqlite3.h>
#include <string.h>

const char *const bundle_watch_tables[] = {
	"watches", "watch_cycles", "watch_verdicts", "watch_mails", "experiments",
	"experiment_looks", "bisects", "bisect_commits", "bisect_steps",
};
const size_t bundle_nwatch_tables = sizeof(bundle_watch_tables) / sizeof(bundle_watch_tables[0]);

/* Every reference between the records resolves within the bundle: import
 * maps each to the row the store gives it. */
const struct bundle_watch_check bundle_watch_checks[] = {
	{ "SELECT id, watch_id FROM watch_cycles WHERE watch_id NOT IN (SELECT id FROM watches)",
	  "watch cycle #%s names watch #%s, which it lacks" },
	{ "SELECT c.id, c.hostname FROM watch_cycles c JOIN watches w ON w.id = c.watch_id "
	  "WHERE c.hostname IS NOT w.hostname", "watch cycle #%s ran on '%s', not its watch's host" },
	{ "SELECT started_at, pid FROM watch_cycles GROUP BY watch_id, started_at, pid "
	  "HAVING count(*) > 1", "two cycles of a watch started at %s by pid %s" },
	{ "SELECT id, experiment_id FROM watch_cycles WHERE experiment_id IS NOT NULL AND "
	  "experiment_id NOT IN (SELECT id FROM experiments)",
	  "watch cycle #%s names experiment #%s, which it lacks" },
	{ "SELECT id, bisect_id FROM watch_cycles WHERE bisect_id IS NOT NULL AND "
	  "bisect_id NOT IN (SELECT id FROM bisects)",
	  "watch cycle #%s names bisection #%s, which it lacks" },
	{ "SELECT cycle_id, row FROM watch_verdicts WHERE cycle_id NOT IN "
	  "(SELECT id FROM watch_cycles)", "a verdict names watch cycle #%s (row %s), which it lacks" },
	{ "SELECT cycle_id, bisect_id FROM watch_verdicts WHERE bisect_id IS NOT NULL AND "
	  "bisect_id NOT IN (SELECT id FROM bisects)",
	  "a verdict of watch cycle #%s names bisection #%s, which it lacks" },
	{ "SELECT id, cycle_id FROM watch_mails WHERE cycle_id NOT IN (SELECT id FROM watch_cycles) "
	  "OR watch_id IS NOT (SELECT watch_id FROM watch_cycles WHERE id = cycle_id)",
	  "watch mail #%s names watch cycle #%s, which it lacks or is another watch's" },
	{ "SELECT bisect_id, idx FROM bisect_commits WHERE bisect_id NOT IN (SELECT id FROM bisects)",
	  "bisection #%s (commit %s) is not in it" },
	{ "SELECT bisect_id, step FROM bisect_steps WHERE bisect_id NOT IN (SELECT id FROM bisects) "
	  "OR (experiment_id IS NOT NULL AND experiment_id NOT IN (SELECT id FROM experiments))",
	  "step %2$s of bisection #%1$s names a bisection or an experiment it lacks" },
	{ "SELECT experiment_id, look FROM experiment_looks WHERE experiment_id NOT IN "
	  "(SELECT id FROM experiments)", "experiment #%s (look %s) is not in it" },
};
const size_t bundle_nwatch_checks = sizeof(bundle_watch_checks) / sizeof(bundle_watch_checks[0]);

/* ---- export ---- */

int store_export_watch(struct store *s, const char *host, const char *path)
{
	char *sql = sqlite3_mprintf(
		"INSERT INTO main.watches SELECT * FROM store.watches WHERE hostname = %Q "
		"ORDER BY id;"
		"INSERT INTO main.watch_cycles SELECT * FROM store.watch_cycles WHERE watch_id IN "
		"(SELECT id FROM main.watches) ORDER BY id;"
		"INSERT INTO main.watch_verdicts SELECT * FROM store.watch_verdicts WHERE cycle_id IN "
		"(SELECT id FROM main.watch_cycles) ORDER BY rowid;"
		"INSERT INTO main.watch_mails SELECT * FROM store.watch_mails WHERE cycle_id IN "
		"(SELECT id FROM main.watch_cycles) ORDER BY id;"
		"INSERT INTO main.bisects SELECT * FROM store.bisects WHERE id IN "
		"(SELECT bisect_id FROM main.watch_cycles UNION SELECT bisect_id FROM "
		"main.watch_verdicts) ORDER BY id;"
		"INSERT INTO main.bisect_commits SELECT * FROM store.bisect_commits WHERE bisect_id IN "
		"(SELECT id FROM main.bisects) ORDER BY rowid;"
		"INSERT INTO main.bisect_steps SELECT * FROM store.bisect_steps WHERE bisect_id IN "
		"(SELECT id FROM main.bisects) ORDER BY rowid;"
		"INSERT INTO main.experiments SELECT * FROM store.experiments WHERE id IN "
		"(SELECT experiment_id FROM main.watch_cycles UNION SELECT experiment_id FROM "
		"main.bisect_steps) ORDER BY id;"
		"INSERT INTO main.experiment_looks SELECT * FROM store.experiment_looks WHERE "
		"experiment_id IN (SELECT id FROM main.experiments) ORDER BY rowid;", host);
	int rc = bundle_export_sql(s, path, sql);

	sqlite3_free(sql);
	return rc;
}

int store_watch_signature(struct store *s, const char *host, struct strbuf *out)
{
	sqlite3_stmt *st = NULL;
	int rc;

	/* What changes as cycles begin, advance, end and send their mails. */
	if (store_prepare(s, "SELECT count(*), coalesce(max(c.id), 0), "
		    "coalesce(sum(c.state = 'running'), 0), coalesce(max(c.finished_at), ''), "
		    "(SELECT count(*) FROM watch_verdicts v JOIN watch_cycles vc ON vc.id = v.cycle_id "
		    "JOIN watches vw ON vw.id = vc.watch_id WHERE vw.hostname = ?1 AND "
		    "v.culprit IS NOT NULL), "
		    "(SELECT count(*) || ' ' || coalesce(sum(m.state = 'sent'), 0) || ' ' || "
		    "coalesce(sum(m.attempts), 0) FROM watch_mails m JOIN watches mw ON "
		    "mw.id = m.watch_id WHERE mw.hostname = ?1), "
		    "coalesce(group_concat(c.step, ''), '') "
		    "FROM watch_cycles c JOIN watches w ON w.id = c.watch_id WHERE w.hostname = ?1",
		    &st))
		return -1;
	store_bind_text(st, 1, host);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW && sqlite3_column_int64(st, 0) > 0)
		strbuf_addf(out, "cycles %lld last %lld running %lld finished %s culprits %lld "
			    "mails %s steps %s\n", sqlite3_column_int64(st, 0),
			    sqlite3_column_int64(st, 1), sqlite3_column_int64(st, 2),
			    (const char *)sqlite3_column_text(st, 3), sqlite3_column_int64(st, 4),
			    (const char *)sqlite3_column_text(st, 5),
			    (const char *)sqlite3_column_text(st, 6));
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return store_db_error(s, "cannot read the watches");
	return 0;
}

int store_watch_hosts(struct store *s, void (*cb)(const char *host, void *arg), void *arg)
{
	sqlite3_stmt *st = NULL;
	int rc;

	if (store_prepare(s, "SELECT DISTINCT hostname FROM watches ORDER BY hostname", &st))
		return -1;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		cb((const char *)sqlite3_column_text(st, 0), arg);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the watches");
	return 0;
}

/* ---- import ---- */

static int exec_sql(struct store *s, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(s->db, sql, NULL, NULL, &msg) != SQLITE_OK) {
		sqlite3_free(msg);
		return store_db_error(s, "cannot import the watch's records");
	}
	return 0;
}

/* How far a cycle of schema P, aliased C, has gone: ended, mails sent,
 * tries to send, then its step. A bundle's cycle further than the
 * store's replaces it. Its subqueries' aliases (am, av) are its own. */
#define ADVANCE(P, C) \
	"((" C ".state <> 'running') * 1000000000 + " \
	"(SELECT count(*) FROM " P ".watch_mails am WHERE am.cycle_id = " C ".id AND " \
	"am.state = 'sent') * 1000000 + (SELECT coalesce(sum(am.attempts), 0) FROM " P \
	".watch_mails am WHERE am.cycle_id = " C ".id) * 100 + " \
	"(SELECT count(*) FROM " P ".watch_verdicts av WHERE av.cycle_id = " C ".id AND " \
	"av.culprit IS NOT NULL) * 10 + " \
	"CASE " C ".step WHEN 'fetch' THEN 0 WHEN 'build' THEN 1 WHEN 'experiment' THEN 2 " \
	"WHEN 'bisect' THEN 3 WHEN 'mail' THEN 4 ELSE 5 END)"

#define SAME_WATCH(A, B) \
	A ".hostname = " B ".hostname AND " A ".tree = " B ".tree AND " A ".remote = " B \
	".remote AND " A ".branch = " B ".branch"

/* The store's id of a row of the bundle by uuid, the bundle's id in
 * temp.import_X(bundle_id, uuid, new_id, added). */
static int map_by_uuid(struct store *s, const char *table, const char *map)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_addf(&sql, "CREATE TEMP TABLE IF NOT EXISTS %s(bundle_id INTEGER PRIMARY KEY, "
		    "uuid TEXT, new_id INTEGER, added INTEGER); DELETE FROM temp.%s;"
		    "INSERT INTO temp.%s(bundle_id, uuid, added) SELECT id, uuid, uuid NOT IN "
		    "(SELECT uuid FROM main.%s) FROM bundle.%s;", map, map, map, table, table);
	rc = exec_sql(s, sql.buf);
	strbuf_release(&sql);
	return rc;
}

static int set_new_ids(struct store *s, const char *table, const char *map)
{
	struct strbuf sql = STRBUF_INIT;
	int rc;

	strbuf_addf(&sql, "UPDATE temp.%s SET new_id = (SELECT id FROM main.%s m WHERE "
		    "m.uuid = %s.uuid)", map, table, map);
	rc = exec_sql(s, sql.buf);
	strbuf_release(&sql);
	return rc;
}

static int add_experiments_and_bisects(struct store *s)
{
	static const char *const experiment_repl[] = {
		"id", NULL,
		/* Nobody writes an imported experiment any more. */
		"status", "CASE t.status WHEN 'running' THEN 'interrupted' ELSE t.status END",
		NULL,
	};
	static const char *const look_repl[] = { "experiment_id", "i.new_id", NULL };
	static const char *const bisect_repl[] = {
		"id", NULL,
		"status", "CASE t.status WHEN 'running' THEN 'interrupted' ELSE t.status END",
		NULL,
	};
	static const char *const commit_repl[] = { "bisect_id", "i.new_id", NULL };
	static const char *const step_repl[] = {
		"bisect_id", "i.new_id",
		"experiment_id", "(SELECT new_id FROM temp.import_experiments WHERE "
				 "bundle_id = t.experiment_id)",
		NULL,
	};

	return map_by_uuid(s, "experiments", "import_experiments") ||
	       bundle_copy_table(s, "experiments", experiment_repl,
				 "WHERE t.id IN (SELECT bundle_id FROM temp.import_experiments "
				 "WHERE added) ORDER BY t.id") ||
	       set_new_ids(s, "experiments", "import_experiments") ||
	       bundle_copy_table(s, "experiment_looks", look_repl,
				 "JOIN temp.import_experiments i ON i.bundle_id = t.experiment_id "
				 "AND i.added ORDER BY t.rowid") ||
	       map_by_uuid(s, "bisects", "import_bisects") ||
	       bundle_copy_table(s, "bisects", bisect_repl,
				 "WHERE t.id IN (SELECT bundle_id FROM temp.import_bisects WHERE "
				 "added) ORDER BY t.id") ||
	       set_new_ids(s, "bisects", "import_bisects") ||
	       bundle_copy_table(s, "bisect_commits", commit_repl,
				 "JOIN temp.import_bisects i ON i.bundle_id = t.bisect_id AND "
				 "i.added ORDER BY t.rowid") ||
	       bundle_copy_table(s, "bisect_steps", step_repl,
				 "JOIN temp.import_bisects i ON i.bundle_id = t.bisect_id AND "
				 "i.added ORDER BY t.rowid");
}

static int add_cycles(struct store *s)
{
	static const char *const watch_repl[] = { "id", NULL, NULL };
	static const char *const cycle_repl[] = {
		/* A cycle brought up to date keeps its id: NULL gives a new one. */
		"id", "i.old_id",
		"watch_id", "(SELECT new_id FROM temp.import_watches WHERE bundle_id = t.watch_id)",
		"experiment_id", "(SELECT new_id FROM temp.import_experiments WHERE "
				 "bundle_id = t.experiment_id)",
		"bisect_id", "(SELECT new_id FROM temp.import_bisects WHERE bundle_id = t.bisect_id)",
		NULL,
	};
	static const char *const verdict_repl[] = {
		"cycle_id", "i.new_id",
		"bisect_id", "(SELECT new_id FROM temp.import_bisects WHERE bundle_id = t.bisect_id)",
		NULL,
	};
	static const char *const mail_repl[] = {
		"id", NULL,
		"watch_id", "(SELECT new_id FROM temp.import_watches WHERE bundle_id = t.watch_id)",
		"cycle_id", "i.new_id",
		NULL,
	};

	return bundle_copy_table(s, "watches", watch_repl,
				 "WHERE NOT EXISTS (SELECT 1 FROM main.watches m WHERE "
				 SAME_WATCH("m", "t") ") ORDER BY t.id") ||
	       exec_sql(s, "CREATE TEMP TABLE IF NOT EXISTS import_watches(bundle_id INTEGER "
			"PRIMARY KEY, new_id INTEGER); DELETE FROM temp.import_watches;"
			"INSERT INTO temp.import_watches SELECT b.id, m.id FROM bundle.watches b "
			"JOIN main.watches m ON " SAME_WATCH("m", "b") ";"
			/* A cycle brought up to date: its old rows go, the new come. */
			"DELETE FROM main.watch_verdicts WHERE cycle_id IN (SELECT old_id FROM "
			"temp.import_cycles WHERE action = 'update');"
			"DELETE FROM main.watch_mails WHERE cycle_id IN (SELECT old_id FROM "
			"temp.import_cycles WHERE action = 'update');"
			"DELETE FROM main.watch_cycles WHERE id IN (SELECT old_id FROM "
			"temp.import_cycles WHERE action = 'update');") ||
	       bundle_copy_table(s, "watch_cycles", cycle_repl,
				 "JOIN temp.import_cycles i ON i.bundle_id = t.id AND "
				 "i.action <> 'keep' ORDER BY t.id") ||
	       exec_sql(s, "UPDATE temp.import_cycles SET new_id = (SELECT m.id FROM "
			"main.watch_cycles m JOIN bundle.watch_cycles b ON b.id = "
			"import_cycles.bundle_id WHERE m.watch_id = (SELECT new_id FROM "
			"temp.import_watches WHERE bundle_id = b.watch_id) AND m.started_at = "
			"b.started_at AND m.pid = b.pid) WHERE action <> 'keep';"
			/* A mail is one a (watch, kind, row, culprit): the bundle's state of
			 * it replaces the store's. */
			"DELETE FROM main.watch_mails WHERE (watch_id, kind, section, row, culprit) "
			"IN (SELECT (SELECT new_id FROM temp.import_watches WHERE bundle_id = "
			"b.watch_id), b.kind, b.section, b.row, b.culprit FROM bundle.watch_mails b "
			"JOIN temp.import_cycles i ON i.bundle_id = b.cycle_id AND "
			"i.action <> 'keep');") ||
	       bundle_copy_table(s, "watch_verdicts", verdict_repl,
				 "JOIN temp.import_cycles i ON i.bundle_id = t.cycle_id AND "
				 "i.action <> 'keep' ORDER BY t.rowid") ||
	       bundle_copy_table(s, "watch_mails", mail_repl,
				 "JOIN temp.import_cycles i ON i.bundle_id = t.cycle_id AND "
				 "i.action <> 'keep' ORDER BY t.id");
}

int bundle_import_watch(struct store *s, int dry_run, size_t *cycles)
{
	sqlite3_stmt *st = NULL;
	int rc = -1;

	*cycles = 0;
	/* Each cycle of the bundle, the store's copy of it (same watch,
	 * start and writer) and what is done: add, update or keep. */
	if (exec_sql(s, "CREATE TEMP TABLE IF NOT EXISTS import_cycles(bundle_id INTEGER PRIMARY "
		     "KEY, old_id INTEGER, new_id INTEGER, action TEXT);"
		     "DELETE FROM temp.import_cycles;"
		     "INSERT INTO temp.import_cycles(bundle_id, old_id, action) "
		     "SELECT b.id, m.id, CASE WHEN m.id IS NULL THEN 'add' WHEN "
		     ADVANCE("bundle", "b") " > " ADVANCE("main", "m") " THEN 'update' "
		     "ELSE 'keep' END FROM bundle.watch_cycles b "
		     "JOIN bundle.watches bw ON bw.id = b.watch_id "
		     "LEFT JOIN main.watches mw ON " SAME_WATCH("mw", "bw") " "
		     "LEFT JOIN main.watch_cycles m ON m.watch_id = mw.id AND "
		     "m.started_at = b.started_at AND m.pid = b.pid") ||
	    store_prepare(s, "SELECT count(*) FROM temp.import_cycles WHERE action <> 'keep'", &st))
		goto out;
	if (sqlite3_step(st) == SQLITE_ROW)
		*cycles = (size_t)sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (dry_run || !*cycles) {
		rc = 0;
		goto out;
	}
	if (add_experiments_and_bisects(s) || add_cycles(s))
		goto out;
	rc = 0;
out:
	sqlite3_exec(s->db, "DROP TABLE IF EXISTS temp.import_cycles;"
		     "DROP TABLE IF EXISTS temp.import_watches;"
		     "DROP TABLE IF EXISTS temp.import_experiments;"
		     "DROP TABLE IF EXISTS temp.import_bisects;", NULL, NULL, NULL);
	return rc;
}
