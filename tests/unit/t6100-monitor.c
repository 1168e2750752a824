/* t6100-monitor: the monitor sources on real processes: counters opened on a
 * held child count what it (and its descendants) fault and nothing of the
 * parent; vmstat agrees; events this machine cannot count become a fact,
 * not a failure; "none" records nothing.
 * Covers: monitors/monitor.c monitors/values.c monitors/monitor_vmstat.c monitors/monitor_slab.c monitors/monitor_perf.c */
#include "config.h"
#include "lib/child.h"
#include "monitors/monitor.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#define NPAGES 4096

static long page_size;

/* Fault in n fresh pages, one write each. */
static int touch_pages(long n)
{
	char *p = mmap(NULL, (size_t)(n * page_size), PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return -1;
	madvise(p, (size_t)(n * page_size), MADV_NOHUGEPAGE);
	for (long i = 0; i < n; i++)
		p[i * page_size] = 1;
	munmap(p, (size_t)(n * page_size));
	return 0;
}

static int job_touch(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	return touch_pages(NPAGES);
}

static int job_idle(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	usleep(100000);
	return 0;
}

/* The faults happen in a grandchild: inherit must count them. */
static int job_grandchild(void *arg, int fd)
{
	pid_t pid = fork();
	int status;

	(void)arg;
	(void)fd;
	if (pid < 0)
		return 1;
	if (!pid)
		_exit(touch_pages(NPAGES) ? 1 : 0);
	return waitpid(pid, &status, 0) != pid || !WIFEXITED(status) || WEXITSTATUS(status);
}

/* Sets a flag in memory shared with the test, to see when it runs. */
static volatile int *ran_flag;

static int job_flag(void *arg, int fd)
{
	(void)arg;
	(void)fd;
	*ran_flag = 1;
	return 0;
}

static struct monitor_set *set_of(const char *monitors, const char *events)
{
	struct monitor_conf mc = { monitors, events };
	struct monitor_set *ms = NULL;
	struct strbuf err = STRBUF_INIT;

	if (monitor_set_new(&mc, &ms, &err))
		diag("monitor_set_new(%s, %s): %s", monitors, events ? events : "default", err.buf);
	strbuf_release(&err);
	return ms;
}

/* Run fn in a held child with ms around it, as the runner does; if
 * parent_pages, the parent faults that many pages while the child runs. */
static int measure(struct monitor_set *ms, int (*fn)(void *, int), long parent_pages,
		   struct monitor_values *mv)
{
	struct strbuf err = STRBUF_INIT;
	struct child c;
	int end;

	monitor_set_before(ms);
	if (child_start_held(&c, fn, NULL, &err)) {
		diag("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	monitor_set_attach(ms, c.pid);
	if (child_release(&c, &err))
		diag("%s", err.buf);
	if (parent_pages)
		touch_pages(parent_pages);
	end = child_finish(&c, 30, NULL, NULL, &err);
	monitor_set_after(ms, &c.ru, mv);
	strbuf_release(&err);
	return end == CHILD_EXITED && WIFEXITED(c.status) && !WEXITSTATUS(c.status) ? 0 : -1;
}

static double value_of(const struct monitor_values *mv, const char *source, const char *key)
{
	const struct monitor_value *v = monitor_values_find(mv, source, key);

	return v ? v->value : -1;
}

static void test_parse(void)
{
	struct monitor_conf mc = { 0 };
	struct monitor_set *ms = NULL;
	struct strbuf sb = STRBUF_INIT;
	int rc;

	/* The message is read after the call: argument order is unspecified. */
	ok(!monitor_set_new(&mc, &ms, &sb), "the default set builds");
	monitor_set_describe(ms, &sb);
	ok(!strcmp(sb.buf, "rusage,perf,vmstat"), "default monitors: rusage + perf + vmstat (%s)",
	   sb.buf);
	monitor_set_free(ms);

	strbuf_reset(&sb);
	ms = set_of("slab vmstat,perf", NULL);
	monitor_set_describe(ms, &sb);
	ok(!strcmp(sb.buf, "perf,vmstat,slab"), "a list in any order runs in table order (%s)",
	   sb.buf);
	monitor_set_free(ms);

	strbuf_reset(&sb);
	ms = set_of("all", NULL);
	monitor_set_describe(ms, &sb);
	ok(!strcmp(sb.buf, "rusage,perf,vmstat,slab"), "'all' is every source (%s)", sb.buf);
	monitor_set_free(ms);

	strbuf_reset(&sb);
	mc.monitors = "perf,vmstats";
	rc = monitor_set_new(&mc, &ms, &sb);
	ok(rc && strstr(sb.buf, "unknown monitor 'vmstats'") &&
	   strstr(sb.buf, "rusage, perf, vmstat, slab, all or none") && !ms,
	   "an unknown monitor is refused with the list: %s", sb.buf);

	strbuf_reset(&sb);
	mc.monitors = "none,perf";
	rc = monitor_set_new(&mc, &ms, &sb);
	ok(rc && strstr(sb.buf, "none"),
	   "'none' with others is refused: %s", sb.buf);

	strbuf_reset(&sb);
	mc.monitors = "perf";
	mc.perf_events = "page-faults,cyclez";
	rc = monitor_set_new(&mc, &ms, &sb);
	ok(rc && strstr(sb.buf, "unknown perf event 'cyclez'") &&
	   strstr(sb.buf, "'perf_events'"), "an unknown perf event is refused: %s", sb.buf);

	strbuf_reset(&sb);
	mc.perf_events = "perf::PERF_COUNT_SW_TASK_CLOCK, cs";
	ok(!monitor_set_new(&mc, &ms, &sb), "libpfm4 names and aliases are accepted");
	monitor_set_free(ms);
	strbuf_release(&sb);
}

static void test_reasons(void)
{
	struct strbuf sb = STRBUF_INIT;

	monitor_perf_reason(ENOENT, &sb);
	ok(strstr(sb.buf, "no PMU") && strstr(sb.buf, "ENOENT"), "ENOENT means no PMU: %s", sb.buf);
	strbuf_reset(&sb);
	monitor_perf_reason(EOPNOTSUPP, &sb);
	ok(strstr(sb.buf, "no PMU") != NULL, "EOPNOTSUPP means no PMU: %s", sb.buf);
	strbuf_reset(&sb);
	monitor_perf_reason(EACCES, &sb);
	ok(strstr(sb.buf, "perf_event_paranoid") && strstr(sb.buf, "EACCES"),
	   "EACCES names perf_event_paranoid: %s", sb.buf);
	strbuf_release(&sb);
}

static void test_faults(void)
{
	struct monitor_set *ms = set_of("rusage,perf,vmstat", "page-faults,task-clock");
	struct monitor_values mv = MONITOR_VALUES_INIT;
	struct monitor_facts mf = { 0 };
	double perf, vm, ru;

	monitor_set_prepare(ms, &mf);
	ok(mf.n == 0, "software events are countable here (%zu facts)", mf.n);
	monitor_facts_release(&mf);

	ok(!measure(ms, job_touch, 0, &mv), "a child faulting %d pages runs", NPAGES);
	perf = value_of(&mv, "perf", "page-faults");
	vm = value_of(&mv, "vmstat", "pgfault");
	ru = value_of(&mv, "rusage", "minor-faults");
	ok(perf >= NPAGES, "perf page-faults >= pages touched (%.0f >= %d)", perf, NPAGES);
	ok(perf < NPAGES + 2000, "perf page-faults count the child, not the machine (%.0f)", perf);
	ok(vm >= NPAGES && vm >= 0.99 * perf,
	   "vmstat pgfault delta covers the child's faults (%.0f >= %.0f)", vm, perf);
	ok(ru >= NPAGES, "rusage minor faults >= pages touched (%.0f)", ru);
	ok(value_of(&mv, "perf", "task-clock") > 0, "task-clock is counted (%.0f ns)",
	   value_of(&mv, "perf", "task-clock"));
	ok(monitor_values_find(&mv, "vmstat", "nr_free_pages") != NULL,
	   "vmstat keeps every counter by name");

	monitor_values_reset(&mv);
	ok(!measure(ms, job_idle, 2 * NPAGES, &mv), "an idle child runs while the parent faults");
	perf = value_of(&mv, "perf", "page-faults");
	vm = value_of(&mv, "vmstat", "pgfault");
	ok(perf >= 0 && perf < NPAGES / 4, "the parent's faults are not counted (%.0f)", perf);
	ok(vm >= 2 * NPAGES, "but vmstat, system-wide, sees them (%.0f)", vm);

	monitor_values_reset(&mv);
	ok(!measure(ms, job_grandchild, 0, &mv), "a child whose child faults runs");
	perf = value_of(&mv, "perf", "page-faults");
	ok(perf >= NPAGES, "inherited counters count the grandchild (%.0f)", perf);

	monitor_values_release(&mv);
	monitor_set_free(ms);
}

static void test_no_pmu(void)
{
	struct monitor_set *ms = set_of("perf", "cycles,page-faults");
	struct monitor_values mv = MONITOR_VALUES_INIT;
	struct monitor_facts mf = { 0 };
	const struct monitor_fact *f = NULL;

	monitor_set_prepare(ms, &mf);
	for (size_t i = 0; i < mf.n; i++)
		if (!strcmp(mf.f[i].key, "perf.cycles"))
			f = &mf.f[i];
	ok(!measure(ms, job_touch, 0, &mv), "a sample with a hardware event runs");
	ok(value_of(&mv, "perf", "page-faults") >= NPAGES,
	   "the software event is counted beside it");
	if (f) {
		ok(strstr(f->value, "not counted") && (strstr(f->value, "no PMU") ||
		   strstr(f->value, "perf_event_paranoid")),
		   "an uncountable hardware event becomes a fact: %s", f->value);
		ok(f->notice && strstr(f->notice, "'cycles'"), "with one notice: %s",
		   f->notice ? f->notice : "(none)");
		ok(!monitor_values_find(&mv, "perf", "cycles"), "and no value");
	} else {
		diag("this machine counts cycles: checking the value instead of the notice");
		ok(value_of(&mv, "perf", "cycles") > 0, "cycles are counted");
		skip("no PMU notice on a machine with a PMU");
		skip("no PMU notice on a machine with a PMU");
	}
	monitor_facts_release(&mf);
	monitor_values_release(&mv);
	monitor_set_free(ms);
}

static void test_held(void)
{
	struct strbuf err = STRBUF_INIT;
	struct child c;

	*ran_flag = 0;
	ok(!child_start_held(&c, job_flag, NULL, &err), "a held child starts");
	usleep(50000);
	ok(*ran_flag == 0, "and does not run before it is released");
	ok(!child_release(&c, &err), "it is released");
	ok(child_finish(&c, 10, NULL, NULL, &err) == CHILD_EXITED && *ran_flag == 1,
	   "and then runs");

	*ran_flag = 0;
	ok(!child_start_held(&c, job_flag, NULL, &err), "a held child starts again");
	ok(child_finish(&c, 10, NULL, NULL, &err) == CHILD_EXITED && *ran_flag == 0 &&
	   WIFEXITED(c.status) && WEXITSTATUS(c.status) == 1,
	   "finished without release, it exits without running");
	ok(!err.len, "no error on the way (got '%s')", err.buf);
	strbuf_release(&err);
}

/* A held child killed before its release: child_release says why in err
 * and prints nothing, as a function of lib/ does (docs/HACKING.md). */
static void test_release_error(void)
{
	struct strbuf err = STRBUF_INIT;
	FILE *cap = tmpfile();
	int saved = dup(STDERR_FILENO), rc;
	siginfo_t si;
	struct child c;
	long printed;

	*ran_flag = 0;
	ok(!child_start_held(&c, job_flag, NULL, &err), "a held child starts to be killed");
	kill(c.pid, SIGKILL);
	/* Wait for its death, leaving it to child_finish to reap. */
	waitid(P_PID, (id_t)c.pid, &si, WEXITED | WNOWAIT);
	fflush(stderr);
	dup2(fileno(cap), STDERR_FILENO);
	rc = child_release(&c, &err);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	printed = (long)lseek(fileno(cap), 0, SEEK_END);
	fclose(cap);
	ok(rc == -1 && !strncmp(err.buf, "cannot release the child process: ", 34),
	   "releasing a dead child fails, the reason in err (got '%s')", err.buf);
	ok(printed == 0, "and nothing is printed (%ld bytes)", printed);
	ok(child_finish(&c, 10, NULL, NULL, &err) == CHILD_EXITED && WIFSIGNALED(c.status) &&
	   *ran_flag == 0, "the killed child is reaped, fn never ran");
	strbuf_release(&err);
}

static void test_none_and_slab(void)
{
	struct monitor_set *ms = set_of("none", NULL);
	struct monitor_values mv = MONITOR_VALUES_INIT;
	const struct monitor_value *v;
	int caches = 0, partial = 0;

	ok(ms && !monitor_set_wants_attach(ms), "'none' needs no handshake");
	ok(!measure(ms, job_idle, 0, &mv) && mv.n == 0, "'none' records nothing (%zu values)",
	   mv.n);
	monitor_set_free(ms);

	ms = set_of("slab", NULL);
	ok(!measure(ms, job_touch, 0, &mv), "a sample with the slab monitor runs");
	v = monitor_values_find(&mv, "slab", "Slab:before");
	ok(v && v->value > 0 && value_of(&mv, "slab", "SUnreclaim:after") > 0,
	   "meminfo slab totals before and after, in bytes (%.0f)", v ? v->value : -1);
	monitor_values_reset(&mv);
	monitor_set_section_begin(ms, &mv);
	for (size_t i = 0; i < mv.n; i++) {
		const char *slash = strrchr(mv.v[i].key, '/');

		if (strcmp(mv.v[i].source, "slabcache") || !slash)
			continue;
		caches += !strcmp(slash, "/objects") && mv.v[i].value > 0;
		partial += !strcmp(slash, "/partial");
	}
	if (access("/sys/kernel/slab", R_OK) && access("/proc/slabinfo", R_OK)) {
		skip("no /sys/kernel/slab or /proc/slabinfo here");
		skip("no /sys/kernel/slab");
	} else {
		ok(caches > 10, "per-cache objects are read (%d caches)", caches);
		if (access("/sys/kernel/slab", R_OK))
			skip("partial counts need /sys/kernel/slab");
		else
			ok(partial == caches || partial > 10, "and partial slabs (%d)", partial);
	}
	monitor_values_release(&mv);
	monitor_set_free(ms);
}

int main(void)
{
	page_size = sysconf(_SC_PAGESIZE);
	ran_flag = mmap(NULL, sizeof(*ran_flag), PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (ran_flag == MAP_FAILED)
		return 1;
	child_reaper_init();
	test_parse();
	test_reasons();
	test_held();
	test_release_error();
	test_faults();
	test_no_pmu();
	test_none_and_slab();
	return done_testing();
}
