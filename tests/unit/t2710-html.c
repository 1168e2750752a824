/* t2710: the pieces of the HTML reports: the one HTML escape, the page's
 * head, and charts drawn by gnuplot (lib/plot.c): texts that would be
 * gnuplot commands or markup come out as escaped text, ids are the
 * chart's own, series and points carry their titles, a large chart goes
 * through the pipes whole, and a failing gnuplot says why. Without
 * gnuplot the chart tests skip (fail when CI=true).
 * Covers: lib/html.c lib/plot.c */
#include "config.h"
#include "lib/plot.h"
#include "lib/html.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static size_t count(const char *s, const char *what)
{
	size_t n = 0;

	for (const char *p = s; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

static void test_escape(void)
{
	struct strbuf sb = STRBUF_INIT;

	html_escape(&sb, "<a href=\"x\" title='y'>&amp;\x01\t\n\x7f</a> \xc3\xa9\xc2\x9b");
	ok_text(sb.buf, "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;\\x01\t\n\\x7f"
		"&lt;/a&gt; \xc3\xa9\\xc2\\x9b",
		"markup, quotes and control characters (C1 too) escaped, tab, newline and "
		"UTF-8 kept");
	strbuf_reset(&sb);
	html_page_begin(&sb, "a <b> page");
	html_page_end(&sb);
	ok(strstr(sb.buf, "<title>a &lt;b&gt; page</title>") != NULL,
	   "the page's title is escaped");
	ok(strstr(sb.buf, "content=\"default-src 'none'; style-src 'unsafe-inline'\"") != NULL,
	   "its policy forbids scripts and fetches");
	ok(!strncmp(sb.buf, "<!DOCTYPE html>\n", 16) &&
	   sb.len > 16 && !strcmp(sb.buf + sb.len - 16, "</body>\n</html>\n"),
	   "a whole page");
	strbuf_release(&sb);
}

/* Every id of the SVG starts with prefix. */
static int ids_prefixed(const char *svg, const char *prefix)
{
	static const char *const attrs[] = { "id='", "id=\"", "href='#", "href=\"#", "url(#" };

	for (size_t i = 0; i < sizeof(attrs) / sizeof(attrs[0]); i++)
		for (const char *p = svg; (p = strstr(p, attrs[i])); p++)
			if (strncmp(p + strlen(attrs[i]), prefix, strlen(prefix)))
				return 0;
	return 1;
}

static void test_chart(const char *dir)
{
	/* What gnuplot would run or mistake, were it given these texts. */
	const char *nasty = "it's `touch pwned` $(touch pwned) \"x\" \\ @kbt0@ <script>";
	struct plot p;
	struct plot_series *a, *b, *c;
	struct strbuf svg = STRBUF_INIT, err = STRBUF_INIT;
	struct stat st;
	int rc;

	/* Where gnuplot runs, so that what it might run shows. */
	if (!ok(!chdir(dir), "into %s", dir))
		return;
	plot_init(&p);
	plot_set_ylabel(&p, nasty);
	plot_add_tic(&p, 1, nasty);
	plot_add_tic(&p, 2, NULL);
	plot_add_marker(&p, 1.5, 0xc62828, "-9.88% worse");
	a = plot_add_series(&p, PLOT_POINTS, 0x0072b2, "samples <of> a");
	b = plot_add_series(&p, PLOT_ERRORLINES, 0xd55e00, nasty);
	plot_add_series(&p, PLOT_POINTS, 0, "no points: not drawn");
	c = plot_add_series(&p, PLOT_MARKS, 0x009e73, "marks");
	plot_add_point(c, 1, 9.5, NAN, NAN, "c's mark");
	plot_add_point(a, 1, 10, 0, 0, "a's first");
	plot_add_point(a, 2, 11, 0, 0, NULL);
	plot_add_point(a, 2, NAN, 0, 0, "left out");
	plot_add_point(b, 1, 10.5, 10, 11, "b & 1");
	plot_add_point(b, 2, 11.5, NAN, 12, "b <2>");
	rc = plot_svg(&p, "c1", "a <chart>", &svg, &err);
	ok(!rc, "a chart drawn (%s)", err.buf);
	ok(!strncmp(svg.buf, "<svg class=\"plot\"", 17) && strstr(svg.buf, "</svg>"),
	   "as one <svg> element");
	ok(stat("pwned", &st), "nothing given to gnuplot was run");
	ok(count(svg.buf, "it&#39;s `touch pwned` $(touch pwned) &quot;x&quot; \\ @kbt0@ "
			  "&lt;script&gt;") == 3,
	   "the texts (label, tic, series title) are there, escaped: %zu",
	   count(svg.buf, "&lt;script&gt;"));
	ok(!strstr(svg.buf, "<script") && !strstr(svg.buf, "@kbt1@"),
	   "no markup and no placeholder left");
	ok(strstr(svg.buf, "<title>a &lt;chart&gt;</title>") != NULL, "the chart's title");
	ok(count(svg.buf, "class=\"series\"") == 3, "three series drawn (the empty one is not): %zu",
	   count(svg.buf, "class=\"series\""));
	ok(strstr(svg.buf, "<g id=\"c1-series-1\" class=\"series\"><title>samples &lt;of&gt; "
			   "a</title>") != NULL, "each series' group has its title");
	ok(count(svg.buf, "<title>a&#39;s first</title></use>") == 1 &&
	   count(svg.buf, "<title>b &amp; 1</title></use>") == 1 &&
	   count(svg.buf, "<title>b &lt;2&gt;</title></use>") == 1 &&
	   count(svg.buf, "<title>c&#39;s mark</title></use>") == 1 &&
	   !strstr(svg.buf, "left out"),
	   "each point's symbol has its title, the point without a y is left out");
	ok(strstr(svg.buf, "-9.88% worse") && strstr(svg.buf, "stroke-dasharray"),
	   "the marker: a dashed line and its label");
	ok(ids_prefixed(svg.buf, "c1-"), "every id and reference is the chart's own");
	plot_release(&p);
	strbuf_release(&svg);
	strbuf_release(&err);
}

static void test_large(void)
{
	struct plot p;
	struct plot_series *s;
	struct strbuf svg = STRBUF_INIT, err = STRBUF_INIT, title = STRBUF_INIT;
	const size_t n = 20000;
	int rc;

	plot_init(&p);
	s = plot_add_series(&p, PLOT_POINTS, 0x0072b2, "many");
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&title);
		strbuf_addf(&title, "point %zu", i);
		plot_add_point(s, (double)i, (double)(i % 97), 0, 0, title.buf);
	}
	rc = plot_svg(&p, "big", "big", &svg, &err);
	ok(!rc && count(svg.buf, "</title></use>") == n && strstr(svg.buf, "<title>point 19999<"),
	   "%zu points through the pipes both ways (%zu bytes of script, %zu of SVG) %s", n,
	   n * 8, svg.len, err.buf);
	plot_release(&p);
	strbuf_release(&svg);
	strbuf_release(&err);
	strbuf_release(&title);
}

static void test_failures(void)
{
	struct plot p;
	struct plot_series *s;
	struct strbuf svg = STRBUF_INIT, err = STRBUF_INIT;
	int rc;

	plot_init(&p);
	s = plot_add_series(&p, PLOT_POINTS, 0, "none");
	rc = plot_svg(&p, "e", "e", &svg, &err);
	ok(rc == -1 && !strcmp(err.buf, "no point to draw") && !svg.len,
	   "a chart without points is refused: %s", err.buf);
	/* No x > 0 on a log axis: gnuplot fails. */
	p.xaxis = PLOT_X_LOG;
	plot_add_point(s, -1, 1, 0, 0, NULL);
	strbuf_reset(&err);
	rc = plot_svg(&p, "e", "e", &svg, &err);
	ok(rc == -1 && !strncmp(err.buf, "gnuplot exited with status 1: ", 30) && !svg.len,
	   "gnuplot's failure and its message: %s", err.buf);
	plot_release(&p);
	strbuf_release(&svg);
	strbuf_release(&err);
}

/* Time axes: round steps, labels that tell every two tics apart. */
static void test_time_step(void)
{
	const char *format = NULL;
	double step;

	step = plot_time_step(0, 2 * 3600, 8, &format);
	ok(step == 900 && !strcmp(format, "%m-%d %H:%M"),
	   "two hours: a tic every 15 minutes, dated to the minute (%g, %s)", step, format);
	step = plot_time_step(0, 30 * 86400, 8, &format);
	ok(step == 7 * 86400 && !strcmp(format, "%Y-%m-%d"),
	   "30 days: a tic a week, dated to the day (%g, %s)", step, format);
	step = plot_time_step(0, 2 * 86400, 8, &format);
	ok(step == 6 * 3600 && !strcmp(format, "%m-%d %H:%M"),
	   "two days: every 6 hours, with the hour, never one date twice (%g, %s)", step,
	   format);
	step = plot_time_step(0, 70, 8, &format);
	ok(step == 10 && !strcmp(format, "%H:%M:%S"),
	   "runs within a minute or so: every 10 seconds, to the second (%g, %s)", step, format);
}

/* A box sums up its values; a small multiple is drawn without gnuplot. */
static void test_summary_spark(void)
{
	struct plot p;
	struct plot_series *s;
	const double v[] = { 5, 1, 3, 2, 4, NAN };
	const double x[] = { 1, 2, 3, NAN }, y[] = { 10, 12, 11, 13 };
	const struct plot_spark_mark mk = { .x = 2.5, .rgb = 0xc62828, .title = "<worse>",
					    .href = "#s1-cp1" };
	struct strbuf sb = STRBUF_INIT;

	plot_init(&p);
	s = plot_add_series(&p, PLOT_BOXES, 0, "boxes");
	plot_add_summary(s, 1, 0.5, v, 6, NULL);
	ok(s->n == 1 && s->points[0].y == 3 && s->points[0].ylow == 1 &&
	   s->points[0].yhigh == 5 && s->points[0].boxlow == 2 && s->points[0].boxhigh == 4 &&
	   s->points[0].width == 0.5,
	   "a box: median 3, quartiles 2 and 4, whiskers 1 and 5, NaN left out");
	plot_release(&p);
	plot_spark_svg(&sb, x, y, 4, &mk, 1, 200, 48, "a <title>");
	ok(count(sb.buf, "<svg") == 1 && count(sb.buf, "</svg>") == 1, "a small multiple: one svg");
	ok(strstr(sb.buf, "<title>a &lt;title&gt;</title>") != NULL, "its title escaped");
	ok(strstr(sb.buf, "d=\"M3.0,45.0L100.0,3.0L197.0,24.0\"") != NULL,
	   "its line through the finite points, scaled to the box: %s", sb.buf);
	ok(strstr(sb.buf, "<a href=\"#s1-cp1\"><line class=\"mark\" x1=\"148.5\"") != NULL &&
	   strstr(sb.buf, "<title>&lt;worse&gt;</title>") != NULL,
	   "the mark linked, its title escaped");
	strbuf_reset(&sb);
	plot_spark_svg(&sb, x, y, 1, NULL, 0, 200, 48, "one");
	ok(!strstr(sb.buf, "<path"), "one point: the frame alone");
	strbuf_release(&sb);
}

static void test_no_gnuplot(const char *dir)
{
	struct plot_page pg = PLOT_PAGE_INIT;
	struct strbuf out = STRBUF_INIT;
	char *path = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	setenv("PATH", dir, 1);
	ok(!plot_have_gnuplot(), "no gnuplot on a PATH without it");
	plot_page_note(&pg, &out);
	ok(strstr(out.buf, "<p class=\"noplot\">No plots: they are drawn by gnuplot") != NULL,
	   "the page says so");
	if (path)
		setenv("PATH", path, 1);
	free(path);
	strbuf_release(&out);
}

int main(void)
{
	char dir[] = "t2710.XXXXXX";
	char cwd[4096];
	const char *ci = getenv("CI");

	test_escape();
	test_time_step();
	test_summary_spark();
	if (!mkdtemp(dir) || !getcwd(cwd, sizeof(cwd)))
		return ok(0, "a scratch directory"), done_testing();
	test_no_gnuplot(dir);
	if (!plot_have_gnuplot()) {
		if (ci && !strcmp(ci, "true"))
			ok(0, "gnuplot is installed (CI)");
		else
			skip("no gnuplot: the chart tests need it");
	} else {
		test_chart(dir);
		if (chdir(cwd))
			ok(0, "back to %s", cwd);
		test_large();
		test_failures();
	}
	ok(!chdir(cwd) && !rmdir(dir), "no file left behind in %s", dir);
	return done_testing();
}
