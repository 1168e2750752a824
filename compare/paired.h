/* paired: the verdict of an A/B experiment's arms (kbench ab): their runs
 * were measured in the same rounds, interleaved, so each round pairs the
 * arms, and the test is a paired t-test on the per-round differences of
 * the arms' means, which cancels the drift the rounds share. */
#ifndef KBENCH_PAIRED_H
#define KBENCH_PAIRED_H

#include <stddef.h>

struct cmp_cell;
struct cmp_model;
struct cmp_row;

/* The fewest rounds paired for a paired test (df 2). */
#define PAIRED_MIN_ROUNDS 3

/* Whether m compares the arms of one experiment, one run a column, with
 * the default decision: then model_finish tests the mean rows paired and
 * sets m->paired_title. */
int paired_applies(const struct cmp_model *m);

/* The paired t-test of cell against base in row r: the mean of each
 * round's samples on the test's scale (x, or 1/x for an Hmean row), the
 * differences new - base of the rounds both have, a two-sided Student t
 * on their mean with n - 1 degrees of freedom. Fills cell->test and sets
 * cell->paired; returns 1, or 0 (cell untouched) with fewer than
 * PAIRED_MIN_ROUNDS rounds paired. */
int paired_decide(const struct cmp_model *m, const struct cmp_row *r,
		  const struct cmp_cell *base, struct cmp_cell *cell);

/* Per-round means of a cell on the test's scale, by round (1..maxround):
 * means[k - 1] and counts[k - 1] for round k (count 0: none). The caller
 * gives arrays of maxround entries. */
void paired_round_means(const struct cmp_cell *c, int higher_better, int maxround,
			double *means, size_t *counts);

#endif
