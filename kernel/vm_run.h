/* vm_run: a plan run in guests, one boot a round (kbench vm with one
 * kernel). */
#ifndef KBENCH_KERNEL_VM_RUN_H
#define KBENCH_KERNEL_VM_RUN_H

#include <stdint.h>

struct config;
struct plan;
struct run_request;
struct store;
struct vm_config;

/* Run plan p of config c, rounds rounds of every section, in guests of
 * vc, one booted for each round (its accel "auto" made what the first
 * boot found), each round resumed into the run of the first; req names
 * the run. A stop signal during a boot stops QEMU at once. *run_id is
 * the run (0: none was recorded); a run left marked running by a stop
 * after a round is ended, failed or interrupted. Return 0 when every
 * round ran, 128+N when signal N stopped it, else 1 after saying why. */
int vm_run_rounds(struct vm_config *vc, struct plan *p, struct config *c,
		  struct store *s, struct run_request *req, int rounds, int64_t *run_id);

#endif
