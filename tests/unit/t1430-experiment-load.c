/* t1430-experiment-load: experiment_load, an A/B experiment read from its
 * config before anything runs: the arms in config order, each with its
 * options in its own plan and the design's rounds; the design's keys
 * ([experiment] rounds, order, seed) and the defaults without them;
 * --rounds over the config; rounds = auto as a sequential design. And
 * each refusal with its message naming the file, line and key: one arm,
 * too many arms, a bad arm name, bad or unknown design keys, sequential
 * keys without rounds = auto, an unknown arm key, a bad environment
 * name, an --order nobody knows. Nothing is written; the configs are
 * given as text (experiment_options' config_text).
 * Covers: experiment/experiment_design.c experiment/experiment.c */
#include "config.h"
#include "experiment/experiment.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#define WORK "[hackbench-process-pipes]\nloops = 10\ngroups = 1\niterations = 2\n"

/* experiment_load of text as the config t.conf, its stderr in err. */
static int load(struct experiment *e, struct experiment_options *o, const char *text,
		struct strbuf *err)
{
	FILE *tmp = tmpfile();
	int saved = dup(2), rc;
	char buf[4096];
	size_t n;

	o->config_text = text;
	o->config_origin = "t.conf";
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = experiment_load(e, o);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	strbuf_reset(err);
	while ((n = fread(buf, 1, sizeof(buf), tmp)))
		strbuf_add(err, buf, n);
	fclose(tmp);
	strbuf_rtrim(err);
	return rc;
}

static void good(void)
{
	struct experiment_options o = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct experiment e;
	int rc;

	o.name = "exp";
	rc = load(&e, &o,
		  "[experiment]\nrounds = 4\norder = shuffle\nseed = 7\n"
		  "[arm:fast]\noption.iterations = 3\nenv.KB_T1430 = yes\n"
		  "[arm:slow]\ndescription = as shipped\n" WORK, &err);
	ok(rc == 0 && !err.len, "two arms and a design load (rc %d%s%s)", rc,
	   err.len ? ", said: " : "", err.buf);
	if (rc == 0) {
		ok(e.narms == 2 && !strcmp(e.arms[0].name, "fast") &&
		   !strcmp(e.arms[1].name, "slow"),
		   "the arms in config order: %zu arms", e.narms);
		ok(!strcmp(e.arms[0].run_name, "exp/fast") && !strcmp(e.arms[1].run_name, "exp/slow"),
		   "each arm's run is NAME/ARM: %s, %s", e.arms[0].run_name, e.arms[1].run_name);
		ok(e.rounds == 4 && e.order == ARM_ORDER_SHUFFLE && e.has_seed && e.seed == 7 &&
		   !e.sequential, "[experiment]: 4 rounds, shuffled with seed 7 (rounds %d, seed %llu)",
		   e.rounds, (unsigned long long)e.seed);
		ok(e.arms[0].plan.n == 1 && e.arms[0].plan.sections[0].iterations == 3 &&
		   e.arms[1].plan.sections[0].iterations == 2,
		   "option.iterations reaches its arm's plan alone (%d, %d)",
		   e.arms[0].plan.sections[0].iterations, e.arms[1].plan.sections[0].iterations);
		ok(e.arms[0].plan.sections[0].rounds == 4 && e.arms[1].plan.sections[0].rounds == 4,
		   "every arm's plan goes through the design's rounds");
		ok(e.arms[0].nenv == 1 && !strcmp(e.arms[0].env[0], "KB_T1430=yes") && !e.arms[1].nenv,
		   "env.NAME is the arm's environment");
		ok(e.arms_text && strstr(e.arms_text, "[arm:fast]") && strstr(e.arms_text, "[arm:slow]"),
		   "the arms are kept as text for a resume");
		experiment_release(&e);
	}

	/* No [experiment]: the defaults; --rounds wins over the config. */
	o.name = NULL;
	rc = load(&e, &o, "[arm:a]\n[arm:b]\n" WORK, &err);
	ok(rc == 0 && e.rounds == EXPERIMENT_DEFAULT_ROUNDS && e.order == ARM_ORDER_ABBA &&
	   !e.has_seed && !e.sequential,
	   "no design: %d rounds, ABBA, no seed (rounds %d)", EXPERIMENT_DEFAULT_ROUNDS, e.rounds);
	if (rc == 0)
		experiment_release(&e);
	o.rounds = 3;
	rc = load(&e, &o, "[experiment]\nrounds = 9\n[arm:a]\n[arm:b]\n" WORK, &err);
	ok(rc == 0 && e.rounds == 3, "--rounds 3 over rounds = 9 (rounds %d)", e.rounds);
	if (rc == 0)
		experiment_release(&e);
	o.rounds = 0;

	/* A seed given as a number (--seed, or the stored one on resume)
	 * wins over the config's, whole to 2^64 - 1. */
	o.seed = UINT64_MAX;
	o.has_seed = 1;
	rc = load(&e, &o, "[experiment]\norder = shuffle\nseed = 7\n[arm:a]\n[arm:b]\n" WORK, &err);
	ok(rc == 0 && e.has_seed && e.seed == UINT64_MAX,
	   "a seed of the options over seed = 7 (seed %llu)", (unsigned long long)e.seed);
	if (rc == 0)
		experiment_release(&e);
	o.has_seed = 0;
	o.seed = 0;
	ok(experiment_parse_seed("18446744073709551616", "--seed", &o.seed) &&
	   experiment_parse_seed("-1", "--seed", &o.seed) &&
	   !experiment_parse_seed("18446744073709551615", "--seed", &o.seed) &&
	   o.seed == UINT64_MAX, "a seed is an integer from 0 to 2^64 - 1");
	o.seed = 0;

	/* rounds = auto: a sequential design with the defaults. */
	rc = load(&e, &o, "[experiment]\nrounds = auto\nmin-rounds = 6\n[arm:a]\n[arm:b]\n" WORK,
		  &err);
	ok(rc == 0 && e.sequential && e.seq.min_rounds == 6 &&
	   e.seq.max_rounds == EXPERIMENT_SEQ_MAX_ROUNDS && e.seq.every == EXPERIMENT_SEQ_EVERY &&
	   e.rounds == EXPERIMENT_SEQ_MAX_ROUNDS,
	   "rounds = auto: sequential, first look at 6, up to %d rounds (%s)",
	   EXPERIMENT_SEQ_MAX_ROUNDS, err.buf);
	if (rc == 0)
		experiment_release(&e);
	strbuf_release(&err);
}

/* Each config is refused, and the message holds each of want[]. */
static void refused(const char *what, const char *text, const char *order, const char *want1,
		    const char *want2)
{
	struct experiment_options o = { 0 };
	struct strbuf err = STRBUF_INIT;
	struct experiment e;
	int rc;

	o.order = order;
	rc = load(&e, &o, text, &err);
	ok(rc == -1 && strstr(err.buf, want1) && (!want2 || strstr(err.buf, want2)),
	   "%s: refused (rc %d), saying '%s'%s%s", what, rc, err.buf, want2 ? " with " : "",
	   want2 ? want2 : "");
	experiment_release(&e);	/* what was read before the refusal, too */
	strbuf_release(&err);
}

static void bad(void)
{
	struct strbuf many = STRBUF_INIT;

	refused("one arm", "[arm:only]\n" WORK, NULL, "t.conf: an experiment needs two arms or more",
		"(it has 1)");
	refused("no arm", WORK, NULL, "needs two arms or more", "(it has 0)");
	for (int i = 0; i <= EXPERIMENT_MAX_ARMS; i++)
		strbuf_addf(&many, "[arm:a%d]\n", i);
	strbuf_addstr(&many, WORK);
	refused("27 arms", many.buf, NULL, "t.conf:27: more than 26 arms", NULL);
	strbuf_release(&many);
	refused("a bad arm name", "[arm:a]\n[arm:b/c]\n" WORK, NULL,
		"t.conf:2: invalid arm name 'b/c'", NULL);
	refused("rounds = 0", "[experiment]\nrounds = 0\n[arm:a]\n[arm:b]\n" WORK, NULL,
		"t.conf:2: rounds = '0' in [experiment]", "expected auto");
	refused("rounds past the most", "[experiment]\nrounds = 1001\n[arm:a]\n[arm:b]\n" WORK, NULL,
		"rounds = '1001'", "from 1 to 1000");
	refused("an unknown design key", "[experiment]\ncolour = red\n[arm:a]\n[arm:b]\n" WORK, NULL,
		"t.conf:2: unknown key 'colour' in [experiment]", NULL);
	refused("a sequential key without auto",
		"[experiment]\nmax-rounds = 8\n[arm:a]\n[arm:b]\n" WORK, NULL,
		"belong to a sequential design", "rounds = auto");
	refused("an unknown arm key", "[arm:a]\n[arm:b]\ncpu_partial = 0\n" WORK, NULL,
		"t.conf:3: unknown key 'cpu_partial' in [arm:b]", NULL);
	refused("a bad environment name", "[arm:a]\nenv.1X = y\n[arm:b]\n" WORK, NULL,
		"t.conf:2: 'env.1X' in [arm:a]",
		"an environment variable's name is letters, digits and '_'");
	refused("--order sideways", "[arm:a]\n[arm:b]\n" WORK, "sideways", "--order", "sideways");
}

int main(void)
{
	good();
	bad();
	return done_testing();
}
