/* fuzz_selectors: libFuzzer target for run selectors (NAME, NAME@HOST,
 * NAME@*, @ID, #ID, a uuid prefix) as store_resolve_run and compare_build take
 * them, against a small store built once per process and then held in
 * memory (no file read an input): the input is split on newlines into up
 * to four selectors. */
#include "config.h"
#include "compare/compare.h"
#include "compare/model.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"
#include "tests/fuzz/memstore.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_SELECTORS 4

static struct store *store;

/* The runs of the store: names shared between hosts, runs that are not
 * complete, a name that looks like a uuid prefix. (Run names refuse '#'
 * and '@', so none has them.) */
static const struct {
	const char *host;
	const char *name;
	const char *uuid;
	const char *status;	/* NULL: left running (its writer is us) */
	const char *started_at;
} runs[] = {
	{ "here", "base", "0badc0de-0000-4000-8000-000000000001",
	  "complete", "2026-01-01T00:00:00Z" },
	{ "here", "new", "0badc0de-0000-4000-8000-000000000002",
	  "complete", "2026-01-01T00:01:00Z" },
	{ "here", "new", "1badc0de-0000-4000-8000-000000000003",
	  "complete", "2026-01-01T00:02:00Z" },
	{ "there", "base", "2badc0de-0000-4000-8000-000000000004",
	  "complete", "2026-01-01T00:03:00Z" },
	{ "there", "6.18-rc1", "3badc0de-0000-4000-8000-000000000005",
	  "complete", "2026-01-01T00:04:00Z" },
	{ "here", "failed", "4badc0de-0000-4000-8000-000000000006",
	  "failed", "2026-01-01T00:05:00Z" },
	{ "here", "running", "5badc0de-0000-4000-8000-000000000007",
	  NULL, "2026-01-01T00:06:00Z" },
	{ "there", "dead0", "6badc0de-0000-4000-8000-000000000008",
	  "complete", "2026-01-01T00:07:00Z" },
};

static void add_run(size_t i)
{
	struct machine_info m = {
		.hostname = (char *)runs[i].host,
		.cpu_model = (char *)"Fuzz CPU",
		.cpus = 4, .cores = 2, .packages = 1, .numa_nodes = 1,
		.mem_bytes = 1 << 30,
		.topology_xml = (char *)"",
		.fingerprint = (char *)runs[i].host,
	};
	struct kernel_info k = {
		.release = (char *)"6.18.0", .version = (char *)"#1", .cmdline = (char *)"",
	};
	struct run_record r = {
		.uuid = runs[i].uuid, .name = runs[i].name, .config_name = "fuzz.conf",
		.config_text = "[hackbench-fuzz]\n", .kbench_version = PACKAGE_VERSION,
		.started_at = runs[i].started_at,
	};
	struct sample_record rec[2] = {
		{ .row = "1", .value = 1.0 + (double)i, .unit = "s", .higher_better = 0 },
		{ .row = "2", .value = 2.0 + (double)i, .unit = "s", .higher_better = 0 },
	};
	int64_t id;

	if (store_begin_run(store, &m, &k, &r, &id))
		abort();
	for (int it = 0; it < 3; it++) {
		struct sample_set set = {
			.section = "hackbench-fuzz", .workload = "hackbench", .iteration = it,
			.duration_ns = 1000000, .samples = rec, .nsamples = 2,
		};

		rec[0].value += 0.1;
		if (store_add_sample_set(store, id, &set))
			abort();
	}
	if (runs[i].status && store_finish_run(store, id, runs[i].status, runs[i].started_at))
		abort();
}

static void close_store(void)
{
	store_close(store);
	store = NULL;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc;
	(void)argv;
	/* A bare NAME means a run of this host. */
	setenv("KBENCH_HOSTNAME", "here", 1);
	memstore_scratch("fuzz-selectors");
	if (store_open(memstore_file("k.db"), &store))
		exit(1);
	/* Registered after the scratch directory's removal: runs before it. */
	atexit(close_store);
	for (size_t i = 0; i < sizeof(runs) / sizeof(runs[0]); i++)
		add_run(i);
	{
		struct memstore_image img;

		memstore_snapshot(store, &img);
		memstore_load(store, &img);
		free(img.bytes);
	}
	/* Every refused selector prints why: quiet unless asked. */
	if (!getenv("KBENCH_FUZZ_VERBOSE")) {
		FILE *null = fopen("/dev/null", "w");

		if (null)
			stderr = null;
	}
	return 0;
}

/* Resolve sel; a run found must exist, a refusal must say why. */
static void check_resolve(const char *sel)
{
	struct strbuf err = STRBUF_INIT;
	struct run_info r;
	int64_t id = -1;

	if (!store_resolve_run(store, sel, &id, &err)) {
		if (store_get_run(store, id, &r))
			abort();
		/* NAME and NAME@HOST pick a complete run of that name
		 * (#ID and @ID pick a run by its id, whatever its status). */
		if (sel[0] != '#' && sel[0] != '@' && strchr(sel, '@') &&
		    (strcmp(r.status, "complete") ||
		     strncmp(r.name, sel, strlen(r.name)) || sel[strlen(r.name)] != '@'))
			abort();
		run_info_release(&r);
	} else if (!err.len) {
		abort();
	}
	strbuf_release(&err);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text, *line, *next;
	const char *sels[MAX_SELECTORS];
	size_t n = 0;
	struct compare_options opt = { .pool = 0 };
	struct cmp_model model;

	/* A selector is one argument: it holds no NUL. */
	if (memchr(data, '\0', size))
		return 0;
	text = xstrndup((const char *)data, size);
	for (line = text; line && n < MAX_SELECTORS; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		sels[n++] = line;
		check_resolve(line);
	}
	/* The comparison as kbench compare builds it, pooled when the input
	 * is of odd length (one build an input: each costs milliseconds). */
	opt.pool = size & 1;
	if (!compare_build(store, sels, n, &opt, &model))
		model_release(&model);
	free(text);
	return 0;
}
