/* mmtests_benches: the one table of mmtests' benchmark directories
 * kbench knows, in the order they are looked up (a name before a prefix
 * that would take it: sysbenchcpu before sysbench*). Each benchmark kbench
 * reads is a file of its own, bench_NAME.c. */
#include "config.h"
#include "mmtests/mmtests_bench.h"

#include <string.h>

static const struct mmtests_bench dbench = {
	.name = "dbench*",
	.why = "dbench's figures are per-second rates and per-client loadfile "
	       "times, not one per invocation; kbench has no dbench workload",
};

static const struct mmtests_bench sysbench = {
	.name = "sysbench*",
	.why = "mmtests reads a 95th percentile latency here; kbench's "
	       "sysbench sections read total time",
};

static const struct mmtests_bench *const benches[] = {
	&mmtests_hackbench,
	&mmtests_netperf,
	&mmtests_pft,
	&mmtests_tbench,
	&mmtests_sysbench_cpu,
	&dbench,
	&sysbench,
};

const struct mmtests_bench *mmtests_find_bench(const char *name)
{
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++) {
		size_t n = strlen(benches[i]->name);

		if (benches[i]->name[n - 1] == '*' ? !strncmp(name, benches[i]->name, n - 1)
						     : !strcmp(name, benches[i]->name))
			return benches[i];
	}
	return NULL;
}

const struct mmtests_bench *mmtests_find_export(const struct ex_sample *s)
{
	for (size_t i = 0; i < sizeof(benches) / sizeof(benches[0]); i++)
		if (benches[i]->exports && benches[i]->exports(s))
			return benches[i];
	return NULL;
}
