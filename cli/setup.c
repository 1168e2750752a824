/* setup: what the commands share before they do their own work: their
 * options parsed, the store opened, run names and notes checked, shipped
 * configs found by name. */
#include "config.h"
#include "cli/setup.h"
#include "db/store.h"
#include "lib/error.h"
#include "lib/name.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/suggest.h"
#include "lib/xalloc.h"
#include "machine/leftover.h"
#include "runner/conf.h"
#include "experiment/knob.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct global_opts global_opts;

int cmd_parse_options(int *argc, char **argv, const struct parse_opt *options,
		      const struct parse_opt_usage *usage, int *status)
{
	int n = parse_options(*argc, argv, options, usage, 0);

	if (n < 0) {
		*status = n == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		return -1;
	}
	*argc = n;
	return 0;
}

void cmd_store_path(struct strbuf *path)
{
	if (global_opts.db)
		strbuf_addstr(path, global_opts.db);
	else
		store_default_path(path);
}

/* Kill the background loads (experiment/background.h) a killed kbench left
 * running, and say so. */
static void reap_leftovers(void)
{
	struct strbuf said = STRBUF_INIT, err = STRBUF_INIT;

	if (leftover_reap(&said, &err) < 0)
		warning("cannot look for background loads left running: %s", err.buf);
	/* One notice a record. */
	for (const char *p = said.buf; *p;) {
		size_t n = strcspn(p, "\n");

		notice("%.*s", (int)n, p);
		p += n + (p[n] == '\n');
	}
	strbuf_release(&said);
	strbuf_release(&err);
}

int cmd_open_store(struct store **out, enum cmd_store_access access)
{
	struct strbuf path = STRBUF_INIT;
	int rc;

	cmd_store_path(&path);
	if (access == CMD_STORE_WRITE)
		rc = store_open(path.buf, out);
	else
		rc = store_open_readonly(path.buf, out);
	/* Knobs a killed experiment left changed go back first, and the
	 * background loads it left running are killed. */
	if (!rc) {
		knob_recover(*out, access == CMD_STORE_WRITE);
		reap_leftovers();
	}
	strbuf_release(&path);
	return rc;
}

struct store *cmd_open_store_if_any(void)
{
	struct strbuf path = STRBUF_INIT;
	struct store *s = NULL;

	cmd_store_path(&path);
	if (!access(path.buf, F_OK) && cmd_open_store(&s, CMD_STORE_READ))
		s = NULL;
	strbuf_release(&path);
	return s;
}

void run_ids_add(struct run_ids *ids, int64_t id)
{
	for (size_t i = 0; i < ids->n; i++)
		if (ids->v[i] == id)
			return;
	ALLOC_GROW(ids->v, ids->n + 1, ids->alloc);
	ids->v[ids->n++] = id;
}

void run_ids_release(struct run_ids *ids)
{
	free(ids->v);
	ids->v = NULL;
	ids->n = ids->alloc = 0;
}

int cmd_resolve_runs(struct store *s, char *const *sel, int n, struct run_ids *ids)
{
	struct strbuf err = STRBUF_INIT;
	int64_t id;

	for (int i = 0; i < n; i++) {
		if (store_resolve_run(s, sel[i], &id, &err)) {
			error("%s", err.buf);
			strbuf_release(&err);
			return -1;
		}
		run_ids_add(ids, id);
	}
	return 0;
}

/* The closest stored name so far, kept: the store's strings last only as
 * long as its callback. */
struct name_suggest {
	struct suggest sg;
	struct strbuf best;
	int exact;		/* the name typed is there */
};

static int offer_name(const char *name, void *arg)
{
	struct name_suggest *ns = arg;

	if (!strcmp(name, ns->sg.typed)) {
		ns->exact = 1;
		return 1;
	}
	suggest_add(&ns->sg, name);
	suggest_keep(&ns->sg, &ns->best, name);
	return 0;
}

int cmd_suggest_name(struct store *s, enum store_name_kind kind, const char *typed,
		     struct strbuf *out)
{
	struct name_suggest ns = { .sg = SUGGEST_INIT(typed), .best = STRBUF_INIT };
	int found = !store_each_name(s, kind, offer_name, &ns) && !ns.exact && ns.sg.best;

	if (found)
		strbuf_addf(out, " (did you mean '%s'?)", ns.sg.best);
	strbuf_release(&ns.best);
	return found;
}

int cmd_name_unknown(struct store *s, enum store_name_kind kind, const char *typed,
		     struct strbuf *hint)
{
	struct name_suggest ns = { .sg = SUGGEST_INIT(typed), .best = STRBUF_INIT };
	int unknown = !store_each_name(s, kind, offer_name, &ns) && !ns.exact;

	if (unknown && ns.sg.best)
		strbuf_addf(hint, " (did you mean '%s'?)", ns.sg.best);
	strbuf_release(&ns.best);
	return unknown;
}

int cmd_user_config_path(struct strbuf *path)
{
	const char *xdg = getenv("XDG_CONFIG_HOME"), *home = getenv("HOME");

	if (xdg && *xdg)
		strbuf_addf(path, "%s/kbench/kbench.conf", xdg);
	else if (home && *home)
		strbuf_addf(path, "%s/.config/kbench/kbench.conf", home);
	else
		return -1;
	return 0;
}

int cmd_user_config_section(const char *name, const char *const *keys, struct config *conf,
			    struct strbuf *path, const struct conf_section **section)
{
	const struct conf_section *s = NULL;
	struct stat st;

	*section = NULL;
	if (cmd_user_config_path(path) || stat(path->buf, &st))
		return 0;
	if (config_load(conf, path->buf))
		return -1;
	for (size_t i = 0; i < conf->n; i++)
		if (!strcmp(conf->sections[i].name, name))
			s = &conf->sections[i];
	if (!s)
		return 0;
	for (size_t i = 0; i < s->n; i++) {
		const struct conf_entry *e = &s->entries[i];
		struct strbuf expected = STRBUF_INIT;
		size_t k = 0;

		while (keys[k] && strcmp(keys[k], e->key))
			k++;
		if (keys[k])
			continue;
		for (k = 0; keys[k]; k++)
			strbuf_addf(&expected, "%s%s", !k ? "" : keys[k + 1] ? ", " : " or ",
				    keys[k]);
		error("%s:%d: unknown key '%s' in [%s] (expected %s)", e->file, e->line, e->key,
		      name, expected.buf);
		strbuf_release(&expected);
		return -1;
	}
	*section = s;
	return 0;
}

int cmd_config_int(const struct conf_entry *e, const char *name, const char *unit, long min,
		   long max, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(e->value, &end, 10);
	if (errno || end == e->value || *end || v < min || v > max)
		return error("%s:%d: invalid %s '%s' in [%s] (expected %s, %ld to %ld)", e->file,
			     e->line, e->key, e->value, name, unit, min, max);
	*out = (int)v;
	return 0;
}

int cmd_check_note(const char *text)
{
	size_t len = strlen(text);

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)text[i];

		if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f)
			return error("invalid note: it must not contain control characters other "
				     "than newline and tab (byte 0x%02x at offset %zu)", c, i);
	}
	if (len > NOTE_MAX)
		return error("invalid note: it is %zu bytes long, the limit is %d", len, NOTE_MAX);
	return 0;
}

int cmd_check_run_name(const char *name)
{
	size_t len = strlen(name), at;
	const char *why = name_invalid(NAME_RUN, name, len, &at);

	if (!why)
		return 0;
	if (!len)
		return error("the run name must not be empty");
	if (strstr(why, "control") || strstr(why, "UTF-8"))
		return error("invalid run name: %s (byte 0x%02x at offset %zu)", why,
			     (unsigned char)name[at], at);
	if (len > NAME_RUN_MAX)
		return error("invalid run name: it is %zu bytes long, the limit is %d",
			     len, NAME_RUN_MAX);
	return error("invalid run name '%s': %s", name, why);
}

/* A build tree is the directory of config.status and the Makefile that
 * names its source tree (Automake's abs_top_srcdir); no path is compiled
 * in, so that builds in two directories are the same bytes. */
const char *cmd_source_tree(void)
{
	static char src[PATH_MAX];
	static int looked;
	char exe[PATH_MAX], *slash;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	ssize_t n;

	if (looked)
		return *src ? src : NULL;
	looked = 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	strbuf_addf(&path, "%s/config.status", exe);
	if (access(path.buf, F_OK))
		goto out;
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/Makefile", exe);
	if (strbuf_read_file(&text, path.buf) < 0)
		goto out;
	for (const char *l = text.buf; l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		size_t len = strcspn(l, "\n");

		if (!strncmp(l, "abs_top_srcdir = /", 18) && len - 17 < sizeof(src)) {
			memcpy(src, l + 17, len - 17);
			src[len - 17] = '\0';
			break;
		}
	}
out:
	strbuf_release(&path);
	strbuf_release(&text);
	return *src ? src : NULL;
}

void cmd_shipped_configs_dir(struct strbuf *dir)
{
	const char *src = cmd_source_tree();

	if (src)
		strbuf_addf(dir, "%s/configs", src);
	else
		strbuf_addstr(dir, KBENCH_DATADIR);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

char **cmd_shipped_config_names(size_t *n)
{
	struct strbuf dir = STRBUF_INIT;
	char **names = NULL;
	size_t alloc = 0;
	struct dirent *de;
	DIR *d;

	*n = 0;
	cmd_shipped_configs_dir(&dir);
	d = opendir(dir.buf);
	while (d && (de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || de->d_name[0] == '.' || strcmp(de->d_name + len - 5, ".conf"))
			continue;
		ALLOC_GROW(names, *n + 1, alloc);
		names[(*n)++] = xstrndup(de->d_name, len - 5);
	}
	if (d)
		closedir(d);
	if (*n)
		qsort(names, *n, sizeof(*names), compare_names);
	strbuf_release(&dir);
	return names;
}

void cmd_free_names(char **names, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

/* A config named that is neither a file nor a shipped config: said with
 * the closest shipped one. */
static int no_config(const char *name)
{
	size_t n;
	char **names = cmd_shipped_config_names(&n);
	struct suggest sg = SUGGEST_INIT(name);

	for (size_t i = 0; !strchr(name, '/') && i < n; i++)
		suggest_add(&sg, names[i]);
	if (sg.best)
		error("cannot read config '%s': %s (did you mean '%s'?)", name, strerror(ENOENT),
		      sg.best);
	else
		error("cannot read config '%s': %s", name, strerror(ENOENT));
	cmd_free_names(names, n);
	return -1;
}

int cmd_find_config(const char *name, struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT;
	int rc = 0;

	strbuf_reset(path);
	if (!access(name, F_OK) || strchr(name, '/') || !*name)
		goto as_given;
	cmd_shipped_configs_dir(&dir);
	strbuf_addf(path, "%s/%s", dir.buf, name);
	if (!access(path->buf, R_OK))
		goto out;
	strbuf_addstr(path, ".conf");
	if (!access(path->buf, R_OK))
		goto out;
as_given:
	strbuf_reset(path);
	strbuf_addstr(path, name);
	if (*name && access(name, F_OK) && errno == ENOENT)
		rc = no_config(name);
out:
	strbuf_release(&dir);
	return rc;
}

int cmd_load_configs(struct config *c, const struct opt_list *configs,
		     const struct opt_list *overrides)
{
	struct strbuf path = STRBUF_INIT;
	int rc = -1;

	for (size_t i = 0; i < configs->n; i++)
		if (cmd_find_config(configs->v[i], &path) || config_load(c, path.buf))
			goto out;
	for (size_t i = 0; overrides && i < overrides->n; i++)
		if (config_add_override(c, overrides->v[i]))
			goto out;
	rc = 0;
out:
	strbuf_release(&path);
	return rc;
}

int cmd_require_configs(const struct opt_list *configs, const struct parse_opt_usage *usage,
			const struct parse_opt *options)
{
	if (configs->n)
		return 0;
	error("no config given: use -c FILE (e.g. configs/quick.conf)");
	if (usage)
		parse_opt_usage_print(usage, options, stderr);
	return -1;
}

int cmd_check_icount(const char *accel, int vcpus)
{
	if (!strcmp(accel, "kvm"))
		return error("--icount counts the instructions of a guest under TCG, and --accel "
			     "kvm asks for KVM");
	if (vcpus != 1)
		return error("--icount runs the guest on one vCPU (QEMU's single-threaded TCG): "
			     "add --vcpus 1");
	return 0;
}
