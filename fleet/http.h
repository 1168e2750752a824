/* http: the HTTP and WebDAV calls that move result bundles between hosts
 * (libcurl): PUT under a temporary name then MOVE, PROPFIND listings and
 * GET, transient failures retried with backoff, credentials from
 * KBENCH_UPLOAD_USER / KBENCH_UPLOAD_PASSWORD or netrc and never printed. */
#ifndef KBENCH_HTTP_H
#define KBENCH_HTTP_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* Defaults of struct http_options. */
#define HTTP_ATTEMPTS 4		/* tries of a request */
#define HTTP_BACKOFF_MS 1000	/* the pause after the first failed try */
#define HTTP_TIMEOUT_S 300	/* the longest one try may take */
#define HTTP_CONNECT_TIMEOUT_S 30	/* the longest a connection may take */
#define HTTP_STALL_S 60		/* a try that moves no byte for this long fails */

/* How requests are made; zero fields take the defaults above. A try that
 * fails for a reason that may pass (no connection, a timeout, HTTP 408,
 * 429 or 5xx) is retried after a pause that doubles each time; any other
 * failure ends the request at once. A server that accepts and never
 * answers costs at most stall_s a try; with a deadline, no try starts,
 * and none runs, past it. */
struct http_options {
	int attempts;
	int backoff_ms;
	long timeout_s;			/* one try, whole */
	long connect_timeout_s;		/* one try's connection */
	long stall_s;			/* one try below 1 byte/s for this long */
	long total_s;			/* for messages: what the deadline allows */
	double deadline;		/* CLOCK_MONOTONIC seconds; 0: none */
	const char *cafile;		/* https: trust the CA certificates of this
					 * PEM file, not the system's; NULL: the
					 * system's */
};

/* Set o's deadline total_s seconds from now (0: none). */
void http_options_start(struct http_options *o, long total_s);

/* Credentials, for every request: the user and password in
 * $KBENCH_UPLOAD_USER and $KBENCH_UPLOAD_PASSWORD when the user is set,
 * else the entry of the URL's host in $NETRC or ~/.netrc, if any (basic
 * authentication: use https beyond a trusted network). A user and
 * password written in the URL itself are used as well, but messages show
 * every URL without them. */

/* Upload the file at path to url (a file name, not a collection) with PUT:
 * first to a temporary name beside it (".NAME.part-PID"), then MOVE onto
 * url, so that a reader never sees a partial file under the final name;
 * collections on the way are created by the server or with MKCOL. An
 * existing file at url is replaced. Return 0, or -1 after printing why,
 * naming path and url. */
int http_put_file(const struct http_options *o, const char *url, const char *path);

/* Download url into path, a new file (created, never replaced); on
 * failure nothing is left at path. Return 0, or -1 after printing why. */
int http_get_file(const struct http_options *o, const char *url, const char *path);

/* One member of a WebDAV collection. */
struct http_entry {
	char *name;		/* its last path segment, decoded */
	int is_collection;
	int64_t size_bytes;	/* -1: not given */
	int64_t modified;	/* seconds since the epoch; -1: not given */
};

struct http_listing {
	struct http_entry *v;
	size_t n, alloc;
};
#define HTTP_LISTING_INIT { .v = NULL, .n = 0, .alloc = 0 }

/* The members of the collection at url (PROPFIND, Depth 1), appended to
 * out in the server's order, the collection itself left out. Return 0, or
 * -1 after printing why (a missing collection: HTTP 404). */
int http_list(const struct http_options *o, const char *url, struct http_listing *out);
void http_listing_release(struct http_listing *l);

/* url with name appended as one more path segment, percent-encoded as
 * needed ("a b" -> "a%20b"), into out; a '/' at the end of url is not
 * doubled. */
void http_url_join(struct strbuf *out, const char *url, const char *name);

/* url as messages show it: without the user and password it may carry
 * ("http://u:p@h/x" -> "http://h/x"), into out. */
void http_url_redact(struct strbuf *out, const char *url);

/* Whether s names an HTTP(S) URL rather than a local directory. */
int http_is_url(const char *s);

#endif
