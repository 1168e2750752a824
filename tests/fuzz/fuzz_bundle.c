/* fuzz_bundle: libFuzzer target for the bundle importer (kbench import):
 * the input is written as a bundle file, checked by bundle_open and, when
 * it passes, imported into a fresh store: a dry run must change nothing,
 * a refused import must leave the store's runs as they were, an accepted
 * one add as many as it says, and importing it again add none. The store
 * is made once and set back from its snapshot in memory after an input
 * that was imported, and every file is in memory where /dev/shm is: an
 * input costs what the importer does, not the making of a store. */
#include "config.h"
#include "db/store.h"
#include "lib/io.h"
#include "tests/fuzz/memstore.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct store *store;
static struct memstore_image empty;	/* a new store's database */
static int changed;			/* an import has written to store */
static const char *bundle_file;

static void close_store(void)
{
	store_close(store);
	store = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	memstore_scratch("fuzz-bundle");
	bundle_file = memstore_file("in.kbench");
	if (store_open(memstore_file("k.db"), &store))
		exit(1);
	/* Registered after the scratch directory's removal: runs before it. */
	atexit(close_store);
	memstore_snapshot(store, &empty);
	memstore_load(store, &empty);
	/* Every refused bundle prints why: quiet unless asked. */
	if (!getenv("KBENCH_FUZZ_VERBOSE")) {
		FILE *null = fopen("/dev/null", "w");

		if (null)
			stderr = stdout = null;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct bundle *b = NULL;
	struct import_counts c;
	int64_t before, after;
	int fd;

	/* Most inputs are refused before they reach the store: it is set
	 * back only after one that was imported. */
	if (changed)
		memstore_load(store, &empty);
	changed = 0;
	/* bundle_open reads it immutable: nothing is made beside it. */
	fd = open(bundle_file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, data, size) || close(fd))
		abort();
	if (bundle_open(bundle_file, &b))
		return 0;
	if (store_count_runs(store, &before))
		abort();
	if (!store_import(store, b, 1, NULL, NULL, &c)) {
		/* A dry run changes nothing. */
		if (store_count_runs(store, &after) || after != before)
			abort();
	}
	changed = 1;
	if (store_import(store, b, 0, NULL, NULL, &c)) {
		if (store_count_runs(store, &after) || after != before)
			abort();
	} else if (store_count_runs(store, &after) || after != before + (int64_t)c.runs) {
		abort();
	} else if (store_import(store, b, 0, NULL, NULL, &c) || c.runs ||
		   store_count_runs(store, &before) || before != after) {
		/* Imports are idempotent by run uuid. */
		abort();
	}
	bundle_close(b);
	return 0;
}
