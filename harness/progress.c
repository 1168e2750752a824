/* progress: run progress on stderr, with an ETA from the durations so far. */
#include "config.h"
#include "harness/progress.h"
#include "lib/error.h"

#include <stdio.h>
#include <unistd.h>

void progress_init(struct progress *p, int total)
{
	p->tty = isatty(STDERR_FILENO);
	p->total = total;
	p->done = 0;
	p->spent_ns = 0;
	p->shown = 0;
}

static void format_eta(const struct progress *p, char *buf, size_t len)
{
	long long left_s;

	if (!p->done) {
		snprintf(buf, len, "ETA --:--");
		return;
	}
	left_s = (long long)((double)p->spent_ns / p->done * (p->total - p->done) / 1e9 + 0.5);
	if (left_s >= 3600)
		snprintf(buf, len, "ETA %lld:%02lld:%02lld", left_s / 3600, left_s / 60 % 60, left_s % 60);
	else
		snprintf(buf, len, "ETA %lld:%02lld", left_s / 60, left_s % 60);
}

void progress_clear(struct progress *p)
{
	if (p->tty && p->shown) {
		fputs("\r\033[K", stderr);
		p->shown = 0;
	}
}

void progress_start(struct progress *p, const char *section, const char *row,
		    int i, int n, int warmup)
{
	char eta[32];

	if (kb_quiet || !p->tty)
		return;
	format_eta(p, eta, sizeof(eta));
	fprintf(stderr, "\r\033[K[%s] %s: %s %d/%d  (%d/%d done, %s)", section, row,
		warmup ? "warm-up" : "sample", i, n, p->done, p->total, eta);
	fflush(stderr);
	p->shown = 1;
}

void progress_end(struct progress *p, const char *section, const char *row,
		  int i, int n, int warmup, const char *result, int64_t duration_ns)
{
	p->done++;
	p->spent_ns += duration_ns;
	if (kb_quiet || p->tty)
		return;
	fprintf(stderr, "kbench: [%s] %s: %s %d/%d: %s (%d/%d)\n", section, row,
		warmup ? "warm-up" : "sample", i, n, result, p->done, p->total);
}
