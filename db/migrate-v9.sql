-- kbench store, schema version 9 (from version 8): bisections (kbench
-- bisect). A bisection looks for the commit of a git tree that made a
-- row of a config worse, between a good commit and a bad one: each step
-- builds the commit tested and runs one A/B experiment (experiments)
-- whose kernel arms are that commit and the two ends of the range still
-- open, and decides from its paired verdicts. Everything a resume needs
-- is here: the commits in the order they were listed, the configs' text,
-- the options and the steps finished.
--   tree          the git tree, an absolute path
--   good, bad     the ends' commit ids; good_ref, bad_ref as given
--   settings      the options other than the ends, the tree and the
--                 configs, one "key=value" a line (kconfig, fragment,
--                 rounds, max-rounds, threshold, vcpus, memory, append,
--                 accel, row)
--   command       the kbench command line that started it, quoted for
--                 a shell
--   section, row  the row decided on: given with --row, or the row of
--                 the largest regression found between the ends
--   regression_pct  that row's change from good to bad end (% of the
--                 good end's mean, positive: better), at the first step
--   status        running, complete, interrupted, failed; hostname, pid,
--                 boot_id and start_ticks are its writer's, as for runs
--   result        when complete: found (first_bad is the first bad
--                 commit), skipped (only skipped commits left: first_bad
--                 is the oldest bad one, the culprit it or one of the
--                 skipped commits before it), no-regression (the ends do
--                 not differ as asked: nothing to bisect)
CREATE TABLE bisects (
	id             INTEGER PRIMARY KEY,
	uuid           TEXT NOT NULL UNIQUE,
	tree           TEXT NOT NULL,
	good           TEXT NOT NULL,
	bad            TEXT NOT NULL,
	good_ref       TEXT NOT NULL,
	bad_ref        TEXT NOT NULL,
	config_name    TEXT NOT NULL,
	config_text    TEXT NOT NULL,
	settings       TEXT NOT NULL,
	command        TEXT NOT NULL,
	section        TEXT,
	row            TEXT,
	regression_pct REAL,
	status         TEXT NOT NULL
	               CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
	result         TEXT CHECK (result IN ('found', 'skipped', 'no-regression')),
	first_bad      TEXT,
	hostname       TEXT NOT NULL,
	pid            INTEGER NOT NULL,
	boot_id        TEXT,
	start_ticks    INTEGER,
	started_at     TEXT NOT NULL,	-- UTC, ISO 8601
	finished_at    TEXT
);

-- The commits a bisection can name, as git listed them when it began:
-- idx 0 the oldest, the bad end last, the good end at idx -1.
CREATE TABLE bisect_commits (
	bisect_id INTEGER NOT NULL REFERENCES bisects(id),
	idx       INTEGER NOT NULL,
	commit_id TEXT NOT NULL,
	subject   TEXT NOT NULL,
	author    TEXT NOT NULL,	-- "Name <address>"
	parents   INTEGER NOT NULL,	-- 2 or more: a merge
	PRIMARY KEY (bisect_id, idx)
);

-- The steps of a bisection. Step 0 runs the two ends against each other
-- (verdict regression or no-regression); each later step one commit
-- beside the ends of the range then open (good_commit, bad_commit).
--   experiment_id  the experiment it ran; NULL when none did (the
--                  commit could not be built)
--   rounds         the rounds it ran (it stops at the first look, every
--                  --rounds rounds up to --max-rounds, that decides)
--   verdict        good, bad, skip, regression, no-regression; NULL
--                  while it runs (or when it was stopped: a resume runs
--                  it again)
--   reason         why, in words (the build's error, cannot tell after N
--                  rounds)
--   vs_good_pct, vs_good_p, vs_bad_pct, vs_bad_p
--                  the tested commit's change on the row against each
--                  end (% of the end's mean, positive: better) and the
--                  paired test's p-value; step 0 has the bad end against
--                  the good one in vs_good_*
--   accel          kvm or tcg: how its guests ran
CREATE TABLE bisect_steps (
	bisect_id     INTEGER NOT NULL REFERENCES bisects(id),
	step          INTEGER NOT NULL,
	commit_id     TEXT NOT NULL,
	good_commit   TEXT NOT NULL,
	bad_commit    TEXT NOT NULL,
	experiment_id INTEGER REFERENCES experiments(id),
	rounds        INTEGER,
	verdict       TEXT CHECK (verdict IN ('good', 'bad', 'skip', 'regression',
					      'no-regression')),
	reason        TEXT,
	vs_good_pct   REAL,
	vs_good_p     REAL,
	vs_bad_pct    REAL,
	vs_bad_p      REAL,
	accel         TEXT,
	started_at    TEXT NOT NULL,	-- UTC, ISO 8601
	finished_at   TEXT,
	PRIMARY KEY (bisect_id, step)
);
