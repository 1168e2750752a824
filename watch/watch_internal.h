/* watch_internal: what the files of watch/ share: a cycle's context, and
 * the mails (watch_mail.c) the cycle (watch.c) queues and sends. */
#ifndef KBENCH_WATCH_INTERNAL_H
#define KBENCH_WATCH_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

struct store;
struct watch_run;

struct watch_ctx {
	struct store *s;
	const struct watch_run *r;
	int64_t watch_id, cycle_id;
	char *hostname;
};

/* Queue the report of bisection bisect_id (its culprit for section/row)
 * from the cycle of ctx, unless that culprit of that row was queued
 * before. Return 0 (queued, or queued before), or -1 after saying why. */
int watch_queue_report(struct watch_ctx *ctx, const char *section, const char *row,
		       const char *culprit, int64_t bisect_id);

/* Queue the mail of a failed step (what: "fetch" or "build") of tip (""
 * for a fetch) from the cycle of ctx, with error, unless it was queued
 * before. Return 0, or -1 after saying why. */
int watch_queue_failure(struct watch_ctx *ctx, const char *what, const char *tip,
			const char *subject_tip, const char *error);

/* Send every pending mail of the watch of ctx. Return 0 when none is
 * left pending, 1 when one could not be sent (it stays pending, its
 * error recorded), -1 after a store error. */
int watch_send_pending(struct watch_ctx *ctx);

#endif
