/* bisect_ctx: a bisection in progress, released, and what its
 * messages say of it. */
#include "config.h"
#include "bisect/bisect_ctx.h"
#include "lib/clock.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void bisect_ctx_release(struct bisect_ctx *b)
{
	free(b->tree);
	for (size_t i = 0; i < b->ncommits; i++) {
		free(b->commits[i].id);
		free(b->commits[i].subject);
		free(b->commits[i].author);
	}
	free(b->commits);
	bisect_walk_release(&b->walk);
	bisect_settings_release(&b->set);
	free(b->config_text);
	free(b->config_name);
	free(b->section);
	free(b->row);
	for (size_t i = 0; i < b->nbuilt; i++) {
		free(b->built[i].commit);
		kbuild_result_release(&b->built[i].res);
	}
	free(b->built);
	memset(b, 0, sizeof(*b));
}

const struct bcommit *bisect_ctx_commit(const struct bisect_ctx *b, long idx)
{
	return &b->commits[idx + 1];
}

void bisect_short_id(const char *id, char *buf, size_t len)
{
	snprintf(buf, len, "%.12s", id);
}

static double elapsed_s(const struct bisect_ctx *b)
{
	return b->spent_s + (double)(clock_ns(CLOCK_MONOTONIC) - b->started_ns) / 1e9;
}

void bisect_ctx_elapsed(const struct bisect_ctx *b, struct strbuf *sb)
{
	long s = (long)elapsed_s(b);

	if (s >= 3600)
		strbuf_addf(sb, "%ld:%02ld:%02ld", s / 3600, s / 60 % 60, s % 60);
	else
		strbuf_addf(sb, "%ld:%02ld", s / 60, s % 60);
}
