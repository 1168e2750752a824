/* watch_status: what kbench watch --status prints: each cycle of the
 * watches in the store with its time, tips, result, each row's verdict,
 * its bisection and culprit, and its mails (sent, with their Message-ID,
 * or pending), as text or as a kbench-watch JSON document. */
#include "config.h"
#include "watch/watch.h"
#include "db/store.h"
#include "db/watch.h"
#include "lib/json.h"
#include "lib/strbuf.h"

#include <math.h>
#include <string.h>

struct status {
	struct store *s;
	struct strbuf *out;
	struct json *j;		/* NULL: text */
	int64_t only;		/* a watch's id; 0: every watch */
	int failed;
};

static int text_verdict(const struct watch_verdict *v, void *arg)
{
	struct status *st = arg;

	strbuf_addf(st->out, "    %s/%s: %s", v->section, v->row, v->verdict);
	if (isfinite(v->change_pct))
		strbuf_addf(st->out, " %+.1f%%", v->change_pct);
	if (isfinite(v->p))
		strbuf_addf(st->out, " (p %.2g)", v->p);
	if (!v->gating)
		strbuf_addstr(st->out, ", not gating");
	if (v->regression)
		strbuf_addstr(st->out, ", a regression");
	if (v->bisect_id)
		strbuf_addf(st->out, ": bisection @%lld", (long long)v->bisect_id);
	if (*v->culprit)
		strbuf_addf(st->out, ", culprit %.12s", v->culprit);
	strbuf_addch(st->out, '\n');
	return 0;
}

static int text_mail(const struct watch_mail *m, void *arg)
{
	struct status *st = arg;

	strbuf_addf(st->out, "    mail %s %s: ", m->kind, m->message_id);
	if (!strcmp(m->state, "sent"))
		strbuf_addf(st->out, "sent %s\n", m->sent_at);
	else
		strbuf_addf(st->out, "pending after %d attempt%s%s%s\n", m->attempts,
			    m->attempts == 1 ? "" : "s", *m->last_error ? ": " : "",
			    m->last_error);
	return 0;
}

static void tip(struct strbuf *out, const char *id)
{
	strbuf_addf(out, "%.12s", *id ? id : "-");
}

static int text_cycle(const struct watch_cycle *c, void *arg)
{
	struct status *st = arg;

	strbuf_addf(st->out, "cycle #%lld  %s  %s  ", (long long)c->id, c->started_at,
		    c->state);
	if (*c->result)
		strbuf_addf(st->out, "%s  ", c->result);
	else
		strbuf_addf(st->out, "at %s  ", watch_step_name(c->step));
	if (*c->old_tip) {
		tip(st->out, c->old_tip);
		strbuf_addstr(st->out, "..");
	}
	tip(st->out, c->new_tip);
	if (c->experiment_id)
		strbuf_addf(st->out, "  experiment @%lld", (long long)c->experiment_id);
	strbuf_addch(st->out, '\n');
	if (*c->error)
		strbuf_addf(st->out, "    error: %s\n", c->error);
	if (store_watch_each_verdict(st->s, c->id, text_verdict, st) ||
	    store_watch_each_mail(st->s, 0, c->id, 0, text_mail, st))
		st->failed = 1;
	return st->failed;
}

static void key_text_or_null(struct json *j, const char *key, const char *v)
{
	json_key(j, key);
	if (v && *v)
		json_string(j, v);
	else
		json_null(j);
}

static void key_real(struct json *j, const char *key, double v)
{
	json_key(j, key);
	if (isfinite(v))
		json_double(j, v);
	else
		json_null(j);
}

static int json_verdict(const struct watch_verdict *v, void *arg)
{
	struct json *j = ((struct status *)arg)->j;

	json_object_begin(j);
	json_key_string(j, "section", v->section);
	json_key_string(j, "row", v->row);
	json_key_string(j, "verdict", v->verdict);
	key_real(j, "change_pct", v->change_pct);
	key_real(j, "p", v->p);
	json_key_bool(j, "gating", v->gating);
	json_key_bool(j, "regression", v->regression);
	json_key(j, "bisect_id");
	if (v->bisect_id)
		json_int(j, v->bisect_id);
	else
		json_null(j);
	key_text_or_null(j, "culprit", v->culprit);
	json_object_end(j);
	return 0;
}

static int json_mail(const struct watch_mail *m, void *arg)
{
	struct json *j = ((struct status *)arg)->j;

	json_object_begin(j);
	json_key_string(j, "kind", m->kind);
	key_text_or_null(j, "section", m->section);
	key_text_or_null(j, "row", m->row);
	key_text_or_null(j, "culprit", m->culprit);
	json_key_string(j, "subject", m->subject);
	json_key_string(j, "message_id", m->message_id);
	json_key_string(j, "state", m->state);
	json_key_int(j, "attempts", m->attempts);
	key_text_or_null(j, "last_error", m->last_error);
	json_key_string(j, "queued_at", m->queued_at);
	key_text_or_null(j, "sent_at", m->sent_at);
	json_object_end(j);
	return 0;
}

static int json_cycle(const struct watch_cycle *c, void *arg)
{
	struct status *st = arg;
	struct json *j = st->j;

	json_newline(j);
	json_object_begin(j);
	json_key_int(j, "id", c->id);
	json_key_int(j, "watch_id", c->watch_id);
	json_key_string(j, "started_at", c->started_at);
	key_text_or_null(j, "finished_at", c->finished_at);
	key_text_or_null(j, "old_tip", c->old_tip);
	key_text_or_null(j, "new_tip", c->new_tip);
	json_key_string(j, "step", watch_step_name(c->step));
	json_key_string(j, "state", c->state);
	key_text_or_null(j, "result", c->result);
	key_text_or_null(j, "error", c->error);
	json_key(j, "experiment_id");
	if (c->experiment_id)
		json_int(j, c->experiment_id);
	else
		json_null(j);
	json_key(j, "verdicts");
	json_array_begin(j);
	if (store_watch_each_verdict(st->s, c->id, json_verdict, st))
		st->failed = 1;
	json_array_end(j);
	json_key(j, "mails");
	json_array_begin(j);
	if (store_watch_each_mail(st->s, 0, c->id, 0, json_mail, st))
		st->failed = 1;
	json_array_end(j);
	json_object_end(j);
	return st->failed;
}

static int each_watch(const struct watch_info *w, void *arg)
{
	struct status *st = arg;

	if (st->only && w->id != st->only)
		return 0;
	if (st->j) {
		json_newline(st->j);
		json_object_begin(st->j);
		json_key_int(st->j, "id", w->id);
		json_key_string(st->j, "hostname", w->hostname);
		json_key_string(st->j, "tree", w->tree);
		json_key_string(st->j, "remote", w->remote);
		json_key_string(st->j, "branch", w->branch);
		json_key_string(st->j, "config", w->config_name);
		json_key(st->j, "cycles");
		json_array_begin(st->j);
		if (store_watch_each_cycle(st->s, w->id, json_cycle, st))
			st->failed = 1;
		json_array_end(st->j);
		json_object_end(st->j);
	} else {
		strbuf_addf(st->out, "watch %s, branch %s of %s, on %s (%s)\n", w->tree, w->branch,
			    w->remote, w->hostname, w->config_name);
		if (store_watch_each_cycle(st->s, w->id, text_cycle, st))
			st->failed = 1;
	}
	return st->failed;
}

int watch_status(struct store *s, const struct watch_config *cfg, int json,
		 struct strbuf *out)
{
	struct json j;
	struct status st = { .s = s, .out = out, .j = json ? &j : NULL };

	if (cfg && s) {
		int r = store_watch_find(s, cfg->tree, cfg->remote, cfg->branch, &st.only);

		if (r < 0)
			return -1;
		if (r)
			st.only = -1;
	}
	if (json) {
		json_init(&j, out);
		json_document_begin(&j, "kbench-watch", WATCH_STATUS_FORMAT_VERSION);
		json_key(&j, "watches");
		json_array_begin(&j);
	}
	if (s && store_each_watch(s, each_watch, &st))
		st.failed = 1;
	if (json) {
		json_array_end(&j);
		json_object_end(&j);
		json_finish(&j);
		strbuf_addch(out, '\n');
	} else if (!out->len) {
		strbuf_addstr(out, "no cycle of kbench watch in the store\n");
	}
	return st.failed ? -1 : 0;
}
