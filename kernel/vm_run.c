/* vm_run: a plan run in guests booted one a round (kbench vm with one
 * kernel), as each arm of an experiment of kernels has its boots. */
#include "config.h"
#include "kernel/vm_run.h"
#include "kernel/vm.h"
#include "runner/plan.h"
#include "runner/record.h"
#include "runner/runner.h"
#include "runner/stop.h"
#include "db/store.h"
#include "lib/error.h"

#include <signal.h>
#include <string.h>

static volatile sig_atomic_t boot_stop;

static void on_boot_signal(int sig)
{
	boot_stop = sig;
}

/* A stop after a round leaves the run marked running: end it. */
static void finish_stopped(struct store *s, int64_t run_id, int rc)
{
	struct run_info ri;

	if (store_get_run(s, run_id, &ri))
		return;
	if (!strcmp(ri.status, "running"))
		record_finish_run(s, run_id, rc >= 128 ? "interrupted" : "failed");
	run_info_release(&ri);
}

int vm_run_rounds(struct vm_config *vc, struct plan *p, struct config *c,
		  struct store *s, struct run_request *req, int rounds, int64_t *run_id)
{
	struct stop_signals boot_signals = { .caught = { 0 } };
	struct vm *vm = NULL;
	int rc = 0;

	for (size_t i = 0; i < p->n; i++)
		p->sections[i].rounds = rounds;
	p->rounds = rounds;
	/* A stop signal during a boot ends it at once (the samples' own are
	 * the runner's). */
	boot_stop = 0;
	stop_signals_catch(&boot_signals, on_boot_signal);
	vc->stop = &boot_stop;
	/* One boot a round, as each arm of an alternation has. */
	for (int k = 1; k <= rounds && !rc; k++) {
		if (rounds > 1)
			notice("round %d/%d: %s%s%s", k, rounds, vc->kernel, vc->append ? " " : "",
			       vc->append ? vc->append : "");
		if (boot_stop || vm_boot(vc, &vm)) {
			if (boot_stop) {
				rc = 128 + boot_stop;
				error("interrupted by signal %d while the guest booted: QEMU was "
				      "stopped%s", (int)boot_stop, *run_id > 0 ?
				      "; the run keeps the samples of the rounds before" : "");
			} else {
				rc = 1;
			}
			break;
		}
		/* What auto found holds for the boots that follow. */
		if (!strcmp(vc->accel, "auto"))
			vc->accel = vm_accel(vm);
		req->exec = vm_executor(vm);
		req->resume = *run_id;
		req->round = rounds > 1 ? k : 0;
		req->keep_running = k < rounds;
		rc = plan_execute(p, c, s, req, run_id);
		vm_stop(vm);
		vm = NULL;
		if (rc < 0)
			rc = 1;
	}
	vc->stop = NULL;
	stop_signals_restore(&boot_signals);
	if (rc && *run_id > 0)
		finish_stopped(s, *run_id, rc);
	return rc;
}
