/* t4000-pft: the page-fault test on tiny mappings: fault counts against page
 * counts for threads and processes, the worker cap, size checks, the
 * direct-mode line, and workers that die turning into failures.
 * Covers: workloads/pft.c */
#include "config.h"
#include "tests/tap.h"
#include "workloads/params.h"
#include "machine/pin.h"
#include "lib/strbuf.h"
#include "machine/sysinfo.h"
#include "workloads/workload.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const struct workload_ops *ops;

/* Options as "key=value" strings, NULL-terminated; NULL on a bad one. */
static struct wl_params *params(const char *const *kv, struct strbuf *err)
{
	struct wl_params *p = wl_params_new(ops);

	for (; *kv; kv++) {
		char key[64];
		const char *eq = strchr(*kv, '=');

		snprintf(key, sizeof(key), "%.*s", (int)(eq - *kv), *kv);
		if (wl_params_set(p, key, eq + 1, err))
			goto fail;
	}
	if (wl_params_finish(p, err))
		goto fail;
	return p;
fail:
	wl_params_free(p);
	return NULL;
}

static const struct wl_result *result(const struct wl_sample *s, const char *row)
{
	for (int i = 0; i < s->nresults; i++)
		if (!strcmp(s->results[i].row, row))
			return &s->results[i];
	return NULL;
}

static double extra(const struct wl_sample *s, const char *key)
{
	for (int i = 0; i < s->nextras; i++)
		if (!strcmp(s->extras[i].key, key))
			return s->extras[i].value;
	return NAN;
}

/* One sample of 64 MiB with n workers of the given model. faults/cpu
 * comes from the workers' nanosecond CPU-time clocks (extra "cpu"), not
 * from getrusage()'s ticks, so it is there however short the chunk. */
static void test_sample(const char *model, long long n)
{
	const char *kv[] = { "mapping_size=64M", NULL, NULL };
	char m[32], row[32];
	struct strbuf err = STRBUF_INIT;
	struct wl_sample s = { 0 };
	struct wl_params *p;
	const struct wl_result *sys, *el, *fs, *fc;
	double pages, minflt;
	int rc;

	snprintf(m, sizeof(m), "model=%s", model);
	kv[1] = m;
	p = params(kv, &err);
	rc = p ? ops->run_one(p, n, &s, &err) : -1;
	ok(rc == 0, "%s, %lld workers: sample runs (%s)", model, n, err.buf);

	snprintf(row, sizeof(row), "system-%lld", n);
	sys = result(&s, row);
	snprintf(row, sizeof(row), "elapsed-%lld", n);
	el = result(&s, row);
	snprintf(row, sizeof(row), "faults/sec-%lld", n);
	fs = result(&s, row);
	snprintf(row, sizeof(row), "faults/cpu-%lld", n);
	fc = result(&s, row);
	ok(s.nresults == 4 && sys && el && fs && fc,
	   "%s, %lld: rows system, elapsed, faults/sec, faults/cpu (%d results)",
	   model, n, s.nresults);

	pages = extra(&s, "pages");
	minflt = extra(&s, "minflt");
	ok(pages == 64 * 1024 * 1024 / (double)sysconf(_SC_PAGESIZE),
	   "%s, %lld: %.0f pages in 64 MiB", model, n, pages);
	ok(fabs(minflt - pages) <= pages * 0.10,
	   "%s, %lld: %.0f minor faults for %.0f pages (within 10%%)", model, n, minflt, pages);
	ok(extra(&s, "workers") == (double)n, "%s, %lld: %.0f workers ran",
	   model, n, extra(&s, "workers"));
	ok(!s.flag[0], "%s, %lld: sample not flagged ('%s')", model, n, s.flag);
	if (el && fs && sys)
		ok(el->value > 0 && sys->value >= 0 &&
		   fabs(fs->value - pages / el->value) < 1e-6 * fs->value,
		   "%s, %lld: faults/sec = pages / elapsed (%.0f = %.0f / %.6f)",
		   model, n, fs->value, pages, el->value);
	else
		ok(0, "%s, %lld: faults/sec = pages / elapsed (rows missing)", model, n);
	if (fc)
		ok(fc->value > 0 && extra(&s, "cpu") > 0 &&
		   fc->value >= pages / extra(&s, "cpu") * 0.999 &&
		   fc->value <= pages / extra(&s, "cpu") * 1.001,
		   "%s, %lld: faults/cpu = pages / CPU time (%.0f = %.0f / %.6f)",
		   model, n, fc->value, pages, extra(&s, "cpu"));
	else
		ok(0, "%s, %lld: faults/cpu = pages / CPU time (rows missing)", model, n);
	wl_params_free(p);
	strbuf_release(&err);
}

/* A chunk far shorter than a scheduler tick still has its faults/cpu row:
 * with getrusage()'s CPU time, an 8 MiB sample lost the row most times
 * (and a resumed run then held fewer samples than a clean one). */
static void test_tiny(const char *model)
{
	const char *kv[] = { "mapping_size=8M", NULL, NULL };
	char m[32];
	int missing = 0, tries = 20;

	snprintf(m, sizeof(m), "model=%s", model);
	kv[1] = m;
	for (int i = 0; i < tries; i++) {
		struct strbuf err = STRBUF_INIT;
		struct wl_sample s = { 0 };
		struct wl_params *p = params(kv, &err);

		if (!p || ops->run_one(p, 1, &s, &err) || !result(&s, "faults/cpu-1"))
			missing++;
		wl_params_free(p);
		strbuf_release(&err);
	}
	ok(!missing, "%s, 8 MiB: every one of %d samples has faults/cpu-1 (%d lack it)",
	   model, tries, missing);
}

/* Asking for more workers than CPUs runs as many as there are CPUs and
 * flags the sample with the reason. */
static void test_cap(void)
{
	const char *kv[] = { "mapping_size=16M", "model=processes", NULL };
	struct strbuf err = STRBUF_INIT;
	struct wl_sample s = { 0 };
	long long cpus = sysinfo_cpus_allowed(), asked = cpus + 3;
	struct wl_params *p = params(kv, &err);
	char row[32];
	int rc = p ? ops->run_one(p, asked, &s, &err) : -1;

	ok(rc == 0, "%lld workers on %lld CPUs: sample runs (%s)", asked, cpus, err.buf);
	ok(extra(&s, "workers") == (double)cpus, "capped at %lld workers (ran %.0f)",
	   cpus, extra(&s, "workers"));
	ok(strstr(s.flag, "capped") != NULL, "the sample carries the notice: '%s'", s.flag);
	snprintf(row, sizeof(row), "system-%lld", asked);
	ok(result(&s, row) != NULL, "its rows keep the count asked for (%s)", row);
	ok(fabs(extra(&s, "minflt") - extra(&s, "pages")) <= extra(&s, "pages") * 0.10,
	   "capped sample still faults every page once");
	wl_params_free(p);
	strbuf_release(&err);
}

/* Pinned workers end their chunk on their slot's CPU, every time: a
 * worker left unbound would land elsewhere about half the time, and the
 * sample would be flagged. */
static void test_pinned(const char *model, const char *policy)
{
	char m[32];
	const char *kv[] = { "mapping_size=64M", m, NULL };
	struct strbuf err = STRBUF_INIT;
	struct pin_plan *plan = NULL;
	struct wl_params *p;
	int good = 0, runs = 6;
	long long n = sysinfo_cpus_allowed();

	snprintf(m, sizeof(m), "model=%s", model);
	p = params(kv, &err);
	if (!p || pin_plan_compute(policy, 0, &plan, &err)) {
		ok(0, "pin = %s: plan (%s)", policy, err.buf);
		wl_params_free(p);
		strbuf_release(&err);
		return;
	}
	p->pin = plan;
	if (n > 4)
		n = 4;
	for (int i = 0; i < runs; i++) {
		struct wl_sample s = { 0 };
		cpu_set_t all;
		int rc;

		/* run_one binds its caller to slot 0, which is fine in the
		 * runner's throwaway child but not here: undo it. */
		sched_getaffinity(0, sizeof(all), &all);
		rc = ops->run_one(p, n, &s, &err);
		sched_setaffinity(0, sizeof(all), &all);
		if (!rc && !s.flag[0])
			good++;
		else
			diag("sample %d: %s%s", i, err.buf, s.flag);
		strbuf_reset(&err);
	}
	ok(good == runs, "%s, pin = %s: %d of %d samples ran every worker on its slot's CPU",
	   model, policy, good, runs);
	p->pin = NULL;
	pin_plan_free(plan);
	wl_params_free(p);
	strbuf_release(&err);
}

/* Check a size: 1 if it is rejected, at parse or check time, with an
 * error containing want; 0 for any other outcome. */
static int rejected(const char *kv, const char *want, struct strbuf *err)
{
	const char *kvs[] = { kv, NULL };
	struct wl_params *p = params(kvs, err);
	int rc = p ? ops->check(p, err) : -1;

	wl_params_free(p);
	return rc < 0 && strstr(err->buf, want) != NULL;
}

static void test_sizes(void)
{
	struct strbuf err = STRBUF_INIT;
	char big[64];
	int r;

	r = rejected("mapping_size=0", "'mapping_size' is 0 bytes", &err);
	ok(r, "size 0 rejected: %s", err.buf);
	strbuf_reset(&err);

	r = rejected("mapping_size=lots", "invalid value 'lots' for 'mapping_size'", &err);
	ok(r, "a size that is not a number rejected: %s", err.buf);
	strbuf_reset(&err);

	snprintf(big, sizeof(big), "mapping_size=%lluM",
		 (unsigned long long)(sysinfo_mem_total() >> 20) * 2);
	r = rejected(big, "larger than this machine's memory", &err);
	ok(r, "a size above MemTotal rejected: %s", err.buf);
	strbuf_reset(&err);

	r = rejected("mapping_size=64M", "", &err);
	ok(!r && !err.len, "64M accepted");
	strbuf_release(&err);
}

/* The direct-mode output: a title as the reference's -T prints, then a
 * line in its eight columns, the size in the unit that fits. */
static void test_direct_line(void)
{
	const char *kv[] = { "mapping_size=64M", NULL };
	struct strbuf err = STRBUF_INIT, out = STRBUF_INIT;
	struct wl_sample s = { 0 };
	struct wl_params *p = params(kv, &err);
	unsigned workers, cl;
	double user, sys, wall, fpc, fps;
	char size[16] = "", s1, s2, s3;
	const char *line = NULL;
	int n = -1;

	if (p && !ops->run_one(p, 1, &s, &err)) {
		ops->format_direct(p, 1, &s, &out);
		line = strchr(out.buf, '\n');
	}
	if (line)
		n = sscanf(line + 1, "%15s %u %u %lf%c %lf%c %lf%c %lf %lf", size, &workers, &cl,
			   &user, &s1, &sys, &s2, &wall, &s3, &fpc, &fps);
	ok(!strncmp(out.buf, "  Size  Thr CLine      User    System      Wall   flt/cpu/s "
		    "fault/wsec\n", 70), "direct output starts with the title: %s", out.buf);
	ok(n == 11 && s1 == 's' && s2 == 's' && s3 == 's' && !strcmp(size, "64M") &&
	   workers == 1 && cl == 1 && fps > 0 && fpc > 0,
	   "direct line in the reference's columns: %s", out.buf);
	ok(out.len && out.buf[out.len - 1] == '\n', "direct line ends with a newline");
	wl_params_free(p);
	strbuf_release(&err);
	strbuf_release(&out);
}

/* Run one sample of a dying worker in a child (its own process group) and
 * return its wait status, or -1 if it took longer than 30 s; errtext gets
 * the error run_one reported, if the child lived to report one. */
static int run_dying(const char *model, const char *point, int victim, long long n,
		     pid_t *pgid, char *errtext, size_t errlen)
{
	int fds[2], status = -1;
	pid_t pid;
	time_t deadline = time(NULL) + 30;

	errtext[0] = '\0';
	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		char m[32], k[32], w[32];
		const char *kv[] = { "mapping_size=16M", m, k, w, NULL };
		struct strbuf err = STRBUF_INIT;
		struct wl_sample s = { 0 };
		struct wl_params *p;
		int rc;

		setpgid(0, 0);
		close(fds[0]);
		snprintf(m, sizeof(m), "model=%s", model);
		snprintf(k, sizeof(k), "kill_worker=%d", victim);
		snprintf(w, sizeof(w), "kill_point=%s", point);
		p = params(kv, &err);
		rc = p ? ops->run_one(p, n, &s, &err) : -1;
		wl_params_free(p);
		if (write(fds[1], err.buf, err.len) < 0)
			rc = 3;
		strbuf_release(&err);
		_exit(rc ? 1 : 0);
	}
	setpgid(pid, pid);
	*pgid = pid;
	close(fds[1]);
	while (time(NULL) < deadline) {
		pid_t w = waitpid(pid, &status, WNOHANG);

		if (w == pid)
			break;
		status = -1;
		usleep(10000);
	}
	if (status == -1) {
		kill(-pid, SIGKILL);
		waitpid(pid, NULL, 0);
	} else {
		ssize_t got = read(fds[0], errtext, errlen - 1);

		errtext[got > 0 ? got : 0] = '\0';
	}
	close(fds[0]);
	return status;
}

/* Has every process of the group gone within 5 s? */
static int group_gone(pid_t pgid)
{
	for (int i = 0; i < 500; i++) {
		if (kill(-pgid, 0) && errno == ESRCH)
			return 1;
		usleep(10000);
	}
	kill(-pgid, SIGKILL);
	return 0;
}

static void test_dying(void)
{
	char err[512];
	pid_t pgid;
	int st;

	if (sysinfo_cpus_allowed() < 2) {
		for (int i = 0; i < 9; i++)
			skip("dying workers need two CPUs for two workers");
		return;
	}

	st = run_dying("processes", "start", 1, 2, &pgid, err, sizeof(err));
	ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1,
	   "processes: worker 1 killed after the barrier: run_one returns an error");
	ok(strstr(err, "worker 1 (pid") && strstr(err, "killed by signal 9"),
	   "the error names the worker and the signal: %s", err);
	ok(group_gone(pgid), "no worker is left behind");

	st = run_dying("processes", "ready", 1, 2, &pgid, err, sizeof(err));
	ok(st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 1 &&
	   strstr(err, "killed by signal 9"),
	   "processes: worker 1 killed before the barrier: an error, not a hang (%s)", err);
	ok(group_gone(pgid), "no worker is left behind");

	st = run_dying("processes", "ready", 0, 2, &pgid, err, sizeof(err));
	ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	   "processes: worker 0 killed with workers waiting at the barrier");
	ok(group_gone(pgid), "its waiting workers die with it");

	st = run_dying("threads", "start", 1, 2, &pgid, err, sizeof(err));
	ok(st != -1 && WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL,
	   "threads: a dying worker thread ends the sample's process (the runner "
	   "records the failure), no hang");
	ok(group_gone(pgid), "nothing is left behind");
}

int main(void)
{
	long long cpus = sysinfo_cpus_allowed();

	/* A hang is a failure too: the harness sees the alarm kill us. */
	alarm(240);
	ops = workload_find("pft");
	if (!ok(ops != NULL, "pft is in the workload table"))
		return done_testing();
	ok(!strcmp(ops->row_option, "workers"), "its rows are the worker counts");

	test_sample("threads", 1);
	test_sample("processes", 1);
	if (cpus >= 2) {
		test_sample("threads", 2);
		test_sample("processes", 2);
	} else {
		for (int i = 0; i < 16; i++)
			skip("one CPU: no two-worker samples");
	}
	test_tiny("threads");
	test_tiny("processes");
	test_cap();
	if (cpus >= 2) {
		test_pinned("threads", "compact");
		test_pinned("processes", "spread");
	} else {
		skip("one CPU: every placement is the same");
		skip("one CPU: every placement is the same");
	}
	test_sizes();
	test_direct_line();
	test_dying();
	return done_testing();
}
