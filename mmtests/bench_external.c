/* bench_external: mmtests' tbench and sysbenchcpu directories, read as
 * kbench's external workload stores them under configs/tbench.conf and
 * configs/sysbench.conf. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"

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

const struct mmtests_bench mmtests_tbench = {
	.name = "tbench",
	.import = import_tbench,
};

const struct mmtests_bench mmtests_sysbench_cpu = {
	.name = "sysbenchcpu",
	.import = import_sysbench_cpu,
};
