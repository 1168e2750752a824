/* mmtests: an mmtests results directory (work/log/<run>/iter-N/<bench>/logs)
 * read into kbench runs. Every run of the directory is read and checked
 * first, into a private bundle, which store_import() then adds as it adds
 * any bundle: in one transaction, idempotent by uuid, nothing stored on a
 * refusal. Expects years of runs: thousands of small log files. What
 * each benchmark directory holds is read by its entry of the table in
 * mmtests_benches.c. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "mmtests/mmtests_bench.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"
#include "machine/sysinfo.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* ---- a run ---- */

static void run_release(struct mm_run *r)
{
	free(r->name);
	free(r->path);
	machine_info_release(&r->m);
	kernel_info_release(&r->k);
	free(r->mmtests_version);
	free(r->config_text);
	free(r->unfinished);
	for (size_t i = 0; i < r->nsets; i++) {
		free(r->sets[i].section);
		for (size_t j = 0; j < r->sets[i].n; j++)
			free((char *)r->sets[i].r[j].row);
	}
	free(r->sets);
	for (size_t i = 0; i < r->ncounts; i++)
		free(r->counts[i].key);
	free(r->counts);
	for (size_t i = 0; i < r->nskips; i++) {
		free(r->skips[i].bench);
		free(r->skips[i].why);
	}
	free(r->skips);
	strbuf_release(&r->benches);
}


/* ---- facts ---- */

/* uname -a: "Linux HOST RELEASE VERSION... MACHINE... GNU/Linux". */
static void read_uname(struct mm_run *r, char *text)
{
	static const char *const arch[] = { "x86_64", "i386", "i486", "i586", "i686",
		"aarch64", "armv7l", "ppc64le", "ppc64", "s390x", "riscv64", "loongarch64",
		"mips64", "unknown", "GNU/Linux", NULL };
	char *f[64];
	size_t n = 0, end;
	struct strbuf v = STRBUF_INIT;

	for (char *t = strtok(text, " \t\n"); t && n < 64; t = strtok(NULL, " \t\n"))
		f[n++] = t;
	if (n < 3)
		return;
	free(r->m.hostname);
	r->m.hostname = xstrdup(f[1]);
	r->k.release = xstrdup(f[2]);
	for (end = n; end > 3; end--) {
		size_t a;

		for (a = 0; arch[a] && strcmp(arch[a], f[end - 1]); a++)
			;
		if (!arch[a])
			break;
	}
	for (size_t i = 3; i < end; i++)
		strbuf_addf(&v, "%s%s", i > 3 ? " " : "", f[i]);
	if (v.len)
		r->k.version = strbuf_detach(&v);
	strbuf_release(&v);
}

/* The value after "KEY" on the first line of text that starts with it,
 * trimmed (NULL when it has none), and that line's number in *lineno (0:
 * no line starts with key; lineno may be NULL). */
static char *line_value_at(const char *text, const char *key, size_t *lineno)
{
	size_t k = strlen(key), n = 0;

	if (lineno)
		*lineno = 0;
	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");

		n++;
		if (len >= k && !strncmp(l, key, k)) {
			const char *v = l + k;

			if (lineno)
				*lineno = n;
			while (v < l + len && isspace((unsigned char)*v))
				v++;
			while (len && isspace((unsigned char)l[len - 1]))
				len--;
			return v < l + len ? strndup(v, (size_t)(l + len - v)) : NULL;
		}
	}
	return NULL;
}

static char *line_value(const char *text, const char *key)
{
	return line_value_at(text, key, NULL);
}

/* The largest count of CPUs, cores, sockets or nodes taken from lscpu:
 * Linux's own bound (NR_CPUS) is at most 8192 on every architecture. */
#define MMTESTS_COUNT_MAX 1048576

/* The count after key in file's text into *out: 0 when there is none,
 * or it is lscpu's '-' (what it does not know). Return 0, or -1 after
 * printing why for anything else but a count from 1 to
 * MMTESTS_COUNT_MAX ("0", "-8", "many", a count followed by more than
 * blanks). */
static int count_value(const char *file, const char *text, const char *key, int *out)
{
	size_t line;
	char *v = line_value_at(text, key, &line), *end = NULL;
	long long n = 0;
	int rc = 0;

	*out = 0;
	if (!v || !strcmp(v, "-"))
		goto out;
	errno = 0;
	if (isdigit((unsigned char)*v))
		n = strtoll(v, &end, 10);
	if (end && n > MMTESTS_COUNT_MAX)
		rc = error("%s:%zu: expected a count of at most %d after '%s', found '%s'", file,
			   line, MMTESTS_COUNT_MAX, key, v);
	else if (!end || errno || *end || n < 1)
		rc = error("%s:%zu: expected a count from 1 to %d (or '-') after '%s', found '%s'",
			   file, line, MMTESTS_COUNT_MAX, key, v);
	else
		*out = (int)n;
out:
	free(v);
	return rc;
}

/* The latest time taken from tests-timestamp: the end of 9999, in seconds
 * since 1970 (what gmtime() can write as a four-digit year). */
#define MMTESTS_EPOCH_MAX 253402300799LL

/* "start :: EPOCH" or "finish :: EPOCH" in file's text into *t, and its
 * line into *lineno; -1 when no line starts with key. Return 0, or -1
 * after printing why for a line whose value is not seconds since 1970
 * (0, the first second of 1970, is no time a run was made at). */
static int stamp(const char *file, const char *text, const char *key, long long *t,
		 size_t *lineno)
{
	size_t line;
	char *v = line_value_at(text, key, &line), *end = NULL;
	int rc = 0;

	*t = -1;
	*lineno = line;
	if (!line)
		return 0;
	errno = 0;
	if (v && isdigit((unsigned char)*v))
		*t = strtoll(v, &end, 10);
	if (!end || *end || errno || *t < 1 || *t > MMTESTS_EPOCH_MAX) {
		rc = error("%s:%zu: expected seconds since 1970 (from 1 to %lld) after '%s', found "
			   "'%s'", file, line, MMTESTS_EPOCH_MAX, key, v ? v : "");
		*t = -1;
	}
	free(v);
	return rc;
}

/* "MemTotal: N kB" of file's text, in bytes, into *bytes (0: none, or
 * not a number). Return 0, or -1 after printing why for a size past an
 * exbibyte. */
static int mem_value(const char *file, const char *text, uint64_t *bytes)
{
	size_t line;
	char *v = line_value_at(text, "MemTotal:", &line), *end;
	unsigned long long kb;
	int rc = 0;

	*bytes = 0;
	if (!v)
		goto out;
	errno = 0;
	if (!isdigit((unsigned char)*v))
		rc = error("%s:%zu: expected a size in kB from 1 to 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	if (rc)
		goto out;
	kb = strtoull(v, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || (*end && strcmp(end, "kB")) || kb > (1ULL << 50))
		rc = error("%s:%zu: expected a size in kB of at most 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	else if (!kb)
		rc = error("%s:%zu: expected a size in kB from 1 to 2^50 after 'MemTotal:', "
			   "found '%s'", file, line, v);
	else
		*bytes = (uint64_t)kb << 10;
out:
	free(v);
	return rc;
}

/* What the first iteration (iter) says of the run and its machine, and
 * the last (last) of its end. */
static int read_facts(struct mm_ctx *c, struct mm_run *r, const char *iter, const char *last)
{
	struct strbuf path = STRBUF_INIT;
	int rc, per_socket;
	size_t line;

	r->m.cpu_model = NULL;
	strbuf_addf(&path, "%s/kernel.version", iter);
	if ((rc = mmtests_read_file(path.buf, &c->text)) < 0)
		goto out;
	if (!rc)
		read_uname(r, c->text.buf);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/lscpu.txt", iter);
	if ((rc = mmtests_read_file_gz(&path, &c->text)) < 0)
		goto out;
	if (!rc) {
		r->m.cpu_model = line_value(c->text.buf, "Model name:");
		if (count_value(path.buf, c->text.buf, "CPU(s):", &r->m.cpus) ||
		    count_value(path.buf, c->text.buf, "Socket(s):", &r->m.packages) ||
		    count_value(path.buf, c->text.buf, "Core(s) per socket:", &per_socket) ||
		    count_value(path.buf, c->text.buf, "NUMA node(s):", &r->m.numa_nodes)) {
			rc = -1;
			goto out;
		}
		if ((long long)per_socket * r->m.packages > MMTESTS_COUNT_MAX) {
			rc = error("%s: expected at most %d cores, found %d per socket on %d sockets",
				   path.buf, MMTESTS_COUNT_MAX, per_socket, r->m.packages);
			goto out;
		}
		r->m.cores = per_socket * r->m.packages;
	}
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-sysstate", iter);
	if ((rc = mmtests_read_file_gz(&path, &c->text)) < 0)
		goto out;
	if (!rc) {
		r->mmtests_version = line_value(c->text.buf, "version ::");
		if ((rc = mem_value(path.buf, c->text.buf, &r->m.mem_bytes)))
			goto out;
	}
	r->start = r->finish = -1;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-timestamp", iter);
	if ((rc = mmtests_read_file(path.buf, &c->text)) < 0 ||
	    (!rc && (rc = stamp(path.buf, c->text.buf, "start ::", &r->start, &line))))
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests-timestamp", last);
	if ((rc = mmtests_read_file(path.buf, &c->text)) < 0 ||
	    (!rc && (rc = stamp(path.buf, c->text.buf, "finish ::", &r->finish, &line))))
		goto out;
	if (r->start >= 0 && r->finish >= 0 && r->finish < r->start) {
		rc = error("%s:%zu: expected a finish no earlier than the start (%lld), found "
			   "'finish :: %lld'", path.buf, line, r->start, r->finish);
		goto out;
	}
	for (int i = 0; i < 2 && !r->config_text; i++) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/config", i ? iter : r->path);
		if ((rc = mmtests_read_file(path.buf, &c->text)) < 0)
			goto out;
		if (!rc)
			r->config_text = xstrdup(c->text.buf);
	}
	if (!r->m.cpu_model)
		r->m.cpu_model = xstrdup("unknown");
	rc = 0;
out:
	strbuf_release(&path);
	return rc;
}

/* Whether name is an iteration directory's: iter-N. */
static int is_iter(const char *name)
{
	static const char *const none[] = { "", NULL };

	return mmtests_name_number(name, "iter-", none, NULL) || !strcmp(name, "iter-0");
}

/* Whether text has a line that starts with key. */
static int has_line(const char *text, const char *key)
{
	size_t line;

	free(line_value_at(text, key, &line));
	return line > 0;
}

/* The last occurrence of what in text, or NULL. */
static const char *last_of(const char *text, const char *what)
{
	const char *at = NULL;

	for (const char *p = text; (p = strstr(p, what)); p++)
		at = p;
	return at;
}

/* Set r->unfinished when the files of run r (iterations iters) say that
 * mmtests has not finished it: a tests-timestamp with 'start ::' but no
 * 'finish ::' (an iteration under way), an iteration without one beside
 * iterations with one (an iteration being set up), a tests-activity whose
 * last 'run-mmtests: Start' has no 'run-mmtests: End' after it (between
 * iterations, or a second run begun in the same directory).
 * A run whose files say none of it (an older mmtests, a copy without
 * them) counts as finished. Return 0, or -1 after printing why. */
static int check_finished(struct mm_ctx *c, struct mm_run *r, const struct mm_names *iters)
{
	struct strbuf path = STRBUF_INIT, why = STRBUF_INIT;
	const char *missing = NULL;
	int stamped = 0, rc = 0;

	for (size_t i = 0; i < iters->n && !why.len; i++) {
		if (!is_iter(iters->v[i]))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s/tests-timestamp", r->path, iters->v[i]);
		if ((rc = mmtests_read_file(path.buf, &c->text)) < 0)
			goto out;
		if (rc) {
			missing = missing ? missing : iters->v[i];
			continue;
		}
		stamped = 1;
		if (has_line(c->text.buf, "start ::") && !has_line(c->text.buf, "finish ::"))
			strbuf_addf(&why, "%s/tests-timestamp has 'start ::' but no 'finish ::'",
				    iters->v[i]);
	}
	if (!why.len && stamped && missing)
		strbuf_addf(&why, "%s has no tests-timestamp, beside iterations that have one",
			    missing);
	if (!why.len) {
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/tests-activity", r->path);
		if ((rc = mmtests_read_file(path.buf, &c->text)) < 0)
			goto out;
		if (!rc) {
			const char *start = last_of(c->text.buf, "run-mmtests: Start");
			const char *end = last_of(c->text.buf, "run-mmtests: End");

			if (start && !end)
				strbuf_addstr(&why, "tests-activity has 'run-mmtests: Start' but no "
					      "'run-mmtests: End'");
			else if (start && end < start)
				strbuf_addstr(&why, "tests-activity has 'run-mmtests: Start' after "
					      "its last 'run-mmtests: End'");
		}
	}
	if (why.len)
		r->unfinished = strbuf_detach(&why);
	rc = 0;
out:
	strbuf_release(&path);
	strbuf_release(&why);
	return rc;
}

/* Read the run directory path (named name) into r. Return 0, 1 when it
 * is not a run (no iter-N directory), or -1 after printing why. */
static int read_run(struct mm_ctx *c, const char *path, const char *name, struct mm_run *r)
{
	struct mm_names iters, entries = { 0 };
	struct strbuf iter = STRBUF_INIT, last = STRBUF_INIT, logs = STRBUF_INIT;
	const char *why;
	int rc = mmtests_list_dir(path, &iters), any = 0;

	memset(r, 0, sizeof(*r));
	r->name = xstrdup(name);
	r->path = xstrdup(path);
	r->m.hostname = xstrdup("unknown");
	if (rc)
		goto out;
	for (size_t i = 0; i < iters.n; i++) {
		if (!is_iter(iters.v[i]))
			continue;
		strbuf_reset(&last);
		strbuf_addf(&last, "%s/%s", path, iters.v[i]);
		if (!any++)
			strbuf_addstr(&iter, last.buf);
	}
	if (!any) {
		rc = 1;
		goto out;
	}
	why = name_invalid(NAME_RUN, name, strlen(name), NULL);
	if (why) {
		rc = error("%s: invalid run name '%s': %s", path, name_printable(name), why);
		goto out;
	}
	if ((rc = read_facts(c, r, iter.buf, last.buf)) || (rc = check_finished(c, r, &iters)))
		goto out;
	why = name_invalid(NAME_HOST, r->m.hostname, strlen(r->m.hostname), NULL);
	if (why) {
		rc = error("%s/kernel.version: invalid host name '%s': %s", iter.buf,
			   name_printable(r->m.hostname), why);
		goto out;
	}
	for (size_t i = 0; !rc && i < iters.n; i++) {
		if (!is_iter(iters.v[i]))
			continue;
		strbuf_reset(&iter);
		strbuf_addf(&iter, "%s/%s", path, iters.v[i]);
		mmtests_names_release(&entries);
		if ((rc = mmtests_list_dir(iter.buf, &entries)))
			break;
		for (size_t j = 0; !rc && j < entries.n; j++) {
			const struct mmtests_bench *b;

			strbuf_reset(&logs);
			strbuf_addf(&logs, "%s/%s/logs", iter.buf, entries.v[j]);
			if (!path_is_dir(logs.buf))
				continue;
			b = mmtests_find_bench(entries.v[j]);
			if (!b)
				mmtests_skip(r, entries.v[j], "not a workload kbench has");
			else if (!b->import)
				mmtests_skip(r, entries.v[j], b->why);
			else
				rc = b->import(c, r, entries.v[j], logs.buf);
		}
	}
out:
	mmtests_names_release(&iters);
	mmtests_names_release(&entries);
	strbuf_release(&iter);
	strbuf_release(&last);
	strbuf_release(&logs);
	return rc;
}

/* ---- into a bundle ---- */

static void iso_time(long long epoch, char out[32])
{
	time_t t = (time_t)epoch;
	struct tm tm;

	if (epoch < 0 || !gmtime_r(&t, &tm))
		snprintf(out, 32, "1970-01-01T00:00:00Z");
	else
		strftime(out, 32, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* The facts a run keeps of where it came from (run_meta). */
static int run_facts(struct store *s, int64_t run_id, void *arg)
{
	struct mm_run *r = arg;

	if (store_add_meta(s, run_id, "", "imported", "mmtests") ||
	    store_add_meta(s, run_id, "", "mmtests-run", r->name) ||
	    (r->mmtests_version &&
	     store_add_meta(s, run_id, "", "mmtests-version", r->mmtests_version)) ||
	    (r->unfinished && store_add_meta(s, run_id, "", "mmtests-unfinished", r->unfinished)))
		return -1;
	for (const char *l = r->benches.buf + (r->benches.len > 0); *l; l = strchr(l, '\n') + 1) {
		char *line = strndup(l, strcspn(l, "\n"));
		char *tab = strchr(line, '\t');
		int rc;

		*tab = '\0';
		rc = store_add_meta(s, run_id, line, "mmtests-benchmark", tab + 1);
		free(line);
		if (rc)
			return -1;
	}
	return 0;
}

/* What run r holds, appended to id: its kernel version, mmtests
 * version, config and every sample, in the order they were read. */
static void run_contents(const struct mm_run *r, struct strbuf *id)
{
	strbuf_addf(id, "\n%s\n%s\n%s", r->k.version ? r->k.version : "",
		    r->mmtests_version ? r->mmtests_version : "",
		    r->config_text ? r->config_text : "");
	for (size_t i = 0; i < r->nsets; i++)
		for (size_t j = 0; j < r->sets[i].n; j++)
			strbuf_addf(id, "\n%s\t%s\t%d\t%.17g", r->sets[i].section,
				    r->sets[i].r[j].row, r->sets[i].iteration,
				    r->sets[i].r[j].value);
}

/* The machine of s that run r was measured on, when its files are what
 * kbench export --mmtests wrote (tests-sysstate's version is kbench-V)
 * of a machine s holds (store_adopt_machine()): its facts then replace
 * r's, so that the run joins that machine; with none, or several, r's
 * stand. Return 0, or -1 after an error reading s. */
static int adopt_machine(struct store *s, struct mm_run *r)
{
	return store_adopt_machine(s, &r->m) < 0 ? -1 : 0;
}

/* Write run r into the bundle store b; its machine is one of s when
 * adopt_machine() finds it there. */
static int write_run(struct store *s, struct store *b, struct mm_run *r)
{
	char started[32], finished[32], uuid[37];
	struct strbuf id = STRBUF_INIT;
	struct run_record rec = {
		.name = r->name,
		.config_name = "mmtests",
		.config_text = r->config_text,
		.kbench_version = PACKAGE_VERSION,
		.started_at = started,
		.facts = run_facts,
		.facts_arg = r,
	};
	int64_t run_id;
	int rc = 0;

	iso_time(r->start, started);
	iso_time(r->finish >= 0 && !r->unfinished ? r->finish : r->start, finished);
	machine_info_set_fingerprint(&r->m);
	strbuf_addf(&id, "mmtests\n%s\n%s\n%s\n%lld", r->m.fingerprint, r->name,
		    r->k.release ? r->k.release : "", r->start);
	/* Without a start time, host, name and release may be shared by
	 * other runs: what the run holds tells it from them. */
	if (r->start < 0)
		run_contents(r, &id);
	/* Imported unfinished, a run stays so: once mmtests has finished it,
	 * it is another run, imported beside this one. */
	if (r->unfinished)
		strbuf_addstr(&id, "\nunfinished");
	uuid_from_text(id.buf, uuid);
	rec.uuid = uuid;
	/* The run's identity is the files' whatever the store holds: its
	 * machine may then be one the store knows better. */
	if (r->mmtests_version && !strncmp(r->mmtests_version, "kbench-", 7) &&
	    adopt_machine(s, r))
		rc = -1;
	else
		machine_info_set_fingerprint(&r->m);
	if (!rc && store_begin_run(b, &r->m, &r->k, &rec, &run_id))
		rc = -1;
	for (size_t i = 0; !rc && i < r->nsets; i++) {
		struct sample_set set = {
			.section = r->sets[i].section,
			.workload = r->sets[i].workload,
			.iteration = r->sets[i].iteration,
			.round = 1,
			.samples = r->sets[i].r,
			.nsamples = r->sets[i].n,
		};

		rc = store_add_sample_set(b, run_id, &set);
	}
	if (!rc)
		rc = store_finish_run(b, run_id, r->unfinished ? "interrupted" : "complete",
				      finished);
	strbuf_release(&id);
	return rc;
}

int mmtests_check_dir(const char *dir)
{
	if (!path_is_dir(dir))
		return error("'%s' is not a directory: --mmtests reads a results directory "
			     "(work/log)", dir);
	return 0;
}

int mmtests_import(struct store *s, const char *dir, unsigned flags,
		   const struct mmtests_import_cbs *cbs, struct import_counts *c)
{
	struct mm_ctx ctx = { .text = STRBUF_INIT, .err = STRBUF_INIT };
	struct mm_run *runs = NULL;
	size_t nruns = 0;
	struct mm_names entries = { 0 };
	struct strbuf path = STRBUF_INIT, tmpdir = STRBUF_INIT, file = STRBUF_INIT;
	struct store *b = NULL;
	struct bundle *bundle = NULL;
	const char *tmp = getenv("TMPDIR");
	char *real = NULL, *base;
	size_t nwrite = 0, nunfinished = 0;
	int rc = -1;

	memset(c, 0, sizeof(*c));
	if (mmtests_check_dir(dir))
		return -1;
	ctx.parser = mmtests_parser_new();
	if (!ctx.parser)
		goto out;
	/* dir is one run when it holds iter-N itself, else a directory of
	 * runs. The run is named as the directory is, not as dir reaches it
	 * (DIR/.., a trailing '/', '.'). */
	real = realpath(dir, NULL);
	if (!real) {
		error("cannot resolve '%s': %s", dir, strerror(errno));
		goto out;
	}
	base = strrchr(real, '/');
	runs = xcalloc(1, sizeof(*runs));
	rc = read_run(&ctx, dir, base && base[1] ? base + 1 : real, &runs[0]);
	if (rc < 0) {
		nruns = 1;
		goto out;
	}
	if (!rc) {
		nruns = 1;
	} else {
		run_release(&runs[0]);
		if (mmtests_list_dir(dir, &entries))
			goto out;
		for (size_t i = 0; i < entries.n; i++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir, entries.v[i]);
			if (!path_is_dir(path.buf))
				continue;
			runs = xrealloc(runs, (nruns + 1) * sizeof(*runs));
			rc = read_run(&ctx, path.buf, entries.v[i], &runs[nruns]);
			if (rc > 0) {
				run_release(&runs[nruns]);
				continue;
			}
			nruns++;
			if (rc)
				goto out;
		}
	}
	rc = -1;
	if (!nruns) {
		error("%s: no mmtests runs (RUN/iter-N directories) there", dir);
		goto out;
	}
	/* A run mmtests has not finished is left for a later import, which
	 * then takes it whole, unless asked for as it is. */
	for (size_t i = 0; i < nruns; i++) {
		struct mm_run *r = &runs[i];

		if (r->unfinished && !(flags & MMTESTS_UNFINISHED)) {
			nunfinished++;
			strbuf_reset(&path);
			strbuf_addf(&path, "mmtests has not finished it (%s); import it once it has, "
				    "or with --unfinished", r->unfinished);
			if (cbs && cbs->skipped && cbs->skipped(r->name, NULL, path.buf, cbs->arg))
				goto out;
			continue;
		}
		nwrite++;
		for (size_t j = 0; cbs && cbs->skipped && j < r->nskips; j++)
			if (cbs->skipped(r->name, r->skips[j].bench, r->skips[j].why, cbs->arg))
				goto out;
	}
	if (!nwrite) {
		error("%s: no finished mmtests run there (%zu unfinished: import again once "
		      "mmtests has finished, or with --unfinished)", dir, nunfinished);
		goto out;
	}

	/* The runs into a private bundle, then that into the store. */
	strbuf_addf(&tmpdir, "%s/kbench-mmtests-XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir.buf)) {
		error("cannot make a scratch directory '%s': %s", tmpdir.buf, strerror(errno));
		strbuf_reset(&tmpdir);
		goto out;
	}
	strbuf_addf(&file, "%s/runs.kbench", tmpdir.buf);
	if (store_open_scratch(file.buf, &b))
		goto out;
	for (size_t i = 0; i < nruns; i++)
		if ((!runs[i].unfinished || (flags & MMTESTS_UNFINISHED)) && write_run(s, b, &runs[i]))
			goto out;
	store_close(b);
	b = NULL;
	if (bundle_open_as(file.buf, dir, &bundle) ||
	    store_import(s, bundle, !!(flags & MMTESTS_DRY_RUN), cbs ? cbs->run : NULL,
			 cbs ? cbs->arg : NULL, c))
		goto out;
	rc = 0;
out:
	bundle_close(bundle);
	store_close(b);
	if (file.len)
		store_remove_scratch(file.buf);
	if (tmpdir.len)
		rmdir(tmpdir.buf);
	for (size_t i = 0; i < nruns; i++)
		run_release(&runs[i]);
	free(runs);
	free(real);
	mmtests_names_release(&entries);
	mmtests_parser_free(ctx.parser);
	mmtests_values_release(&ctx.vals);
	strbuf_release(&ctx.text);
	strbuf_release(&ctx.err);
	strbuf_release(&path);
	strbuf_release(&tmpdir);
	strbuf_release(&file);
	return rc;
}
