/* t2110-render: builds comparison models from the sample sets in
 * tests/data/compare-*.samples and checks every renderer against its
 * golden file. KBENCH_REGEN=1 rewrites the golden files instead (review
 * the diff before committing it).
 * Covers: compare/model.c compare/render.c compare/render_common.c compare/render_text.c compare/render_markdown.c compare/render_csv.c compare/render_json.c compare/render_brief.c compare/stat_rows.c */
#include "config.h"
#include "compare/model.h"
#include "compare/render.h"
#include "compare/render_common.h"
#include "db/store.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct render_case {
	const char *data;	/* tests/data/compare-<data>.samples */
	const char *test;	/* --test */
	double alpha;		/* 0: the test's default */
	const char *format;
	const char *golden;	/* tests/data/compare-<golden> */
};

static const struct render_case cases[] = {
	{ "hackbench", "welch", 0, "text", "hackbench.txt" },
	{ "hackbench", "welch", 0, "markdown", "hackbench.md" },
	{ "hackbench", "welch", 0, "csv", "hackbench.csv" },
	{ "hackbench", "welch", 0, "json", "hackbench.json" },
	{ "hackbench", "mwu", 0, "text", "hackbench-mwu.txt" },
	{ "hackbench", "ci", 0, "text", "hackbench-ci.txt" },
	{ "hackbench", "ttest", 0, "text", "hackbench-ttest.txt" },
	{ "hackbench", "welch", 0.001, "text", "hackbench-alpha.txt" },
	{ "netperf", "welch", 0, "text", "netperf.txt" },
	{ "netperf", "welch", 0, "markdown", "netperf.md" },
	{ "netperf", "welch", 0, "csv", "netperf.csv" },
	{ "netperf", "welch", 0, "json", "netperf.json" },
	{ "edge", "welch", 0, "text", "edge.txt" },
	{ "edge", "welch", 0, "markdown", "edge.md" },
	{ "edge", "welch", 0, "csv", "edge.csv" },
	{ "edge", "welch", 0, "json", "edge.json" },
	{ "hackbench", "welch", 0, "brief", "hackbench-brief.txt" },
	{ "netperf", "welch", 0, "brief", "netperf-brief.txt" },
	{ "edge", "welch", 0, "brief", "edge-brief.txt" },
};

/* Split line at tabs into at most max fields; returns the count. */
static int fields(char *line, char **f, int max)
{
	int n = 0;

	while (n < max) {
		f[n++] = line;
		line = strchr(line, '\t');
		if (!line)
			break;
		*line++ = '\0';
	}
	return n;
}

static char *unescape(const char *s)
{
	struct strbuf sb = STRBUF_INIT;

	for (; *s; s++) {
		if (s[0] == '\\' && s[1] == 'n') {
			strbuf_addch(&sb, '\n');
			s++;
		} else {
			strbuf_addch(&sb, *s);
		}
	}
	return strbuf_detach(&sb);
}

/* Two passes: count the runs, then feed the model. */
static int load(const char *path, struct cmp_model *m, const struct stats_test_desc *t,
		double alpha)
{
	struct strbuf text = STRBUF_INIT;
	size_t runs = 0;
	int col = -1, rc = -1, iteration = 0;
	char *p, *line, *save = NULL;

	if (strbuf_read_file(&text, path) < 0)
		goto out;
	for (p = text.buf; (p = strstr(p, "\nrun\t")); p++)
		runs++;
	if (!strncmp(text.buf, "run\t", 4))
		runs++;
	model_init(m, runs, t, alpha);
	for (line = strtok_r(text.buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *f[12];
		int n;

		if (line[0] == '#' || !line[0])
			continue;
		n = fields(line, f, 12);
		if (!strcmp(f[0], "run") && n == 8) {
			char *config = unescape(f[7]);

			col++;
			model_set_run(m, col, f[1], col + 1, "00000000-0000-4000-8000-000000000000",
				      f[2], f[4], atoi(f[3]), "6.1.0", f[5], f[6], config);
			free(config);
			model_begin_run(m);
		} else if (!strcmp(f[0], "s") && n == 10 && col >= 0) {
			struct sample_row r = {
				.section = f[1], .workload = f[2], .row = f[3], .unit = f[4],
				.higher_better = !strcmp(f[5], "higher"),
				.user_ns = atoll(f[6]) * 1000000, .sys_ns = atoll(f[7]) * 1000000,
				.duration_ns = atoll(f[8]) * 1000000,
			};
			char *v, *vsave = NULL;

			for (v = strtok_r(f[9], " ", &vsave); v; v = strtok_r(NULL, " ", &vsave)) {
				r.value = strtod(v, NULL);
				r.iteration = iteration++;
				model_add_sample(m, col, &r);
			}
		} else {
			fprintf(stderr, "%s: bad line '%s'\n", path, line);
			goto out;
		}
	}
	model_finish(m);
	rc = 0;
out:
	strbuf_release(&text);
	return rc;
}

static int run_case(const char *top, const struct render_case *c, int regen)
{
	struct strbuf path = STRBUF_INIT, got = STRBUF_INIT, want = STRBUF_INIT;
	const struct stats_test_desc *t = stats_test_find(c->test);
	struct cmp_model m;
	int good = 0, compared = 0;

	strbuf_addf(&path, "%s/tests/data/compare-%s.samples", top, c->data);
	if (load(path.buf, &m, t, c->alpha ? c->alpha : t->default_alpha)) {
		diag("cannot load %s", path.buf);
		goto out;
	}
	renderer_find(c->format)->render(&m, &got);
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tests/data/compare-%s", top, c->golden);
	if (regen) {
		FILE *f = fopen(path.buf, "w");

		good = f && fwrite(got.buf, 1, got.len, f) == got.len;
		if (f)
			fclose(f);
	} else if (strbuf_read_file(&want, path.buf) < 0) {
		diag("cannot read %s", path.buf);
	} else {
		good = ok_text(got.buf, want.buf, "%s as %s (--test %s) matches compare-%s",
			       c->data, c->format, c->test, c->golden);
		compared = 1;
	}
	model_release(&m);
out:
	if (!compared)
		ok(good, "%s as %s (--test %s) matches compare-%s", c->data, c->format, c->test,
		   c->golden);
	strbuf_release(&path);
	strbuf_release(&got);
	strbuf_release(&want);
	return good;
}

static void add_line(const char *line, void *arg)
{
	strbuf_addf(arg, "%s|\n", line);
}

/* render_wrapped cuts lines at a blank and leaves none at their end, even
 * where two blanks stand together ("*  x.xx%*"). */
static void check_wrapped(void)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	const char *want = "a significant change prints *|\n  x.xx%* instead|\n";

	strbuf_addstr(&text, "a significant change prints *  x.xx%* instead");
	render_wrapped(&text, 30, add_line, &out);
	ok(!strcmp(out.buf, want), "wrapped at 30 columns, no blank before a line's end: "
	   "got '%s'", out.buf);
	strbuf_release(&text);
	strbuf_release(&out);
}

int main(void)
{
	const char *top = getenv("TOP_SRCDIR");
	int regen = getenv("KBENCH_REGEN") != NULL;

	if (!top)
		top = ".";
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		run_case(top, &cases[i], regen);
	check_wrapped();
	return done_testing();
}
