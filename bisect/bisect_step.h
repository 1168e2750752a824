/* bisect_step: the steps of a bisection, from the one it is at to its
 * end. Step 0 runs the good end against the bad one to confirm the
 * regression and choose its row; each later step builds the commit the
 * walk picks and runs one interleaved experiment of the good end of the
 * range still open, that commit and the bad end, whose looks (every
 * `rounds` rounds up to max-rounds) decide it good, bad or skipped. */
#ifndef KBENCH_BISECT_STEP_H
#define KBENCH_BISECT_STEP_H

struct bisect_ctx;

/* Run the steps left of b (step 0 first when b has no row yet), each
 * stored as it ends, and close the bisection. Return BISECT_DONE_FOUND,
 * BISECT_DONE_NOT_FOUND (no regression, only skipped commits left, or a
 * failure, said), or 128+N when signal N stopped it. */
int bisect_run_steps(struct bisect_ctx *b);

#endif
