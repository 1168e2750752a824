/* paired: the verdict of an A/B experiment's arms (kbench ab): their runs
 * were measured in the same rounds, interleaved, so each round pairs the
 * arms, and the test is a paired t-test on the per-round differences of
 * the arms' means, which cancels the drift the rounds share. A pure
 * function of the rounds' figures, as compare/noise.h's tests are; which
 * cells it decides, and how their verdict is written, is
 * compare/decide.h's. */
#ifndef KBENCH_PAIRED_H
#define KBENCH_PAIRED_H

#include "compare/noise.h"

#include <stddef.h>

/* The fewest rounds paired for a paired test (df 2). */
#define PAIRED_MIN_ROUNDS 3

/* The level of the nested model's test for round-by-arm noise: below it
 * the noise is taken as present and nothing is pooled. A level well above
 * the verdict's, as "sometimes pool" procedures use, so that pooling is
 * done only when that noise is plainly small (Bozivich, Bancroft and
 * Hartley, 1956, Ann. Math. Statist. 27:1017-1043). */
#define PAIRED_POOL_ALPHA 0.25

struct paired_result {
	struct noise_decision dec;	/* of the mean of new - base */
	size_t rounds;			/* rounds both arms have */
	double base_mean;		/* the baseline's mean over them */
	/* paired_nested_test only: whether the samples' variance was
	 * pooled into the test, and the p of the test for round-by-arm
	 * noise (NaN: no sample spread to test it against, so the paired
	 * test stands). */
	int pooled;
	double interaction_p;
};

/* The paired test of two arms from their rounds: base[k] and new[k]
 * summarise each arm's samples on the test's scale in round k + 1 (k <
 * nrounds; n 0: the arm has none there; group and run are not read). The
 * rounds both arms have give the
 * differences of the means new - base, and a two-sided Student t on their
 * mean with n - 1 degrees of freedom decides at level alpha (the m2 are
 * not read). Returns 0 with *out filled, or -1 with fewer than
 * PAIRED_MIN_ROUNDS rounds paired. */
int paired_test(const struct noise_replicate *base, const struct noise_replicate *new,
		size_t nrounds, double alpha, struct paired_result *out);

/* The paired test with the samples within the rounds (kbench compare
 * --paired nested). The round is a block and the samples are nested in
 * round and arm: a sample is mu + arm + round + round-by-arm + e, and a
 * round's difference of means has variance 2 s_ra^2 + s_e^2 (1/n_b +
 * 1/n_n). The rounds' differences estimate all of it on n - 1 df; the
 * samples estimate s_e^2 on sum(n - 1) df. An F test of the first
 * against the second's share, at PAIRED_POOL_ALPHA, looks for s_ra^2;
 * when it finds none the two estimates are pooled, weighted by their
 * degrees of freedom, and the t has their sum. When it does, or when
 * the samples have no degrees of freedom, the result is paired_test's.
 * Returns as paired_test. */
int paired_nested_test(const struct noise_replicate *base, const struct noise_replicate *new,
		       size_t nrounds, double alpha, struct paired_result *out);

#endif
