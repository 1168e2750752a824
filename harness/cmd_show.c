/* cmd_show: kbench show RUN: one run's machine, kernel, config, status,
 * sample counts per section, failures and flagged samples; --monitors and
 * --slab print what the monitors recorded. */
#include "config.h"
#include "harness/cmd.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "db/store.h"

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

/* ---- --monitors ---- */

struct mon_agg {
	char *section, *row, *source, *key;
	double sum, min, max;
	long n;
};

struct mon_state {
	struct mon_agg *a;
	size_t n, alloc, hint;
};

static int mon_same(const struct mon_agg *a, const struct monitor_row *r)
{
	return !strcmp(a->key, r->key) && !strcmp(a->source, r->source) &&
	       !strcmp(a->row, r->row) && !strcmp(a->section, r->section);
}

static char *xstrdup(const char *s)
{
	char *d = strdup(s ? s : "");

	if (!d)
		abort();
	return d;
}

/* Samples store their keys in the same order, so the entry after the last
 * one hit is almost always the next one. */
static int collect_monitor(const struct monitor_row *r, void *arg)
{
	struct mon_state *ms = arg;
	struct mon_agg *a = NULL;

	if (!strcmp(r->source, "slabcache"))
		return 0;
	if (ms->hint < ms->n && mon_same(&ms->a[ms->hint], r))
		a = &ms->a[ms->hint];
	for (size_t i = 0; !a && i < ms->n; i++)
		if (mon_same(&ms->a[i], r))
			a = &ms->a[i];
	if (!a) {
		if (ms->n == ms->alloc) {
			ms->alloc = ms->alloc ? 2 * ms->alloc : 256;
			ms->a = realloc(ms->a, ms->alloc * sizeof(*ms->a));
			if (!ms->a)
				abort();
		}
		a = &ms->a[ms->n++];
		memset(a, 0, sizeof(*a));
		a->section = xstrdup(r->section);
		a->row = xstrdup(r->row);
		a->source = xstrdup(r->source);
		a->key = xstrdup(r->key);
		a->min = a->max = r->value;
	}
	ms->hint = (size_t)(a - ms->a) + 1;
	a->sum += r->value;
	a->n++;
	if (r->value < a->min)
		a->min = r->value;
	if (r->value > a->max)
		a->max = r->value;
	return 0;
}

static int show_monitors(struct store *store, int64_t id)
{
	struct mon_state ms = { 0 };
	const char *section = NULL, *row = NULL;
	char name[160];
	int rc = -1;

	if (store_each_monitor(store, id, collect_monitor, &ms))
		goto out;
	if (!ms.n) {
		printf("no monitor values in this run\n");
		rc = 0;
		goto out;
	}
	for (size_t i = 0; i < ms.n; i++) {
		const struct mon_agg *a = &ms.a[i];

		if (!section || strcmp(section, a->section)) {
			printf("%s[%s]\n", section ? "\n" : "", a->section);
			row = NULL;
		}
		if (!row || strcmp(row, a->row))
			printf("  %-8s %-40s %16s %16s %16s %4s\n", "row", "source/key", "mean",
			       "min", "max", "n");
		section = a->section;
		row = a->row;
		snprintf(name, sizeof(name), "%s/%s", a->source, a->key);
		printf("  %-8s %-40s %16.2f %16.2f %16.2f %4ld\n", a->row, name,
		       a->sum / (double)a->n, a->min, a->max, a->n);
	}
	rc = 0;
out:
	for (size_t i = 0; i < ms.n; i++) {
		free(ms.a[i].section);
		free(ms.a[i].row);
		free(ms.a[i].source);
		free(ms.a[i].key);
	}
	free(ms.a);
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
		if (ss->n == ss->alloc) {
			ss->alloc = ss->alloc ? 2 * ss->alloc : 512;
			ss->c = realloc(ss->c, ss->alloc * sizeof(*ss->c));
			if (!ss->c)
				abort();
		}
		c = &ss->c[ss->n++];
		memset(c, 0, sizeof(*c));
		c->section = xstrdup(r->section);
		c->name = strndup(r->key, len);
		if (!c->name)
			abort();
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
	struct show_state *st = NULL;
	struct meta_state meta = { "" };
	int64_t id;
	int opt, config_only = 0, monitors = 0, slab = 0, nfail = 0, rc = 1;

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
	if (cmd_open_store(&store))
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
