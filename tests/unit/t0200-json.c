/* t0200-json: the JSON writer escapes strings, nests containers, places
 * commas and newlines, writes numbers as compare's JSON always has, writes
 * a key and its value in one call, opens a document with its envelope,
 * never writes invalid UTF-8, and aborts on misuse (checked in a forked child).
 * Covers: lib/json.c */
#include "config.h"
#include "lib/json.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static int expect(const struct strbuf *got, const char *want, const char *what)
{
	return ok_text(got->buf, want, "%s", what);
}

static void test_escaping(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	json_string(&j, "a\"b\\c\nd\te\x01\x1f\x7f/\xc3\xa9");
	json_finish(&j);
	expect(&sb, "\"a\\\"b\\\\c\\nd\\te\\u0001\\u001f\\u007f/\xc3\xa9\"",
	       "quotes, backslashes, \\n and \\t by name, other control bytes (DEL too) "
	       "as \\u00XX, UTF-8 as it is");
	strbuf_reset(&sb);
	json_init(&j, &sb);
	json_object_begin(&j);
	json_key(&j, "k\"ey\n");
	json_string(&j, "");
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, "{\"k\\\"ey\\n\":\"\"}", "keys are escaped as strings are");
	strbuf_reset(&sb);
	json_init(&j, &sb);
	json_string(&j, "x\xff\xfey \xc3 \xc0\xaf \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82\xac\xf0\x9f\x98\x80");
	json_finish(&j);
	expect(&sb, "\"x\\ufffd\\ufffdy \\ufffd \\ufffd\\ufffd \\ufffd\\ufffd\\ufffd "
	       "\\ufffd\\ufffd\\ufffd\\ufffd \xe2\x82\xac\xf0\x9f\x98\x80\"",
	       "a byte that is not valid UTF-8 (stray, truncated, overlong, a surrogate, past "
	       "U+10FFFF) is U+FFFD, each; valid UTF-8 is kept");
	strbuf_release(&sb);
}

static void test_nesting(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	json_object_begin(&j);
	json_key(&j, "a");
	json_array_begin(&j);
	json_int(&j, 1);
	json_array_begin(&j);
	json_array_end(&j);
	json_object_begin(&j);
	json_object_end(&j);
	json_object_begin(&j);
	json_key(&j, "x");
	json_null(&j);
	json_key(&j, "y");
	json_bool(&j, 1);
	json_object_end(&j);
	json_bool(&j, 0);
	json_array_end(&j);
	json_key(&j, "b");
	json_string(&j, "s");
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, "{\"a\":[1,[],{},{\"x\":null,\"y\":true},false],\"b\":\"s\"}",
	       "nested containers get a comma between elements and none elsewhere");
	strbuf_release(&sb);
}

static void test_numbers(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	json_array_begin(&j);
	json_double(&j, 0.1);
	json_double(&j, 2);
	json_double(&j, -1.5e-300);
	json_double(&j, NAN);
	json_double(&j, INFINITY);
	json_double(&j, -INFINITY);
	json_int(&j, -9007199254740993LL);
	json_array_end(&j);
	json_finish(&j);
	expect(&sb, "[0.10000000000000001,2,-1.5000000000000001e-300,null,null,null,"
	       "-9007199254740993]",
	       "doubles as %.17g, non-finite ones as null, integers exactly");
	strbuf_release(&sb);
}

/* The keyed calls write what json_key and the value write, and a NULL
 * string as null. */
static void test_keyed(void)
{
	struct strbuf sb = STRBUF_INIT, want = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	json_object_begin(&j);
	json_key_string(&j, "s", "a \"b\"\n");
	json_key_string(&j, "none", NULL);
	json_key_string(&j, "empty", "");
	json_key_int(&j, "i", -42);
	json_key_double(&j, "d", 0.1);
	json_key_double(&j, "nan", NAN);
	json_key_bool(&j, "t", 1);
	json_key_bool(&j, "f", 0);
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, "{\"s\":\"a \\\"b\\\"\\n\",\"none\":null,\"empty\":\"\",\"i\":-42,"
	       "\"d\":0.10000000000000001,\"nan\":null,\"t\":true,\"f\":false}",
	       "keyed strings (NULL as null), integers, doubles and booleans");

	/* The same document written a key and a value at a time. */
	json_init(&j, &want);
	json_object_begin(&j);
	json_key(&j, "s");
	json_string(&j, "a \"b\"\n");
	json_key(&j, "none");
	json_null(&j);
	json_key(&j, "empty");
	json_string(&j, "");
	json_key(&j, "i");
	json_int(&j, -42);
	json_key(&j, "d");
	json_double(&j, 0.1);
	json_key(&j, "nan");
	json_double(&j, NAN);
	json_key(&j, "t");
	json_bool(&j, 1);
	json_key(&j, "f");
	json_bool(&j, 0);
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, want.buf, "keyed calls write what a key and its value write");
	strbuf_release(&sb);
	strbuf_release(&want);
}

static void test_newlines(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	strbuf_addstr(&sb, "prefix ");
	json_init(&j, &sb);
	json_object_begin(&j);
	json_key(&j, "rows");
	json_array_begin(&j);
	for (int i = 0; i < 2; i++) {
		json_newline(&j);
		json_object_begin(&j);
		json_key(&j, "i");
		json_int(&j, i);
		json_object_end(&j);
	}
	json_array_end(&j);
	json_newline(&j);
	json_key(&j, "last");
	json_int(&j, 3);
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, "prefix {\"rows\":[\n{\"i\":0},\n{\"i\":1}],\n\"last\":3}",
	       "json_newline puts the next element on a new line after its comma, and "
	       "the writer appends to what the buffer holds");
	strbuf_release(&sb);
}

enum misuse {
	KEY_AT_TOP,
	KEY_IN_ARRAY,
	VALUE_WITHOUT_KEY,
	KEY_AFTER_KEY,
	WRONG_CLOSE,
	CLOSE_NOTHING,
	CLOSE_AFTER_KEY,
	SECOND_DOCUMENT,
	UNFINISHED,
	EMPTY,
	KEYED_IN_ARRAY,
	NMISUSES
};

static const char *const misuse_names[NMISUSES] = {
	[KEY_AT_TOP] = "a key outside any container",
	[KEY_IN_ARRAY] = "a key in an array",
	[VALUE_WITHOUT_KEY] = "a value without a key in an object",
	[KEY_AFTER_KEY] = "two keys in a row",
	[WRONG_CLOSE] = "closing an array while an object is innermost",
	[CLOSE_NOTHING] = "closing with nothing open",
	[CLOSE_AFTER_KEY] = "closing an object whose key has no value",
	[SECOND_DOCUMENT] = "a second top-level value",
	[UNFINISHED] = "finishing with a container open",
	[EMPTY] = "finishing an empty document",
	[KEYED_IN_ARRAY] = "a keyed value in an array",
};

static void misuse(enum misuse what)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	switch (what) {
	case KEY_AT_TOP:
		json_key(&j, "k");
		break;
	case KEY_IN_ARRAY:
		json_array_begin(&j);
		json_key(&j, "k");
		break;
	case VALUE_WITHOUT_KEY:
		json_object_begin(&j);
		json_int(&j, 1);
		break;
	case KEY_AFTER_KEY:
		json_object_begin(&j);
		json_key(&j, "a");
		json_key(&j, "b");
		break;
	case WRONG_CLOSE:
		json_array_begin(&j);
		json_object_begin(&j);
		json_array_end(&j);
		break;
	case CLOSE_NOTHING:
		json_object_end(&j);
		break;
	case CLOSE_AFTER_KEY:
		json_object_begin(&j);
		json_key(&j, "a");
		json_object_end(&j);
		break;
	case SECOND_DOCUMENT:
		json_int(&j, 1);
		json_int(&j, 2);
		break;
	case UNFINISHED:
		json_array_begin(&j);
		json_finish(&j);
		break;
	case EMPTY:
		json_finish(&j);
		break;
	case KEYED_IN_ARRAY:
		json_array_begin(&j);
		json_key_int(&j, "k", 1);
		break;
	case NMISUSES:
		break;
	}
}

/* Run one misuse in a child: it must die of SIGABRT. */
static void test_misuse(enum misuse what)
{
	pid_t pid;
	int status = 0;

	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		/* The writer's one-line complaint would only clutter the log. */
		if (!freopen("/dev/null", "w", stderr))
			_exit(3);
		misuse(what);
		_exit(0);
	}
	if (pid < 0 || waitpid(pid, &status, 0) != pid) {
		ok(0, "%s aborts (cannot fork or wait)", misuse_names[what]);
		return;
	}
	if (!ok(WIFSIGNALED(status) && WTERMSIG(status) == SIGABRT, "%s aborts",
		misuse_names[what])) {
		if (WIFSIGNALED(status))
			diag("the child died of signal %d", WTERMSIG(status));
		else
			diag("the child exited with status %d", WEXITSTATUS(status));
	}
}

static void test_document(void)
{
	struct strbuf sb = STRBUF_INIT;
	struct json j;

	json_init(&j, &sb);
	json_document_begin(&j, "kbench-test", 3);
	json_key_int(&j, "n", 1);
	json_object_end(&j);
	json_finish(&j);
	expect(&sb, "{\"format\":\"kbench-test\",\"format_version\":3,\"n\":1}",
	       "a document opens with its envelope, format and format_version");
	strbuf_release(&sb);
}

int main(void)
{
	test_escaping();
	test_document();
	test_nesting();
	test_numbers();
	test_keyed();
	test_newlines();
	for (int i = 0; i < NMISUSES; i++)
		test_misuse(i);
	return done_testing();
}
