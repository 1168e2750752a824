/* memstore: a store in memory for the fuzz targets (sqlite3_serialize and
 * sqlite3_deserialize of the store's connection), and their scratch
 * directory. */
#include "config.h"
#include "tests/fuzz/memstore.h"
#include "db/internal.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_FILES 8

static char scratch[64];
static char *files[MAX_FILES];
static size_t nfiles;

static void remove_scratch(void)
{
	static const char *const suffix[] = { "", "-wal", "-shm", "-journal" };
	struct strbuf p = STRBUF_INIT;

	for (size_t i = 0; i < nfiles; i++) {
		for (size_t k = 0; k < sizeof(suffix) / sizeof(suffix[0]); k++) {
			strbuf_reset(&p);
			strbuf_addf(&p, "%s%s", files[i], suffix[k]);
			unlink(p.buf);
		}
		free(files[i]);
	}
	nfiles = 0;
	rmdir(scratch);
	strbuf_release(&p);
}

const char *memstore_scratch(const char *name)
{
	struct stat st;
	const char *base = !stat("/dev/shm", &st) && S_ISDIR(st.st_mode) &&
		!access("/dev/shm", W_OK) ? "/dev/shm" : "/tmp";

	snprintf(scratch, sizeof(scratch), "%s/kbench-%s-XXXXXX", base, name);
	if (!mkdtemp(scratch)) {
		perror("memstore: mkdtemp");
		exit(1);
	}
	setenv("TMPDIR", scratch, 1);
	atexit(remove_scratch);
	return scratch;
}

const char *memstore_file(const char *file)
{
	struct strbuf p = STRBUF_INIT;

	if (nfiles == MAX_FILES)
		abort();
	strbuf_addf(&p, "%s/%s", scratch, file);
	files[nfiles] = strbuf_detach(&p);
	return files[nfiles++];
}

void memstore_snapshot(struct store *s, struct memstore_image *img)
{
	sqlite3_int64 len = 0;
	unsigned char *bytes = sqlite3_serialize(s->db, "main", &len, 0);

	if (!bytes || len < 100) {
		fprintf(stderr, "memstore: cannot serialize the store: %s\n", sqlite3_errmsg(s->db));
		exit(1);
	}
	img->len = (size_t)len;
	img->bytes = xmalloc(img->len);
	memcpy(img->bytes, bytes, img->len);
	sqlite3_free(bytes);
	/* Bytes 18 and 19 of the header say WAL (2); a database in memory
	 * cannot be one, and would not open. */
	img->bytes[18] = img->bytes[19] = 1;
}

void memstore_load(struct store *s, const struct memstore_image *img)
{
	unsigned char *copy = sqlite3_malloc64(img->len);

	if (!copy)
		abort();
	memcpy(copy, img->bytes, img->len);
	/* SQLite owns copy from here, even on failure. */
	if (sqlite3_deserialize(s->db, "main", copy, (sqlite3_int64)img->len,
				(sqlite3_int64)img->len,
				SQLITE_DESERIALIZE_FREEONCLOSE | SQLITE_DESERIALIZE_RESIZEABLE) !=
	    SQLITE_OK) {
		fprintf(stderr, "memstore: cannot load the store: %s\n", sqlite3_errmsg(s->db));
		exit(1);
	}
}
