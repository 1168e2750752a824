/* cgroup: a box for the processes kbench starts beside its work (an
 * arm's background load, the make of kbench build), from which none can
 * leave: a process group is left by setsid(), a cgroup is not.
 *
 * A box is a cgroup v2 directory of kbench's own, CGROUP2/kbench/NAME
 * (CGROUP2: where cgroup2 is mounted), when kbench may make one; the
 * processes started into it (lib/child.h, child_program's cgroup) and all
 * they start stay in it, and killing the box kills them all (cgroup.kill,
 * or SIGKILL to each process of cgroup.procs until it is empty), within a
 * bound. Where no cgroup can be made (no cgroup2, not root), the box is
 * the processes whose environment holds its marker (KBENCH_BOX=NAME):
 * found through /proc, which a process that clears its environment
 * escapes. */
#ifndef KBENCH_CGROUP_H
#define KBENCH_CGROUP_H

#include <sys/types.h>

struct strbuf;

/* The name of the environment variable that marks a box's processes. */
#define CGROUP_MARKER "KBENCH_BOX"
/* How long killing a box may take, in s. */
#define CGROUP_KILL_WAIT_S 2.0

struct cgroup_box {
	char *name;		/* "load.PID.N": unique on the machine */
	char *dir;		/* its cgroup directory; NULL: none, the marker only */
	char *marker;		/* "KBENCH_BOX=NAME", for the environment */
};
#define CGROUP_BOX_INIT { NULL, NULL, NULL }

/* Open a box whose name begins with kind ("load", "build"): its cgroup
 * made when one can be (else dir stays NULL, and why not is in why when
 * why is not NULL). Always succeeds. */
void cgroup_box_open(struct cgroup_box *b, const char *kind, struct strbuf *why);

/* Kill every process of the box (a process of the cgroup, or one that
 * carries the marker), but for pid keep (0: none), within
 * CGROUP_KILL_WAIT_S, reaping those that were kbench's children. Return
 * how many were sent SIGKILL. */
int cgroup_box_kill(const struct cgroup_box *b, pid_t keep);

/* Kill the box's processes and remove its cgroup; b is empty after. */
void cgroup_box_close(struct cgroup_box *b);

/* The box a record names (its cgroup directory, or NULL; its marker, or
 * NULL), killed and removed as cgroup_box_close() does, when the
 * directory is one of kbench's boxes (CGROUP2/kbench/NAME, nothing else)
 * and the marker is one of a box's. Return how many processes were
 * sent SIGKILL. */
int cgroup_box_reap(const char *dir, const char *marker);

#endif
