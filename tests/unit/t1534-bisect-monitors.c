/* t1534-bisect-monitors: the monitors a bisection's report lists for its
 * first bad commit against its parent: a key whose values per sample
 * differ beyond their noise (Welch's t-test, p < 0.01) is listed with
 * both means and the change, a key within its noise is not, a key of
 * another row, a section's snapshot (iteration 0) and a level read
 * before a sample are left out, a key with fewer than 3 samples a side
 * is not compared; no change, or no monitor at all, is said so.
 * Covers: views/bisect_monitors.c */
#include "config.h"
#include "../tap.h"
#include "views/bisect_monitors.h"
#include "db/store.h"
#include "lib/strbuf.h"

#include <string.h>

#define N 6

static struct monitor_row rows[2][64];
static size_t nrows[2];

static void add(int side, const char *row, int iteration, const char *source, const char *key,
		enum monitor_kind kind, double value)
{
	rows[side][nrows[side]++] = (struct monitor_row){ .section = "hb", .row = row,
		.iteration = iteration, .source = source, .key = key, .kind = kind,
		.value = value };
}

int main(void)
{
	struct strbuf out = STRBUF_INIT;
	static const double faults[2][N] = { { 1000, 1010, 990, 1005, 995, 1000 },
					     { 2000, 2020, 1990, 2010, 1980, 2000 } };
	static const double switches[2][N] = { { 50, 70, 40, 60, 55, 45 },
					       { 52, 66, 44, 58, 57, 47 } };
	int n;

	for (int side = 0; side < 2; side++)
		for (int i = 0; i < N; i++) {
			add(side, "1", i + 1, "perf", "page-faults", MONITOR_KIND_DELTA,
			    faults[side][i]);
			add(side, "1", i + 1, "rusage", "nvcsw", MONITOR_KIND_DELTA,
			    switches[side][i]);
			/* Another row, a snapshot, a level: none of the report's. */
			add(side, "2", i + 1, "perf", "cycles", MONITOR_KIND_DELTA, side * 1e6 + i);
			add(side, "1", 0, "slab", "kmalloc-64", MONITOR_KIND_DELTA, side * 1e6 + i);
			add(side, "1", i + 1, "vmstat", "nr_free_pages", MONITOR_KIND_BEFORE,
			    side * 1e6 + i);
		}
	/* Two samples a side: not compared. */
	add(0, "1", 1, "vmstat", "pgmajfault", MONITOR_KIND_DELTA, 1);
	add(0, "1", 2, "vmstat", "pgmajfault", MONITOR_KIND_DELTA, 2);
	add(1, "1", 1, "vmstat", "pgmajfault", MONITOR_KIND_DELTA, 100);
	add(1, "1", 2, "vmstat", "pgmajfault", MONITOR_KIND_DELTA, 200);

	n = bisect_monitor_changes(rows[0], nrows[0], rows[1], nrows[1], "hb", "1", "parent",
				   "culprit", &out);
	ok(n == 1, "one key listed, not %d", n);
	ok_text(out.buf,
		"1 of the 2 monitor keys compared changed beyond their noise (a key is listed "
		"when Welch's t-test on its values per sample, 3 or more a side, gives p < 0.01; "
		"the change is the culprit's mean against its parent's, + more):\n"
		"\n"
		"          parent        culprit     change  p      monitor\n"
		"            1000           2000    +100.0%  3.4e-14  perf.page-faults\n",
		"the page faults that doubled, the switches within their noise");

	strbuf_reset(&out);
	nrows[1] = 0;
	for (int i = 0; i < N; i++)
		add(1, "1", i + 1, "perf", "page-faults", MONITOR_KIND_DELTA, faults[0][i] + 1);
	n = bisect_monitor_changes(rows[0], nrows[0], rows[1], nrows[1], "hb", "1", "parent",
				   "culprit", &out);
	ok_text(out.buf,
		"The one monitor key compared did not change beyond its noise (a key is listed "
		"when Welch's t-test on its values per sample, 3 or more a side, gives p < 0.01; "
		"the change is the culprit's mean against its parent's, + more).\n",
		"no change beyond the noise, said");

	strbuf_reset(&out);
	n = bisect_monitor_changes(rows[0], 0, rows[1], 0, "hb", "1", "parent", "culprit", &out);
	ok_text(out.buf, "No monitors were recorded for these runs (a run in a QEMU guest records "
		"none: docs/vm.md).\n", "no monitor recorded, said");
	strbuf_release(&out);
	return done_testing();
}
