/* experiment_settings: the table of an experiment's design settings, and
 * the reading, checking and merging of their values in struct
 * experiment_options. */
#include "config.h"
#include "experiment/experiment_settings.h"
#include "experiment/experiment.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define TEXT(x) #x
#define NUMBER_TEXT(x) TEXT(x)

#define FIELD(f) offsetof(struct experiment_options, f)
#define NO_FLAG 0

const struct experiment_setting experiment_settings_table[] = {
	{ "rounds", "--rounds", "N|auto", EXPERIMENT_SETTING_ROUNDS, FIELD(rounds),
	  FIELD(rounds_auto), NUMBER_TEXT(EXPERIMENT_DEFAULT_ROUNDS), 1, EXPERIMENT_MAX_ROUNDS,
	  1, 0,
	  "auto (a sequential design) or an integer from 1 to "
	  NUMBER_TEXT(EXPERIMENT_MAX_ROUNDS),
	  "auto or an integer from 1 to " NUMBER_TEXT(EXPERIMENT_MAX_ROUNDS),
	  "rounds of every arm (default: [experiment] rounds,\n"
	  "else 12); auto: a sequential design" },
	{ "min-rounds", "--min-rounds", "N", EXPERIMENT_SETTING_INT, FIELD(min_rounds), NO_FLAG,
	  NUMBER_TEXT(EXPERIMENT_SEQ_MIN_ROUNDS), 1, EXPERIMENT_MAX_ROUNDS, 3,
	  EXPERIMENT_SETTING_SEQUENTIAL,
	  "an integer from 1 to " NUMBER_TEXT(EXPERIMENT_MAX_ROUNDS), NULL,
	  "--rounds auto: the first look's rounds (default 4)" },
	{ "max-rounds", "--max-rounds", "N", EXPERIMENT_SETTING_INT, FIELD(max_rounds), NO_FLAG,
	  NUMBER_TEXT(EXPERIMENT_SEQ_MAX_ROUNDS), 1, EXPERIMENT_MAX_ROUNDS, 3,
	  EXPERIMENT_SETTING_SEQUENTIAL,
	  "an integer from 1 to " NUMBER_TEXT(EXPERIMENT_MAX_ROUNDS), NULL,
	  "--rounds auto: the most rounds (default 24)" },
	{ "look-every", "--look-every", "N", EXPERIMENT_SETTING_INT, FIELD(look_every), NO_FLAG,
	  NUMBER_TEXT(EXPERIMENT_SEQ_EVERY), 1, EXPERIMENT_MAX_ROUNDS, 1,
	  EXPERIMENT_SETTING_SEQUENTIAL,
	  "an integer from 1 to " NUMBER_TEXT(EXPERIMENT_MAX_ROUNDS), NULL,
	  "--rounds auto: rounds between looks (default 2)" },
	{ "equivalence", "--equivalence", "PCT", EXPERIMENT_SETTING_PCT, FIELD(equivalence),
	  FIELD(has_equivalence), NUMBER_TEXT(EXPERIMENT_SEQ_EQUIVALENCE), 0, 100, 0,
	  EXPERIMENT_SETTING_SEQUENTIAL,
	  "a percentage from 0 to 100 (5%: no change larger than 5% of the baseline's mean; "
	  "0: never stop for no change)",
	  "a percentage from 0 to 100",
	  "--rounds auto: stop for no change once the change\n"
	  "is known within +/-PCT% (default 5; 0: never)" },
	{ "watch", "--watch", "REGEX", EXPERIMENT_SETTING_STRING, FIELD(watch), NO_FLAG, NULL,
	  0, 0, 0, EXPERIMENT_SETTING_SEQUENTIAL, NULL, NULL,
	  "--rounds auto: the SECTION/ROW mean rows that must\n"
	  "be decided to stop (PCRE2; default: every one)" },
	/* Asked of every arm, not a key of [experiment]. */
	{ NULL, "--iterations", "N", EXPERIMENT_SETTING_INT, FIELD(iterations), NO_FLAG, NULL,
	  1, 100000, 1, 0, NULL, NULL,
	  "samples per row of each arm in each round\n"
	  "(default: the sections' iterations)" },
	{ "order", "--order", "ORDER", EXPERIMENT_SETTING_ORDER, FIELD(order), NO_FLAG, "abba",
	  0, 0, 0, EXPERIMENT_SETTING_NO_SECTION, "abba or shuffle", NULL,
	  "abba (default: AB BA AB ...) or shuffle (seeded)" },
	{ "seed", "--seed", "S", EXPERIMENT_SETTING_SEED, FIELD(seed), FIELD(has_seed), NULL,
	  0, 0, 0, EXPERIMENT_SETTING_NO_SECTION, "an integer from 0 to 18446744073709551615",
	  NULL, "the seed of --order shuffle" },
	/* Asked of every arm, not a key of [experiment]. */
	{ NULL, "--only", "REGEX", EXPERIMENT_SETTING_STRING, FIELD(only), NO_FLAG, NULL,
	  0, 0, 0, 0, NULL, NULL, "run only the sections whose name matches (PCRE2)" },
};

const size_t experiment_settings_count = sizeof(experiment_settings_table) /
					 sizeof(experiment_settings_table[0]);

const struct experiment_setting *experiment_setting_find_key(const char *key)
{
	for (size_t i = 0; i < experiment_settings_count; i++)
		if (experiment_settings_table[i].key && !strcmp(experiment_settings_table[i].key, key))
			return &experiment_settings_table[i];
	return NULL;
}

const struct experiment_setting *experiment_setting_find_option(const char *option)
{
	if (!strncmp(option, "--", 2))
		option += 2;
	for (size_t i = 0; i < experiment_settings_count; i++)
		if (!strcmp(experiment_settings_table[i].option + 2, option))
			return &experiment_settings_table[i];
	return NULL;
}

#define AT(o, off, type) ((type *)((char *)(o) + (off)))
#define AT_CONST(o, off, type) ((const type *)((const char *)(o) + (off)))

int experiment_setting_given(const struct experiment_options *o,
			     const struct experiment_setting *d)
{
	switch (d->type) {
	case EXPERIMENT_SETTING_ROUNDS:
		return *AT_CONST(o, d->offset, int) || *AT_CONST(o, d->flag_offset, int);
	case EXPERIMENT_SETTING_INT:
		return *AT_CONST(o, d->offset, int) != 0;
	case EXPERIMENT_SETTING_PCT:
	case EXPERIMENT_SETTING_SEED:
		return *AT_CONST(o, d->flag_offset, int);
	default:
		return *AT_CONST(o, d->offset, const char *) != NULL;
	}
}

int experiment_parse_int(const char *text, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(text, &end, 10);
	if (errno || end == text || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* An equivalence bound: a percentage from 0 to 100, "%" optional, into
 * *out. Return 0, or -1 when text is not one. */
static int parse_pct(const char *text, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(text, &end);
	if (end != text && *end == '%')
		end++;
	if (errno || end == text || *end || !(v >= 0 && v <= 100))
		return -1;
	*out = v;
	return 0;
}

/* Value as d (its numbers from lo) into o. Return 0, or -1 when it is
 * not one. */
static int set_value(struct experiment_options *o, const struct experiment_setting *d,
		     const char *value, int lo)
{
	switch (d->type) {
	case EXPERIMENT_SETTING_ROUNDS:
		*AT(o, d->offset, int) = 0;
		*AT(o, d->flag_offset, int) = !strcmp(value, "auto");
		if (*AT(o, d->flag_offset, int))
			return 0;
		return experiment_parse_int(value, lo, d->hi, AT(o, d->offset, int));
	case EXPERIMENT_SETTING_INT:
		return experiment_parse_int(value, lo, d->hi, AT(o, d->offset, int));
	case EXPERIMENT_SETTING_PCT:
		if (parse_pct(value, AT(o, d->offset, double)))
			return -1;
		*AT(o, d->flag_offset, int) = 1;
		return 0;
	case EXPERIMENT_SETTING_ORDER:
		if (strcmp(value, "abba") && strcmp(value, "shuffle"))
			return -1;
		*AT(o, d->offset, const char *) = value;
		return 0;
	case EXPERIMENT_SETTING_SEED: {
		char *end;
		unsigned long long v;

		errno = 0;
		v = strtoull(value, &end, 10);
		if (errno || end == value || *end || *value == '-')
			return -1;
		*AT(o, d->offset, uint64_t) = (uint64_t)v;
		*AT(o, d->flag_offset, int) = 1;
		return 0;
	}
	default:
		*AT(o, d->offset, const char *) = value;
		return 0;
	}
}

int experiment_setting_read(struct experiment_options *o, const struct experiment_setting *d,
			    const char *value, const char *where)
{
	if (!set_value(o, d, value, d->lo))
		return 0;
	if (d->flags & EXPERIMENT_SETTING_NO_SECTION)
		return error("%s: %s = '%s': expected %s", where, d->key, value, d->expect);
	return error("%s: %s = '%s' in [experiment]: expected %s", where, d->key, value,
		     d->expect);
}

int experiment_setting_parse_option(struct experiment_options *o,
				    const struct experiment_setting *d, const char *value)
{
	if (!d->option_expect)
		return experiment_setting_read(o, d, value, d->option);
	if (set_value(o, d, value, d->option_lo))
		return error("%s takes %s, not '%s'", d->option, d->option_expect, value);
	return 0;
}

int experiment_settings_unknown_key(const char *key, const char *where)
{
	struct strbuf keys = STRBUF_INIT;
	const char *sep = "";

	for (int sequential = 0; sequential < 2; sequential++) {
		if (sequential) {
			strbuf_addstr(&keys, ", and with rounds = auto");
			sep = " ";
		}
		for (size_t i = 0; i < experiment_settings_count; i++) {
			const struct experiment_setting *d = &experiment_settings_table[i];

			if (!d->key || !(d->flags & EXPERIMENT_SETTING_SEQUENTIAL) != !sequential)
				continue;
			strbuf_addf(&keys, "%s%s", sep, d->key);
			sep = ", ";
		}
	}
	error("%s: unknown key '%s' in [experiment] (it takes %s)", where, key, keys.buf);
	strbuf_release(&keys);
	return -1;
}

void experiment_settings_options_text(struct strbuf *out)
{
	for (size_t i = 0; i < experiment_settings_count; i++)
		strbuf_addf(out, ", %s", experiment_settings_table[i].option);
}

const struct experiment_setting *experiment_settings_first_given(
	const struct experiment_options *o)
{
	for (size_t i = 0; i < experiment_settings_count; i++)
		if (experiment_setting_given(o, &experiment_settings_table[i]))
			return &experiment_settings_table[i];
	return NULL;
}

const struct experiment_setting *experiment_settings_first_sequential(
	const struct experiment_options *o)
{
	for (size_t i = 0; i < experiment_settings_count; i++) {
		const struct experiment_setting *d = &experiment_settings_table[i];

		if ((d->flags & EXPERIMENT_SETTING_SEQUENTIAL) && experiment_setting_given(o, d))
			return d;
	}
	return NULL;
}

/* The fields of setting d, from src to dst. */
static void copy_setting(struct experiment_options *dst, const struct experiment_options *src,
			 const struct experiment_setting *d)
{
	switch (d->type) {
	case EXPERIMENT_SETTING_ROUNDS:
		*AT(dst, d->flag_offset, int) = *AT_CONST(src, d->flag_offset, int);
		/* fall through */
	case EXPERIMENT_SETTING_INT:
		*AT(dst, d->offset, int) = *AT_CONST(src, d->offset, int);
		return;
	case EXPERIMENT_SETTING_PCT:
		*AT(dst, d->offset, double) = *AT_CONST(src, d->offset, double);
		*AT(dst, d->flag_offset, int) = *AT_CONST(src, d->flag_offset, int);
		return;
	case EXPERIMENT_SETTING_SEED:
		*AT(dst, d->offset, uint64_t) = *AT_CONST(src, d->offset, uint64_t);
		*AT(dst, d->flag_offset, int) = *AT_CONST(src, d->flag_offset, int);
		return;
	default:
		*AT(dst, d->offset, const char *) = *AT_CONST(src, d->offset, const char *);
		return;
	}
}

void experiment_settings_merge(struct experiment_options *over,
			       const struct experiment_options *under)
{
	for (size_t i = 0; i < experiment_settings_count; i++) {
		const struct experiment_setting *d = &experiment_settings_table[i];

		if (!experiment_setting_given(over, d))
			copy_setting(over, under, d);
	}
}

void experiment_settings_defaults(struct experiment_options *o)
{
	for (size_t i = 0; i < experiment_settings_count; i++) {
		const struct experiment_setting *d = &experiment_settings_table[i];

		/* The default order is abba, the field's NULL. */
		if (d->def && d->type != EXPERIMENT_SETTING_ORDER &&
		    !experiment_setting_given(o, d))
			set_value(o, d, d->def, d->lo);
	}
}

int experiment_parse_seed(const char *text, const char *where, uint64_t *out)
{
	struct experiment_options o = { .seed = 0 };

	if (experiment_setting_read(&o, experiment_setting_find_key("seed"), text, where))
		return -1;
	*out = o.seed;
	return 0;
}
