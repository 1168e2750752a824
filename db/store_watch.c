/* store_watch: the look at a store's files around each write transaction
 * (is the file the one opened, whole, writable; does its write-ahead log
 * hold what its index counts), so that a store changed under kbench is
 * said damaged before SQLite writes through it. */
#include "config.h"
#include "db/internal.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdarg.h>
#include <string.h>
#include <sys/stat.h>

/* The files under an open store, looked at before each write transaction
 * and again once its lock is held. SQLite writes on through the file it
 * has open: a store truncated, replaced or removed by another program
 * would take every later commit with it, unseen until the next reader
 * finds it malformed; a file made immutable under its mapped index
 * faults (SIGBUS) at the next write of the index. Seen before the write
 * transaction begins, the index is not written at all, and a store
 * found damaged is never touched again (not even closed). The index
 * stays a shared mapping: PRAGMA locking_mode=EXCLUSIVE would keep it in
 * the heap, but would also shut every reader out while a run writes. A
 * SIGBUS handler is not used: it would have to leave SQLite in the
 * middle of a write. A file made immutable after the look fails the
 * transaction's writes with an I/O error, which is looked at again
 * (look_after_io_error in store.c) before anything closes the store. What is left
 * is the moment between the look and the transaction's first write of
 * the index. */

/* Note what the store's file is, once it is set up. */
void store_watch_begin(struct store *s)
{
	struct stat st;

	if (stat(s->path, &st) || !S_ISREG(st.st_mode))
		return;
	s->watched = 1;
	s->dev = st.st_dev;
	s->ino = st.st_ino;
	s->had_header = st.st_size >= 100;
}

/* The store's own file of SQLite's (the database, or its log with
 * SQLITE_FCNTL_JOURNAL_POINTER), read through SQLite: a descriptor of
 * this process's own on a file SQLite has open would, once closed, drop
 * SQLite's POSIX locks on it. NULL when it is not open. */
static sqlite3_file *sqlite_file(struct store *s, int op)
{
	sqlite3_file *f = NULL;

	if (sqlite3_file_control(s->db, "main", op, &f) != SQLITE_OK || !f || !f->pMethods)
		return NULL;
	return f;
}

/* Whether path (a file of the store) can no longer be written in place:
 * immutable or append-only. statx needs no descriptor (see above); a
 * file system without these attributes has none. */
static int unwritable(const char *path)
{
	struct statx stx;

	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW | AT_STATX_DONT_SYNC, STATX_BASIC_STATS,
		  &stx))
		return 0;
	return (stx.stx_attributes & stx.stx_attributes_mask &
		(STATX_ATTR_IMMUTABLE | STATX_ATTR_APPEND)) != 0;
}

/* Say what became of the store's file: "database 'PATH' WHAT while ...:
 * what was stored since may be lost" (lost set; else "nothing more can
 * be written to it") as an error of kind DAMAGED. Return -1. */
__attribute__((format(printf, 3, 4)))
static int damaged(struct store *s, int lost, const char *fmt, ...)
{
	struct strbuf sb = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&sb, fmt, ap);
	va_end(ap);
	s->last_error = STORE_ERROR_DAMAGED;
	s->damaged = 1;
	error("database '%s' %s while it was open for writing: %s", s->path, sb.buf,
	      lost ? "what was stored in it may be lost" : "nothing more can be written to it");
	strbuf_release(&sb);
	return -1;
}

/* Before a write transaction: the file is still the one opened, whole,
 * and writable. Return 0, or -1 after printing what became of it. */
int store_check_file(struct store *s)
{
	static const char *const others[] = { "-wal", "-shm" };
	unsigned char hdr[100];
	sqlite3_file *db;
	struct stat st;

	if (!s->watched)
		return 0;
	if (stat(s->path, &st))
		return damaged(s, 1, "was removed (%s)", strerror(errno));
	if (st.st_dev != s->dev || st.st_ino != s->ino)
		return damaged(s, 1, "was replaced by another file");
	/* The header's page count is not checked: a checkpoint in another
	 * process writes page 1 first, then extends the file. */
	if (s->had_header || st.st_size >= 100) {
		if (st.st_size < 100)
			return damaged(s, 1, "was truncated to %lld bytes",
				       (long long)st.st_size);
		if (!(db = sqlite_file(s, SQLITE_FCNTL_FILE_POINTER)) ||
		    db->pMethods->xRead(db, hdr, sizeof(hdr), 0) != SQLITE_OK ||
		    memcmp(hdr, "SQLite format 3", 16))
			return damaged(s, 1, "was overwritten: it no longer starts with an SQLite "
				       "header");
		s->had_header = 1;
	}
	if (unwritable(s->path))
		return damaged(s, 0, "was made immutable or append-only");
	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++) {
		struct strbuf p = STRBUF_INIT;
		int bad;

		strbuf_addf(&p, "%s%s", s->path, others[i]);
		bad = unwritable(p.buf);
		if (bad)
			damaged(s, 0, "had its file '%s' made immutable or append-only", p.buf);
		strbuf_release(&p);
		if (bad)
			return -1;
	}
	return 0;
}

/* With the write lock held: the write-ahead log still holds the frames
 * its index (the -shm file, mapped, as SQLite lays it out) counts.
 * Return 0, or -1 after printing what became of it. */
int store_check_log(struct store *s)
{
	unsigned char whdr[32];
	const unsigned char *idx;
	volatile void *map = NULL;
	sqlite3_file *db, *wal;
	uint32_t version, frames;
	uint16_t szpage;
	int64_t psz, want;
	sqlite3_int64 size;

	/* Out of WAL mode (a recovery file) there is no index to map: a
	 * mapping asked for would make one, beside a file meant to be alone. */
	if (!s->watched || !s->wal || !(db = sqlite_file(s, SQLITE_FCNTL_FILE_POINTER)) ||
	    db->pMethods->iVersion < 2 ||
	    db->pMethods->xShmMap(db, 0, 32768, 0, &map) != SQLITE_OK || !map)
		return 0;
	idx = (const unsigned char *)map;
	memcpy(&version, idx, 4);
	memcpy(&szpage, idx + 14, 2);
	memcpy(&frames, idx + 16, 4);
	if (version != 3007000 || !idx[12] || !frames)
		return 0;
	psz = (szpage & 0xfe00) + ((int64_t)(szpage & 1) << 16);
	want = 32 + (int64_t)frames * (psz + 24);
	if (!(wal = sqlite_file(s, SQLITE_FCNTL_JOURNAL_POINTER)) ||
	    wal->pMethods->xFileSize(wal, &size) != SQLITE_OK)
		return damaged(s, 1, "lost its write-ahead log '%s-wal'", s->path);
	if (size < want)
		return damaged(s, 1, "had its write-ahead log '%s-wal' truncated to %lld bytes (it "
			       "holds %lld)", s->path, (long long)size, (long long)want);
	if (wal->pMethods->xRead(wal, whdr, sizeof(whdr), 0) != SQLITE_OK ||
	    memcmp(whdr + 16, idx + 32, 8))
		return damaged(s, 1, "had its write-ahead log '%s-wal' overwritten", s->path);
	return 0;
}
