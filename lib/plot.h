/* plot: the charts of the HTML reports, drawn by gnuplot as inline SVG.
 * A chart is described here (series of points with error bars, tics,
 * markers); gnuplot runs as a child with the script and the data on one
 * pipe and writes the SVG on another, no file involved. No text of the
 * chart reaches gnuplot: it draws placeholders, which are replaced in its
 * SVG by the texts, escaped, so that nothing read from a store can reach
 * gnuplot's command language or the page's markup unescaped. */
#ifndef KBENCH_PLOT_H
#define KBENCH_PLOT_H

#include <math.h>
#include <stddef.h>

struct strbuf;

enum plot_style {
	PLOT_POINTS,		/* small, half-transparent dots (samples) */
	PLOT_ERRORLINES,	/* points joined by a line, y error bars */
	PLOT_BOXES,		/* a box per point: quartiles, whiskers to the
				 * extremes (many samples in a few nodes) */
	PLOT_MARKS,		/* open circles, no line and no error bars (a
				 * second value of each point of a line) */
};

struct plot_point {
	double x, y;
	double ylow, yhigh;	/* the error bar; PLOT_BOXES: the whiskers */
	double boxlow, boxhigh;	/* PLOT_BOXES: the box */
	double width;		/* PLOT_BOXES: the box's width on the x axis */
	char *title;		/* shown on hover; NULL: the series' */
};

struct plot_series {
	enum plot_style style;
	unsigned rgb;		/* 0xRRGGBB */
	char *title;		/* shown on hover and in the legend */
	int legend;		/* listed in the figure's legend */
	struct plot_point *points;
	size_t n, alloc;
};

/* A tic on the x axis at x; label NULL: the number as gnuplot prints it. */
struct plot_tic {
	double x;
	char *label;
};

/* A dashed vertical line at x with a label at its top (a change point). */
struct plot_marker {
	double x;
	unsigned rgb;
	char *label;
};

enum plot_xaxis {
	PLOT_X_LINEAR,
	PLOT_X_LOG,		/* x > 0 */
	PLOT_X_TIME,		/* x in seconds since the epoch, UTC: without
				 * tics of its own, the chart gets dated tics
				 * at a round step, no two labelled alike */
};

struct plot {
	enum plot_xaxis xaxis;
	double xmin, xmax;	/* the x range; NaN: gnuplot's */
	int xtics_rotate;	/* tic labels at an angle (many tics) */
	char *xlabel, *ylabel;	/* NULL: none */
	struct plot_tic *tics;	/* none: gnuplot's own */
	size_t ntics, tics_alloc;
	struct plot_marker *markers;
	size_t nmarkers, markers_alloc;
	struct plot_series *series;
	size_t nseries, series_alloc;
	int width_px, height_px;
};

#define PLOT_INIT { .xaxis = PLOT_X_LINEAR, .xmin = NAN, .xmax = NAN, \
		    .width_px = 720, .height_px = 360 }

/* An empty chart (as PLOT_INIT). */
void plot_init(struct plot *p);
void plot_release(struct plot *p);

/* Add a series drawn in style and colour rgb, titled title (copied). */
struct plot_series *plot_add_series(struct plot *p, enum plot_style style, unsigned rgb,
				    const char *title);
/* Add a point to s; title (copied) may be NULL. A point whose x or y is
 * not finite is left out; an error bar that is not finite is drawn as
 * none (ylow = yhigh = y). */
void plot_add_point(struct plot_series *s, double x, double y, double ylow, double yhigh,
		    const char *title);
/* Add to s a box at x of width width (on the x axis' scale) summing up
 * v[0..n-1] (not changed): from the first to the third quartile, whiskers
 * to the least and the greatest value; title (copied) may be NULL. */
void plot_add_summary(struct plot_series *s, double x, double width, const double *v,
		      size_t n, const char *title);
/* Add a tic at x labelled label (copied; NULL: the number). */
void plot_add_tic(struct plot *p, double x, const char *label);
void plot_add_marker(struct plot *p, double x, unsigned rgb, const char *label);
/* Set the x or the y axis' label (copied). */
void plot_set_xlabel(struct plot *p, const char *label);
void plot_set_ylabel(struct plot *p, const char *label);

/* The step of the dated tics of a time axis from lo to hi (seconds) and
 * the strftime format of their labels: a round step (a minute to a year)
 * giving at most max tics, with a format that tells every two apart. */
double plot_time_step(double lo, double hi, size_t max, const char **format);

/* A fixed spread in [-0.5, 0.5) for the k-th point of a group (the golden
 * ratio's sequence): dots side by side rather than on top of each other,
 * the same on every rendering. */
double plot_jitter(size_t k);

/* Is there a gnuplot to run (an executable "gnuplot" on PATH)? */
int plot_have_gnuplot(void);

/* Draw p with gnuplot into an <svg> element for an HTML page, appended to
 * svg: its ids start with id_prefix (a page may hold many charts), each
 * series is a <g class="series"> titled with its title, each point drawn
 * as a symbol carries its title, and the root's title is title. Returns
 * 0, or -1 with why in err (gnuplot could not run, failed or took too
 * long; its last message line is quoted). A chart without any point is
 * drawn empty. */
int plot_svg(const struct plot *p, const char *id_prefix, const char *title,
	     struct strbuf *svg, struct strbuf *err);

/* The charts of one HTML page: gnuplot is looked for once, charts are
 * numbered for their ids, and a failure is reported once. */
struct plot_page {
	int looked, have_gnuplot;
	size_t n;		/* charts drawn */
	int warned;		/* a failure was reported on stderr */
};

#define PLOT_PAGE_INIT { .looked = 0 }

/* When the page cannot have charts (no gnuplot), append a paragraph that
 * says so plainly (and a notice on stderr); else nothing. */
void plot_page_note(struct plot_page *pg, struct strbuf *out);

/* Append chart p as a <figure>: its SVG, a legend of the series marked
 * legend (a swatch of their colour and their title), and caption (all
 * text escaped). Nothing without gnuplot (plot_page_note said so); when
 * gnuplot fails, a paragraph quoting why instead, and a warning on stderr
 * the first time on the page. */
void plot_figure(struct plot_page *pg, const struct plot *p, const char *caption,
		 struct strbuf *out);

/* A mark on a small chart: a vertical line at x (a change point). */
struct plot_spark_mark {
	double x;
	unsigned rgb;
	const char *title;	/* shown on hover */
	const char *href;	/* what the mark links to; NULL: nothing */
};

/* Append a small chart (a small multiple of an overview) as an inline
 * <svg> of width x height pixels, drawn here without gnuplot so that
 * hundreds of them cost little: the line through (x[i], y[i]) (points
 * whose x or y is not finite left out), a dot on the last point, and the
 * marks as links; title (escaped) is its tooltip. Nothing is drawn
 * without two finite points but the frame. */
void plot_spark_svg(struct strbuf *out, const double *x, const double *y, size_t n,
		    const struct plot_spark_mark *marks, size_t nmarks, int width, int height,
		    const char *title);

#endif
