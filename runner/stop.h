/* stop: the signals that stop a run or an experiment part way (SIGINT,
 * SIGTERM, SIGHUP), caught while it goes on so that it ends cleanly:
 * the sample in flight killed, what was stored kept and marked
 * interrupted, every knob restored. One set for every caller, so that a
 * run and an experiment stop alike. */
#ifndef KBENCH_STOP_H
#define KBENCH_STOP_H

#include <signal.h>

#define STOP_NSIGNALS 3

/* The handlers stop_signals_catch() replaced, to put back. */
struct stop_signals {
	struct sigaction old[STOP_NSIGNALS];
	int caught[STOP_NSIGNALS];
};

/* Catch the stop signals with handler, saving the handlers in place into
 * ss. SIGHUP is left alone when it is ignored (kbench started under
 * nohup goes on when its terminal goes away). */
void stop_signals_catch(struct stop_signals *ss, void (*handler)(int));

/* Put back the handlers ss saved. */
void stop_signals_restore(const struct stop_signals *ss);

#endif
