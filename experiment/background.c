/* background: the load an experiment's arm runs beside its samples
 * (experiment/background.h): an external command, or kbench's trigger of
 * the kernel's per-cpu page list drain (docs/ab.md says why an offline
 * of a memory block reaches __drain_all_pages()). */
#include "config.h"
#include "experiment/background.h"
#include "db/store.h"
#include "lib/child.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/xalloc.h"
#include "machine/pin.h"
#include "runner/plan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define MEMORY_DIR "/sys/devices/system/memory"
#define KPROBE_TYPE "/sys/bus/event_source/devices/kprobe/type"
#define TRIGGER "pcp-drain"

int background_key(const char *key)
{
	return !strcmp(key, "background") || !strcmp(key, "background-trigger");
}

/* Whether the file at path reads as text that begins with word. */
static int file_says(const char *path, const char *word)
{
	struct strbuf sb = STRBUF_INIT;
	int yes = !strbuf_read_file(&sb, path) && !strncmp(sb.buf, word, strlen(word));

	strbuf_release(&sb);
	return yes;
}

/* The memory block the trigger offlines: the highest-numbered one that
 * is online and removable (the last blocks hold the fewest unmovable
 * pages). Its state file into out; -1 when there is none. */
static int pick_block(struct strbuf *out)
{
	DIR *d = opendir(MEMORY_DIR);
	struct dirent *de;
	long best = -1;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		char path[300];
		char *end;
		long n;

		if (strncmp(de->d_name, "memory", 6))
			continue;
		n = strtol(de->d_name + 6, &end, 10);
		if (*end || end == de->d_name + 6 || n <= best)
			continue;
		snprintf(path, sizeof(path), MEMORY_DIR "/%s/removable", de->d_name);
		if (!file_says(path, "1"))
			continue;
		snprintf(path, sizeof(path), MEMORY_DIR "/%s/state", de->d_name);
		if (file_says(path, "online"))
			best = n;
	}
	closedir(d);
	if (best < 0)
		return -1;
	strbuf_addf(out, MEMORY_DIR "/memory%ld/state", best);
	return 0;
}

int background_parse(struct background *b, const char *key, const char *value,
		     const char *where)
{
	if (b->command || b->rate)
		return error("%s: %s in [arm:%s]: an arm runs one background load, and it has "
			     "one already", where, key, b->arm);
	if (!strcmp(key, "background")) {
		if (!*value)
			return error("%s: background in [arm:%s] has no value (expected a "
				     "command, run by /bin/sh -c)", where, b->arm);
		b->command = value;
		return 0;
	}
	{
		size_t n = strlen(TRIGGER);
		char *end;
		long rate;

		if (strncmp(value, TRIGGER " ", n + 1))
			return error("%s: background-trigger in [arm:%s]: unknown trigger '%s' "
				     "(expected '" TRIGGER " RATE/s')", where, b->arm, value);
		errno = 0;
		rate = strtol(value + n + 1, &end, 10);
		if (errno || end == value + n + 1 || strcmp(end, "/s") || rate < 1 ||
		    rate > BACKGROUND_MAX_RATE)
			return error("%s: background-trigger in [arm:%s]: '%s' is not a rate "
				     "(expected RATE/s, RATE a whole number from 1 to %d)", where,
				     b->arm, value + n + 1, BACKGROUND_MAX_RATE);
		b->rate = (double)rate;
	}
	{
		struct strbuf sb = STRBUF_INIT;

		if (pick_block(&sb)) {
			strbuf_release(&sb);
			return error("%s: background-trigger in [arm:%s]: no memory block of this "
				     "machine is online and removable (" MEMORY_DIR "): the "
				     "trigger offlines one", where, b->arm);
		}
		b->block = strbuf_detach(&sb);
	}
	return 0;
}

int background_place(struct background *b, const struct plan *p)
{
	cpu_set_t all, used;
	struct strbuf sb = STRBUF_INIT;
	int unbound = 0;

	free(b->cpus);
	b->apart = 0;
	CPU_ZERO(&used);
	if (sched_getaffinity(0, sizeof(all), &all))
		return error("cannot read the CPUs kbench may run on: %s", strerror(errno));
	for (size_t i = 0; i < p->n; i++) {
		const struct pin_plan *pin = p->sections[i].pin;

		if (!pin || !pin->nslots || !pin->binds) {
			unbound = 1;
			continue;
		}
		for (int k = 0; k < pin->nslots; k++)
			if (pin->slots[k].os_index >= 0 && pin->slots[k].os_index < CPU_SETSIZE)
				CPU_SET(pin->slots[k].os_index, &used);
	}
	if (unbound) {
		strbuf_addstr(&sb, "every CPU: the workload is unbound (pin = unbound), so the "
			      "load cannot be kept apart from it");
	} else {
		for (int c = 0; c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &all) && !CPU_ISSET(c, &used))
				strbuf_addf(&sb, "%sP#%d", sb.len ? " " : "", c);
		b->apart = sb.len > 0;
		if (!sb.len)
			strbuf_addstr(&sb, "every CPU: the samples are pinned to every CPU "
				      "kbench may use");
	}
	b->cpus = strbuf_detach(&sb);
	return 0;
}

/* The CPUs of b->cpus when apart, into set. */
static void apart_set(const struct background *b, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (const char *p = strstr(b->cpus, "P#"); p; p = strstr(p + 2, "P#")) {
		int c = atoi(p + 2);

		if (c >= 0 && c < CPU_SETSIZE)
			CPU_SET(c, set);
	}
}

/* ---- the trigger ---- */

/* One offline of the block; an offline that took is undone at once.
 * SIGTERM waits until the block is online again. */
static void offline_once(const char *state)
{
	sigset_t term, old;
	int fd;

	sigemptyset(&term);
	sigaddset(&term, SIGTERM);
	sigprocmask(SIG_BLOCK, &term, &old);
	fd = open(state, O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		/* EBUSY (pages that cannot move) is an answer too: the kernel
		 * drained the lists before it tried to isolate them. */
		if (write(fd, "offline", 7) == 7) {
			close(fd);
			fd = open(state, O_WRONLY | O_CLOEXEC);
			if (fd >= 0 && write(fd, "online", 6) != 6)
				_exit(3);
		}
		if (fd >= 0)
			close(fd);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
}

static int trigger_loop(void *arg)
{
	struct background *b = arg;
	int64_t period_ns = (int64_t)(1e9 / b->rate);
	struct sigaction dfl = { .sa_handler = SIG_DFL };
	struct timespec next;

	setpgid(0, 0);
	if (b->box.dir) {
		struct strbuf procs = STRBUF_INIT;
		int fd;

		strbuf_addf(&procs, "%s/cgroup.procs", b->box.dir);
		fd = open(procs.buf, O_WRONLY | O_CLOEXEC);
		if (fd >= 0) {
			(void)!write(fd, "0", 1);
			close(fd);
		}
		strbuf_release(&procs);
	}
	/* kbench's handlers are not the trigger's: SIGTERM ends it. */
	sigaction(SIGTERM, &dfl, NULL);
	sigaction(SIGINT, &dfl, NULL);
	sigaction(SIGHUP, &dfl, NULL);
	clock_gettime(CLOCK_MONOTONIC, &next);
	for (;;) {
		offline_once(b->block);
		__atomic_add_fetch(b->ops, 1, __ATOMIC_RELAXED);
		next.tv_nsec += period_ns;
		while (next.tv_nsec >= 1000000000L) {
			next.tv_nsec -= 1000000000L;
			next.tv_sec++;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL) == EINTR)
			;
	}
	return 0;
}

/* The kernel's own count of __drain_all_pages() entries: a kprobe on it
 * (on the part the compiler split off, where it did) on every CPU,
 * through the kprobe PMU, gone when the descriptors close. Nothing is
 * written to the machine. Sets b->kfd, or b->kwhy. */
static void kprobe_open(struct background *b)
{
	struct strbuf sym = STRBUF_INIT, line = STRBUF_INIT;
	struct perf_event_attr attr;
	cpu_set_t cpus;
	char buf[32], name[256];
	int fd = open(KPROBE_TYPE, O_RDONLY | O_CLOEXEC), type;
	ssize_t len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	FILE *f;

	if (fd >= 0)
		close(fd);
	if (len <= 0) {
		b->kwhy = xstrdup("unavailable: this kernel has no kprobe PMU (" KPROBE_TYPE
				  " is missing; CONFIG_KPROBES is not set)");
		return;
	}
	buf[len] = '\0';
	type = atoi(buf);
	f = fopen("/proc/kallsyms", "re");
	while (f && fscanf(f, "%*s %*s %255s%*[^\n]", name) == 1)
		if (!strcmp(name, "__drain_all_pages") ||
		    !strncmp(name, "__drain_all_pages.", 18)) {
			strbuf_addstr(&sym, name);
			break;
		}
	if (f)
		fclose(f);
	if (!sym.len)
		strbuf_addstr(&sym, "drain_all_pages");
	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = (unsigned)type;
	attr.config1 = (uint64_t)(uintptr_t)sym.buf;
	sched_getaffinity(0, sizeof(cpus), &cpus);
	b->kfd = xcalloc(CPU_SETSIZE, sizeof(*b->kfd));
	for (int c = 0; c < CPU_SETSIZE && !b->kwhy; c++) {
		if (!CPU_ISSET(c, &cpus))
			continue;
		fd = (int)syscall(SYS_perf_event_open, &attr, -1, c, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			strbuf_addf(&line, "unavailable: cannot probe %s on CPU %d: %s", sym.buf, c,
				    strerror(errno));
			b->kwhy = strbuf_detach(&line);
			break;
		}
		b->kfd[b->nkfd++] = fd;
	}
	strbuf_release(&sym);
	strbuf_release(&line);
}

static void kprobe_close(struct background *b)
{
	for (int i = 0; i < b->nkfd; i++)
		close(b->kfd[i]);
	free(b->kfd);
	b->kfd = NULL;
	b->nkfd = 0;
}

/* ---- starting and stopping ---- */

/* What b runs, one line: "'sleep 60'", "pcp-drain 100/s". */
static void describe(const struct background *b, struct strbuf *sb)
{
	if (b->command)
		strbuf_addf(sb, "'%s'", b->command);
	else
		strbuf_addf(sb, TRIGGER " %.0f/s", b->rate);
}

int background_start(struct background *b, struct strbuf *err)
{
	const char *argv[] = { "/bin/sh", "-c", b->command, NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct strbuf what = STRBUF_INIT;
	cpu_set_t saved, set;
	int moved = 0, rc = -1;

	if (b->running)
		return 0;
	strbuf_reset(&b->end);
	b->died = 0;
	free(b->kwhy);
	b->kwhy = NULL;
	/* What it forks inherits where it may run. */
	if (b->apart && !sched_getaffinity(0, sizeof(saved), &saved)) {
		apart_set(b, &set);
		moved = !sched_setaffinity(0, sizeof(set), &set);
	}
	cgroup_box_open(&b->box, "load", NULL);
	b->escaped = 0;
	if (b->command) {
		const char *env[] = { b->box.marker, NULL };

		p.argv = argv;
		p.env = env;
		p.cgroup = b->box.dir;
		p.new_group = 1;
		p.in = CHILD_FD_NULL;
		p.out = CHILD_FD_NULL;
		fflush(NULL);
		if (child_program_start(&p, err))
			goto out;
		b->w = p.w;
	} else {
		b->ops = mmap(NULL, sizeof(*b->ops), PROT_READ | PROT_WRITE,
			      MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (b->ops == MAP_FAILED) {
			b->ops = NULL;
			strbuf_addf(err, "cannot map the trigger's count: %s", strerror(errno));
			goto out;
		}
		kprobe_open(b);
		if (worker_start(&b->w, trigger_loop, b)) {
			strbuf_addf(err, "cannot fork: %s", strerror(errno));
			goto out;
		}
		setpgid(b->w.pid, b->w.pid);
	}
	b->running = 1;
	b->start_ns = clock_ns(CLOCK_MONOTONIC);
	strbuf_addf(&what, "background ");
	describe(b, &what);
	strbuf_addf(&what, " of arm %s", b->arm);
	if (leftover_record(&b->rec, b->w.pid, what.buf, b->block, b->block ? "online" : NULL,
			    err) ||
	    (b->box.dir && leftover_note(&b->rec, "cgroup", b->box.dir, err)) ||
	    leftover_note(&b->rec, "marker", b->box.marker, err)) {
		leftover_forget(&b->rec);
		worker_kill_group(&b->w);
		b->running = 0;
		goto out;
	}
	rc = 0;
out:
	if (moved)
		sched_setaffinity(0, sizeof(saved), &saved);
	if (rc) {
		strbuf_reset(&what);
		strbuf_addf(&what, "arm %s: cannot start its background ", b->arm);
		describe(b, &what);
		strbuf_addf(&what, ": %s", err->buf);
		strbuf_reset(err);
		strbuf_addstr(err, what.buf);
		kprobe_close(b);
		cgroup_box_close(&b->box);
	}
	strbuf_release(&what);
	return rc;
}

/* Say how b ended into b->end and err. */
static void say_ended(struct background *b, struct strbuf *err)
{
	strbuf_reset(&b->end);
	worker_describe_status(b->w.status, &b->end);
	strbuf_addf(err, "arm %s: its background ", b->arm);
	describe(b, err);
	strbuf_addf(err, " %s while the arm's samples ran", b->end.buf);
}

int background_check(struct background *b, struct strbuf *err)
{
	if (!b->running || !worker_poll(&b->w))
		return 0;
	/* What the leader left in its group, or its box, goes with it. */
	kill(-b->w.pid, SIGKILL);
	b->escaped = cgroup_box_kill(&b->box, 0);
	b->running = 0;
	b->died = 1;
	say_ended(b, err);
	return -1;
}

/* CPU seconds of pid and the children it reaped (/proc/PID/stat fields
 * 14 to 17); -1 when it is gone. */
static double cpu_seconds(pid_t pid)
{
	char path[64], buf[1024];
	unsigned long long v[15], sum = 0;
	const char *p;
	int fd, n;
	ssize_t len;

	snprintf(path, sizeof(path), "/proc/%ld/stat", (long)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (len <= 0)
		return -1;
	buf[len] = '\0';
	p = strrchr(buf, ')');
	p = p ? strchr(p + 2, ' ') : NULL;
	for (n = 0; p && n < 15; n++) {
		char *end;

		v[n] = strtoull(p + 1, &end, 10);
		p = *end == ' ' ? end : NULL;
	}
	if (n < 15)
		return -1;
	for (int i = 11; i < 15; i++)
		sum += v[i];
	return (double)sum / (double)sysconf(_SC_CLK_TCK);
}

/* Whether a process of group pgid is left, once what of it ended as
 * kbench's child (kbench is the subreaper of what its children leave)
 * is reaped. Only after the leader is reaped: its status is worker's. */
static int group_left(pid_t pgid)
{
	int st;

	while (waitpid(-pgid, &st, WNOHANG) > 0)
		;
	return kill(-pgid, 0) == 0;
}

/* One fact of run_id: KEY.round-R = value. */
static int fact(struct store *s, int64_t run_id, const char *key, int round, const char *value)
{
	char k[64];

	snprintf(k, sizeof(k), "%s.round-%d", key, round);
	return store_add_meta(s, run_id, "", k, value) ? -1 : 0;
}

int background_stop(struct background *b, struct store *s, int64_t run_id, int round)
{
	struct strbuf v = STRBUF_INIT;
	double run_s, cpu_s = -1;
	unsigned long long kcount = 0;
	int rc = 0;

	if (!b->running && !b->died)
		return 0;
	if (b->running) {
		int64_t until;

		pid_t pgid = b->w.pid;

		cpu_s = cpu_seconds(pgid);
		kill(-pgid, SIGTERM);
		/* The whole group has the time to end, not only its leader: a
		 * shell's children run their traps too. */
		until = clock_ns(CLOCK_MONOTONIC) + (int64_t)(BACKGROUND_TERM_WAIT_S * 1e9);
		while (clock_ns(CLOCK_MONOTONIC) < until) {
			struct timespec ts = { 0, 10 * 1000 * 1000 };

			if (b->w.running)
				worker_poll(&b->w);
			if (!b->w.running && !group_left(pgid))
				break;
			nanosleep(&ts, NULL);
		}
		if (b->w.running) {
			worker_kill_group(&b->w);
			strbuf_addf(&b->end, "did not end within %g s of SIGTERM: killed",
				    BACKGROUND_TERM_WAIT_S);
		} else {
			if (group_left(pgid))
				kill(-pgid, SIGKILL);
			group_left(pgid);
			worker_describe_status(b->w.status, &b->end);
			strbuf_addstr(&b->end, " (stopped by kbench)");
		}
		/* What left the group (setsid) is still in the box. */
		b->escaped = cgroup_box_kill(&b->box, 0);
	}
	if (b->escaped)
		strbuf_addf(&b->end, "; %d process%s that left its process group killed",
			    b->escaped, b->escaped == 1 ? "" : "es");
	cgroup_box_close(&b->box);
	run_s = (double)(clock_ns(CLOCK_MONOTONIC) - b->start_ns) / 1e9;
	for (int i = 0; i < b->nkfd; i++) {
		uint64_t n = 0;

		if (read(b->kfd[i], &n, sizeof(n)) == (ssize_t)sizeof(n))
			kcount += n;
	}
	/* An offline a stopped trigger left is undone. */
	if (b->block && !file_says(b->block, "online")) {
		int fd = open(b->block, O_WRONLY | O_CLOEXEC);

		if (fd >= 0) {
			(void)!write(fd, "online", 6);
			close(fd);
		}
	}
	leftover_forget(&b->rec);
	b->running = 0;
	if (run_id > 0) {
		strbuf_reset(&v);
		describe(b, &v);
		rc |= fact(s, run_id, "background", round, v.buf);
		rc |= fact(s, run_id, "background-exit", round, b->end.buf);
		rc |= fact(s, run_id, "background-cpus", round, b->cpus ? b->cpus : "every CPU");
		strbuf_reset(&v);
		strbuf_addf(&v, "%.3f", run_s);
		rc |= fact(s, run_id, "background-run-s", round, v.buf);
		if (cpu_s >= 0) {
			strbuf_reset(&v);
			strbuf_addf(&v, "%.3f", cpu_s);
			rc |= fact(s, run_id, "background-cpu-s", round, v.buf);
		}
		if (b->ops) {
			unsigned long long ops = __atomic_load_n(b->ops, __ATOMIC_RELAXED);

			strbuf_reset(&v);
			strbuf_addf(&v, "%.0f", b->rate);
			rc |= fact(s, run_id, "background-requested-rate", round, v.buf);
			strbuf_reset(&v);
			strbuf_addf(&v, "%.1f", run_s > 0 ? (double)ops / run_s : 0);
			rc |= fact(s, run_id, "background-rate", round, v.buf);
			rc |= fact(s, run_id, "background-block", round, b->block);
			strbuf_reset(&v);
			if (b->kwhy)
				strbuf_addstr(&v, b->kwhy);
			else
				strbuf_addf(&v, "%llu", kcount);
			rc |= fact(s, run_id, "background-kernel-count", round, v.buf);
			if (!b->kwhy) {
				strbuf_reset(&v);
				strbuf_addf(&v, "%.1f", run_s > 0 ? (double)kcount / run_s : 0);
				rc |= fact(s, run_id, "background-kernel-rate", round, v.buf);
			}
		}
	}
	kprobe_close(b);
	if (b->ops) {
		munmap(b->ops, sizeof(*b->ops));
		b->ops = NULL;
	}
	strbuf_release(&v);
	if (rc)
		return -1;
	rc = b->died;
	b->died = 0;
	return rc;
}

void background_release(struct background *b)
{
	if (!b)
		return;
	if (b->running)
		background_stop(b, NULL, 0, 0);
	free(b->block);
	free(b->cpus);
	free(b->kwhy);
	strbuf_release(&b->end);
}

int background_around_sample(void *arg, int warm, int after, struct strbuf *why)
{
	struct background *b = arg;

	if (b->running)
		return background_check(b, why);
	if (after || warm || b->died)
		return 0;
	return background_start(b, why);
}
