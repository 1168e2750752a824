/* render_common: what every renderer of a comparison shares: the footer
 * (test, alpha, sign convention, samples per side, footnotes), the verdict
 * of a cell, line wrapping and number clean-up. */
#ifndef KBENCH_RENDER_COMMON_H
#define KBENCH_RENDER_COMMON_H

#include <stddef.h>

struct cmp_cell;
struct cmp_model;
struct cmp_row;
struct strbuf;

/* A percentage as printed: NaN or infinite reads 0 (mmtests). */
double render_pct(double pct);

/* Call line() for each footer line, wrapped at width columns (0: never).
 * Continuation lines are indented by two spaces. */
void render_footer(const struct cmp_model *m, size_t width,
		   void (*line)(const char *line, void *arg), void *arg);

/* Call line() for each line of text wrapped at width columns (0: never),
 * continuation lines indented by two spaces; text is emptied. */
void render_wrapped(struct strbuf *text, size_t width,
		    void (*line)(const char *line, void *arg), void *arg);

/* The parts of the footer, for render_footer_parts. */
enum {
	FOOTER_TEST = 1 << 0,		/* the test, alpha, what a star is, the sign */
	FOOTER_SAMPLES = 1 << 1,	/* samples per side */
	FOOTER_NOTES = 1 << 2,		/* the rows left untested, and why */
	/* What the default decision knew of the noise between runs (after
	 * the test's line when both are asked for); the ~ line is a note. */
	FOOTER_NOISE = 1 << 3,
	FOOTER_ALL = FOOTER_TEST | FOOTER_SAMPLES | FOOTER_NOTES | FOOTER_NOISE,
};

/* render_footer with only the parts in the FOOTER_* mask parts. */
void render_footer_parts(const struct cmp_model *m, size_t width, unsigned parts,
			 void (*line)(const char *line, void *arg), void *arg);

/* The sample count of column col as the footer and the header show it:
 * "3", a range over its rows "1-3", and " (2 runs pooled)"; appended. */
void render_samples(const struct cmp_model *m, size_t col, struct strbuf *sb);

/* Mail is ASCII: make every other byte of out from start on a '?', one
 * for one, so that the columns stay where they were laid out. */
void render_ascii(struct strbuf *out, size_t start);

/* The verdict on the mean row of a cell against the baseline: "better",
 * "worse", "within noise" (tested, not significant), or "untested" (no
 * test, or one that could not be significant). */
const char *render_verdict(const struct cmp_row *r, const struct cmp_cell *cell);

/* The test the footers name for m: its own, or the t-test of run means
 * when the default decision tested a row against between-run noise. */
const char *render_test_title(const struct cmp_model *m);

/* Whether a cell's mean row is significant on within-run variance only,
 * the between-run noise unknown (marked + instead of *). */
int render_within_only(const struct cmp_cell *cell);

/* The warning of runs that measured different work (the model's
 * different_work, not 0): "the runs measured different work (Options):
 * a change includes what the options changed" and its kin for a config
 * text, the header keys in parentheses; appended to sb. */
void render_work_warning(unsigned different_work, struct strbuf *sb);
/* Why m's runs measured on different kinds (m->different_kinds set),
 * appended to sb without a full stop: "the runs measured on different
 * kinds, native vs guest (TCG, 2 vCPUs, 512 MiB): a change includes what
 * the kind changed" (each kind once, in the order of the columns). */
void render_kind_warning(const struct cmp_model *m, struct strbuf *sb);

#endif
