-- A small kbench store as version 1 of the schema wrote it (the schema
-- text is db/schema.sql as it was at schema version 1), for the test of
-- the migration to version 2: two complete runs of one config, with the
-- monitor keys whose meaning version 1 read from their text (rusage
-- max-rss-bytes, perf <event>:running, slab <total>:before/:after, the
-- slabcache per-section snapshots), a flagged sample and a failure.
-- Load it with: sqlite3 FILE < store-v1.sql
-- kbench store, schema version 1. Raw samples only: every statistic is
-- computed at report time. Embedded into the binary at build time.
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

PRAGMA user_version = 1;
BEGIN;
INSERT INTO machines VALUES (1, 'testhost', 'Test CPU', 4, 2, 1, 1, 8589934592, '', 'fp-test');
INSERT INTO runs VALUES (1, 'aaaaaaaa-1111-4000-8000-000000000001', 'v1-base', 1, '6.18.0', '#1 SMP', 'quiet', 'tiny', replace('[global]\niterations = 3\n[hackbench-process-pipes]\ntransport = pipes\n[pft-threads]\nworkers = 1\n', '\n', char(10)), '0.1.0', '2026-01-10T10:00:00Z', '2026-01-10T10:01:00Z', 'complete', NULL, 4242);
INSERT INTO run_meta VALUES (1, '', 'monitors', 'rusage,perf,vmstat,slab');
INSERT INTO run_meta VALUES (1, 'hackbench-process-pipes', 'workload', 'hackbench');
INSERT INTO run_meta VALUES (1, 'hackbench-process-pipes', 'iterations', '3');
INSERT INTO run_meta VALUES (1, 'pft-threads', 'workload', 'pft');
INSERT INTO run_meta VALUES (1, 'pft-threads', 'perf.cycles', 'not counted: no PMU on this machine (ENOENT)');
INSERT INTO runs VALUES (2, 'bbbbbbbb-2222-4000-8000-000000000002', 'v1-new', 1, '6.18.0', '#1 SMP', 'quiet', 'tiny', replace('[global]\niterations = 3\n[hackbench-process-pipes]\ntransport = pipes\n[pft-threads]\nworkers = 1\n', '\n', char(10)), '0.1.0', '2026-01-11T10:00:00Z', '2026-01-11T10:01:00Z', 'complete', NULL, 4242);
INSERT INTO run_meta VALUES (2, '', 'monitors', 'rusage,perf,vmstat,slab');
INSERT INTO run_meta VALUES (2, 'hackbench-process-pipes', 'workload', 'hackbench');
INSERT INTO run_meta VALUES (2, 'hackbench-process-pipes', 'iterations', '3');
INSERT INTO run_meta VALUES (2, 'pft-threads', 'workload', 'pft');
INSERT INTO run_meta VALUES (2, 'pft-threads', 'perf.cycles', 'not counted: no PMU on this machine (ENOENT)');
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/objects', 120.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/slabs', 4.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/partial', 2.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/objects', 900.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/slabs', 30.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/partial', 0.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/objects', 50.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/slabs', 2.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/partial', 1.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '1', 1, 0.0107, 's', 'lower', 1768039201000000000, 21001000, 18000500, 15000300, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'rusage', 'minor-faults', 1463.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'rusage', 'voluntary-switches', 307.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'rusage', 'max-rss-bytes', 4198400.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'perf', 'task-clock', 34250000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'perf', 'page-faults', 1401.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'perf', 'cycles', 12625000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'perf', 'cycles:running', 0.5625);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'vmstat', 'pgfault', 2031.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'vmstat', 'nr_free_pages', -103.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'Slab:before', 250004096.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'Slab:after', 250020480.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'SReclaimable:before', 150004096.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'SReclaimable:after', 150020480.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'SUnreclaim:before', 100004096.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 1, 'slab', 'SUnreclaim:after', 100020480.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '1', 2, 0.0114, 's', 'lower', 1768039202000000000, 21002000, 18001000, 15000600, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'rusage', 'minor-faults', 1476.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'rusage', 'voluntary-switches', 314.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'rusage', 'max-rss-bytes', 4202496.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'perf', 'task-clock', 34500000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'perf', 'page-faults', 1412.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'perf', 'cycles', 12750000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'perf', 'cycles:running', 0.625);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'vmstat', 'pgfault', 2062.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'vmstat', 'nr_free_pages', -86.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'Slab:before', 250008192.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'Slab:after', 250032768.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'SReclaimable:before', 150008192.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'SReclaimable:after', 150032768.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'SUnreclaim:before', 100008192.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 2, 'slab', 'SUnreclaim:after', 100032768.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '1', 3, 0.0121, 's', 'lower', 1768039203000000000, 21003000, 18001500, 15000900, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'rusage', 'minor-faults', 1489.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'rusage', 'voluntary-switches', 321.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'rusage', 'max-rss-bytes', 4206592.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'perf', 'task-clock', 34750000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'perf', 'page-faults', 1423.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'perf', 'cycles', 12875000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'perf', 'cycles:running', 0.6875);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'vmstat', 'pgfault', 2093.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'vmstat', 'nr_free_pages', -69.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'Slab:before', 250012288.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'Slab:after', 250045056.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'SReclaimable:before', 150012288.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'SReclaimable:after', 150045056.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'SUnreclaim:before', 100012288.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '1', 3, 'slab', 'SUnreclaim:after', 100045056.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '2', 1, 0.0147, 's', 'lower', 1768039204000000000, 21004000, 18002000, 15001200, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'rusage', 'minor-faults', 1502.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'rusage', 'voluntary-switches', 328.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'rusage', 'max-rss-bytes', 4210688.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'perf', 'task-clock', 35000000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'perf', 'page-faults', 1434.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'perf', 'cycles', 13000000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'perf', 'cycles:running', 0.5625);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'vmstat', 'pgfault', 2124.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'vmstat', 'nr_free_pages', -52.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'Slab:before', 250016384.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'Slab:after', 250032768.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'SReclaimable:before', 150016384.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'SReclaimable:after', 150032768.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'SUnreclaim:before', 100016384.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 1, 'slab', 'SUnreclaim:after', 100032768.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '2', 2, 0.0154, 's', 'lower', 1768039205000000000, 21005000, 18002500, 15001500, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'rusage', 'minor-faults', 1515.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'rusage', 'voluntary-switches', 335.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'rusage', 'max-rss-bytes', 4214784.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'perf', 'task-clock', 35250000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'perf', 'page-faults', 1445.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'perf', 'cycles', 13125000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'perf', 'cycles:running', 0.625);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'vmstat', 'pgfault', 2155.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'vmstat', 'nr_free_pages', -35.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'Slab:before', 250020480.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'Slab:after', 250045056.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'SReclaimable:before', 150020480.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'SReclaimable:after', 150045056.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'SUnreclaim:before', 100020480.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 2, 'slab', 'SUnreclaim:after', 100045056.0);
INSERT INTO samples VALUES (1, 'hackbench-process-pipes', 'hackbench', '2', 3, 0.0161, 's', 'lower', 1768039206000000000, 21006000, 18003000, 15001800, NULL);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'rusage', 'minor-faults', 1528.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'rusage', 'voluntary-switches', 342.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'rusage', 'max-rss-bytes', 4218880.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'perf', 'task-clock', 35500000.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'perf', 'page-faults', 1456.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'perf', 'cycles', 13250000.5);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'perf', 'cycles:running', 0.6875);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'vmstat', 'pgfault', 2186.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'vmstat', 'nr_free_pages', -18.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'Slab:before', 250024576.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'Slab:after', 250057344.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'SReclaimable:before', 150024576.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'SReclaimable:after', 150057344.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'SUnreclaim:before', 100024576.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', '2', 3, 'slab', 'SUnreclaim:after', 100057344.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/objects', 160.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/slabs', 5.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/partial', 3.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/objects', 940.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/slabs', 31.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/partial', 0.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/objects', 90.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/slabs', 3.0);
INSERT INTO monitor_values VALUES (1, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/partial', 2.0);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'system-1', 1, 0.032, 's', 'lower', 1768039207000000000, 40007000, 9003500, 31002100, NULL);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'faults/sec-1', 1, 412500.0, 'faults/sec', 'higher', 1768039207000000000, 40007000, 9003500, 31002100, NULL);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 1, 'workload', 'minflt', 4097.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 1, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 1, 'rusage', 'minor-faults', 4203.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 1, 'rusage', 'max-rss-bytes', 20975616.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 1, 'perf', 'page-faults', 4155.0);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'system-1', 2, 0.033, 's', 'lower', 1768039208000000000, 40008000, 9004000, 31002400, NULL);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'faults/sec-1', 2, 415000.0, 'faults/sec', 'higher', 1768039208000000000, 40008000, 9004000, 31002400, NULL);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 2, 'workload', 'minflt', 4098.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 2, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 2, 'rusage', 'minor-faults', 4206.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 2, 'rusage', 'max-rss-bytes', 20979712.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 2, 'perf', 'page-faults', 4160.0);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'system-1', 3, 0.034, 's', 'lower', 1768039209000000000, 40009000, 9004500, 31002700, NULL);
INSERT INTO samples VALUES (1, 'pft-threads', 'pft', 'faults/sec-1', 3, 417500.0, 'faults/sec', 'higher', 1768039209000000000, 40009000, 9004500, 31002700, NULL);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 3, 'workload', 'minflt', 4099.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 3, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 3, 'rusage', 'minor-faults', 4209.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 3, 'rusage', 'max-rss-bytes', 20983808.0);
INSERT INTO monitor_values VALUES (1, 'pft-threads', 'system-1', 3, 'perf', 'page-faults', 4165.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/objects', 120.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/slabs', 4.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'kmalloc-64/partial', 2.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/objects', 900.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/slabs', 30.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'dentry/partial', 0.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/objects', 50.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/slabs', 2.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'before', 0, 'slabcache', 'anon_vma/partial', 1.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '1', 1, 0.011449, 's', 'lower', 1768039201000000000, 21001000, 18000500, 15000300, NULL);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'rusage', 'minor-faults', 1513.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'rusage', 'voluntary-switches', 307.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'rusage', 'max-rss-bytes', 4198400.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'perf', 'task-clock', 35250000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'perf', 'page-faults', 1401.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'perf', 'cycles', 12625000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'perf', 'cycles:running', 0.5625);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'vmstat', 'pgfault', 2031.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'vmstat', 'nr_free_pages', -103.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'Slab:before', 250004096.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'Slab:after', 250028672.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'SReclaimable:before', 150004096.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'SReclaimable:after', 150028672.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'SUnreclaim:before', 100004096.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 1, 'slab', 'SUnreclaim:after', 100028672.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '1', 2, 0.012198, 's', 'lower', 1768039202000000000, 21002000, 18001000, 15000600, NULL);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'rusage', 'minor-faults', 1526.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'rusage', 'voluntary-switches', 314.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'rusage', 'max-rss-bytes', 4202496.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'perf', 'task-clock', 35500000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'perf', 'page-faults', 1412.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'perf', 'cycles', 12750000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'perf', 'cycles:running', 0.625);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'vmstat', 'pgfault', 2062.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'vmstat', 'nr_free_pages', -86.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'Slab:before', 250008192.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'Slab:after', 250040960.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'SReclaimable:before', 150008192.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'SReclaimable:after', 150040960.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'SUnreclaim:before', 100008192.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 2, 'slab', 'SUnreclaim:after', 100040960.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '1', 3, 0.012947, 's', 'lower', 1768039203000000000, 21003000, 18001500, 15000900, NULL);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'rusage', 'minor-faults', 1539.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'rusage', 'voluntary-switches', 321.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'rusage', 'max-rss-bytes', 4206592.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'perf', 'task-clock', 35750000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'perf', 'page-faults', 1423.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'perf', 'cycles', 12875000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'perf', 'cycles:running', 0.6875);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'vmstat', 'pgfault', 2093.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'vmstat', 'nr_free_pages', -69.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'Slab:before', 250012288.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'Slab:after', 250053248.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'SReclaimable:before', 150012288.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'SReclaimable:after', 150053248.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'SUnreclaim:before', 100012288.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '1', 3, 'slab', 'SUnreclaim:after', 100053248.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '2', 1, 0.015729, 's', 'lower', 1768039204000000000, 21004000, 18002000, 15001200, NULL);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'rusage', 'minor-faults', 1552.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'rusage', 'voluntary-switches', 328.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'rusage', 'max-rss-bytes', 4210688.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'perf', 'task-clock', 36000000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'perf', 'page-faults', 1434.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'perf', 'cycles', 13000000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'perf', 'cycles:running', 0.5625);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'vmstat', 'pgfault', 2124.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'vmstat', 'nr_free_pages', -52.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'Slab:before', 250016384.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'Slab:after', 250040960.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'SReclaimable:before', 150016384.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'SReclaimable:after', 150040960.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'SUnreclaim:before', 100016384.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 1, 'slab', 'SUnreclaim:after', 100040960.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '2', 2, 0.016478000000000003, 's', 'lower', 1768039205000000000, 21005000, 18002500, 15001500, 'samples ran while the machine was busy');
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'rusage', 'minor-faults', 1565.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'rusage', 'voluntary-switches', 335.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'rusage', 'max-rss-bytes', 4214784.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'perf', 'task-clock', 36250000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'perf', 'page-faults', 1445.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'perf', 'cycles', 13125000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'perf', 'cycles:running', 0.625);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'vmstat', 'pgfault', 2155.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'vmstat', 'nr_free_pages', -35.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'Slab:before', 250020480.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'Slab:after', 250053248.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'SReclaimable:before', 150020480.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'SReclaimable:after', 150053248.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'SUnreclaim:before', 100020480.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 2, 'slab', 'SUnreclaim:after', 100053248.0);
INSERT INTO samples VALUES (2, 'hackbench-process-pipes', 'hackbench', '2', 3, 0.017227, 's', 'lower', 1768039206000000000, 21006000, 18003000, 15001800, NULL);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'rusage', 'minor-faults', 1578.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'rusage', 'voluntary-switches', 342.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'rusage', 'max-rss-bytes', 4218880.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'perf', 'task-clock', 36500000.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'perf', 'page-faults', 1456.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'perf', 'cycles', 13250000.5);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'perf', 'cycles:running', 0.6875);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'vmstat', 'pgfault', 2186.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'vmstat', 'nr_free_pages', -18.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'Slab:before', 250024576.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'Slab:after', 250065536.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'SReclaimable:before', 150024576.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'SReclaimable:after', 150065536.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'SUnreclaim:before', 100024576.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', '2', 3, 'slab', 'SUnreclaim:after', 100065536.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/objects', 200.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/slabs', 6.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'kmalloc-64/partial', 4.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/objects', 980.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/slabs', 32.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'dentry/partial', 0.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/objects', 130.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/slabs', 4.0);
INSERT INTO monitor_values VALUES (2, 'hackbench-process-pipes', 'after', 0, 'slabcache', 'anon_vma/partial', 3.0);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'system-1', 1, 0.034170000000000006, 's', 'lower', 1768039207000000000, 40007000, 9003500, 31002100, NULL);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'faults/sec-1', 1, 385677.57009345794, 'faults/sec', 'higher', 1768039207000000000, 40007000, 9003500, 31002100, NULL);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 1, 'workload', 'minflt', 4097.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 1, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 1, 'rusage', 'minor-faults', 4203.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 1, 'rusage', 'max-rss-bytes', 20975616.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 1, 'perf', 'page-faults', 4155.0);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'system-1', 2, 0.03517000000000001, 's', 'lower', 1768039208000000000, 40008000, 9004000, 31002400, NULL);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'faults/sec-1', 2, 388177.57009345794, 'faults/sec', 'higher', 1768039208000000000, 40008000, 9004000, 31002400, NULL);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 2, 'workload', 'minflt', 4098.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 2, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 2, 'rusage', 'minor-faults', 4206.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 2, 'rusage', 'max-rss-bytes', 20979712.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 2, 'perf', 'page-faults', 4160.0);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'system-1', 3, 0.03617000000000001, 's', 'lower', 1768039209000000000, 40009000, 9004500, 31002700, NULL);
INSERT INTO samples VALUES (2, 'pft-threads', 'pft', 'faults/sec-1', 3, 390677.57009345794, 'faults/sec', 'higher', 1768039209000000000, 40009000, 9004500, 31002700, NULL);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 3, 'workload', 'minflt', 4099.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 3, 'workload', 'pages', 4096.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 3, 'rusage', 'minor-faults', 4209.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 3, 'rusage', 'max-rss-bytes', 20983808.0);
INSERT INTO monitor_values VALUES (2, 'pft-threads', 'system-1', 3, 'perf', 'page-faults', 4165.0);
INSERT INTO failures VALUES (2, 'pft-threads', '1', 4, 'timed out after 600 s (timeout = 600); its process group was killed', '2026-01-11T10:00:59Z');
COMMIT;
