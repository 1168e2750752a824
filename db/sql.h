/* sql: kbench query's read-only SQL on a store's file (sql.c). It opens
 * the file by its path, not through an open store. */
#ifndef KBENCH_DB_SQL_H
#define KBENCH_DB_SQL_H

#include <stddef.h>
#include <stdint.h>

/* One value of a row of kbench query, typed as SQLite stores it. */
enum store_sql_type {
	STORE_SQL_NULL,
	STORE_SQL_INTEGER,
	STORE_SQL_REAL,
	STORE_SQL_TEXT,
	STORE_SQL_BLOB,
};

struct store_sql_value {
	enum store_sql_type type;
	int64_t i;		/* STORE_SQL_INTEGER */
	double d;		/* STORE_SQL_REAL */
	const char *text;	/* STORE_SQL_TEXT and BLOB: the bytes (NUL-terminated) */
	size_t len;		/* their length */
};

/* Where the results of kbench query go. Each callback returns 0, or
 * non-zero to stop (store_sql_query then returns -1). The strings last
 * until the callback returns. */
struct store_sql_sink {
	/* A statement that returns rows begins (numbered from 1). */
	int (*begin)(void *arg, int statement, int ncols, const char *const *names);
	int (*row)(void *arg, int ncols, const struct store_sql_value *values);
	int (*end)(void *arg);
};

/* What bounds kbench query; 0 in a field: no bound. */
struct store_sql_limits {
	int64_t timeout_ms;	/* all statements together */
	int64_t heap_bytes;	/* SQLite's heap (one value: a quarter of it) */
	int64_t max_rows;	/* rows returned, all statements together */
};
#define STORE_SQL_TIMEOUT_MS 60000
#define STORE_SQL_HEAP_BYTES (512LL << 20)
#define STORE_SQL_MAX_ROWS 1000000

/* Run the statements of sql on the store at path, opened as
 * store_open_readonly() opens it (a missing file is not created, a file
 * that is not a kbench store is refused, a store on a read-only mount is
 * read) and made query_only. Every statement is prepared and checked
 * before any runs: one that would write or change the connection (INSERT,
 * UPDATE, DELETE, CREATE, DROP, ALTER, ATTACH, a PRAGMA that sets or does
 * more than read, a transaction) is refused, by an authorizer and
 * sqlite3_stmt_readonly(), and nothing runs; so is one calling
 * fts3_tokenizer() or load_extension(). Running, it is bounded by lim: a
 * statement past the time, memory or row limit stops with a message
 * naming the limit. Results go to sink. Returns 0, or -1 after printing
 * why. */
int store_sql_query(const char *path, const char *sql, const struct store_sql_limits *lim,
		    const struct store_sql_sink *sink, void *arg);

#endif
