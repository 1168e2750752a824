/* mmtests_export: kbench runs written as mmtests lays out its results
 * (RUN/iter-N/BENCH/logs/...), the logs in the form mmtests' extraction
 * reads, so that compare-kernels.sh and compare-mmtests.pl table kbench's
 * samples. Every figure is written with as many digits as it takes to
 * read back as the same double. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

struct ex_sample {
	char *section, *workload, *row, *unit;
	int iteration, round;
	double value;
	double user_s, duration_s;
	int64_t duration_ns, user_ns, sys_ns;	/* the sample set's */
	const char *bench;	/* the mmtests benchmark it is written as; NULL:
				 * none */
	int dir;		/* the iter-N directory it is written to */
};

struct ex_run {
	struct run_info info;
	struct ex_sample *v;
	size_t n, alloc;
	long long start, finish;	/* epoch seconds */
	struct strbuf mmtests;		/* the benchmarks, blank-separated */
	struct strbuf config;		/* the config's exports */
	int iterations;			/* iter-N directories written */
};

/* v with the fewest decimals that read back as v, never in exponent form
 * (mmtests' patterns read [0-9.]). */
static void add_exact(double v, struct strbuf *out)
{
	char buf[512];

	for (int prec = 0; prec <= 340; prec++) {
		snprintf(buf, sizeof(buf), "%.*f", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	strbuf_addstr(out, buf);
}

static int collect_sample(const struct sample_row *r, void *arg)
{
	struct ex_run *run = arg;
	struct ex_sample *s;

	if (run->n == run->alloc) {
		run->alloc = run->alloc ? 2 * run->alloc : 64;
		run->v = xrealloc(run->v, run->alloc * sizeof(*run->v));
	}
	s = &run->v[run->n++];
	memset(s, 0, sizeof(*s));
	s->section = xstrdup(r->section);
	s->workload = xstrdup(r->workload);
	s->row = xstrdup(r->row);
	s->unit = xstrdup(r->unit ? r->unit : "");
	s->iteration = r->iteration;
	s->round = r->round;
	s->value = r->value;
	s->user_s = (double)r->user_ns / 1e9;
	s->duration_s = (double)r->duration_ns / 1e9;
	s->duration_ns = r->duration_ns;
	s->user_ns = r->user_ns;
	s->sys_ns = r->sys_ns;
	return 0;
}

static void ex_run_release(struct ex_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->v[i].section);
		free(r->v[i].workload);
		free(r->v[i].row);
		free(r->v[i].unit);
	}
	free(r->v);
	run_info_release(&r->info);
	strbuf_release(&r->mmtests);
	strbuf_release(&r->config);
}

static long long epoch_of(const char *iso)
{
	struct tm tm;

	memset(&tm, 0, sizeof(tm));
	if (!iso || !strptime(iso, "%Y-%m-%dT%H:%M:%S", &tm))
		return 0;
	return (long long)timegm(&tm);
}

/* mkdir -p path. */
static int make_dirs(const char *path)
{
	char *dup = xstrdup(path);
	int rc = 0;

	for (char *p = dup + 1;; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (mkdir(dup, 0755) && errno != EEXIST)
			rc = error("cannot create directory '%s': %s", dup, strerror(errno));
		*p = c;
		if (rc || !c)
			break;
	}
	free(dup);
	return rc;
}

/* Write text to the new file at path (its directory made first). */
static int write_new(const char *path, const struct strbuf *text)
{
	char *dir = xstrdup(path);
	int fd, rc = 0;

	*strrchr(dir, '/') = '\0';
	if (make_dirs(dir)) {
		free(dir);
		return -1;
	}
	free(dir);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (fd < 0 || write_full(fd, text->buf, text->len))
		rc = error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0 && close(fd) && !rc)
		rc = error("cannot write '%s': %s", path, strerror(errno));
	return rc;
}

/* Append text to the file at path (made when absent). */
static int append(const char *path, const struct strbuf *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	int rc = 0;

	if (fd < 0) {
		char *dir = xstrdup(path);

		*strrchr(dir, '/') = '\0';
		rc = make_dirs(dir);
		free(dir);
		if (rc)
			return -1;
		fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	}
	if (fd < 0 || write_full(fd, text->buf, text->len))
		rc = error("cannot write '%s': %s", path, strerror(errno));
	if (fd >= 0)
		close(fd);
	return rc;
}

/* The number after prefix in row ("clients-4" with "clients-"), or 0. */
static long long row_number(const char *row, const char *prefix)
{
	size_t n = strlen(prefix);
	char *end;
	long long v;

	if (strncmp(row, prefix, n) || !row[n] || row[n] == '-' || row[n] == '+')
		return 0;
	v = strtoll(row + n, &end, 10);
	return *end || v <= 0 ? 0 : v;
}

/* How many samples of (section, row) came before sample i: its number in
 * the files that hold one sample each, from 1. */
static int ordinal(const struct ex_run *r, size_t i)
{
	int k = 1;

	for (size_t j = 0; j < i; j++)
		k += !strcmp(r->v[j].section, r->v[i].section) && !strcmp(r->v[j].row, r->v[i].row);
	return k;
}

/* The benchmark's logs directory of iteration iter under root. */
static void logs_dir(struct strbuf *p, const char *root, const struct ex_run *r, int iter,
		     const char *bench)
{
	strbuf_reset(p);
	strbuf_addf(p, "%s/%s/iter-%d/%s/logs", root, r->info.name, iter, bench);
}

static void add_bench(struct ex_run *r, const char *bench)
{
	struct strbuf w = STRBUF_INIT;

	strbuf_addf(&w, " %s ", bench);
	if (!r->mmtests.len)
		strbuf_addch(&r->mmtests, ' ');
	if (!strstr(r->mmtests.buf, w.buf))
		strbuf_addstr(&r->mmtests, w.buf + 1);
	strbuf_release(&w);
}

static int export_hackbench(const char *root, struct ex_run *r, const char *section)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < r->n; i++) {
		long long g = row_number(r->v[i].row, "");

		if (strcmp(r->v[i].section, section) || !g)
			continue;
		/* every invocation appended to hackbench-G, as mmtests now
		 * writes it (its parse-results reads only that) */
		logs_dir(&path, root, r, 0, section);
		strbuf_addf(&path, "/hackbench-%lld", g);
		strbuf_reset(&text);
		strbuf_addf(&text, "# Running 'sched/messaging' benchmark:\n"
			    "# %lld groups == %lld processes run\n\n     Total time: ",
			    g, 40 * g);
		add_exact(r->v[i].value, &text);
		strbuf_addstr(&text, " [sec]\n");
		rc = append(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* netperf: the test from the rows and unit; one output file per sample.
 * The benchmark is named as mmtests names it for that test (netperf-tcp
 * for TCP_STREAM), unless the run has that name already. */
static int export_netperf(const char *root, struct ex_run *r, const char *section,
			  const char **bench)
{
	static const struct {
		const char *proto, *bench;
	} names[] = {
		{ "TCP_RR", "netperf-tcp-rr" }, { "UDP_RR", "netperf-udp-rr" },
		{ "TCP_STREAM", "netperf-tcp" }, { "UDP_STREAM", "netperf-udp" },
	};
	struct strbuf w = STRBUF_INIT;
	const char *proto = NULL;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < r->n && !proto; i++) {
		if (strcmp(r->v[i].section, section))
			continue;
		if (row_number(r->v[i].row, "send-") || row_number(r->v[i].row, "recv-"))
			proto = "UDP_STREAM";
	}
	for (size_t i = 0; i < r->n && !proto; i++)
		if (!strcmp(r->v[i].section, section))
			proto = strcmp(r->v[i].unit, "trans/s") ? "TCP_STREAM" :
				strstr(section, "udp") ? "UDP_RR" : "TCP_RR";
	*bench = section;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_reset(&w);
		strbuf_addf(&w, " %s ", names[i].bench);
		if (!strcmp(names[i].proto, proto) && !strstr(r->mmtests.buf, w.buf))
			*bench = names[i].bench;
	}
	strbuf_release(&w);
	logs_dir(&path, root, r, 0, *bench);
	strbuf_addstr(&path, "/protocols");
	strbuf_addf(&text, "%s\n", proto);
	rc = write_new(path.buf, &text);
	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		long long size = row_number(s->row, "");
		int udp = !strcmp(proto, "UDP_STREAM");

		if (strcmp(s->section, section))
			continue;
		if (udp)
			size = row_number(s->row, "send-");
		if (!size)
			continue;
		logs_dir(&path, root, r, 0, *bench);
		strbuf_addf(&path, "/%s-%lld.%d", proto, size, ordinal(r, i));
		strbuf_reset(&text);
		if (!strcmp(proto, "UDP_STREAM")) {
			struct strbuf recv_row = STRBUF_INIT;
			const struct ex_sample *recv = NULL;

			strbuf_addf(&recv_row, "recv-%lld", size);
			for (size_t j = 0; j < r->n && !recv; j++)
				if (!strcmp(r->v[j].section, section) &&
				    !strcmp(r->v[j].row, recv_row.buf) &&
				    r->v[j].iteration == s->iteration)
					recv = &r->v[j];
			strbuf_release(&recv_row);
			strbuf_addf(&text, "MIGRATED UDP STREAM TEST to 127.0.0.1 () port 0 AF_INET\n"
				    "Socket  Message  Elapsed      Messages\n"
				    "Size    Size     Time         Okay Errors   Throughput\n"
				    "bytes   bytes    secs            #      #   10^6bits/sec\n\n"
				    "0       %lld       %.2f         0      0      ", size,
				    s->duration_s);
			add_exact(s->value, &text);
			strbuf_addf(&text, "\n0                %.2f         0             ",
				    s->duration_s);
			add_exact(recv ? recv->value : 0, &text);
			strbuf_addch(&text, '\n');
		} else if (!strcmp(proto, "TCP_STREAM")) {
			strbuf_addf(&text, "MIGRATED TCP STREAM TEST to 127.0.0.1 () port 0 AF_INET\n"
				    "Recv   Send    Send\n"
				    "Socket Socket  Message  Elapsed\n"
				    "Size   Size    Size     Time     Throughput\n"
				    "bytes  bytes   bytes    secs.    10^6bits/sec\n\n"
				    "0      0       %lld    %.2f    ", size, s->duration_s);
			add_exact(s->value, &text);
			strbuf_addch(&text, '\n');
		} else {
			strbuf_addf(&text, "MIGRATED %s REQUEST/RESPONSE TEST to 127.0.0.1 () port 0 "
				    "AF_INET\nLocal /Remote\n"
				    "Socket Size   Request  Resp.   Elapsed  Trans.\n"
				    "Send   Recv   Size     Size    Time     Rate\n"
				    "bytes  Bytes  bytes    bytes   secs.    per sec\n\n"
				    "0      0      %lld        %lld       %.2f    ",
				    proto[0] == 'U' ? "UDP" : "TCP", size, size, s->duration_s);
			add_exact(s->value, &text);
			strbuf_addch(&text, '\n');
		}
		rc = write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* pft: one line per sample of each worker count, in pft's columns. */
static int export_pft(const char *root, struct ex_run *r, const char *section, const char *bench)
{
	static const char *const cols[] = { "system-", "elapsed-", "faults/cpu-", "faults/sec-" };
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		long long n = row_number(s->row, "system-");
		double v[4] = { 0, 0, 0, 0 };

		if (strcmp(s->section, section) || !n)
			continue;
		/* the sample's other rows: the same iteration, the same count */
		for (size_t j = 0; j < r->n; j++)
			for (size_t c = 0; c < 4; c++)
				if (!strcmp(r->v[j].section, section) &&
				    r->v[j].iteration == s->iteration &&
				    row_number(r->v[j].row, cols[c]) == n)
					v[c] = r->v[j].value;
		/* logs/pft-N.log, as mmtests wrote it last (before 2026, when
		 * pft left it); older mmtests read logs/base/pft-N.log */
		logs_dir(&path, root, r, 0, bench);
		strbuf_addf(&path, "/pft-%lld.log", n);
		strbuf_reset(&text);
		if (access(path.buf, F_OK))
			strbuf_addstr(&text, "MappingSize  Threads CacheLine   UserTime  SysTime "
				      "WallTime flt/cpu/s fault/wsec\n");
		strbuf_addf(&text, "  0 %4lld   0 ", n);
		add_exact(s->user_s, &text);
		for (size_t c = 0; c < 4; c++) {
			strbuf_addstr(&text, c < 2 ? "s " : c == 2 ? "s  " : " ");
			add_exact(v[c], &text);
		}
		strbuf_addch(&text, '\n');
		rc = append(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* tbench: one invocation per client count and iteration, so sample k of
 * a count goes to iter-(k-1). */
static int export_tbench(const char *root, struct ex_run *r, const char *section)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < r->n; i++) {
		long long n = row_number(r->v[i].row, "clients-");
		int k;

		if (strcmp(r->v[i].section, section) || !n)
			continue;
		k = ordinal(r, i);
		if (k > r->iterations)
			r->iterations = k;
		r->v[i].dir = k - 1;
		logs_dir(&path, root, r, k - 1, "tbench");
		strbuf_addf(&path, "/tbench-%lld.log", n);
		strbuf_reset(&text);
		strbuf_addstr(&text, "Throughput ");
		add_exact(r->v[i].value, &text);
		strbuf_addf(&text, " MB/sec  %lld clients  %lld procs  max_latency=0.000 ms\n", n, n);
		rc = write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

static int export_sysbench_cpu(const char *root, struct ex_run *r, const char *section)
{
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; !rc && i < r->n; i++) {
		long long t = row_number(r->v[i].row, "threads-");

		if (strcmp(r->v[i].section, section) || !t)
			continue;
		/* mmtests' current name; its parsers before 2025 read
		 * sysbench-raw-T-I */
		logs_dir(&path, root, r, 0, "sysbenchcpu");
		strbuf_addf(&path, "/benchlog-%lld-_-%d", t, ordinal(r, i));
		strbuf_reset(&text);
		strbuf_addstr(&text, "CPU speed:\n    events per second: ");
		add_exact(r->v[i].value, &text);
		strbuf_addch(&text, '\n');
		rc = write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

/* What one benchmark of an iteration took: the sums over its sample
 * sets (each counted once, as compare's Duration block counts them) of
 * their user and system time and wall time. */
struct ex_times {
	int64_t user_ns, sys_ns, elapsed_ns;
	int any;		/* the benchmark has samples in the iteration */
};

static struct ex_times bench_times(const struct ex_run *r, const char *bench, int iter)
{
	struct ex_times t = { 0, 0, 0, 0 };
	const struct ex_sample *last = NULL;

	for (size_t i = 0; i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];

		if (!s->bench || strcmp(s->bench, bench) || s->dir != iter)
			continue;
		t.any = 1;
		/* The rows of one sample set come together and share its
		 * times: count the set once. */
		if (last && last == s - 1 && !strcmp(last->section, s->section) &&
		    last->iteration == s->iteration && last->round == s->round &&
		    last->duration_ns == s->duration_ns && last->user_ns == s->user_ns &&
		    last->sys_ns == s->sys_ns) {
			last = s;
			continue;
		}
		last = s;
		t.user_ns += s->user_ns;
		t.sys_ns += s->sys_ns;
		t.elapsed_ns += s->duration_ns;
	}
	return t;
}

/* The files every iteration directory holds: what compare-kernels.sh
 * orders runs and finds benchmarks by (tests-activity, as run-mmtests.sh
 * has written it since 2024), the benchmarks' times its Duration table
 * reads (tests-timestamp's "time ::" lines, as /usr/bin/time -f writes
 * them), and the facts import reads. Each benchmark with samples in the
 * iteration is one test, begun when the one before it ended; the
 * iteration's lines go to activity too (mmtests-activity). */
static int write_iteration(const char *root, struct ex_run *r, int iter, struct strbuf *activity)
{
	const struct run_info *in = &r->info;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT, stamps = STRBUF_INIT;
	const char *b = r->mmtests.buf;
	long long t = r->start, end = r->finish > r->start ? r->finish : r->start;
	int rc;

	strbuf_addf(&text, "%lld run-mmtests: Start\n%lld run-mmtests: Iteration %d start\n",
		    r->start, r->start, iter + 1);
	strbuf_addf(&stamps, "start :: %lld\n", r->start);
	while (*b == ' ')
		b++;
	for (const char *e; *b; b = e + strspn(e, " ")) {
		struct strbuf bench = STRBUF_INIT;
		struct ex_times times;
		long long begin = t;

		e = b + strcspn(b, " ");
		strbuf_add(&bench, b, (size_t)(e - b));
		times = bench_times(r, bench.buf, iter);
		if (times.any) {
			t += (long long)((times.elapsed_ns + 500000000) / 1000000000);
			if (t > end)
				t = end;
			strbuf_addf(&text, "%lld run-mmtests: test start :: %s %lld\n"
				    "%lld run-mmtests: test end :: %s %lld 0\n",
				    begin, bench.buf, begin, t, bench.buf, t);
			strbuf_addf(&stamps, "test begin :: %s %lld\ntest end :: %s %lld 0\n"
				    "time :: %s %.2f user %.2f system %.2f elapsed\n",
				    bench.buf, begin, bench.buf, t, bench.buf, times.user_ns / 1e9,
				    times.sys_ns / 1e9, times.elapsed_ns / 1e9);
		}
		strbuf_release(&bench);
	}
	strbuf_addf(&text, "%lld run-mmtests: Iteration %d end\n", end, iter + 1);
	if (iter == r->iterations - 1)
		strbuf_addf(&text, "%lld run-mmtests: End\n", end);
	strbuf_addf(&stamps, "finish :: %lld\n", r->finish);
	strbuf_add(activity, text.buf, text.len);
	strbuf_addf(&path, "%s/%s/iter-%d/tests-activity", root, in->name, iter);
	rc = write_new(path.buf, &text);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/tests-timestamp", root, in->name, iter);
	rc = rc ? rc : write_new(path.buf, &stamps);

	strbuf_reset(&text);
	strbuf_addf(&text, "Linux %s %s %s\n", in->hostname,
		    in->kernel_release && *in->kernel_release ? in->kernel_release : "unknown",
		    in->kernel_version ? in->kernel_version : "");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/kernel.version", root, in->name, iter);
	rc = rc ? rc : write_new(path.buf, &text);

	strbuf_reset(&text);
	strbuf_addf(&text, "version :: kbench-%s\n",
		    in->kbench_version ? in->kbench_version : PACKAGE_VERSION);
	if (in->mem_bytes)
		strbuf_addf(&text, "MemTotal:       %llu kB\n",
			    (unsigned long long)(in->mem_bytes >> 10));
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/tests-sysstate", root, in->name, iter);
	rc = rc ? rc : write_new(path.buf, &text);

	strbuf_reset(&text);
	strbuf_addf(&text, "Model name:          %s\nCPU(s):              %d\n",
		    in->cpu_model ? in->cpu_model : "unknown", in->cpus);
	if (in->numa_nodes)
		strbuf_addf(&text, "NUMA node(s):        %d\n", in->numa_nodes);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/lscpu.txt", root, in->name, iter);
	rc = rc ? rc : write_new(path.buf, &text);
	strbuf_release(&path);
	strbuf_release(&text);
	strbuf_release(&stamps);
	return rc;
}

/* Write run r under root; skipped hears of the sections left out. */
static int export_run(const char *root, struct ex_run *r,
		      int (*skipped)(const char *, const char *, const char *, void *), void *arg)
{
	struct strbuf done = STRBUF_INIT, path = STRBUF_INIT, activity = STRBUF_INIT;
	int rc = 0, npft = 0;

	r->iterations = 1;
	strbuf_addch(&done, '\n');
	for (size_t i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].workload, "pft") && !strstr(done.buf, r->v[i].section)) {
			npft++;
			strbuf_addf(&done, "%s\n", r->v[i].section);
		}
	strbuf_reset(&done);
	strbuf_addch(&done, '\n');
	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		struct strbuf key = STRBUF_INIT;
		const char *bench = NULL;

		strbuf_addf(&key, "\n%s\n", s->section);
		if (strstr(done.buf, key.buf)) {
			strbuf_release(&key);
			continue;
		}
		strbuf_addstr(&done, key.buf + 1);
		strbuf_release(&key);
		if (strchr(s->section, '/') || s->section[0] == '.') {
			if (skipped && skipped(r->info.name, s->section,
					       "its name cannot name a directory", arg))
				rc = -1;
			continue;
		}
		if (!strcmp(s->workload, "hackbench")) {
			bench = s->section;
			rc = export_hackbench(root, r, bench);
		} else if (!strcmp(s->workload, "netperf")) {
			rc = export_netperf(root, r, s->section, &bench);
		} else if (!strcmp(s->workload, "pft")) {
			bench = npft == 1 ? "pft" : s->section;
			if (!strcmp(s->section, "pft-processes") || !strcmp(s->section, "pft-threads"))
				strbuf_addf(&r->config, "export PFT_USE_PROCESSES=%s\n",
					    s->section[4] == 'p' ? "yes" : "no");
			rc = export_pft(root, r, s->section, bench);
		} else if (!strcmp(s->section, "tbench") && row_number(s->row, "clients-")) {
			bench = "tbench";
			rc = export_tbench(root, r, s->section);
		} else if (!strcmp(s->section, "sysbench-cpu") && row_number(s->row, "threads-")) {
			bench = "sysbenchcpu";
			rc = export_sysbench_cpu(root, r, s->section);
		} else if (skipped &&
			   skipped(r->info.name, s->section, "no mmtests benchmark reads it", arg)) {
			rc = -1;
		}
		if (bench) {
			add_bench(r, bench);
			for (size_t j = i; j < r->n; j++)
				if (!strcmp(r->v[j].section, s->section))
					r->v[j].bench = bench;
		}
	}
	for (int k = 0; !rc && k < r->iterations; k++)
		rc = write_iteration(root, r, k, &activity);
	/* The run's activity, as mmtests writes it beside the iterations
	 * since 2024 (compare-kernels.sh reads it when a run of the
	 * directory has one). */
	if (!rc) {
		strbuf_addf(&activity, "%lld status :: 0\n",
			    r->finish > r->start ? r->finish : r->start);
		strbuf_addf(&path, "%s/%s/mmtests-activity", root, r->info.name);
		rc = write_new(path.buf, &activity);
		strbuf_reset(&path);
	}
	if (!rc) {
		struct strbuf text = STRBUF_INIT;

		strbuf_rtrim(&r->mmtests);
		strbuf_addf(&text, "### kbench run %s of config %s, exported\nexport MMTESTS=\"%s\"\n%s",
			    r->info.uuid, r->info.config_name ? r->info.config_name : "-",
			    r->mmtests.buf + (r->mmtests.len > 0), r->config.buf);
		strbuf_addf(&path, "%s/%s/config", root, r->info.name);
		rc = write_new(path.buf, &text);
		strbuf_release(&text);
	}
	strbuf_release(&done);
	strbuf_release(&path);
	strbuf_release(&activity);
	return rc;
}

static int remove_entry(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) && errno != ENOENT ? -1 : 0;
}

int mmtests_export(struct store *s, const int64_t *run_ids, size_t n, const char *dir,
		   int (*skipped)(const char *run, const char *section, const char *why,
				  void *arg), void *arg)
{
	struct ex_run *runs = xcalloc(n ? n : 1, sizeof(*runs));
	struct strbuf tmp = STRBUF_INIT, path = STRBUF_INIT, to = STRBUF_INIT;
	size_t got = 0, moved = 0;
	int rc = -1;

	for (; got < n; got++) {
		struct ex_run *r = &runs[got];

		if (store_get_run(s, run_ids[got], &r->info))
			goto out;
		if (strchr(r->info.name, '/') || !strcmp(r->info.name, ".") ||
		    !strcmp(r->info.name, "..")) {
			error("run @%lld: its name '%s' cannot name a directory of mmtests' "
			      "layout", (long long)r->info.id, name_printable(r->info.name));
			got++;
			goto out;
		}
		for (size_t j = 0; j < got; j++)
			if (!strcmp(runs[j].info.name, r->info.name)) {
				error("runs @%lld and @%lld are both named '%s': mmtests' layout "
				      "holds one run of a name", (long long)runs[j].info.id,
				      (long long)r->info.id, name_printable(r->info.name));
				got++;
				goto out;
			}
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, r->info.name);
		if (!access(path.buf, F_OK)) {
			error("'%s' already exists: export writes new run directories", path.buf);
			got++;
			goto out;
		}
		r->start = epoch_of(r->info.started_at);
		r->finish = r->info.finished_at ? epoch_of(r->info.finished_at) : r->start;
		if (store_each_sample(s, run_ids[got], collect_sample, r)) {
			got++;
			goto out;
		}
	}
	if (make_dirs(dir))
		goto out;
	strbuf_addf(&tmp, "%s/.kbench-export-XXXXXX", dir);
	if (!mkdtemp(tmp.buf)) {
		error("cannot make a directory in '%s': %s", dir, strerror(errno));
		strbuf_reset(&tmp);
		goto out;
	}
	for (size_t i = 0; i < n; i++)
		if (export_run(tmp.buf, &runs[i], skipped, arg))
			goto out;
	for (; moved < n; moved++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", tmp.buf, runs[moved].info.name);
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/%s", dir, runs[moved].info.name);
		if (rename(path.buf, to.buf)) {
			error("cannot move '%s' to '%s': %s", path.buf, to.buf, strerror(errno));
			goto out;
		}
	}
	rc = 0;
out:
	/* what was moved already goes too: nothing is left on failure */
	for (size_t i = 0; rc && i < moved; i++) {
		strbuf_reset(&to);
		strbuf_addf(&to, "%s/%s", dir, runs[i].info.name);
		nftw(to.buf, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	}
	if (tmp.len)
		nftw(tmp.buf, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
	for (size_t i = 0; i < got; i++)
		ex_run_release(&runs[i]);
	free(runs);
	strbuf_release(&tmp);
	strbuf_release(&path);
	strbuf_release(&to);
	return rc;
}
