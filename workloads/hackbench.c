/* hackbench: groups of 20 senders spraying 100-byte messages at 20
 * receivers over AF_UNIX socketpairs or pipes, as processes or threads;
 * the time from the wake-up write to the last reap, in seconds. Faithful
 * to rt-tests hackbench and perf bench sched messaging. */
#include "config.h"
#include "workloads/workload.h"
#include "lib/clock.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/worker.h"
#include "lib/xalloc.h"
#include "machine/pin.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

enum { M_TIME };
enum { HB_PROCESS, HB_THREAD };		/* mode */
enum { HB_SOCKETS, HB_PIPES };		/* transport */

struct hackbench_opts {
	struct wl_list groups;
	int loops;		/* messages each sender sends to each receiver */
	int datasize;		/* bytes per message */
	int fds;		/* senders and receivers per group */
	int mode;		/* HB_PROCESS or HB_THREAD */
	int transport;		/* HB_SOCKETS or HB_PIPES */
	int pin;		/* the policy's index; the plan is p->pin */
};

#ifdef __SANITIZE_ADDRESS__
#define HB_STACK_SIZE (256 * 1024)	/* AddressSanitizer needs room */
#else
#define HB_STACK_SIZE PTHREAD_STACK_MIN
#endif

static const struct wl_metric hb_metrics[] = {
	{ .name = "", .unit = "s", .better = WL_LOWER,
	  .help = "time from the wake-up write to the last reap" },
	{ .name = NULL }
};

static const struct wl_option hb_options[] = {
	{ .name = "groups", WL_LIST_FIELD(struct hackbench_opts, groups),
	  .def = "stride:1..4*cpus,max=296",
	  .help = "group counts, one row each (a list or stride:MIN..MAX[,max=CAP])",
	  .min = 1, .max = 100000 },
	{ .name = "loops", WL_INT_FIELD(struct hackbench_opts, loops), .def = "100",
	  .help = "messages each sender sends to each receiver", .min = 1, .max = 100000000 },
	{ .name = "datasize", WL_INT_FIELD(struct hackbench_opts, datasize), .def = "100",
	  .help = "bytes per message", .min = 1, .max = 1 << 20 },
	{ .name = "fds", WL_INT_FIELD(struct hackbench_opts, fds), .def = "20",
	  .help = "senders and receivers per group", .min = 1, .max = 1000 },
	{ .name = "mode", WL_ENUM_FIELD(struct hackbench_opts, mode), .def = "process",
	  .help = "workers are processes or threads", .choices = "process|thread" },
	{ .name = "transport", WL_ENUM_FIELD(struct hackbench_opts, transport), .def = "sockets",
	  .help = "AF_UNIX socketpairs or pipes", .choices = "sockets|pipes" },
	{ .name = "pin", WL_ENUM_FIELD(struct hackbench_opts, pin), .def = "unbound",
	  .help = "worker placement: unbound, spread (one per core first) or compact "
		  "(PUs in logical order); worker i takes the plan's slot i",
	  .choices = PIN_CHOICES_MANY,
	  .preference_list = 1 },
	{ .name = NULL }
};

static const struct wl_flag hb_flags[] = {
	{ .short_name = 'g', .long_name = "groups", .option = "groups",
	  .help = "number of groups (default 10)" },
	{ .short_name = 'l', .long_name = "loops", .option = "loops",
	  .help = "loops per sender (default 100)" },
	{ .short_name = 's', .long_name = "datasize", .option = "datasize",
	  .help = "message size in bytes (default 100)" },
	{ .short_name = 'f', .long_name = "fds", .option = "fds",
	  .help = "senders and receivers per group (default 20)" },
	{ .short_name = 'p', .long_name = "pipe", .option = "transport", .value = "pipes",
	  .help = "use pipes instead of socketpairs" },
	{ .short_name = 'T', .long_name = "thread", .option = "mode", .value = "thread",
	  .help = "threads instead of processes" },
	{ .short_name = 'P', .long_name = "process", .option = "mode", .value = "process",
	  .help = "processes (the default)" },
	{ .long_name = "pin", .option = "pin",
	  .help = "worker placement: unbound, spread or compact" },
	{ .long_name = NULL }
};

/* What a worker needs; one per receiver, one shared per group's senders. */
struct hb_worker {
	const struct hackbench_opts *o;
	const struct pin_plan *pin;	/* NULL: unbound */
	int ready_fd;		/* write one byte when ready */
	int wake_fd;		/* poll until readable */
	int in_fd;		/* receiver: its read end */
	int *out_fds;		/* sender: the group's write ends */
	int pin_index;
	pthread_t tid;
};

static int make_pair(const struct hackbench_opts *o, int fds[2])
{
	if (o->transport == HB_PIPES)
		return pipe(fds);
	return socketpair(AF_UNIX, SOCK_STREAM, 0, fds);
}

static int barrier_wait(const struct hb_worker *w)
{
	struct pollfd pfd = { .fd = w->wake_fd, .events = POLLIN };
	char c = 'R';

	if (write(w->ready_fd, &c, 1) != 1)
		return -1;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	return 0;
}

static int sender(const struct hb_worker *w)
{
	const struct hackbench_opts *o = w->o;
	char *data = xmalloc((size_t)o->datasize);
	int rc = -1;

	memset(data, 'S', (size_t)o->datasize);
	if (barrier_wait(w))
		goto out;
	for (int i = 0; i < o->loops; i++)
		for (int j = 0; j < o->fds; j++)
			if (write_full(w->out_fds[j], data, (size_t)o->datasize))
				goto out;
	rc = 0;
out:
	free(data);
	return rc;
}

static int receiver(const struct hb_worker *w)
{
	const struct hackbench_opts *o = w->o;
	long n = (long)o->loops * o->fds;
	char *data = xmalloc((size_t)o->datasize);
	int rc = -1;

	if (barrier_wait(w))
		goto out;
	for (long i = 0; i < n; i++)
		if (read_full(w->in_fd, data, (size_t)o->datasize))
			goto out;
	rc = 0;
out:
	free(data);
	return rc;
}

/* Bind the calling worker to its slot of the pin plan; no-op unbound. */
static int bind_worker(const struct hb_worker *w)
{
	struct strbuf err = STRBUF_INIT;
	int rc = w->pin ? pin_apply(w->pin, w->pin_index, &err) : 0;

	strbuf_release(&err);
	return rc;
}

/* A worker's whole life: bind, wait at the barrier, send or receive.
 * Return 0, or -1 when any of it failed. */
static int worker_main(const struct hb_worker *w)
{
	if (bind_worker(w))
		return -1;
	return w->in_fd >= 0 ? receiver(w) : sender(w);
}

static void *thread_main(void *arg)
{
	return (void *)(intptr_t)worker_main(arg);
}

static int process_main(void *arg)
{
	return worker_main(arg);
}

/* Start one worker: a thread, or a process (proc) that dies with this
 * one, so that a killed sample leaves none waiting on the wake pipe,
 * whose write end each of them holds. */
static int start_worker(struct hb_worker *w, struct worker *proc)
{
	if (w->o->mode == HB_THREAD) {
		pthread_attr_t attr;
		int rc;

		pthread_attr_init(&attr);
		/* PTHREAD_STACK_MIN stacks, as perf and rt-tests use: thousands
		 * of threads at 296 groups, and glibc gives a stack this small
		 * back at thread exit without an madvise() call, which would
		 * land inside the timed window. */
		pthread_attr_setstacksize(&attr, HB_STACK_SIZE);
		rc = pthread_create(&w->tid, &attr, thread_main, w);
		pthread_attr_destroy(&attr);
		return rc ? -1 : 0;
	}
	return worker_start(proc, process_main, w);
}

/* File descriptors one sample needs at once in this process. */
static long fds_needed(const struct hackbench_opts *o, long groups)
{
	return o->mode == HB_THREAD ? groups * o->fds * 2 + 16 : o->fds * 2 + 16;
}

static int raise_nofile(long need, struct strbuf *err)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return 0;
	if (rl.rlim_cur != RLIM_INFINITY && (long)rl.rlim_cur >= need)
		return 0;
	if (rl.rlim_max != RLIM_INFINITY && (long)rl.rlim_max < need) {
		strbuf_addf(err, "needs %ld open files but the hard limit (ulimit -Hn) is %llu; "
			    "raise it or use fewer groups", need, (unsigned long long)rl.rlim_max);
		return -1;
	}
	rl.rlim_cur = (rlim_t)need;
	if (setrlimit(RLIMIT_NOFILE, &rl)) {
		strbuf_addf(err, "cannot raise the open file limit to %ld: %s", need, strerror(errno));
		return -1;
	}
	return 0;
}

static int hb_check(const struct wl_params *p, struct strbuf *err)
{
	const struct hackbench_opts *o = p->opts;
	struct rlimit rl;
	long long max = 0;

	for (size_t i = 0; i < o->groups.n; i++)
		if (o->groups.v[i] > max)
			max = o->groups.v[i];
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_max != RLIM_INFINITY &&
	    (long)rl.rlim_max < fds_needed(o, (long)max)) {
		strbuf_addf(err, "%lld groups in %s mode need %ld open files but the hard "
			    "limit (ulimit -Hn) is %llu; raise it or use fewer groups",
			    max, o->mode == HB_THREAD ? "thread" : "process",
			    fds_needed(o, (long)max), (unsigned long long)rl.rlim_max);
		return -1;
	}
	return 0;
}

static void close_all(int *fds, int n)
{
	for (int i = 0; i < n; i++)
		if (fds[i] >= 0) {
			close(fds[i]);
			fds[i] = -1;
		}
}

static int hb_run_one(const struct wl_params *p, long long row,
		      struct wl_sample *out, struct strbuf *err)
{
	const struct hackbench_opts *o = p->opts;
	int threads = o->mode == HB_THREAD;
	long groups = (long)row;
	long npairs = groups * o->fds, nworkers = npairs * 2, started = 0;
	int ready[2] = { -1, -1 }, wake[2] = { -1, -1 };
	struct hb_worker *w;
	struct worker *procs;		/* process mode: w[i]'s process */
	int *rd, *wr;			/* pair ends, fds per group */
	int64_t t0, t1;
	size_t failed;
	int ok = 1, rc = -1;

	if (raise_nofile(fds_needed(o, groups), err))
		return -1;
	w = xcalloc((size_t)nworkers, sizeof(*w));
	procs = xcalloc((size_t)nworkers, sizeof(*procs));
	rd = xcalloc((size_t)npairs, sizeof(*rd));
	wr = xcalloc((size_t)npairs, sizeof(*wr));
	for (long i = 0; i < npairs; i++)
		rd[i] = wr[i] = -1;
	if (make_pair(o, ready) || make_pair(o, wake)) {
		strbuf_addf(err, "cannot create the start barrier: %s", strerror(errno));
		goto out;
	}
	for (long g = 0; g < groups; g++) {
		int *grd = rd + g * o->fds, *gwr = wr + g * o->fds;

		for (int j = 0; j < o->fds; j++) {
			struct hb_worker *r = &w[started];
			int pair[2];

			if (make_pair(o, pair)) {
				strbuf_addf(err, "cannot create a %s: %s",
					    o->transport == HB_PIPES ? "pipe" : "socketpair",
					    strerror(errno));
				goto reap;
			}
			grd[j] = pair[0];
			gwr[j] = pair[1];
			r->o = o;
			r->pin = p->pin;
			r->ready_fd = ready[1];
			r->wake_fd = wake[0];
			r->in_fd = grd[j];
			r->pin_index = (int)started;
			if (start_worker(r, &procs[started])) {
				strbuf_addf(err, "cannot start a receiver: %s", strerror(errno));
				goto reap;
			}
			started++;
		}
		/* The parent needs no read end once the receivers hold them. */
		if (!threads)
			close_all(grd, o->fds);
		for (int j = 0; j < o->fds; j++) {
			struct hb_worker *s = &w[started];

			s->o = o;
			s->pin = p->pin;
			s->ready_fd = ready[1];
			s->wake_fd = wake[0];
			s->in_fd = -1;
			s->out_fds = gwr;
			s->pin_index = (int)started;
			if (start_worker(s, &procs[started])) {
				strbuf_addf(err, "cannot start a sender: %s", strerror(errno));
				goto reap;
			}
			started++;
		}
		if (!threads)
			close_all(gwr, o->fds);
	}
	/* Every worker writes its ready byte; then take the time and wake all
	 * at once with one byte nobody reads (level-triggered POLLIN). */
	for (long i = 0; i < started; i++) {
		char ch;

		if (read(ready[0], &ch, 1) != 1) {
			strbuf_addstr(err, "a worker died before it was ready");
			goto reap;
		}
	}
	t0 = clock_ns(CLOCK_MONOTONIC);
	if (write(wake[1], "W", 1) != 1) {
		strbuf_addf(err, "cannot wake the workers: %s", strerror(errno));
		goto reap;
	}
	if (threads) {
		for (long i = 0; i < started; i++) {
			void *res;

			pthread_join(w[i].tid, &res);
			if (res)
				ok = 0;
		}
	} else if (worker_reap_all(procs, (size_t)started, &failed)) {
		ok = 0;
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	started = 0;
	if (!ok) {
		strbuf_addstr(err, "a worker failed to send or receive its messages");
		goto out;
	}
	wl_sample_add(out, M_TIME, (double)(t1 - t0) / 1e9, "%ld", groups);
	rc = 0;
	goto out;
reap:
	/* Setup failed part way: release whoever started. */
	close_all(rd, (int)npairs);
	close_all(wr, (int)npairs);
	if (wake[1] >= 0)
		(void)!write(wake[1], "W", 1);
	if (threads)
		for (long i = 0; i < started; i++)
			pthread_join(w[i].tid, NULL);
	else
		worker_kill_all(procs, (size_t)started);
out:
	close_all(rd, (int)npairs);
	close_all(wr, (int)npairs);
	close_all(ready, 2);
	close_all(wake, 2);
	free(rd);
	free(wr);
	free(procs);
	free(w);
	return rc;
}

static void hb_format(const struct wl_params *p, long long row,
		      const struct wl_sample *s, struct strbuf *out)
{
	const struct hackbench_opts *o = p->opts;

	strbuf_addf(out, "Running in %s mode with %lld groups using %d file descriptors each "
		    "(== %lld tasks)\n", o->mode == HB_THREAD ? "threaded" : "process", row,
		    o->fds * 2, row * o->fds * 2);
	strbuf_addf(out, "Each sender will pass %d messages of %d bytes\n",
		    o->loops, o->datasize);
	if (s->nresults)
		strbuf_addf(out, "Time: %.3f\n", s->results[0].value);
}

const struct workload_ops hackbench_ops = {
	.name = "hackbench",
	.summary = "scheduler/IPC stress: groups of senders and receivers (perf bench sched messaging)",
	.options = hb_options,
	.opts_size = sizeof(struct hackbench_opts),
	.metrics = hb_metrics,
	.row_option = "groups",
	.direct_row = 10,
	.flags = hb_flags,
	.check = hb_check,
	.run_one = hb_run_one,
	.format_direct = hb_format,
};
