/* t1563-watch-store: the store's side of kbench watch: a watch found or
 * made once per (host, tree, remote, branch); a cycle's steps, tips and
 * end; the tips the next cycle tests against and has seen; a running
 * cycle found unfinished; verdicts and their bisection; a mail queued
 * once per (kind, row, culprit), pending until sent, its failures
 * counted. */
#include "config.h"
#include "../tap.h"
#include "db/bisect.h"
#include "db/store.h"
#include "db/watch.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int count_cb(const struct watch_mail *m, void *arg)
{
	(void)m;
	(*(int *)arg)++;
	return 0;
}

static int verdict_cb(const struct watch_verdict *v, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 256 - strlen(out), "%s/%s %s %.0f %d %d %lld %s;",
		 v->section, v->row, v->verdict, v->change_pct, v->gating, v->regression,
		 (long long)v->bisect_id, v->culprit);
	return 0;
}

static int cycle_cb(const struct watch_cycle *c, void *arg)
{
	char *out = arg;

	snprintf(out + strlen(out), 256 - strlen(out), "%lld %s %s %s %s;", (long long)c->id,
		 watch_step_name(c->step), c->state, c->result, c->new_tip);
	return 0;
}

int main(void)
{
	const char *path = "t_watch.db";
	struct store *s = NULL;
	struct watch_cycle c;
	int64_t w, w2, c1, c2, c3, m1, m2, bid = 0;
	char *tested = NULL, *seen = NULL, buf[256] = "";
	int n;

	unlink(path);
	ok(!store_open(path, &s), "a new store");
	ok(store_watch_find(s, "/t", "origin", "main", &w) == 1, "no watch yet");
	ok(!store_watch_get(s, "/t", "origin", "main", "w.conf", "[watch]\n", "T0", &w) && w > 0,
	   "a watch is made");
	ok(!store_watch_get(s, "/t", "origin", "main", "w.conf", "[watch]\nx\n", "T1", &w2) &&
	   w2 == w, "... and found again, the same");
	ok(!store_watch_find(s, "/t", "origin", "main", &w2) && w2 == w, "... by find too");
	ok(!store_watch_get(s, "/t", "origin", "next", "w.conf", "", "T1", &w2) && w2 != w,
	   "another branch is another watch");

	ok(!store_watch_tips(s, w, &tested, &seen) && !tested && !seen, "no tips before a cycle");
	ok(!store_watch_begin_cycle(s, w, "T2", &c1), "a cycle begins");
	ok(!store_watch_unfinished_cycle(s, w, &c) && c.id == c1 && c.alive &&
	   !strcmp(c.state, "running") && c.step == WATCH_STEP_FETCH,
	   "... running, its writer alive, at fetch");
	watch_cycle_release(&c);
	ok(!store_watch_cycle_tips(s, c1, NULL, "aaa") && !store_watch_cycle_step(s, c1,
	   WATCH_STEP_BUILD) && !store_watch_cycle_links(s, c1, 0, 0), "its tip and step");
	ok(!store_watch_end_cycle(s, c1, "complete", "baseline", NULL, "T3"), "... it ends");
	ok(!store_watch_get_cycle(s, c1, &c) && c.step == WATCH_STEP_DONE &&
	   !strcmp(c.result, "baseline") && !strcmp(c.new_tip, "aaa") && !*c.old_tip,
	   "a complete cycle is done, with its result");
	watch_cycle_release(&c);
	ok(store_watch_unfinished_cycle(s, w, &c) == 1, "nothing unfinished");
	ok(!store_watch_tips(s, w, &tested, &seen) && tested && !strcmp(tested, "aaa") &&
	   seen && !strcmp(seen, "aaa"), "the baseline is the tip tested and seen");
	free(tested);
	free(seen);

	ok(!store_watch_begin_cycle(s, w, "T4", &c2) && !store_watch_cycle_tips(s, c2, "aaa", "bbb")
	   && !store_watch_end_cycle(s, c2, "failed", "build-failed", "no vmlinux", "T5"),
	   "a cycle whose build failed");
	ok(!store_watch_get_cycle(s, c2, &c) && c.step == WATCH_STEP_FETCH &&
	   !strcmp(c.error, "no vmlinux"), "... keeps the step it reached and its error");
	watch_cycle_release(&c);
	ok(!store_watch_tips(s, w, &tested, &seen) && !strcmp(tested, "aaa") &&
	   !strcmp(seen, "bbb"), "a tip that failed is seen, not tested");
	free(tested);
	free(seen);

	ok(!store_watch_begin_cycle(s, w, "T6", &c3) && !store_watch_cycle_tips(s, c3, "aaa", "ccc"),
	   "a third cycle");
	{
		struct watch_verdict v[] = {
			{ "sec", "1", "worse", -30, 0.01, 1, 1, 0, NULL },
			{ "sec", "2", "cannot tell", NAN, NAN, 1, 0, 0, NULL },
		};

		ok(!store_watch_add_verdicts(s, c3, v, 2), "two verdicts");
	}
	{
		struct bisect_commit bc[] = { { -1, "aaa", "a", "A <a@x>", 1 },
					      { 0, "ccc", "c", "C <c@x>", 1 } };
		struct bisect_record br = { .uuid = "u-1", .tree = "/t", .good = "aaa",
					    .bad = "ccc", .good_ref = "aaa", .bad_ref = "ccc",
					    .config_name = "c", .config_text = "", .settings = "",
					    .command = "kbench bisect", .started_at = "T6",
					    .commits = bc, .ncommits = 2 };

		ok(!store_begin_bisect(s, &br, &bid), "a bisection");
	}
	ok(!store_watch_verdict_bisect(s, c3, "sec", "1", bid, NULL) &&
	   !store_watch_verdict_bisect(s, c3, "sec", "1", 0, "ccc"), "a row's bisection, culprit");
	ok(!store_watch_each_verdict(s, c3, verdict_cb, buf) &&
	   !strcmp(buf, "sec/1 worse -30 1 1 1 ccc;sec/2 cannot tell nan 1 0 0 ;"),
	   "... read back: %s", buf);

	{
		struct watch_mail m = { .kind = "report", .section = "sec", .row = "1",
					.culprit = "ccc", .subject = "s", .message_id = "<1@h>",
					.message = "Subject: s\n\nbody\n", .queued_at = "T7" };

		ok(store_watch_queue_mail(s, w, c3, &m, &m1) == 0 && m1 > 0, "a mail queued");
		m.message_id = "<2@h>";
		ok(store_watch_queue_mail(s, w, c3, &m, &m2) == 1 && m2 == m1,
		   "the same culprit of the same row is not queued twice");
		m.row = "2";
		ok(store_watch_queue_mail(s, w, c3, &m, &m2) == 0 && m2 != m1,
		   "... another row's is");
	}
	n = 0;
	ok(!store_watch_each_mail(s, w, 0, 1, count_cb, &n) && n == 2, "two pending");
	ok(!store_watch_mail_failed(s, m1, "connection refused") &&
	   !store_watch_mail_sent(s, m2, "T8"), "one fails, one is sent");
	n = 0;
	ok(!store_watch_each_mail(s, w, 0, 1, count_cb, &n) && n == 1, "one pending left");
	n = 0;
	ok(!store_watch_each_mail(s, 0, c3, 0, count_cb, &n) && n == 2, "the cycle's two mails");
	ok(!store_watch_end_cycle(s, c3, "complete", "regression", NULL, "T9"), "it ends");
	buf[0] = 0;
	ok(!store_watch_each_cycle(s, w, cycle_cb, buf) &&
	   !strcmp(buf, "1 done complete baseline aaa;2 fetch failed build-failed bbb;"
		   "3 done complete regression ccc;"), "the cycles listed: %s", buf);
	store_close(s);
	unlink(path);
	return done_testing();
}
