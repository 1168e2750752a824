/* outbox: a node's finished runs exported as bundles into its outbox,
 * and the outbox sent to the results location, each bundle remembered
 * as sent once it is there. */
#include "config.h"
#include "fleet/fleet.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/uuid.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* A run to export: its id, uuid and host. */
struct pending_run {
	int64_t id;
	char uuid[40];
	char *host;
};

struct pending_runs {
	struct pending_run *v;
	size_t n, alloc;
};

/* A host name as a directory name: no '/', not hidden. */
static void host_dir(struct strbuf *out, const char *host)
{
	size_t start = out->len;

	strbuf_addstr(out, *host ? host : "unknown");
	if (out->buf[start] == '.')
		out->buf[start] = '_';
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == '/')
			out->buf[i] = '_';
}

static int collect_run(const struct run_info *r, void *arg)
{
	struct pending_runs *l = arg;

	if (!strcmp(r->status, "running"))
		return 0;	/* exported once it has finished */
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].id = r->id;
	snprintf(l->v[l->n].uuid, sizeof(l->v[l->n].uuid), "%s", r->uuid);
	l->v[l->n].host = xstrdup(r->hostname);
	l->n++;
	return 0;
}

/* Make dir and its parents, saying which could not be made. */
static int make_dir(const char *dir)
{
	struct strbuf err = STRBUF_INIT;
	int rc = 0;

	if (mkdir_p(dir, &err))
		rc = error("%s", err.buf);
	strbuf_release(&err);
	return rc;
}

/* Write text into a new file beside path, then rename it over path. */
static int replace_file(const char *path, const char *text)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd, rc = -1;

	strbuf_addf(&tmp, "%s.XXXXXX", path);
	fd = mkstemp(tmp.buf);
	if (fd < 0) {
		error("cannot create a file beside '%s': %s", path, strerror(errno));
		goto out;
	}
	if (write_full(fd, text, strlen(text))) {
		error("cannot write '%s': %s", tmp.buf, strerror(errno));
		close(fd);
		unlink(tmp.buf);
		goto out;
	}
	if (close(fd) || rename(tmp.buf, path)) {
		error("cannot write '%s': %s", path, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&tmp);
	return rc;
}

static void add_host(const char *host, void *arg)
{
	fleet_names_add(arg, host);
}

/* Export the watch records of each host of s that changed since they were
 * last exported (sent/watch-HOST.state holds what they were then) into a
 * bundle of the outbox, outbox/HOST/UUID.kbench, a new uuid each time:
 * the store that collects them keeps the furthest state of each cycle. */
static int export_watches(struct store *s, const char *outbox, const char *sent)
{
	struct fleet_names hosts = FLEET_NAMES_INIT;
	struct strbuf now = STRBUF_INIT, was = STRBUF_INIT, mark = STRBUF_INIT;
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT;
	char uuid[37];
	int rc = 0;

	if (store_watch_hosts(s, add_host, &hosts))
		return -1;
	for (size_t i = 0; i < hosts.n; i++) {
		strbuf_reset(&now);
		strbuf_reset(&was);
		strbuf_reset(&mark);
		if (store_watch_signature(s, hosts.v[i], &now)) {
			rc = -1;
			continue;
		}
		strbuf_addf(&mark, "%s/watch-", sent);
		host_dir(&mark, hosts.v[i]);
		strbuf_addstr(&mark, ".state");
		if (!now.len || (!strbuf_read_file(&was, mark.buf) && !strcmp(was.buf, now.buf)))
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/", outbox);
		host_dir(&dir, hosts.v[i]);
		uuid_random(uuid);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s.kbench", dir.buf, uuid);
		if (make_dir(dir.buf) || make_dir(sent) ||
		    store_export_watch(s, hosts.v[i], path.buf) ||
		    replace_file(mark.buf, now.buf))
			rc = -1;
	}
	fleet_names_release(&hosts);
	strbuf_release(&now);
	strbuf_release(&was);
	strbuf_release(&mark);
	strbuf_release(&dir);
	strbuf_release(&path);
	return rc;
}

int fleet_export_new_runs(struct store *s, const char *outbox, const char *sent)
{
	struct pending_runs runs = { .n = 0 };
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	if (store_each_run(s, NULL, collect_run, &runs)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < runs.n; i++) {
		const struct pending_run *r = &runs.v[i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", sent, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/", outbox);
		host_dir(&dir, r->host);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s.kbench", dir.buf, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		if (make_dir(dir.buf) || store_export(s, &r->id, 1, path.buf))
			rc = -1;
	}
	if (export_watches(s, outbox, sent))
		rc = -1;
out:
	for (size_t i = 0; i < runs.n; i++)
		free(runs.v[i].host);
	free(runs.v);
	strbuf_release(&path);
	strbuf_release(&dir);
	return rc;
}

/* Create the empty file path (or leave it as it is). */
static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	return fd < 0 || close(fd) ? -1 : 0;
}

int fleet_send_outbox(const char *outbox, const char *sent, const char *results,
		      const struct http_options *net,
		      void (*uploaded)(const char *host, const char *file, void *arg), void *arg)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, mark = STRBUF_INIT;
	struct fleet_names hosts = FLEET_NAMES_INIT;
	DIR *top = opendir(outbox), *d;
	struct dirent *e;
	int rc = 0;

	if (!top)
		return errno == ENOENT ? 0 : error("cannot list '%s': %s", outbox, strerror(errno));
	while ((e = readdir(top)))
		if (e->d_name[0] != '.')
			fleet_names_add(&hosts, e->d_name);
	closedir(top);
	for (size_t i = 0; i < hosts.n; i++) {
		struct fleet_names files = FLEET_NAMES_INIT;

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", outbox, hosts.v[i]);
		d = opendir(dir.buf);
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (fleet_is_bundle_name(e->d_name))
				fleet_names_add(&files, e->d_name);
		closedir(d);
		for (size_t k = 0; k < files.n; k++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir.buf, files.v[k]);
			if (fleet_put_bundle(results, net, hosts.v[i], files.v[k], path.buf)) {
				warning("kept '%s' for the next upload", path.buf);
				rc = -1;
				continue;
			}
			uploaded(hosts.v[i], files.v[k], arg);
			/* Remembered as sent before it leaves the outbox. */
			strbuf_reset(&mark);
			strbuf_addf(&mark, "%s/%.36s", sent, files.v[k]);
			if (make_dir(sent) || touch(mark.buf) || unlink(path.buf)) {
				error("cannot move '%s' out of the outbox: %s", path.buf,
				      strerror(errno));
				rc = -1;
			}
		}
		fleet_names_release(&files);
	}
	fleet_names_release(&hosts);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&mark);
	return rc;
}
