/* mmtests_log: the figures of one benchmark log of an mmtests results
 * directory, read as mmtests' own extraction reads them (its
 * shellpack_src/src/<bench>/parse-results, extract-report.pl and the
 * Extract*.pm modules), but refusing, with file and line, a figure that
 * is not a number where mmtests would read garbage. */
#include "config.h"
#include "mmtests/mmtests.h"
#include "lib/name.h"
#include "lib/regex.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The patterns of the logs whose figure follows a label; group 1 is the
 * figure, as much of the line as could be one. */
static const struct {
	enum mmtests_log kind;
	const char *pattern;
	const char *what;	/* what the figure is, for messages */
} labelled[] = {
	/* perf bench sched messaging: "     Total time: 0.123 [sec]", as
	 * mmtests since May 2019 reads it (its pattern is unanchored) */
	{ MMTESTS_LOG_HACKBENCH, "Total time:[ \\t]*(\\S*)", "a time in seconds" },
	/* the hackbench.c mmtests ran before: "Time: 0.123", read by mmtests
	 * of then as /^Time: (.*)/ */
	{ MMTESTS_LOG_HACKBENCH_TIME, "^Time:[ \\t]*(\\S*)", "a time in seconds" },
	{ MMTESTS_LOG_TBENCH, "^\\s*Throughput\\b[ \\t]*(\\S*)", "MB/sec after 'Throughput'" },
	{ MMTESTS_LOG_SYSBENCH_CPU, "events per second:[ \\t]*(\\S*)",
	  "a rate after 'events per second:'" },
};
#define NLABELLED (sizeof(labelled) / sizeof(labelled[0]))

struct mmtests_parser {
	struct kb_regex *re[NLABELLED];
};

struct mmtests_parser *mmtests_parser_new(void)
{
	struct mmtests_parser *p = xcalloc(1, sizeof(*p));
	struct strbuf err = STRBUF_INIT;

	for (size_t i = 0; i < NLABELLED; i++) {
		p->re[i] = kb_regex_compile(labelled[i].pattern, 0, &err);
		if (!p->re[i]) {
			fprintf(stderr, "kbench: mmtests pattern '%s': %s\n", labelled[i].pattern,
				err.buf);
			strbuf_release(&err);
			mmtests_parser_free(p);
			return NULL;
		}
	}
	strbuf_release(&err);
	return p;
}

void mmtests_parser_free(struct mmtests_parser *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < NLABELLED; i++)
		kb_regex_free(p->re[i]);
	free(p);
}

void mmtests_values_release(struct mmtests_values *vals)
{
	free(vals->v);
	memset(vals, 0, sizeof(*vals));
}

static void push(struct mmtests_values *vals, double v)
{
	if (vals->n == vals->alloc) {
		vals->alloc = vals->alloc ? 2 * vals->alloc : 16;
		vals->v = xrealloc(vals->v, vals->alloc * sizeof(*vals->v));
	}
	vals->v[vals->n++] = v;
}

/* tok[0..len) as a finite decimal number: digits, one point, an exponent;
 * no sign, no hex, no inf or nan (mmtests reads [0-9.]). */
static int parse_number(const char *tok, size_t len, double *out)
{
	char buf[64], *end;
	int digits = 0;

	if (!len || len >= sizeof(buf))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (isdigit((unsigned char)tok[i]))
			digits = 1;
		else if (!strchr(".eE+-", tok[i]))
			return -1;
	}
	if (!digits || !(isdigit((unsigned char)tok[0]) || tok[0] == '.'))
		return -1;
	memcpy(buf, tok, len);
	buf[len] = '\0';
	*out = strtod(buf, &end);
	return *end || !isfinite(*out) ? -1 : 0;
}

/* "NAME:LINE: expected WHAT, found 'TOKEN'" into err; -1. */
static int log_error(struct strbuf *err, const char *name, size_t line, const char *what,
	       const char *tok, size_t len)
{
	strbuf_addf(err, "%s:%zu: expected %s, found ", name, line, what);
	if (!len) {
		strbuf_addstr(err, "nothing");
		return -1;
	}
	strbuf_addch(err, '\'');
	for (size_t i = 0; i < len && i < 40; i++)
		if (isprint((unsigned char)tok[i]))
			strbuf_addch(err, tok[i]);
		else
			name_escape_byte(err, (unsigned char)tok[i]);
	strbuf_addf(err, "'%s", len > 40 ? "..." : "");
	return -1;
}

/* The blank-separated fields of line[0..len): up to max, their starts and
 * lengths; returns how many there are in all. */
static size_t fields(const char *line, size_t len, const char **f, size_t *flen, size_t max)
{
	size_t n = 0, i = 0;

	while (i < len) {
		size_t start;

		while (i < len && isspace((unsigned char)line[i]))
			i++;
		if (i == len)
			break;
		start = i;
		while (i < len && !isspace((unsigned char)line[i]))
			i++;
		if (n < max) {
			f[n] = line + start;
			flen[n] = i - start;
		}
		n++;
	}
	return n;
}

static int has_letter(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (isalpha((unsigned char)s[i]))
			return 1;
	return 0;
}

/* A log whose figures follow a label, each match one record (tbench: the
 * last one only). */
static int parse_labelled(struct mmtests_parser *p, size_t k, const char *name, const char *line,
			  size_t len, size_t lineno, struct mmtests_values *vals, struct strbuf *err)
{
	struct kb_regex_span m;
	size_t pos = 0;
	double v;
	int rc = kb_regex_find(p->re[k], line, len, &pos, 1, &m, err);

	if (rc < 0)
		return -1;
	if (!rc)
		return 0;
	if (parse_number(line + m.gstart, m.gend - m.gstart, &v))
		return log_error(err, name, lineno, labelled[k].what, line + m.gstart, m.gend - m.gstart);
	if (labelled[k].kind == MMTESTS_LOG_TBENCH)
		vals->n = 0;
	push(vals, v);
	return 0;
}

/* Count line[0..len) in *count when pattern k finds it, its figure
 * unread. */
static int count_labelled(struct mmtests_parser *p, size_t k, const char *line, size_t len,
			  size_t *count, struct strbuf *err)
{
	struct kb_regex_span m;
	size_t pos = 0;
	int rc = kb_regex_find(p->re[k], line, len, &pos, 1, &m, err);

	if (rc > 0)
		(*count)++;
	return rc < 0 ? -1 : 0;
}

/* The other form of a hackbench log (-1: kind has none). */
static int other_form(enum mmtests_log kind)
{
	return kind == MMTESTS_LOG_HACKBENCH ? MMTESTS_LOG_HACKBENCH_TIME :
		kind == MMTESTS_LOG_HACKBENCH_TIME ? MMTESTS_LOG_HACKBENCH : -1;
}

/* Whether line[0..len) holds word. */
static int has_word(const char *line, size_t len, const char *word)
{
	return memmem(line, len, word, strlen(word)) != NULL;
}

/* The unit a header line of netperf's names its result in, as netperf's
 * -f letter (its format_units(): "per sec" under "Trans. Rate" for
 * transactions, else "10^6bits/sec", "KBytes/sec" and the like); 0 for a
 * line that names none. Interim results ("Interim result: 1.13
 * 10^6bits/s over ...") are not the header. */
static char netperf_unit(const char *line, size_t len)
{
	static const struct {
		const char *word;
		char letter;
	} units[] = {
		{ "per sec", 'x' },
		{ "10^0bits/s", 'b' }, { "10^3bits/s", 'k' }, { "10^6bits/s", 'm' },
		{ "10^9bits/s", 'g' },
		{ "KBytes/s", 'K' }, { "MBytes/s", 'M' }, { "GBytes/s", 'G' }, { "Bytes/s", 'B' },
	};
	size_t skip = 0;

	while (skip < len && isspace((unsigned char)line[skip]))
		skip++;
	if (len - skip >= 14 && !memcmp(line + skip, "Interim result", 14))
		return 0;
	for (size_t i = 0; i < sizeof(units) / sizeof(units[0]); i++)
		if (has_word(line, len, units[i].word))
			return units[i].letter;
	return 0;
}

/* netperf's output: lines with a letter are headers, warnings and interim
 * results; of the others, the result line's last field is the figure.
 * The unit is the one the last header line before the result names. */
static int parse_netperf(enum mmtests_log kind, const char *name, const char *line, size_t len,
			 size_t lineno, double *send, double *recv, int *found,
			 struct mmtests_values *vals, char *unit, size_t *unit_line,
			 struct strbuf *err)
{
	const char *f[8];
	size_t flen[8], n;
	double v;

	if (has_letter(line, len)) {
		char u = netperf_unit(line, len);

		if (u) {
			*unit = u;
			*unit_line = lineno;
		}
		return 0;
	}
	n = fields(line, len, f, flen, 8);
	if (kind == MMTESTS_LOG_NETPERF ? n < 5 : n != 6 && n != 4)
		return 0;
	/* the last field: the eighth or later is found again from the end */
	if (n > 8) {
		const char *e = line + len;

		while (e > line && isspace((unsigned char)e[-1]))
			e--;
		f[7] = e;
		while (f[7] > line && !isspace((unsigned char)f[7][-1]))
			f[7]--;
		flen[7] = (size_t)(e - f[7]);
		n = 8;
	}
	if (parse_number(f[n - 1], flen[n - 1], &v))
		return log_error(err, name, lineno, "a throughput as the result line's last field",
			   f[n - 1], flen[n - 1]);
	if (kind == MMTESTS_LOG_UDP_STREAM && n == 4) {
		*recv = v;
	} else {
		*send = v;
		*found = 1;
		vals->unit = *unit;
		vals->unit_line = *unit_line;
		vals->result_line = lineno;
	}
	return 0;
}

/* pft: every 's' dropped (the unit of its times), lines with a letter
 * skipped; the others are size, threads, cache lines, user, system,
 * elapsed, faults per CPU second and faults per second. */
static int parse_pft(const char *name, const char *line, size_t len, size_t lineno,
		     struct mmtests_values *vals, struct strbuf *err)
{
	struct strbuf sb = STRBUF_INIT;
	const char *f[8];
	size_t flen[8], n;
	double v[5];
	int rc = 0;

	for (size_t i = 0; i < len; i++)
		if (line[i] != 's')
			strbuf_addch(&sb, line[i]);
	if (has_letter(sb.buf, sb.len))
		goto out;
	n = fields(sb.buf, sb.len, f, flen, 8);
	if (!n)
		goto out;
	if (n != 8) {
		strbuf_addf(err, "%s:%zu: expected 8 fields (size, threads, cache lines, user, "
			    "system, elapsed, faults/cpu, faults/sec), found %zu", name, lineno, n);
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < 5; i++)
		if (parse_number(f[3 + i], flen[3 + i], &v[i])) {
			rc = log_error(err, name, lineno, "a number", f[3 + i], flen[3 + i]);
			goto out;
		}
	for (size_t i = 0; i < 5; i++)
		push(vals, v[i]);
out:
	strbuf_release(&sb);
	return rc;
}

int mmtests_parse_log(struct mmtests_parser *p, enum mmtests_log kind, const char *name,
		      const char *text, size_t len, struct mmtests_values *vals,
		      struct strbuf *err)
{
	double send = 0, recv = 0;
	int found = 0, other = other_form(kind);
	size_t lineno = 0, pos = 0, unit_line = 0;
	char unit = 0;

	vals->n = 0;
	vals->per = kind == MMTESTS_LOG_UDP_STREAM ? 2 : kind == MMTESTS_LOG_PFT ? 5 : 1;
	vals->other = 0;
	vals->unit = 0;
	vals->unit_line = vals->result_line = 0;
	while (pos < len) {
		const char *line = text + pos, *nl = memchr(line, '\n', len - pos);
		size_t llen = nl ? (size_t)(nl - line) : len - pos;
		int rc = 0;

		pos += llen + 1;
		lineno++;
		switch (kind) {
		case MMTESTS_LOG_NETPERF:
		case MMTESTS_LOG_UDP_STREAM:
			rc = parse_netperf(kind, name, line, llen, lineno, &send, &recv, &found, vals,
					   &unit, &unit_line, err);
			break;
		case MMTESTS_LOG_PFT:
			rc = parse_pft(name, line, llen, lineno, vals, err);
			break;
		default:
			for (size_t k = 0; !rc && k < NLABELLED; k++)
				if (labelled[k].kind == kind)
					rc = parse_labelled(p, k, name, line, llen, lineno, vals, err);
				else if ((int)labelled[k].kind == other)
					rc = count_labelled(p, k, line, llen, &vals->other, err);
			break;
		}
		if (rc)
			return -1;
	}
	if (found) {
		push(vals, send);
		if (kind == MMTESTS_LOG_UDP_STREAM)
			push(vals, recv);
	}
	return 0;
}
