-- kbench store, schema version 7 (from version 6): warm-up samples kept,
-- and each run's sample count kept with the run.
-- A warm-up sample (warmup = N in a config) is measured like any other
-- but was thrown away before this version. It is stored now, marked
-- warmup = 1, with the iteration numbers its failures have always had
-- (-1 to -N, in each round: round and iteration tell them apart), and no
-- monitor values: what it cost and whether the samples after it differ
-- can be seen, and no statistic reads it (compare, history, calibrate,
-- regressions, run counts read warmup = 0 only). Samples stored before
-- this version are all measured ones.
ALTER TABLE samples ADD COLUMN warmup INTEGER NOT NULL DEFAULT 0 CHECK (warmup IN (0, 1));

-- nsamples: the run's measured samples (warm-ups left out), counted as
-- before: one per sample, however many result rows it stored (pft's four
-- per worker count), so that a listing of the runs reads no sample row.
-- The writer adds one with each sample it commits; an import or a
-- recovery counts again what it added.
ALTER TABLE runs ADD COLUMN nsamples INTEGER NOT NULL DEFAULT 0;
UPDATE runs SET nsamples = (SELECT count(DISTINCT s.section || char(31) || s.iteration ||
	char(31) || coalesce(s.started_at, 'row ' || s.row)) FROM samples s WHERE s.run_id = runs.id);
