-- kbench store, schema version 6 (from version 5): A/B experiments and
-- the journal of the knobs they change.
-- An experiment (kbench ab) runs two or more arms, each stored as a run of
-- its own (named NAME/ARM); each of those runs holds the run facts ('',
-- 'experiment') = the experiment's id, ('', 'experiment-uuid') and ('',
-- 'arm'), which travel with the run in a bundle. This table is the
-- experiment itself, on the host that ran it:
--   arms        the arm names in config order, separated by blanks
--   rounds      rounds of the design (each arm once a round)
--   arm_order   'abba' (balanced: ABBA... for two arms, forward and
--               backward in turn for more) or 'shuffle' (seeded)
--   seed        the shuffle's seed; NULL for abba
--   status      as a run's: running, complete, interrupted, failed
CREATE TABLE experiments (
	id          INTEGER PRIMARY KEY,
	uuid        TEXT NOT NULL UNIQUE,
	name        TEXT NOT NULL,
	config_name TEXT,
	arms        TEXT NOT NULL,
	rounds      INTEGER NOT NULL,
	arm_order   TEXT NOT NULL CHECK (arm_order IN ('abba', 'shuffle')),
	seed        INTEGER,
	started_at  TEXT NOT NULL,	-- UTC, ISO 8601
	finished_at TEXT,
	status      TEXT NOT NULL
	            CHECK (status IN ('running', 'complete', 'interrupted', 'failed'))
);

-- The original value of every knob (a file under /proc/sys or /sys) an
-- experiment may change, written and committed before the first write to
-- any of them, and deleted once the knob holds its original value again.
-- A row left behind by a writer that is gone (pid, boot id and process
-- start time, as for runs) is restored by the next kbench command that
-- opens the store. The value is the knob's setting as written back: for
-- a file that lists its choices with the current one in brackets
-- (transparent_hugepage/enabled: "always [madvise] never") the bracketed
-- word.
CREATE TABLE knob_journal (
	experiment_id INTEGER NOT NULL REFERENCES experiments(id),
	path          TEXT NOT NULL,
	original      TEXT NOT NULL,
	hostname      TEXT NOT NULL,
	pid           INTEGER NOT NULL,
	boot_id       TEXT,
	start_ticks   INTEGER,
	written_at    TEXT NOT NULL,	-- UTC, ISO 8601
	UNIQUE (experiment_id, path)
);
