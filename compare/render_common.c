/* render_common: what every comparison renderer shares: the footer, so
 * that the formats say the same thing about the test and the sign, the
 * verdict of a cell, line wrapping and numbers as printed. */
#include "config.h"
#include "compare/render_common.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/work.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LISTED 8

double render_pct(double pct)
{
	return isfinite(pct) ? pct : 0;
}

void render_wrapped(struct strbuf *text, size_t width,
		    void (*line)(const char *line, void *arg), void *arg)
{
	const char *p = text->buf;
	struct strbuf one = STRBUF_INIT;
	int first = 1;

	while (*p) {
		size_t avail = width ? width - (first ? 0 : 2) : strlen(p);
		size_t len = strlen(p), cut;

		if (len <= avail) {
			cut = len;
		} else {
			cut = avail;
			while (cut > 0 && p[cut] != ' ')
				cut--;
			/* No blank at the end of a line ("*  x.xx%*" holds two). */
			while (cut > 0 && p[cut - 1] == ' ')
				cut--;
			if (!cut)	/* one long word: let it overflow */
				cut = strcspn(p, " ");
		}
		strbuf_reset(&one);
		if (!first)
			strbuf_addstr(&one, "  ");
		strbuf_add(&one, p, cut);
		line(one.buf, arg);
		p += cut;
		while (*p == ' ')
			p++;
		first = 0;
	}
	strbuf_release(&one);
	strbuf_reset(text);
}

/* List the rows whose test was skipped for reason. */
static void skipped(const struct cmp_model *m, const char *reason, struct strbuf *sb)
{
	size_t count = 0;

	for (size_t i = 0; i < m->nsections; i++) {
		const struct cmp_section *s = &m->sections[i];

		for (size_t r = 0; r < s->nrows; r++) {
			int hit = 0;

			for (size_t c = 1; c < m->nruns; c++)
				if (s->rows[r].cells[c].test.reason &&
				    !strcmp(s->rows[r].cells[c].test.reason, reason))
					hit = 1;
			if (!hit)
				continue;
			if (count < MAX_LISTED)
				strbuf_addf(sb, "%s %s %s", count ? "," : ":", s->name,
					    s->rows[r].label);
			count++;
		}
	}
	if (count > MAX_LISTED)
		strbuf_addf(sb, " and %zu more", count - MAX_LISTED);
	if (count)
		strbuf_addch(sb, '.');
}

/* Does any cell of the model satisfy what? */
static int any_cell(const struct cmp_model *m, int (*what)(const struct cmp_cell *c))
{
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++)
			for (size_t c = 0; c < m->nruns; c++)
				if (what(&m->sections[i].rows[r].cells[c]))
					return 1;
	return 0;
}

static int between_run(const struct cmp_cell *c)
{
	return c->test.done && c->method == CMP_METHOD_BETWEEN;
}

static int within_only(const struct cmp_cell *c)
{
	return c->test.done && decide_within_only(c);
}

static int noisy(const struct cmp_cell *c)
{
	return c->noisy;
}

/* The range lo..hi of a count over the rows whose noise is known. */
static void noise_range(const struct cmp_model *m, size_t (*count)(const struct noise_estimate *e),
			size_t *lo, size_t *hi)
{
	*lo = (size_t)-1;
	*hi = 0;
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++) {
			const struct cmp_row *row = &m->sections[i].rows[r];
			size_t v;

			if (!row->noise.known)
				continue;
			v = count(&row->noise);
			if (v < *lo)
				*lo = v;
			if (v > *hi)
				*hi = v;
		}
	if (*lo > *hi)
		*lo = *hi;
}

/* "N" or "N-M", then what (plural unless it is exactly 1). */
static void add_range(const struct cmp_model *m, size_t (*count)(const struct noise_estimate *e),
		      const char *what, struct strbuf *sb)
{
	size_t lo, hi;

	noise_range(m, count, &lo, &hi);
	strbuf_addf(sb, "%zu", lo);
	if (hi != lo)
		strbuf_addf(sb, "-%zu", hi);
	if (*what)
		strbuf_addf(sb, " %s%s", what, hi == 1 ? "" : "s");
}

static size_t est_runs(const struct noise_estimate *e) { return e->runs; }
static size_t est_groups(const struct noise_estimate *e) { return e->groups; }
static size_t est_df(const struct noise_estimate *e) { return (size_t)e->df; }
static size_t est_calibration(const struct noise_estimate *e) { return e->calibration; }

/* The rows whose test saw within-run variance only, for the footnote. */
static void list_within_only(const struct cmp_model *m, struct strbuf *sb)
{
	size_t count = 0;

	for (size_t i = 0; i < m->nsections; i++) {
		const struct cmp_section *s = &m->sections[i];

		for (size_t r = 0; r < s->nrows; r++) {
			int hit = 0;

			for (size_t c = 1; c < m->nruns; c++)
				hit |= within_only(&s->rows[r].cells[c]);
			if (!hit)
				continue;
			if (count < MAX_LISTED)
				strbuf_addf(sb, "%s %s %s", count ? "," : " for", s->name,
					    s->rows[r].label);
			count++;
		}
	}
	if (count > MAX_LISTED)
		strbuf_addf(sb, " and %zu more", count - MAX_LISTED);
}

static size_t est_rounds(const struct noise_estimate *e) { return e->rounds; }

static int cannot_tell(const struct cmp_cell *c)
{
	return c->verdict == CMP_VERDICT_CANNOT_TELL;
}

/* The ids as ranges ("#3-#7,#9"), appended. */
static void add_id_ranges(const int64_t *ids, size_t n, struct strbuf *sb)
{
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && ids[j] == ids[j - 1] + 1; j++)
			;
		strbuf_addf(sb, "%s@%lld", i ? "," : "", (long long)ids[i]);
		if (j - i > 1)
			strbuf_addf(sb, "-@%lld", (long long)ids[j - 1]);
	}
}

/* "WHAT to detect 10%: LO-HI." over the rows that say, else "more than
 * MAX" when some rows would need more; nothing when none says. */
static void needed_line(struct strbuf *sb, const char *what, size_t lo, size_t hi, size_t none,
			int max, size_t width, void (*line)(const char *line, void *arg), void *arg)
{
	if (!hi && !none)
		return;
	strbuf_addf(sb, "%s to detect %g%%: ", what, CMP_TARGET_PCT);
	if (!hi)
		strbuf_addf(sb, "more than %d", max);
	else if (hi != lo)
		strbuf_addf(sb, "%zu-%zu", lo, hi);
	else
		strbuf_addf(sb, "%zu", lo);
	strbuf_addch(sb, '.');
	render_wrapped(sb, width, line, arg);
}

/* ". For a verdict: A, B, or C." for the causes the cannot-tell cells
 * have: an experiment's arms want more rounds, other runs calibration,
 * pooled runs or an experiment. */
static void add_ways_to_verdict(const struct cmp_cannot_tell *ct, struct strbuf *sb)
{
	const char *advice[4];
	size_t n = 0;

	if (ct->unknown)
		advice[n++] = "calibrate the baseline (kbench calibrate --runs 3)";
	if (ct->need_hi || ct->need_none)
		advice[n++] = "pool more runs a side (kbench compare --pool)";
	if (ct->paired)
		advice[n++] = "run the experiment with more rounds (kbench ab --rounds N)";
	if (ct->cells > ct->paired)
		advice[n++] = "run an interleaved A/B experiment (kbench ab), which "
			      "cancels the drift between runs";
	strbuf_addstr(sb, ". For a verdict:");
	for (size_t i = 0; i < n; i++)
		strbuf_addf(sb, "%s %s", !i ? "" : i + 1 < n ? "," : ", or", advice[i]);
	strbuf_addch(sb, '.');
}

/* What the cannot-tell cells could have detected, and how to get a
 * verdict. The explanation's wording depends only on which causes occur;
 * the figures follow on short lines of their own, so that a paragraph's
 * wrapping never moves with them. */
static void cannot_tell_footer(const struct cmp_model *m, size_t width,
			       void (*line)(const char *line, void *arg), void *arg)
{
	const struct cmp_cannot_tell *ct = &m->cannot_tell;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "? after a mean row's %: cannot tell, neither a change nor its "
		      "absence is shown:");
	if (ct->unknown)
		strbuf_addstr(&sb, " the between-run noise is unknown");
	if (ct->unknown && ct->nmde)
		strbuf_addstr(&sb, ", or");
	if (ct->nmde)
		strbuf_addf(&sb, " the smallest change these runs detect at %.0f%% power "
			    "exceeds both the change seen and the margin of %g%% (--margin)",
			    NOISE_POWER * 100, m->margin_pct);
	add_ways_to_verdict(ct, &sb);
	render_wrapped(&sb, width, line, arg);

	strbuf_addf(&sb, "Cannot tell: %zu row%s", ct->cells, ct->cells == 1 ? "" : "s");
	if (ct->unknown)
		strbuf_addf(&sb, ", %zu without between-run noise", ct->unknown);
	strbuf_addch(&sb, '.');
	render_wrapped(&sb, width, line, arg);
	if (ct->nmde) {
		strbuf_addf(&sb, "Detectable change: %.1f-%.1f%% (median %.1f%%).",
			    ct->mde_lo, ct->mde_hi, ct->mde_median);
		render_wrapped(&sb, width, line, arg);
	}
	needed_line(&sb, "Runs a side", ct->need_lo, ct->need_hi, ct->need_none,
		    CMP_MAX_RUNS_NEEDED, width, line, arg);
	needed_line(&sb, "Rounds", ct->rounds_lo, ct->rounds_hi, ct->rounds_none,
		    CMP_MAX_ROUNDS_NEEDED, width, line, arg);
	strbuf_release(&sb);
}

/* The outlier runs of the rows' noise, flagged and kept. */
static void outlier_footer(const struct cmp_model *m, struct strbuf *sb)
{
	int64_t *ids = NULL;
	size_t n = 0, alloc = 0, rows = 0;

	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++) {
			int64_t id = m->sections[i].rows[r].noise.outlier_run;
			size_t k = 0;

			if (!id)
				continue;
			rows++;
			while (k < n && ids[k] != id)
				k++;
			if (k == n) {
				ALLOC_GROW(ids, n + 1, alloc);
				ids[n++] = id;
			}
		}
	if (!n)
		return;
	strbuf_addstr(sb, "Outlier run");
	strbuf_addstr(sb, n > 1 ? "s " : " ");
	for (size_t k = 0; k < n; k++)
		strbuf_addf(sb, "%s@%lld", k ? ", " : "", (long long)ids[k]);
	strbuf_addf(sb, ": on %zu row%s a run mean lies more than %g robust sd (1.4826 MAD) "
		    "from its group's median; kept in the noise, which it widens: check the run, "
		    "or pin the noise without it (--noise-from).", rows, rows == 1 ? "" : "s",
		    NOISE_OUTLIER_Z);
	free(ids);
}

/* What the decision knew of the noise between runs, when it is the
 * default one: the estimate it used, or that it had none. */
static void noise_footer(const struct cmp_model *m, size_t width,
			 void (*line)(const char *line, void *arg), void *arg)
{
	struct strbuf sb = STRBUF_INIT;
	int known = any_cell(m, between_run), unknown = any_cell(m, within_only);

	if (known) {
		size_t lo, hi, rlo, rhi, runs_hi;

		strbuf_addstr(&sb, "Between-run noise: from ");
		add_range(m, est_runs, "stored run", &sb);
		noise_range(m, est_runs, &lo, &runs_hi);
		noise_range(m, est_rounds, &rlo, &rhi);
		if (rhi > runs_hi) {
			strbuf_addstr(&sb, " (");
			add_range(m, est_rounds, "round", &sb);
			strbuf_addch(&sb, ')');
		}
		noise_range(m, est_groups, &lo, &hi);
		if (hi > 1) {
			strbuf_addstr(&sb, " in ");
			add_range(m, est_groups, "group", &sb);
		}
		strbuf_addstr(&sb, " of one host, config, options and kernel (df ");
		add_range(m, est_df, "", &sb);
		noise_range(m, est_calibration, &lo, &hi);
		if (hi) {
			strbuf_addstr(&sb, ", ");
			add_range(m, est_calibration, "calibration run", &sb);
		}
		strbuf_addstr(&sb, "); the difference of the run means is tested against it "
			      "plus each side's within-run variance");
		strbuf_addstr(&sb, rhi > runs_hi ? " and its rounds' (rounds are nested in runs)." :
			      ".");
		render_wrapped(&sb, width, line, arg);
	}
	if (known && m->nnoise_runs) {
		strbuf_addstr(&sb, m->noise_pinned ? "Noise pinned to runs " :
			      "Noise read from runs ");
		add_id_ranges(m->noise_runs, m->nnoise_runs, &sb);
		strbuf_addstr(&sb, m->noise_pinned ? "." :
			      ": --noise-from with them gives the same verdicts later.");
		render_wrapped(&sb, width, line, arg);
	}
	if (unknown) {
		strbuf_addstr(&sb, "Between-run noise unknown");
		if (known)
			list_within_only(m, &sb);
		strbuf_addstr(&sb, " (fewer than 3 stored runs of one host, config, options and "
			      "kernel): a test on the samples of two runs ignores the drift between "
			      "them, so it gives no verdict; --within-run shows its stars.");
		render_wrapped(&sb, width, line, arg);
	}
	if (any_cell(m, cannot_tell))
		cannot_tell_footer(m, width, line, arg);
	outlier_footer(m, &sb);
	if (sb.len)
		render_wrapped(&sb, width, line, arg);
	strbuf_release(&sb);
}

static int any_higher(const struct cmp_model *m)
{
	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++)
			if (m->sections[i].rows[r].higher_better)
				return 1;
	return 0;
}

void render_samples(const struct cmp_model *m, size_t c, struct strbuf *sb)
{
	size_t lo = (size_t)-1, hi = 0;

	for (size_t i = 0; i < m->nsections; i++)
		for (size_t r = 0; r < m->sections[i].nrows; r++) {
			size_t n = m->sections[i].rows[r].cells[c].n;

			if (!n)
				continue;
			if (n < lo)
				lo = n;
			if (n > hi)
				hi = n;
		}
	if (!hi)
		lo = 0;
	strbuf_addf(sb, "%zu", lo);
	if (hi != lo)
		strbuf_addf(sb, "-%zu", hi);
	if (m->runs[c].nruns > 1)
		strbuf_addf(sb, " (%zu runs pooled)", m->runs[c].nruns);
}

const char *render_verdict(const struct cmp_row *r, const struct cmp_cell *cell)
{
	if (!cell->test.done || cell->test.reason)
		return "untested";
	if (cell->verdict == CMP_VERDICT_CANNOT_TELL)
		return "cannot tell";
	if (!cell->test.significant)
		return "within noise";
	return render_pct(cell->pct[CMP_MEAN]) >= 0 ? "better" : "worse";
}

int render_within_only(const struct cmp_cell *cell)
{
	return cell->test.done && cell->test.significant && decide_within_only(cell) &&
	       cell->verdict != CMP_VERDICT_CANNOT_TELL;
}

const char *render_test_title(const struct cmp_model *m)
{
	if (m->paired_title)
		return m->paired_title;
	if (model_uses_noise(m) && any_cell(m, between_run))
		return "a t-test of run means with between-run noise";
	return m->test->title;
}

/* What the stars and the signs mean; with FOOTER_NOISE in parts, what the
 * default decision knew of the noise between runs, between the two. */
static void footer_test(const struct cmp_model *m, size_t width, unsigned parts,
			struct strbuf *sb, void (*line)(const char *line, void *arg), void *arg)
{
	/* Without the noise part (one footer for the tables of several
	 * hosts), the title cannot say which noise this model's rows used. */
	const char *title = model_uses_noise(m) && !(parts & FOOTER_NOISE) ?
		"a t-test of run means with between-run noise where known, else Welch's "
		"t-test," : render_test_title(m);

	strbuf_addf(sb, "Significance: %s on the mean row only, alpha %g; a significant "
		    "change prints *  x.xx%%* instead of (  x.xx%%).", title, m->alpha);
	switch (m->test->kind) {
	case STATS_TEST_WELCH:
		if (any_higher(m))
			strbuf_addstr(sb, " Hmean rows are tested on 1/x.");
		break;
	case STATS_TEST_MWU:
		strbuf_addstr(sb, " Two-sided, exact without ties up to 50 samples a side.");
		break;
	case STATS_TEST_CI:
		strbuf_addstr(sb, " Starred when the intervals mean +- z(alpha/2)*sd do not "
			      "overlap (harmonic sd for Hmean).");
		break;
	case STATS_TEST_TTEST:
		strbuf_addstr(sb, " SE from both sample sds, two-sided.");
		break;
	}
	render_wrapped(sb, width, line, arg);
	if (!model_uses_noise(m) && m->nruns > 1) {
		strbuf_addstr(sb, "Within-run test: it sees the samples within each run only and "
			      "ignores drift between runs, so its stars overstate what two runs "
			      "show.");
		render_wrapped(sb, width, line, arg);
	}
	if ((parts & FOOTER_NOISE) && model_uses_noise(m))
		noise_footer(m, width, line, arg);
	strbuf_addstr(sb, "Positive % = better: the sign follows each metric's direction.");
	render_wrapped(sb, width, line, arg);
}

void render_ascii(struct strbuf *out, size_t start)
{
	for (size_t i = start; i < out->len; i++) {
		unsigned char c = (unsigned char)out->buf[i];

		if (c != '\n' && (c < 0x20 || c > 0x7e))
			out->buf[i] = '?';
	}
}

void render_footer(const struct cmp_model *m, size_t width,
		   void (*line)(const char *line, void *arg), void *arg)
{
	render_footer_parts(m, width, FOOTER_ALL, line, arg);
}

/* Into sb (left empty when no run repeated its plan): the rounds of each
 * side, and whether they are the replicates of the test. */
static void footer_rounds(const struct cmp_model *m, struct strbuf *sb)
{
	int any = 0, replicates = 0;

	for (size_t c = 0; c < m->nruns; c++) {
		any |= m->runs[c].rounds > 1;
		replicates |= m->runs[c].rounds >= 3;
	}
	if (!any)
		return;
	strbuf_addstr(sb, "Replicates:");
	for (size_t c = 0; c < m->nruns; c++) {
		int k = m->runs[c].rounds > 1 ? m->runs[c].rounds : 1;

		strbuf_addf(sb, " %s %d round%s%s", m->runs[c].label, k, k == 1 ? "" : "s",
			    c + 1 < m->nruns ? "," : "");
	}
	if (replicates && model_uses_noise(m))
		strbuf_addstr(sb, " per side; rounds are nested in their run: a run of 3 rounds "
			      "or more narrows the round-to-round part of the noise, the "
			      "run-to-run part still counts once per run.");
	else
		strbuf_addstr(sb, " per side; fewer than 3 rounds: each run is one replicate.");
}

/* Into sb (left empty without iterations = auto): how many rows of each
 * side met their CI target, the target and the samples they took. */
static void footer_adaptive(const struct cmp_model *m, struct strbuf *sb)
{
	int any = 0;

	for (size_t c = 0; c < m->nruns; c++)
		any |= m->runs[c].adaptive_rows > 0;
	if (!any)
		return;
	strbuf_addstr(sb, "Adaptive iterations:");
	for (size_t c = 0; c < m->nruns; c++) {
		const struct cmp_run *r = &m->runs[c];

		strbuf_addf(sb, " %s ", r->label);
		if (!r->adaptive_rows) {
			strbuf_addstr(sb, "fixed");
		} else {
			strbuf_addf(sb, "%zu of %zu rows met ci_target %g%%", r->adaptive_met,
				    r->adaptive_rows, r->ci_target_lo * 100);
			if (r->ci_target_hi != r->ci_target_lo)
				strbuf_addf(sb, "-%g%%", r->ci_target_hi * 100);
			strbuf_addf(sb, " (n %d", r->adaptive_n_lo);
			if (r->adaptive_n_hi != r->adaptive_n_lo)
				strbuf_addf(sb, "-%d", r->adaptive_n_hi);
			strbuf_addch(sb, ')');
		}
		strbuf_addch(sb, c + 1 < m->nruns ? ',' : '.');
	}
}

void render_footer_parts(const struct cmp_model *m, size_t width, unsigned parts,
			 void (*line)(const char *line, void *arg), void *arg)
{
	static const struct {
		const char *reason;	/* as the test result gives it */
		const char *footnote;	/* what the footer says before the rows */
	} reasons[] = {
		{ .reason = "fewer than 3 samples on a side",
		  .footnote = "No star, fewer than 3 samples on a side" },
		{ .reason = "Hmean undefined: a sample is zero or negative",
		  .footnote = "No star, Hmean undefined (a sample <= 0; shown as 0.00)" },
		{ .reason = "row missing in a run", .footnote = "No star, row missing in a run" },
		{ .reason = "too few samples for the U test to reach alpha",
		  .footnote = "No star possible, too few samples for the U test to reach alpha" },
	};
	struct strbuf sb = STRBUF_INIT;

	if (parts & FOOTER_TEST)
		footer_test(m, width, parts, &sb, line, arg);
	else if ((parts & FOOTER_NOISE) && model_uses_noise(m))
		noise_footer(m, width, line, arg);
	if (parts & FOOTER_SAMPLES) {
		strbuf_addstr(&sb, "Samples per side:");
		for (size_t c = 0; c < m->nruns; c++) {
			strbuf_addf(&sb, " %s ", m->runs[c].label);
			render_samples(m, c, &sb);
			strbuf_addch(&sb, c + 1 < m->nruns ? ',' : '.');
		}
		render_wrapped(&sb, width, line, arg);
	}
	if (parts & FOOTER_NOTES) {
		footer_rounds(m, &sb);
		if (sb.len)
			render_wrapped(&sb, width, line, arg);
		footer_adaptive(m, &sb);
		if (sb.len)
			render_wrapped(&sb, width, line, arg);
	}
	for (size_t i = 0; (parts & FOOTER_NOTES) && i < sizeof(reasons) / sizeof(reasons[0]); i++) {
		skipped(m, reasons[i].reason, &sb);
		if (sb.len) {
			struct strbuf full = STRBUF_INIT;

			strbuf_addf(&full, "%s%s", reasons[i].footnote, sb.buf);
			strbuf_reset(&sb);
			render_wrapped(&full, width, line, arg);
			strbuf_release(&full);
		}
	}
	if ((parts & FOOTER_NOTES) && any_cell(m, noisy)) {
		strbuf_addf(&sb, "~ before a mean: its CoeffVar is above %g%% or it has fewer than "
			    "3 samples.", m->noise_threshold);
		render_wrapped(&sb, width, line, arg);
	}
	strbuf_release(&sb);
}

void render_work_warning(unsigned different_work, struct strbuf *sb)
{
	int config = !!(different_work & WORK_CONFIG), options = !!(different_work & WORK_OPTIONS);

	strbuf_addf(sb, "the runs measured different work (%s%s%s): a change includes what the "
		    "%s%s%s changed", config ? "Config" : "", config && options ? ", " : "",
		    options ? "Options" : "", config ? "config" : "",
		    config && options ? " and the " : "", options ? "options" : "");
}

void render_kind_warning(const struct cmp_model *m, struct strbuf *sb)
{
	strbuf_addstr(sb, "the runs measured on different kinds, ");
	for (size_t c = 0; c < m->nruns; c++) {
		size_t k;

		for (k = 0; k < c && run_kinds_differ(m->runs[k].facts.kind,
						      m->runs[c].facts.kind); k++)
			;
		if (k < c)
			continue;	/* said already */
		if (c)
			strbuf_addstr(sb, " vs ");
		run_kind_describe(m->runs[c].facts.kind, sb);
	}
	strbuf_addstr(sb, ": a change includes what the kind changed");
}
