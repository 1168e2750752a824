/* bench_external: mmtests' tbench and sysbenchcpu directories, read as
 * kbench's external workload stores them under configs/tbench.conf and
 * configs/sysbench.conf, and written back so. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <string.h>

/* tbench: logs/tbench-N.log(.gz), one invocation per client count; its
 * final Throughput line is the sample, row clients-N in MB/sec, as
 * configs/tbench.conf reads it. mmtests' own table reads the per-second
 * lines instead. */
static int import_tbench(struct mm_ctx *c, struct mm_run *r, const char *bench,
			 const char *logs)
{
	static const struct mm_metric m = { "", "MB/sec", 1 };
	static const char *const suffixes[] = { ".log", ".log.gz", ".log.xz", NULL };
	int rc = mmtests_import_numbered(c, r, logs, "tbench", "external", "tbench-", suffixes,
				 MMTESTS_LOG_TBENCH, "clients-", &m);

	if (!rc)
		rc = mmtests_note_bench(r, logs, "tbench", bench);
	return rc;
}

/* sysbenchcpu: logs/benchlog-T-_-I (mmtests now) or sysbench-raw-T-I
 * (before), one invocation each: events per second, row threads-T of
 * section sysbench-cpu as configs/sysbench.conf reads it. */
static int import_sysbench_cpu(struct mm_ctx *c, struct mm_run *r, const char *bench,
			       const char *logs)
{
	static const struct mm_metric m = { "", "events/s", 1 };
	static const char *const raw[] = { "*-", NULL }, *const benchlog[] = { "*-_-", NULL };
	int rc = mmtests_import_numbered(c, r, logs, "sysbench-cpu", "external", "sysbench-raw-",
				 raw, MMTESTS_LOG_SYSBENCH_CPU, "threads-", &m);

	if (!rc)
		rc = mmtests_import_numbered(c, r, logs, "sysbench-cpu", "external", "benchlog-",
				     benchlog, MMTESTS_LOG_SYSBENCH_CPU, "threads-", &m);

	if (!rc)
		rc = mmtests_note_bench(r, logs, "sysbench-cpu", bench);
	return rc;
}

static int exports_tbench(const struct ex_sample *s)
{
	return !strcmp(s->section, "tbench") && mmtests_row_number(s->row, "clients-");
}

static int exports_sysbench_cpu(const struct ex_sample *s)
{
	return !strcmp(s->section, "sysbench-cpu") && mmtests_row_number(s->row, "threads-");
}

/* tbench: one invocation per client count and iteration, so sample k of
 * a count goes to iter-(k-1). */
static int export_tbench(const char *root, struct ex_run *r, const char *section,
			 const char **bench)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	*bench = "tbench";
	for (size_t i = 0; !rc && i < r->n; i++) {
		long long n = mmtests_row_number(r->v[i].row, "clients-");
		int k;

		if (strcmp(r->v[i].section, section) || !n)
			continue;
		k = mmtests_ordinal(r, i);
		if (k > r->iterations)
			r->iterations = k;
		r->v[i].dir = k - 1;
		mmtests_logs_dir(&path, root, r, k - 1, "tbench");
		strbuf_addf(&path, "/tbench-%lld.log", n);
		strbuf_reset(&text);
		strbuf_addstr(&text, "Throughput ");
		mmtests_add_exact(r->v[i].value, &text);
		strbuf_addf(&text, " MB/sec  %lld clients  %lld procs  max_latency=0.000 ms\n", n, n);
		rc = mmtests_write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* sysbench's cpu test: one benchlog per sample, in sysbenchcpu. */
static int export_sysbench_cpu(const char *root, struct ex_run *r, const char *section,
			       const char **bench)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	*bench = "sysbenchcpu";
	for (size_t i = 0; !rc && i < r->n; i++) {
		long long t = mmtests_row_number(r->v[i].row, "threads-");

		if (strcmp(r->v[i].section, section) || !t)
			continue;
		/* mmtests' current name; its parsers before 2025 read
		 * sysbench-raw-T-I */
		mmtests_logs_dir(&path, root, r, 0, "sysbenchcpu");
		strbuf_addf(&path, "/benchlog-%lld-_-%d", t, mmtests_ordinal(r, i));
		strbuf_reset(&text);
		strbuf_addstr(&text, "CPU speed:\n    events per second: ");
		mmtests_add_exact(r->v[i].value, &text);
		strbuf_addch(&text, '\n');
		rc = mmtests_write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

const struct mmtests_bench mmtests_tbench = {
	.name = "tbench",
	.import = import_tbench,
	.exports = exports_tbench,
	.export = export_tbench,
};

const struct mmtests_bench mmtests_sysbench_cpu = {
	.name = "sysbenchcpu",
	.import = import_sysbench_cpu,
	.exports = exports_sysbench_cpu,
	.export = export_sysbench_cpu,
};
