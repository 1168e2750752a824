-- kbench store, schema version 10 (from version 9): the sequential design
-- of an experiment and its looks (kbench ab --rounds auto). An experiment
-- with a sequential design looks at its arms after min-rounds rounds, then
-- every look-every rounds, up to max-rounds, reads each mean row's paired
-- t against the look's bound (O'Brien-Fleming alpha spending), and stops
-- at the first look that decides every row it watches.
--   design      NULL: a fixed number of rounds; else the design as the
--               arms' runs hold it in their fact experiment-design:
--               "sequential min-rounds=4 max-rounds=24 look-every=2
--               alpha=0.05 equivalence=5%"
ALTER TABLE experiments ADD COLUMN design TEXT;

-- Every look of an experiment with a sequential design: one row per look,
-- arm compared with the first arm, and mean row.
--   look        1 for the first look
--   rounds      the rounds paired at the look
--   arm         the arm compared with the baseline (the first arm)
--   section, row  the mean row; stat Amean or Hmean
--   pct         the arm's change, % of the baseline's mean, + better
--   lo_pct, hi_pct  the look's repeated confidence interval of pct
--   t, bound    the paired t (+: better) and the |t| that decides
--   decision    change, no change, go on, cannot tell
--   watched     1: the row decides when the experiment stops
CREATE TABLE experiment_looks (
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	look          INTEGER NOT NULL,
	rounds        INTEGER NOT NULL,
	arm           TEXT NOT NULL,
	section       TEXT NOT NULL,
	row           TEXT NOT NULL,
	stat          TEXT NOT NULL,
	pct           REAL,
	lo_pct        REAL,
	hi_pct        REAL,
	t             REAL,
	bound         REAL,
	decision      TEXT NOT NULL
	              CHECK (decision IN ('change', 'no change', 'go on', 'cannot tell')),
	watched       INTEGER NOT NULL,
	looked_at     TEXT NOT NULL,	-- UTC, ISO 8601
	PRIMARY KEY (experiment_id, look, arm, section, row)
);
