# nightly-runs.awk: SQL for synthetic nightly runs cloned from run 1 (its
# machine and config text), for the history and regressions tests: nights
# first..last of October 2026 of config `config`, row "1" stepping from base
# to step_to at night step_at (and to step2_to at night step2_at, if given),
# row "2" flat; three samples a run, 0.001 (row 2: 0.002) around the night's
# mean, which wobbles by a fixed pattern. uuids end in night + 1000 * tag.
# One transaction: give it to kb-sql --write as one argument.
BEGIN {
	print "BEGIN;"
	for (i = first; i <= last; i++) {
		printf "INSERT INTO runs(uuid, name, machine_id, kernel_release, config_name, " \
			"config_text, kbench_version, started_at, finished_at, status) " \
			"SELECT '00000000-0000-4000-8000-%012d', 'nightly-%02d', machine_id, " \
			"'6.1.%d', '%s', config_text, kbench_version, '2026-10-%02dT02:00:00Z', " \
			"'2026-10-%02dT02:05:00Z', 'complete' FROM runs WHERE id = 1;\n",
			i + 1000 * tag, i, i, config, i, i
		m1 = i < step_at ? base : step2_at && i >= step2_at ? step2_to : step_to
		m1 += ((i * 7) % 5 - 2) * 0.002
		m2 = 1.2 + ((i * 3) % 5 - 2) * 0.004
		for (k = -1; k <= 1; k++)
			printf "INSERT INTO samples(run_id, section, workload, row, iteration, value, " \
				"unit, better) VALUES ((SELECT max(id) FROM runs), " \
				"'hackbench-process-pipes', 'hackbench', '1', %d, %.4f, 's', 'lower'), " \
				"((SELECT max(id) FROM runs), 'hackbench-process-pipes', 'hackbench', " \
				"'2', %d, %.4f, 's', 'lower');\n", k + 2, m1 + k * 0.001, k + 2, m2 + k * 0.002
	}
	print "COMMIT;"
}
