/* workloads: the one table of workload drivers, in a stable order. */
#include "config.h"
#include "workloads/workload.h"

#include <string.h>

extern const struct workload_ops hackbench_ops;
extern const struct workload_ops netperf_ops;
extern const struct workload_ops pft_ops;
extern const struct workload_ops external_ops;

const struct workload_ops *const workloads[] = {
	&hackbench_ops,
	&netperf_ops,
	&pft_ops,
	&external_ops,
	NULL
};

const struct workload_ops *workload_find(const char *name)
{
	for (int i = 0; workloads[i]; i++)
		if (!strcmp(workloads[i]->name, name))
			return workloads[i];
	return NULL;
}
