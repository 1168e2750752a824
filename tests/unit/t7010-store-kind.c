/* t7010-store-kind: monitor values come back from the store with the kind
 * they were recorded with; the GROUP BY summaries behind kbench show
 * (monitor mean/min/max, samples per section) keep the order of first
 * appearance and any number of sections; a value without a kind is
 * refused with nothing of its sample set stored.
 * Covers: db/store.c db/schema.c */
#include "config.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "tests/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int begin(struct store *s, const char *uuid, int64_t *id)
{
	struct machine_info m = { .hostname = "h", .cpu_model = "cpu", .cpus = 2, .cores = 2,
				  .packages = 1, .numa_nodes = 1, .mem_bytes = 1 << 30,
				  .topology_xml = "", .fingerprint = "fp1" };
	struct kernel_info k = { .release = "6.18.0", .version = "#1", .cmdline = "quiet" };
	struct run_record r = { .uuid = uuid, .name = "kinds",
				.config_name = "quick", .config_text = "[hackbench-a]\n",
				.kbench_version = "t", .started_at = "2026-11-29T00:00:00Z" };

	return store_begin_run(s, &m, &k, &r, id);
}

static int expect(const struct strbuf *got, const char *want, const char *what)
{
	int good = !strcmp(got->buf, want);

	ok(good, "%s", what);
	if (!good) {
		diag("want:\n%s", want);
		diag("got:\n%s", got->buf);
	}
	return good;
}

static int print_row(const struct monitor_row *r, void *arg)
{
	strbuf_addf(arg, "%s|%s|%d|%s|%s|%s|%g\n", r->section, r->row, r->iteration, r->source,
		    r->key, monitor_kind_name(r->kind), r->value);
	return 0;
}

static int print_summary(const struct monitor_summary *m, void *arg)
{
	strbuf_addf(arg, "%s|%s|%s/%s|%s|%g %g %g %lld\n", m->section, m->row, m->source, m->key,
		    monitor_kind_name(m->kind), m->mean, m->min, m->max, (long long)m->n);
	return 0;
}

static int count_sample(const struct sample_row *r, void *arg)
{
	(void)r;
	(*(int *)arg)++;
	return 0;
}

/* One sample set of section "sec" at iteration it, a value of each kind. */
static int add_kinds(struct store *s, int64_t id, int it)
{
	struct sample_record rec = { .row = "1", .value = 0.5 * it, .unit = "s" };
	struct monitor_record mon[] = {
		{ .row = "1", .source = "rusage", .key = "minor-faults", .value = 10 * it,
		  .kind = MONITOR_KIND_DELTA },
		{ .row = "1", .source = "rusage", .key = "max-rss-bytes", .value = 4096 * it,
		  .kind = MONITOR_KIND_MAX },
		{ .row = "1", .source = "perf", .key = "cycles:running", .value = 0.25 * it,
		  .kind = MONITOR_KIND_FRACTION },
		{ .row = "1", .source = "slab", .key = "Slab:before", .value = 100 * it,
		  .kind = MONITOR_KIND_BEFORE },
		{ .row = "1", .source = "slab", .key = "Slab:after", .value = 150 * it,
		  .kind = MONITOR_KIND_AFTER },
	};
	struct sample_set set = { .section = "sec", .workload = "hackbench", .iteration = it,
				  .samples = &rec, .nsamples = 1, .monitors = mon,
				  .nmonitors = sizeof(mon) / sizeof(mon[0]) };

	return store_add_sample_set(s, id, &set);
}

/* The per-section snapshots: iteration 0, rows before and after. */
static int add_section(struct store *s, int64_t id, const char *when, enum monitor_kind kind,
		       double v)
{
	struct monitor_record mon = { .row = when, .source = "slabcache",
				      .key = "kmalloc-64/partial", .value = v, .kind = kind };
	struct sample_set set = { .section = "sec", .workload = "hackbench", .monitors = &mon,
				  .nmonitors = 1 };

	return store_add_sample_set(s, id, &set);
}

static void test_kinds(struct store *s, int64_t id)
{
	struct strbuf got = STRBUF_INIT;

	ok(!add_section(s, id, "before", MONITOR_KIND_BEFORE, 3) && !add_kinds(s, id, 1) &&
	   !add_kinds(s, id, 2) && !add_section(s, id, "after", MONITOR_KIND_AFTER, 5),
	   "sample sets with a value of every kind are stored");
	ok(!store_each_monitor(s, id, print_row, &got), "the monitor values read back");
	expect(&got,
	       "sec|before|0|slabcache|kmalloc-64/partial|before|3\n"
	       "sec|1|1|rusage|minor-faults|delta|10\n"
	       "sec|1|1|rusage|max-rss-bytes|max|4096\n"
	       "sec|1|1|perf|cycles:running|fraction|0.25\n"
	       "sec|1|1|slab|Slab:before|before|100\n"
	       "sec|1|1|slab|Slab:after|after|150\n"
	       "sec|1|2|rusage|minor-faults|delta|20\n"
	       "sec|1|2|rusage|max-rss-bytes|max|8192\n"
	       "sec|1|2|perf|cycles:running|fraction|0.5\n"
	       "sec|1|2|slab|Slab:before|before|200\n"
	       "sec|1|2|slab|Slab:after|after|300\n"
	       "sec|after|0|slabcache|kmalloc-64/partial|after|5\n",
	       "each value comes back with the kind it was recorded with, in order");
	strbuf_reset(&got);
	ok(!store_each_monitor_summary(s, id, print_summary, &got), "the monitor values summarise");
	expect(&got,
	       "sec|1|rusage/minor-faults|delta|15 10 20 2\n"
	       "sec|1|rusage/max-rss-bytes|max|6144 4096 8192 2\n"
	       "sec|1|perf/cycles:running|fraction|0.375 0.25 0.5 2\n"
	       "sec|1|slab/Slab:before|before|150 100 200 2\n"
	       "sec|1|slab/Slab:after|after|225 150 300 2\n",
	       "mean, min, max and count per key over the samples, per-section "
	       "snapshots left out");
	strbuf_release(&got);
}

static void test_no_kind(struct store *s, int64_t id)
{
	struct sample_record rec = { .row = "1", .value = 1, .unit = "s" };
	struct monitor_record mon = { .row = "1", .source = "perf", .key = "cycles", .value = 1,
				      .kind = MONITOR_NKINDS };
	struct sample_set set = { .section = "bad", .workload = "hackbench", .iteration = 1,
				  .samples = &rec, .nsamples = 1, .monitors = &mon,
				  .nmonitors = 1 };
	int before = 0, after = 0;

	store_each_sample(s, id, count_sample, &before);
	ok(store_add_sample_set(s, id, &set) != 0, "a monitor value without a kind is refused");
	store_each_sample(s, id, count_sample, &after);
	ok(after == before, "and its sample set is not stored (%d samples before, %d after)",
	   before, after);
}

struct counts {
	int n, bad;
	long long flagged;
	struct strbuf long_name;
};

static int check_count(const struct section_count *c, void *arg)
{
	struct counts *cs = arg;
	char want[32];

	if (cs->n < 300) {
		snprintf(want, sizeof(want), "s%03d", cs->n);
		if (strcmp(c->section, want) || c->samples != 2)
			cs->bad++;
	} else if (strcmp(c->section, cs->long_name.buf) || c->samples != 1) {
		cs->bad++;
	}
	cs->flagged += c->flagged;
	cs->n++;
	return 0;
}

static void test_sections(struct store *s, int64_t id)
{
	struct counts cs = { .long_name = STRBUF_INIT };
	int stored = 1;

	/* More sections than show once had room for, and a long name. */
	for (int i = 0; i < 300 && stored; i++) {
		char name[32];
		struct sample_record rec[2] = {
			{ .row = "1", .value = 1, .unit = "s" },
			{ .row = "2", .value = 2, .unit = "s" },
		};
		struct sample_set set = { .workload = "hackbench", .iteration = 1, .samples = rec,
					  .nsamples = 2 };

		snprintf(name, sizeof(name), "s%03d", i);
		set.section = name;
		/* One in three flagged; an empty flag is no flag. */
		set.flag = i % 3 == 0 ? "noisy" : i % 3 == 1 ? "" : NULL;
		stored = !store_add_sample_set(s, id, &set);
	}
	for (int i = 0; i < 20; i++)
		strbuf_addstr(&cs.long_name, "long-name-");
	if (stored) {
		struct sample_record rec = { .row = "1", .value = 1, .unit = "s" };
		struct sample_set set = { .section = cs.long_name.buf, .workload = "hackbench",
					  .iteration = 1, .samples = &rec, .nsamples = 1 };

		stored = !store_add_sample_set(s, id, &set);
	}
	ok(stored, "301 sections are stored");
	ok(!store_each_section_count(s, id, check_count, &cs), "samples are counted per section");
	ok(cs.n == 301 && !cs.bad, "each section is counted on its own, in order, its name "
	   "whole (%d sections, %d wrong)", cs.n, cs.bad);
	ok(cs.flagged == 200, "flagged samples are those with a non-empty flag (%lld)",
	   cs.flagged);
	strbuf_release(&cs.long_name);
}

int main(void)
{
	char path[] = "t7010-store-kind.XXXXXX.db";
	struct store *s = NULL;
	int64_t id1, id2;
	int fd = mkstemps(path, 3);

	if (fd >= 0)
		close(fd);
	unlink(path);
	if (!ok(!store_open(path, &s), "a new store is created"))
		return done_testing();
	ok(!begin(s, "cccccccc-0000-4000-8000-000000000001", &id1) &&
	   !begin(s, "cccccccc-0000-4000-8000-000000000002", &id2), "two runs are recorded");
	test_kinds(s, id1);
	test_no_kind(s, id1);
	test_sections(s, id2);
	store_close(s);
	unlink(path);
	return done_testing();
}
