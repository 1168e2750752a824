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
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

enum { M_TIME };
enum { HB_PROCESS, HB_THREAD };		/* mode */
enum { HB_SOCKETS, HB_PIPES };		/* transport */
enum { HB_KILL_READY, HB_KILL_START };	/* kill_point */

struct hackbench_opts {
	struct wl_list groups;
	int loops;		/* messages each sender sends to each receiver */
	int datasize;		/* bytes per message */
	int fds;		/* senders and receivers per group */
	int mode;		/* HB_PROCESS or HB_THREAD */
	int transport;		/* HB_SOCKETS or HB_PIPES */
	int pin;		/* the policy's index; the plan is p->pin */
	int kill_worker;	/* -1: none */
	int kill_point;		/* HB_KILL_READY or HB_KILL_START */
};

/* A message buffer up to this size is on the worker's stack, as in
 * rt-tests: a thread that calls malloc() makes glibc map an arena of its
 * own, and its free() and exit fall inside the timed window. */
#define HB_LOCAL_DATA 1024

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
	{ .name = "kill_worker", WL_INT_FIELD(struct hackbench_opts, kill_worker), .def = "-1",
	  .help = "for tests: worker K (numbered as the pin plan's slots) kills itself with "
		  "SIGKILL (-1: none)",
	  .min = -1, .max = 200000000 },
	{ .name = "kill_point", WL_ENUM_FIELD(struct hackbench_opts, kill_point), .def = "start",
	  .help = "for tests: when kill_worker dies: before it reports ready, or at the wake-up",
	  .choices = "ready|start" },
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

/* Report ready, then wait for the wake-up byte. */
static int barrier_wait(const struct hb_worker *w)
{
	struct pollfd pfd = { .fd = w->wake_fd, .events = POLLIN };
	int doomed = w->pin_index == w->o->kill_worker;
	char c = 'R';

	if (doomed && w->o->kill_point == HB_KILL_READY)
		raise(SIGKILL);
	if (write(w->ready_fd, &c, 1) != 1)
		return -1;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -1;
	if (doomed && w->o->kill_point == HB_KILL_START)
		raise(SIGKILL);
	return 0;
}

/* One message: a single write() or read() nearly always moves all of
 * it, so the hot loop makes that call itself and leaves the rest of a
 * short transfer to lib/io's loops. */
static inline int send_msg(int fd, const char *data, size_t len)
{
	ssize_t n = write(fd, data, len);

	if (n == (ssize_t)len)
		return 0;
	if (n < 0 && errno != EINTR)
		return -1;
	n = n < 0 ? 0 : n;
	return write_full(fd, data + n, len - (size_t)n);
}

static inline int recv_msg(int fd, char *data, size_t len)
{
	ssize_t n = read(fd, data, len);

	if (n == (ssize_t)len)
		return 0;
	if (n == 0 || (n < 0 && errno != EINTR)) {
		if (!n)
			errno = 0;
		return -1;
	}
	n = n < 0 ? 0 : n;
	return read_full(fd, data + n, len - (size_t)n);
}

static int sender(const struct hb_worker *w)
{
	const struct hackbench_opts *o = w->o;
	char local[HB_LOCAL_DATA];
	char *data = o->datasize <= HB_LOCAL_DATA ? local : xmalloc((size_t)o->datasize);
	int rc = -1;

	memset(data, 'S', (size_t)o->datasize);
	if (barrier_wait(w))
		goto out;
	for (int i = 0; i < o->loops; i++)
		for (int j = 0; j < o->fds; j++)
			if (send_msg(w->out_fds[j], data, (size_t)o->datasize))
				goto out;
	rc = 0;
out:
	if (data != local)
		free(data);
	return rc;
}

static int receiver(const struct hb_worker *w)
{
	const struct hackbench_opts *o = w->o;
	long n = (long)o->loops * o->fds;
	char local[HB_LOCAL_DATA];
	char *data = o->datasize <= HB_LOCAL_DATA ? local : xmalloc((size_t)o->datasize);
	int rc = -1;

	if (barrier_wait(w))
		goto out;
	for (long i = 0; i < n; i++)
		if (recv_msg(w->in_fd, data, (size_t)o->datasize))
			goto out;
	rc = 0;
out:
	if (data != local)
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
 * Return 0, or -1 when any of it failed. A worker that cannot bind says
 * so on the ready pipe ('F'), so that nobody waits for it: a thread that
 * returns is not seen ending as a process is. */
static int worker_main(const struct hb_worker *w)
{
	if (bind_worker(w)) {
		(void)!write(w->ready_fd, "F", 1);
		return -1;
	}
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

/* Process workers by pid, to find which one ended. */
struct hb_pid {
	pid_t pid;
	long index;
};

static int cmp_pid(const void *a, const void *b)
{
	pid_t x = ((const struct hb_pid *)a)->pid, y = ((const struct hb_pid *)b)->pid;

	return x < y ? -1 : x > y;
}

static struct hb_pid *index_pids(const struct worker *procs, long n)
{
	struct hb_pid *pids = xcalloc((size_t)n, sizeof(*pids));

	for (long i = 0; i < n; i++) {
		pids[i].pid = procs[i].pid;
		pids[i].index = i;
	}
	qsort(pids, (size_t)n, sizeof(*pids), cmp_pid);
	return pids;
}

/* Reap the next process worker to end (at once with nohang, or -1 when
 * none has), and return its index; -2 when waiting failed, with err.
 * The sample's process has no children but its workers; one it does not
 * know is reaped and passed over. */
static long reap_next(struct worker *procs, const struct hb_pid *pids, long n, int nohang,
		      struct strbuf *err)
{
	for (;;) {
		siginfo_t si = { .si_pid = 0 };
		struct hb_pid key, *hit;

		/* WNOWAIT: learn who ended, then reap it through lib/worker. */
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT | (nohang ? WNOHANG : 0))) {
			if (errno == EINTR)
				continue;
			strbuf_addf(err, "cannot wait for the workers: %s", strerror(errno));
			return -2;
		}
		if (!si.si_pid)
			return -1;
		key.pid = si.si_pid;
		hit = bsearch(&key, pids, (size_t)n, sizeof(*pids), cmp_pid);
		if (!hit || !procs[hit->index].running) {
			(void)!waitpid(si.si_pid, NULL, 0);
			continue;
		}
		if (worker_wait(&procs[hit->index])) {
			strbuf_addf(err, "cannot wait for worker %ld (pid %d): %s", hit->index,
				    (int)si.si_pid, strerror(errno));
			return -2;
		}
		return hit->index;
	}
}

/* Has worker i failed? Say how, and kill and reap every other one. */
static int worker_failed(struct worker *procs, long n, long i, struct strbuf *err)
{
	const struct worker *w = &procs[i];

	if (WIFEXITED(w->status) && !WEXITSTATUS(w->status))
		return 0;
	worker_kill_all(procs, (size_t)n);
	worker_describe(w, err, "worker %ld", i);
	return 1;
}

/* Read one ready byte from each of the n workers. A worker that cannot
 * bind writes 'F'; a process worker that ends before it is ready (it
 * never ends on its own before the wake-up) fails the sample at once,
 * named, rather than leaving the barrier waiting for it. Return 0, or -1
 * with err. */
static int wait_ready(int fd, long n, struct worker *procs, const struct hb_pid *pids,
		      struct strbuf *err)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char buf[4096];
	long got = 0;

	while (got < n) {
		size_t want = (size_t)(n - got) < sizeof(buf) ? (size_t)(n - got) : sizeof(buf);
		/* Threads cannot end alone: a dead one takes the process. */
		int r = poll(&pfd, 1, procs ? 10 : -1);
		ssize_t k;

		if (r < 0 && errno != EINTR) {
			strbuf_addf(err, "cannot wait for the workers: %s", strerror(errno));
			return -1;
		}
		if (r > 0) {
			k = read(fd, buf, want);
			if (k <= 0) {
				strbuf_addstr(err, "a worker died before it was ready");
				return -1;
			}
			if (memchr(buf, 'F', (size_t)k)) {
				strbuf_addstr(err, "a worker could not be bound to its slot of the "
					      "pin plan");
				return -1;
			}
			got += k;
			continue;
		}
		if (procs) {
			long i = reap_next(procs, pids, n, 1, err);

			if (i == -2)
				return -1;
			if (i >= 0) {
				worker_kill_all(procs, (size_t)n);
				worker_describe(&procs[i], err, "worker %ld", i);
				strbuf_addstr(err, " before it was ready");
				return -1;
			}
		}
	}
	return 0;
}

/* Reap every process worker as it ends, so that the first one to fail
 * fails the sample at once and the rest are killed, instead of waiting
 * for a worker that will never finish because a peer died. Return 0, or
 * -1 with err naming the worker and how it ended. */
static int reap_workers(struct worker *procs, const struct hb_pid *pids, long n,
			struct strbuf *err)
{
	for (long left = n; left > 0; left--) {
		long i = reap_next(procs, pids, n, 0, err);

		if (i < 0) {
			if (i == -1)
				strbuf_addstr(err, "lost track of the workers");
			worker_kill_all(procs, (size_t)n);
			return -1;
		}
		if (worker_failed(procs, n, i, err))
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
	struct hb_pid *pids = NULL;	/* process mode: procs by pid */
	int *rd, *wr;			/* pair ends, fds per group */
	int64_t t0, t1;
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
	if (!threads)
		pids = index_pids(procs, started);
	if (wait_ready(ready[0], started, threads ? NULL : procs, pids, err))
		goto reap;
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
		if (!ok)
			strbuf_addstr(err, "a worker failed to send or receive its messages");
	} else if (reap_workers(procs, pids, started, err)) {
		ok = 0;
	}
	t1 = clock_ns(CLOCK_MONOTONIC);
	started = 0;
	if (!ok)
		goto out;
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
	free(pids);
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
