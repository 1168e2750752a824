/* paired: the verdict of an A/B experiment's arms (kbench ab): their runs
 * were measured in the same rounds, interleaved, so each round pairs the
 * arms, and the test is a paired t-test on the per-round differences of
 * the arms' means, which cancels the drift the rounds share. A pure
 * function of the rounds' means, as compare/noise.h's tests are; which
 * cells it decides, and how their verdict is written, is
 * compare/decide.h's. */
#ifndef KBENCH_PAIRED_H
#define KBENCH_PAIRED_H

#include "compare/noise.h"

#include <stddef.h>

/* The fewest rounds paired for a paired test (df 2). */
#define PAIRED_MIN_ROUNDS 3

struct paired_result {
	struct noise_decision dec;	/* of the mean of new - base */
	size_t rounds;			/* rounds both arms have */
	double base_mean;		/* the baseline's mean over them */
};

/* The paired test of two arms from their means by round: base[k] and
 * new[k] for round k + 1 (k < nrounds), each counted by nbase[k] and
 * nnew[k] samples (0: the arm has no sample in that round). The rounds
 * both arms have give the differences new - base, and a two-sided
 * Student t on their mean with n - 1 degrees of freedom decides at level
 * alpha. Returns 0 with *out filled, or -1 with fewer than
 * PAIRED_MIN_ROUNDS rounds paired (or none to test). */
int paired_test(const double *base, const size_t *nbase, const double *new,
		const size_t *nnew, size_t nrounds, double alpha,
		struct paired_result *out);

#endif
