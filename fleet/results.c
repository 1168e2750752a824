/* results: the results location that jobs upload bundles to and collect
 * reads, a WebDAV URL (through fleet/http) or a shared directory: its
 * bundles listed, fetched and put, and its key as recorded. */
#include "config.h"
#include "fleet/fleet.h"
#include "fleet/http.h"
#include "lib/error.h"
#include "lib/fsfile.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int fleet_is_bundle_name(const char *name)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.kbench";

	if (strlen(name) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)name[i]) || isupper((unsigned char)name[i]) :
		    name[i] != shape[i])
			return 0;
	return 1;
}

void fleet_bundle_list_release(struct fleet_bundle_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].host);
		free(l->v[i].file);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static void add_bundle(struct fleet_bundle_list *l, const char *host, const char *file,
		       int64_t size_bytes, int64_t modified)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = (struct fleet_bundle) {
		.host = xstrdup(host), .file = xstrdup(file),
		.size_bytes = size_bytes, .modified = modified,
	};
}

static int by_host_file(const void *a, const void *b)
{
	const struct fleet_bundle *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	return c ? c : strcmp(x->file, y->file);
}

/* A host directory name that could be ours: not hidden, no '/'. */
static int host_name_ok(const char *name)
{
	return *name && *name != '.' && !strchr(name, '/');
}

static int list_url(const char *results, const struct http_options *net,
		    struct fleet_bundle_list *out)
{
	struct http_listing top = HTTP_LISTING_INIT;
	struct strbuf url = STRBUF_INIT, sub = STRBUF_INIT;
	int rc = -1;

	/* A collection's URL ends with '/': servers may not list it otherwise. */
	strbuf_addstr(&url, results);
	if (url.buf[url.len - 1] != '/')
		strbuf_addch(&url, '/');
	if (http_list(net, url.buf, &top))
		goto out;
	for (size_t i = 0; i < top.n; i++) {
		struct http_listing files = HTTP_LISTING_INIT;

		if (!top.v[i].is_collection || !host_name_ok(top.v[i].name))
			continue;
		strbuf_reset(&sub);
		http_url_join(&sub, url.buf, top.v[i].name);
		strbuf_addch(&sub, '/');
		if (http_list(net, sub.buf, &files))
			goto out;
		for (size_t k = 0; k < files.n; k++)
			if (!files.v[k].is_collection && fleet_is_bundle_name(files.v[k].name))
				add_bundle(out, top.v[i].name, files.v[k].name,
					   files.v[k].size_bytes, files.v[k].modified);
		http_listing_release(&files);
	}
	rc = 0;
out:
	http_listing_release(&top);
	strbuf_release(&url);
	strbuf_release(&sub);
	return rc;
}

static int list_dir(const char *dir, struct fleet_bundle_list *out)
{
	struct strbuf path = STRBUF_INIT;
	DIR *top = opendir(dir), *d = NULL;
	struct dirent *e, *f;
	struct stat st;
	int rc = -1;

	if (!top)
		return error("cannot list results directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(top))) {
		if (!host_name_ok(e->d_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		/* A link could lead the collector anywhere on this machine. */
		if (lstat(path.buf, &st) || !S_ISDIR(st.st_mode))
			continue;
		d = opendir(path.buf);
		if (!d) {
			error("cannot list '%s': %s", path.buf, strerror(errno));
			goto out;
		}
		while ((f = readdir(d))) {
			if (!fleet_is_bundle_name(f->d_name))
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s/%s", dir, e->d_name, f->d_name);
			if (lstat(path.buf, &st))
				continue;
			if (S_ISLNK(st.st_mode))
				warning("'%s' is a symbolic link: not collected", path.buf);
			else if (S_ISREG(st.st_mode))
				add_bundle(out, e->d_name, f->d_name, (int64_t)st.st_size,
					   (int64_t)st.st_mtime);
		}
		closedir(d);
		d = NULL;
	}
	rc = 0;
out:
	if (d)
		closedir(d);
	closedir(top);
	strbuf_release(&path);
	return rc;
}

int fleet_list_bundles(const char *results, const struct http_options *net,
		       struct fleet_bundle_list *out)
{
	if (http_is_url(results) ? list_url(results, net, out) : list_dir(results, out))
		return -1;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_host_file);
	return 0;
}

/* Copy the file at from into a new file at to, synced; with nofollow,
 * from must be a regular file, not a symbolic link (a bundle of a shared
 * directory, which anyone who writes there could point anywhere). */
static int copy_new_file(const char *from, const char *to, int nofollow)
{
	struct strbuf err = STRBUF_INIT;
	int rc = copy_file(from, to, COPY_NEW | (nofollow ? COPY_NOFOLLOW : 0), &err);

	if (rc)
		error("%s", err.buf);
	strbuf_release(&err);
	return rc;
}

int fleet_fetch_bundle(const char *results, const struct http_options *net,
		       const struct fleet_bundle *b, const char *path)
{
	struct strbuf src = STRBUF_INIT;
	int rc;

	if (http_is_url(results)) {
		http_url_join(&src, results, b->host);
		strbuf_addch(&src, '/');
		strbuf_addstr(&src, b->file);
		rc = http_get_file(net, src.buf, path);
	} else {
		strbuf_addf(&src, "%s/%s/%s", results, b->host, b->file);
		rc = copy_new_file(src.buf, path, 1);
	}
	strbuf_release(&src);
	return rc;
}

int fleet_put_bundle(const char *results, const struct http_options *net, const char *host,
		     const char *file, const char *path)
{
	struct strbuf dst = STRBUF_INIT, tmp = STRBUF_INIT;
	struct stat st;
	int rc = -1;

	if (http_is_url(results)) {
		http_url_join(&dst, results, host);
		strbuf_addch(&dst, '/');
		strbuf_addstr(&dst, file);
		rc = http_put_file(net, dst.buf, path);
		goto out;
	}
	if (stat(results, &st)) {
		error("cannot upload '%s' to results directory '%s': %s", path, results,
		      strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("cannot upload '%s': '%s' is not a directory", path, results);
		goto out;
	}
	strbuf_addf(&dst, "%s/%s", results, host);
	if (mkdir(dst.buf, 0755) && errno != EEXIST) {
		error("cannot create '%s': %s", dst.buf, strerror(errno));
		goto out;
	}
	/* Copied beside its final name, then renamed: never seen half written. */
	strbuf_addf(&tmp, "%s/.%s.part-%ld", dst.buf, file, (long)getpid());
	strbuf_addf(&dst, "/%s", file);
	unlink(tmp.buf);
	if (copy_new_file(path, tmp.buf, 0))
		goto out;
	if (rename(tmp.buf, dst.buf)) {
		error("cannot rename '%s' to '%s': %s", tmp.buf, dst.buf, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&dst);
	strbuf_release(&tmp);
	return rc;
}

int fleet_results_key(const char *results, struct strbuf *out)
{
	char real[PATH_MAX];

	if (http_is_url(results)) {
		http_url_redact(out, results);
	} else {
		if (!realpath(results, real))
			return error("cannot use results directory '%s': %s", results,
				     strerror(errno));
		strbuf_addstr(out, real);
	}
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		out->buf[--out->len] = '\0';
	return 0;
}
