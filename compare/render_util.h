/* render_util: what every renderer of a comparison shares: the footer
 * (test, alpha, sign convention, samples per side, footnotes) and number
 * clean-up. */
#ifndef KBENCH_RENDER_UTIL_H
#define KBENCH_RENDER_UTIL_H

#include <stddef.h>

struct cmp_model;

/* A percentage as printed: NaN or infinite reads 0 (mmtests). */
double render_pct(double pct);

/* Call line() for each footer line, wrapped at width columns (0: never).
 * Continuation lines are indented by two spaces. */
void render_footer(const struct cmp_model *m, size_t width,
		   void (*line)(const char *line, void *arg), void *arg);

#endif
