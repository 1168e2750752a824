/* render_html: the comparison as one self-contained HTML page: the header
 * block, per section its table (significant means coloured by their
 * direction), its charts (each row's mean with its 95% CI per run, and
 * the samples as dots, drawn by gnuplot) and its blocks, then the footer. */
#include "config.h"
#include "compare/render.h"
#include "compare/decide.h"
#include "compare/model.h"
#include "compare/render_facts.h"
#include "lib/plot.h"
#include "compare/render_common.h"
#include "lib/html.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "workloads/workload.h"

#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The runs' colours in the charts (Okabe and Ito's, told apart by most
 * colour-blind readers), in column order, then again. */
static const unsigned run_colours[] = {
	0x0072b2, 0xd55e00, 0x009e73, 0xcc79a7, 0xe69f00, 0x56b4e9, 0x000000, 0x999999,
};
#define NCOLOURS (sizeof(run_colours) / sizeof(run_colours[0]))

/* A chart of more samples than this draws each run's samples of a row as
 * a box (quartiles, extremes) instead of a dot each: a page of a million
 * samples stays small and quick to draw. */
#define DOTS_MAX 2000
/* Rows spanning more than this factor go on a logarithmic x axis. */
#define LOG_SPAN 20.0
/* More tics than this are drawn at an angle. */
#define FLAT_TICS 10

/* The rows of a section that share a chart: those whose labels differ in
 * their last number only (x is that number), or those without a number
 * and with the same unit (one x position each). */
struct family {
	char *shape;		/* the label, its last number as 'N' ("send-N") */
	const char *unit;
	int higher_better;
	int numeric;
	const struct cmp_row **rows;
	double *x;		/* numeric: each row's number */
	size_t n;
};

/* The last run of digits of label: its value in *number and the label
 * with it as 'N' in *shape (malloc'd). 0 when label has no digit. */
static int label_number(const char *label, double *number, char **shape)
{
	const char *start = NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t len;

	for (const char *p = label; *p; p++)
		if (*p >= '0' && *p <= '9' && (p == label || p[-1] < '0' || p[-1] > '9'))
			start = p;
	if (!start)
		return 0;
	len = strspn(start, "0123456789");
	*number = strtod(start, NULL);
	strbuf_add(&sb, label, (size_t)(start - label));
	strbuf_addch(&sb, 'N');
	strbuf_addstr(&sb, start + len);
	*shape = strbuf_detach(&sb);
	return 1;
}

static size_t section_families(const struct cmp_section *s, struct family **out)
{
	struct family *fams = NULL;
	size_t n = 0, alloc = 0;

	for (size_t r = 0; r < s->nrows; r++) {
		const struct cmp_row *row = &s->rows[r];
		char *shape = NULL;
		double number = 0;
		int numeric = label_number(row->label, &number, &shape);
		struct family *f = NULL;

		if (!numeric)
			shape = xstrdup("");
		for (size_t i = 0; i < n && !f; i++)
			if (fams[i].numeric == numeric && !strcmp(fams[i].shape, shape) &&
			    !strcmp(fams[i].unit, row->unit) &&
			    fams[i].higher_better == row->higher_better)
				f = &fams[i];
		if (!f) {
			ALLOC_GROW(fams, n + 1, alloc);
			f = &fams[n++];
			*f = (struct family){
				.shape = shape,
				.unit = row->unit,
				.higher_better = row->higher_better,
				.numeric = numeric,
				.rows = xcalloc(s->nrows, sizeof(*f->rows)),
				.x = xcalloc(s->nrows, sizeof(*f->x)),
			};
		} else {
			free(shape);
		}
		f->rows[f->n] = row;
		f->x[f->n] = numeric ? number : (double)(f->n + 1);
		f->n++;
	}
	*out = fams;
	return n;
}

static void families_free(struct family *fams, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(fams[i].shape);
		free(fams[i].rows);
		free(fams[i].x);
	}
	free(fams);
}

/* The half-width of the 95% CI of a cell's mean, as kbench history
 * computes it: t(0.975, n-1) s / sqrt(n) for Amean; for Hmean the same on
 * 1/x, carried to the scale of x by the delta method. NaN below 2
 * samples or without a mean. */
static double mean_ci95(const struct cmp_cell *cell, int higher_better)
{
	double q, mean = cell->s.mean, ci;
	double *inv;

	if (cell->n < 2 || !isfinite(mean))
		return NAN;
	q = gsl_cdf_tdist_Qinv(0.025, (double)(cell->n - 1));
	if (!higher_better)
		return q * cell->s.stddev / sqrt((double)cell->n);
	inv = xcalloc(cell->n, sizeof(*inv));
	for (size_t i = 0; i < cell->n; i++)
		inv[i] = 1 / cell->samples[i];
	ci = q * stats_stddev(inv, cell->n) / sqrt((double)cell->n) * mean * mean;
	free(inv);
	return ci;
}

/* How a family's chart places its points on the x axis. */
struct layout {
	int logx;
	double step;		/* between the runs of a row, on the axis' scale */
	size_t nruns;
};

/* Set up p's x axis for f (its range, a tic a row) and return its layout:
 * the rows' numbers on a log axis when they span more than LOG_SPAN, else
 * a linear one; rows without a number at 1, 2, ... and labelled; the runs
 * of a row side by side within half the gap between rows. */
static struct layout family_axis(const struct family *f, size_t nruns, struct plot *p)
{
	struct layout l = { .nruns = nruns };
	struct strbuf tic = STRBUF_INIT;
	double lo = f->x[0], hi = f->x[0], gap = INFINITY;

	for (size_t i = 0; i < f->n; i++) {
		lo = fmin(lo, f->x[i]);
		hi = fmax(hi, f->x[i]);
	}
	l.logx = f->numeric && lo > 0 && hi / lo > LOG_SPAN;
	for (size_t i = 0; i < f->n; i++)
		for (size_t j = 0; j < i; j++) {
			double d = l.logx ? fabs(log(f->x[i] / f->x[j])) : fabs(f->x[i] - f->x[j]);

			if (d > 0 && d < gap)
				gap = d;
		}
	if (!isfinite(gap))
		gap = l.logx ? log(2) : 1;
	l.step = gap / 2 / (double)nruns;
	p->xaxis = l.logx ? PLOT_X_LOG : PLOT_X_LINEAR;
	p->xmin = l.logx ? lo * exp(-gap / 2) : lo - gap / 2;
	p->xmax = l.logx ? hi * exp(gap / 2) : hi + gap / 2;
	for (size_t i = 0; i < f->n; i++) {
		strbuf_reset(&tic);
		if (f->numeric)
			strbuf_addf(&tic, "%g", f->x[i]);
		else
			strbuf_addstr(&tic, f->rows[i]->label);
		plot_add_tic(p, f->x[i], tic.buf);
	}
	p->xtics_rotate = f->n > FLAT_TICS;
	strbuf_release(&tic);
	return l;
}

/* Where a point of run col at row position x goes: the run's place beside
 * the others, moved by spread steps (samples: a little to either side). */
static double place(const struct layout *l, double x, size_t col, double spread)
{
	double at = (l->logx ? log(x) : x) +
		    ((double)col - ((double)l->nruns - 1) / 2 + spread) * l->step;

	return l->logx ? exp(at) : at;
}

/* The samples of run col in f's rows, as dots, or as a box a row when
 * boxes is set. */
static void add_samples(const struct family *f, const struct layout *l, size_t col,
			const char *label, int boxes, struct plot_series *ps)
{
	struct strbuf title = STRBUF_INIT;

	for (size_t i = 0; i < f->n; i++) {
		const struct cmp_row *row = f->rows[i];
		const struct cmp_cell *cell = &row->cells[col];
		double x = place(l, f->x[i], col, 0), w = l->step * 0.7;

		if (boxes)
			plot_add_summary(ps, x, l->logx ? x * (exp(w / 2) - exp(-w / 2)) : w,
					 cell->samples, cell->n, NULL);
		for (size_t k = 0; k < cell->n && !boxes; k++) {
			strbuf_reset(&title);
			strbuf_addf(&title, "%s, row %s: sample %zu, %.*f%s%s", label, row->label,
				    k + 1, row->decimals, cell->samples[k], *row->unit ? " " : "",
				    row->unit);
			plot_add_point(ps, place(l, f->x[i], col, plot_jitter(k) * 0.7),
				       cell->samples[k], NAN, NAN, title.buf);
		}
	}
	strbuf_release(&title);
}

/* The means of run col in f's rows with their 95% CIs. */
static void add_means(const struct family *f, const struct layout *l, size_t col,
		      const char *label, struct plot_series *ps)
{
	const char *mean = cmp_stat_name(CMP_MEAN, f->higher_better);
	struct strbuf title = STRBUF_INIT;

	for (size_t i = 0; i < f->n; i++) {
		const struct cmp_row *row = f->rows[i];
		const struct cmp_cell *cell = &row->cells[col];
		double ci = mean_ci95(cell, row->higher_better);
		int d = row->decimals;

		if (!cell->n)
			continue;
		strbuf_reset(&title);
		strbuf_addf(&title, "%s, row %s: %s %.*f", label, row->label, mean, d,
			    cell->s.mean);
		if (isfinite(ci))
			strbuf_addf(&title, " +- %.*f", d, ci);
		strbuf_addf(&title, "%s%s%s, %zu sample%s", *row->unit ? " " : "", row->unit,
			    isfinite(ci) ? " (95% CI)" : "", cell->n, cell->n == 1 ? "" : "s");
		plot_add_point(ps, place(l, f->x[i], col, 0), cell->s.mean, cell->s.mean - ci,
			       cell->s.mean + ci, title.buf);
	}
	strbuf_release(&title);
}

/* The chart of family f of section s: per run, its samples as dots, then
 * per run its means joined by a line (drawn over the dots). */
static void family_chart(const struct cmp_model *m, const struct cmp_section *s,
			 const struct family *f, struct plot_page *pg, struct strbuf *out)
{
	struct plot p;
	struct strbuf ylabel = STRBUF_INIT, caption = STRBUF_INIT, title = STRBUF_INIT;
	const struct workload_ops *w = workload_find(s->workload ? s->workload : "");
	struct layout l;
	size_t nsamples = 0;
	int boxes;

	for (size_t i = 0; i < f->n; i++)
		for (size_t c = 0; c < m->nruns; c++)
			nsamples += f->rows[i]->cells[c].n;
	boxes = nsamples > DOTS_MAX;
	plot_init(&p);
	l = family_axis(f, m->nruns, &p);
	/* x: the workload's row option ("groups"), or N, and the rows' shape
	 * when it is more than their number ("N (send-N)"). */
	strbuf_addstr(&title, !f->numeric ? "row" : w && w->row_option ? w->row_option : "N");
	if (f->numeric && strcmp(f->shape, "N"))
		strbuf_addf(&title, " (%s)", f->shape);
	plot_set_xlabel(&p, title.buf);
	strbuf_addf(&ylabel, "%s%s%s%s", cmp_stat_name(CMP_MEAN, f->higher_better),
		    *f->unit ? " (" : "", f->unit, *f->unit ? ")" : "");
	plot_set_ylabel(&p, ylabel.buf);
	for (size_t c = 0; c < m->nruns; c++) {
		strbuf_reset(&title);
		strbuf_addf(&title, "%s: samples", m->runs[c].label);
		add_samples(f, &l, c, m->runs[c].label, boxes,
			    plot_add_series(&p, boxes ? PLOT_BOXES : PLOT_POINTS,
					    run_colours[c % NCOLOURS], title.buf));
	}
	for (size_t c = 0; c < m->nruns; c++) {
		struct plot_series *ps = plot_add_series(&p, PLOT_ERRORLINES,
							 run_colours[c % NCOLOURS],
							 m->runs[c].label);

		ps->legend = 1;
		add_means(f, &l, c, m->runs[c].label, ps);
	}
	/* "stream: send-N, Hmean (Mbit/s), higher is better, x on a log scale" */
	strbuf_addf(&caption, "%s: ", s->name);
	if (f->numeric && strcmp(f->shape, "N"))
		strbuf_addf(&caption, "%s, ", f->shape);
	strbuf_addf(&caption, "%s, %s is better%s", ylabel.buf,
		    f->higher_better ? "higher" : "lower", l.logx ? ", x on a log scale" : "");
	plot_figure(pg, &p, caption.buf, out);
	plot_release(&p);
	strbuf_release(&ylabel);
	strbuf_release(&caption);
	strbuf_release(&title);
}

/* The class of a mean-row cell: its verdict against the baseline
 * (better, worse, noise, or cannot for a ? cell). */
static const char *cell_class(const struct cmp_row *row, const struct cmp_cell *cell,
			      enum cmp_stat st, size_t col)
{
	const char *v;

	if (st != CMP_MEAN || !col)
		return NULL;
	v = render_verdict(row, cell);
	if (!strcmp(v, "better") || !strcmp(v, "worse"))
		return v;
	if (!strcmp(v, "cannot tell"))
		return "cannot";
	return strcmp(v, "within noise") ? NULL : "noise";
}

static void run_headers(const struct cmp_model *m, struct strbuf *out, const char *first,
			const char *second, int pct)
{
	strbuf_addf(out, "<thead><tr><th>%s</th><th>%s</th>", first, second);
	for (size_t c = 0; c < m->nruns; c++) {
		strbuf_addstr(out, pct ? "<th colspan=\"2\">" : "<th>");
		html_escape(out, m->runs[c].label);
		strbuf_addstr(out, "</th>");
	}
	strbuf_addstr(out, "</tr></thead>\n");
}

static void stat_cell(const struct cmp_model *m, const struct cmp_row *row, size_t c,
		      enum cmp_stat st, struct strbuf *out)
{
	const struct cmp_cell *cell = &row->cells[c];
	const char *cls = cell_class(row, cell, st, c);
	double v = cmp_stat_value(&cell->s, st);
	int star = cls && (!strcmp(cls, "better") || !strcmp(cls, "worse"));

	strbuf_addf(out, "<td class=\"num%s%s\">", cls ? " " : "", cls ? cls : "");
	/* A noisy mean is marked ~ as in the text table, where the footer
	 * explains it: not in one run's report, which has no footer. */
	if (cell->n && st == CMP_MEAN && cell->noisy && m->nruns > 1)
		strbuf_addf(out, "~%.*f", row->decimals, isnan(v) ? 0.0 : v);
	else if (cell->n)
		strbuf_addf(out, "%.*f", row->decimals, isnan(v) ? 0.0 : v);
	else
		strbuf_addch(out, '-');
	strbuf_addstr(out, "</td>");
	if (m->nruns < 2)
		return;
	strbuf_addf(out, "<td class=\"num%s%s\"", cls ? " " : "", cls ? cls : "");
	if (st == CMP_MEAN && c && cell->n) {
		strbuf_addf(out, " title=\"%s", render_verdict(row, cell));
		if (cell->test.done && isfinite(cell->test.p))
			strbuf_addf(out, ", p %.3g", cell->test.p);
		strbuf_addch(out, '"');
	}
	strbuf_addch(out, '>');
	if (cell->n && st == CMP_MEAN && c && cell->verdict == CMP_VERDICT_CANNOT_TELL)
		strbuf_addf(out, "?%.2f%%?", render_pct(cell->pct[st]));
	else if (cell->n)
		strbuf_addf(out, star ? "*%.2f%%*" : "(%.2f%%)", render_pct(cell->pct[st]));
	strbuf_addstr(out, "</td>");
}

static void section_table(const struct cmp_model *m, const struct cmp_section *s,
			  struct strbuf *out)
{
	enum cmp_stat stats[CMP_NSTATS];
	size_t nstats = cmp_stats_shown(m, stats);

	strbuf_addstr(out, "<table class=\"cmp\">\n");
	run_headers(m, out, "Stat", "Row", m->nruns > 1);
	strbuf_addstr(out, "<tbody>\n");
	for (size_t i = 0; i < nstats; i++)
		for (size_t r = 0; r < s->nrows; r++) {
			const struct cmp_row *row = &s->rows[r];

			strbuf_addf(out, "<tr%s><td>%s</td><td>",
				    stats[i] == CMP_MEAN ? " class=\"mean\"" : "",
				    cmp_stat_name(stats[i], row->higher_better));
			html_escape(out, row->label);
			strbuf_addstr(out, "</td>");
			for (size_t c = 0; c < m->nruns; c++)
				stat_cell(m, row, c, stats[i], out);
			strbuf_addstr(out, "</tr>\n");
		}
	strbuf_addstr(out, "</tbody>\n</table>\n");
}

static void block_table(const struct cmp_model *m, const struct cmp_block *b,
			struct strbuf *out)
{
	strbuf_addstr(out, "<table class=\"block\">\n");
	strbuf_addstr(out, "<caption>");
	html_escape(out, b->name);
	if (b->title) {
		strbuf_addstr(out, " (");
		html_escape(out, b->title);
		strbuf_addch(out, ')');
	}
	strbuf_addstr(out, "</caption>\n");
	run_headers(m, out, "Block", "Key", 0);
	strbuf_addstr(out, "<tbody>\n");
	for (size_t k = 0; k < b->nkeys; k++) {
		strbuf_addstr(out, "<tr><td>");
		html_escape(out, b->name);
		strbuf_addstr(out, "</td><td>");
		html_escape(out, b->keys[k]);
		strbuf_addstr(out, "</td>");
		for (size_t c = 0; c < m->nruns; c++) {
			double v = b->values[k * m->nruns + c];

			if (isnan(v))
				strbuf_addstr(out, "<td class=\"num\">-</td>");
			else
				strbuf_addf(out, "<td class=\"num\">%.*f</td>", b->decimals, v);
		}
		strbuf_addstr(out, "</tr>\n");
	}
	strbuf_addstr(out, "</tbody>\n</table>\n");
}

/* Section i of the comparison, its id prefixed by id_prefix (a page of
 * several comparisons: a heading a level lower). */
static void section(const struct cmp_model *m, const struct cmp_section *s, size_t i,
		    const char *id_prefix, struct plot_page *pg, struct strbuf *out)
{
	struct family *fams;
	size_t nfams = section_families(s, &fams);
	int h = *id_prefix ? 3 : 2;

	strbuf_addf(out, "<section id=\"%ssection%zu\">\n<h%d>", id_prefix, i + 1, h);
	html_escape(out, s->name);
	strbuf_addf(out, "</h%d>\n", h);
	section_table(m, s, out);
	for (size_t f = 0; f < nfams; f++)
		family_chart(m, s, &fams[f], pg, out);
	for (size_t b = 0; b < s->nblocks; b++)
		block_table(m, &s->blocks[b], out);
	strbuf_addstr(out, "</section>\n");
	families_free(fams, nfams);
}

static void note_line(const char *line, void *arg)
{
	struct strbuf *out = arg;

	strbuf_addstr(out, "<li>");
	html_escape(out, line);
	strbuf_addstr(out, "</li>\n");
}

void render_html_body(const struct cmp_model *m, const char *id_prefix, struct plot_page *pg,
		      struct strbuf *out)
{
	struct strbuf sb = STRBUF_INIT;

	render_facts_header(m, 80, &sb);
	strbuf_rtrim(&sb);
	strbuf_addstr(out, "<pre class=\"facts\">");
	html_escape(out, sb.buf);
	strbuf_addstr(out, "</pre>\n");
	/* The runs' notes are in the header block, as in text. */
	if (!*id_prefix && pg->have_gnuplot && m->nsections)
		strbuf_addf(out, "<p>In the plots, a line joins each run's mean of the rows, with "
			    "its 95%% confidence interval as a bar; the dots are the samples, spread "
			    "sideways so that they do not hide each other (a chart of more than %d "
			    "samples draws each run's samples of a row as a box from the first to "
			    "the third quartile, its whiskers reaching the least and the greatest). "
			    "Hover over a point for its figures.</p>\n", DOTS_MAX);
	for (size_t i = 0; i < m->nsections; i++)
		section(m, &m->sections[i], i, id_prefix, pg, out);
	if (!m->nsections)
		strbuf_addstr(out, "<p>No samples to compare.</p>\n");
	if (m->nruns > 1) {
		strbuf_addstr(out, "<ul class=\"notes\">\n");
		render_footer(m, 0, note_line, out);
		strbuf_addstr(out, "</ul>\n");
	}
	strbuf_release(&sb);
}

int render_html(const struct cmp_model *m, struct strbuf *out)
{
	struct plot_page pg = PLOT_PAGE_INIT;
	struct strbuf sb = STRBUF_INIT;

	strbuf_addstr(&sb, "kbench compare:");
	for (size_t c = 0; c < m->nruns; c++)
		strbuf_addf(&sb, "%s %s", c ? "," : "", m->runs[c].label);
	html_page_begin(out, sb.buf);
	strbuf_addstr(out, "<h1>");
	html_escape(out, sb.buf);
	strbuf_addstr(out, "</h1>\n");
	plot_page_note(&pg, out);
	render_html_body(m, "", &pg, out);
	html_page_end(out);
	strbuf_release(&sb);
	return 0;
}
