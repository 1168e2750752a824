/* pin: where workers run. A pin policy names a placement ("cross-core",
 * "spread"); a pin plan is that policy computed on one hwloc topology: an
 * ordered list of PUs, one slot per party or worker. The runner computes
 * the plan before anything runs (so a policy the machine cannot honour is
 * an error up front); the workload binds each process or thread to its
 * slot in the forked child with pin_apply().
 *
 * Two-party policies (netperf): slot 0 is the server, slot 1 the client.
 *   unbound       no binding
 *   same-pu       both on one PU
 *   cross-ht      two PUs of one core (SMT siblings)
 *   cross-core    two cores sharing the last-level cache
 *   cross-llc     two last-level caches, as close as the machine allows
 *                 (same NUMA node if it can, else same package)
 *   cross-node    two NUMA nodes, same package if the machine allows
 *   cross-socket  two packages
 * The pair is the first one, in logical order, whose nearest common
 * ancestor is the one the policy asks for; apart from cross-ht it uses the
 * first PU of each core, so SMT siblings never share the work by accident.
 *
 * Many-worker policies (hackbench, pft): worker i runs on slot i (modulo
 * the number of slots).
 *   unbound       no binding
 *   spread        round-robin over the topology tree: one worker per core,
 *                 alternating packages, caches and cores, then the second
 *                 PU of each core, and so on
 *   compact       PUs in logical order (SMT siblings first)
 * Any prefix of a many-worker plan is the placement for that many workers.
 */
#ifndef KBENCH_PIN_H
#define KBENCH_PIN_H

#include <sys/types.h>

struct strbuf;
struct pin_topo;

enum pin_kind {
	PIN_ANY,	/* unbound: valid for every workload */
	PIN_TWO,	/* two parties: server and client */
	PIN_MANY,	/* any number of workers */
};

struct pin_policy {
	const char *name;
	enum pin_kind kind;
	const char *help;	/* one line */
};

/* The policy table, in a stable order, ending with { .name = NULL }. */
extern const struct pin_policy pin_policies[];
/* The table entry for name, or NULL. */
const struct pin_policy *pin_policy_find(const char *name);
/* Whether every name of policies (one, or a preference list "a,b,c")
 * is a policy of the table. Return 0, or -1 with err naming the first
 * that is not and those there are. */
int pin_policies_check(const char *policies, struct strbuf *err);
/* The choices of a workload's `pin` option (WL_ENUM), as constants so
 * option tables can use them; the unit tests hold them to the table. */
#define PIN_CHOICES_TWO \
	"unbound|same-pu|cross-ht|cross-core|cross-llc|cross-node|cross-socket"
#define PIN_CHOICES_MANY "unbound|spread|compact"

struct pin_slot {
	int os_index;		/* P#: what the kernel calls the CPU */
	int logical_index;	/* L#: hwloc's logical order */
};

struct pin_plan {
	const char *policy;		/* a name from pin_policies[] */
	enum pin_kind kind;
	int nslots;			/* 0 for unbound */
	struct pin_slot *slots;
	struct pin_topo *topo;		/* the topology the slots belong to */
	int owns_topo;			/* free topo with the plan */
	int binds;			/* topo is this machine: pin_apply binds */
	/* From a preference list whose first policies were not possible:
	 * why not ("'cross-core' needs two cores sharing a last-level cache;
	 * this machine has ..."); NULL when the first one was used. */
	char *passed_over;
};

/* Load a topology: the machine this runs on when both synthetic and
 * xml_path are NULL, else an hwloc synthetic description ("pack:2 numa:2
 * l3:2 core:8 pu:2") or an XML export. Binding on a synthetic or XML
 * topology is a no-op (hwloc's rule). Return 0, or -1 with err. */
int pin_topo_load(const char *synthetic, const char *xml_path,
		  struct pin_topo **out, struct strbuf *err);
void pin_topo_free(struct pin_topo *t);
/* The hwloc topology (hwloc_topology_t) behind t, for printing. */
void *pin_topo_hwloc(struct pin_topo *t);
/* "2 packages, 4 NUMA nodes, 8 LLCs (L3), 32 cores, 64 PUs" */
void pin_topo_describe(struct pin_topo *t, struct strbuf *out);

/* Compute policy on topo. nworkers is the number of slots for a
 * many-worker policy (0: one per PU); two-party policies have two slots.
 * The plan refers to topo, which must outlive it. Return 0, or -1 with
 * err ("unknown pin policy 'x'", or why this topology cannot honour it,
 * naming what it has). */
int pin_plan_compute_on(struct pin_topo *topo, const char *policy,
			int nworkers, struct pin_plan **out, struct strbuf *err);
/* As pin_plan_compute_on, on the topology of this machine (loaded for
 * the plan and freed with it). */
int pin_plan_compute(const char *policy, int nworkers,
		     struct pin_plan **out, struct strbuf *err);
void pin_plan_free(struct pin_plan *plan);
/* Bind the calling thread (and the threads and processes it creates
 * afterwards) to slot (modulo nslots). A NULL or unbound plan, or one of
 * a synthetic or XML topology (binds is 0), binds nothing. Needs neither
 * topo nor hwloc (machine/bind.c): a sample process rebuilds the plan
 * from its slots. Return 0, or -1 with err. */
int pin_apply(const struct pin_plan *plan, int slot, struct strbuf *err);
/* Bind thread tid (of any process) to slot (modulo nslots) of plan, a
 * plan of this machine, through hwloc; an unbound plan binds nothing.
 * Return 0, or -1 with err. */
int pin_bind_task(const struct pin_plan *plan, int slot, pid_t tid, struct strbuf *err);
/* The OS index of slot (modulo nslots), or -1 when unbound. */
int pin_plan_cpu(const struct pin_plan *plan, int slot);
/* One line for the store and the terminal: "cross-core: server P#0,
 * client P#1", "spread: P#0 P#2 P#1 P#3", "unbound". */
void pin_plan_describe(const struct pin_plan *plan, struct strbuf *out);

#endif
