/* procinfo: the machine facts option values are computed from (CPUs this
 * process may use, MemTotal), from the kernel alone, without hwloc, so
 * that the lean sample program (sampler/) parses options as kbench does. */
#include "config.h"
#include "machine/sysinfo.h"

#include <sched.h>
#include <stdio.h>
#include <unistd.h>

int sysinfo_cpus_allowed(void)
{
	cpu_set_t set;
	int n;

	if (sched_getaffinity(0, sizeof(set), &set))
		return (int)sysconf(_SC_NPROCESSORS_ONLN);
	n = CPU_COUNT(&set);
	return n > 0 ? n : 1;
}

uint64_t sysinfo_mem_total(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[256];
	unsigned long long kb = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemTotal: %llu kB", &kb) == 1)
			break;
	fclose(f);
	return (uint64_t)kb * 1024;
}
