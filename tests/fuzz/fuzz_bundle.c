/* fuzz_bundle: libFuzzer target for the bundle importer (kbench import):
 * the input is written as a bundle file, checked by bundle_open and, when
 * it passes, imported into a store kept for many inputs: a refused import
 * must leave the store's runs as they were, an accepted one add as many
 * as it says. */
#include "config.h"
#include "db/store.h"
#include "lib/io.h"
#include "lib/strbuf.h"

#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Inputs imported into one store before it is made afresh, so that it
 * neither grows without bound nor is rebuilt for every input. */
#define INPUTS_PER_STORE 256

static struct store *store;
static unsigned inputs;
static char scratch[] = "/tmp/kbench-fuzz-bundle-XXXXXX";
static struct strbuf store_file = STRBUF_INIT, bundle_file = STRBUF_INIT;

static void unlink_db(const char *path)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	struct strbuf p = STRBUF_INIT;

	for (size_t i = 0; i < sizeof(suffix) / sizeof(suffix[0]); i++) {
		strbuf_reset(&p);
		strbuf_addf(&p, "%s%s", path, suffix[i]);
		unlink(p.buf);
	}
	strbuf_release(&p);
}

static void new_store(void)
{
	store_close(store);
	unlink_db(store_file.buf);
	if (store_open(store_file.buf, &store))
		abort();
	inputs = 0;
}

static void remove_scratch(void)
{
	store_close(store);
	store = NULL;
	unlink_db(store_file.buf);
	unlink_db(bundle_file.buf);
	rmdir(scratch);
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	if (!mkdtemp(scratch)) {
		perror("fuzz_bundle: mkdtemp");
		exit(1);
	}
	strbuf_addf(&store_file, "%s/k.db", scratch);
	strbuf_addf(&bundle_file, "%s/in.kbench", scratch);
	atexit(remove_scratch);
	new_store();
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

	if (inputs++ == INPUTS_PER_STORE)
		new_store();
	unlink_db(bundle_file.buf);
	fd = open(bundle_file.buf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || write_full(fd, data, size) || close(fd))
		abort();
	if (bundle_open(bundle_file.buf, &b))
		return 0;
	if (store_count_runs(store, &before))
		abort();
	if (!store_import(store, b, 1, NULL, NULL, &c)) {
		/* A dry run changes nothing. */
		if (store_count_runs(store, &after) || after != before)
			abort();
	}
	if (store_import(store, b, 0, NULL, NULL, &c)) {
		if (store_count_runs(store, &after) || after != before)
			abort();
	} else if (store_count_runs(store, &after) || after != before + (int64_t)c.runs) {
		abort();
	}
	bundle_close(b);
	return 0;
}
