/* kbench configs: the shipped configs by name, each with the first
 * sentence of its leading comment, wrapped within 80 columns (setup.c finds
 * them for 'run -c NAME'). */
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

/* The width of the listing, and the column the descriptions start at. */
#define CONFIGS_WIDTH 80
#define CONFIGS_NAME_WIDTH 20

/* The end of the first sentence of text: after the first '.', '!' or '?'
 * that ends the text or is followed by a blank, an ellipsis ("1, 2, 4,
 * ...") and "e.g." or "i.e." going on; the whole text when none does. */
static size_t first_sentence(const char *text)
{
	for (const char *p = text; *p; p++) {
		if (!strchr(".!?", *p) || (p[1] && p[1] != ' '))
			continue;
		if (*p == '.' && ((p - text >= 2 && !strncmp(p - 2, "..", 2)) ||
				  (p - text >= 3 && (!strncmp(p - 3, "e.g", 3) ||
						     !strncmp(p - 3, "i.e", 3)))))
			continue;
		return (size_t)(p - text) + 1;
	}
	return strlen(text);
}

/* What the config at path says of itself: the first sentence of its
 * leading comment, without the "# " of each line and a leading "NAME: ",
 * into out (empty when the file starts otherwise). */
static void S_describe(const char *path, const char *name, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	FILE *f = fopen(path, "r");
	char line[512];
	size_t len = strlen(name);
	const char *p;

	if (!f)
		return;
	while (fgets(line, sizeof(line), f) && (line[0] == '#' || line[0] == ';')) {
		line[strcspn(line, "\n")] = '\0';
		p = line + 1 + strspn(line + 1, " \t");
		if (!*p)
			break;	/* the end of the first paragraph */
		strbuf_addf(&text, "%s%s", text.len ? " " : "", p);
	}
	fclose(f);
	p = text.buf;
	if (!strncmp(p, name, len) && p[len] == ':')
		p += len + 1 + strspn(p + len + 1, " \t");
	strbuf_add(out, p, first_sentence(p));
	strbuf_release(&text);
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
			       "first sentence of the file's comment (the rest is in the file).",
	};
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, desc = STRBUF_INIT;
	struct strbuf line = STRBUF_INIT;
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
		if (!desc.len) {
			printf("%s\n", names[i]);
			continue;
		}
		/* A long name gets a line of its own. */
		strbuf_reset(&line);
		if (strlen(names[i]) > CONFIGS_NAME_WIDTH)
			strbuf_addf(&line, "%s\n%*s", names[i], CONFIGS_NAME_WIDTH + 1, "");
		else
			strbuf_addf(&line, "%-*s ", CONFIGS_NAME_WIDTH, names[i]);
		usage_add_wrapped(&line, desc.buf, CONFIGS_NAME_WIDTH + 1, CONFIGS_WIDTH);
		printf("%s\n", line.buf);
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
	strbuf_release(&line);
	return rc;
}
