/* plot: charts as inline SVG for the HTML reports: the gnuplot script of a
 * chart (numbers and placeholders only), gnuplot run through pipes, and
 * its SVG made fit for a page (ids per chart, texts and titles put in,
 * escaped). */
#include "config.h"
#include "lib/plot.h"
#include "lib/html.h"
#include "lib/child.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/worker.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>

/* gnuplot draws a chart in milliseconds; one that hangs is given up. */
#define GNUPLOT_TIMEOUT_S 60
/* The placeholder of text i in the script: gnuplot prints it as is in
 * noenhanced mode, and nothing else it writes looks like it. */
#define TOKEN_FMT "@kbt%zu@"
#define TOKEN_HEAD "@kbt"

void plot_init(struct plot *p)
{
	*p = (struct plot)PLOT_INIT;
}

void plot_release(struct plot *p)
{
	for (size_t i = 0; i < p->nseries; i++) {
		struct plot_series *s = &p->series[i];

		for (size_t k = 0; k < s->n; k++)
			free(s->points[k].title);
		free(s->points);
		free(s->title);
	}
	for (size_t i = 0; i < p->ntics; i++)
		free(p->tics[i].label);
	for (size_t i = 0; i < p->nmarkers; i++)
		free(p->markers[i].label);
	free(p->series);
	free(p->tics);
	free(p->markers);
	free(p->xlabel);
	free(p->ylabel);
	plot_init(p);
}

struct plot_series *plot_add_series(struct plot *p, enum plot_style style, unsigned rgb,
				    const char *title)
{
	struct plot_series *s;

	ALLOC_GROW(p->series, p->nseries + 1, p->series_alloc);
	s = &p->series[p->nseries++];
	*s = (struct plot_series){
		.style = style,
		.rgb = rgb & 0xffffff,
		.title = xstrdup(title ? title : ""),
	};
	return s;
}

void plot_add_point(struct plot_series *s, double x, double y, double ylow, double yhigh,
		    const char *title)
{
	if (!isfinite(x) || !isfinite(y))
		return;
	if (!isfinite(ylow) || !isfinite(yhigh))
		ylow = yhigh = y;
	ALLOC_GROW(s->points, s->n + 1, s->alloc);
	s->points[s->n++] = (struct plot_point){
		.x = x, .y = y, .ylow = ylow, .yhigh = yhigh,
		.title = xstrdup_or_null(title),
	};
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/* The q-quantile of sorted v[0..n-1], interpolated (n > 0). */
static double quantile(const double *v, size_t n, double q)
{
	double at = q * (double)(n - 1);
	size_t i = (size_t)at;

	return i + 1 < n ? v[i] + (at - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

void plot_add_summary(struct plot_series *s, double x, double width, const double *v,
		      size_t n, const char *title)
{
	double *sorted;
	size_t k = 0;

	if (!n)
		return;
	sorted = xcalloc(n, sizeof(*sorted));
	for (size_t i = 0; i < n; i++)
		if (isfinite(v[i]))
			sorted[k++] = v[i];
	if (k) {
		qsort(sorted, k, sizeof(*sorted), cmp_double);
		plot_add_point(s, x, quantile(sorted, k, 0.5), sorted[0], sorted[k - 1], title);
		if (s->n && s->points[s->n - 1].x == x) {
			s->points[s->n - 1].boxlow = quantile(sorted, k, 0.25);
			s->points[s->n - 1].boxhigh = quantile(sorted, k, 0.75);
			s->points[s->n - 1].width = width;
		}
	}
	free(sorted);
}

double plot_jitter(size_t k)
{
	double v = (double)(k + 1) * 0.6180339887498949;

	return v - floor(v) - 0.5;
}

void plot_add_tic(struct plot *p, double x, const char *label)
{
	ALLOC_GROW(p->tics, p->ntics + 1, p->tics_alloc);
	p->tics[p->ntics++] = (struct plot_tic){ .x = x, .label = xstrdup_or_null(label) };
}

void plot_add_marker(struct plot *p, double x, unsigned rgb, const char *label)
{
	ALLOC_GROW(p->markers, p->nmarkers + 1, p->markers_alloc);
	p->markers[p->nmarkers++] = (struct plot_marker){
		.x = x, .rgb = rgb & 0xffffff, .label = xstrdup(label ? label : ""),
	};
}

void plot_set_xlabel(struct plot *p, const char *label)
{
	free(p->xlabel);
	p->xlabel = xstrdup_or_null(label);
}

void plot_set_ylabel(struct plot *p, const char *label)
{
	free(p->ylabel);
	p->ylabel = xstrdup_or_null(label);
}

int plot_have_gnuplot(void)
{
	struct strbuf path = STRBUF_INIT;
	int found = !child_find_program("gnuplot", NULL, &path);

	strbuf_release(&path);
	return found;
}

/* ---- the script ---- */

/* The texts of a chart, in the order of their placeholders. */
struct texts {
	const char **v;
	size_t n, alloc;
};

/* Append the placeholder of text s. */
static void add_text(struct strbuf *sb, struct texts *t, const char *s)
{
	ALLOC_GROW(t->v, t->n + 1, t->alloc);
	t->v[t->n] = s;
	strbuf_addf(sb, "'" TOKEN_FMT "'", t->n++);
}

static void add_number(struct strbuf *sb, double v)
{
	strbuf_addf(sb, "%.10g", v);
}

/* The round steps of a time axis, in seconds, and how their tics are
 * labelled: each label tells apart two tics a step apart. */
static const struct {
	double step_s;
	const char *format;
} time_steps[] = {
	{ 1, "%H:%M:%S" }, { 5, "%H:%M:%S" }, { 10, "%H:%M:%S" }, { 15, "%H:%M:%S" },
	{ 30, "%H:%M:%S" }, { 60, "%m-%d %H:%M" }, { 300, "%m-%d %H:%M" }, { 900, "%m-%d %H:%M" },
	{ 1800, "%m-%d %H:%M" }, { 3600, "%m-%d %H:%M" }, { 3 * 3600, "%m-%d %H:%M" },
	{ 6 * 3600, "%m-%d %H:%M" }, { 12 * 3600, "%m-%d %H:%M" }, { 86400, "%Y-%m-%d" },
	{ 2 * 86400, "%Y-%m-%d" }, { 7 * 86400, "%Y-%m-%d" }, { 14 * 86400, "%Y-%m-%d" },
	{ 28 * 86400, "%Y-%m-%d" }, { 91 * 86400, "%Y-%m-%d" }, { 182 * 86400, "%Y-%m-%d" },
	{ 364 * 86400, "%Y-%m-%d" },
};
#define NSTEPS (sizeof(time_steps) / sizeof(time_steps[0]))

double plot_time_step(double lo, double hi, size_t max, const char **format)
{
	size_t i = 0;

	while (i + 1 < NSTEPS && (hi - lo) / time_steps[i].step_s > (double)max)
		i++;
	*format = time_steps[i].format;
	return time_steps[i].step_s;
}

/* Dated tics for a time axis without tics of its own: at multiples of a
 * round step (UTC), at most 8, each labelled once. */
static void add_time_tics(const struct plot *p, struct strbuf *sb)
{
	const char *format;
	double step = plot_time_step(p->xmin, p->xmax, 8, &format);
	const char *sep = "set xtics (";

	for (double t = ceil(p->xmin / step) * step; t <= p->xmax; t += step) {
		time_t tt = (time_t)t;
		struct tm tm;
		char label[32];

		if (!gmtime_r(&tt, &tm) || !strftime(label, sizeof(label), format, &tm))
			continue;
		strbuf_addf(sb, "%s'%s' ", sep, label);
		add_number(sb, t);
		sep = ", ";
	}
	if (*sep == ',')
		strbuf_addstr(sb, ")\n");
}

/* Whether a style's points carry a y range (error bars, whiskers). */
static int has_bars(enum plot_style style)
{
	return style != PLOT_POINTS && style != PLOT_MARKS;
}

/* The y range of p: its points, error bars and boxes with a little room,
 * and never below zero when no point is (times and rates cannot be
 * negative: an error bar reaching below zero is cut at it). */
static void add_yrange(const struct plot *p, struct strbuf *sb)
{
	double lo = INFINITY, hi = -INFINITY, pad;
	int negative = 0;

	for (size_t i = 0; i < p->nseries; i++)
		for (size_t k = 0; k < p->series[i].n; k++) {
			const struct plot_point *pt = &p->series[i].points[k];
			int bars = has_bars(p->series[i].style);

			negative |= pt->y < 0;
			lo = fmin(lo, bars ? fmin(pt->y, pt->ylow) : pt->y);
			hi = fmax(hi, bars ? fmax(pt->y, pt->yhigh) : pt->y);
		}
	if (!(lo <= hi))
		return;
	pad = hi > lo ? (hi - lo) * 0.05 : fabs(hi) > 0 ? fabs(hi) * 0.05 : 1;
	lo -= pad;
	hi += pad;
	if (!negative && lo < 0)
		lo = 0;
	strbuf_addstr(sb, "set yrange [");
	add_number(sb, lo);
	strbuf_addch(sb, ':');
	add_number(sb, hi);
	strbuf_addstr(sb, "]\n");
}

static void add_script_head(const struct plot *p, struct strbuf *sb, struct texts *t)
{
	/* reset undoes what an init file (~/.gnuplot) may have set, but for
	 * the terminal and the output, which are set next. */
	strbuf_addf(sb, "reset\nset terminal svg size %d,%d noenhanced font 'sans,11' "
		    "background '#ffffff'\nset output\nunset key\n", p->width_px, p->height_px);
	strbuf_addstr(sb, "set border 3\nset tics nomirror\n"
		      "set grid ytics linecolor rgb '#e0e0e0'\n"
		      "set style fill solid 0.25 border\n");
	if (p->xaxis == PLOT_X_LOG)
		strbuf_addstr(sb, "set logscale x\n");
	add_yrange(p, sb);
	if (isfinite(p->xmin) && isfinite(p->xmax)) {
		strbuf_addstr(sb, "set xrange [");
		add_number(sb, p->xmin);
		strbuf_addch(sb, ':');
		add_number(sb, p->xmax);
		strbuf_addstr(sb, "]\n");
	}
	if (p->ntics) {
		strbuf_addstr(sb, "set xtics (");
		for (size_t i = 0; i < p->ntics; i++) {
			if (i)
				strbuf_addstr(sb, ", ");
			if (p->tics[i].label) {
				add_text(sb, t, p->tics[i].label);
				strbuf_addch(sb, ' ');
			}
			add_number(sb, p->tics[i].x);
		}
		strbuf_addstr(sb, ")\n");
	} else if (p->xaxis == PLOT_X_TIME && isfinite(p->xmin) && isfinite(p->xmax)) {
		add_time_tics(p, sb);
	}
	if (p->xtics_rotate)
		strbuf_addstr(sb, "set xtics rotate by -45\n");
	if (p->xlabel) {
		strbuf_addstr(sb, "set xlabel ");
		add_text(sb, t, p->xlabel);
		strbuf_addch(sb, '\n');
	}
	if (p->ylabel) {
		strbuf_addstr(sb, "set ylabel ");
		add_text(sb, t, p->ylabel);
		strbuf_addch(sb, '\n');
	}
	for (size_t i = 0; i < p->nmarkers; i++) {
		const struct plot_marker *mk = &p->markers[i];

		strbuf_addstr(sb, "set arrow from ");
		add_number(sb, mk->x);
		strbuf_addstr(sb, ", graph 0 to ");
		add_number(sb, mk->x);
		strbuf_addf(sb, ", graph 1 nohead dashtype 2 linewidth 1.5 linecolor rgb '#%06x' "
			    "front\nset label ", mk->rgb);
		add_text(sb, t, mk->label);
		strbuf_addstr(sb, " at ");
		add_number(sb, mk->x);
		/* Alternate heights, so that close markers keep their labels apart. */
		strbuf_addf(sb, ", graph %s left offset character 0.4, 0 textcolor rgb '#%06x' "
			    "front\n", i % 2 ? "0.90" : "0.97", mk->rgb);
	}
}

/* The script that draws p: the series with points, in order. */
static void plot_script(const struct plot *p, struct strbuf *sb, struct texts *t)
{
	const char *sep = "plot ";

	add_script_head(p, sb, t);
	for (size_t i = 0; i < p->nseries; i++) {
		const struct plot_series *s = &p->series[i];

		if (!s->n)
			continue;
		strbuf_addstr(sb, sep);
		if (s->style == PLOT_POINTS)
			strbuf_addf(sb, "'-' using 1:2 with points pointtype 7 pointsize 0.45 "
				    "linecolor rgb '#70%06x' notitle", s->rgb);
		else if (s->style == PLOT_MARKS)
			strbuf_addf(sb, "'-' using 1:2 with points pointtype 6 pointsize 1.1 "
				    "linewidth 1.5 linecolor rgb '#%06x' notitle", s->rgb);
		else if (s->style == PLOT_BOXES)
			strbuf_addf(sb, "'-' using 1:5:3:4:6:7 with candlesticks whiskerbars "
				    "linecolor rgb '#%06x' notitle", s->rgb);
		else
			strbuf_addf(sb, "'-' using 1:2:3:4 with yerrorlines pointtype 7 "
				    "pointsize 0.9 linewidth 1.5 linecolor rgb '#%06x' notitle",
				    s->rgb);
		sep = ", \\\n     ";
	}
	strbuf_addch(sb, '\n');
	for (size_t i = 0; i < p->nseries; i++) {
		const struct plot_series *s = &p->series[i];

		if (!s->n)
			continue;
		for (size_t k = 0; k < s->n; k++) {
			const struct plot_point *pt = &s->points[k];

			add_number(sb, pt->x);
			strbuf_addch(sb, ' ');
			add_number(sb, pt->y);
			if (has_bars(s->style)) {
				strbuf_addch(sb, ' ');
				add_number(sb, pt->ylow);
				strbuf_addch(sb, ' ');
				add_number(sb, pt->yhigh);
			}
			if (s->style == PLOT_BOXES) {
				strbuf_addf(sb, " %.10g %.10g %.10g", pt->boxlow, pt->boxhigh,
					    pt->width);
			}
			strbuf_addch(sb, '\n');
		}
		strbuf_addstr(sb, "e\n");
	}
}

/* ---- running gnuplot ---- */

/* The last line of gnuplot's messages that says something. */
static void last_message(const struct strbuf *msgs, struct strbuf *err)
{
	const char *end = msgs->buf + msgs->len, *start;

	while (end > msgs->buf && (end[-1] == '\n' || end[-1] == ' ' || end[-1] == '\r'))
		end--;
	for (start = end; start > msgs->buf && start[-1] != '\n'; start--)
		;
	while (start < end && *start == ' ')
		start++;
	if (start < end)
		strbuf_addf(err, ": %.*s", (int)(end - start), start);
}

/* Run gnuplot on script, its standard output into svg. Returns 0, or -1
 * with why in err. */
static int run_gnuplot(const struct strbuf *script, struct strbuf *svg, struct strbuf *err)
{
	/* The script as a file to load, not as gnuplot's input: gnuplot reads
	 * its standard input a byte at a time (a read call a byte, 0.3 s of a
	 * 290 KB script), a file through stdio's buffer. */
	const char *argv[] = { "gnuplot", "/dev/stdin", NULL };
	struct child_program p = CHILD_PROGRAM_INIT;
	struct child_io io = { .input = script->buf, .input_len = script->len, .out = svg,
			       .timeout_s = GNUPLOT_TIMEOUT_S };
	struct strbuf msgs = STRBUF_INIT;
	int end, rc = -1;

	p.argv = argv;
	io.err = &msgs;
	end = child_program_run(&p, &io, err);
	if (end < 0)
		goto out;
	if (end == CHILD_TIMEOUT) {
		strbuf_addf(err, "gnuplot took more than %d s", GNUPLOT_TIMEOUT_S);
		goto out;
	}
	if (WIFEXITED(p.w.status) && !WEXITSTATUS(p.w.status)) {
		rc = 0;
		goto out;
	}
	strbuf_addstr(err, "gnuplot ");
	worker_describe_status(p.w.status, err);
	last_message(&msgs, err);
out:
	strbuf_release(&msgs);
	return rc;
}

/* ---- gnuplot's SVG made fit for a page ---- */

/* What fix_svg needs while it copies gnuplot's SVG. */
struct svg_fix {
	const struct plot *p;
	const char *prefix;
	const struct texts *t;
	/* gnuplot's plots are the series that have points: its plot i is
	 * series order[i - 1]. */
	const size_t *order;
	size_t norder;
	const struct plot_series *cur;	/* the series whose group is open */
	size_t point;			/* its next point */
};

static int starts(const char *s, const char *prefix)
{
	return !strncmp(s, prefix, strlen(prefix));
}

/* At "<g id=\"gnuplot_plot_N\" ><title>...</title>": the group of a
 * series starts; put its id and title. Returns where to go on, or NULL to
 * copy the text as it is. */
static const char *series_group(struct svg_fix *f, const char *s, struct strbuf *out)
{
	const char *at = s + strlen("<g id=\"gnuplot_plot_"), *end, *title;
	size_t i = strtoul(at, NULL, 10);

	end = strchr(at, '>');
	if (!end || !i || i > f->norder)
		return NULL;
	f->cur = &f->p->series[f->order[i - 1]];
	f->point = 0;
	strbuf_addf(out, "<g id=\"%s-series-%zu\" class=\"series\"><title>", f->prefix, i);
	html_escape(out, f->cur->title);
	strbuf_addstr(out, "</title>");
	end++;
	title = end + strspn(end, " \t\n");
	if (starts(title, "<title>") && (title = strstr(title, "</title>")))
		end = title + strlen("</title>");
	return end;
}

/* At a placeholder: its text, escaped. Returns where to go on, or NULL
 * when it is none. */
static const char *text_token(const struct svg_fix *f, const char *s, struct strbuf *out)
{
	char *end;
	size_t i = strtoul(s + strlen(TOKEN_HEAD), &end, 10);

	if (end == s + strlen(TOKEN_HEAD) || *end != '@' || i >= f->t->n)
		return NULL;
	html_escape(out, f->t->v[i]);
	return end + 1;
}

/* Copy one character of s, or a whole id or reference opening with the
 * chart's prefix put in; returns where to go on. */
static const char *copy_ref(const struct svg_fix *f, const char *s, struct strbuf *out)
{
	static const char *const refs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };

	for (size_t r = 0; r < sizeof(refs) / sizeof(refs[0]); r++)
		if (starts(s, refs[r])) {
			strbuf_addf(out, "%s%s-", refs[r], f->prefix);
			return s + strlen(refs[r]);
		}
	strbuf_addch(out, *s);
	return s + 1;
}

/* At "<use ": a point's symbol (one a point, in order, in its series'
 * group): give it its point's title. Returns where to go on, or NULL to
 * copy it as it is. */
static const char *point_use(struct svg_fix *f, const char *s, struct strbuf *out)
{
	const struct plot_point *pt = f->point < f->cur->n ? &f->cur->points[f->point] : NULL;
	const char *end = strstr(s, "/>");

	f->point++;
	if (!pt || !pt->title || !end)
		return NULL;
	while (s < end)
		s = copy_ref(f, s, out);
	strbuf_addstr(out, "><title>");
	html_escape(out, pt->title);
	strbuf_addstr(out, "</title></use>");
	return end + 2;
}

/* Copy gnuplot's SVG into out as an element of a page: from its <svg>
 * on, classed "plot" and titled title, every id and reference prefixed,
 * placeholders replaced by their texts, and each series' group and point
 * symbols given their titles. */
static void fix_svg(struct svg_fix *f, const char *svg, const char *title, struct strbuf *out)
{
	const char *s = strstr(svg, "<svg");
	int titled = 0;

	if (!s)
		return;
	strbuf_addstr(out, "<svg class=\"plot\"");
	s += strlen("<svg");
	while (*s) {
		const char *next = NULL;

		if (starts(s, TOKEN_HEAD)) {
			next = text_token(f, s, out);
		} else if (starts(s, "<g id=\"gnuplot_plot_")) {
			next = series_group(f, s, out);
		} else if (!titled && starts(s, "<title>Gnuplot</title>")) {
			strbuf_addstr(out, "<title>");
			html_escape(out, title);
			strbuf_addstr(out, "</title>");
			next = s + strlen("<title>Gnuplot</title>");
			titled = 1;
		} else if (f->cur && starts(s, "<use ")) {
			next = point_use(f, s, out);
		}
		s = next ? next : copy_ref(f, s, out);
	}
}

int plot_svg(const struct plot *p, const char *id_prefix, const char *title,
	     struct strbuf *svg, struct strbuf *err)
{
	struct strbuf script = STRBUF_INIT, raw = STRBUF_INIT;
	struct texts t = { .n = 0 };
	size_t *order = xcalloc(p->nseries ? p->nseries : 1, sizeof(*order));
	struct svg_fix f = { .p = p, .prefix = id_prefix, .t = &t, .order = order };
	int rc = -1;

	for (size_t i = 0; i < p->nseries; i++)
		if (p->series[i].n)
			order[f.norder++] = i;
	if (!f.norder) {
		strbuf_addstr(err, "no point to draw");
		goto out;
	}
	plot_script(p, &script, &t);
	if (run_gnuplot(&script, &raw, err))
		goto out;
	if (!strstr(raw.buf, "<svg") || !strstr(raw.buf, "</svg>")) {
		strbuf_addstr(err, "gnuplot wrote no SVG");
		goto out;
	}
	fix_svg(&f, raw.buf, title, svg);
	rc = 0;
out:
	strbuf_release(&script);
	strbuf_release(&raw);
	free(t.v);
	free(order);
	return rc;
}

/* ---- figures on a page ---- */

void plot_page_note(struct plot_page *pg, struct strbuf *out)
{
	if (!pg->looked) {
		pg->have_gnuplot = plot_have_gnuplot();
		pg->looked = 1;
	}
	if (pg->have_gnuplot)
		return;
	strbuf_addstr(out, "<p class=\"noplot\">No plots: they are drawn by gnuplot, which is "
		      "not installed here (no gnuplot on PATH). Install it (Debian: gnuplot-nox) "
		      "and make this report again to have them.</p>\n");
	notice("no gnuplot on PATH: the report has its tables but no plots");
}

void plot_figure(struct plot_page *pg, const struct plot *p, const char *caption,
		 struct strbuf *out)
{
	struct strbuf prefix = STRBUF_INIT, err = STRBUF_INIT;
	size_t nlegend = 0;

	if (!pg->looked) {
		pg->have_gnuplot = plot_have_gnuplot();
		pg->looked = 1;
	}
	if (!pg->have_gnuplot)
		return;
	strbuf_addf(&prefix, "chart%zu", ++pg->n);
	strbuf_addf(out, "<figure class=\"chart\" id=\"%s\">\n", prefix.buf);
	if (plot_svg(p, prefix.buf, caption, out, &err)) {
		strbuf_addstr(out, "<p class=\"plot-error\">This plot could not be drawn: ");
		html_escape(out, err.buf);
		strbuf_addstr(out, ".</p>\n");
		if (!pg->warned)
			warning("a plot of the report could not be drawn: %s", err.buf);
		pg->warned = 1;
	} else {
		strbuf_addch(out, '\n');
	}
	strbuf_addstr(out, "<figcaption>");
	html_escape(out, caption);
	strbuf_addstr(out, "</figcaption>\n");
	for (size_t i = 0; i < p->nseries; i++) {
		const struct plot_series *s = &p->series[i];

		if (!s->legend)
			continue;
		if (!nlegend++)
			strbuf_addstr(out, "<ul class=\"legend\">\n");
		strbuf_addf(out, "<li><span class=\"swatch\" style=\"background:#%06x\"></span>",
			    s->rgb);
		html_escape(out, s->title);
		strbuf_addstr(out, "</li>\n");
	}
	if (nlegend)
		strbuf_addstr(out, "</ul>\n");
	strbuf_addstr(out, "</figure>\n");
	strbuf_release(&prefix);
	strbuf_release(&err);
}

/* ---- small multiples, drawn here ---- */

void plot_spark_svg(struct strbuf *out, const double *x, const double *y, size_t n,
		    const struct plot_spark_mark *marks, size_t nmarks, int width, int height,
		    const char *title)
{
	double xlo = INFINITY, xhi = -INFINITY, ylo = INFINITY, yhi = -INFINITY, sx, sy;
	const double pad = 3;
	size_t finite = 0, last = 0;
	const char *sep = "M";

	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			xlo = fmin(xlo, x[i]);
			xhi = fmax(xhi, x[i]);
			ylo = fmin(ylo, y[i]);
			yhi = fmax(yhi, y[i]);
			finite++;
			last = i;
		}
	strbuf_addf(out, "<svg class=\"spark\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\">"
		    "<title>", width, height, width, height);
	html_escape(out, title);
	strbuf_addf(out, "</title><rect width=\"%d\" height=\"%d\" fill=\"#fafafa\" "
		    "stroke=\"#ddd\"/>", width, height);
	if (finite < 2)
		goto out;
	sx = xhi > xlo ? (width - 2 * pad) / (xhi - xlo) : 0;
	sy = yhi > ylo ? (height - 2 * pad) / (yhi - ylo) : 0;
#define SX(v) (pad + ((v) - xlo) * sx)
#define SY(v) (yhi > ylo ? height - pad - ((v) - ylo) * sy : height / 2.0)
	for (size_t k = 0; k < nmarks; k++) {
		const struct plot_spark_mark *mk = &marks[k];

		if (mk->href) {
			strbuf_addstr(out, "<a href=\"");
			html_escape(out, mk->href);
			strbuf_addstr(out, "\">");
		}
		strbuf_addf(out, "<line class=\"mark\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%d\" "
			    "stroke=\"#%06x\" stroke-width=\"3\"><title>", SX(mk->x), SX(mk->x),
			    height, mk->rgb & 0xffffff);
		html_escape(out, mk->title ? mk->title : "");
		strbuf_addstr(out, "</title></line>");
		if (mk->href)
			strbuf_addstr(out, "</a>");
	}
	strbuf_addstr(out, "<path fill=\"none\" stroke=\"#0072b2\" stroke-width=\"1.2\" d=\"");
	for (size_t i = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i])) {
			strbuf_addf(out, "%s%.1f,%.1f", sep, SX(x[i]), SY(y[i]));
			sep = "L";
		}
	strbuf_addf(out, "\"/><circle cx=\"%.1f\" cy=\"%.1f\" r=\"2\" fill=\"#0072b2\"/>",
		    SX(x[last]), SY(y[last]));
#undef SX
#undef SY
out:
	strbuf_addstr(out, "</svg>");
}
