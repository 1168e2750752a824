/* hackbench: groups of 20 senders spraying 100-byte messages at 20
 * receivers over AF_UNIX socketpairs or pipes, as processes or threads;
 * the time from the wake-up write to the last reap, in seconds. Faithful
 * to rt-tests hackbench and perf bench sched messaging. */
#include "config.h"
#include "lib/io.h"
#include "workloads/workload.h"
#include "machine/pin.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

enum { M_TIME };

#ifdef __SANITIZE_ADDRESS__
#define HB_STACK_SIZE (256 * 1024)	/* AddressSanitizer needs room */
#else
#define HB_STACK_SIZE PTHREAD_STACK_MIN
#endif

static const struct wl_metric hb_metrics[] = {
	{ "", "s", WL_LOWER, "time from the wake-up write to the last reap" },
	{ NULL }
};

static const struct wl_option hb_options[] = {
	{ "groups", WL_LIST, "stride:1..4*cpus,max=296",
	  "group counts, one row each (a list or stride:MIN..MAX[,max=CAP])", NULL, 1, 100000 },
	{ "loops", WL_INT, "100", "messages each sender sends to each receiver", NULL, 1, 100000000 },
	{ "datasize", WL_INT, "100", "bytes per message", NULL, 1, 1 << 20 },
	{ "fds", WL_INT, "20", "senders and receivers per group", NULL, 1, 1000 },
	{ "mode", WL_ENUM, "process", "workers are processes or threads", "process|thread" },
	{ "transport", WL_ENUM, "sockets", "AF_UNIX socketpairs or pipes", "sockets|pipes" },
	{ "pin", WL_ENUM, "unbound", "worker placement: unbound, spread (one per core "
	  "first) or compact (PUs in logical order); worker i takes the plan's slot i",
	  PIN_CHOICES_MANY },
	{ NULL }
};

static const struct wl_flag hb_flags[] = {
	{ 'g', "groups", "groups", NULL, "number of groups (default 10)" },
	{ 'l', "loops", "loops", NULL, "loops per sender (default 100)" },
	{ 's', "datasize", "datasize", NULL, "message size in bytes (default 100)" },
	{ 'f', "fds", "fds", NULL, "senders and receivers per group (default 20)" },
	{ 'p', "pipe", "transport", "pipes", "use pipes instead of socketpairs" },
	{ 'T', "thread", "mode", "thread", "threads instead of processes" },
	{ 'P', "process", "mode", "process", "processes (the default)" },
	{ 0, "pin", "pin", NULL, "worker placement: unbound, spread or compact" },
	{ 0, NULL }
};

struct hb_cfg {
	int fds;		/* per group */
	long loops;
	size_t datasize;
	int threads;
	int pipes;
	const struct pin_plan *pin;	/* NULL: unbound */
};

/* What a worker needs; one per receiver, one shared per group's senders. */
struct hb_worker {
	const struct hb_cfg *cfg;
	int ready_fd;		/* write one byte when ready */
	int wake_fd;		/* poll until readable */
	int in_fd;		/* receiver: its read end */
	int *out_fds;		/* sender: the group's write ends */
	int pin_index;
	pthread_t tid;
};

static int make_pair(int pipes, int fds[2])
{
	if (pipes)
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
	const struct hb_cfg *c = w->cfg;
	char *data = malloc(c->datasize);
	int rc = -1;

	if (!data)
		return -1;
	memset(data, 'S', c->datasize);
	if (barrier_wait(w))
		goto out;
	for (long i = 0; i < c->loops; i++)
		for (int j = 0; j < c->fds; j++)
			if (write_full(w->out_fds[j], data, c->datasize))
				goto out;
	rc = 0;
out:
	free(data);
	return rc;
}

static int receiver(const struct hb_worker *w)
{
	const struct hb_cfg *c = w->cfg;
	long n = c->loops * c->fds;
	char *data = malloc(c->datasize);
	int rc = -1;

	if (!data)
		return -1;
	if (barrier_wait(w))
		goto out;
	for (long i = 0; i < n; i++)
		if (read_full(w->in_fd, data, c->datasize))
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
	int rc = w->cfg->pin ? pin_apply(w->cfg->pin, w->pin_index, &err) : 0;

	strbuf_release(&err);
	return rc;
}

static void *thread_main(void *arg)
{
	struct hb_worker *w = arg;

	if (bind_worker(w))
		return (void *)(intptr_t)-1;

	return (void *)(intptr_t)(w->in_fd >= 0 ? receiver(w) : sender(w));
}

/* Start one worker; in process mode the child never returns. */
static int start_worker(struct hb_worker *w, pid_t *pid)
{
	pid_t parent;

	if (w->cfg->threads) {
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
	parent = getpid();
	*pid = fork();
	if (*pid < 0)
		return -1;
	if (*pid == 0) {
		/* Never outlive the sample, even if it is killed: a worker
		 * holds the wake pipe's write end itself, so nothing else
		 * would ever end its wait. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)	/* it died before the line above */
			_exit(1);
		if (bind_worker(w))
			_exit(1);
		_exit(w->in_fd >= 0 ? (receiver(w) ? 1 : 0) : (sender(w) ? 1 : 0));
	}
	return 0;
}

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* File descriptors one sample needs at once in this process. */
static long fds_needed(const struct hb_cfg *c, long groups)
{
	return c->threads ? groups * c->fds * 2 + 16 : c->fds * 2 + 16;
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

static void cfg_from(const struct wl_params *p, struct hb_cfg *c)
{
	c->fds = (int)wl_int(p, "fds");
	c->loops = (long)wl_int(p, "loops");
	c->datasize = (size_t)wl_int(p, "datasize");
	c->threads = !strcmp(wl_str(p, "mode"), "thread");
	c->pipes = !strcmp(wl_str(p, "transport"), "pipes");
	c->pin = wl_pin(p);
}

static int hb_check(const struct wl_params *p, struct strbuf *err)
{
	struct hb_cfg c;
	struct rlimit rl;
	size_t n;
	const long long *groups = wl_list(p, "groups", &n);
	long long max = 0;

	cfg_from(p, &c);
	for (size_t i = 0; i < n; i++)
		if (groups[i] > max)
			max = groups[i];
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_max != RLIM_INFINITY &&
	    (long)rl.rlim_max < fds_needed(&c, (long)max)) {
		strbuf_addf(err, "%lld groups in %s mode need %ld open files but the hard "
			    "limit (ulimit -Hn) is %llu; raise it or use fewer groups",
			    max, c.threads ? "thread" : "process", fds_needed(&c, (long)max),
			    (unsigned long long)rl.rlim_max);
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
	struct hb_cfg c;
	long groups = (long)row;
	long npairs, nworkers, started = 0;
	int ready[2] = { -1, -1 }, wake[2] = { -1, -1 };
	struct hb_worker *w = NULL;
	int *rd = NULL, *wr = NULL;	/* pair ends, fds per group */
	pid_t *pids = NULL;
	int64_t t0, t1;
	int ok = 1, rc = -1;

	cfg_from(p, &c);
	npairs = groups * c.fds;
	nworkers = npairs * 2;
	if (raise_nofile(fds_needed(&c, groups), err))
		return -1;
	w = calloc((size_t)nworkers, sizeof(*w));
	rd = malloc(sizeof(int) * (size_t)npairs);
	wr = malloc(sizeof(int) * (size_t)npairs);
	pids = calloc((size_t)nworkers, sizeof(*pids));
	if (!w || !rd || !wr || !pids) {
		strbuf_addstr(err, "out of memory");
		goto out;
	}
	for (long i = 0; i < npairs; i++)
		rd[i] = wr[i] = -1;
	if (make_pair(c.pipes, ready) || make_pair(c.pipes, wake)) {
		strbuf_addf(err, "cannot create the start barrier: %s", strerror(errno));
		goto out;
	}
	for (long g = 0; g < groups; g++) {
		int *grd = rd + g * c.fds, *gwr = wr + g * c.fds;

		for (int j = 0; j < c.fds; j++) {
			struct hb_worker *r = &w[started];
			int pair[2];

			if (make_pair(c.pipes, pair)) {
				strbuf_addf(err, "cannot create a %s: %s",
					    c.pipes ? "pipe" : "socketpair", strerror(errno));
				goto reap;
			}
			grd[j] = pair[0];
			gwr[j] = pair[1];
			r->cfg = &c;
			r->ready_fd = ready[1];
			r->wake_fd = wake[0];
			r->in_fd = grd[j];
			r->pin_index = (int)started;
			if (start_worker(r, &pids[started])) {
				strbuf_addf(err, "cannot start a receiver: %s", strerror(errno));
				goto reap;
			}
			started++;
		}
		/* The parent needs no read end once the receivers hold them. */
		if (!c.threads)
			close_all(grd, c.fds);
		for (int j = 0; j < c.fds; j++) {
			struct hb_worker *s = &w[started];

			s->cfg = &c;
			s->ready_fd = ready[1];
			s->wake_fd = wake[0];
			s->in_fd = -1;
			s->out_fds = gwr;
			s->pin_index = (int)started;
			if (start_worker(s, &pids[started])) {
				strbuf_addf(err, "cannot start a sender: %s", strerror(errno));
				goto reap;
			}
			started++;
		}
		if (!c.threads)
			close_all(gwr, c.fds);
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
	t0 = now_ns();
	if (write(wake[1], "W", 1) != 1) {
		strbuf_addf(err, "cannot wake the workers: %s", strerror(errno));
		goto reap;
	}
	for (long i = 0; i < started; i++) {
		if (c.threads) {
			void *res;

			pthread_join(w[i].tid, &res);
			if (res)
				ok = 0;
		} else {
			int status;

			if (wait(&status) < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
				ok = 0;
		}
	}
	t1 = now_ns();
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
	if (rd)
		close_all(rd, (int)npairs);
	if (wr)
		close_all(wr, (int)npairs);
	if (wake[1] >= 0)
		(void)!write(wake[1], "W", 1);
	for (long i = 0; i < started; i++) {
		if (c.threads) {
			pthread_join(w[i].tid, NULL);
		} else {
			kill(pids[i], SIGKILL);
			waitpid(pids[i], NULL, 0);
		}
	}
out:
	if (rd)
		close_all(rd, (int)npairs);
	if (wr)
		close_all(wr, (int)npairs);
	close_all(ready, 2);
	close_all(wake, 2);
	free(rd);
	free(wr);
	free(pids);
	free(w);
	return rc;
}

static void hb_format(const struct wl_params *p, long long row,
		      const struct wl_sample *s, struct strbuf *out)
{
	struct hb_cfg c;

	cfg_from(p, &c);
	strbuf_addf(out, "Running in %s mode with %lld groups using %d file descriptors each "
		    "(== %lld tasks)\n", c.threads ? "threaded" : "process", row, c.fds * 2,
		    row * c.fds * 2);
	strbuf_addf(out, "Each sender will pass %ld messages of %zu bytes\n",
		    c.loops, c.datasize);
	if (s->nresults)
		strbuf_addf(out, "Time: %.3f\n", s->results[0].value);
}

const struct workload_ops hackbench_ops = {
	.name = "hackbench",
	.summary = "scheduler/IPC stress: groups of senders and receivers (perf bench sched messaging)",
	.options = hb_options,
	.metrics = hb_metrics,
	.row_option = "groups",
	.direct_row = 10,
	.flags = hb_flags,
	.check = hb_check,
	.run_one = hb_run_one,
	.format_direct = hb_format,
};
