/* progress: what a long run tells the person waiting for it, on stderr:
 * one updating line on a terminal, cut to its width (section, row, sample
 * i/n, the last value, ETA), one line per sample otherwise, nothing with
 * --quiet. Never inside a timed window. */
#ifndef KBENCH_PROGRESS_H
#define KBENCH_PROGRESS_H

#include <stdint.h>

/* The longest progress line drawn, in bytes. */
#define PROGRESS_LINE_MAX 512

struct progress {
	int tty;
	int total;		/* samples planned, warm-up included */
	int done;
	int64_t spent_ns;	/* duration of the samples so far */
	int shown;		/* a terminal line is on screen */
	int columns;		/* the terminal's width; re-read after SIGWINCH */
	char head[PROGRESS_LINE_MAX];	/* "[section] row:" of the sample on screen */
	char what[64];			/* "sample 3/8" */
	char what_short[64];		/* "3/8", "w1/1" for a warm-up */
	char last[128];			/* the last sample's result */
	const char *tag;		/* before the head ("round 2/6 base"); NULL: none */
};

/* Start reporting a plan of total samples; on a terminal, watch SIGWINCH
 * for its width. */
void progress_init(struct progress *p, int total);
/* Before a sample: what is about to run, sample i of n (n < 0: of at most
 * -n, a row of iterations = auto); row as wl_params_row_text names it
 * ("groups 4", "clients-4"). */
void progress_start(struct progress *p, const char *section, const char *row,
		    int i, int n, int warmup);
/* After it: a short result with its unit ("0.0312 s") and its duration.
 * A result starting with "failed: " is a failure the runner has warned
 * about already: a terminal shows it as the last value, other output
 * only counts it, so that each failure is reported once. */
void progress_end(struct progress *p, const char *section, const char *row,
		  int i, int n, int warmup, const char *result, int64_t duration_ns);
/* Clear the terminal line before other output. */
void progress_clear(struct progress *p);

struct strbuf;
struct wl_params;
struct wl_sample;

/* A sample's result as the progress line says it into sb: its first
 * three values with their units (a named metric's row first), "...
 * (N values)" past them, and its flag. */
void progress_format_result(const struct wl_params *params, const struct wl_sample *smp,
			    struct strbuf *sb);

#endif
