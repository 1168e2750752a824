/* progress: run progress on stderr, with an ETA from the durations so far;
 * on a terminal one line redrawn in place and cut to the terminal's width,
 * which SIGWINCH tells us has changed. */
#include "config.h"
#include "runner/progress.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

/* Set by SIGWINCH: the width is read again before the next line. */
static volatile sig_atomic_t resized;

static void on_winch(int sig)
{
	(void)sig;
	resized = 1;
}

/* The terminal's width; COLUMNS when the terminal does not say; 80. */
static int read_columns(void)
{
	struct winsize ws;
	const char *env = getenv("COLUMNS");

	if (!ioctl(STDERR_FILENO, TIOCGWINSZ, &ws) && ws.ws_col > 0)
		return ws.ws_col;
	if (env && atoi(env) > 0)
		return atoi(env);
	return 80;
}

void progress_init(struct progress *p, int total)
{
	memset(p, 0, sizeof(*p));
	p->tty = isatty(STDERR_FILENO);
	p->total = total;
	if (p->tty && !kb_quiet) {
		struct sigaction sa = { .sa_handler = on_winch, .sa_flags = SA_RESTART };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGWINCH, &sa, NULL);
		p->columns = read_columns();
	}
}

static void format_eta(const struct progress *p, char *buf, size_t len)
{
	long long left_s;

	if (!p->done) {
		snprintf(buf, len, "ETA --:--");
		return;
	}
	left_s = (long long)((double)p->spent_ns / p->done * (p->total - p->done) / 1e9 + 0.5);
	if (left_s >= 3600)
		snprintf(buf, len, "ETA %lld:%02lld:%02lld", left_s / 3600, left_s / 60 % 60, left_s % 60);
	else
		snprintf(buf, len, "ETA %lld:%02lld", left_s / 60, left_s % 60);
}

/* Bytes of s that fit in cols columns, a UTF-8 character counting one
 * and never split. */
static size_t fit(const char *s, size_t cols)
{
	size_t i = 0, used = 0;

	while (s[i] && used < cols) {
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		used++;
	}
	return i;
}

/* Columns s takes. */
static size_t width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += (*s & 0xc0) != 0x80;
	return n;
}

/* Put head (cut to fit with "..." when it must be) and tail into out if
 * at least 4 columns of head fit in room; return whether they did. */
static int compose(const char *head, const char *tail, size_t room, struct strbuf *out)
{
	size_t head_w = width(head), tail_w = width(tail);

	if (head_w + tail_w <= room) {
		strbuf_addf(out, "%s%s", head, tail);
		return 1;
	}
	if (tail_w + 4 + 3 > room)
		return 0;
	strbuf_add(out, head, fit(head, room - tail_w - 3));
	strbuf_addf(out, "...%s", tail);
	return 1;
}

/* The line drawn on a terminal of `columns` columns, cut to fit in
 * columns - 1 (so that it never wraps): head, what, the last result, the
 * counts and the ETA; when that is too long the head is shortened (with
 * "..."), then the words and counts are left out, then the line is cut. */
static void format_line(const struct progress *p, int columns, struct strbuf *out)
{
	struct strbuf tail = STRBUF_INIT;
	size_t room = columns > 1 ? (size_t)columns - 1 : 1;
	char eta[32];

	format_eta(p, eta, sizeof(eta));
	strbuf_addf(&tail, " %s%s%s  (%d/%d, %s)", p->what, p->last[0] ? ", last " : "",
		    p->last, p->done, p->total, eta);
	if (compose(p->head, tail.buf, room, out))
		goto out;
	strbuf_reset(&tail);
	strbuf_addf(&tail, " %s%s%s %s", p->what_short, p->last[0] ? " " : "", p->last, eta);
	if (compose(p->head, tail.buf, room, out))
		goto out;
	strbuf_addf(out, "%s%s", p->head, tail.buf);
	out->buf[fit(out->buf, room)] = '\0';
	out->len = strlen(out->buf);
out:
	strbuf_release(&tail);
}

static void draw(struct progress *p)
{
	struct strbuf line = STRBUF_INIT;

	if (resized) {
		resized = 0;
		p->columns = read_columns();
	}
	format_line(p, p->columns, &line);
	fprintf(stderr, "\r\033[K%s", line.buf);
	fflush(stderr);
	strbuf_release(&line);
	p->shown = 1;
}
void progress_clear(struct progress *p)
{
	if (p->tty && p->shown) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
		p->shown = 0;
	}
}

void progress_start(struct progress *p, const char *section, const char *row,
		    int i, int n, int warmup)
{
	char head[PROGRESS_LINE_MAX];

	if (kb_quiet || !p->tty)
		return;
	snprintf(head, sizeof(head), "%s%s[%s] %s:", p->tag ? p->tag : "", p->tag ? " " : "",
		 section, row);
	/* The last value is of this row's samples only. */
	if (strcmp(head, p->head))
		p->last[0] = '\0';
	memcpy(p->head, head, sizeof(head));
	snprintf(p->what, sizeof(p->what), "%s %d/%s%d", warmup ? "warm-up" : "sample", i,
		 n < 0 ? "<=" : "", abs(n));
	snprintf(p->what_short, sizeof(p->what_short), "%s%d/%s%d", warmup ? "w" : "", i,
		 n < 0 ? "<=" : "", abs(n));
	draw(p);
}

void progress_end(struct progress *p, const char *section, const char *row,
		  int i, int n, int warmup, const char *result, int64_t duration_ns)
{
	p->done++;
	p->spent_ns += duration_ns;
	if (kb_quiet)
		return;
	if (p->tty) {
		/* One line: newlines of a result would break the redraw. */
		snprintf(p->last, sizeof(p->last), "%.*s", (int)strcspn(result, "\r\n"), result);
		draw(p);
		return;
	}
	if (!strncmp(result, "failed: ", 8))
		return;
	fprintf(stderr, "kbench: %s%s[%s] %s: %s %d/%s%d: %s (%d/%d)\n", p->tag ? p->tag : "",
		p->tag ? " " : "", section, row,
		warmup ? "warm-up" : "sample", i, n < 0 ? "<=" : "", abs(n), result, p->done,
		p->total);
}

void progress_format_result(const struct wl_params *params, const struct wl_sample *smp,
			    struct strbuf *sb)
{
	for (int i = 0; i < smp->nresults && i < 3; i++) {
		const struct wl_result *r = &smp->results[i];
		const struct wl_metric *m = &params->metrics[r->metric];

		if (m->name[0])
			strbuf_addf(sb, "%s%s %.4g %s", i ? ", " : "", r->row, r->value, m->unit);
		else
			strbuf_addf(sb, "%s%.4g %s", i ? ", " : "", r->value, m->unit);
	}
	if (smp->nresults > 3)
		strbuf_addf(sb, ", ... (%d values)", smp->nresults);
	if (smp->flag[0])
		strbuf_addf(sb, " [%s]", smp->flag);
}
