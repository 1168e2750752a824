/* stop: catching the signals that stop a run, and putting them back. */
#include "config.h"
#include "runner/stop.h"

#include <string.h>

static const int stop_signals[STOP_NSIGNALS] = { SIGINT, SIGTERM, SIGHUP };

void stop_signals_catch(struct stop_signals *ss, void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sigemptyset(&sa.sa_mask);
	for (int i = 0; i < STOP_NSIGNALS; i++) {
		ss->caught[i] = 0;
		if (sigaction(stop_signals[i], NULL, &ss->old[i]))
			continue;
		if (stop_signals[i] == SIGHUP && ss->old[i].sa_handler == SIG_IGN)
			continue;
		ss->caught[i] = !sigaction(stop_signals[i], &sa, NULL);
	}
}

void stop_signals_restore(const struct stop_signals *ss)
{
	for (int i = 0; i < STOP_NSIGNALS; i++)
		if (ss->caught[i])
			sigaction(stop_signals[i], &ss->old[i], NULL);
}
