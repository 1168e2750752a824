/* t7102-store-create-race: writers that open a store that does not exist
 * yet, all at the same moment, all succeed: the schema is created once,
 * under the write lock, and every writer's run and sample are stored.
 * (Before, 17 of 40 such writers failed with "table machines already
 * exists" or "migration to schema version 1 failed".)
 * Covers: db/store.c */
#include "config.h"
#include "db/store.h"
#include "machine/sysinfo.h"
#include "tests/tap.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define NWRITERS 20
#define NROUNDS 5

static int count_run(const struct run_info *r, void *arg)
{
	(*(int *)arg) += !strcmp(r->status, "complete") && r->nsamples == 1;
	return 0;
}

/* One writer: wait for the start signal, then open, record a run with
 * one sample, finish it. Exit status 0 on success. */
static int writer(const char *path, int start_fd, int i)
{
	struct machine_info m = { .hostname = "h", .cpu_model = "cpu", .cpus = 2, .cores = 2,
				  .packages = 1, .numa_nodes = 1, .mem_bytes = 1 << 30,
				  .topology_xml = "", .fingerprint = "fp1" };
	struct kernel_info k = { .release = "6.18.0", .version = "#1", .cmdline = "quiet" };
	char uuid[40], name[32];
	struct run_record r = { .uuid = uuid, .name = name, .config_name = "race",
				.config_text = "[hackbench-a]\n", .kbench_version = "t",
				.started_at = "2026-11-29T00:00:00Z" };
	struct sample_record rec = { .row = "1", .value = 0.5, .unit = "s" };
	struct sample_set set = { .section = "hackbench-a", .workload = "hackbench",
				  .iteration = 1, .started_ns = 1, .samples = &rec, .nsamples = 1 };
	struct store *s;
	int64_t id;
	char c;

	snprintf(uuid, sizeof(uuid), "aaaaaaaa-0000-4000-8000-%012d", i);
	snprintf(name, sizeof(name), "writer-%d", i);
	if (read(start_fd, &c, 1) < 0)
		return 1;
	if (store_open(path, &s))
		return 2;
	if (store_begin_run(s, &m, &k, &r, &id) || store_add_sample_set(s, id, &set) ||
	    store_finish_run(s, id, "complete", "2026-11-29T00:01:00Z")) {
		store_close(s);
		return 3;
	}
	store_close(s);
	return 0;
}

int main(void)
{
	char dir[] = "t7102.XXXXXX", path[64];

	if (!mkdtemp(dir)) {
		perror("mkdtemp");
		return 1;
	}
	for (int round = 1; round <= NROUNDS; round++) {
		pid_t pids[NWRITERS];
		int start[2], failed = 0, complete = 0;
		struct store *s;

		/* In a directory that does not exist yet either. */
		snprintf(path, sizeof(path), "%s/r%d/k.db", dir, round);
		if (pipe(start)) {
			perror("pipe");
			return 1;
		}
		for (int i = 0; i < NWRITERS; i++) {
			pids[i] = fork();
			if (pids[i] == 0) {
				close(start[1]);
				_exit(writer(path, start[0], round * 100 + i));
			}
		}
		close(start[0]);
		close(start[1]);	/* every writer's read returns: go */
		for (int i = 0; i < NWRITERS; i++) {
			int st;

			if (waitpid(pids[i], &st, 0) != pids[i] || !WIFEXITED(st) ||
			    WEXITSTATUS(st)) {
				diag("writer %d: %s %d", i,
				     WIFEXITED(st) ? "exit" : "signal",
				     WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
				failed++;
			}
		}
		ok(!failed, "round %d: %d writers create one store at once, %d fail", round,
		   NWRITERS, failed);
		if (store_open_readonly(path, &s)) {
			ok(0, "round %d: the store opens for reading", round);
			continue;
		}
		store_each_run(s, NULL, count_run, &complete);
		store_close(s);
		ok(complete == NWRITERS, "round %d: every writer's run is stored (%d of %d)", round,
		   complete, NWRITERS);
	}
	{
		char cmd[128];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
		if (system(cmd))
			diag("cannot remove %s", dir);
	}
	return done_testing();
}
