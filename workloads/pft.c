/* pft: the page-fault test. One untouched private anonymous mapping is
 * split into N contiguous chunks; N threads or processes wait on a start
 * barrier, then each writes one byte per base page of its chunk and times
 * itself with CLOCK_MONOTONIC, its CPU-time clock and getrusage. Measures
 * what gormanm/pft measures: system time, elapsed time, faults per wall
 * second and faults per CPU second. */
#include "config.h"
#include "workloads/workload.h"
#include "lib/clock.h"
#include "lib/strbuf.h"
#include "lib/worker.h"
#include "lib/xalloc.h"
#include "machine/pin.h"
#include "machine/sysinfo.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

/* As the reference: never more workers than this, whatever the machine. */
#define PFT_MAX_WORKERS 128

/* A sample whose minor-fault count strays further than this from the page
 * count is flagged (the reference warns at the same bound). */
#define PFT_FAULT_TOLERANCE 0.10

enum { PFT_SYSTEM, PFT_ELAPSED, PFT_FAULTS_SEC, PFT_FAULTS_CPU };
enum { PFT_THREADS, PFT_PROCESSES };	/* model */
enum { PFT_KILL_READY, PFT_KILL_START };	/* kill_point */

struct pft_opts {
	uint64_t mapping_size;	/* bytes */
	struct wl_list workers;
	int model;		/* PFT_THREADS or PFT_PROCESSES */
	bool thp;
	int pin;		/* the policy's index; the plan is p->pin */
	int kill_worker;	/* -1: none */
	int kill_point;		/* PFT_KILL_READY or PFT_KILL_START */
};

static const struct wl_option pft_options[] = {
	{ .name = "mapping_size", WL_SIZE_FIELD(struct pft_opts, mapping_size), .def = "20%",
	  .help = "bytes mapped and faulted in per sample, split evenly across the workers "
		  "(default MemTotal/5)" },
	{ .name = "workers", WL_LIST_FIELD(struct pft_opts, workers), .def = "stride:1..cpus",
	  .help = "worker counts, one row each; capped at the CPUs this process may use",
	  .min = 1, .max = 4096 },
	{ .name = "model", WL_ENUM_FIELD(struct pft_opts, model), .def = "threads",
	  .help = "workers are threads sharing one mm, or forked processes",
	  .choices = "threads|processes" },
	{ .name = "thp", WL_BOOL_FIELD(struct pft_opts, thp), .def = "off",
	  .help = "off: MADV_NOHUGEPAGE on the region; on: MADV_HUGEPAGE" },
	{ .name = "pin", WL_ENUM_FIELD(struct pft_opts, pin), .def = "unbound",
	  .help = "worker placement: unbound, spread (one per core first) or compact (PUs "
		  "in logical order); worker i takes the plan's slot i",
	  .choices = PIN_CHOICES_MANY,
	  .preference_list = 1 },
	{ .name = "kill_worker", WL_INT_FIELD(struct pft_opts, kill_worker), .def = "-1",
	  .help = "for tests: worker K kills itself with SIGKILL (-1: none)",
	  .min = -1, .max = 4095 },
	{ .name = "kill_point", WL_ENUM_FIELD(struct pft_opts, kill_point), .def = "start",
	  .help = "for tests: when kill_worker dies: before it reports ready, or at the start",
	  .choices = "ready|start" },
	{ .name = NULL }
};

static const struct wl_metric pft_metrics[] = {
	[PFT_SYSTEM] = { .name = "system", .unit = "s", .better = WL_LOWER,
			 .help = "system time summed over the workers" },
	[PFT_ELAPSED] = { .name = "elapsed", .unit = "s", .better = WL_LOWER,
			  .help = "latest worker end minus earliest worker start" },
	[PFT_FAULTS_SEC] = { .name = "faults/sec", .unit = "faults/s", .better = WL_HIGHER,
			     .help = "pages faulted in per elapsed second" },
	[PFT_FAULTS_CPU] = { .name = "faults/cpu", .unit = "faults/cpu-s", .better = WL_HIGHER,
			     .help = "pages faulted in per CPU second (user + system)" },
	{ .name = NULL }
};

static const struct wl_flag pft_flags[] = {
	{ .short_name = 'm', .long_name = "mapping-size", .option = "mapping_size",
	  .help = "bytes to fault in (64M, 2G, 20%)" },
	{ .short_name = 't', .long_name = "threads", .option = "workers",
	  .help = "N worker threads" },
	{ .short_name = 't', .long_name = "threads", .option = "model", .value = "threads" },
	{ .short_name = 'n', .long_name = "processes", .option = "workers",
	  .help = "N worker processes" },
	{ .short_name = 'n', .long_name = "processes", .option = "model", .value = "processes" },
	{ .long_name = "thp", .option = "thp", .value = "on",
	  .help = "let transparent huge pages back the region" },
	{ .long_name = "pin", .option = "pin",
	  .help = "worker placement: unbound, spread or compact" },
	{ .long_name = NULL }
};

enum pft_state { PFT_STARTING, PFT_READY, PFT_DONE, PFT_FAILED };

/* One worker's record, in memory shared with forked workers; a cache line
 * of its own so that workers do not write to each other's lines. */
struct pft_worker {
	int state;			/* enum pft_state, atomic */
	int64_t start_ns, end_ns;	/* CLOCK_MONOTONIC */
	int64_t cpu_start_ns, cpu_end_ns; /* the worker's CPU-time clock */
	struct rusage ru_start, ru_end;
	int cpu;			/* where the worker ended its chunk */
	char why[120];			/* PFT_FAILED: the reason */
} __attribute__((aligned(64)));

struct pft_shared {
	int go;				/* 0: wait, 1: run, -1: give up; atomic */
	struct pft_worker w[];
};

struct pft_ctx {
	struct pft_shared *shared;
	size_t shared_bytes;
	char *region;
	size_t region_bytes;
	size_t chunk_bytes;
	size_t pagesize;
	const struct pft_opts *o;
	int threads;			/* model = threads */
	int nworkers;
	const struct pin_plan *pin;	/* NULL: unbound */
	struct worker *procs;		/* model = processes: worker k's process */
};

struct pft_worker_arg {
	struct pft_ctx *ctx;
	int k;
};

static inline void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#endif
}

/* The largest worker count a sample may run: the CPUs this process may
 * use, and never more than the reference's limit. */
static long long pft_worker_cap(void)
{
	long long cpus = sysinfo_cpus_allowed();

	return cpus < PFT_MAX_WORKERS ? cpus : PFT_MAX_WORKERS;
}

/* The measured part: one write per base page of this worker's chunk.
 * Never instrumented: AddressSanitizer would check each write against its
 * shadow memory and fault that in too, one page per eight written. */
__attribute__((no_sanitize_address))
static void pft_fault_chunk(const struct pft_ctx *c, struct pft_worker *w, int k)
{
	int who = c->threads ? RUSAGE_THREAD : RUSAGE_SELF;
	/* getrusage() accounts a running thread's CPU time in scheduler
	 * ticks, so a short chunk can read 0 s; the CPU-time clocks count
	 * nanoseconds. A forked worker is a process of one thread. */
	clockid_t cpu = c->threads ? CLOCK_THREAD_CPUTIME_ID : CLOCK_PROCESS_CPUTIME_ID;
	volatile char *p = c->region + (size_t)k * c->chunk_bytes;
	volatile char *end = p + c->chunk_bytes;

	w->start_ns = clock_ns(CLOCK_MONOTONIC);
	getrusage(who, &w->ru_start);
	w->cpu_start_ns = clock_ns(cpu);
	for (; p < end; p += c->pagesize)
		*p = 'r';
	w->cpu_end_ns = clock_ns(cpu);
	getrusage(who, &w->ru_end);
	w->end_ns = clock_ns(CLOCK_MONOTONIC);
	w->cpu = sched_getcpu();
}

/* Write this worker's whole record before the start: a forked worker maps
 * the shared control area page by page on first touch, and a record that
 * straddles a page would otherwise take that fault inside the measured
 * window. */
static void pft_touch_record(struct pft_worker *w)
{
	memset(&w->start_ns, 0, sizeof(*w) - offsetof(struct pft_worker, start_ns));
}

/* Bind worker k to its slot of the pin plan (nothing when unbound), before
 * the barrier: binding moves the worker, which must not happen in the
 * measured window. Return 0, or -1 with the reason in the record. */
static int pft_bind(const struct pft_ctx *c, struct pft_worker *w, int k)
{
	struct strbuf err = STRBUF_INIT;
	int rc = pin_apply(c->pin, k, &err);

	if (rc)
		snprintf(w->why, sizeof(w->why), "%s", err.buf);
	strbuf_release(&err);
	return rc;
}

/* Worker k >= 1: bind, report ready, spin on the barrier, fault the chunk
 * in. Return 0, or -1 when it could not bind or the launcher gave up
 * before the start. */
static int pft_worker(struct pft_ctx *c, int k)
{
	struct pft_worker *w = &c->shared->w[k];
	int go;

	if (k == c->o->kill_worker && c->o->kill_point == PFT_KILL_READY)
		raise(SIGKILL);
	pft_touch_record(w);
	if (pft_bind(c, w, k)) {
		__atomic_store_n(&w->state, PFT_FAILED, __ATOMIC_RELEASE);
		return -1;
	}
	__atomic_store_n(&w->state, PFT_READY, __ATOMIC_RELEASE);
	/* Spin rather than sleep, as the reference does: every worker must
	 * start the moment the barrier opens, or elapsed time grows by the
	 * wake-up latency of the slowest one. */
	while (!(go = __atomic_load_n(&c->shared->go, __ATOMIC_ACQUIRE)))
		cpu_relax();
	if (go < 0)
		return -1;
	if (k == c->o->kill_worker && c->o->kill_point == PFT_KILL_START)
		raise(SIGKILL);
	pft_fault_chunk(c, w, k);
	__atomic_store_n(&w->state, PFT_DONE, __ATOMIC_RELEASE);
	return 0;
}

static void *pft_thread_main(void *arg)
{
	struct pft_worker_arg *a = arg;

	pft_worker(a->ctx, a->k);
	return NULL;
}

/* A forked worker: it dies with the launcher (worker_start), instead of
 * spinning on a barrier that would never open. */
static int pft_process_main(void *arg)
{
	struct pft_worker_arg *a = arg;

	return pft_worker(a->ctx, a->k);
}

/* Kill and reap every forked worker not reaped yet. */
static void pft_kill_processes(struct pft_ctx *c)
{
	worker_kill_all(c->procs + 1, (size_t)c->nworkers - 1);
}

/* Has any forked worker ended before the barrier opened? Reap it and say
 * which. Return 1 if so, 0 if all are alive. */
static int pft_process_died(struct pft_ctx *c, struct strbuf *err)
{
	for (int k = 1; k < c->nworkers; k++) {
		if (!worker_poll(&c->procs[k]))
			continue;
		if (__atomic_load_n(&c->shared->w[k].state, __ATOMIC_ACQUIRE) == PFT_FAILED)
			strbuf_addf(err, "worker %d: %s", k, c->shared->w[k].why);
		else
			worker_describe(&c->procs[k], err, "worker %d", k);
		return 1;
	}
	return 0;
}

/* Wait until workers 1..n-1 have reported ready. Return 0, or -1 with err
 * when one could not bind or a forked one died first. */
static int pft_wait_ready(struct pft_ctx *c, struct strbuf *err)
{
	const struct timespec pause = { .tv_nsec = 20000 };	/* 20 us */

	for (;;) {
		int waiting = 0;

		for (int k = 1; k < c->nworkers; k++) {
			struct pft_worker *w = &c->shared->w[k];
			int state = __atomic_load_n(&w->state, __ATOMIC_ACQUIRE);

			if (state == PFT_FAILED) {
				strbuf_addf(err, "worker %d: %s", k, w->why);
				return -1;
			}
			if (state != PFT_READY)
				waiting++;
		}
		if (!waiting)
			return 0;
		if (!c->threads && pft_process_died(c, err))
			return -1;
		/* Sleep, not spin: a worker just created may need this CPU. */
		nanosleep(&pause, NULL);
	}
}

/* Reap workers 1..n-1 after the run; when one did not finish its chunk,
 * the sample is lost and the rest are killed, not waited for. Return 0,
 * or -1 with err naming the first that failed. */
static int pft_reap_processes(struct pft_ctx *c, struct strbuf *err)
{
	size_t failed;
	const struct worker *w;

	if (!worker_reap_all(c->procs + 1, (size_t)c->nworkers - 1, &failed))
		return 0;
	w = &c->procs[failed + 1];
	if (w->wait_errno)
		strbuf_addf(err, "cannot wait for worker %zu (pid %d): %s",
			    failed + 1, (int)w->pid, strerror(w->wait_errno));
	else
		worker_describe(w, err, "worker %zu", failed + 1);
	return -1;
}

static double tv_seconds(const struct timeval *t)
{
	return (double)t->tv_sec + (double)t->tv_usec / 1e6;
}

/* Turn the workers' records into the sample. */
static void pft_results(const struct pft_ctx *c, long long row, int thp,
			struct wl_sample *out)
{
	double first = 0, last = 0, user = 0, sys = 0, cpu = 0, elapsed;
	double pages = (double)(c->region_bytes / c->pagesize);
	long long minflt = 0;

	for (int k = 0; k < c->nworkers; k++) {
		const struct pft_worker *w = &c->shared->w[k];
		double s = (double)w->start_ns / 1e9, e = (double)w->end_ns / 1e9;

		if (!k || s < first)
			first = s;
		if (!k || e > last)
			last = e;
		user += tv_seconds(&w->ru_end.ru_utime) - tv_seconds(&w->ru_start.ru_utime);
		sys += tv_seconds(&w->ru_end.ru_stime) - tv_seconds(&w->ru_start.ru_stime);
		minflt += w->ru_end.ru_minflt - w->ru_start.ru_minflt;
		cpu += (double)(w->cpu_end_ns - w->cpu_start_ns) / 1e9;
	}
	elapsed = last - first;

	if (row != c->nworkers)
		wl_sample_flag(out, "ran %d workers, not %lld: capped at the CPUs this "
			       "process may use", c->nworkers, row);
	wl_sample_add(out, PFT_SYSTEM, sys, "system-%lld", row);
	wl_sample_add(out, PFT_ELAPSED, elapsed, "elapsed-%lld", row);
	if (elapsed > 0)
		wl_sample_add(out, PFT_FAULTS_SEC, pages / elapsed, "faults/sec-%lld", row);
	else
		wl_sample_flag(out, "elapsed time too short to measure");
	if (cpu > 0)
		wl_sample_add(out, PFT_FAULTS_CPU, pages / cpu, "faults/cpu-%lld", row);
	else
		wl_sample_flag(out, "CPU time too short to measure: use a larger mapping_size");

	wl_sample_extra(out, "minflt", (double)minflt);
	wl_sample_extra(out, "pages", pages);
	wl_sample_extra(out, "user", user);
	wl_sample_extra(out, "cpu", cpu);
	wl_sample_extra(out, "workers", c->nworkers);
	wl_sample_extra(out, "page_size", (double)c->pagesize);

	/* A bound worker cannot leave its CPU; if one did, the binding did
	 * not hold and the placement the sample claims is wrong. */
	for (int k = 0; k < c->nworkers; k++) {
		int want = pin_plan_cpu(c->pin, k), got = c->shared->w[k].cpu;

		if (want >= 0 && got != want) {
			wl_sample_flag(out, "worker %d ended on CPU %d, not its pinned CPU %d",
				       k, got, want);
			break;
		}
	}

	/* Huge pages fault in 512 base pages at a time: the count is then
	 * expected to be far below the page count. */
	if (!thp && (double)llabs(minflt - (long long)pages) > pages * PFT_FAULT_TOLERANCE)
		wl_sample_flag(out, "%lld minor faults for %.0f pages (more than %.0f%% apart)",
			       minflt, pages, PFT_FAULT_TOLERANCE * 100);
}

/* Start workers 1..n-1. Return 0, or -1 with err (workers already started
 * are left for the caller to stop). */
static int pft_start_workers(struct pft_ctx *c, pthread_t *tids,
			     struct pft_worker_arg *args, int *started,
			     struct strbuf *err)
{
	for (int k = 1; k < c->nworkers; k++) {
		args[k].ctx = c;
		args[k].k = k;
		if (c->threads) {
			int e = pthread_create(&tids[k], NULL, pft_thread_main, &args[k]);

			if (e) {
				strbuf_addf(err, "cannot start worker thread %d: %s",
					    k, strerror(e));
				return -1;
			}
		} else if (worker_start(&c->procs[k], pft_process_main, &args[k])) {
			strbuf_addf(err, "cannot fork worker %d: %s", k, strerror(errno));
			return -1;
		}
		*started = k;
	}
	return 0;
}

static int pft_run_one(const struct wl_params *p, long long row,
		       struct wl_sample *out, struct strbuf *err)
{
	const struct pft_opts *o = p->opts;
	struct pft_ctx c = { .o = o };
	pthread_t *tids = NULL;
	struct pft_worker_arg *args = NULL;
	uint64_t size = o->mapping_size;
	long long cap = pft_worker_cap();
	int thp = o->thp;
	int started = 0, rc = -1;
	size_t pages, per_worker;
	long ps = sysconf(_SC_PAGESIZE);

	if (row < 1) {
		strbuf_addf(err, "invalid worker count %lld", row);
		return -1;
	}
	c.pagesize = ps > 0 ? (size_t)ps : 4096;
	c.threads = o->model == PFT_THREADS;
	c.nworkers = (int)(row < cap ? row : cap);
	c.pin = p->pin;

	/* The reference's rounding: whole pages, the same count per worker. */
	pages = (size + c.pagesize - 1) / c.pagesize;
	if (!pages) {
		strbuf_addf(err, "'mapping_size' is 0 bytes: the mapping must hold at least one page");
		return -1;
	}
	per_worker = (pages + (size_t)c.nworkers - 1) / (size_t)c.nworkers;
	c.chunk_bytes = per_worker * c.pagesize;
	c.region_bytes = c.chunk_bytes * (size_t)c.nworkers;

	c.shared_bytes = sizeof(struct pft_shared) +
		(size_t)c.nworkers * sizeof(struct pft_worker);
	c.shared = mmap(NULL, c.shared_bytes, PROT_READ | PROT_WRITE,
			MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c.shared == MAP_FAILED) {
		c.shared = NULL;
		strbuf_addf(err, "cannot map the control area: %s", strerror(errno));
		goto out;
	}
	/* Mapped before the barrier and not touched until the workers start. */
	c.region = mmap(NULL, c.region_bytes, PROT_READ | PROT_WRITE,
			MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (c.region == MAP_FAILED) {
		c.region = NULL;
		strbuf_addf(err, "cannot map %zu bytes: %s",
			    c.region_bytes, strerror(errno));
		goto out;
	}
	/* A kernel built without THP (PREEMPT_RT's) refuses both with
	 * EINVAL: with no huge pages, "off" holds already. */
	if (madvise(c.region, c.region_bytes, thp ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) &&
	    (thp || errno != EINVAL)) {
		strbuf_addf(err, "madvise(%s) on the region failed: %s",
			    thp ? "MADV_HUGEPAGE" : "MADV_NOHUGEPAGE", strerror(errno));
		goto out;
	}

	args = xcalloc((size_t)c.nworkers, sizeof(*args));
	if (c.threads)
		tids = xcalloc((size_t)c.nworkers, sizeof(*tids));
	else
		c.procs = xcalloc((size_t)c.nworkers, sizeof(*c.procs));
	if (pft_start_workers(&c, tids, args, &started, err) ||
	    pft_wait_ready(&c, err))
		goto abort;

	/* The launcher is worker 0, as in the reference. It binds last, so
	 * that the workers it started did not inherit its slot. */
	pft_touch_record(&c.shared->w[0]);
	if (pft_bind(&c, &c.shared->w[0], 0)) {
		strbuf_addf(err, "worker 0: %s", c.shared->w[0].why);
		goto abort;
	}
	if (!o->kill_worker && o->kill_point == PFT_KILL_READY)
		raise(SIGKILL);
	__atomic_store_n(&c.shared->go, 1, __ATOMIC_RELEASE);
	if (!o->kill_worker && o->kill_point == PFT_KILL_START)
		raise(SIGKILL);
	pft_fault_chunk(&c, &c.shared->w[0], 0);

	if (c.threads) {
		for (int k = 1; k <= started; k++)
			pthread_join(tids[k], NULL);
	} else if (pft_reap_processes(&c, err)) {
		goto out;
	}
	pft_results(&c, row, thp, out);
	rc = 0;
	goto out;

abort:
	__atomic_store_n(&c.shared->go, -1, __ATOMIC_RELEASE);
	if (c.threads)
		for (int k = 1; k <= started; k++)
			pthread_join(tids[k], NULL);
	else
		pft_kill_processes(&c);
out:
	free(tids);
	free(args);
	free(c.procs);
	if (c.region)
		munmap(c.region, c.region_bytes);
	if (c.shared)
		munmap(c.shared, c.shared_bytes);
	return rc;
}

/* Sizes are checked here, before anything runs. A worker count above the
 * CPUs this process may use is not an error: run_one caps it, as the
 * reference does, and flags each such sample, which is how the notice
 * reaches the progress line and the store (a workload never prints). */
static int pft_check(const struct wl_params *p, struct strbuf *err)
{
	const struct pft_opts *o = p->opts;
	uint64_t size = o->mapping_size;
	uint64_t mem = sysinfo_mem_total();

	if (!size) {
		strbuf_addf(err, "'mapping_size' is 0 bytes: the mapping must hold at "
			    "least one page");
		return -1;
	}
	if (mem && size > mem) {
		strbuf_addf(err, "'mapping_size' of %llu MiB is larger than this machine's "
			    "memory (%llu MiB)", (unsigned long long)(size >> 20),
			    (unsigned long long)(mem >> 20));
		return -1;
	}
	return 0;
}

static void pft_format_direct(const struct wl_params *p, long long row,
			      const struct wl_sample *s, struct strbuf *out)
{
	double v[4] = { 0, 0, 0, 0 }, user = 0, pages = 0, nworkers = 0, pagesize = 0, bytes;
	static const char units[] = "BKMGTP";
	const char *unit;
	char size[32];

	for (int i = 0; i < s->nresults; i++)
		if (s->results[i].metric >= 0 && s->results[i].metric < 4)
			v[s->results[i].metric] = s->results[i].value;
	for (int i = 0; i < s->nextras; i++) {
		const struct wl_extra *x = &s->extras[i];

		if (!strcmp(x->key, "user"))
			user = x->value;
		else if (!strcmp(x->key, "pages"))
			pages = x->value;
		else if (!strcmp(x->key, "workers"))
			nworkers = x->value;
		else if (!strcmp(x->key, "page_size"))
			pagesize = x->value;
	}
	/* The reference's columns under a title as its -T prints one: the
	 * size (here in the unit that fits, where the reference's whole GiB
	 * showed 0 for 64M), workers, cache lines touched per page, user,
	 * system, wall, faults/cpu-s, faults/wall-s. */
	bytes = pages * pagesize;
	for (unit = units; bytes >= 1024 && unit[1]; unit++)
		bytes /= 1024;
	snprintf(size, sizeof(size), bytes == (double)(long long)bytes ? "%.0f%c" : "%.1f%c",
		 bytes, *unit);
	strbuf_addf(out, "%6s %4s %5s %9s %9s %9s  %10s %10s\n", "Size", "Thr", "CLine",
		    "User", "System", "Wall", "flt/cpu/s", "fault/wsec");
	strbuf_addf(out, "%6s %4.0f %5d %8.2fs %8.2fs %8.2fs  %10.3f %10.3f\n",
		    size, nworkers, 1, user, v[PFT_SYSTEM], v[PFT_ELAPSED],
		    v[PFT_FAULTS_CPU], v[PFT_FAULTS_SEC]);
}

const struct workload_ops pft_ops = {
	.name = "pft",
	.summary = "page-fault test: N threads or processes fault in one anonymous mapping",
	.options = pft_options,
	.opts_size = sizeof(struct pft_opts),
	.metrics = pft_metrics,
	.row_option = "workers",
	.direct_row = 1,
	.flags = pft_flags,
	.check = pft_check,
	.run_one = pft_run_one,
	.format_direct = pft_format_direct,
};
