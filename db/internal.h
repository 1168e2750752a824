/* internal: what store.c (open, migrate, insert) and query.c (read paths)
 * share: the store itself and the statement helpers. Nothing outside db/
 * includes it. */
#ifndef KBENCH_DB_INTERNAL_H
#define KBENCH_DB_INTERNAL_H

#include <sqlite3.h>

struct store {
	sqlite3 *db;
	char *path;
	sqlite3_stmt *ins_sample;
	sqlite3_stmt *ins_monitor;
};

/* Print "PATH: what: sqlite's message" and return -1. */
int store_db_error(struct store *s, const char *what);
/* Prepare sql into *st; return 0, or -1 after printing why. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st);
/* Bind v to parameter i, NULL as SQL NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v);

/* Run the migrations that take db, a database that is not open as a store
 * (a bundle's private copy, an in-memory reference), from schema version
 * from to version to, setting user_version; name is for messages. No
 * transaction is opened. Returns 0, or -1 after printing why. */
int store_migrate_db(sqlite3 *db, const char *name, int from, int to);

#endif
