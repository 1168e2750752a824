/* json: a JSON writer that cannot emit invalid JSON. It keeps a stack of
 * the open containers, writes the commas and escapes the strings; misuse
 * (a key outside an object, a value without its key, closing the wrong
 * container) is a bug in the caller and aborts. */
#ifndef KBENCH_JSON_H
#define KBENCH_JSON_H

#include <stddef.h>

struct strbuf;

/* One document being written into out. The layout is compact: no blank
 * between tokens; json_newline() is the only whitespace it writes. */
struct json {
	struct strbuf *out;
	char *open;		/* the open containers, innermost last: '{' or '[' */
	size_t depth, alloc;
	int has_element;	/* the innermost container holds an element already */
	int has_key;		/* in an object: a key waits for its value */
	int newline;		/* the next element starts on a new line */
	int done;		/* the top-level value is complete */
};

/* Start a document that appends to out. */
void json_init(struct json *j, struct strbuf *out);
/* Check that the document is complete (one top-level value, every
 * container closed) and free the writer's state; out keeps the text. */
void json_finish(struct json *j);

/* Open the object of a kbench document, the top-level value of every
 * JSON output kbench writes, and write its envelope, its first two keys:
 * "format" (format, "kbench-" and what it holds, as "kbench-runs") and
 * "format_version" (version, raised when a key changes meaning or goes
 * away). The caller adds its keys and closes the object. */
void json_document_begin(struct json *j, const char *format, int version);

/* Containers. Closing one that is not the innermost open one, or an
 * object whose last key has no value, aborts. */
void json_object_begin(struct json *j);
void json_object_end(struct json *j);
void json_array_begin(struct json *j);
void json_array_end(struct json *j);

/* The key of the next value; only directly inside an object, and never
 * twice in a row. */
void json_key(struct json *j, const char *key);

/* Values: in an array, or in an object after their key, or as the whole
 * document. Strings are escaped ('"', '\\', \n and \t by name, other
 * control bytes, DEL and C1 controls in UTF-8 as \u00XX, so that no
 * string can drive a terminal; other bytes as they are). */
void json_string(struct json *j, const char *s);
/* "%.17g", which reads back as the same double; NaN and infinities are
 * written as null. */
void json_double(struct json *j, double v);
void json_int(struct json *j, long long v);
void json_bool(struct json *j, int v);
void json_null(struct json *j);

/* A key and its value in one call: json_key, then the value as above.
 * json_key_string writes null for a NULL s. */
void json_key_string(struct json *j, const char *key, const char *s);
void json_key_int(struct json *j, const char *key, long long v);
void json_key_double(struct json *j, const char *key, double v);
void json_key_bool(struct json *j, const char *key, int v);

/* Start the next element of the innermost container on a new line (after
 * its comma), for output meant to be read or diffed line by line. */
void json_newline(struct json *j);

#endif
