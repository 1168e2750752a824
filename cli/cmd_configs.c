/* kbench configs: the shipped configs by name, each with the first line
 * of its leading comment (setup.c finds them for 'run -c NAME'). */
#include "config.h"
#include "cli/cmd.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

	if (cmd_parse_options(&argc, argv, options, &usage, &rc))
		goto out;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		goto out;
	}
	cmd_shipped_configs_dir(&dir);
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
