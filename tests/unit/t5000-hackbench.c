/* t5000-hackbench: one sample of each variant, and pinned workers seen on
 * the CPUs of their slots: a thread of this test reads every worker's
 * allowed CPUs and current CPU from /proc while the sample runs.
 * Covers: workloads/hackbench.c machine/pin.c */
#include "config.h"
#include "tests/tap.h"
#include "workloads/params.h"
#include "machine/pin.h"
#include "lib/strbuf.h"
#include "workloads/workload.h"

#include <dirent.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
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

/* One sample of one group in a mode and transport with messages of
 * datasize bytes: one result, the row named after the group count, a time
 * in seconds. Messages up to 1024 bytes live on the workers' stacks,
 * larger ones on the heap; one larger than a pipe's buffer arrives in
 * several reads. */
static void test_sample(const char *mode, const char *transport, int datasize)
{
	char m[32], t[32], d[32];
	const char *kv[] = { "loops=10", m, t, d, NULL };
	struct strbuf err = STRBUF_INIT;
	struct wl_sample s = { 0 };
	struct wl_params *p;
	int rc;

	snprintf(m, sizeof(m), "mode=%s", mode);
	snprintf(t, sizeof(t), "transport=%s", transport);
	snprintf(d, sizeof(d), "datasize=%d", datasize);
	p = params(kv, &err);
	rc = p ? ops->run_one(p, 2, &s, &err) : -1;
	ok(rc == 0, "%s, %s, %d bytes: the sample runs (%s)", mode, transport, datasize,
	   err.buf);
	ok(s.nresults == 1 && !strcmp(s.results[0].row, "2") && s.results[0].metric == 0 &&
	   s.results[0].value > 0 && s.results[0].value < 10 && !s.flag[0],
	   "%s, %s, %d bytes: one result, row '%s', %.6f s, unflagged ('%s')", mode,
	   transport, datasize, s.nresults ? s.results[0].row : "",
	   s.nresults ? s.results[0].value : 0.0, s.flag);
	wl_params_free(p);
	strbuf_release(&err);
}

/* A worker as the watcher saw it. */
struct seen {
	pid_t id;
	int cpu;	/* its only allowed CPU; -1 while it may use several */
	int looks;	/* looks while bound to cpu */
	int strays;	/* of those, looks that found it on another CPU */
};

#define MAX_SEEN 512

struct watch {
	int threads;		/* workers are threads of this process, else children */
	pid_t skip[64];		/* threads that are not workers */
	int nskip;
	int stop;		/* set by the test, read by the watcher */
	struct seen seen[MAX_SEEN];
	int nseen;
	int overflow;
};

/* Read a small /proc file into buf; 0, or -1 when it is gone. */
static int read_proc(const char *path, char *buf, size_t size)
{
	FILE *f = fopen(path, "r");
	size_t n;

	if (!f)
		return -1;
	n = fread(buf, 1, size - 1, f);
	fclose(f);
	buf[n] = '\0';
	return n ? 0 : -1;
}

/* Field `field` (1-based, as proc(5) numbers them) of a stat line. */
static long stat_field(const char *stat, int field)
{
	const char *s = strrchr(stat, ')');	/* comm may hold blanks */

	if (!s)
		return -1;
	s++;
	for (int f = 3; f <= field; f++) {
		while (*s == ' ')
			s++;
		if (f == field)
			return strtol(s, NULL, 10);
		while (*s && *s != ' ')
			s++;
	}
	return -1;
}

/* The only CPU in a Cpus_allowed_list line, or -1 when there are several. */
static int only_cpu(const char *status)
{
	const char *s = strstr(status, "Cpus_allowed_list:");
	char *end;
	long cpu;

	if (!s)
		return -1;
	s += strlen("Cpus_allowed_list:");
	cpu = strtol(s, &end, 10);
	if (end == s || (*end != '\n' && *end != '\0'))
		return -1;
	return (int)cpu;
}

static struct seen *seen_of(struct watch *w, pid_t id)
{
	for (int i = 0; i < w->nseen; i++)
		if (w->seen[i].id == id)
			return &w->seen[i];
	if (w->nseen == MAX_SEEN) {
		w->overflow = 1;
		return NULL;
	}
	w->seen[w->nseen] = (struct seen){ .id = id, .cpu = -1 };
	return &w->seen[w->nseen++];
}

/* Look at one worker: its allowed CPUs, then the CPU it is on. */
static void look(struct watch *w, pid_t id, const char *dir)
{
	char path[128], status[4096], stat[1024];
	struct seen *sn;
	int cpu;

	snprintf(path, sizeof(path), "%s/status", dir);
	if (read_proc(path, status, sizeof(status)))
		return;
	snprintf(path, sizeof(path), "%s/stat", dir);
	if (read_proc(path, stat, sizeof(stat)))
		return;
	sn = seen_of(w, id);
	cpu = only_cpu(status);
	if (!sn || cpu < 0)
		return;
	sn->cpu = cpu;
	sn->looks++;
	if (stat_field(stat, 39) != cpu)
		sn->strays++;
}

static int skipped(const struct watch *w, pid_t id)
{
	for (int i = 0; i < w->nskip; i++)
		if (w->skip[i] == id)
			return 1;
	return 0;
}

static void look_all(struct watch *w)
{
	DIR *d = opendir(w->threads ? "/proc/self/task" : "/proc");
	struct dirent *e;
	char dir[64], path[80], stat[1024];

	if (!d)
		return;
	while ((e = readdir(d))) {
		pid_t id = (pid_t)atoi(e->d_name);

		if (id <= 0)
			continue;
		if (w->threads) {
			if (skipped(w, id))
				continue;
			snprintf(dir, sizeof(dir), "/proc/self/task/%d", (int)id);
		} else {
			snprintf(dir, sizeof(dir), "/proc/%d", (int)id);
			snprintf(path, sizeof(path), "%s/stat", dir);
			if (read_proc(path, stat, sizeof(stat)) || stat_field(stat, 4) != getpid())
				continue;
		}
		look(w, id, dir);
	}
	closedir(d);
}

static void *watcher(void *arg)
{
	struct watch *w = arg;
	const struct timespec pause = { .tv_nsec = 200 * 1000 };

	w->skip[w->nskip++] = (pid_t)syscall(SYS_gettid);
	while (!__atomic_load_n(&w->stop, __ATOMIC_ACQUIRE)) {
		look_all(w);
		nanosleep(&pause, NULL);
	}
	return NULL;
}

static int cmp_int(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static int cmp_seen(const void *a, const void *b)
{
	const struct seen *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* Whether ids from lo to hi can be in creation order: not if the kernel
 * wrapped its pid counter in between. */
static int ids_in_order(pid_t lo, pid_t hi)
{
	char buf[32];
	long max = read_proc("/proc/sys/kernel/pid_max", buf, sizeof(buf)) ? 32768 :
		   strtol(buf, NULL, 10);

	return hi - lo < max / 2;
}

static void describe_cpus(struct strbuf *sb, const int *cpus, int n)
{
	for (int i = 0; i < n; i++)
		strbuf_addf(sb, "%s%d", i ? " " : "", cpus[i]);
}

/* Two groups of 4 senders and 4 receivers, pinned: every worker is seen
 * bound to one CPU and running there, the CPUs, counted, are the plan's
 * first 16 slots, and worker i, in the order they were created, is on
 * slot i's CPU. */
static void test_pinned(const char *mode, const char *policy)
{
	char m[32];
	const char *kv[] = { "fds=4", "loops=2000", m, NULL };
	struct strbuf err = STRBUF_INIT, want_s = STRBUF_INIT, got_s = STRBUF_INIT;
	struct pin_plan *plan = NULL;
	struct wl_sample s = { 0 };
	struct watch *w = calloc(1, sizeof(*w));
	struct wl_params *p;
	pthread_t tid;
	enum { GROUPS = 2, WORKERS = GROUPS * 4 * 2 };
	int want[WORKERS], got[WORKERS], nbound = 0, strays = 0, rc;

	snprintf(m, sizeof(m), "mode=%s", mode);
	p = params(kv, &err);
	if (!w || !p || pin_plan_compute(policy, 0, &plan, &err)) {
		ok(0, "%s, pin = %s: plan (%s)", mode, policy, err.buf);
		goto out;
	}
	p->pin = plan;
	w->threads = !strcmp(mode, "thread");
	w->skip[w->nskip++] = getpid();
	pthread_create(&tid, NULL, watcher, w);
	rc = ops->run_one(p, GROUPS, &s, &err);
	__atomic_store_n(&w->stop, 1, __ATOMIC_RELEASE);
	pthread_join(tid, NULL);
	p->pin = NULL;
	ok(rc == 0, "%s, pin = %s: the sample runs (%s)", mode, policy, err.buf);

	/* Ids are handed out in creation order, as the workers are. */
	qsort(w->seen, (size_t)w->nseen, sizeof(w->seen[0]), cmp_seen);
	for (int i = 0; i < w->nseen; i++) {
		if (w->seen[i].cpu < 0)
			continue;
		if (nbound < WORKERS)
			got[nbound] = w->seen[i].cpu;
		nbound++;
		/* A look between a worker's binding and its move to the CPU
		 * may find it on the old one, once. */
		if (w->seen[i].strays > 1)
			strays++;
	}
	ok(nbound == WORKERS && !w->overflow,
	   "%s, pin = %s: all %d workers seen bound to one CPU (%d of the %d seen were)",
	   mode, policy, WORKERS, nbound, w->nseen);
	for (int i = 0; i < WORKERS; i++)
		want[i] = pin_plan_cpu(plan, i);
	if (nbound != WORKERS) {
		ok(0, "%s, pin = %s: worker i runs on slot i's CPU (not every worker seen)",
		   mode, policy);
	} else if (!ids_in_order(w->seen[0].id, w->seen[w->nseen - 1].id)) {
		skip("the pid counter wrapped: creation order unknown");
	} else {
		describe_cpus(&want_s, want, WORKERS);
		describe_cpus(&got_s, got, WORKERS);
		ok(!memcmp(want, got, sizeof(want)),
		   "%s, pin = %s: worker i runs on slot i's CPU (%s)", mode, policy, want_s.buf);
		if (memcmp(want, got, sizeof(want)))
			diag("seen in creation order: %s", got_s.buf);
		strbuf_reset(&want_s);
		strbuf_reset(&got_s);
	}
	qsort(want, WORKERS, sizeof(int), cmp_int);
	describe_cpus(&want_s, want, WORKERS);
	if (nbound == WORKERS) {
		qsort(got, WORKERS, sizeof(int), cmp_int);
		describe_cpus(&got_s, got, WORKERS);
	}
	ok(nbound == WORKERS && !memcmp(want, got, sizeof(want)),
	   "%s, pin = %s: the workers' CPUs are the plan's first %d slots (%s)",
	   mode, policy, WORKERS, want_s.buf);
	if (nbound != WORKERS || memcmp(want, got, sizeof(want)))
		diag("seen: %s", got_s.buf);
	ok(!strays, "%s, pin = %s: every worker ran on its CPU whenever it was seen "
	   "(%d did not)", mode, policy, strays);
out:
	pin_plan_free(plan);
	wl_params_free(p);
	free(w);
	strbuf_release(&err);
	strbuf_release(&want_s);
	strbuf_release(&got_s);
}

int main(void)
{
	ops = workload_find("hackbench");
	if (!ops) {
		ok(0, "hackbench is in the workload table");
		return done_testing();
	}
	test_sample("process", "sockets", 100);
	test_sample("process", "pipes", 100);
	test_sample("thread", "sockets", 100);
	test_sample("thread", "pipes", 100);
	test_sample("thread", "pipes", 1024);
	test_sample("thread", "sockets", 1025);
	test_sample("process", "pipes", 100000);
	test_sample("thread", "pipes", 100000);
	test_pinned("process", "spread");
	test_pinned("thread", "compact");
	return done_testing();
}
