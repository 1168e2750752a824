/* internal: what store.c (open, migrate), store_write.c (insert),
 * store_watch.c (the look at the store's files), the read paths (query.c,
 * series.c, sql.c) and liveness.c (is a run's writer alive) share: the
 * store itself and the statement helpers. Nothing outside db/ includes
 * it. */
#ifndef KBENCH_DB_INTERNAL_H
#define KBENCH_DB_INTERNAL_H

#include "db/store.h"

#include <sqlite3.h>
#include <stdint.h>
#include <sys/types.h>

struct store {
	sqlite3 *db;
	char *path;
	int64_t busy_timeout_ms;	/* how long a lock is waited for */
	int64_t busy_since_ns;		/* CLOCK_MONOTONIC, when the wait began */
	enum store_error_kind last_error;
	int immutable;			/* opened as immutable (open_readonly) */
	int readonly;			/* opened read-only (open_readonly) */
	char boot_id[40];		/* of the reader, read on first need */
	int boot_id_read;
	int watched;			/* the file below was seen at open */
	dev_t dev;			/* the file's device and inode then */
	ino_t ino;
	int had_header;			/* it held an SQLite header then */
	int damaged;			/* found damaged: nothing more is done */
	int wal;			/* in WAL mode: its log and index are checked */
	sqlite3_stmt *ins_sample;
	sqlite3_stmt *ins_monitor;
	sqlite3_stmt *ins_monitors;	/* STORE_MONITOR_BATCH rows at once */
	sqlite3_stmt *count_sample;	/* runs.nsamples + 1 */
};

/* Monitor values are stored this many rows to a statement: a sample's
 * 170 vmstat counters in 6 statements rather than 170 (each statement
 * also rebuilds the table behind the kind column's CHECK ... IN list). */
#define STORE_MONITOR_BATCH 32

/* The measured samples of the run whose id the SQL expression RUN gives,
 * counted as runs.nsamples keeps them: one a sample, however many result
 * rows it stored (they share section, round, iteration and start time;
 * rows without a start time count one by one), warm-ups left out. For a
 * store that adds samples other than one by one (recover, import). */
#define STORE_COUNT_SAMPLES(RUN) \
	"(SELECT count(DISTINCT s.section || char(31) || s.round || char(31) || " \
	"s.iteration || char(31) || coalesce(s.started_at, 'row ' || s.row)) " \
	"FROM main.samples s WHERE s.run_id = " RUN " AND s.warmup = 0)"

/* Print "WHAT in PATH: sqlite's message", note the kind of the failure
 * and return -1. */
int store_db_error(struct store *s, const char *what);
/* Prepare sql into *st; return 0, or -1 after printing why. */
int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st);
/* Bind v to parameter i, NULL as SQL NULL. */
void store_bind_text(sqlite3_stmt *st, int i, const char *v);
/* Column i of st's current row as a string of its own (malloc'd), ""
 * for NULL. */
char *store_column_dup(sqlite3_stmt *st, int i);
/* Step a write statement to completion, then reset it. Return 0, or -1
 * after printing why as store_db_error(s, what). */
int store_step_done(struct store *s, sqlite3_stmt *st, const char *what);
/* The loop of every store_each_*() iterator: step st through its rows,
 * handing each to row(s, st, ctx), which returns 0 to go on, 1 to stop
 * there (the iterator's callback asked to) or -1 to stop after printing
 * an error; then finalize st. Return 0, or -1 after row's error or
 * SQLite's, printed as store_db_error(s, what). */
int store_step_rows(struct store *s, sqlite3_stmt *st, const char *what,
		    int (*row)(struct store *s, sqlite3_stmt *st, void *ctx), void *ctx);

struct fleet_collected;
struct row_result;
struct run_row_summary;
struct run_work;
struct series_sample;

/* An iterator's callback and its argument, as its row function gets
 * them: the member named for the iterator is set. */
struct row_cb {
	union {
		int (*sample)(const struct sample_row *r, void *arg);
		int (*monitor)(const struct monitor_row *r, void *arg);
		int (*monitor_summary)(const struct monitor_summary *m, void *arg);
		int (*section_count)(const struct section_count *c, void *arg);
		int (*failure)(const struct failure_row *r, void *arg);
		int (*meta)(const char *section, const char *key, const char *value,
			    void *arg);
		int (*series_sample)(const struct series_sample *r, void *arg);
		int (*run_work)(const struct run_work *w, void *arg);
		int (*collected)(const struct fleet_collected *c, void *arg);
		int (*run_row_summary)(const struct run_row_summary *r, void *arg);
		int (*row_result)(const struct row_result *r, void *arg);
		int (*sample_round)(const char *section, const char *row, int round,
				    int iteration, double value, void *arg);
		int (*recent_run)(int64_t id, const char *config_name, void *arg);
		int (*run_meta)(int64_t run_id, const char *value, void *arg);
	} fn;
	void *arg;
};

/* Run sql (one or more statements); on failure print "WHAT in PATH: why"
 * and return -1. store_exec_locking is for one statement that takes a
 * lock (BEGIN IMMEDIATE): tried again while the store is busy. */
int store_exec(struct store *s, const char *sql, const char *what);
int store_exec_locking(struct store *s, const char *sql, const char *what);
/* Give up a transaction after a failure already reported: quietly, as
 * SQLite may have rolled it back itself (a full disk does). */
void store_rollback(struct store *s);

/* The tables whose rows belong to one run (by run_id), besides runs
 * itself: what a bundle copies and what removing a run deletes. */
#define STORE_NRUN_TABLES 5
extern const char *const store_run_tables[STORE_NRUN_TABLES];

/* Whether the writer of a run still marked running may still be at work:
 * 0 when it is surely gone (its pid, boot or process start time says so),
 * 1 otherwise (also when it ran on another host, which cannot be told).
 * boot_id NULL or start_ticks 0: a run stored before they were, judged by
 * its pid alone. */
int run_writer_alive(struct store *s, const char *hostname, int64_t pid,
		     const char *boot_id, uint64_t start_ticks);
/* Whether boot_id (of a writer) names another boot than the running
 * kernel's: 0 when it is this boot, or when either is unknown. */
int store_other_boot(struct store *s, const char *boot_id);

/* Run the migrations that take db, a database that is not open as a store
 * (a bundle's private copy, an in-memory reference), from schema version
 * from to version to, setting user_version; name is for messages. No
 * transaction is opened. Returns 0, or -1 after printing why. */
int store_migrate_db(sqlite3 *db, const char *name, int from, int to);

/* The look at the store's files around each write transaction
 * (store_watch.c). store_watch_begin notes what the store's file is,
 * once it is set up. Before a write transaction, store_check_file: the
 * file is still the one opened, whole and writable; with the write lock
 * held, store_check_log: the write-ahead log still holds the frames its
 * index counts. Each returns 0, or -1 after printing what became of the
 * file, the store then found damaged. */
void store_watch_begin(struct store *s);
int store_check_file(struct store *s);
int store_check_log(struct store *s);

/* Remove the database file path and what SQLite may have left beside it
 * (its journal, write-ahead log and shared memory file). */
void store_remove_db_files(const char *path);

#endif
