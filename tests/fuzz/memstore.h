/* memstore: what the fuzz targets that need a store share: a scratch
 * directory in memory where there is one (/dev/shm), and a store whose
 * database is held in memory, set back to a snapshot in microseconds
 * rather than made again on disk. */
#ifndef KBENCH_FUZZ_MEMSTORE_H
#define KBENCH_FUZZ_MEMSTORE_H

#include <stddef.h>

struct store;

/* A scratch directory for target NAME, made at once (exit on failure)
 * and removed, with every SQLite file named in it by memstore_file(), at
 * exit; TMPDIR points to it, so that what the code under test makes for
 * itself (a bundle's private copy) lands there too. Returns its path. */
const char *memstore_scratch(const char *name);

/* The path of FILE in the scratch directory (static storage, one a name:
 * call it once per file). */
const char *memstore_file(const char *file);

/* A snapshot of a store's database. */
struct memstore_image {
	unsigned char *bytes;
	size_t len;
};

/* Snapshot the database of s, as it is now, into img (a journal-mode
 * header, so that it loads into memory). Exit on failure. */
void memstore_snapshot(struct store *s, struct memstore_image *img);

/* Make img the database of s, in memory: what s held before, on disk or
 * in memory, is set aside; writes change the memory only. Exit on
 * failure. */
void memstore_load(struct store *s, const struct memstore_image *img);

#endif
