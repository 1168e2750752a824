/* store: the SQLite results database: open (looking before writing, and
 * read-only for readers), migrate (schema in schema.sql, migrations below)
 * under the write lock, and insert; the read paths are in query.c. Expects
 * a few writers (kbench run) and any number of readers; WAL keeps readers
 * from blocking writers, and a busy store is waited for with backoff. */
#include "config.h"
#include "db/store.h"
#include "db/internal.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

extern const char store_schema_v1[];
extern const char store_migration_v2[];
extern const char store_migration_v3[];
extern const char store_migration_v4[];
extern const char store_migration_v5[];
extern const char store_migration_v6[];
extern const char store_migration_v7[];
extern const char store_migration_v8[];
extern const char store_migration_v9[];
extern const char store_migration_v10[];
extern const char store_migration_v11[];
extern const char store_migration_v12[];

/* migrations[v] takes a database from user_version v to v + 1. */
static const char *const migrations[STORE_SCHEMA_VERSION] = {
	[0] = store_schema_v1,
	[1] = store_migration_v2,
	[2] = store_migration_v3,
	[3] = store_migration_v4,
	[4] = store_migration_v5,
	[5] = store_migration_v6,
	[6] = store_migration_v7,
	[7] = store_migration_v8,
	[8] = store_migration_v9,
	[9] = store_migration_v10,
	[10] = store_migration_v11,
	[11] = store_migration_v12,
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

enum store_error_kind store_last_error_kind(const struct store *s)
{
	return s->last_error;
}

static enum store_error_kind error_kind(int code)
{
	switch (code & 0xff) {
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return STORE_ERROR_BUSY;
	case SQLITE_FULL:
		return STORE_ERROR_FULL;
	case SQLITE_IOERR:
	case SQLITE_CANTOPEN:
	case SQLITE_READONLY:
	case SQLITE_PERM:
		return STORE_ERROR_IO;
	case SQLITE_CORRUPT:
	case SQLITE_NOTADB:
		return STORE_ERROR_DAMAGED;
	default:
		return STORE_ERROR_OTHER;
	}
}

/* After an error of kind IO: a store whose file was made immutable
 * under it fails its writes so ("disk I/O error"), and, were it closed,
 * SQLite's checkpoint would write its mapped index and fault (SIGBUS).
 * Looked at again, such a store is said damaged and never touched more. */
static void look_after_io_error(struct store *s)
{
	if (s->last_error == STORE_ERROR_IO && !s->damaged)
		store_check_file(s);
}

int store_db_error(struct store *s, const char *what)
{
	int rc;

	s->last_error = error_kind(sqlite3_errcode(s->db));
	s->damaged |= s->last_error == STORE_ERROR_DAMAGED;
	rc = error("%s in %s: %s", what, s->path, sqlite3_errmsg(s->db));
	look_after_io_error(s);
	return rc;
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
	const char *slash = strrchr(path, '/');
	struct strbuf dir = STRBUF_INIT, err = STRBUF_INIT;
	int rc = 0;

	if (!slash || slash == path)
		return 0;
	strbuf_add(&dir, path, (size_t)(slash - path));
	if (mkdir_p(dir.buf, &err))
		rc = error("%s", err.buf);
	strbuf_release(&dir);
	strbuf_release(&err);
	return rc;
}

/* The pause before try number `tries` (0, 1, ...) of a busy store: 1 ms,
 * doubling up to 100 ms, never past the deadline. */
static void busy_pause(const struct store *s, int tries, int64_t waited_ns)
{
	int64_t left_ns = s->busy_timeout_ms * 1000000 - waited_ns;
	int64_t pause_ns = (int64_t)1000000 << (tries < 7 ? tries : 7);
	struct timespec ts;

	if (pause_ns > 100000000)
		pause_ns = 100000000;
	if (pause_ns > left_ns)
		pause_ns = left_ns;
	if (pause_ns <= 0)
		return;
	ts.tv_sec = (time_t)(pause_ns / NSEC_PER_SEC);
	ts.tv_nsec = (long)(pause_ns % NSEC_PER_SEC);
	nanosleep(&ts, NULL);
}

/* SQLite's busy handler: keep trying until the busy timeout has passed
 * since this lock was first found taken. */
static int busy_wait(void *arg, int tries)
{
	struct store *s = arg;
	int64_t now = clock_ns(CLOCK_MONOTONIC);

	if (!tries)
		s->busy_since_ns = now;
	if (now - s->busy_since_ns >= s->busy_timeout_ms * 1000000)
		return 0;
	busy_pause(s, tries, now - s->busy_since_ns);
	return 1;
}

/* Once the store is found damaged, nothing more is written to it or read
 * from it through s: return -1 after saying so, or 0. */
static int refuse_damaged(struct store *s, const char *what)
{
	if (!s->damaged)
		return 0;
	s->last_error = STORE_ERROR_DAMAGED;
	return error("%s in %s: it was found damaged; nothing more is written to it", what,
		     s->path);
}

/* Run sql (one or more statements); on failure print "WHAT in PATH: why",
 * note its kind and return -1. */
static int exec_sql(struct store *s, const char *sql, const char *what)
{
	char *msg = NULL;
	int rc;

	if (refuse_damaged(s, what))
		return -1;
	rc = sqlite3_exec(s->db, sql, NULL, NULL, &msg);

	if (rc == SQLITE_OK)
		return 0;
	s->last_error = error_kind(rc);
	s->damaged |= s->last_error == STORE_ERROR_DAMAGED;
	error("%s in %s: %s", what, s->path, msg ? msg : sqlite3_errmsg(s->db));
	sqlite3_free(msg);
	look_after_io_error(s);
	return -1;
}

/* exec_sql of one statement that takes a lock (BEGIN IMMEDIATE, a change
 * of journal mode), tried again while the store is busy: SQLite does not
 * call the busy handler for every kind of busy. A write transaction
 * begins only on the file the store opened, whole (store_check_file, store_check_log). */
static int exec_locking(struct store *s, const char *sql, const char *what)
{
	int64_t start = clock_ns(CLOCK_MONOTONIC), waited = 0;
	int begin = !strcmp(sql, "BEGIN IMMEDIATE");
	int rc;

	if (refuse_damaged(s, what) || (begin && store_check_file(s)))
		return -1;
	for (int tries = 0;; tries++) {
		rc = sqlite3_exec(s->db, sql, NULL, NULL, NULL);
		waited = clock_ns(CLOCK_MONOTONIC) - start;
		if ((rc != SQLITE_BUSY && rc != SQLITE_LOCKED) ||
		    waited >= s->busy_timeout_ms * 1000000)
			break;
		busy_pause(s, tries, waited);
	}
	if (rc != SQLITE_OK)
		return store_db_error(s, what);
	if (begin && store_check_log(s)) {
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
		return -1;
	}
	return 0;
}

int store_exec(struct store *s, const char *sql, const char *what)
{
	return exec_sql(s, sql, what);
}

int store_exec_locking(struct store *s, const char *sql, const char *what)
{
	return exec_locking(s, sql, what);
}

/* Give up a transaction after a failure already reported: quietly, as
 * SQLite may have rolled it back itself (a full disk does). */
void store_rollback(struct store *s)
{
	if (!sqlite3_get_autocommit(s->db))
		sqlite3_exec(s->db, "ROLLBACK", NULL, NULL, NULL);
}

static int busy_timeout_from_env(int64_t *ms)
{
	const char *v = getenv("KBENCH_BUSY_TIMEOUT_MS");
	char *end;
	long long n;

	*ms = STORE_BUSY_TIMEOUT_MS;
	if (!v || !*v)
		return 0;
	errno = 0;
	n = strtoll(v, &end, 10);
	if (errno || *end || n < 0)
		return error("invalid KBENCH_BUSY_TIMEOUT_MS '%s': expected a number of milliseconds",
			     v);
	*ms = n;
	return 0;
}

static struct store *store_alloc(const char *path)
{
	struct store *s = xcalloc(1, sizeof(*s));

	s->path = xstrdup(path);
	return s;
}

/* Open a connection to name (the path, or a file: URI with flags
 * SQLITE_OPEN_URI) into s->db. Return 0, or -1 after printing why. */
static int open_db(struct store *s, const char *name, int flags)
{
	int rc = sqlite3_open_v2(name, &s->db, flags, NULL);

	if (rc != SQLITE_OK) {
		s->last_error = error_kind(rc);
		error("cannot open database '%s': %s", s->path,
		      s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(rc));
		return -1;
	}
	sqlite3_busy_handler(s->db, busy_wait, s);
	sqlite3_extended_result_codes(s->db, 0);
	return 0;
}

/* A read-only connection cannot checkpoint its store's write-ahead log,
 * so the last one to close leaves the -wal and -shm beside the file. Where
 * the store can be written, a read-write connection that reads once and
 * closes does it (SQLite checkpoints and removes both when the last
 * connection closes), so that a store is one file at rest. It gives up
 * at once, leaving them, if another connection holds a lock. */
static void tidy_wal(const char *path)
{
	struct strbuf wal = STRBUF_INIT;
	sqlite3 *db = NULL;

	strbuf_addf(&wal, "%s-wal", path);
	if (!access(wal.buf, F_OK) && !access(path, W_OK) &&
	    sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		sqlite3_exec(db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	sqlite3_close(db);
	strbuf_release(&wal);
}

/* The connections of stores found damaged, kept open (see close_db)
 * until the process ends: held here, what SQLite allocated for them stays
 * reachable, as it is, and a leak checker does not take it for lost. */
static sqlite3 *kept_open[8];
static size_t nkept_open;

static void close_db(struct store *s)
{
	sqlite3_finalize(s->ins_sample);
	sqlite3_finalize(s->ins_monitor);
	sqlite3_finalize(s->ins_monitors);
	sqlite3_finalize(s->count_sample);
	s->ins_sample = s->ins_monitor = s->ins_monitors = NULL;
	s->count_sample = NULL;
	/* A damaged store is left as it is: closing would checkpoint its
	 * log and write its index, whose mapping faults (SIGBUS) once the
	 * file is immutable. The process ends soon; the kernel closes it. */
	if (s->db && !s->damaged)
		sqlite3_close(s->db);
	else if (s->db && nkept_open < sizeof(kept_open) / sizeof(*kept_open))
		kept_open[nkept_open++] = s->db;
	if (s->db && s->readonly && !s->immutable)
		tidy_wal(s->path);
	s->db = NULL;
	s->immutable = 0;
	s->readonly = 0;
}

/* Whether the tables and key columns of a kbench store are there: a file
 * with a schema version but no application id (kbench before it set one)
 * is taken for a store only then. */
static int has_kbench_tables(struct store *s)
{
	sqlite3_stmt *st;
	int ours = 0;

	if (sqlite3_prepare_v2(s->db,
		"SELECT (SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN "
		"('machines', 'runs', 'samples', 'monitor_values', 'failures', 'run_meta')) = 6 "
		"AND (SELECT count(*) FROM pragma_table_info('runs') WHERE name IN "
		"('uuid', 'name', 'status', 'pid')) = 4 "
		"AND (SELECT count(*) FROM pragma_table_info('samples') WHERE name IN "
		"('run_id', 'section', 'row', 'iteration', 'value')) = 5",
		-1, &st, NULL) != SQLITE_OK)
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		ours = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return ours;
}

/* Read what the open file is and refuse it unless it is a kbench store
 * this build can use, or an empty file to make one of. *version is its
 * schema version (0: empty), *app_id its application id. Reads only.
 * Return 0, or -1 after printing why. */
static int identify(struct store *s, int *version, int *app_id)
{
	int rc, nobjects = 0;
	sqlite3_stmt *st = NULL;

	/* One statement, so one snapshot: read one by one, another process
	 * creating the store could commit between the schema version (0)
	 * and the count of tables (not 0), and a store being made would look
	 * like another program's file. */
	rc = sqlite3_prepare_v2(s->db, "SELECT (SELECT application_id FROM pragma_application_id), "
				"(SELECT user_version FROM pragma_user_version), "
				"(SELECT count(*) FROM sqlite_master)", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			*app_id = sqlite3_column_int(st, 0);
			*version = sqlite3_column_int(st, 1);
			nobjects = sqlite3_column_int(st, 2);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK) {
		if ((rc & 0xff) == SQLITE_NOTADB) {
			s->last_error = STORE_ERROR_OTHER;
			return error("%s: not a kbench database (not an SQLite file)", s->path);
		}
		return store_db_error(s, "cannot read the database");
	}
	s->last_error = STORE_ERROR_OTHER;
	if (*app_id && *app_id != STORE_APPLICATION_ID)
		return error("%s: not a kbench database (it belongs to another program: "
			     "application id 0x%08x)", s->path, (unsigned)*app_id);
	if (*version > STORE_SCHEMA_VERSION)
		return error("%s: schema version %d is newer than this kbench understands (%d); "
			     "upgrade kbench", s->path, *version, STORE_SCHEMA_VERSION);
	if (*version < 0)
		return error("%s: schema version %d is not one kbench writes (they count up from "
			     "1): the file is damaged, or not a kbench database", s->path, *version);
	if (*version == 0 && nobjects)
		return error("%s: not a kbench database (it has tables but no kbench schema version)",
			     s->path);
	if (*version > 0 && *app_id != STORE_APPLICATION_ID && !has_kbench_tables(s))
		return error("%s: not a kbench database (schema version %d, but not kbench's tables)",
			     s->path, *version);
	s->last_error = STORE_ERROR_NONE;
	return 0;
}

/* Bring the store to STORE_SCHEMA_VERSION, creating its schema if it is
 * empty. Under the write lock, and looked at again once it is held:
 * another process may have created or migrated the file meanwhile. */
static int migrate(struct store *s)
{
	char what[96], pragma[96];
	int v, app_id;

	if (identify(s, &v, &app_id))
		return -1;
	if (v == STORE_SCHEMA_VERSION && app_id == STORE_APPLICATION_ID)
		return 0;
	if (exec_locking(s, "BEGIN IMMEDIATE", "cannot lock the database to set up its schema"))
		return -1;
	if (identify(s, &v, &app_id))
		goto fail;
	for (; v < (int)NMIGRATIONS; v++) {
		snprintf(what, sizeof(what), "cannot migrate the database to schema version %d",
			 v + 1);
		if (exec_sql(s, migrations[v], what))
			goto fail;
	}
	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d; PRAGMA application_id = %d",
		 STORE_SCHEMA_VERSION, STORE_APPLICATION_ID);
	if (exec_sql(s, pragma, "cannot set the schema version") ||
	    exec_sql(s, "COMMIT", "cannot commit the schema"))
		goto fail;
	return 0;
fail:
	store_rollback(s);
	return -1;
}

/* Whether the file at path is an SQLite database in WAL mode (header
 * bytes 18 and 19 are 2). */
static int file_is_wal(const char *path)
{
	unsigned char h[20];
	int fd = open(path, O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return 0;
	rc = read_full(fd, h, sizeof(h));
	close(fd);
	return !rc && !memcmp(h, "SQLite format 3", 16) && h[18] == 2 && h[19] == 2;
}

/* path as a file: URI asking SQLite to take the file as immutable. */
static void immutable_uri(const char *path, struct strbuf *uri)
{
	strbuf_addstr(uri, "file:");
	for (const unsigned char *p = (const unsigned char *)path; *p; p++) {
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr("/._-~", *p))
			strbuf_addch(uri, (char)*p);
		else
			strbuf_addf(uri, "%%%02X", *p);
	}
	strbuf_addstr(uri, "?immutable=1");
}

/* Open s->path read-only. A WAL store needs its -shm (and -wal) beside it,
 * and a reader that cannot create them (a read-only directory or mount)
 * gets SQLITE_READONLY or SQLITE_CANTOPEN on the first read, and one that
 * cannot write an -shm a killed writer left half made gets SQLITE_PROTOCOL:
 * then, when no write-ahead log is left, nothing can be missed and the
 * file is opened as immutable (without locks, which such a reader could
 * not take anyway). Return 0, or -1 after printing why. */
static int open_readonly(struct store *s)
{
	struct strbuf wal = STRBUF_INIT, uri = STRBUF_INIT;
	struct stat st;
	int rc = -1, code;

	if (open_db(s, s->path, SQLITE_OPEN_READONLY))
		goto out;
	s->readonly = 1;
	code = sqlite3_exec(s->db, "SELECT count(*) FROM sqlite_master", NULL, NULL, NULL);
	if (code == SQLITE_OK || !((code & 0xff) == SQLITE_READONLY ||
				   (code & 0xff) == SQLITE_CANTOPEN ||
				   (code & 0xff) == SQLITE_PROTOCOL) || !file_is_wal(s->path)) {
		rc = 0;		/* what is wrong, if anything, is said by identify() */
		goto out;
	}
	/* A log of its 32-byte header alone (a writer killed as it began
	 * one) holds nothing to miss. */
	strbuf_addf(&wal, "%s-wal", s->path);
	if (!stat(wal.buf, &st) && st.st_size > 32) {
		s->last_error = STORE_ERROR_IO;
		error("cannot read database '%s' without write access to its directory: "
		      "its write-ahead log '%s' is not checkpointed yet; open it once where "
		      "it can be written", s->path, wal.buf);
		goto out;
	}
	close_db(s);
	immutable_uri(s->path, &uri);
	rc = open_db(s, uri.buf, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI);
	s->immutable = !rc;
out:
	strbuf_release(&wal);
	strbuf_release(&uri);
	return rc;
}

/* Refuse, saying so, a store on a read-only file system: SQLite would
 * open it read-only and fail later, at the write-ahead log, with "unable
 * to open database file". The directory counts too: the log and its
 * index are made beside the file. Return 0, or -1 after printing why. */
static int check_writable_mount(struct store *s)
{
	struct strbuf dir = STRBUF_INIT;
	const char *slash = strrchr(s->path, '/');
	int rc = 0;

	if (slash)
		strbuf_add(&dir, s->path, (size_t)(slash - s->path) + (slash == s->path));
	else
		strbuf_addch(&dir, '.');
	if (access(s->path, W_OK) && errno == EROFS)
		rc = error("cannot write database '%s': it is on a read-only file system", s->path);
	else if (access(dir.buf, W_OK) && errno == EROFS)
		rc = error("cannot write database '%s': its directory '%s' is on a read-only file "
			   "system", s->path, dir.buf);
	if (rc)
		s->last_error = STORE_ERROR_IO;
	strbuf_release(&dir);
	return rc;
}

int store_open(const char *path, struct store **out)
{
	struct store *s = store_alloc(path);
	struct stat st;
	int v, app_id;

	*out = NULL;
	if (busy_timeout_from_env(&s->busy_timeout_ms) || make_parent_dirs(path))
		goto fail;
	/* Look before writing anything, read-only: a file that is not a
	 * kbench store is left exactly as it is. */
	if (!stat(path, &st) && st.st_size > 0) {
		if (open_readonly(s) || identify(s, &v, &app_id))
			goto fail;
		close_db(s);
	}
	if (check_writable_mount(s) || open_db(s, path, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE))
		goto fail;
	if (exec_locking(s, "PRAGMA journal_mode=WAL", "cannot turn on write-ahead logging") ||
	    exec_sql(s, "PRAGMA synchronous=NORMAL", "cannot set the sync mode") ||
	    exec_sql(s, "PRAGMA foreign_keys=ON", "cannot turn on foreign keys"))
		goto fail;
	if (migrate(s))
		goto fail;
	store_watch_begin(s);
	s->wal = 1;
	*out = s;
	return 0;
fail:
	store_close(s);
	return -1;
}

/* A reader found schema version `version`, older than this build's: bring
 * the store up to date once through a writer's open. Return 0; 1 when
 * version is 0 and the reader may not write (the caller reads it as the
 * empty store it is); or -1 after printing why not. */
static int upgrade_for_reading(struct store *s, int version)
{
	struct strbuf dir = STRBUF_INIT;
	struct store *w = NULL;
	const char *slash = strrchr(s->path, '/');
	int rc = -1;

	if (slash)
		strbuf_add(&dir, s->path, (size_t)(slash - s->path) + (slash == s->path));
	else
		strbuf_addch(&dir, '.');
	if (access(s->path, W_OK) || access(dir.buf, W_OK)) {
		if (!version) {
			rc = 1;
			goto out;
		}
		s->last_error = STORE_ERROR_IO;
		error("%s: schema version %d is older than this kbench's (%d) and "
		      "bringing it up to date needs write access to the file and its "
		      "directory (%s); open it once where it can be written", s->path,
		      version, STORE_SCHEMA_VERSION, strerror(errno));
		goto out;
	}
	if (store_open(s->path, &w)) {
		s->last_error = STORE_ERROR_IO;
		error("%s: cannot bring schema version %d up to %d for reading", s->path,
		      version, STORE_SCHEMA_VERSION);
		goto out;
	}
	rc = 0;
out:
	store_close(w);
	strbuf_release(&dir);
	return rc;
}

/* Read s as an empty store: a file with no schema yet, that its reader
 * may not make a store (an empty file, or one whose creation a kbench
 * killed before its schema was committed left, with a journal or a
 * write-ahead log of nothing committed beside it). The schema is made in
 * memory and the file is left as it is, for the next writer to make a
 * store of. Return 0, or -1 after printing why not. */
static int open_empty(struct store *s)
{
	char pragma[96];

	snprintf(pragma, sizeof(pragma), "PRAGMA application_id = %d; PRAGMA query_only = 1",
		 STORE_APPLICATION_ID);
	if (open_db(s, ":memory:", SQLITE_OPEN_READWRITE | SQLITE_OPEN_MEMORY) ||
	    store_migrate_db(s->db, s->path, 0, STORE_SCHEMA_VERSION) ||
	    exec_sql(s, pragma, "cannot set up an empty store"))
		return -1;
	s->immutable = 1;
	return 0;
}

int store_open_readonly(const char *path, struct store **out)
{
	struct store *s = store_alloc(path);
	struct stat st;
	int v, app_id;

	*out = NULL;
	if (busy_timeout_from_env(&s->busy_timeout_ms))
		goto fail;
	if (stat(path, &st)) {
		s->last_error = STORE_ERROR_IO;
		if (errno == ENOENT)
			error("cannot open database '%s': no such file (only 'kbench run' creates one)",
			      path);
		else
			error("cannot open database '%s': %s", path, strerror(errno));
		goto fail;
	}
	if (S_ISDIR(st.st_mode)) {
		s->last_error = STORE_ERROR_IO;
		error("cannot open database '%s': it is a directory", path);
		goto fail;
	}
	if (open_readonly(s) || identify(s, &v, &app_id))
		goto fail;
	if (v < STORE_SCHEMA_VERSION) {
		int up;

		close_db(s);
		up = upgrade_for_reading(s, v);
		if (up < 0 || (up == 1 && open_empty(s)) ||
		    (!up && (open_readonly(s) || identify(s, &v, &app_id))))
			goto fail;
	}
	/* A reader may walk the same pages many times (history of many
	 * series is a query per host and config): map the file (its first
	 * 256 MB) rather than copy each page through a read call into
	 * SQLite's 2 MB cache again and again. */
	if (exec_sql(s, "PRAGMA foreign_keys=ON", "cannot turn on foreign keys") ||
	    exec_sql(s, "PRAGMA mmap_size=268435456", "cannot map the store"))
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
	close_db(s);
	free(s->path);
	free(s);
}

int store_prepare(struct store *s, const char *sql, sqlite3_stmt **st)
{
	*st = NULL;
	if (refuse_damaged(s, "cannot prepare a statement"))
		return -1;
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

char *store_column_dup(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return xstrdup(t ? (const char *)t : "");
}

int store_step_rows(struct store *s, sqlite3_stmt *st, const char *what,
		    int (*row)(struct store *s, sqlite3_stmt *st, void *ctx), void *ctx)
{
	int rc, stop = 0;

	while ((rc = sqlite3_step(st)) == SQLITE_ROW && !(stop = row(s, st, ctx)))
		;
	sqlite3_finalize(st);
	if (stop < 0)
		return -1;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return store_db_error(s, what);
	return 0;
}

int store_step_done(struct store *s, sqlite3_stmt *st, const char *what)
{
	int rc;

	if (refuse_damaged(s, what))
		return -1;
	rc = sqlite3_step(st);

	if (rc != SQLITE_DONE)
		store_db_error(s, what);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

int store_migrate_db(sqlite3 *db, const char *name, int from, int to)
{
	if (from < 0)
		return error("%s: schema version %d is not one kbench writes", name, from);
	for (int v = from; v < to && v < (int)NMIGRATIONS; v++) {
		char pragma[64], *msg = NULL;

		snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", v + 1);
		if (sqlite3_exec(db, migrations[v], NULL, NULL, &msg) != SQLITE_OK ||
		    sqlite3_exec(db, pragma, NULL, NULL, &msg) != SQLITE_OK) {
			error("%s: migration to schema version %d failed: %s", name, v + 1,
			      msg ? msg : sqlite3_errmsg(db));
			sqlite3_free(msg);
			return -1;
		}
	}
	return 0;
}
