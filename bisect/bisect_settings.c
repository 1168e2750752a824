/* bisect_settings: the table of a bisection's settings, and the
 * "key=value" lines it writes and reads. */
#include "config.h"
#include "bisect/bisect_settings.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/experiment.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define TEXT(x) #x
#define NUMBER_TEXT(x) TEXT(x)

#define FIELD(f) offsetof(struct bisect_settings, f)

const struct bisect_setting bisect_settings_table[] = {
	{ "config", BISECT_SETTING_LIST, FIELD(configs), NULL, 0, 0, 0, 0, "-c",
	  "what to measure: an INI config (repeatable)" },
	{ "rounds", BISECT_SETTING_INT, FIELD(rounds), NUMBER_TEXT(BISECT_DEFAULT_ROUNDS),
	  BISECT_MIN_ROUNDS, EXPERIMENT_MAX_ROUNDS, 0, BISECT_SETTING_ALWAYS, "--rounds",
	  "rounds of a step before it is looked at, and\n"
	  "between looks (default 6)" },
	{ "max-rounds", BISECT_SETTING_INT, FIELD(max_rounds),
	  NUMBER_TEXT(BISECT_DEFAULT_MAX_ROUNDS), BISECT_MIN_ROUNDS, EXPERIMENT_MAX_ROUNDS, 0,
	  BISECT_SETTING_ALWAYS, "--max-rounds",
	  "the most rounds of a step before it is skipped\n"
	  "(default 12, at least --rounds)" },
	{ "threshold", BISECT_SETTING_DOUBLE, FIELD(threshold_pct),
	  NUMBER_TEXT(BISECT_DEFAULT_THRESHOLD), 0, INFINITY, 0, BISECT_SETTING_ALWAYS,
	  "--threshold", "the smallest change that counts (default 5)" },
	{ "row", BISECT_SETTING_STRING, FIELD(row), NULL, 0, 0, 0, 0, "--row",
	  "the row to bisect, as compare names it\n"
	  "(hackbench/4); default: the one the bad end\n"
	  "made worse the most" },
	{ "override", BISECT_SETTING_LIST, FIELD(overrides), NULL, 0, 0, 0, 0, "-o",
	  "set KEY in every section that takes it\n"
	  "(-o SECTION.KEY=VALUE: that section only;\n"
	  "repeatable), as kbench run takes it" },
	{ "only", BISECT_SETTING_STRING, FIELD(only), NULL, 0, 0, 0, 0, "--only",
	  "measure only the sections whose name matches\n"
	  "(PCRE2)" },
	{ "kconfig", BISECT_SETTING_STRING, FIELD(kconfig), NULL, 0, 0, 0, 0, "--kconfig", NULL },
	{ "fragment", BISECT_SETTING_LIST, FIELD(fragments), NULL, 0, 0, 0,
	  BISECT_SETTING_WITH_TEXT, "--fragment", NULL },
	{ "fragment-text", BISECT_SETTING_LIST, FIELD(fragment_texts), NULL, 0, 0, 0,
	  BISECT_SETTING_READ_ONLY, NULL, NULL },
	{ "guest-fragment", BISECT_SETTING_STRING, FIELD(guest_fragment), NULL, 0, 0, 0, 0, NULL,
	  NULL },
	{ "cache", BISECT_SETTING_STRING, FIELD(cache_dir), NULL, 0, 0, 0, 0, "--cache", NULL },
	{ "jobs", BISECT_SETTING_INT, FIELD(jobs), "0", 1, 4096, 0, 0, "--jobs", NULL },
	{ "build-timeout", BISECT_SETTING_DOUBLE, FIELD(build_timeout_s), "0", 0, INFINITY, 0, 0,
	  "--build-timeout", NULL },
	{ "vcpus", BISECT_SETTING_INT, FIELD(vcpus), "2", 1, 288, 0, BISECT_SETTING_ALWAYS,
	  "--vcpus", "the guests' vCPUs (default 2)" },
	{ "memory", BISECT_SETTING_INT, FIELD(mem_mib), "512", 64, 1 << 22, 0,
	  BISECT_SETTING_ALWAYS, "--memory", "the guests' memory in MiB (default 512)" },
	{ "accel", BISECT_SETTING_STRING, FIELD(accel), "auto", 0, 0, 0, BISECT_SETTING_ALWAYS,
	  "--accel",
	  "KVM, TCG, or KVM when it boots the guest and\n"
	  "TCG otherwise (default auto)" },
	{ "append", BISECT_SETTING_STRING, FIELD(append), NULL, 0, 0, 0, 0, "--append",
	  "more of the guests' command line" },
	{ "icount", BISECT_SETTING_INT, FIELD(icount_shift), "-1", 0, 10, 0, BISECT_SETTING_FLAG,
	  "--icount",
	  "under TCG, time the guests by the instructions\n"
	  "they run, not the host's clock (needs --vcpus 1)" },
	{ "boot-timeout", BISECT_SETTING_DOUBLE, FIELD(boot_timeout_s), "60", 0, INFINITY, 1,
	  BISECT_SETTING_ALWAYS, "--boot-timeout",
	  "how long a guest may take to come up (default 60)" },
};

const size_t bisect_settings_count = sizeof(bisect_settings_table) /
				     sizeof(bisect_settings_table[0]);

const struct bisect_setting *bisect_setting_find(const char *key)
{
	for (size_t i = 0; i < bisect_settings_count; i++)
		if (!strcmp(bisect_settings_table[i].key, key))
			return &bisect_settings_table[i];
	return NULL;
}

#define AT(s, d, type) ((type *)((char *)(s) + (d)->offset))
#define AT_CONST(s, d, type) ((const type *)((const char *)(s) + (d)->offset))

/* Set the value of d in s from text v; a number is checked against its
 * range when check is set. Return 0, or -1 when v does not fit. */
static int set_value(struct bisect_settings *s, const struct bisect_setting *d, const char *v,
		     int check)
{
	char *end;
	double x;
	long n;

	switch (d->type) {
	case BISECT_SETTING_INT:
		errno = 0;
		n = strtol(v, &end, 10);
		if (errno || end == v || *end ||
		    (check && (n < d->lo || n > d->hi || (d->lo_open && n == d->lo))))
			return -1;
		*AT(s, d, int) = (int)n;
		return 0;
	case BISECT_SETTING_DOUBLE:
		/* As strtod takes it: an empty value reads as 0. */
		x = strtod(v, &end);
		if (*end || (check && (!(x >= d->lo) || x > d->hi || (d->lo_open && x == d->lo))))
			return -1;
		*AT(s, d, double) = x;
		return 0;
	case BISECT_SETTING_STRING:
		free(*AT(s, d, char *));
		*AT(s, d, char *) = xstrdup(v);
		return 0;
	case BISECT_SETTING_LIST:
		argv_list_push(AT(s, d, struct argv_list), v);
		return 0;
	}
	return -1;
}

void bisect_settings_init(struct bisect_settings *s)
{
	memset(s, 0, sizeof(*s));
	for (size_t i = 0; i < bisect_settings_count; i++)
		if (bisect_settings_table[i].def)
			set_value(s, &bisect_settings_table[i], bisect_settings_table[i].def, 0);
}

void bisect_settings_release(struct bisect_settings *s)
{
	for (size_t i = 0; i < bisect_settings_count; i++) {
		const struct bisect_setting *d = &bisect_settings_table[i];

		if (d->type == BISECT_SETTING_STRING)
			free(*AT(s, d, char *));
		else if (d->type == BISECT_SETTING_LIST)
			argv_list_release(AT(s, d, struct argv_list));
	}
	memset(s, 0, sizeof(*s));
}

int bisect_setting_is_default(const struct bisect_settings *s, const struct bisect_setting *d)
{
	struct bisect_settings def;
	int same;

	memset(&def, 0, sizeof(def));
	if (d->def)
		set_value(&def, d, d->def, 0);
	switch (d->type) {
	case BISECT_SETTING_INT:
		same = *AT_CONST(s, d, int) == *AT_CONST(&def, d, int);
		break;
	case BISECT_SETTING_DOUBLE:
		same = *AT_CONST(s, d, double) == *AT_CONST(&def, d, double);
		break;
	case BISECT_SETTING_STRING: {
		const char *a = *AT_CONST(s, d, char *), *b = *AT_CONST(&def, d, char *);

		same = a && b ? !strcmp(a, b) : a == b;
		break;
	}
	default:
		same = !AT_CONST(s, d, struct argv_list)->n &&
		       !AT_CONST(&def, d, struct argv_list)->n;
		break;
	}
	bisect_settings_release(&def);
	return same;
}

int bisect_setting_text(const struct bisect_settings *s, const struct bisect_setting *d,
			size_t n, struct strbuf *out)
{
	strbuf_reset(out);
	if (d->type == BISECT_SETTING_LIST) {
		const struct argv_list *l = AT_CONST(s, d, struct argv_list);

		if (n >= l->n)
			return -1;
		strbuf_addstr(out, l->v[n]);
		return 0;
	}
	if (n || (!(d->flags & BISECT_SETTING_ALWAYS) && bisect_setting_is_default(s, d)))
		return -1;
	switch (d->type) {
	case BISECT_SETTING_INT:
		strbuf_addf(out, "%d", *AT_CONST(s, d, int));
		return 0;
	case BISECT_SETTING_DOUBLE:
		strbuf_addf(out, "%g", *AT_CONST(s, d, double));
		return 0;
	default:
		if (!*AT_CONST(s, d, char *))
			return -1;
		strbuf_addstr(out, *AT_CONST(s, d, char *));
		return 0;
	}
}

/* The text of the file at path as one line, "\n" and "\\" escaped (a
 * carriage return left out), after "fragment-text="; nothing when it
 * cannot be read. */
static void write_file_text(const char *path, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;

	if (!strbuf_read_file(&text, path)) {
		strbuf_addstr(out, "fragment-text=");
		for (size_t k = 0; k < text.len; k++)
			if (text.buf[k] == '\n')
				strbuf_addstr(out, "\\n");
			else if (text.buf[k] == '\\')
				strbuf_addstr(out, "\\\\");
			else if (text.buf[k] != '\r')
				strbuf_addch(out, text.buf[k]);
		strbuf_addch(out, '\n');
	}
	strbuf_release(&text);
}

void bisect_settings_write(const struct bisect_settings *s, struct strbuf *out)
{
	struct strbuf val = STRBUF_INIT;

	for (size_t i = 0; i < bisect_settings_count; i++) {
		const struct bisect_setting *d = &bisect_settings_table[i];

		if (d->flags & BISECT_SETTING_READ_ONLY)
			continue;
		for (size_t n = 0; !bisect_setting_text(s, d, n, &val); n++) {
			strbuf_addf(out, "%s=%s\n", d->key, val.buf);
			if (d->flags & BISECT_SETTING_WITH_TEXT)
				write_file_text(val.buf, out);
		}
	}
	strbuf_release(&val);
}

int bisect_settings_read(struct bisect_settings *s, const char *text, struct strbuf *err)
{
	char *copy = xstrdup(text), *line, *save = NULL;
	int rc = 0;

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *eq = strchr(line, '=');
		const struct bisect_setting *d;

		if (!eq) {
			if (!rc)
				strbuf_addf(err, "a stored setting '%s' has no value", line);
			rc = -1;
			continue;
		}
		*eq = '\0';
		d = bisect_setting_find(line);
		if (!d || set_value(s, d, eq + 1, 1)) {
			if (!rc)
				strbuf_addf(err, "the stored setting %s = '%s' is not one this "
					    "kbench reads", line, eq + 1);
			rc = -1;
		}
	}
	free(copy);
	return rc;
}
