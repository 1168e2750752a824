/* t1431-experiment-settings: the table of an experiment's design settings
 * (experiment/experiment_settings.h). Every entry's default is within its
 * range and lands in its field; each key and option finds its entry and
 * writes its own field; a value out of its range is refused with a
 * message naming the key (or the option); an unknown key lists the keys
 * [experiment] takes; the options over the keys, and what --resume
 * refuses, in kbench ab's order.
 * Covers: experiment/experiment_settings.c */
#include "config.h"
#include "experiment/experiment.h"
#include "experiment/experiment_settings.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The stderr of fn(arg) into err. Return what fn returned. */
static int captured(int (*fn)(void *), void *arg, struct strbuf *err)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	char buf[1024];
	size_t n;

	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = fn(arg);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	strbuf_reset(err);
	while ((n = fread(buf, 1, sizeof(buf), tmp)) > 0)
		strbuf_add(err, buf, n);
	fclose(tmp);
	return rc;
}

struct read_call {
	struct experiment_options *o;
	const char *key, *option, *value;
};

static int do_read(void *arg)
{
	struct read_call *c = arg;

	if (c->option)
		return experiment_setting_parse_option(c->o,
						       experiment_setting_find_option(c->option),
						       c->value);
	return experiment_setting_read(c->o, experiment_setting_find_key(c->key), c->value,
				       "t.conf:2");
}

static int do_unknown(void *arg)
{
	return experiment_settings_unknown_key(arg, "t.conf:3");
}

/* Read value as key (option NULL) or option into o; its message in err. */
static int read_one(struct experiment_options *o, const char *key, const char *option,
		    const char *value, struct strbuf *err)
{
	struct read_call c = { o, key, option, value };

	return captured(do_read, &c, err);
}

static void test_table(void)
{
	for (size_t i = 0; i < experiment_settings_count; i++) {
		const struct experiment_setting *d = &experiment_settings_table[i];
		struct experiment_options o = { .name = NULL }, none = { .name = NULL };

		ok(experiment_setting_find_option(d->option) == d &&
		   experiment_setting_find_option(d->option + 2) == d &&
		   (!d->key || experiment_setting_find_key(d->key) == d),
		   "%s: found by its option and key", d->option);
		ok(d->help && d->argh && !strncmp(d->option, "--", 2) && d->option_lo >= d->lo,
		   "%s: help, value name, and the option's range within the key's", d->option);
		ok(!experiment_setting_given(&none, d), "%s: not given when not set", d->option);
		experiment_settings_defaults(&o);
		if (!d->def || d->type == EXPERIMENT_SETTING_ORDER) {
			ok(!experiment_setting_given(&o, d), "%s: no default set", d->option);
			continue;
		}
		ok(experiment_setting_given(&o, d), "%s: its default set", d->option);
		if (d->type == EXPERIMENT_SETTING_INT || d->type == EXPERIMENT_SETTING_ROUNDS) {
			int v = *(const int *)((const char *)&o + d->offset);

			ok(v >= d->option_lo && v <= d->hi, "%s: default %d within %d..%d",
			   d->option, v, d->option_lo, d->hi);
		} else {
			double v = *(const double *)((const char *)&o + d->offset);

			ok(v >= d->lo && v <= d->hi, "%s: default %g within %d..%d", d->option,
			   v, d->lo, d->hi);
		}
	}
}

static void test_defaults(void)
{
	struct experiment_options o = { .name = NULL };

	experiment_settings_defaults(&o);
	ok(o.rounds == EXPERIMENT_DEFAULT_ROUNDS && !o.rounds_auto &&
	   o.min_rounds == EXPERIMENT_SEQ_MIN_ROUNDS && o.max_rounds == EXPERIMENT_SEQ_MAX_ROUNDS &&
	   o.look_every == EXPERIMENT_SEQ_EVERY && o.has_equivalence &&
	   o.equivalence == EXPERIMENT_SEQ_EQUIVALENCE && !o.order && !o.has_seed && !o.watch &&
	   !o.iterations && !o.only, "the defaults: experiment.h's");
	memset(&o, 0, sizeof(o));
	o.rounds_auto = 1;
	experiment_settings_defaults(&o);
	ok(o.rounds_auto && !o.rounds, "rounds = auto keeps no number of rounds");
}

static void test_fields(void)
{
	struct experiment_options o = { .name = NULL };
	struct strbuf err = STRBUF_INIT;

	ok(!read_one(&o, "rounds", NULL, "7", &err) && o.rounds == 7 && !o.rounds_auto,
	   "rounds = 7 into rounds");
	ok(!read_one(&o, "rounds", NULL, "auto", &err) && !o.rounds && o.rounds_auto,
	   "rounds = auto into rounds_auto");
	ok(!read_one(&o, "min-rounds", NULL, "1", &err) && o.min_rounds == 1 &&
	   !read_one(&o, "max-rounds", NULL, "30", &err) && o.max_rounds == 30 &&
	   !read_one(&o, "look-every", NULL, "3", &err) && o.look_every == 3,
	   "min-rounds, max-rounds, look-every into their fields");
	ok(!read_one(&o, "equivalence", NULL, "0%", &err) && o.equivalence == 0 &&
	   o.has_equivalence, "equivalence = 0%% given, 0");
	ok(!read_one(&o, "watch", NULL, "^hack", &err) && !strcmp(o.watch, "^hack"),
	   "watch into watch");
	ok(!read_one(&o, "order", NULL, "shuffle", &err) && !strcmp(o.order, "shuffle") &&
	   !read_one(&o, "seed", NULL, "18446744073709551615", &err) &&
	   o.seed == 18446744073709551615ULL && o.has_seed, "order and seed into theirs");
	ok(experiment_settings_first_sequential(&o) ==
	   experiment_setting_find_key("min-rounds"), "the first sequential key given");

	memset(&o, 0, sizeof(o));
	ok(!read_one(&o, NULL, "--rounds", "auto", &err) && o.rounds_auto &&
	   !read_one(&o, NULL, "--equivalence", "2.5", &err) && o.equivalence == 2.5 &&
	   !read_one(&o, NULL, "--seed", "42", &err) && o.seed == 42 && o.has_seed,
	   "--rounds, --equivalence, --seed into their fields");
	ok(experiment_settings_first_given(&o) == experiment_setting_find_option("rounds"),
	   "the first option given");
	strbuf_release(&err);
}

static void test_refused(void)
{
	static const struct {
		const char *key, *option, *value, *want;
	} cases[] = {
		{ "rounds", NULL, "0", "t.conf:2: rounds = '0' in [experiment]: expected auto (a "
		  "sequential design) or an integer from 1 to 1000" },
		{ "look-every", NULL, "1001", "t.conf:2: look-every = '1001' in [experiment]: "
		  "expected an integer from 1 to 1000" },
		{ "equivalence", NULL, "101", "equivalence = '101' in [experiment]: expected a "
		  "percentage" },
		{ "order", NULL, "zigzag", "t.conf:2: order = 'zigzag': expected abba or shuffle" },
		{ "seed", NULL, "-1", "seed = '-1': expected" },
		{ NULL, "--rounds", "1001", "--rounds takes auto or an integer from 1 to 1000, not "
		  "'1001'" },
		{ NULL, "--equivalence", "x", "--equivalence takes a percentage from 0 to 100, not "
		  "'x'" },
		{ NULL, "--seed", "x", "--seed: seed = 'x': expected an integer" },
	};
	struct experiment_options o = { .name = NULL };
	struct strbuf err = STRBUF_INIT;
	int rc;

	/* Each call first, then its message: an argument of ok() may be
	 * read before another is evaluated. */
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		rc = read_one(&o, cases[i].key, cases[i].option, cases[i].value, &err);
		ok(rc && strstr(err.buf, cases[i].want), "%s %s refused: %s",
		   cases[i].key ? cases[i].key : cases[i].option, cases[i].value, err.buf);
	}
	rc = captured(do_unknown, "rounnds", &err);
	ok(rc && strstr(err.buf, "t.conf:3: unknown key 'rounnds' in [experiment] (it takes "
			"rounds, order, seed, and with rounds = auto min-rounds, max-rounds, "
			"look-every, equivalence, watch)"), "an unknown key lists the keys: %s",
	   err.buf);
	strbuf_release(&err);
}

static void test_merge(void)
{
	struct experiment_options over = { .name = "n" }, under = { .name = NULL };
	struct strbuf sb = STRBUF_INIT;

	over.rounds = 5;
	under.rounds_auto = 1;
	under.min_rounds = 6;
	under.order = "shuffle";
	under.seed = 9;
	under.has_seed = 1;
	under.only = "x";
	experiment_settings_merge(&over, &under);
	ok(over.rounds == 5 && !over.rounds_auto && over.min_rounds == 6 &&
	   !strcmp(over.order, "shuffle") && over.seed == 9 && over.has_seed &&
	   !strcmp(over.name, "n") && !strcmp(over.only, "x"),
	   "the options over the keys, the rest kept");
	experiment_settings_options_text(&sb);
	ok(!strcmp(sb.buf, ", --rounds, --min-rounds, --max-rounds, --look-every, "
		   "--equivalence, --watch, --iterations, --order, --seed, --only"),
	   "the options, in kbench ab's order: %s", sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	test_table();
	test_defaults();
	test_fields();
	test_refused();
	test_merge();
	return done_testing();
}
