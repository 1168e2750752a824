/* pin_task: bind another process's thread (a QEMU vCPU thread) to a slot
 * of a pin plan of this machine, through hwloc. */
#include "config.h"
#include "machine/pin.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <hwloc.h>
#include <string.h>

int pin_bind_task(const struct pin_plan *plan, int slot, pid_t tid, struct strbuf *err)
{
	int cpu = pin_plan_cpu(plan, slot);
	hwloc_topology_t t;
	hwloc_bitmap_t set;
	int rc;

	if (cpu < 0 || !plan->binds)
		return 0;
	t = pin_topo_hwloc(plan->topo);
	set = hwloc_bitmap_alloc();
	if (!set) {
		strbuf_addstr(err, "out of memory");
		return -1;
	}
	hwloc_bitmap_only(set, (unsigned)cpu);
	rc = hwloc_set_proc_cpubind(t, tid, set, HWLOC_CPUBIND_THREAD);
	if (rc)
		strbuf_addf(err, "cannot bind thread %d to P#%d: %s", (int)tid, cpu,
			    strerror(errno));
	hwloc_bitmap_free(set);
	return rc ? -1 : 0;
}
