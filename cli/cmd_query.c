/* cmd_query: kbench query SQL [--format text|csv|json]: read-only SQL on
 * the store (db/ opens it read-only and refuses any statement that would
 * write), each result printed as an aligned table, CSV or JSON. */
#include "config.h"
#include "cli/cmd.h"
#include "cli/complete.h"
#include "views/output.h"
#include "db/sql.h"
#include "lib/csv.h"
#include "lib/error.h"
#include "lib/json.h"
#include "lib/name.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* The version of the JSON and CSV layouts below. */
#define QUERY_FORMAT_VERSION 1

static const struct parse_opt_usage query_usage = {
	.synopsis = "kbench query [--format FMT] [--timeout S] [--max-memory MIB]\n"
		    "                    [--max-rows N] SQL",
	.description =
		"Run SQL on the store, read-only: the store is opened read-only and a\n"
		"statement that would write (INSERT, UPDATE, DELETE, CREATE, DROP, ALTER,\n"
		"ATTACH, a PRAGMA that sets something, a transaction) is refused before\n"
		"anything runs. SQL may hold several statements; '-' reads it from stdin.\n"
		"A query is bounded in time, memory and rows: past a limit it stops and\n"
		"says which. The tables and columns are described in docs/schema.md.",
	.help_column = 20,
	.epilogue =
		"Example: kbench query \"SELECT kernel_release, count(*) FROM runs GROUP BY 1\"",
};

/* One result (the rows of one statement), held for the text table. */
struct result {
	int ncols;
	char **cells;		/* header first, then the rows, ncols a row */
	int *right;		/* per column: numbers are right-aligned */
	size_t nrows, alloc;	/* rows, header included */
};

struct query_out {
	enum output_format format;
	struct strbuf out;
	struct json json;
	struct result res;
	int nresults;
	int in_result;		/* json: a result's object and rows are open */
};

static int parse_format(const struct parse_opt *opt, const char *value)
{
	if (output_format_parse(value, opt->value))
		return error("unknown format '%s' (expected text, csv or json)", value);
	return 0;
}

/* The text of v for text and CSV: numbers as SQLite prints them (CSV with
 * every digit), a blob in hex, NULL as nothing. */
static void value_text(const struct store_sql_value *v, int exact, struct strbuf *sb)
{
	switch (v->type) {
	case STORE_SQL_NULL:
		break;
	case STORE_SQL_INTEGER:
		strbuf_addf(sb, "%lld", (long long)v->i);
		break;
	case STORE_SQL_REAL:
		strbuf_addf(sb, exact ? "%.17g" : "%.15g", v->d);
		break;
	case STORE_SQL_TEXT:
		strbuf_add(sb, v->text, v->len);
		break;
	case STORE_SQL_BLOB:
		strbuf_addstr(sb, "x'");
		for (size_t i = 0; i < v->len; i++)
			strbuf_addf(sb, "%02x", (unsigned char)v->text[i]);
		strbuf_addch(sb, '\'');
		break;
	}
}

/* A cell of the text table: one line, control characters escaped. */
static char *text_cell(const char *s, size_t len)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '\n')
			strbuf_addstr(&sb, "\\n");
		else if (c == '\t')
			strbuf_addstr(&sb, "\\t");
		else if (c < 0x20 || c == 0x7f)
			name_escape_byte(&sb, c);
		else
			strbuf_addch(&sb, (char)c);
	}
	return strbuf_detach(&sb);
}

/* ---- the sink ---- */

static int q_begin(void *arg, int statement, int ncols, const char *const *names)
{
	struct query_out *q = arg;
	struct json *j = &q->json;

	switch (q->format) {
	case OUTPUT_TEXT:
		q->res = (struct result){ .ncols = ncols };
		q->res.right = xcalloc((size_t)ncols, sizeof(*q->res.right));
		ALLOC_GROW(q->res.cells, (size_t)ncols, q->res.alloc);
		for (int c = 0; c < ncols; c++)
			q->res.cells[c] = text_cell(names[c], strlen(names[c]));
		q->res.nrows = 1;
		break;
	case OUTPUT_CSV:
		if (q->nresults)
			strbuf_addch(&q->out, '\n');
		for (int c = 0; c < ncols; c++) {
			if (c)
				strbuf_addch(&q->out, ',');
			csv_field(&q->out, names[c]);
		}
		strbuf_addch(&q->out, '\n');
		break;
	case OUTPUT_JSON:
		json_newline(j);
		json_object_begin(j);
		json_key_int(j, "statement", statement);
		json_key(j, "columns");
		json_array_begin(j);
		for (int c = 0; c < ncols; c++)
			json_string(j, names[c]);
		json_array_end(j);
		json_key(j, "rows");
		json_array_begin(j);
		q->in_result = 1;
		break;
	case OUTPUT_NFORMATS:
		break;
	}
	q->nresults++;
	return 0;
}

static int q_row(void *arg, int ncols, const struct store_sql_value *values)
{
	struct query_out *q = arg;
	struct json *j = &q->json;
	struct strbuf sb = STRBUF_INIT;

	if (q->format == OUTPUT_JSON) {
		json_newline(j);
		json_array_begin(j);
	}
	for (int c = 0; c < ncols; c++) {
		const struct store_sql_value *v = &values[c];

		strbuf_reset(&sb);
		switch (q->format) {
		case OUTPUT_TEXT:
			value_text(v, 0, &sb);
			ALLOC_GROW(q->res.cells, q->res.nrows * (size_t)ncols + (size_t)c + 1,
				   q->res.alloc);
			q->res.cells[q->res.nrows * (size_t)ncols + (size_t)c] =
				text_cell(sb.buf, sb.len);
			if (v->type == STORE_SQL_INTEGER || v->type == STORE_SQL_REAL)
				q->res.right[c] = 1;
			break;
		case OUTPUT_CSV:
			if (c)
				strbuf_addch(&q->out, ',');
			value_text(v, 1, &sb);
			csv_field(&q->out, sb.buf);
			break;
		case OUTPUT_JSON:
			switch (v->type) {
			case STORE_SQL_NULL: json_null(j); break;
			case STORE_SQL_INTEGER: json_int(j, (long long)v->i); break;
			case STORE_SQL_REAL: json_double(j, v->d); break;
			case STORE_SQL_TEXT: json_string(j, v->text); break;
			case STORE_SQL_BLOB:
				value_text(v, 1, &sb);
				json_string(j, sb.buf);
				break;
			}
			break;
		case OUTPUT_NFORMATS:
			break;
		}
	}
	if (q->format == OUTPUT_TEXT)
		q->res.nrows++;
	else if (q->format == OUTPUT_CSV)
		strbuf_addch(&q->out, '\n');
	else
		json_array_end(j);
	strbuf_release(&sb);
	return 0;
}

static void result_release(struct result *r)
{
	for (size_t i = 0; i < r->nrows * (size_t)r->ncols; i++)
		free(r->cells[i]);
	free(r->cells);
	free(r->right);
	*r = (struct result){ .ncols = 0 };
}

/* The held result as a table: a header, a rule, the rows. */
static void text_table(struct strbuf *out, const struct result *r, int first)
{
	int *width = xcalloc((size_t)r->ncols, sizeof(*width));

	for (size_t i = 0; i < r->nrows; i++)
		for (int c = 0; c < r->ncols; c++) {
			const char *s = r->cells[i * (size_t)r->ncols + (size_t)c];
			int w = 0;

			for (; *s; s++)
				w += ((unsigned char)*s & 0xc0) != 0x80;
			if (w > width[c])
				width[c] = w;
		}
	if (!first)
		strbuf_addch(out, '\n');
	for (size_t i = 0; i < r->nrows; i++) {
		size_t start = out->len;

		for (int c = 0; c < r->ncols; c++) {
			if (c)
				strbuf_addstr(out, "  ");
			output_cell(out, r->cells[i * (size_t)r->ncols + (size_t)c], width[c],
				    i && r->right[c]);
		}
		while (out->len > start && out->buf[out->len - 1] == ' ')
			out->len--;
		out->buf[out->len] = '\0';
		strbuf_addch(out, '\n');
		if (!i) {
			for (int c = 0; c < r->ncols; c++) {
				if (c)
					strbuf_addstr(out, "  ");
				for (int k = 0; k < width[c]; k++)
					strbuf_addch(out, '-');
			}
			strbuf_addch(out, '\n');
		}
	}
	free(width);
}

static int q_end(void *arg)
{
	struct query_out *q = arg;

	if (q->format == OUTPUT_TEXT) {
		text_table(&q->out, &q->res, q->nresults == 1);
		result_release(&q->res);
	} else if (q->format == OUTPUT_JSON) {
		json_array_end(&q->json);
		json_object_end(&q->json);
		q->in_result = 0;
	}
	return 0;
}

static const struct store_sql_sink query_sink = {
	.begin = q_begin,
	.row = q_row,
	.end = q_end,
};

int cmd_query(int argc, char **argv)
{
	struct query_out q = { .format = OUTPUT_TEXT, .out = STRBUF_INIT };
	double timeout_s = STORE_SQL_TIMEOUT_MS / 1000.0;
	int max_mib = (int)(STORE_SQL_HEAP_BYTES >> 20), max_rows = STORE_SQL_MAX_ROWS;
	struct store_sql_limits lim;
	const struct parse_opt options[] = {
		OPT_CALLBACK(0, "format", &q.format, "FMT",
			     "text (default): a table per statement; csv: a header\n"
			     "line and a record per row, a blank line between\n"
			     "statements; json: the columns and rows of each\n"
			     "statement, values typed. csv and json carry a format\n"
			     "version", parse_format, .complete = cmd_complete_output_formats),
		OPT_DOUBLE(0, "timeout", &timeout_s, "S",
			   "stop the query after S seconds (default 60; 0: never)"),
		OPT_INT_RANGE(0, "max-memory", &max_mib, "MIB",
			      "SQLite may use at most MIB MiB, one value a quarter\n"
			      "of it (default 512)", 1, 1 << 20),
		OPT_INT_RANGE(0, "max-rows", &max_rows, "N",
			      "stop after N rows (default 1000000; 0: no limit)", 0, INT_MAX),
		OPT_HELP("this text"),
		OPT_END(),
	};
	struct strbuf path = STRBUF_INIT, sql = STRBUF_INIT;
	int rc = EXIT_USAGE;

	if (cmd_parse_options(&argc, argv, options, &query_usage, &rc))
		return rc;
	if (!(timeout_s >= 0 && timeout_s <= 1e6)) {
		error("invalid --timeout %g: seconds from 0 (no limit) to 1000000", timeout_s);
		return EXIT_USAGE;
	}
	lim = (struct store_sql_limits){
		.timeout_ms = (int64_t)(timeout_s * 1000 + 0.5),
		.heap_bytes = (int64_t)max_mib << 20,
		.max_rows = max_rows,
	};
	if (argc != 1) {
		error("query takes one SQL text (quote it, or give '-' to read it from stdin)");
		parse_opt_usage_print(&query_usage, options, stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[0], "-")) {
		char buf[8192];
		ssize_t got;

		while ((got = read(STDIN_FILENO, buf, sizeof(buf))) > 0)
			strbuf_add(&sql, buf, (size_t)got);
		if (got < 0) {
			error("cannot read the SQL from stdin: %s", strerror(errno));
			rc = 1;
			goto out;
		}
	} else {
		strbuf_addstr(&sql, argv[0]);
	}
	cmd_store_path(&path);
	if (q.format == OUTPUT_CSV)
		strbuf_addf(&q.out, "# kbench query csv %d\n", QUERY_FORMAT_VERSION);
	if (q.format == OUTPUT_JSON) {
		json_init(&q.json, &q.out);
		json_document_begin(&q.json, "kbench-query", QUERY_FORMAT_VERSION);
		json_key(&q.json, "results");
		json_array_begin(&q.json);
	}
	rc = store_sql_query(path.buf, sql.buf, &lim, &query_sink, &q) ? 1 : 0;
	if (q.format == OUTPUT_JSON) {
		/* Closed even after an error, then not printed. */
		if (q.in_result) {
			json_array_end(&q.json);
			json_object_end(&q.json);
		}
		json_array_end(&q.json);
		json_object_end(&q.json);
		json_finish(&q.json);
		strbuf_addch(&q.out, '\n');
	}
	if (!rc) {
		fwrite(q.out.buf, 1, q.out.len, stdout);
		rc = fflush(stdout) ? 1 : 0;
	}
out:
	result_release(&q.res);
	strbuf_release(&q.out);
	strbuf_release(&sql);
	strbuf_release(&path);
	return rc;
}
