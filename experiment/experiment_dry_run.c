/* experiment_dry_run: what kbench ab --dry-run shows of an experiment:
 * each arm's plan as the runner's dry run gives it, what each knob holds
 * now and what each arm writes, and the design's looks. Nothing is
 * written. */
#include "config.h"
#include "experiment/experiment.h"
#include "experiment/experiment_design.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "experiment/knob.h"
#include "runner/dryrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The current values of the files of an arm's knob key, counted. */
static void describe_now(const struct experiment *e, const struct arm *a, const char *value,
			 struct strbuf *sb)
{
	struct strbuf now = STRBUF_INIT, seen = STRBUF_INIT, err = STRBUF_INIT;
	size_t shown = 0, unwritable = 0;

	strbuf_addch(&seen, '\n');
	for (size_t i = 0; i < a->nknobs; i++) {
		const struct knob_file *f = &e->files.v[a->knobs[i].file];
		size_t count = 0;

		if (strcmp(a->knobs[i].value, value))
			continue;
		if (!knob_writable(f->path, &err))
			unwritable++;
		strbuf_reset(&now);
		strbuf_addf(&now, "\n%s\n", f->original);
		if (strstr(seen.buf, now.buf))
			continue;
		strbuf_addstr(&seen, now.buf + 1);
		for (size_t j = 0; j < a->nknobs; j++)
			count += !strcmp(a->knobs[j].value, value) &&
				 !strcmp(e->files.v[a->knobs[j].file].original, f->original);
		if (shown < 4)
			strbuf_addf(sb, "%s%s%s", shown ? ", " : "now ", f->original,
				    count > 1 ? "" : "");
		if (shown < 4 && count > 1)
			strbuf_addf(sb, " (%zu files)", count);
		shown++;
	}
	if (shown > 4)
		strbuf_addf(sb, ", ... (%zu values)", shown);
	if (unwritable)
		strbuf_addf(sb, "; %zu not writable by this process%s", unwritable,
			    geteuid() ? " (kbench ab must run as root)" : "");
	strbuf_release(&now);
	strbuf_release(&seen);
	strbuf_release(&err);
}

/* The looks of a sequential design, and their bounds. */
static void dry_run_looks(const struct experiment *e)
{
	struct strbuf err = STRBUF_INIT;
	struct seq_design d;

	if (seq_plan_design(&e->seq, &d, &err)) {
		printf("\nLooks: none (%s)", err.buf);
		strbuf_release(&err);
		return;
	}
	printf("\nLooks: after rounds");
	for (int k = 0; k < d.nlooks; k++)
		printf("%s %d", k ? "," : "", d.rounds[k]);
	printf("\n|t| that decides a change (O'Brien-Fleming, alpha %g over all looks):",
	       d.alpha);
	for (int k = 0; k < d.nlooks; k++)
		printf("%s %.2f", k ? "," : "", d.bound[k]);
	printf("\nStops when every %s is decided: a change, or no change larger than %g%%",
	       e->watch ? "mean row matching the watch" : "mean row", e->seq.equivalence_pct);
	if (e->watch)
		printf(" (watch '%s')", e->watch);
}

int experiment_dry_run(const struct experiment *e, struct store *s)
{
	size_t *order = xcalloc(e->narms, sizeof(*order));
	struct strbuf sb = STRBUF_INIT;
	int64_t samples = 0;
	double seconds = 0;
	size_t unknown = 0, sections = 0;
	char when[32], obuf[64];
	int rc = 0;

	if (e->sequential)
		printf("Experiment %s: %zu arms, %d to %d rounds (sequential), order %s", e->name,
		       e->narms, e->seq.min_rounds, e->rounds, experiment_order_text(e, obuf, sizeof(obuf)));
	else
		printf("Experiment %s: %zu arms, %d rounds, order %s", e->name, e->narms,
		       e->rounds, experiment_order_text(e, obuf, sizeof(obuf)));
	if (e->has_seed)
		printf(" (seed %llu)", (unsigned long long)e->seed);
	if (e->sequential)
		dry_run_looks(e);
	printf("\nRounds:");
	for (int r = 1; r <= e->rounds && r <= 8; r++) {
		experiment_round_order(e, r, order);
		printf(" ");
		for (size_t i = 0; i < e->narms; i++)
			printf("%s%s", i ? "," : "", e->arms[order[i]].name);
	}
	printf("%s\n\nArms (each stored as a run of its own):\n", e->rounds > 8 ? " ..." : "");
	for (size_t i = 0; i < e->narms; i++) {
		const struct arm *a = &e->arms[i];

		printf("  %s -> run '%s'\n", a->name, a->run_name);
		if (!a->nkeys)
			printf("    (no change: the knobs as they are)\n");
		for (size_t k = 0; k < a->nkeys; k++) {
			const struct arm_key *key = &a->keys[k];

			printf("    %s = %s", key->key, key->value);
			if (key->nfiles) {
				strbuf_reset(&sb);
				describe_now(e, a, key->value, &sb);
				printf("  [%zu file%s, %s]", key->nfiles, key->nfiles == 1 ? "" : "s",
				       sb.buf);
			}
			printf("\n");
		}
		if (a->built)
			printf("    builds %s (%.12s %s) of %s, %s: %s\n", a->built->describe,
			       a->built->commit, a->built->subject, a->built->tree,
			       a->built->config_desc, a->built->cache_hit ?
			       "in the kernel cache" : "not in the kernel cache, built first");
	}
	if (e->files.n) {
		printf("\nKnobs journalled in the store before the first write, and restored "
		       "after (%zu files):\n", e->files.n);
		for (size_t f = 0; f < e->files.n && f < 12; f++) {
			strbuf_reset(&sb);
			printf("  %s = %s%s\n", e->files.v[f].path, e->files.v[f].original,
			       knob_writable(e->files.v[f].path, &sb) ? "" : "  (not writable)");
		}
		if (e->files.n > 12)
			printf("  ... and %zu more\n", e->files.n - 12);
	}
	for (size_t i = 0; i < e->narms; i++)
		samples += plan_total_samples(&e->arms[i].plan);
	printf("\nSamples: %lld over every arm and round, warm-up included (each arm's "
	       "warm-up runs again whenever it is switched in)\n", (long long)samples);
	for (size_t i = 0; i < e->narms; i++) {
		double t;
		int u;

		if (dryrun_estimate(&e->arms[i].plan, s, &t, &u))
			rc = -1;
		seconds += t;
		unknown += (size_t)u;
		sections += e->arms[i].plan.n;
	}
	dryrun_format_duration(seconds, when, sizeof(when));
	if (unknown == sections)
		printf("Estimated duration: unknown (no a-priori figure, no earlier run here)\n");
	else if (unknown)
		printf("Estimated duration: at least %s for %zu arms x %d rounds (each arm's "
		       "plan runs once a round; %zu of %zu arm sections unknown)\n", when,
		       e->narms, e->rounds, unknown, sections);
	else
		printf("Estimated duration: %s for %zu arms x %d rounds (each arm's plan runs "
		       "once a round)\n", when, e->narms, e->rounds);
	for (size_t i = 0; i < e->narms; i++) {
		const struct arm *a = &e->arms[i];
		int differs = i == 0;

		for (size_t k = 0; k < a->nkeys; k++)
			differs |= !a->keys[k].nfiles && strcmp(a->keys[k].key, "description");
		if (!differs)
			continue;
		printf("\nPlan of arm %s:\n", a->name);
		if (dryrun_print(&a->plan, &a->conf, s))
			rc = -1;
	}
	strbuf_release(&sb);
	free(order);
	return rc;
}
