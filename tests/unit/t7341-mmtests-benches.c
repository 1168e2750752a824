/* t7341-mmtests-benches: the one table of mmtests' benchmarks. A
 * benchmark directory is found by its name or by the prefix its entry
 * names (hackbench-*, netperf-*), a name before a prefix that would take
 * it (sysbenchcpu, read; sysbench*, known and not read, with why); a
 * name kbench does not know finds nothing. A sample is written by the
 * benchmark of its workload, or of its section and row (tbench's
 * clients-N, sysbench-cpu's threads-N); any other by none. The numbers
 * log names carry are read as the import reads them.
 * Covers: mmtests/mmtests_benches.c mmtests/mmtests_run.c */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "tests/tap.h"

#include <string.h>

static const char *found(const char *dir)
{
	const struct mmtests_bench *b = mmtests_find_bench(dir);

	return b ? b->name : "(none)";
}

static const char *writer(const char *workload, const char *section, const char *row)
{
	struct ex_sample s = { .workload = (char *)workload, .section = (char *)section,
			       .row = (char *)row, .unit = (char *)"" };
	const struct mmtests_bench *b = mmtests_find_export(&s);

	return b ? b->name : "(none)";
}

int main(void)
{
	static const char *const dot[] = { "*.", NULL }, *const logs[] = { ".log", NULL };
	const struct mmtests_bench *b;
	const char *rest = NULL;

	ok_text(found("hackbench-process-pipes"), "hackbench-*", "hackbench-* by its prefix");
	ok_text(found("netperf-tcp-rr"), "netperf-*", "netperf-* by its prefix");
	ok_text(found("pft"), "pft", "pft by its name");
	ok_text(found("pft-extra"), "(none)", "a name is not a prefix");
	ok_text(found("sysbenchcpu"), "sysbenchcpu", "sysbenchcpu before sysbench*");
	b = mmtests_find_bench("sysbench-oltp");
	ok(b && !b->import && b->why && strstr(b->why, "percentile"),
	   "sysbench* is known, not read, and says why");
	b = mmtests_find_bench("dbench4");
	ok(b && !b->import && b->why, "dbench* is known, not read, and says why");
	ok_text(found("stream"), "(none)", "an unknown benchmark finds nothing");

	ok_text(writer("hackbench", "hackbench-a", "4"), "hackbench-*", "hackbench's samples");
	ok_text(writer("netperf", "netperf-tcp-rr", "1"), "netperf-*", "netperf's samples");
	ok_text(writer("pft", "pft-threads", "system-2"), "pft", "pft's samples");
	ok_text(writer("external", "tbench", "clients-8"), "tbench", "tbench's clients-N");
	ok_text(writer("external", "tbench", "latency"), "(none)", "tbench's other rows: none");
	ok_text(writer("external", "sysbench-cpu", "threads-2"), "sysbenchcpu",
	       "sysbench-cpu's threads-N");
	ok_text(writer("external", "dbench", "clients-8"), "(none)", "another section: none");

	ok(mmtests_name_number("hackbench-12", "hackbench-", (const char *const[]){ "", NULL },
			       NULL) == 12, "hackbench-12 is 12");
	ok(mmtests_name_number("TCP_RR-1.3", "TCP_RR-", dot, &rest) == 1 && !strcmp(rest, "3"),
	   "TCP_RR-1.3 is 1, then 3");
	ok(mmtests_name_number("pft-4.log", "pft-", logs, NULL) == 4, "pft-4.log is 4");
	ok(!mmtests_name_number("pft-0.log", "pft-", logs, NULL), "0 is no number");
	ok(!mmtests_name_number("pft-4.txt", "pft-", logs, NULL), "another suffix is none");
	return done_testing();
}
