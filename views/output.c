/* output: format names, text cells cut to their column, and a command's
 * output written to a file or the standard output. */
#include "config.h"
#include "views/output.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static const char *const format_names[OUTPUT_NFORMATS] = {
	[OUTPUT_TEXT] = "text",
	[OUTPUT_JSON] = "json",
	[OUTPUT_CSV] = "csv",
};

int output_format_parse(const char *name, enum output_format *f)
{
	for (int i = 0; i < OUTPUT_NFORMATS; i++)
		if (!strcmp(format_names[i], name)) {
			*f = i;
			return 0;
		}
	return -1;
}

const char *output_format_name(enum output_format f)
{
	return format_names[f];
}

/* The length in bytes of the first n characters of s (fewer when s is
 * shorter); *cols is set to how many characters that is. A UTF-8 lead
 * byte and its continuation bytes are one character. */
static size_t prefix_bytes(const char *s, size_t n, size_t *cols)
{
	size_t i = 0, c = 0;

	while (s[i] && c < n) {
		i++;
		while ((s[i] & 0xc0) == 0x80)
			i++;
		c++;
	}
	*cols = c;
	return i;
}

void output_cell(struct strbuf *out, const char *s, int width, int right)
{
	size_t w = width > 0 ? (size_t)width : 0, cols, len;

	len = prefix_bytes(s, w + 1, &cols);
	if (cols > w) {
		/* Too long: width - 1 characters and the mark. */
		if (w) {
			strbuf_add(out, s, prefix_bytes(s, w - 1, &cols));
			strbuf_addch(out, '~');
		}
		return;
	}
	if (right)
		strbuf_addf(out, "%*s", (int)(w - cols), "");
	strbuf_add(out, s, len);
	if (!right)
		strbuf_addf(out, "%*s", (int)(w - cols), "");
}

int output_write(const char *path, const struct strbuf *out)
{
	int fd, rc;

	if (!path) {
		fwrite(out->buf, 1, out->len, stdout);
		return fflush(stdout) ? -1 : 0;
	}
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
	if (fd < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	rc = write_full(fd, out->buf, out->len);
	if (close(fd))
		rc = -1;
	return rc ? error("cannot write '%s': %s", path, strerror(errno)) : 0;
}
