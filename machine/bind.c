/* bind: the part of a pin plan a sample process uses, binding to a slot
 * and naming the plan, with sched_setaffinity rather than hwloc, so that
 * the lean sample program (sampler/) links without hwloc. */
#include "config.h"
#include "machine/pin.h"
#include "lib/strbuf.h"

#include <assert.h>
#include <errno.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

int pin_plan_cpu(const struct pin_plan *plan, int slot)
{
	if (!plan || plan->nslots <= 0 || slot < 0)
		return -1;
	return plan->slots[slot % plan->nslots].os_index;
}

int pin_apply(const struct pin_plan *plan, int slot, struct strbuf *err)
{
	int cpu = pin_plan_cpu(plan, slot), rc = 0;
	size_t size;
	cpu_set_t *set;

	/* A synthetic or XML topology's plan binds nothing (hwloc's rule). */
	if (cpu < 0 || !plan->binds)
		return 0;
	set = CPU_ALLOC((size_t)cpu + 1);
	if (!set)
		abort();
	size = CPU_ALLOC_SIZE((size_t)cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S((size_t)cpu, size, set);
	if (sched_setaffinity(0, size, set)) {
		strbuf_addf(err, "cannot bind to CPU %d (pin policy '%s'): %s",
			    cpu, plan->policy, strerror(errno));
		rc = -1;
	}
	CPU_FREE(set);
	return rc;
}

void pin_plan_describe(const struct pin_plan *plan, struct strbuf *out)
{
	if (!plan || !plan->nslots) {
		strbuf_addstr(out, "unbound");
		return;
	}
	strbuf_addf(out, "%s:", plan->policy);
	if (plan->kind == PIN_TWO) {
		assert(plan->nslots == 2);	/* server, client */
		strbuf_addf(out, " server P#%d (L#%d), client P#%d (L#%d)",
			    plan->slots[0].os_index, plan->slots[0].logical_index,
			    plan->slots[1].os_index, plan->slots[1].logical_index);
		return;
	}
	for (int i = 0; i < plan->nslots; i++)
		strbuf_addf(out, " P#%d", plan->slots[i].os_index);
}
