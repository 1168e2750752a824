/* runner: run a plan: every sample in the lean kbench-sample (sampler/),
 * forked by one such program serving the run (lib/child.c), or in a
 * forked child for the external workload, with a timeout, recorded
 * as it arrives (runner/record.c). SIGINT/SIGTERM
 * stop the sample in flight, kill its process group and mark the run
 * interrupted; nothing measured is lost. */
#include "config.h"
#include "runner/runner.h"
#include "lib/child.h"
#include "runner/conf.h"
#include "monitors/monitor.h"
#include "runner/plan.h"
#include "runner/progress.h"
#include "runner/record.h"
#include "runner/sample_run.h"
#include "runner/stop.h"
#include "db/store.h"
#include "sampler/sample.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/hostlock.h"
#include "workloads/params.h"
#include "workloads/workload.h"

#include <assert.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t stop_signal;

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* Start what the samples of ps need around them (an external workload's
 * server). Return 0 to run them; 1 when it failed, recorded as one failed
 * sample of the section's first row, so that the section is skipped; -1
 * when the store failed. */
static int section_begin(struct store *s, int64_t run_id, const struct plan_section *ps)
{
	struct strbuf err = STRBUF_INIT, reason = STRBUF_INIT;
	int rc;

	if (!ps->ops->section_begin || !ps->ops->section_begin(ps->params, &err))
		return 0;
	strbuf_addf(&reason, "no sample of [%s] ran: %s", ps->cs->name, err.buf);
	warning("%s", reason.buf);
	rc = record_failure(s, run_id, ps, ps->rows[0], 1, reason.buf) ? -1 : 1;
	strbuf_release(&err);
	strbuf_release(&reason);
	return rc;
}

/* One row of a section in one round: how far it got. */
struct row_round {
	long n;			/* samples stored */
	long failed;		/* samples of it that failed in this process */
	double mean, m2;	/* iterations = auto: of their first results */
	int finished;		/* iterations = auto: its row result is stored */
};

struct section_state {
	struct row_round *rr;	/* rounds x rows, round-major */
	unsigned char *have;	/* fixed iterations: rows x (rounds x iterations),
				 * 1 where the store holds that sample */
	int *next_iter;		/* iterations = auto: per row, the next number */
};

/* A run being executed: where it goes and how far it got. */
struct run_exec {
	struct plan *p;
	struct store *s;
	int64_t run_id;
	struct run_info info;		/* as stored: what a recovery file copies */
	struct progress prog;
	struct monitor_values mv;
	struct section_state *st;	/* per section of the plan */
	long stored, failed;		/* samples stored and failed by this process */
	long before;			/* samples of the plan stored before a resume */
	int round;			/* the only round to run; 0: all */
	struct record_recovery rec;	/* made when the store fails */
	struct record_recovery copy;	/* in memory: all this process stored,
					 * for a store found damaged; .s NULL:
					 * none could be kept */
	int rec_tried;			/* rec was made, or could not be */
	int saved;			/* things written to the recovery file */
	int damaged;			/* rec is copy: the store was damaged */
	long rescued;			/* samples the store did not take, saved */
	const struct sample_executor *exec;	/* NULL: samples run here */
	const struct run_request *req;
	struct strbuf ended;		/* why around_sample ended the run */
};

/* The store failed: make the recovery file (once) for what it could not
 * take. Return the file's store, or NULL when none could be made. */
static struct store *recovery(struct run_exec *x)
{
	if (!x->rec_tried) {
		x->rec_tried = 1;
		/* What the store held may be gone: the copy of all this
		 * process stored becomes the recovery file. */
		if (store_last_error_kind(x->s) == STORE_ERROR_DAMAGED) {
			x->damaged = 1;
			x->rec = x->copy;
			memset(&x->copy, 0, sizeof(x->copy));
			strbuf_init(&x->copy.path);
			x->saved += x->rec.s != NULL;
		} else if (record_recovery_open(store_path(x->s), &x->info, x->p, &x->rec)) {
			return NULL;
		}
	}
	return x->rec.s;
}

/* Set the run's final status; when the store cannot take even that, the
 * recovery file carries it. Return 0 when the store took it. */
static int finish(struct run_exec *x, const char *status)
{
	if (!record_finish_run(x->s, x->run_id, status))
		return 0;
	if (recovery(x))
		x->saved++;
	return -1;
}

/* Stored results name their row last, after any "name-" (workload.h):
 * "4", "send-64", "system-2", "tput-clients-4". Whether text is a result
 * of the row labelled label. */
static int row_matches(const char *text, const char *label)
{
	size_t n = strlen(text), l = strlen(label);

	return n == l ? !strcmp(text, label) :
	       n > l && text[n - l - 1] == '-' && !strcmp(text + n - l, label);
}

static struct row_round *row_round(const struct run_exec *x, size_t i, int round, size_t r)
{
	assert(i < x->p->n && round >= 1 && round <= x->p->sections[i].rounds &&
	       r < x->p->sections[i].nrows);
	return &x->st[i].rr[(size_t)(round - 1) * x->p->sections[i].nrows + r];
}

/* Fixed iterations: whether the store holds iteration `iteration` of row
 * r of section i (numbered on across rounds: round k holds (k - 1) *
 * iterations + 1 to k * iterations). */
static unsigned char *have(const struct run_exec *x, size_t i, size_t r, int iteration)
{
	const struct plan_section *ps = &x->p->sections[i];

	assert(r < ps->nrows && iteration >= 1 && iteration <= ps->rounds * ps->iterations);
	return &x->st[i].have[r * (size_t)ps->rounds * (size_t)ps->iterations +
			      (size_t)iteration - 1];
}

/* Welford's update of a row's round with one value. */
static void row_round_add(struct row_round *rr, double v)
{
	double d = v - rr->mean;

	rr->n++;
	rr->mean += d / (double)rr->n;
	rr->m2 += d * (v - rr->mean);
}

struct stored_sample {
	struct run_exec *x;
	size_t i, r;		/* the last sample seen: one sample may store */
	int iteration;		/* several result rows, one after another */
	int seen;
};

static int mark_done(const char *section, const char *rowtext, int round, int iteration,
		     double value, void *arg)
{
	struct stored_sample *ss = arg;
	struct run_exec *x = ss->x;

	for (size_t i = 0; i < x->p->n; i++) {
		const struct plan_section *ps = &x->p->sections[i];

		if (strcmp(ps->cs->name, section) || iteration < 1 || round < 1 ||
		    round > ps->rounds)
			continue;
		for (size_t r = 0; r < ps->nrows; r++) {
			char label[WL_ROW_LEN + 64];

			wl_params_row_label(ps->params, ps->rows[r], label, sizeof(label));
			if (!row_matches(rowtext, label) ||
			    (ss->seen && ss->i == i && ss->r == r && ss->iteration == iteration))
				continue;
			ss->seen = 1;
			ss->i = i;
			ss->r = r;
			ss->iteration = iteration;
			if (ps->auto_iterations) {
				/* The first result of a sample is the one the stop
				 * rule reads. */
				row_round_add(row_round(x, i, round, r), value);
				if (iteration >= x->st[i].next_iter[r])
					x->st[i].next_iter[r] = iteration + 1;
				x->before++;
			} else if (iteration <= ps->rounds * ps->iterations &&
				   !*have(x, i, r, iteration)) {
				*have(x, i, r, iteration) = 1;
				row_round(x, i, round, r)->n++;
				x->before++;
			}
			return 0;
		}
	}
	return 0;
}

static int mark_finished(const struct row_result *res, void *arg)
{
	struct run_exec *x = arg;

	for (size_t i = 0; i < x->p->n; i++) {
		const struct plan_section *ps = &x->p->sections[i];

		if (strcmp(ps->cs->name, res->section) || res->round < 1 || res->round > ps->rounds)
			continue;
		for (size_t r = 0; r < ps->nrows; r++) {
			char label[WL_ROW_LEN + 64];

			wl_params_row_label(ps->params, ps->rows[r], label, sizeof(label));
			if (!strcmp(label, res->row))
				row_round(x, i, res->round, r)->finished = 1;
		}
	}
	return 0;
}

/* Whether round `round` of row r of section i needs no more samples. */
static int row_round_done(const struct run_exec *x, size_t i, int round, size_t r)
{
	const struct plan_section *ps = &x->p->sections[i];
	const struct row_round *rr = row_round(x, i, round, r);
	int met;

	if (round > ps->rounds)
		return 1;
	/* A failed sample is not run again before a resume. */
	if (!ps->auto_iterations)
		return rr->n + rr->failed >= ps->iterations;
	return rr->finished || rr->n + rr->failed >= ps->max_iterations ||
	       plan_row_done(ps, rr->n, rr->mean, rr->m2, &met);
}

/* Samples left to run in round `round` of row r of section i (with auto
 * iterations, at most). */
static int row_round_left(const struct run_exec *x, size_t i, int round, size_t r)
{
	const struct row_round *rr = row_round(x, i, round, r);

	if (row_round_done(x, i, round, r))
		return 0;
	return x->p->sections[i].iterations - (int)(rr->n + rr->failed);
}

/* Whether section i has anything left to run from round `from` on. */
static int section_left(const struct run_exec *x, size_t i, int from)
{
	for (int k = from; k <= x->p->sections[i].rounds; k++)
		for (size_t r = 0; r < x->p->sections[i].nrows; r++)
			if (!row_round_done(x, i, k, r))
				return 1;
	return 0;
}

/* A resumed run shuffles as it began: the seeds it stored. */
static int restore_seed(const char *section, const char *key, const char *value, void *arg)
{
	struct plan *p = arg;
	uint64_t seed = (uint64_t)strtoull(value ? value : "0", NULL, 10);

	if (!*section && !strcmp(key, "order-seed"))
		p->seed = seed;
	for (size_t i = 0; *section && !strcmp(key, "seed") && i < p->n; i++)
		if (!strcmp(p->sections[i].cs->name, section))
			p->sections[i].seed = seed;
	return 0;
}

/* The per-section state of the run, and what the store holds of it when
 * it is resumed. */
static int load_done(struct run_exec *x, int resumed)
{
	struct stored_sample ss = { .x = x };

	x->st = xcalloc(x->p->n, sizeof(*x->st));
	for (size_t i = 0; i < x->p->n; i++) {
		const struct plan_section *ps = &x->p->sections[i];
		size_t nrr = (size_t)ps->rounds * ps->nrows;

		x->st[i].rr = xcalloc(nrr, sizeof(*x->st[i].rr));
		x->st[i].have = xcalloc(nrr * (size_t)ps->iterations + 1, 1);
		x->st[i].next_iter = xcalloc(ps->nrows, sizeof(*x->st[i].next_iter));
		for (size_t r = 0; r < ps->nrows; r++)
			x->st[i].next_iter[r] = 1;
	}
	if (!resumed)
		return 0;
	return store_each_meta(x->s, x->run_id, restore_seed, x->p) ||
	       store_each_sample_round(x->s, x->run_id, mark_done, &ss) ||
	       store_each_row_result(x->s, x->run_id, mark_finished, x);
}

static void release_state(struct run_exec *x)
{
	for (size_t i = 0; x->st && i < x->p->n; i++) {
		free(x->st[i].rr);
		free(x->st[i].have);
		free(x->st[i].next_iter);
	}
	free(x->st);
}

/* Samples this process will run, warm-up included (with auto iterations,
 * at most): a row's round with nothing left is skipped whole, one with
 * samples left runs its warm-up again. */
static int64_t samples_to_run(const struct run_exec *x)
{
	int64_t total = 0;

	for (size_t i = 0; i < x->p->n; i++)
		for (int k = 1; k <= x->p->sections[i].rounds; k++)
			for (size_t r = 0; r < x->p->sections[i].nrows; r++) {
				int left = x->round && k != x->round ? 0 :
					   row_round_left(x, i, k, r);

				if (left)
					total += (int64_t)left + x->p->sections[i].warmup;
			}
	return total;
}

int64_t plan_round_left(struct plan *p, struct store *s, int64_t run_id, int round)
{
	struct run_exec x = { .p = p, .s = s, .run_id = run_id, .round = round };
	int64_t left = load_done(&x, 1) ? -1 : samples_to_run(&x);

	release_state(&x);
	return left;
}

/* Run one sample (warm-up when warm) of row r of ps: k of kn as progress
 * shows it, stored as iteration `iteration` of round `round`. On success
 * *value is its first result. Return 0 (stored or failed and recorded), 1
 * when the store failed, or when a signal stopped it with stop_signal set
 * (*ok 0 then, as after a failure). */
static int run_one(struct run_exec *x, struct plan_section *ps, size_t r, int round,
		   int iteration, int k, int kn, int warm, double *value, int *ok)
{
	long long row = ps->rows[r];
	struct wl_sample smp;
	struct child ch = { .duration_ns = 0 };
	struct strbuf reason = STRBUF_INIT, res = STRBUF_INIT;
	struct store *rs;
	char rowtext[WL_ROW_LEN + 64];
	int rc = 0, failed, lost = 0;

	*ok = 0;
	wl_params_row_text(ps->params, row, rowtext, sizeof(rowtext));
	progress_start(&x->prog, ps->cs->name, rowtext, k, kn, warm);
	monitor_values_reset(&x->mv);
	if (x->req->around_sample &&
	    x->req->around_sample(x->req->around_arg, warm, 0, &reason)) {
		failed = -1;
		lost = 2;
	} else if (x->exec) {
		failed = x->exec->run(x->exec->arg, ps, row, &smp, &ch, &reason, &stop_signal);
		lost = failed == -2;
	} else {
		failed = run_sample_monitored(ps->ops, ps->params, row, ps->timeout_s, &stop_signal,
					      warm ? NULL : ps->monitors, &x->mv, &smp, &ch,
					      &reason);
	}
	if (!failed && x->req->around_sample &&
	    x->req->around_sample(x->req->around_arg, warm, 1, &reason)) {
		failed = -1;
		lost = 2;
	}
	if (failed) {
		if (stop_signal)
			goto out;
		/* The warning has it all; one line here. */
		strbuf_addf(&res, "failed: %.*s", (int)strcspn(reason.buf, "\n"), reason.buf);
		progress_clear(&x->prog);
		warning("[%s] %s sample %d: %s", ps->cs->name, rowtext, k, reason.buf);
		if (record_failure(x->s, x->run_id, ps, row, warm ? -k : iteration, reason.buf)) {
			if ((rs = recovery(x)) &&
			    !record_failure(rs, x->rec.run_id, ps, row, warm ? -k : iteration,
					    reason.buf))
				x->saved++;
			rc = 1;
			goto out;
		}
		if ((rs = x->copy.s) &&
		    record_failure(rs, x->copy.run_id, ps, row, warm ? -k : iteration, reason.buf))
			record_copy_failed(&x->copy, x->run_id);
		x->failed++;
		/* Where the samples ran is gone, or what had to run beside
		 * them: the run ends here, failed. */
		if (lost)
			stop_signal = -1;
		if (lost == 2)
			strbuf_addstr(&x->ended, reason.buf);
	} else {
		progress_format_result(ps->params, &smp, &res);
		/* The sample in hand goes to the recovery file when the
		 * store cannot take it. A warm-up is stored too, marked (as
		 * iteration -k), so that what it cost can be seen. */
		if (warm)
			iteration = -k;
		if (record_sample(x->s, x->run_id, ps, round, iteration, &smp, &ch, &x->mv)) {
			if ((rs = recovery(x)) &&
			    !record_sample(rs, x->rec.run_id, ps, round, iteration, &smp, &ch,
					   &x->mv)) {
				x->saved++;
				x->rescued += !warm;
			}
			rc = 1;
			goto out;
		}
		if ((rs = x->copy.s) &&
		    record_sample(rs, x->copy.run_id, ps, round, iteration, &smp, &ch, &x->mv))
			record_copy_failed(&x->copy, x->run_id);
		x->stored += !warm;
		*value = smp.results[0].value;
		*ok = 1;
	}
	progress_end(&x->prog, ps->cs->name, rowtext, k, kn, warm, res.buf, ch.duration_ns);
out:
	strbuf_release(&reason);
	strbuf_release(&res);
	return rc;
}

/* Store how round `round` of row r ended (iterations = auto), into the
 * recovery file when the store cannot take it. Return 0, or 1 when the
 * store failed. */
static int row_round_finish(struct run_exec *x, size_t i, int round, size_t r)
{
	struct plan_section *ps = &x->p->sections[i];
	struct row_round *rr = row_round(x, i, round, r);
	double ci = plan_ci_relative(rr->n, rr->mean, rr->m2);
	int met;
	struct store *rs;

	plan_row_done(ps, rr->n, rr->mean, rr->m2, &met);
	rr->finished = 1;
	if (!record_row_result(x->s, x->run_id, ps, ps->rows[r], round, (int)rr->n, ci, met)) {
		if ((rs = x->copy.s) &&
		    record_row_result(rs, x->copy.run_id, ps, ps->rows[r], round, (int)rr->n, ci,
				      met))
			record_copy_failed(&x->copy, x->run_id);
		return 0;
	}
	if ((rs = recovery(x)) &&
	    !record_row_result(rs, x->rec.run_id, ps, ps->rows[r], round, (int)rr->n, ci, met))
		x->saved++;
	return 1;
}

/* Run what round `round` of section i lacks, in the section's sample
 * order; each row's warm-up runs before its first sample of the round.
 * Return 0, or 1 when the store failed, or when a signal stopped it with
 * stop_signal set. */
static int run_round(struct run_exec *x, size_t i, int round)
{
	struct plan_section *ps = &x->p->sections[i];
	size_t nslots = ps->nrows * (size_t)ps->iterations;
	size_t *slots = xcalloc(nslots ? nslots : 1, sizeof(*slots));
	int *seen = xcalloc(ps->nrows, sizeof(*seen));
	unsigned char *warmed = xcalloc(ps->nrows, 1);
	int rc = 0;

	plan_round_order(ps, round, slots);
	for (size_t q = 0; q < nslots && !stop_signal && !rc; q++) {
		size_t r = slots[q];
		struct row_round *rr = row_round(x, i, round, r);
		int j = ++seen[r], iteration, ok;
		double v = 0;

		assert(j <= ps->iterations);	/* each row holds iterations slots */
		if (row_round_done(x, i, round, r))
			continue;
		if (ps->auto_iterations) {
			iteration = x->st[i].next_iter[r];
			j = (int)(rr->n + rr->failed) + 1;
		} else {
			iteration = (round - 1) * ps->iterations + j;
			if (*have(x, i, r, iteration))
				continue;
		}
		for (int w = 1; !warmed[r] && w <= ps->warmup && !stop_signal && !rc; w++)
			rc = run_one(x, ps, r, round, 0, w, ps->warmup, 1, &v, &ok);
		warmed[r] = 1;
		if (rc || stop_signal)
			break;
		rc = run_one(x, ps, r, round, iteration, j,
			     ps->auto_iterations ? -ps->iterations : ps->iterations, 0, &v, &ok);
		if (rc || stop_signal)
			break;
		if (!ok)
			rr->failed++;
		if (ps->auto_iterations) {
			x->st[i].next_iter[r]++;
			if (ok)
				row_round_add(rr, v);
			if (row_round_done(x, i, round, r))
				rc = row_round_finish(x, i, round, r);
		} else if (ok) {
			*have(x, i, r, iteration) = 1;
			rr->n++;
		}
	}
	free(slots);
	free(seen);
	free(warmed);
	return rc;
}

/* Section monitor figures `when` ("before", "after"), into the recovery
 * file when the store cannot take them. Return 0, or 1 when the store
 * failed. */
static int section_monitors(struct run_exec *x, const struct plan_section *ps, const char *when)
{
	struct store *rs;

	if (!record_section_monitors(x->s, x->run_id, ps, when, &x->mv)) {
		if ((rs = x->copy.s) &&
		    record_section_monitors(rs, x->copy.run_id, ps, when, &x->mv))
			record_copy_failed(&x->copy, x->run_id);
		return 0;
	}
	if ((rs = recovery(x)) && !record_section_monitors(rs, x->rec.run_id, ps, when, &x->mv))
		x->saved++;
	return 1;
}

/* With iterations = auto: record how each row of round `round` of section
 * i that needs no more samples ended, unless it is recorded. Return 0, or
 * 1 when the store failed. */
static int finish_rows(struct run_exec *x, size_t i, int round)
{
	const struct plan_section *ps = &x->p->sections[i];
	int rc = 0;

	for (size_t r = 0; !rc && ps->auto_iterations && round <= ps->rounds && r < ps->nrows;
	     r++)
		if (!row_round(x, i, round, r)->finished && row_round_done(x, i, round, r))
			rc = row_round_finish(x, i, round, r);
	return rc;
}

/* Run every round of every section of the plan with samples left: round
 * 1 of each section, then round 2... Return 0, or 1 when the store failed
 * (a signal leaves stop_signal set). */
static int run_sections(struct run_exec *x)
{
	unsigned char *begun = xcalloc(x->p->n + 1, 1);
	int rc = 0;

	for (int k = 1; k <= x->p->rounds && !stop_signal && !rc; k++)
		for (size_t i = 0; i < x->p->n && !stop_signal && !rc; i++) {
			struct plan_section *ps = &x->p->sections[i];
			int left = 0;

			if (x->round && k != x->round)
				continue;
			/* A resumed round whose rows the stored samples
			 * finish already says how they ended. */
			rc = finish_rows(x, i, k);
			for (size_t r = 0; !rc && r < ps->nrows && k <= ps->rounds; r++)
				left |= !row_round_done(x, i, k, r);
			if (rc || !left)
				continue;
			if (!begun[i]) {
				int fresh = 1;

				for (int kk = 1; kk <= ps->rounds; kk++)
					for (size_t r = 0; r < ps->nrows; r++)
						fresh &= !row_round(x, i, kk, r)->n &&
							 !row_round(x, i, kk, r)->finished;
				begun[i] = 1;
				monitor_values_reset(&x->mv);
				monitor_set_section_begin(ps->monitors, &x->mv);
				/* A section resumed part way keeps the figures
				 * from before its first sample. */
				if (fresh && section_monitors(x, ps, "before")) {
					rc = 1;
					break;
				}
			}
			progress_clear(&x->prog);	/* section_begin may warn */
			switch (section_begin(x->s, x->run_id, ps)) {
			case -1:
				rc = 1;
				continue;
			case 1:
				x->failed++;
				continue;
			}
			rc = run_round(x, i, k);
			/* A row stopped by the cap with failures among its
			 * samples still says how it ended. */
			if (!rc && !stop_signal)
				rc = finish_rows(x, i, k);
			if (ps->ops->section_end)
				ps->ops->section_end(ps->params);
			if (rc || stop_signal || section_left(x, i, k + 1))
				continue;
			monitor_values_reset(&x->mv);
			monitor_set_section_end(ps->monitors, &x->mv);
			if (section_monitors(x, ps, "after"))
				rc = 1;
		}
	free(begun);
	return rc;
}

/* What x did, for the messages of a store that failed (record.h). */
static struct record_tally tally(const struct run_exec *x)
{
	return (struct record_tally){ .stored = x->stored, .before = x->before,
				      .rescued = x->rescued, .saved = x->saved,
				      .damaged = x->damaged };
}

static void report_store_failure(struct run_exec *x)
{
	struct record_tally t = tally(x);

	record_report_store_failure(x->s, x->run_id, &x->rec, &t);
}

static void report_unfinished(struct run_exec *x, const char *status)
{
	struct record_tally t = tally(x);

	record_report_unfinished(x->s, x->run_id, &x->rec, &t, status);
}

/* The other kbench processes measuring on this machine (machine/
 * hostlock.h), said once for each new set and stored with the run x:
 * key concurrent-kbench (concurrent-kbench.round-R for a round of an
 * experiment's arm), value one line a process. This process says it
 * measures first unless it does already (*mine set then: the caller
 * lets go at the end). last holds the text stored before for x. Return
 * 0, or -1 when the fact cannot be stored. */
static int concurrent(struct run_exec *x, const struct run_request *req, int *mine,
		      struct strbuf *last)
{
	static struct strbuf warned = STRBUF_INIT;
	struct strbuf others = STRBUF_INIT, what = STRBUF_INIT, err = STRBUF_INIT;
	char key[48];
	int rc = 0;

	if (!hostlock_measuring()) {
		strbuf_addf(&what, "kbench run '%s' (run @%lld)", x->info.name,
			    (long long)x->run_id);
		if (hostlock_measure(what.buf, store_path(x->s), &others, &err))
			warning("cannot tell whether another kbench measures on this machine: %s",
				err.buf);
		else
			*mine = 1;
	} else {
		hostlock_others(&others);
	}
	if (others.len && strcmp(others.buf, warned.buf)) {
		struct strbuf list = STRBUF_INIT;

		for (const char *p = others.buf; *p; p++)
			if (*p == '\n')
				strbuf_addstr(&list, "\n  ");
			else
				strbuf_addch(&list, *p);
		warning("another kbench is measuring on this machine; the figures of run @%lld "
			"may be disturbed:\n  %s", (long long)x->run_id, list.buf);
		strbuf_release(&list);
		strbuf_reset(&warned);
		strbuf_add(&warned, others.buf, others.len);
	}
	if (others.len && strcmp(others.buf, last->buf)) {
		if (req->round)
			snprintf(key, sizeof(key), "concurrent-kbench.round-%d", req->round);
		else
			snprintf(key, sizeof(key), "concurrent-kbench");
		rc = store_add_meta(x->s, x->run_id, "", key, others.buf) ? -1 : 0;
		strbuf_reset(last);
		strbuf_add(last, others.buf, others.len);
	}
	strbuf_release(&others);
	strbuf_release(&what);
	strbuf_release(&err);
	return rc;
}

int plan_execute(struct plan *p, struct config *c, struct store *s,
		 const struct run_request *req, int64_t *run_id)
{
	struct stop_signals ss;
	struct run_exec x = { .p = p, .s = s, .mv = MONITOR_VALUES_INIT, .round = req->round,
			      .exec = req->exec, .req = req, .ended = STRBUF_INIT };
	sig_atomic_t decided = -2;	/* stop_signal when the run's end was decided */
	struct strbuf others = STRBUF_INIT;	/* stored as concurrent-kbench */
	int rc = -1, mine = 0, got;

	strbuf_init(&x.rec.path);
	*run_id = req->resume;
	if (req->resume && req->next_round) {
		/* The next round of an experiment's arm: quietly. */
		if (store_resume_run(s, req->resume))
			return -1;
	} else if (req->resume) {
		if (record_resume_run(s, p, req->resume))
			return -1;
	} else if (req->exec ? record_begin_run_on(s, p, c, req->name, req->exec->kernel,
						   req->exec->facts, req->exec->arg, run_id) :
		   record_begin_run(s, p, c, req->name, run_id)) {
		/* The run row and its facts are stored together or not at
		 * all; a later step may have failed with the row stored: do
		 * not leave it running. */
		if (!*run_id)
			error("the run could not be started; nothing of it was stored");
		else if (!record_finish_run(s, *run_id, "failed"))
			error("run @%lld could not be started; it is marked failed",
			      (long long)*run_id);
		return -1;
	}
	x.run_id = *run_id;
	got = store_get_run(s, x.run_id, &x.info);
	if (!got && record_recovery_open_memory(store_path(s), &x.info, p, &x.copy))
		warning("run @%lld keeps no copy of its samples: a store found damaged later would "
			"lose them", (long long)x.run_id);
	if (got || load_done(&x, req->resume != 0) ||
	    (!req->resume && req->facts && req->facts(s, x.run_id, req->facts_arg)) ||
	    concurrent(&x, req, &mine, &others)) {
		record_finish_run(s, x.run_id, "failed");
		goto out;
	}

	stop_signal = 0;
	sample_serve_begin();
	stop_signals_catch(&ss, on_signal);
	/* plan_build bounds the plan: the count fits progress's int. */
	progress_init(&x.prog, (int)samples_to_run(&x));
	x.prog.tag = req->tag;
	if (req->resume && !req->round)
		notice("run @%lld holds %ld of the plan's samples; %d to run, warm-up included",
		       (long long)x.run_id, x.before, x.prog.total);
	if (run_sections(&x)) {
		progress_clear(&x.prog);
		report_store_failure(&x);
		rc = -1;
		goto out_signals;
	}
	progress_clear(&x.prog);
	decided = stop_signal;
	if (stop_signal < 0) {
		if (finish(&x, "failed"))
			report_unfinished(&x, "failed");
		if (x.ended.len)
			error("run @%lld stopped: %s; it kept %ld samples and is marked failed",
			      (long long)x.run_id, x.ended.buf, x.stored + x.before);
		else
			error("run @%lld stopped because its guest is gone: it kept %ld samples "
			      "and is marked failed", (long long)x.run_id, x.stored + x.before);
		rc = 1;
	} else if (stop_signal) {
		if (finish(&x, "interrupted"))
			report_unfinished(&x, "interrupted");
		if (req->resume_cmd)
			error("interrupted by signal %d: run @%lld kept %ld samples and is marked "
			      "interrupted; '%s @%lld' runs the rest", (int)stop_signal,
			      (long long)x.run_id, x.stored + x.before, req->resume_cmd,
			      (long long)x.run_id);
		else
			error("interrupted by signal %d: run @%lld kept %ld samples and is marked "
			      "interrupted", (int)stop_signal, (long long)x.run_id,
			      x.stored + x.before);
		rc = 128 + stop_signal;
	} else if (!x.stored && !x.before && x.failed) {
		if (finish(&x, "failed"))
			report_unfinished(&x, "failed");
		error("run @%lld failed: every sample failed (see 'kbench show @%lld')",
		      (long long)x.run_id, (long long)x.run_id);
		rc = 1;
	} else {
		/* More rounds follow into this run: it stays running. */
		if (!req->keep_running && finish(&x, "complete")) {
			report_unfinished(&x, "complete");
			goto out_signals;
		}
		if (x.failed)
			warning("%ld samples failed; they are recorded (see 'kbench show @%lld')",
				x.failed, (long long)x.run_id);
		rc = 0;
	}
out_signals:
	/* Another kbench that began measuring during the run. */
	concurrent(&x, req, &mine, &others);
	sample_serve_end();
	stop_signals_restore(&ss);
	/* A signal that came once the run's end was decided (while its status
	 * was written or the sample server stopped) is the caller's: hand it
	 * on to the handler restored, or the next run would clear it and an
	 * experiment between rounds would go on as if it never came. */
	if (!decided && stop_signal > 0)
		raise(stop_signal);
out:
	release_state(&x);
	record_recovery_release(&x.rec);
	record_recovery_release(&x.copy);
	run_info_release(&x.info);
	monitor_values_release(&x.mv);
	strbuf_release(&x.ended);
	strbuf_release(&others);
	if (mine)
		hostlock_release();
	return rc;
}
