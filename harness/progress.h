/* progress: what a long run tells the person waiting for it, on stderr:
 * one updating line on a terminal (section, row, sample i/n, ETA), one line
 * per sample otherwise, nothing with --quiet. Never inside a timed window. */
#ifndef KBENCH_PROGRESS_H
#define KBENCH_PROGRESS_H

#include <stdint.h>

struct progress {
	int tty;
	int total;		/* samples planned, warm-up included */
	int done;
	int64_t spent_ns;	/* duration of the samples so far */
	int shown;		/* a terminal line is on screen */
};

void progress_init(struct progress *p, int total);
/* Before a sample: what is about to run; row as wl_params_row_text names
 * it ("groups 4", "clients-4"). */
void progress_start(struct progress *p, const char *section, const char *row,
		    int i, int n, int warmup);
/* After it: a short result ("0.0312 s", "failed: ...") and its duration. */
void progress_end(struct progress *p, const char *section, const char *row,
		  int i, int n, int warmup, const char *result, int64_t duration_ns);
/* Clear the terminal line before other output. */
void progress_clear(struct progress *p);

#endif
