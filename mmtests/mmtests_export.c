/* mmtests_export: kbench runs written as mmtests lays out its results
 * (RUN/iter-N/BENCH/logs/...), the logs in the form mmtests' extraction
 * reads, so that compare-kernels.sh and compare-mmtests.pl table kbench's
 * samples. Every figure is written with as many digits as it takes to
 * read back as the same double. Each benchmark's logs are written by its
 * entry of the table in mmtests_benches.c. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "mmtests/mmtests_bench.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>


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
	rc = mmtests_write_new(path.buf, &text);

	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/tests-timestamp", root, in->name, iter);
	rc = rc ? rc : mmtests_write_new(path.buf, &stamps);

	strbuf_reset(&text);
	strbuf_addf(&text, "Linux %s %s %s\n", in->hostname,
		    in->kernel_release && *in->kernel_release ? in->kernel_release : "unknown",
		    in->kernel_version ? in->kernel_version : "");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/kernel.version", root, in->name, iter);
	rc = rc ? rc : mmtests_write_new(path.buf, &text);

	strbuf_reset(&text);
	strbuf_addf(&text, "version :: kbench-%s\n",
		    in->kbench_version ? in->kbench_version : PACKAGE_VERSION);
	if (in->mem_bytes)
		strbuf_addf(&text, "MemTotal:       %llu kB\n",
			    (unsigned long long)(in->mem_bytes >> 10));
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/tests-sysstate", root, in->name, iter);
	rc = rc ? rc : mmtests_write_new(path.buf, &text);

	strbuf_reset(&text);
	strbuf_addf(&text, "Model name:          %s\nCPU(s):              %d\n",
		    in->cpu_model ? in->cpu_model : "unknown", in->cpus);
	if (in->numa_nodes)
		strbuf_addf(&text, "NUMA node(s):        %d\n", in->numa_nodes);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/%s/iter-%d/lscpu.txt", root, in->name, iter);
	rc = rc ? rc : mmtests_write_new(path.buf, &text);
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
	int rc = 0;

	r->iterations = 1;
	strbuf_addch(&done, '\n');
	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		struct strbuf key = STRBUF_INIT;
		const struct mmtests_bench *b;
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
		if ((b = mmtests_find_export(s))) {
			rc = b->export(root, r, s->section, &bench);
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
		rc = mmtests_write_new(path.buf, &activity);
		strbuf_reset(&path);
	}
	if (!rc) {
		struct strbuf text = STRBUF_INIT;

		strbuf_rtrim(&r->mmtests);
		strbuf_addf(&text, "### kbench run %s of config %s, exported\nexport MMTESTS=\"%s\"\n%s",
			    r->info.uuid, r->info.config_name ? r->info.config_name : "-",
			    r->mmtests.buf + (r->mmtests.len > 0), r->config.buf);
		strbuf_addf(&path, "%s/%s/config", root, r->info.name);
		rc = mmtests_write_new(path.buf, &text);
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
	if (mmtests_make_dirs(dir))
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
