/* cmd_show: kbench show RUN: one run's machine, kernel, config, status,
 * sample counts per section, failures and flagged samples; --monitors and
 * --slab print what the monitors recorded. */
#include "config.h"
#include "harness/cmd.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char show_usage[] =
	"usage: kbench show [--config | --monitors | --slab] RUN\n"
	"\n"
	"Show one run: machine, kernel, status, per-section sample counts, the\n"
	"effective options of each section, failures and flagged samples.\n"
	"RUN is a name (latest complete run), #ID, a uuid prefix or NAME@HOST.\n"
	"\n"
	"  --config    print the config text stored with the run, and nothing else\n"
	"  --monitors  print the monitor values per section and row (mean, min and\n"
	"              max over the samples), and nothing else\n"
	"  --slab      print the slab caches before each section's first sample and\n"
	"              after its last (partial slabs, objects), and nothing else\n"
	"  -h, --help  this text\n";

/* The flagged samples listed in full; the rest are counted. */
#define MAX_FLAGGED 50

struct count_state {
	int64_t flagged;	/* over every section */
	int nsections;
};

static int print_count(const struct section_count *c, void *arg)
{
	struct count_state *cs = arg;

	if (!cs->nsections++)
		printf("\n%-32s %8s %8s\n", "section", "samples", "flagged");
	printf("%-32s %8lld %8lld\n", c->section, (long long)c->samples, (long long)c->flagged);
	cs->flagged += c->flagged;
	return 0;
}

static int print_flagged(const struct sample_row *r, void *arg)
{
	int *shown = arg;

	if (!r->flag || !*r->flag)
		return 0;
	printf("  [%s] %s sample %d: %g %s  FLAGGED: %s\n", r->section, r->row, r->iteration,
	       r->value, r->unit, r->flag);
	return ++*shown == MAX_FLAGGED;
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

/* The section of the facts printed last. */
struct meta_state {
	struct strbuf section;
};

static int print_meta(const char *section, const char *key, const char *value, void *arg)
{
	struct meta_state *m = arg;

	if (strcmp(m->section.buf, section)) {
		strbuf_reset(&m->section);
		strbuf_addstr(&m->section, section);
		printf("\n[%s]\n", *section ? section : "run");
	}
	printf("  %-16s %s\n", key, value);
	return 0;
}

/* ---- --monitors ---- */

struct monitor_state {
	struct strbuf section, row;
	int n;
};

/* One line per key; a section heading, and a column heading per row. */
static int print_monitor(const struct monitor_summary *m, void *arg)
{
	struct monitor_state *ms = arg;
	struct strbuf name = STRBUF_INIT;
	int new_section = !ms->n || strcmp(ms->section.buf, m->section);

	if (new_section) {
		printf("%s[%s]\n", ms->n ? "\n" : "", m->section);
		strbuf_reset(&ms->section);
		strbuf_addstr(&ms->section, m->section);
	}
	if (new_section || strcmp(ms->row.buf, m->row)) {
		printf("  %-8s %-40s %16s %16s %16s %4s\n", "row", "source/key", "mean",
		       "min", "max", "n");
		strbuf_reset(&ms->row);
		strbuf_addstr(&ms->row, m->row);
	}
	strbuf_addf(&name, "%s/%s", m->source, m->key);
	printf("  %-8s %-40s %16.2f %16.2f %16.2f %4lld\n", m->row, name.buf, m->mean, m->min,
	       m->max, (long long)m->n);
	strbuf_release(&name);
	ms->n++;
	return 0;
}

static int show_monitors(struct store *store, int64_t id)
{
	struct monitor_state ms = { .section = STRBUF_INIT, .row = STRBUF_INIT };
	int rc = store_each_monitor_summary(store, id, print_monitor, &ms);

	if (!rc && !ms.n)
		printf("no monitor values in this run\n");
	strbuf_release(&ms.section);
	strbuf_release(&ms.row);
	return rc;
}

/* ---- --slab ---- */

struct cache_row {
	char *section, *name;
	double v[2][3];		/* [before, after][objects, slabs, partial] */
	int have[2][3];
};

struct slab_state {
	struct cache_row *c;
	size_t n, alloc, hint;
};

static const char *const cache_fields[] = { "objects", "slabs", "partial" };

static int collect_cache(const struct monitor_row *r, void *arg)
{
	struct slab_state *ss = arg;
	const char *slash = strrchr(r->key, '/');
	int when = r->kind == MONITOR_KIND_AFTER, field = -1;
	struct cache_row *c = NULL;
	size_t len;

	if (strcmp(r->source, "slabcache") || !slash)
		return 0;
	for (int f = 0; f < 3; f++)
		if (!strcmp(slash + 1, cache_fields[f]))
			field = f;
	if (field < 0)
		return 0;
	len = (size_t)(slash - r->key);
	for (size_t i = ss->hint; !c && i < ss->n; i++)
		if (!strcmp(ss->c[i].section, r->section) && strlen(ss->c[i].name) == len &&
		    !strncmp(ss->c[i].name, r->key, len))
			c = &ss->c[i];
	for (size_t i = 0; !c && i < ss->hint && i < ss->n; i++)
		if (!strcmp(ss->c[i].section, r->section) && strlen(ss->c[i].name) == len &&
		    !strncmp(ss->c[i].name, r->key, len))
			c = &ss->c[i];
	if (!c) {
		ALLOC_GROW(ss->c, ss->n + 1, ss->alloc);
		c = &ss->c[ss->n++];
		*c = (struct cache_row){
			.section = xstrdup(r->section),
			.name = xstrndup(r->key, len),
		};
	}
	ss->hint = (size_t)(c - ss->c);
	c->v[when][field] = r->value;
	c->have[when][field] = 1;
	return 0;
}

static void print_cell(int have, double v)
{
	if (have)
		printf(" %10.0f", v);
	else
		printf(" %10s", "-");
}

static int show_slab(struct store *store, int64_t id)
{
	struct slab_state ss = { 0 };
	const char *section = NULL;
	long quiet = 0;
	int rc = -1;

	if (store_each_monitor(store, id, collect_cache, &ss))
		goto out;
	if (!ss.n) {
		printf("no slab caches recorded in this run (set 'monitors = slab' or 'all')\n");
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < ss.n; i++) {
		const struct cache_row *c = &ss.c[i];

		if (!section || strcmp(section, c->section)) {
			if (quiet)
				printf("  (%ld caches with no partial slabs before or after)\n", quiet);
			quiet = 0;
			printf("%s[%s] slab caches before the first sample and after the last\n",
			       section ? "\n" : "", c->section);
			printf("  %-28s %10s %10s %10s %10s\n", "cache", "partial", "", "objects", "");
			printf("  %-28s %10s %10s %10s %10s\n", "", "before", "after", "before",
			       "after");
			section = c->section;
		}
		/* The seed question is the partial lists: caches with none on
		 * either side say nothing (unless partial is unknown here). */
		if (c->have[0][2] && c->have[1][2] && !c->v[0][2] && !c->v[1][2]) {
			quiet++;
			continue;
		}
		printf("  %-28s", c->name);
		print_cell(c->have[0][2], c->v[0][2]);
		print_cell(c->have[1][2], c->v[1][2]);
		print_cell(c->have[0][0], c->v[0][0]);
		print_cell(c->have[1][0], c->v[1][0]);
		putchar('\n');
	}
	if (quiet)
		printf("  (%ld caches with no partial slabs before or after)\n", quiet);
	rc = 0;
out:
	for (size_t i = 0; i < ss.n; i++) {
		free(ss.c[i].section);
		free(ss.c[i].name);
	}
	free(ss.c);
	return rc;
}

int cmd_show(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "config", no_argument, NULL, 'c' },
		{ "monitors", no_argument, NULL, 'm' },
		{ "slab", no_argument, NULL, 's' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	struct store *store = NULL;
	struct strbuf err = STRBUF_INIT;
	struct run_info r;
	struct count_state counts = { 0 };
	struct meta_state meta = { .section = STRBUF_INIT };
	int64_t id;
	int opt, config_only = 0, monitors = 0, slab = 0, nfail = 0, shown = 0, rc = 1;

	optind = 1;
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_only = 1;
			break;
		case 'm':
			monitors = 1;
			break;
		case 's':
			slab = 1;
			break;
		case 'h':
			fputs(show_usage, stdout);
			return 0;
		default:
			fputs(show_usage, stderr);
			return 2;
		}
	}
	if (config_only + monitors + slab > 1) {
		error("--config, --monitors and --slab cannot be combined");
		return 2;
	}
	if (optind != argc - 1) {
		error("show takes exactly one run");
		fputs(show_usage, stderr);
		return 2;
	}
	if (cmd_open_store(&store, CMD_STORE_READ))
		return 1;
	if (store_resolve_run(store, argv[optind], &id, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (monitors || slab) {
		rc = (monitors ? show_monitors(store, id) : show_slab(store, id)) ? 1 : 0;
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

	if (store_each_section_count(store, id, print_count, &counts))
		goto out;
	if (counts.flagged) {
		printf("\nFlagged samples (%lld):\n", (long long)counts.flagged);
		if (store_each_sample(store, id, print_flagged, &shown))
			goto out;
		if (counts.flagged > MAX_FLAGGED)
			printf("  ... and %lld more\n", (long long)counts.flagged - MAX_FLAGGED);
	}
	if (store_each_failure(store, id, print_failure, &nfail))
		goto out;
	printf("\nOptions in effect:");
	if (store_each_meta(store, id, print_meta, &meta))
		goto out;
	rc = 0;
out:
	strbuf_release(&meta.section);
	strbuf_release(&err);
	store_close(store);
	return rc;
}
