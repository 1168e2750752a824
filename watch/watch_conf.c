/* watch_conf: the [watch] section of a config file (docs/kbench.conf.5):
 * what a watch follows, what it measures, how it builds and boots the
 * kernels and whom it mails; every error names FILE:LINE and the key. */
#include "config.h"
#include "watch/watch.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const watch_keys[] = {
	"tree", "remote", "branch", "baseline", "config", "rows", "kconfig", "fragment",
	"guest-fragment", "cache", "jobs", "build-timeout", "fetch-timeout", "rounds",
	"max-rounds", "threshold", "accel", "append", "vcpus", "memory", "icount",
	"boot-timeout", "to", "cc", "from", "smtp", "cafile", "mail-timeout", NULL
};
static const char *const mail_keys[] = { "from", "to", "cc", "smtp", "cafile", "timeout", NULL };

void watch_split_list(const char *v, char ***list, size_t *n)
{
	for (const char *p = v; *p;) {
		size_t len;

		while (*p == ',' || *p == ' ' || *p == '\t')
			p++;
		len = strcspn(p, ", \t");
		if (!len)
			break;
		*list = xrealloc(*list, (*n + 2) * sizeof(**list));
		(*list)[(*n)++] = xstrndup(p, len);
		(*list)[*n] = NULL;
		p += len;
	}
}

static const struct conf_section *find_section(const struct config *c, const char *name)
{
	for (size_t i = 0; i < c->n; i++)
		if (!strcmp(c->sections[i].name, name))
			return &c->sections[i];
	return NULL;
}

/* path made absolute against dir (the config file's), malloc'd. */
static char *against(const char *dir, const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (*path == '/')
		return xstrdup(path);
	strbuf_addf(&sb, "%s/%s", dir, path);
	return strbuf_detach(&sb);
}

static int bad(const struct conf_entry *e, const char *what)
{
	return error("%s: [watch] %s: %s, not '%s'", e->where, e->key, what, e->value);
}

static int get_int(const struct conf_entry *e, int lo, int hi, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(e->value, &end, 10);
	if (errno || end == e->value || *end || v < lo || v > hi) {
		char what[96];

		snprintf(what, sizeof(what), "expected a whole number from %d to %d", lo, hi);
		return bad(e, what);
	}
	*out = (int)v;
	return 0;
}

static int get_double(const struct conf_entry *e, double lo, double hi, const char *what,
		      double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(e->value, &end);
	if (end != e->value && *end == '%')
		end++;
	if (errno || end == e->value || *end || !(v >= lo) || !(v <= hi))
		return bad(e, what);
	*out = v;
	return 0;
}

/* The benchmark sections of the watch's own file: its text without the
 * [watch] and [mail] sections. */
static int own_sections(struct watch_config *w)
{
	struct strbuf text = STRBUF_INIT, out = STRBUF_INIT;
	int rc = strbuf_read_file(&text, w->path), skip = 0;

	if (rc) {
		strbuf_release(&text);
		return error("cannot read config '%s': %s", w->path, strerror(-rc));
	}
	for (char *line = text.buf; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line + 1) : strlen(line);
		const char *p = line;

		while (*p == ' ' || *p == '\t')
			p++;
		if (*p == '[')
			skip = !strncmp(p, "[watch]", 7) || !strncmp(p, "[mail]", 6);
		if (!skip)
			strbuf_add(&out, line, len);
		line = nl ? nl + 1 : NULL;
	}
	strbuf_release(&text);
	w->bench_text = strbuf_detach(&out);
	return 0;
}

int watch_config_load(struct watch_config *w, const char *path)
{
	const struct conf_section *ws, *ms;
	struct strbuf dir = STRBUF_INIT, text = STRBUF_INIT;
	char cwd[PATH_MAX];
	char *slash;
	int rc = -1, nbench = 0;

	memset(w, 0, sizeof(*w));
	config_init(&w->conf);
	if (*path != '/' && getcwd(cwd, sizeof(cwd)))
		strbuf_addf(&dir, "%s/%s", cwd, path);
	else
		strbuf_addstr(&dir, path);
	w->path = xstrdup(dir.buf);
	slash = strrchr(dir.buf, '/');
	if (slash && slash != dir.buf)
		*slash = '\0';
	else
		dir.buf[1] = '\0';
	w->remote = "origin";
	w->rounds = WATCH_DEFAULT_ROUNDS;
	w->max_rounds = WATCH_DEFAULT_MAX_ROUNDS;
	w->threshold_pct = WATCH_DEFAULT_THRESHOLD;
	w->accel = "auto";
	w->vcpus = 2;
	w->mem_mib = 512;
	w->boot_timeout_s = 60;
	w->fetch_timeout_s = WATCH_FETCH_TIMEOUT_S;
	if (config_load(&w->conf, w->path))
		goto out;
	ws = find_section(&w->conf, "watch");
	if (!ws) {
		error("%s: no [watch] section: a watch needs at least tree = DIR and branch = NAME",
		      w->path);
		goto out;
	}
	for (size_t i = 0; i < ws->n; i++) {
		const struct conf_entry *e = &ws->entries[i];
		size_t k;

		for (k = 0; watch_keys[k] && strcmp(watch_keys[k], e->key); k++)
			;
		if (!watch_keys[k]) {
			error("%s: unknown key '%s' in [watch] (see kbench.conf(5))", e->where,
			      e->key);
			goto out;
		}
		if (!*e->value && strcmp(e->key, "append")) {
			bad(e, "expected a value");
			goto out;
		}
		if (!strcmp(e->key, "tree")) {
			free(w->tree);
			w->tree = against(dir.buf, e->value);
		} else if (!strcmp(e->key, "remote")) {
			w->remote = e->value;
		} else if (!strcmp(e->key, "branch")) {
			w->branch = e->value;
		} else if (!strcmp(e->key, "baseline")) {
			w->baseline = e->value;
		} else if (!strcmp(e->key, "config")) {
			char **list = NULL;
			size_t n = 0;

			watch_split_list(e->value, &list, &n);
			for (size_t j = 0; j < n; j++) {
				w->configs = xrealloc(w->configs, (w->nconfigs + 1) *
						      sizeof(*w->configs));
				w->configs[w->nconfigs++] = against(dir.buf, list[j]);
				free(list[j]);
			}
			free(list);
		} else if (!strcmp(e->key, "rows")) {
			watch_split_list(e->value, &w->rows, &w->nrows);
		} else if (!strcmp(e->key, "kconfig")) {
			w->kconfig = e->value;
		} else if (!strcmp(e->key, "fragment")) {
			watch_split_list(e->value, &w->fragments, &w->nfragments);
		} else if (!strcmp(e->key, "guest-fragment")) {
			w->guest_fragment = e->value;
		} else if (!strcmp(e->key, "cache")) {
			w->cache = e->value;
		} else if (!strcmp(e->key, "jobs")) {
			if (get_int(e, 1, 4096, &w->jobs))
				goto out;
		} else if (!strcmp(e->key, "build-timeout")) {
			if (get_double(e, 1, 604800, "expected seconds from 1 to 604800 (7 days)",
				       &w->build_timeout_s))
				goto out;
		} else if (!strcmp(e->key, "fetch-timeout")) {
			if (get_double(e, 1, 86400, "expected seconds from 1 to 86400",
				       &w->fetch_timeout_s))
				goto out;
		} else if (!strcmp(e->key, "rounds")) {
			if (!strcmp(e->value, "auto"))
				w->rounds = 0;
			else if (get_int(e, 3, 1000, &w->rounds))
				goto out;
		} else if (!strcmp(e->key, "max-rounds")) {
			if (get_int(e, 3, 1000, &w->max_rounds))
				goto out;
		} else if (!strcmp(e->key, "threshold")) {
			if (get_double(e, 0, 99.999, "expected a percentage from 0 to 100",
				       &w->threshold_pct))
				goto out;
		} else if (!strcmp(e->key, "accel")) {
			if (strcmp(e->value, "auto") && strcmp(e->value, "kvm") &&
			    strcmp(e->value, "tcg")) {
				bad(e, "expected auto, kvm or tcg");
				goto out;
			}
			w->accel = e->value;
		} else if (!strcmp(e->key, "append")) {
			w->append = e->value;
		} else if (!strcmp(e->key, "vcpus")) {
			if (get_int(e, 1, 288, &w->vcpus))
				goto out;
		} else if (!strcmp(e->key, "memory")) {
			if (get_int(e, 64, 1 << 20, &w->mem_mib))
				goto out;
		} else if (!strcmp(e->key, "icount")) {
			if (!strcmp(e->value, "yes") || !strcmp(e->value, "true") ||
			    !strcmp(e->value, "1"))
				w->icount = 1;
			else if (!strcmp(e->value, "no") || !strcmp(e->value, "false") ||
				 !strcmp(e->value, "0"))
				w->icount = 0;
			else {
				bad(e, "expected yes or no");
				goto out;
			}
		} else if (!strcmp(e->key, "boot-timeout")) {
			if (get_double(e, 1, 86400, "expected seconds from 1 to 86400",
				       &w->boot_timeout_s))
				goto out;
		} else if (!strcmp(e->key, "to")) {
			watch_split_list(e->value, &w->to, &w->nto);
		} else if (!strcmp(e->key, "cc")) {
			watch_split_list(e->value, &w->cc, &w->ncc);
		} else if (!strcmp(e->key, "from")) {
			w->from = e->value;
		} else if (!strcmp(e->key, "smtp")) {
			w->smtp = e->value;
		} else if (!strcmp(e->key, "cafile")) {
			w->cafile = e->value;
		} else if (!strcmp(e->key, "mail-timeout")) {
			if (get_int(e, 1, 86400, &w->mail_timeout_s))
				goto out;
		}
	}
	if (!w->tree || !w->branch) {
		error("%s:%d: [watch] needs %s", ws->file, ws->line,
		      !w->tree ? "tree = DIR (the local clone to follow)" :
				 "branch = NAME (the branch of the remote to follow)");
		goto out;
	}
	if (w->icount && w->vcpus != 1) {
		error("%s:%d: [watch] icount = yes needs vcpus = 1 (single-threaded TCG)",
		      ws->file, ws->line);
		goto out;
	}
	if (w->rounds && w->rounds > w->max_rounds) {
		error("%s:%d: [watch] rounds (%d) is more than max-rounds (%d)", ws->file,
		      ws->line, w->rounds, w->max_rounds);
		goto out;
	}
	ms = find_section(&w->conf, "mail");
	for (size_t i = 0; ms && i < ms->n; i++) {
		const struct conf_entry *e = &ms->entries[i];
		size_t k;

		for (k = 0; mail_keys[k] && strcmp(mail_keys[k], e->key); k++)
			;
		if (!mail_keys[k]) {
			error("%s: unknown key '%s' in [mail] (from, to, cc, smtp, cafile, timeout)",
			      e->where, e->key);
			goto out;
		}
	}
	if (ms) {
		const struct conf_entry *e;

		if (!w->nto && (e = conf_section_get(ms, "to")))
			watch_split_list(e->value, &w->to, &w->nto);
		if (!w->ncc && (e = conf_section_get(ms, "cc")))
			watch_split_list(e->value, &w->cc, &w->ncc);
		if (!w->from && (e = conf_section_get(ms, "from")))
			w->from = e->value;
		if (!w->smtp && (e = conf_section_get(ms, "smtp")))
			w->smtp = e->value;
		if (!w->cafile && (e = conf_section_get(ms, "cafile")))
			w->cafile = e->value;
		if (!w->mail_timeout_s && (e = conf_section_get(ms, "timeout")) &&
		    get_int(e, 1, 86400, &w->mail_timeout_s))
			goto out;
	}
	/* The benchmark configs' text, as an experiment stores it. */
	if (w->nconfigs) {
		for (size_t i = 0; i < w->nconfigs; i++) {
			int r = strbuf_read_file(&text, w->configs[i]);

			if (r) {
				error("%s:%d: [watch] config: cannot read '%s': %s", ws->file,
				      ws->line, w->configs[i], strerror(-r));
				goto out;
			}
			if (text.len && text.buf[text.len - 1] != '\n')
				strbuf_addch(&text, '\n');
		}
		w->bench_text = strbuf_detach(&text);
	} else if (own_sections(w)) {
		goto out;
	}
	for (size_t i = 0; i < w->conf.n; i++)
		nbench += strcmp(w->conf.sections[i].name, "watch") &&
			  strcmp(w->conf.sections[i].name, "mail");
	if (!w->nconfigs && !nbench) {
		error("%s:%d: [watch] names no config and the file has no benchmark section: "
		      "config = FILE, or sections such as [hackbench-thread-pipes] beside [watch]",
		      ws->file, ws->line);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&dir);
	strbuf_release(&text);
	if (rc)
		watch_config_release(w);
	return rc;
}

void watch_config_release(struct watch_config *w)
{
	free(w->path);
	free(w->tree);
	for (size_t i = 0; i < w->nconfigs; i++)
		free(w->configs[i]);
	free(w->configs);
	free(w->bench_text);
	for (size_t i = 0; i < w->nrows; i++)
		free(w->rows[i]);
	free(w->rows);
	for (size_t i = 0; i < w->nfragments; i++)
		free(w->fragments[i]);
	free(w->fragments);
	for (size_t i = 0; i < w->nto; i++)
		free(w->to[i]);
	free(w->to);
	for (size_t i = 0; i < w->ncc; i++)
		free(w->cc[i]);
	free(w->cc);
	config_release(&w->conf);
	memset(w, 0, sizeof(*w));
}
