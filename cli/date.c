/* date: --since and --until values parsed into the bounds the store's
 * times are compared with. */
#include "config.h"
#include "cli/date.h"
#include "lib/error.h"
#include "lib/parse-options.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define DAY_S 86400

static int all_digits(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return 0;
	return 1;
}

static int num(const char *s, size_t n)
{
	int v = 0;

	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* "YYYY-MM-DD", then "THH:MM" (or " HH:MM"), then ":SS", then "Z", each
 * optional after the date. Sets the period [*start, *end) it names;
 * returns 0, or -1 when s is not such a date or names no real time. */
static int parse_iso(const char *s, time_t *start, time_t *end)
{
	size_t len = strlen(s);
	struct tm tm = { .tm_mday = 1 }, back;
	time_t t, span = DAY_S;

	if (len && s[len - 1] == 'Z' && len > 10)
		len--;
	if (len < 10 || !all_digits(s, 4) || s[4] != '-' || !all_digits(s + 5, 2) ||
	    s[7] != '-' || !all_digits(s + 8, 2))
		return -1;
	tm.tm_year = num(s, 4) - 1900;
	tm.tm_mon = num(s + 5, 2) - 1;
	tm.tm_mday = num(s + 8, 2);
	if (len > 10) {
		if ((s[10] != 'T' && s[10] != ' ') || len < 16 || !all_digits(s + 11, 2) ||
		    s[13] != ':' || !all_digits(s + 14, 2))
			return -1;
		tm.tm_hour = num(s + 11, 2);
		tm.tm_min = num(s + 14, 2);
		span = 60;
	}
	if (len > 16) {
		if (len != 19 || s[16] != ':' || !all_digits(s + 17, 2))
			return -1;
		tm.tm_sec = num(s + 17, 2);
		span = 1;
	}
	/* timegm normalises 2026-02-30 to March: a date that moved is none. */
	back = tm;
	t = timegm(&back);
	if (t == (time_t)-1 || back.tm_year != tm.tm_year || back.tm_mon != tm.tm_mon ||
	    back.tm_mday != tm.tm_mday || back.tm_hour != tm.tm_hour ||
	    back.tm_min != tm.tm_min || back.tm_sec != tm.tm_sec)
		return -1;
	*start = t;
	*end = t + span;
	return 0;
}

/* A --since or --until value as the period [*start, *end) it names:
 * a day, a minute or a second; an instant (start == end) for Nh, Nd, Nw.
 * Returns 0, or -1 when it is none of the accepted forms. */
static int parse_when(const char *s, time_t now, time_t *start, time_t *end)
{
	time_t midnight = now - now % DAY_S;
	size_t digits = strspn(s, "0123456789");

	if (!strcmp(s, "today") || !strcmp(s, "yesterday")) {
		*start = midnight - (s[0] == 'y' ? DAY_S : 0);
		*end = *start + DAY_S;
		return 0;
	}
	if (digits && digits <= 6 && s[digits] && !s[digits + 1] && strchr("hdw", s[digits])) {
		long n = strtol(s, NULL, 10);
		long unit = s[digits] == 'h' ? 3600 : s[digits] == 'd' ? DAY_S : 7 * DAY_S;

		*start = *end = now - (time_t)n * unit;
		return 0;
	}
	return parse_iso(s, start, end);
}

static void iso_format(time_t t, struct date_bound *out)
{
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(out->s, sizeof(out->s), "%Y-%m-%dT%H:%M:%SZ", &tm);
}

int cmd_parse_date(const struct parse_opt *opt, const char *value)
{
	time_t start, end;

	if (parse_when(value, time(NULL), &start, &end))
		return error("invalid date '%s' for --%s: expected YYYY-MM-DD, "
			     "YYYY-MM-DDTHH:MM[:SS], Nh, Nd, Nw, today or yesterday",
			     value, opt->long_name);
	iso_format(strcmp(opt->long_name, "until") ? start : end, opt->value);
	return 0;
}

