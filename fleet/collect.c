/* collect: the bundles of a results location collected into the store,
 * each recorded once, the newest run of a host, and the report on what
 * was collected (regressions, and the newest runs compared). */
#include "config.h"
#include "fleet/fleet.h"
#include "compare/compare.h"
#include "compare/history.h"
#include "compare/render.h"
#include "db/store.h"
#include "lib/clock.h"
#include "lib/error.h"
#include "lib/html.h"
#include "lib/plot.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* The counts of host in c, added if new. */
static struct fleet_host_count *host_count(struct fleet_collect *c, const char *host)
{
	for (size_t i = 0; i < c->nhosts; i++)
		if (!strcmp(c->hosts[i].host, host))
			return &c->hosts[i];
	ALLOC_GROW(c->hosts, c->nhosts + 1, c->alloc);
	memset(&c->hosts[c->nhosts], 0, sizeof(c->hosts[c->nhosts]));
	c->hosts[c->nhosts].host = xstrdup(host);
	return &c->hosts[c->nhosts++];
}

/* Fetch, import and record one bundle. */
static int collect_one(struct store *s, const char *results, const struct http_options *net,
		       const char *key, const char *scratch, const struct fleet_bundle *b, struct fleet_host_count *hc)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT, shown = STRBUF_INIT;
	struct bundle *bundle = NULL;
	struct import_counts c;
	char modified[32], now[32];
	struct fleet_collected rec;
	int rc = -1;

	strbuf_addf(&path, "%s/%s", scratch, b->file);
	strbuf_addf(&rel, "%s/%s", b->host, b->file);
	strbuf_addf(&shown, "%s/%s", key, rel.buf);
	if (fleet_fetch_bundle(results, net, b, path.buf) ||
	    bundle_open_as(path.buf, shown.buf, &bundle) ||
	    store_import(s, bundle, 0, NULL, NULL, &c)) {
		error("'%s/%s' not collected; a later collect tries it again", key, rel.buf);
		goto out;
	}
	if (b->modified >= 0)
		clock_iso_utc(modified, sizeof(modified), (time_t)b->modified);
	clock_iso_utc(now, sizeof(now), (time_t)(int64_t)time(NULL));
	rec = (struct fleet_collected) {
		.source = key,
		.path = rel.buf,
		.size_bytes = b->size_bytes,
		.modified_at = b->modified >= 0 ? modified : NULL,
		.collected_at = now,
		.runs_added = (int64_t)c.runs,
	};
	if (store_fleet_add_collected(s, &rec))
		goto out;
	hc->fetched++;
	hc->runs += c.runs;
	hc->present += c.present;
	hc->samples += c.samples;
	hc->cycles += c.cycles;
	rc = 0;
out:
	bundle_close(bundle);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&rel);
	strbuf_release(&shown);
	return rc;
}

int fleet_collect_bundles(struct store *s, const struct fleet_bundle_list *bundles,
			  struct fleet_collect *c)
{
	struct strbuf scratch = STRBUF_INIT;
	const char *tmpdir = getenv("TMPDIR");
	int rc = -1;

	strbuf_addf(&scratch, "%s/kbench-collect-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!c->dry_run && !mkdtemp(scratch.buf)) {
		error("cannot create a directory in '%s': %s", tmpdir && *tmpdir ? tmpdir : "/tmp",
		      strerror(errno));
		strbuf_reset(&scratch);
		goto out;
	}
	for (size_t i = 0; i < bundles->n; i++) {
		const struct fleet_bundle *b = &bundles->v[i];
		struct fleet_host_count *hc = host_count(c, b->host);
		struct strbuf rel = STRBUF_INIT;
		int have;

		if (c->since_set && b->modified >= 0 && b->modified < c->since)
			continue;
		hc->listed++;
		strbuf_addf(&rel, "%s/%s", b->host, b->file);
		have = 0;
		if (s && store_fleet_is_collected(s, c->key, rel.buf, &have)) {
			strbuf_release(&rel);
			goto out;
		}
		if (!have && c->dry_run)
			c->would_collect(rel.buf, c->arg);
		else if (!have && collect_one(s, c->results, c->net, c->key, scratch.buf, b, hc))
			hc->failed++;
		strbuf_release(&rel);
	}
	rc = 0;
out:
	if (scratch.len && !c->dry_run)
		rmdir(scratch.buf);
	strbuf_release(&scratch);
	return rc;
}

void fleet_collect_release(struct fleet_collect *c)
{
	for (size_t i = 0; i < c->nhosts; i++)
		free(c->hosts[i].host);
	free(c->hosts);
	c->hosts = NULL;
	c->nhosts = c->alloc = 0;
}

/* Whether r is newer than n: started later; in the same second (times are
 * stored to the second), finished later, an unfinished run last; on a
 * full tie, stored later (runs come in id order), so that the answer does
 * not depend on which of two such runs a collect happened to meet first. */
static int newer(const struct run_info *r, const struct fleet_newest *n)
{
	int c;

	if (!n->started_at)
		return 1;
	c = strcmp(r->started_at, n->started_at);
	if (c)
		return c > 0;
	if (!r->finished_at || !n->finished_at)
		return !r->finished_at;
	return strcmp(r->finished_at, n->finished_at) >= 0;
}

static int keep_newest(const struct run_info *r, void *arg)
{
	struct fleet_newest *n = arg;

	if (newer(r, n)) {
		free(n->name);
		free(n->started_at);
		free(n->finished_at);
		n->name = xstrdup(r->name);
		n->started_at = xstrdup(r->started_at);
		n->finished_at = r->finished_at ? xstrdup(r->finished_at) : NULL;
		n->id = r->id;
	}
	return 0;
}

void fleet_newest_release(struct fleet_newest *n)
{
	free(n->name);
	free(n->started_at);
	free(n->finished_at);
	n->name = n->started_at = n->finished_at = NULL;
	n->id = 0;
}

int fleet_newest_run(struct store *s, const char *host, const char *status,
		     struct fleet_newest *out)
{
	struct run_filter f = { .host = host, .status = status };

	return store_each_run(s, &f, keep_newest, out);
}

/* Print out on stdout, at once: what comes next may be an error on
 * stderr. Return 0, or -1 after an error message. */
static int print_now(const struct strbuf *out)
{
	fwrite(out->buf, 1, out->len, stdout);
	if (fflush(stdout))
		return error("cannot write the report: %s", strerror(errno));
	return 0;
}

/* The HTML report being made (collect --report-html): its body, and
 * its charts. */
struct html_report {
	struct strbuf body;
	struct plot_page pg;
	size_t parts;		/* comparisons in it, for their ids */
};

/* text, a part of the text report, as a <pre> under a heading in r. */
static void html_text(struct html_report *r, const char *heading, const struct strbuf *text)
{
	if (!r)
		return;
	strbuf_addstr(&r->body, "<h3>");
	html_escape(&r->body, heading);
	strbuf_addstr(&r->body, "</h3>\n<pre>");
	html_escape(&r->body, text->buf);
	strbuf_addstr(&r->body, "</pre>\n");
}

/* What kbench regressions --host HOST prints, on stdout (and into html
 * when not NULL). Return 1 when it found a regression, 0 when none, or
 * -1 after an error message. */
static int report_regressions(struct store *s, const char *host, struct html_report *html)
{
	const struct changepoint_params params = CHANGEPOINT_PARAMS_INIT;
	const struct series_filter f = { .host = host };
	struct strbuf out = STRBUF_INIT;
	struct history h;
	size_t n;
	int rc = -1;

	history_init(&h, &params);
	if (history_read(s, &f, &h))
		goto out;
	history_finish(&h);
	n = history_report_regressions(&h, NULL, HISTORY_FORMAT_TEXT, &out);
	html_text(html, host, &out);
	if (print_now(&out))
		goto out;
	rc = n ? 1 : 0;
out:
	history_release(&h);
	strbuf_release(&out);
	return rc;
}

/* What kbench compare --per-host BASE NEW prints, with compare's
 * defaults, on stdout: the runs named base and new_name on each host.
 * Return 0, or -1 after an error message. */
static int report_per_host(struct store *s, const char *base, const char *new_name,
			   struct html_report *html)
{
	const struct compare_options opt = { .monitors = CMP_MONITORS_SUMMARY };
	struct strbuf out = STRBUF_INIT;
	int rc = -1;

	if (compare_per_host(s, base, new_name, &opt, COMPARE_FORMAT_TEXT, &out) ||
	    (html && compare_per_host_html(s, base, new_name, &opt, &html->pg, &html->body)))
		goto out;
	rc = print_now(&out);
out:
	strbuf_release(&out);
	return rc;
}

/* What kbench compare of runs base_id and new_id prints, with compare's
 * defaults, on stdout. Return 0, or -1 after an error message. */
static int report_runs(struct store *s, int64_t base_id, int64_t new_id,
		       struct html_report *html)
{
	const struct compare_options opt = { .monitors = CMP_MONITORS_SUMMARY };
	const int64_t ids[2] = { base_id, new_id };
	struct strbuf out = STRBUF_INIT;
	struct cmp_model model;
	int rc = -1;

	if (compare_build_runs(s, ids, 2, &opt, &model))
		goto out;
	rc = compare_render(&model, COMPARE_FORMAT_TEXT, &out);
	if (!rc && html) {
		struct strbuf id = STRBUF_INIT;

		strbuf_addf(&id, "part%zu-", ++html->parts);
		render_html_body(&model, id.buf, &html->pg, &html->body);
		strbuf_release(&id);
	}
	model_release(&model);
	if (!rc)
		rc = print_now(&out);
out:
	strbuf_release(&out);
	return rc;
}

/* The hosts collected from key, in name order. */
static int add_host(const struct fleet_collected *c, void *arg)
{
	struct fleet_names *hosts = arg;
	const char *slash = strchr(c->path, '/');
	char *host = xstrndup(c->path, slash ? (size_t)(slash - c->path) : strlen(c->path));
	size_t i;

	for (i = 0; i < hosts->n && strcmp(hosts->v[i], host); i++)
		;
	if (i == hosts->n)
		fleet_names_add(hosts, host);
	free(host);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The newest complete run not named `name` on any of hosts. */
struct other_name {
	const char *name;
	const struct fleet_names *hosts;
	char *found, *started_at;
};

static int keep_other_name(const struct run_info *r, void *arg)
{
	struct other_name *o = arg;
	size_t i;

	for (i = 0; i < o->hosts->n && strcmp(o->hosts->v[i], r->hostname); i++)
		;
	if (i == o->hosts->n || !strcmp(r->name, o->name) ||
	    (o->started_at && strcmp(r->started_at, o->started_at) <= 0))
		return 0;
	free(o->found);
	free(o->started_at);
	o->found = xstrdup(r->name);
	o->started_at = xstrdup(r->started_at);
	return 0;
}

/* Append to html what it says (a heading, or a line of the report). */
static void html_add(struct html_report *html, const char *tag, const char *text)
{
	if (!html)
		return;
	strbuf_addf(&html->body, "<%s>", tag);
	html_escape(&html->body, text);
	strbuf_addf(&html->body, "</%s>\n", tag);
}

static int report(struct store *s, const char *key, struct html_report *html);

int fleet_report(struct store *s, const char *key, struct strbuf *page)
{
	struct html_report html = { .body = STRBUF_INIT, .pg = PLOT_PAGE_INIT };
	struct strbuf title = STRBUF_INIT;
	int rc = report(s, key, page ? &html : NULL);

	if (page && rc >= 0) {
		strbuf_addf(&title, "kbench fleet report: %s", key);
		html_page_begin(page, title.buf);
		strbuf_addstr(page, "<h1>");
		html_escape(page, title.buf);
		strbuf_addstr(page, "</h1>\n");
		plot_page_note(&html.pg, page);
		strbuf_add(page, html.body.buf, html.body.len);
		html_page_end(page);
	}
	strbuf_release(&html.body);
	strbuf_release(&title);
	return rc;
}

static int report(struct store *s, const char *key, struct html_report *html)
{
	struct fleet_names hosts = FLEET_NAMES_INIT;
	struct fleet_newest newest = { .name = NULL }, host_new = { .name = NULL };
	struct other_name base = { .name = NULL };
	struct strbuf a = STRBUF_INIT;
	int rc = -1, found = 0;

	if (store_fleet_each_collected(s, key, add_host, &hosts))
		goto out;
	if (hosts.n)
		qsort(hosts.v, hosts.n, sizeof(*hosts.v), by_name);
	for (size_t i = 0; i < hosts.n; i++) {
		int status;

		printf("\nRegressions on %s:\n", hosts.v[i]);
		if (!i)
			html_add(html, "h2", "Regressions per host");
		status = report_regressions(s, hosts.v[i], html);
		if (status < 0)
			goto out;
		found |= status == 1;
		if (fleet_newest_run(s, hosts.v[i], "complete", &newest))
			goto out;
	}
	if (!newest.name) {
		printf("\nNo complete run to compare.\n");
		html_add(html, "p", "No complete run to compare.");
		rc = found;
		goto out;
	}
	/* The newest name against the name run before it, per host. A
	 * comparison that fails says why and the report goes on: the
	 * regressions decide its outcome. */
	base.name = newest.name;
	base.hosts = &hosts;
	if (store_each_run(s, NULL, keep_other_name, &base))
		goto out;
	if (base.found) {
		printf("\n%s against %s on each host:\n", newest.name, base.found);
		strbuf_addf(&a, "%s against %s on each host", newest.name, base.found);
		html_add(html, "h2", a.buf);
		report_per_host(s, base.found, newest.name, html);
		rc = found;
		goto out;
	}
	for (size_t i = 0; i < hosts.n; i++) {
		int64_t prev = 0;
		int have_prev = 0;

		fleet_newest_release(&host_new);
		if (fleet_newest_run(s, hosts.v[i], "complete", &host_new))
			goto out;
		if (!host_new.name)
			continue;
		if (store_previous_run(s, host_new.id, &prev, &have_prev))
			goto out;
		if (!have_prev) {
			printf("\n%s: one complete run of its config, nothing to compare\n",
			       hosts.v[i]);
			strbuf_reset(&a);
			strbuf_addf(&a, "%s: one complete run of its config, nothing to compare",
				    hosts.v[i]);
			html_add(html, "p", a.buf);
			continue;
		}
		printf("\n%s:\n", hosts.v[i]);
		html_add(html, "h2", hosts.v[i]);
		report_runs(s, prev, host_new.id, html);
	}
	rc = found;
out:
	fleet_names_release(&hosts);
	fleet_newest_release(&newest);
	fleet_newest_release(&host_new);
	free(base.found);
	free(base.started_at);
	strbuf_release(&a);
	return rc;
}
