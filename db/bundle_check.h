/* bundle_check: what the checks of a bundle (bundle.c) share with the
 * rules of its values (bundle_rules.c) and the watch's records in it
 * (watch_bundle.c). Nothing outside db/ includes it. */
#ifndef KBENCH_DB_BUNDLE_CHECK_H
#define KBENCH_DB_BUNDLE_CHECK_H

#include <stddef.h>

struct store;
struct strbuf;

/* The most samples a run of a bundle may hold, as run stores them. */
#define BUNDLE_MAX_RUN_SAMPLES "10000000"

/* The check every value of column of table must pass, an SQL expression
 * of X (the column): the rule bundle_rules.c names, else NULL, a finite
 * number or a short text. */
const char *bundle_column_rule(const char *table, const char *column);

/* The watch's tables a bundle may hold, whose values are checked as the
 * runs' are. */
extern const char *const bundle_watch_tables[];
extern const size_t bundle_nwatch_tables;

/* A check of the watch's records of a bundle: sql selects two columns of
 * the first row that breaks it, fmt says what is wrong of them (two %s). */
struct bundle_watch_check {
	const char *sql, *fmt;
};
extern const struct bundle_watch_check bundle_watch_checks[];
extern const size_t bundle_nwatch_checks;

/* "file:" URI of path with query (e.g. "mode=ro"), for a connection
 * opened with SQLITE_OPEN_URI, appended to uri. */
void bundle_file_uri(struct strbuf *uri, const char *path, const char *query);

/* Write a new bundle at path (which must not exist): a store file of
 * this schema, into which sql (statements on main, the new file, with
 * the store attached read-only as "store") copies what it carries, in
 * one transaction; it appears whole at path or not at all. Return 0, or
 * -1 after printing why. */
int bundle_export_sql(struct store *s, const char *path, const char *sql);

/* INSERT INTO main.table (its columns) SELECT ... FROM bundle.table t
 * tail: each column t.column, or the expression repl gives for it (pairs
 * of name and expression, NULL-ended; a NULL expression leaves the
 * column out). Return 0, or -1 after printing why. */
int bundle_copy_table(struct store *s, const char *table, const char *const *repl,
		      const char *tail);

/* Add the watch's records of the bundle attached as "bundle" (checked)
 * that the store lacks, or holds as an earlier state of theirs, within
 * the import's transaction; *cycles the cycles added or brought up to
 * date (with dry_run, that would be; nothing changed). Return 0, or -1
 * after printing why. */
int bundle_import_watch(struct store *s, int dry_run, size_t *cycles);

#endif
