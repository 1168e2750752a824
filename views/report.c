/* report: what a command prints when its runs end. After kbench run, the
 * run's own table, then the comparison with the previous complete run on
 * this machine that ran with the same effective options on the same kind
 * (natively, or in a like guest), or why there is none to compare with;
 * after an experiment (kbench ab, kbench vm with several kernels), the
 * comparison of its arms. */
#include "config.h"
#include "views/report.h"
#include "views/output.h"
#include "views/compare_cmdline.h"
#include "runner/effective.h"
#include "compare/compare.h"
#include "compare/work.h"
#include "db/series.h"
#include "db/store.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/experiment.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* How many earlier runs on this machine are looked at. */
#define REPORT_RUNS 200
/* The width of the report's own lines, as of its tables. */
#define REPORT_WIDTH 80

/* The search for the run to compare with. */
struct previous {
	struct store *s;
	const struct run_info *r;	/* the run just made */
	const struct effective *mine;	/* its effective options */
	const char *kind;		/* where it measured (store_run_kind) */
	int64_t same;			/* the newest run with the same options; 0: none */
	int legacy;			/* same: a run stored without its options, matched
					 * by config name */
	int64_t named;			/* else the newest of the same config name */
	struct effective named_opts;	/* its options */
	char *named_kind;		/* where it measured */
	int rc;
};

static int try_previous(int64_t id, const char *config_name, void *arg)
{
	struct previous *pv = arg;
	struct effective have = EFFECTIVE_INIT;
	struct strbuf kind = STRBUF_INIT;
	int same_name = !strcmp(config_name, pv->r->config_name), same_kind;

	if (effective_from_run(pv->s, id, &have) || store_run_kind(pv->s, id, &kind)) {
		effective_release(&have);
		strbuf_release(&kind);
		pv->rc = -1;
		return 1;
	}
	/* A run in a guest is never a native run's baseline, nor one in
	 * another guest. */
	same_kind = !run_kinds_differ(pv->kind, kind.buf);
	if (!same_kind) {
		if (same_name && !pv->named) {
			pv->named = id;
			pv->named_opts = have;
			pv->named_kind = strbuf_detach(&kind);
			return 0;
		}
	} else if (effective_equal(pv->mine, &have)) {
		pv->same = id;
	} else if (!have.n && same_name) {
		/* Runs stored before their sections' options were: today's
		 * config name is all there is to go by. */
		pv->same = id;
		pv->legacy = 1;
	} else if (same_name && !pv->named) {
		pv->named = id;
		pv->named_opts = have;
		pv->named_kind = strbuf_detach(&kind);
		return 0;
	}
	effective_release(&have);
	strbuf_release(&kind);
	return pv->same != 0;
}

/* A paragraph of the report, after an empty line: wrapped within
 * REPORT_WIDTH columns, appended to out. */
__attribute__((format(printf, 2, 3)))
static void say(struct strbuf *out, const char *fmt, ...)
{
	struct strbuf text = STRBUF_INIT;
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(&text, fmt, ap);
	va_end(ap);
	strbuf_addch(out, '\n');
	usage_add_wrapped(out, text.buf, 0, REPORT_WIDTH);
	strbuf_addch(out, '\n');
	strbuf_release(&text);
}

int report_run(struct store *s, int64_t run_id)
{
	struct strbuf out = STRBUF_INIT;
	struct effective mine = EFFECTIVE_INIT;
	struct strbuf kind = STRBUF_INIT;
	struct previous pv = { .s = s, .mine = &mine };
	struct run_info r, p;
	int64_t ids[2];
	int rc = -1;

	if (store_get_run(s, run_id, &r))
		return -1;
	pv.r = &r;
	if (effective_from_run(s, run_id, &mine) || store_run_kind(s, run_id, &kind))
		goto out;
	pv.kind = kind.buf;
	if (store_each_recent_run(s, r.fingerprint, run_id, REPORT_RUNS, try_previous, &pv) ||
	    pv.rc)
		goto out;
	ids[0] = pv.same;
	ids[1] = run_id;
	if (compare_runs_text(s, &run_id, 1, &out))
		goto out;
	printf("run @%lld '%s': %lld samples (%lld failed) in %s\n\n", (long long)r.id,
	       r.name, (long long)r.nsamples, (long long)r.nfailures, store_path(s));
	fputs(out.buf, stdout);
	if (pv.same && !store_get_run(s, pv.same, &p)) {
		strbuf_reset(&out);
		if (pv.legacy)
			say(&out, "Compared with %s (id %lld, %s), the previous complete run of "
			    "config '%s' here (stored without its effective options):", p.name,
			    (long long)p.id, p.started_at, r.config_name);
		else
			say(&out, "Compared with %s (id %lld, %s), the previous complete run here "
			    "with the same effective options:", p.name, (long long)p.id,
			    p.started_at);
		run_info_release(&p);
		strbuf_addch(&out, '\n');
		if (compare_runs_text(s, ids, 2, &out))
			goto out;
		fputs(out.buf, stdout);
	} else if (pv.named && !store_get_run(s, pv.named, &p)) {
		strbuf_reset(&out);
		if (run_kinds_differ(kind.buf, pv.named_kind)) {
			struct strbuf theirs = STRBUF_INIT, ours = STRBUF_INIT;

			run_kind_describe(pv.named_kind, &theirs);
			run_kind_describe(kind.buf, &ours);
			say(&out, "Not compared with %s (id %lld, %s), the previous complete run "
			    "of config '%s' here: it measured on another kind, %s, and this "
			    "one %s", p.name, (long long)p.id, p.started_at, r.config_name,
			    theirs.buf, ours.buf);
			strbuf_release(&theirs);
			strbuf_release(&ours);
		} else {
			say(&out, "Not compared with %s (id %lld, %s), the previous complete run "
			    "of config '%s' here: config differs", p.name, (long long)p.id,
			    p.started_at, r.config_name);
		}
		effective_diff(&pv.named_opts, &mine, &out);
		fputs(out.buf, stdout);
		printf("('kbench compare @%lld @%lld' compares them anyway)\n",
		       (long long)p.id, (long long)r.id);
		run_info_release(&p);
	} else {
		strbuf_reset(&out);
		say(&out, "Nothing to compare with yet: this is the first complete run of config "
		    "'%s' here. Run it again (on the kernel to compare with, say) and the "
		    "report ends with the comparison of the two; 'kbench compare BASE NEW' "
		    "compares any two runs.", r.config_name);
		fputs(out.buf, stdout);
	}
	rc = 0;
out:
	effective_release(&pv.named_opts);
	free(pv.named_kind);
	effective_release(&mine);
	strbuf_release(&kind);
	strbuf_release(&out);
	run_info_release(&r);
	return rc;
}

int report_experiment(struct store *s, const struct experiment *e,
		      enum compare_format f)
{
	/* What kbench compare does by default, but the format. */
	const struct compare_options opt = { .monitors = CMP_MONITORS_SUMMARY };
	struct strbuf out = STRBUF_INIT;
	struct cmp_model model;
	int64_t *ids;
	int rc = -1;

	ids = xcalloc(e->narms, sizeof(*ids));
	for (size_t i = 0; i < e->narms; i++)
		ids[i] = e->arms[i].run_id;
	if (!compare_build_runs(s, ids, e->narms, &opt, &model)) {
		compare_cmdline_say_unfinished(s, &model);
		if (!compare_render(&model, f, &out) && !output_write(NULL, &out))
			rc = 0;
		model_release(&model);
	}
	free(ids);
	strbuf_release(&out);
	return rc;
}
