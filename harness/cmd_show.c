/* cmd_show: kbench show RUN: one run's machine, kernel, config, status,
 * sample counts per section, failures and flagged samples. */
#include "config.h"
#include "cmd.h"
#include "error.h"
#include "strbuf.h"
#include "../db/store.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char show_usage[] =
	"usage: kbench show [--config] RUN\n"
	"\n"
	"Show one run: machine, kernel, status, per-section sample counts, the\n"
	"effective options of each section, failures and flagged samples.\n"
	"RUN is a name (latest complete run), #ID, a uuid prefix or NAME@HOST.\n"
	"\n"
	"  --config    print the config text stored with the run, and nothing else\n"
	"  -h, --help  this text\n";

struct section_count {
	char name[128];
	long samples;
	long flagged;
};

struct show_state {
	struct section_count sec[256];
	int nsec;
	struct strbuf flagged;
	int nflagged;
};

static struct section_count *count_for(struct show_state *st, const char *name)
{
	for (int i = 0; i < st->nsec; i++)
		if (!strcmp(st->sec[i].name, name))
			return &st->sec[i];
	if (st->nsec == 256)
		return &st->sec[255];
	snprintf(st->sec[st->nsec].name, sizeof(st->sec[0].name), "%s", name);
	return &st->sec[st->nsec++];
}

static int count_sample(const struct sample_row *r, void *arg)
{
	struct show_state *st = arg;
	struct section_count *c = count_for(st, r->section);

	c->samples++;
	if (r->flag && *r->flag) {
		c->flagged++;
		if (st->nflagged++ < 50)
			strbuf_addf(&st->flagged, "  [%s] %s sample %d: %g %s  FLAGGED: %s\n",
				    r->section, r->row, r->iteration, r->value, r->unit, r->flag);
	}
	return 0;
}

static int print_failure(const struct failure_row *r, void *arg)
{
	int *n = arg;

	if (!(*n)++)
		printf("\nFailures:\n");
	printf("  [%s] row %s %s %d: %s\n", r->section, r->row,
	       r->iteration < 0 ? "warm-up" : "sample",
	       r->iteration < 0 ? -r->iteration : r->iteration, r->reason);
	return 0;
}

struct meta_state {
	char section[128];
};

static int print_meta(const char *section, const char *key, const char *value, void *arg)
{
	struct meta_state *m = arg;

	if (strcmp(m->section, section)) {
		snprintf(m->section, sizeof(m->section), "%s", section);
		printf("\n[%s]\n", *section ? section : "run");
	}
	printf("  %-16s %s\n", key, value);
	return 0;
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", no_argument, NULL, 'c' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct store *store = NULL;
	struct strbuf err = STRBUF_INIT;
	struct run_info r;
	struct show_state *st = NULL;
	struct meta_state meta = { "" };
	int64_t id;
	int opt, config_only = 0, nfail = 0, rc = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_only = 1;
			break;
		case 'h':
			fputs(show_usage, stdout);
			return 0;
		default:
			fputs(show_usage, stderr);
			return 2;
		}
	}
	if (optind != argc - 1) {
		error("show takes exactly one run");
		fputs(show_usage, stderr);
		return 2;
	}
	if (cmd_open_store(&store))
		return 1;
	if (store_resolve_run(store, argv[optind], &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (store_get_run(store, id, &r))
		goto out;
	if (config_only) {
		fputs(r.config_text, stdout);
		run_info_release(&r);
		rc = 0;
		goto out;
	}
	printf("run #%lld  %s\n", (long long)r.id, r.name);
	printf("  uuid        %s\n", r.uuid);
	printf("  status      %s\n", r.status);
	printf("  started     %s\n", r.started_at);
	printf("  finished    %s\n", *r.finished_at ? r.finished_at : "-");
	printf("  config      %s\n", r.config_name);
	printf("  host        %s (%s, %d CPUs, %d cores, %.1f GiB)\n", r.hostname, r.cpu_model,
	       r.cpus, r.cores, (double)r.mem_bytes / (1 << 30));
	printf("  kernel      %s %s\n", r.kernel_release, r.kernel_version);
	printf("  cmdline     %s\n", r.kernel_cmdline);
	printf("  kbench      %s\n", r.kbench_version);
	printf("  samples     %lld (%lld failed)\n", (long long)r.nsamples, (long long)r.nfailures);
	run_info_release(&r);

	st = calloc(1, sizeof(*st));
	if (!st)
		abort();
	strbuf_init(&st->flagged);
	if (store_each_sample(store, id, count_sample, st))
		goto out;
	if (st->nsec) {
		printf("\n%-32s %8s %8s\n", "section", "samples", "flagged");
		for (int i = 0; i < st->nsec; i++)
			printf("%-32s %8ld %8ld\n", st->sec[i].name, st->sec[i].samples,
			       st->sec[i].flagged);
	}
	if (st->nflagged) {
		printf("\nFlagged samples (%d):\n%s", st->nflagged, st->flagged.buf);
		if (st->nflagged > 50)
			printf("  ... and %d more\n", st->nflagged - 50);
	}
	if (store_each_failure(store, id, print_failure, &nfail))
		goto out;
	printf("\nOptions in effect:");
	if (store_each_meta(store, id, print_meta, &meta))
		goto out;
	rc = 0;
out:
	if (st)
		strbuf_release(&st->flagged);
	free(st);
	strbuf_release(&err);
	store_close(store);
	return rc;
}
