/* t7340-store-import: store_import, a bundle's runs added to a store: a
 * dry run counts what it would add, shows each run to the callback and
 * changes nothing; the import adds the runs the store lacks with their
 * samples and machine, counted; a second import adds nothing and finds
 * every run present; a bundle whose machine the store knows by its
 * fingerprint with other facts is refused, naming both, and the store is
 * left as it was; a file that is no bundle is refused when opened.
 * Covers: db/bundle.c */
#include "config.h"
#include "db/store.h"
#include "machine/sysinfo.h"
#include "tests/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define UUID1 "aaaaaaaa-0000-4000-8000-000000000001"
#define UUID2 "bbbbbbbb-0000-4000-8000-000000000002"

static int add_run(struct store *s, char *host, const char *name, const char *uuid,
		   int nsets, int64_t *id)
{
	struct machine_info m = { .hostname = host, .cpu_model = "cpu", .cpus = 2, .cores = 2,
				  .packages = 1, .numa_nodes = 1, .mem_bytes = 1 << 30,
				  .topology_xml = "", .fingerprint = "fp1" };
	struct kernel_info k = { .release = "6.18.0", .version = "#1", .cmdline = "quiet" };
	struct run_record r = { .uuid = uuid, .name = name, .config_name = "quick",
				.config_text = "[hackbench-a]\n", .kbench_version = "t",
				.started_at = "2026-11-29T00:00:00Z" };
	struct sample_record rec[2] = { { "1", 0.5, "s", 0 }, { "2", 0.9, "s", 0 } };
	struct sample_set set = { .section = "hackbench-a", .workload = "hackbench",
				  .samples = rec, .nsamples = 2 };

	if (store_begin_run(s, &m, &k, &r, id))
		return -1;
	for (int i = 1; i <= nsets; i++) {
		set.iteration = i;
		if (store_add_sample_set(s, *id, &set))
			return -1;
	}
	return store_finish_run(s, *id, "complete", "2026-11-29T00:01:00Z");
}

struct seen {
	int runs, present;
	int64_t samples;
	int names_ok;
};

static int seen_cb(const struct bundle_run *r, void *arg)
{
	struct seen *s = arg;

	s->runs++;
	s->present += r->present;
	s->samples += r->nsamples;
	if ((!strcmp(r->uuid, UUID1) && !strcmp(r->name, "base")) ||
	    (!strcmp(r->uuid, UUID2) && !strcmp(r->name, "new")))
		s->names_ok++;
	return 0;
}

static int64_t runs_in(struct store *s)
{
	int64_t n = -1;

	return store_count_runs(s, &n) ? -1 : n;
}

/* store_import with its stderr in err (len bytes). */
static int import_quiet(struct store *s, struct bundle *b, int dry_run, struct seen *seen,
			struct import_counts *c, char *err, size_t len)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = store_import(s, b, dry_run, seen ? seen_cb : NULL, seen, c);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(err, 1, len - 1, tmp);
	err[n] = '\0';
	fclose(tmp);
	return rc;
}

int main(void)
{
	char host_h[] = "h", host_h2[] = "h2";
	char dir[] = "t7340.XXXXXX", a[64], b_path[64], c[64], d[64], junk[64], err[1024];
	struct store *from = NULL, *to = NULL, *other = NULL;
	struct bundle *b = NULL, *none = NULL;
	struct import_counts n;
	struct seen seen = { 0 };
	int64_t ids[2], id;
	FILE *f;
	int rc;

	setenv("KBENCH_HOSTNAME", "h", 1);
	if (!mkdtemp(dir))
		return 1;
	snprintf(a, sizeof(a), "%s/a.db", dir);
	snprintf(b_path, sizeof(b_path), "%s/runs.kbench", dir);
	snprintf(c, sizeof(c), "%s/c.db", dir);
	snprintf(d, sizeof(d), "%s/d.db", dir);
	snprintf(junk, sizeof(junk), "%s/junk.kbench", dir);

	/* A store of two runs (3 and 2 sample sets of 2 rows), exported. */
	ok(!store_open(a, &from) && !add_run(from, host_h, "base", UUID1, 3, &ids[0]) &&
	   !add_run(from, host_h, "new", UUID2, 2, &ids[1]) &&
	   !store_export(from, ids, 2, b_path), "two runs exported into a bundle");
	store_close(from);
	ok(!bundle_open(b_path, &b), "the bundle opens");

	/* A dry run: counted, shown, nothing added. */
	ok(!store_open(c, &to), "an empty store");
	rc = import_quiet(to, b, 1, &seen, &n, err, sizeof(err));
	ok(rc == 0 && n.runs == 2 && n.present == 0 && n.machines == 1 && n.samples == 10,
	   "dry run: 2 runs, 1 machine, 10 samples would be added (rc %d: %zu, %zu, %lld)%s", rc,
	   n.runs, n.machines, (long long)n.samples, err);
	ok(seen.runs == 2 && seen.names_ok == 2 && !seen.present && seen.samples == 10,
	   "the callback saw each run with its uuid, name and samples (%d runs, %lld samples)",
	   seen.runs, (long long)seen.samples);
	ok(runs_in(to) == 0, "the dry run added nothing (%lld runs)", (long long)runs_in(to));

	/* The import. */
	rc = import_quiet(to, b, 0, NULL, &n, err, sizeof(err));
	ok(rc == 0 && n.runs == 2 && n.present == 0 && n.machines == 1 && n.samples == 10,
	   "import: 2 runs, 1 machine, 10 samples added (rc %d)%s", rc, err);
	ok(runs_in(to) == 2, "the store holds the 2 runs");

	/* Again: every run present, nothing added. */
	memset(&seen, 0, sizeof(seen));
	rc = import_quiet(to, b, 0, &seen, &n, err, sizeof(err));
	ok(rc == 0 && n.runs == 0 && n.present == 2 && n.machines == 0 && n.samples == 0 &&
	   seen.present == 2, "a second import adds nothing: 2 runs present");
	ok(runs_in(to) == 2, "still 2 runs");
	store_close(to);

	/* The machine's fingerprint, known here as another host. */
	ok(!store_open(d, &other) &&
	   !add_run(other, host_h2, "mine", "cccccccc-0000-4000-8000-000000000003", 1, &id),
	   "a store whose machine fp1 is host h2");
	rc = import_quiet(other, b, 0, NULL, &n, err, sizeof(err));
	ok(rc == -1 && strstr(err, b_path) && strstr(err, d) &&
	   strstr(err, "machine fingerprint 'fp1' is host 'h' there but a different machine ('h2')"),
	   "a machine known with other facts refuses the bundle: %s", err);
	ok(runs_in(other) == 1, "nothing of it was added (%lld runs)", (long long)runs_in(other));
	store_close(other);
	bundle_close(b);

	/* A file that is no SQLite database is no bundle. */
	f = fopen(junk, "w");
	fputs("not a bundle\n", f);
	fclose(f);
	ok(bundle_open(junk, &none) == -1 && !none,
	   "a text file is refused as a bundle");

	unlink(a);
	unlink(b_path);
	unlink(c);
	unlink(d);
	unlink(junk);
	rmdir(dir);
	return done_testing();
}
