-- tests/data/watch-cycles.sql: a watch of host alpha and its four cycles
-- (baseline, a regression bisected and mailed, nothing new, a build that
-- failed with its mail pending), for the experiment @1 and the runs the
-- test made first (t2707). Text from the store holds markup, escaped.
INSERT INTO watches VALUES (1, 'alpha', '/srv/linux', 'https://git.example.org/linux.git', 'master',
	'/etc/kbench/watch/a&b<c>.conf', '[watch]', '2026-12-01T02:00:00Z');
INSERT INTO bisects(id, uuid, tree, good, bad, good_ref, bad_ref, config_name, config_text, settings,
	command, section, row, regression_pct, status, result, first_bad, hostname, pid, started_at, finished_at)
	VALUES (1, '0b1e5a9c-1111-4222-8333-944455556666', '/srv/linux',
	'1111111111111111111111111111111111111111', '3333333333333333333333333333333333333333',
	'1111111111111111111111111111111111111111', '3333333333333333333333333333333333333333',
	'hb', '[hackbench-process-pipes]', 'rounds=2', 'kbench bisect --tree /srv/linux',
	'hackbench-process-pipes', '1', -12.5, 'complete', 'found',
	'2222222222222222222222222222222222222222', 'alpha', 4242, '2026-12-02T02:30:00Z', '2026-12-02T04:00:00Z');
INSERT INTO bisect_commits VALUES
	(1, 0, '1111111111111111111111111111111111111111', 'mm: base', 'A U Thor <a@example.org>', 1),
	(1, 1, '2222222222222222222222222222222222222222', 'mm: slow <down>', 'A U Thor <a@example.org>', 1),
	(1, 2, '3333333333333333333333333333333333333333', 'mm: tip', 'A U Thor <a@example.org>', 1);
INSERT INTO bisect_steps(bisect_id, step, commit_id, good_commit, bad_commit, experiment_id, rounds,
	verdict, started_at, finished_at) VALUES
	(1, 0, '3333333333333333333333333333333333333333', '1111111111111111111111111111111111111111',
	 '3333333333333333333333333333333333333333', 1, 2, 'regression', '2026-12-02T02:30:00Z', '2026-12-02T03:00:00Z'),
	(1, 1, '2222222222222222222222222222222222222222', '1111111111111111111111111111111111111111',
	 '3333333333333333333333333333333333333333', NULL, 2, 'bad', '2026-12-02T03:00:00Z', '2026-12-02T04:00:00Z');
INSERT INTO watch_cycles(id, watch_id, old_tip, new_tip, step, state, result, error, experiment_id,
	bisect_id, hostname, pid, started_at, finished_at) VALUES
	(1, 1, NULL, '1111111111111111111111111111111111111111', 'done', 'complete', 'baseline', NULL,
	 NULL, NULL, 'alpha', 4000, '2026-12-01T02:00:00Z', '2026-12-01T02:20:00Z'),
	(2, 1, '1111111111111111111111111111111111111111', '3333333333333333333333333333333333333333',
	 'done', 'complete', 'regression', NULL, 1, 1, 'alpha', 4242, '2026-12-02T02:00:00Z',
	 '2026-12-02T04:01:00Z'),
	(3, 1, '3333333333333333333333333333333333333333', '3333333333333333333333333333333333333333',
	 'done', 'complete', 'nothing-new', NULL, NULL, NULL, 'alpha', 4300, '2026-12-03T02:00:00Z',
	 '2026-12-03T02:00:04Z'),
	(4, 1, '3333333333333333333333333333333333333333', '4444444444444444444444444444444444444444',
	 'build', 'failed', 'build-failed', 'make exited 2: see the build log', NULL, NULL, 'alpha', 4400,
	 '2026-12-04T02:00:00Z', '2026-12-04T02:09:00Z');
INSERT INTO watch_verdicts VALUES
	(2, 'hackbench-process-pipes', '1', 'worse', -12.5, 0.004, 1, 1, 1,
	 '2222222222222222222222222222222222222222');
INSERT INTO watch_mails(watch_id, cycle_id, kind, section, row, culprit, subject, message_id, message,
	state, attempts, last_error, queued_at, sent_at) VALUES
	(1, 2, 'report', 'hackbench-process-pipes', '1', '2222222222222222222222222222222222222222',
	 '[kbench] mm: slow <down>', '<kbench-watch-2.1@alpha>', 'Subject: x', 'sent', 1, NULL,
	 '2026-12-02T04:00:30Z', '2026-12-02T04:00:31Z'),
	(1, 4, 'failure', '', 'build', '4444444444444444444444444444444444444444', '[kbench] build failed',
	 '<kbench-watch-4.1@alpha>', 'Subject: y', 'pending', 2, 'Connection refused', '2026-12-04T02:09:00Z', NULL);
