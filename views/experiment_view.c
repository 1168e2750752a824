/* experiment_view: an A/B experiment as kbench show and kbench experiments
 * print it (views/experiment_view.h). */
#include "config.h"
#include "views/experiment_view.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/json.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The values of one knob group shown; the rest are counted. */
#define SHOWN_VALUES 4

static int add_run(const struct experiment_run *r, void *arg)
{
	struct experiment_view *v = arg;
	struct view_run *vr;

	ALLOC_GROW(v->runs, v->nruns + 1, v->runs_alloc);
	vr = &v->runs[v->nruns++];
	*vr = (struct view_run){ .run_id = r->run_id, .arm = xstrdup(r->arm ? r->arm : ""),
				 .rounds = r->rounds };
	return 0;
}

/* A boot's time (fact vm.boot_s.round-R) into a view_run's spread. */
static int add_boot(const char *section, const char *key, const char *value, void *arg)
{
	struct view_run *vr = arg;
	double s;

	if (*section || !value || strncmp(key, "vm.boot_s.round-", 16))
		return 0;
	s = strtod(value, NULL);
	if (!vr->nboots++ || s < vr->boot_lo)
		vr->boot_lo = s;
	if (vr->nboots == 1 || s > vr->boot_hi)
		vr->boot_hi = s;
	return 0;
}

/* The runs of v->uuid, each with its status, samples and boots. */
static int load_runs(struct store *s, struct experiment_view *v)
{
	if (store_each_experiment_run(s, v->uuid, add_run, v) < 0)
		return -1;
	for (size_t i = 0; i < v->nruns; i++) {
		struct run_info ri = { .id = 0 };

		if (store_get_run(s, v->runs[i].run_id, &ri))
			return -1;
		v->runs[i].status = xstrdup(ri.status);
		v->runs[i].nsamples = ri.nsamples;
		run_info_release(&ri);
		if (store_each_meta(s, v->runs[i].run_id, add_boot, &v->runs[i]))
			return -1;
	}
	return 0;
}

static int add_look(const struct experiment_look *l, void *arg)
{
	struct experiment_view *v = arg;

	ALLOC_GROW(v->looks, v->nlooks + 1, v->looks_alloc);
	v->looks[v->nlooks++] = (struct view_look){
		.look = l->look, .rounds = l->rounds, .watched = l->watched,
		.arm = xstrdup(l->arm), .section = xstrdup(l->section), .row = xstrdup(l->row),
		.stat = xstrdup(l->stat), .decision = xstrdup(l->decision),
		.pct = l->pct, .lo_pct = l->lo_pct, .hi_pct = l->hi_pct, .t = l->t,
		.bound = l->bound,
	};
	return 0;
}

int experiment_view_load(struct store *s, int64_t id, struct experiment_view *v)
{
	int rc;

	memset(v, 0, sizeof(*v));
	if ((rc = store_get_experiment(s, id, &v->info)))
		return rc > 0 ? error("no experiment @%lld in the store", (long long)id) : -1;
	v->uuid = xstrdup(v->info.uuid);
	if (store_each_experiment_look(s, id, add_look, v))
		return -1;
	return load_runs(s, v);
}

static void add_fact(struct view_fact **v, size_t *n, size_t *alloc, const char *key,
		     const char *value)
{
	ALLOC_GROW(*v, *n + 1, *alloc);
	(*v)[*n].key = xstrdup(key);
	(*v)[(*n)++].value = xstrdup(value ? value : "");
}

static int run_fact(const char *section, const char *key, const char *value, void *arg)
{
	struct experiment_view *v = arg;

	if (*section)
		return 0;
	if (!strcmp(key, "experiment-uuid") && !v->uuid)
		v->uuid = xstrdup(value ? value : "");
	else if (!strcmp(key, "arm") && !v->arm)
		v->arm = xstrdup(value ? value : "");
	else if (!strncmp(key, "arm ", 4))
		add_fact(&v->keys, &v->nkeys, &v->keys_alloc, key + 4, value);
	else if (!strncmp(key, "knob ", 5))
		add_fact(&v->knobs, &v->nknobs, &v->knobs_alloc, key + 5, value);
	return 0;
}

int experiment_view_of_run(struct store *s, int64_t run_id, struct experiment_view *v)
{
	struct strbuf err = STRBUF_INIT;
	int64_t id;
	int rc;

	memset(v, 0, sizeof(*v));
	v->run_id = run_id;
	if (store_each_meta(s, run_id, run_fact, v))
		return -1;
	if (!v->uuid || !*v->uuid)
		return 1;
	/* Where the experiment is not in this store (a bundle's run), the
	 * run's facts are what there is. */
	if (!store_find_experiment(s, v->uuid, &id, &err) &&
	    (rc = store_get_experiment(s, id, &v->info)) < 0) {
		strbuf_release(&err);
		return -1;
	}
	strbuf_release(&err);
	return load_runs(s, v);
}

static void release_facts(struct view_fact *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

void experiment_view_release(struct experiment_view *v)
{
	experiment_info_release(&v->info);
	free(v->uuid);
	for (size_t i = 0; i < v->nruns; i++) {
		free(v->runs[i].arm);
		free(v->runs[i].status);
	}
	free(v->runs);
	for (size_t i = 0; i < v->nlooks; i++) {
		struct view_look *l = &v->looks[i];

		free(l->arm);
		free(l->section);
		free(l->row);
		free(l->stat);
		free(l->decision);
	}
	free(v->looks);
	free(v->arm);
	release_facts(v->keys, v->nkeys);
	release_facts(v->knobs, v->nknobs);
	memset(v, 0, sizeof(*v));
}

/* ---- knobs, grouped ---- */

/* The group a knob path may join: "/sys/kernel/slab/ * /cpu_partial"
 * (without the blanks), its parent directory replaced by '*'; the path
 * itself when it has no parent to replace. */
static char *candidate(const char *path)
{
	const char *name = strrchr(path, '/'), *parent;
	struct strbuf sb = STRBUF_INIT;

	for (parent = name ? name - 1 : path; parent > path && *parent != '/'; parent--)
		;
	if (!name || parent <= path)
		return xstrdup(path);
	strbuf_add(&sb, path, (size_t)(parent - path + 1));
	strbuf_addf(&sb, "*%s", name);
	return strbuf_detach(&sb);
}

struct value_count {
	const char *value;
	size_t n;
};

static int by_count(const void *a, const void *b)
{
	const struct value_count *x = a, *y = b;

	return x->n != y->n ? (x->n < y->n) - (x->n > y->n) : strcmp(x->value, y->value);
}

/* Each group of knobs, first seen first, with its values by count: the
 * files whose candidate other files share are counted together, any
 * other file is shown by its path. */
static void print_knobs(const struct experiment_view *v)
{
	size_t n = v->nknobs;
	char **cand = xcalloc(n + 1, sizeof(*cand));
	const char **group = xcalloc(n + 1, sizeof(*group));
	unsigned char *done = xcalloc(n + 1, 1);
	struct value_count *vc = xcalloc(n + 1, sizeof(*vc));

	for (size_t i = 0; i < n; i++)
		cand[i] = candidate(v->knobs[i].key);
	for (size_t i = 0; i < n; i++) {
		size_t shared = 0;

		for (size_t j = 0; j < n && shared < 2; j++)
			shared += !strcmp(cand[i], cand[j]);
		group[i] = shared > 1 ? cand[i] : v->knobs[i].key;
	}
	for (size_t i = 0; i < n; i++) {
		size_t nv = 0, files = 0;

		if (done[i])
			continue;
		for (size_t j = i; j < n; j++) {
			size_t k;

			if (done[j] || strcmp(group[i], group[j]))
				continue;
			done[j] = 1;
			files++;
			for (k = 0; k < nv && strcmp(vc[k].value, v->knobs[j].value); k++)
				;
			if (k == nv)
				vc[nv++] = (struct value_count){ .value = v->knobs[j].value };
			vc[k].n++;
		}
		qsort(vc, nv, sizeof(*vc), by_count);
		printf("              %s = ", group[i]);
		for (size_t k = 0; k < nv && k < SHOWN_VALUES; k++) {
			printf("%s%s", k ? ", " : "", vc[k].value);
			if (files > 1 && !k)
				printf(" (%zu file%s)", vc[k].n, vc[k].n == 1 ? "" : "s");
			else if (files > 1)
				printf(" (%zu)", vc[k].n);
		}
		if (nv > SHOWN_VALUES)
			printf(", ... (%zu values)", nv);
		putchar('\n');
	}
	for (size_t i = 0; i < n; i++)
		free(cand[i]);
	free(cand);
	free(group);
	free(done);
	free(vc);
}

/* The looks of a sequential design, one line each: the watched rows
 * decided, and the first one still open. */
static void print_looks(const struct experiment_view *v)
{
	for (size_t i = 0; i < v->nlooks;) {
		const struct view_look *first = &v->looks[i], *open = NULL;
		size_t watched = 0, changed = 0, same = 0;

		for (; i < v->nlooks && v->looks[i].look == first->look; i++) {
			const struct view_look *l = &v->looks[i];

			if (!l->watched)
				continue;
			watched++;
			changed += !strcmp(l->decision, "change");
			same += !strcmp(l->decision, "no change");
			if (!open && strcmp(l->decision, "change") && strcmp(l->decision, "no change"))
				open = l;
		}
		printf("  %-11s %d after %d rounds: %zu of %zu watched rows decided (%zu changed, "
		       "%zu no change)", first == v->looks ? "looks" : "", first->look,
		       first->rounds, changed + same, watched, changed, same);
		if (open)
			printf("; %s: %s %s %s %s %+.2f%% [%+.2f%%, %+.2f%%]", open->decision,
			       open->arm, open->section, open->stat, open->row, open->pct,
			       open->lo_pct, open->hi_pct);
		printf("\n");
	}
}

void experiment_view_print(const struct experiment_view *v)
{
	const struct experiment_info *x = &v->info;

	if (x->id) {
		printf("experiment @%lld  %s\n", (long long)x->id, x->name);
		printf("  uuid        %s\n", x->uuid);
		printf("  design      arms %s; %d rounds, order %s", x->arms, x->rounds,
		       x->arm_order);
		if (x->design)
			printf("; %s", x->design);
		if (x->has_seed)
			printf(" (seed %llu)", (unsigned long long)x->seed);
		printf("\n  status      %s\n", x->status);
		printf("  started     %s\n", x->started_at);
		printf("  finished    %s\n", *x->finished_at ? x->finished_at : "-");
		printf("  config      %s\n", x->config_name);
		print_looks(v);
	} else {
		printf("experiment %s (not in this store)\n", v->uuid);
	}
	for (size_t i = 0; i < v->nruns; i++) {
		const struct view_run *r = &v->runs[i];

		printf("  %-11s %s: run @%lld, %s, %d round%s, %lld samples", i ? "" : "arms",
		       r->arm, (long long)r->run_id, r->status, r->rounds,
		       r->rounds == 1 ? "" : "s", (long long)r->nsamples);
		if (r->nboots)
			printf(", %d boot%s %.2f to %.2f s", r->nboots, r->nboots == 1 ? "" : "s",
			       r->boot_lo, r->boot_hi);
		printf("%s\n", r->run_id == v->run_id ? "  (this run)" : "");
	}
	if (!v->run_id)
		return;
	printf("  this arm    %s\n", v->arm ? v->arm : "-");
	for (size_t i = 0; i < v->nkeys; i++)
		printf("  %-11s %s = %s\n", i ? "" : "its keys", v->keys[i].key, v->keys[i].value);
	if (v->nknobs) {
		printf("  knobs       %zu file%s, as read back once the arm was switched in:\n",
		       v->nknobs, v->nknobs == 1 ? "" : "s");
		print_knobs(v);
	}
}

static void json_looks(struct json *j, const struct experiment_view *v)
{
	json_newline(j);
	json_key(j, "looks");
	json_array_begin(j);
	for (size_t i = 0; i < v->nlooks; i++) {
		const struct view_look *l = &v->looks[i];

		json_newline(j);
		json_object_begin(j);
		json_key_int(j, "look", l->look);
		json_key_int(j, "rounds", l->rounds);
		json_key_string(j, "arm", l->arm);
		json_key_string(j, "section", l->section);
		json_key_string(j, "row", l->row);
		json_key_string(j, "stat", l->stat);
		json_key_double(j, "pct", l->pct);
		json_key_double(j, "lo_pct", l->lo_pct);
		json_key_double(j, "hi_pct", l->hi_pct);
		json_key_double(j, "t", l->t);
		json_key_double(j, "bound", l->bound);
		json_key_string(j, "decision", l->decision);
		json_key_bool(j, "watched", l->watched);
		json_object_end(j);
	}
	json_array_end(j);
}

void experiment_view_json(struct json *j, const struct experiment_view *v)
{
	const struct experiment_info *x = &v->info;

	if (x->id) {
		json_key_int(j, "id", x->id);
	} else {
		json_key(j, "id");
		json_null(j);
	}
	json_key_string(j, "uuid", v->uuid);
	json_key_string(j, "name", x->id ? x->name : NULL);
	json_key_string(j, "status", x->id ? x->status : NULL);
	if (x->id) {
		json_key_int(j, "rounds", x->rounds);
		json_key_string(j, "order", x->arm_order);
	}
	if (v->run_id)
		json_key_string(j, "arm", v->arm);
	json_newline(j);
	json_key(j, "runs");
	json_array_begin(j);
	for (size_t i = 0; i < v->nruns; i++) {
		json_object_begin(j);
		json_key_int(j, "id", v->runs[i].run_id);
		json_key_string(j, "arm", v->runs[i].arm);
		json_key_string(j, "status", v->runs[i].status);
		json_key_int(j, "rounds", v->runs[i].rounds);
		json_key_int(j, "samples", v->runs[i].nsamples);
		json_object_end(j);
	}
	json_array_end(j);
	if (x->id) {
		json_key_string(j, "design", x->design);
		json_looks(j, v);
	}
	if (!v->run_id)
		return;
	json_newline(j);
	json_key(j, "keys");
	json_array_begin(j);
	for (size_t i = 0; i < v->nkeys; i++) {
		json_object_begin(j);
		json_key_string(j, "key", v->keys[i].key);
		json_key_string(j, "value", v->keys[i].value);
		json_object_end(j);
	}
	json_array_end(j);
	json_newline(j);
	json_key(j, "knobs");
	json_object_begin(j);
	for (size_t i = 0; i < v->nknobs; i++)
		json_key_string(j, v->knobs[i].key, v->knobs[i].value);
	json_object_end(j);
}
