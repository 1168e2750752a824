-- kbench store, schema version 5 (from version 4): repeat rounds and
-- adaptive iterations.
-- A run may go through its plan several times (rounds = N): each sample
-- says in which round it was measured. A sample's iteration stays unique
-- within its run, section and row: the numbering goes on from one round
-- to the next, so monitor values and failures still tie to a sample by
-- iteration. Samples stored before this version were all of round 1.
ALTER TABLE samples ADD COLUMN round INTEGER NOT NULL DEFAULT 1;

-- With iterations = auto each row of each round runs until the 95%
-- confidence interval of its mean is narrow enough (ci_target) or its
-- sample cap is reached. One row per (run, section, row, round) of such
-- a section, written when that row's round is done:
--   row           the row's label, as failures name it ("4", "64")
--   iterations    samples stored for the row in the round
--   ci_target     the target: half-width of the 95% CI over the mean,
--                 as a fraction (0.02 for 2%)
--   ci_reached    the half-width reached over the mean, as a fraction;
--                 NULL when fewer than 2 samples or a mean of 0
--   met           1 when ci_reached <= ci_target with at least
--                 min_iterations samples, else 0 (the cap was reached)
CREATE TABLE row_results (
	run_id     INTEGER NOT NULL REFERENCES runs(id),
	section    TEXT NOT NULL,
	row        TEXT NOT NULL,
	round      INTEGER NOT NULL,
	iterations INTEGER NOT NULL,
	ci_target  REAL NOT NULL,
	ci_reached REAL,
	met        INTEGER NOT NULL CHECK (met IN (0, 1))
);
CREATE INDEX row_results_run ON row_results(run_id);
