/* kbench configs: the shipped configs by name, each with the first line
 * of its leading comment; and the lookup that lets 'run -c NAME' find them. */
#include "config.h"
#include "cli/cmd.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *cmd_source_tree(void)
{
	char exe[PATH_MAX], *slash;
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return NULL;
	exe[n] = '\0';
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	return strcmp(exe, KBENCH_BUILDDIR) ? NULL : KBENCH_SRCDIR;
}

/* The directory of the shipped configs, into dir. */
static void S_shipped_dir(struct strbuf *dir)
{
	const char *src = cmd_source_tree();

	if (src)
		strbuf_addf(dir, "%s/configs", src);
	else
		strbuf_addstr(dir, KBENCH_DATADIR);
}

void cmd_find_config(const char *name, struct strbuf *path)
{
	struct strbuf dir = STRBUF_INIT;

	strbuf_reset(path);
	if (!access(name, F_OK) || strchr(name, '/') || !*name)
		goto as_given;
	S_shipped_dir(&dir);
	strbuf_addf(path, "%s/%s", dir.buf, name);
	if (!access(path->buf, R_OK))
		goto out;
	strbuf_addstr(path, ".conf");
	if (!access(path->buf, R_OK))
		goto out;
as_given:
	strbuf_reset(path);
	strbuf_addstr(path, name);
out:
	strbuf_release(&dir);
}

/* The first comment line of the config at path, without its "# " and a
 * leading "NAME: ", into out (empty when the file starts otherwise). */
static void S_describe(const char *path, const char *name, struct strbuf *out)
{
	FILE *f = fopen(path, "r");
	char line[512];
	const char *p;
	size_t len = strlen(name);

	if (!f)
		return;
	if (fgets(line, sizeof(line), f) && (line[0] == '#' || line[0] == ';')) {
		line[strcspn(line, "\n")] = '\0';
		p = line + 1;
		p += strspn(p, " \t");
		if (!strncmp(p, name, len) && p[len] == ':')
			p += len + 1 + strspn(p + len + 1, " \t");
		strbuf_addstr(out, p);
	}
	fclose(f);
}

static int S_compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int cmd_configs(int argc, char **argv)
{
	const struct parse_opt options[] = {
		OPT_HELP(NULL),
		OPT_END(),
	};
	struct parse_opt_usage usage = {
		.synopsis = "kbench configs",
		.description = "The shipped configs, for 'kbench run -c NAME': each name with the\n"
			       "first line of the file's comment.",
	};
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, desc = STRBUF_INIT;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct dirent *de;
	DIR *d = NULL;
	int rc = EXIT_USAGE;

	argc = parse_options(argc, argv, options, &usage, 0);
	if (argc < 0) {
		rc = argc == PARSE_OPT_HELP ? 0 : EXIT_USAGE;
		goto out;
	}
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	S_shipped_dir(&dir);
	if (!(d = opendir(dir.buf))) {
		error("cannot list configs in '%s': %s", dir.buf, strerror(errno));
		rc = 1;
		goto out;
	}
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);

		if (len <= 5 || strcmp(de->d_name + len - 5, ".conf") || de->d_name[0] == '.')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrndup(de->d_name, len - 5);
	}
	qsort(names, n, sizeof(*names), S_compare_names);
	for (size_t i = 0; i < n; i++) {
		strbuf_reset(&path);
		strbuf_reset(&desc);
		strbuf_addf(&path, "%s/%s.conf", dir.buf, names[i]);
		S_describe(path.buf, names[i], &desc);
		if (desc.len)
			printf("%-20s %s\n", names[i], desc.buf);
		else
			printf("%s\n", names[i]);
	}
	rc = 0;
out:
	if (d)
		closedir(d);
	for (size_t i = 0; i < n; i++)
		free(names[i]);
	free(names);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&desc);
	return rc;
}
