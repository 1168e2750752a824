/* fleet: the store's reads of what kbench fleet collect fetched (the
 * fleet_collected table), so that each bundle is fetched once. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"

#include <sqlite3.h>

int store_fleet_is_collected(struct store *s, const char *source, const char *path,
			     int *found)
{
	sqlite3_stmt *st = NULL;
	int rc;

	*found = 0;
	if (store_prepare(s, "SELECT 1 FROM fleet_collected WHERE source = ? AND path = ?", &st))
		return -1;
	store_bind_text(st, 1, source);
	store_bind_text(st, 2, path);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, "cannot read the collected bundles");
	*found = rc == SQLITE_ROW;
	return 0;
}

static int collected_row(struct store *s, sqlite3_stmt *st, void *ctx)
{
	const struct row_cb *c = ctx;
	struct fleet_collected fc = {
		.source = (const char *)sqlite3_column_text(st, 0),
		.path = (const char *)sqlite3_column_text(st, 1),
		.size_bytes = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
			      sqlite3_column_int64(st, 2),
		.modified_at = (const char *)sqlite3_column_text(st, 3),
		.collected_at = (const char *)sqlite3_column_text(st, 4),
		.runs_added = sqlite3_column_int64(st, 5),
	};

	(void)s;
	return c->fn.collected(&fc, c->arg) != 0;
}

int store_fleet_each_collected(struct store *s, const char *source,
			       int (*cb)(const struct fleet_collected *c, void *arg), void *arg)
{
	struct row_cb c = { .fn.collected = cb, .arg = arg };
	sqlite3_stmt *st = NULL;

	if (store_prepare(s, "SELECT source, path, size_bytes, modified_at, collected_at, "
		    "runs_added FROM fleet_collected WHERE ?1 IS NULL OR source = ?1 ORDER BY id",
		    &st))
		return -1;
	store_bind_text(st, 1, source);
	return store_step_rows(s, st, "cannot read the collected bundles", collected_row, &c);
}
