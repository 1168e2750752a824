/* sysinfo: facts about the machine and the booted kernel, recorded with
 * every run (hwloc for the topology, uname and /proc for the rest). */
#ifndef KBENCH_SYSINFO_H
#define KBENCH_SYSINFO_H

#include <stdint.h>

struct machine_info {
	char *hostname;
	char *cpu_model;
	int cpus;		/* PUs */
	int cores;
	int packages;
	int numa_nodes;
	uint64_t mem_bytes;
	char *topology_xml;	/* hwloc XML export */
	char *fingerprint;	/* stable id of hostname + hardware facts */
};

struct kernel_info {
	char *release;		/* uname -r */
	char *version;		/* uname -v */
	char *cmdline;		/* /proc/cmdline */
};

/* The name of this host as kbench records it and scopes run selectors by:
 * $KBENCH_HOSTNAME when set and not empty (for tests and fleet
 * simulations: one machine posing as several hosts), else gethostname().
 * Returns a malloc'd string the caller frees. */
char *sysinfo_hostname(void);

/* Fill from hwloc and /proc; return 0 or -1 after an error message. */
int machine_info_load(struct machine_info *m);
/* Set m->fingerprint (replacing any) from m's host name and hardware
 * facts, as machine_info_load() does: a machine described by other means
 * (an imported results directory) gets the id its facts give. */
void machine_info_set_fingerprint(struct machine_info *m);
void machine_info_release(struct machine_info *m);
int kernel_info_load(struct kernel_info *k);
void kernel_info_release(struct kernel_info *k);

/* CPUs this process may run on (sched_getaffinity). */
int sysinfo_cpus_allowed(void);
/* MemTotal in bytes (0 if unreadable). */
uint64_t sysinfo_mem_total(void);

#endif
