-- kbench store, schema version 1. Raw samples only: every statistic is
-- computed at report time. Embedded into the binary at build time.
-- A new store is created with this text, then brought to the current
-- version by the same migrations as an old one: migrate-v2.sql, ...
CREATE TABLE machines (
	id           INTEGER PRIMARY KEY,
	hostname     TEXT NOT NULL,
	cpu_model    TEXT,
	cpus         INTEGER,
	cores        INTEGER,
	packages     INTEGER,
	numa_nodes   INTEGER,
	mem_bytes    INTEGER,
	topology_xml TEXT,
	fingerprint  TEXT NOT NULL UNIQUE
);

CREATE TABLE runs (
	id             INTEGER PRIMARY KEY,
	uuid           TEXT NOT NULL UNIQUE,
	name           TEXT NOT NULL,
	machine_id     INTEGER REFERENCES machines(id),
	kernel_release TEXT,
	kernel_version TEXT,
	kernel_cmdline TEXT,
	config_name    TEXT,
	config_text    TEXT,
	kbench_version TEXT,
	started_at     TEXT NOT NULL,	-- UTC, ISO 8601
	finished_at    TEXT,
	status         TEXT NOT NULL
	               CHECK (status IN ('running', 'complete', 'interrupted', 'failed')),
	notes          TEXT,
	pid            INTEGER		-- of the writer, to spot a killed run
);
CREATE INDEX runs_name ON runs(name, id);

CREATE TABLE samples (
	run_id      INTEGER NOT NULL REFERENCES runs(id),
	section     TEXT NOT NULL,
	workload    TEXT NOT NULL,
	row         TEXT NOT NULL,
	iteration   INTEGER NOT NULL,
	value       REAL NOT NULL,
	unit        TEXT,
	better      TEXT NOT NULL CHECK (better IN ('higher', 'lower')),
	started_at  INTEGER,		-- ns since the epoch
	duration_ns INTEGER,
	user_ns     INTEGER,
	sys_ns      INTEGER,
	flag        TEXT			-- why the sample is suspect, or NULL
);
CREATE INDEX samples_run ON samples(run_id, section);

CREATE TABLE monitor_values (
	run_id    INTEGER NOT NULL REFERENCES runs(id),
	section   TEXT NOT NULL,
	row       TEXT NOT NULL,
	iteration INTEGER NOT NULL,
	source    TEXT NOT NULL,
	key       TEXT NOT NULL,
	value     REAL
);
CREATE INDEX monitor_values_run ON monitor_values(run_id, section);

CREATE TABLE failures (
	run_id    INTEGER NOT NULL REFERENCES runs(id),
	section   TEXT NOT NULL,
	row       TEXT NOT NULL,
	iteration INTEGER NOT NULL,
	reason    TEXT NOT NULL,
	at        TEXT
);
CREATE INDEX failures_run ON failures(run_id);

-- Facts about a run that have no column: the pin policy and PUs chosen per
-- section, notices such as unavailable perf events.
CREATE TABLE run_meta (
	run_id  INTEGER NOT NULL REFERENCES runs(id),
	section TEXT NOT NULL,		-- '' for the whole run
	key     TEXT NOT NULL,
	value   TEXT
);
CREATE INDEX run_meta_run ON run_meta(run_id);
