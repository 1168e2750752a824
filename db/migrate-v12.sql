-- kbench store, schema version 12 (from version 11): watches (kbench
-- watch). A watch follows a branch of a git tree: each cycle fetches
-- it, and when its tip moved builds the new tip, runs one A/B experiment
-- of the last tip tested against it (experiments), takes each gating
-- row's verdict, bisects a row worse beyond the threshold (bisects) and
-- mails the report of the first bad commit. Every step is recorded
-- before the next begins, so that a cycle killed anywhere is resumed by
-- the next one, and a report is never mailed twice nor dropped.
--   watches       one a (host, tree, remote, branch); config_name the
--                 watch's config file as given, config_text its text at
--                 the last cycle
CREATE TABLE watches (
	id          INTEGER PRIMARY KEY,
	hostname    TEXT NOT NULL,
	tree        TEXT NOT NULL,		-- the local clone, an absolute path
	remote      TEXT NOT NULL,
	branch      TEXT NOT NULL,
	config_name TEXT NOT NULL,
	config_text TEXT NOT NULL,
	created_at  TEXT NOT NULL,		-- UTC, ISO 8601
	UNIQUE (hostname, tree, remote, branch)
);

-- One row per cycle of a watch.
--   old_tip       the commit the new tip is tested against: the last tip
--                 tested, or the fixed baseline; NULL in a first cycle
--   new_tip       the branch's tip as fetched; NULL until fetched
--   step          the step reached: fetch, build, experiment, bisect,
--                 mail, done
--   state         running, complete or failed; hostname, pid, boot_id
--                 and start_ticks are its writer's, as for runs: a
--                 running cycle whose writer is gone is resumed by the
--                 next cycle
--   result        nothing-new (the tip had not moved), baseline (a first
--                 tip, tested alone), no-regression, regression (a row
--                 worse with a verdict), fetch-failed, build-failed;
--                 NULL while it runs
--   error         why a step failed, in words
--   experiment_id the experiment old tip against new tip
--   bisect_id     the bisection the cycle ran last (each row's is in
--                 watch_verdicts)
CREATE TABLE watch_cycles (
	id            INTEGER PRIMARY KEY,
	watch_id      INTEGER NOT NULL REFERENCES watches(id),
	old_tip       TEXT,
	new_tip       TEXT,
	step          TEXT NOT NULL
	              CHECK (step IN ('fetch', 'build', 'experiment', 'bisect', 'mail', 'done')),
	state         TEXT NOT NULL CHECK (state IN ('running', 'complete', 'failed')),
	result        TEXT CHECK (result IN ('nothing-new', 'baseline', 'no-regression',
					     'regression', 'fetch-failed', 'build-failed')),
	error         TEXT,
	experiment_id INTEGER REFERENCES experiments(id),
	bisect_id     INTEGER REFERENCES bisects(id),
	hostname      TEXT NOT NULL,
	pid           INTEGER NOT NULL,
	boot_id       TEXT,
	start_ticks   INTEGER,
	started_at    TEXT NOT NULL,	-- UTC, ISO 8601
	finished_at   TEXT
);
CREATE INDEX watch_cycles_watch ON watch_cycles(watch_id);

-- Each row's verdict in a cycle's experiment, new tip against old tip.
--   verdict       better, worse, within noise, cannot tell or untested
--                 (compare/verdict.h)
--   change_pct    the new tip's change (% of the old tip's mean,
--                 positive: better); p the paired test's p-value
--   gating        1: a row of the watch's rows (all rows gate when it
--                 names none)
--   regression    1: gating, worse by more than the threshold, with a
--                 verdict: bisected
--   bisect_id     its bisection; culprit the first bad commit it found
CREATE TABLE watch_verdicts (
	cycle_id   INTEGER NOT NULL REFERENCES watch_cycles(id),
	section    TEXT NOT NULL,
	row        TEXT NOT NULL,
	verdict    TEXT NOT NULL,
	change_pct REAL,
	p          REAL,
	gating     INTEGER NOT NULL,
	regression INTEGER NOT NULL,
	bisect_id  INTEGER REFERENCES bisects(id),
	culprit    TEXT,
	PRIMARY KEY (cycle_id, section, row)
);

-- The mails of a watch, queued before they are sent: a report of a
-- culprit (kind report: section, row, culprit the first bad commit) or
-- of a failed fetch or build (kind failure: row 'fetch' or 'build',
-- culprit the tip that failed). The message is kept as formatted, with
-- its Message-ID, so that a mail whose sending failed is sent again the
-- same; the UNIQUE constraint keeps a culprit of a row, or a failure of
-- a tip, from being mailed twice.
--   state         pending or sent; attempts the tries to send it,
--                 last_error why the last one failed
CREATE TABLE watch_mails (
	id         INTEGER PRIMARY KEY,
	watch_id   INTEGER NOT NULL REFERENCES watches(id),
	cycle_id   INTEGER NOT NULL REFERENCES watch_cycles(id),
	kind       TEXT NOT NULL CHECK (kind IN ('report', 'failure')),
	section    TEXT NOT NULL,		-- '' for a failure
	row        TEXT NOT NULL,
	culprit    TEXT NOT NULL,
	subject    TEXT NOT NULL,
	message_id TEXT NOT NULL,
	message    TEXT NOT NULL,		-- the whole message, headers and body
	state      TEXT NOT NULL CHECK (state IN ('pending', 'sent')),
	attempts   INTEGER NOT NULL DEFAULT 0,
	last_error TEXT,
	queued_at  TEXT NOT NULL,		-- UTC, ISO 8601
	sent_at    TEXT,
	UNIQUE (watch_id, kind, section, row, culprit)
);
CREATE INDEX watch_mails_cycle ON watch_mails(cycle_id);
