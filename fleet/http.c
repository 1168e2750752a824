/* http: PUT-then-MOVE uploads, GET downloads and PROPFIND listings over
 * libcurl, one easy handle a try; expects few, large transfers (bundles)
 * to WebDAV servers such as nginx with its dav modules. */
#include "config.h"
#include "fleet/http.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <curl/curl.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* The largest PROPFIND answer read: a listing of many thousand bundles. */
#define HTTP_MAX_LISTING (64 << 20)

/* One request and what came back. */
struct http_call {
	const char *method;		/* NULL: GET, or PUT with upload */
	const char *url;
	struct curl_slist *headers;	/* extra request headers (not owned) */
	FILE *upload;			/* PUT: the file sent */
	curl_off_t upload_bytes;
	const char *body;		/* a request body (PROPFIND) */
	int out_fd;			/* the response body goes here; -1: to response */
	struct strbuf response;		/* the response body, up to HTTP_MAX_LISTING */
	int too_big;			/* the response passed that limit */
	long status;			/* HTTP status of the last try; 0: none */
	int out_of_time;		/* the deadline ended the tries */
	CURLcode code;			/* libcurl's result of the last try */
	char errbuf[CURL_ERROR_SIZE];
};

static int curl_ready;

static double monotonic_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

void http_options_start(struct http_options *o, long total_s)
{
	o->total_s = total_s > 0 ? total_s : 0;
	o->deadline = total_s > 0 ? monotonic_s() + (double)total_s : 0;
}

static int http_init(void)
{
	if (curl_ready)
		return 0;
	if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK)
		return error("cannot initialise libcurl");
	atexit(curl_global_cleanup);
	curl_ready = 1;
	return 0;
}

int http_is_url(const char *s)
{
	return !strncasecmp(s, "http://", 7) || !strncasecmp(s, "https://", 8);
}

void http_url_redact(struct strbuf *out, const char *url)
{
	const char *scheme = strstr(url, "://"), *host, *end, *at = NULL;

	if (!scheme) {
		strbuf_addstr(out, url);
		return;
	}
	host = scheme + 3;
	end = host + strcspn(host, "/?#");
	for (const char *p = host; p < end; p++)
		if (*p == '@')
			at = p;
	if (!at) {
		strbuf_addstr(out, url);
		return;
	}
	strbuf_add(out, url, (size_t)(host - url));
	strbuf_addstr(out, at + 1);
}

void http_url_join(struct strbuf *out, const char *url, const char *name)
{
	static const char safe[] = "-._~";
	size_t len = strlen(url);

	strbuf_addstr(out, url);
	if (!len || url[len - 1] != '/')
		strbuf_addch(out, '/');
	for (const unsigned char *p = (const unsigned char *)name; *p; p++)
		if ((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		    (*p >= '0' && *p <= '9') || strchr(safe, *p))
			strbuf_addch(out, (char)*p);
		else
			strbuf_addf(out, "%%%02X", *p);
}

static size_t to_fd(char *data, size_t size, size_t n, void *arg)
{
	struct http_call *call = arg;

	if (write_full(call->out_fd, data, size * n))
		return 0;	/* libcurl stops with CURLE_WRITE_ERROR */
	return size * n;
}

static size_t to_response(char *data, size_t size, size_t n, void *arg)
{
	struct http_call *call = arg;

	if (call->response.len + size * n > HTTP_MAX_LISTING) {
		call->too_big = 1;
		return 0;
	}
	strbuf_add(&call->response, data, size * n);
	return size * n;
}

/* Credentials as the header of this file says. */
static void set_credentials(CURL *c)
{
	const char *user = getenv("KBENCH_UPLOAD_USER");
	const char *password = getenv("KBENCH_UPLOAD_PASSWORD");
	const char *netrc = getenv("NETRC");

	if (user && *user) {
		curl_easy_setopt(c, CURLOPT_USERNAME, user);
		curl_easy_setopt(c, CURLOPT_PASSWORD, password ? password : "");
	} else {
		curl_easy_setopt(c, CURLOPT_NETRC, (long)CURL_NETRC_OPTIONAL);
		if (netrc && *netrc)
			curl_easy_setopt(c, CURLOPT_NETRC_FILE, netrc);
	}
	/* Sent with the first request: a PUT's body is not read twice. */
	curl_easy_setopt(c, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
}

/* One try of call; call->code and call->status say how it went. */
static void try_once(const struct http_options *o, struct http_call *call)
{
	CURL *c = curl_easy_init();

	call->status = 0;
	call->errbuf[0] = '\0';
	call->too_big = 0;
	strbuf_reset(&call->response);
	if (!c) {
		call->code = CURLE_FAILED_INIT;
		return;
	}
	curl_easy_setopt(c, CURLOPT_URL, call->url);
	curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(c, CURLOPT_ERRORBUFFER, call->errbuf);
	curl_easy_setopt(c, CURLOPT_USERAGENT, "kbench/" PACKAGE_VERSION);
	{
		long timeout_ms = o->timeout_s * 1000;
		long connect_ms = o->connect_timeout_s * 1000;

		if (o->deadline) {
			long left_ms = (long)((o->deadline - monotonic_s()) * 1000) + 1;

			if (left_ms < timeout_ms)
				timeout_ms = left_ms;
		}
		if (connect_ms > timeout_ms)
			connect_ms = timeout_ms;
		curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, timeout_ms);
		curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
	}
	/* A server that accepts and then says nothing fails the try once it
	 * has moved less than a byte a second for stall_s. */
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_LIMIT, 1L);
	curl_easy_setopt(c, CURLOPT_LOW_SPEED_TIME, o->stall_s);
	if (o->cafile)
		curl_easy_setopt(c, CURLOPT_CAINFO, o->cafile);
	/* Never follow a redirect: the credentials would go with it. */
	curl_easy_setopt(c, CURLOPT_FOLLOWLOCATION, 0L);
	set_credentials(c);
	if (call->headers)
		curl_easy_setopt(c, CURLOPT_HTTPHEADER, call->headers);
	if (call->upload) {
		rewind(call->upload);
		curl_easy_setopt(c, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(c, CURLOPT_READDATA, call->upload);
		curl_easy_setopt(c, CURLOPT_INFILESIZE_LARGE, call->upload_bytes);
	}
	if (call->method)
		curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, call->method);
	if (call->body) {
		curl_easy_setopt(c, CURLOPT_POSTFIELDS, call->body);
		curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, (long)strlen(call->body));
	}
	if (call->out_fd >= 0) {
		if (ftruncate(call->out_fd, 0) || lseek(call->out_fd, 0, SEEK_SET) < 0) {
			call->code = CURLE_WRITE_ERROR;
			snprintf(call->errbuf, sizeof(call->errbuf), "%s", strerror(errno));
			curl_easy_cleanup(c);
			return;
		}
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, to_fd);
	} else {
		curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, to_response);
	}
	curl_easy_setopt(c, CURLOPT_WRITEDATA, call);
	call->code = curl_easy_perform(c);
	curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &call->status);
	curl_easy_cleanup(c);
}

/* Whether a failed try may succeed later. */
static int transient(const struct http_call *call)
{
	switch (call->code) {
	case CURLE_OK:
		return call->status == 408 || call->status == 429 ||
		       (call->status >= 500 && call->status != 501 && call->status != 505);
	case CURLE_COULDNT_RESOLVE_PROXY:
	case CURLE_COULDNT_RESOLVE_HOST:
	case CURLE_COULDNT_CONNECT:
	case CURLE_OPERATION_TIMEDOUT:
	case CURLE_SEND_ERROR:
	case CURLE_RECV_ERROR:
	case CURLE_GOT_NOTHING:
	case CURLE_PARTIAL_FILE:
	case CURLE_SSL_CONNECT_ERROR:
	case CURLE_HTTP2:
	case CURLE_HTTP2_STREAM:
		return 1;
	default:
		return 0;
	}
}

static int status_ok(long status, const long *ok)
{
	for (; *ok; ok++)
		if (status == *ok)
			return 1;
	return 0;
}

static void sleep_ms(long ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* Why call failed, for a message. */
static void describe_failure(const struct http_options *o, const struct http_call *call,
			     int tries, struct strbuf *why)
{
	if (call->out_of_time && !tries)
		strbuf_addf(why, "no time left of the %ld s allowed", o->total_s);
	else if (call->code == CURLE_OK)
		strbuf_addf(why, "the server answered HTTP %ld", call->status);
	else if (call->too_big)
		strbuf_addf(why, "the answer is larger than %d MiB", HTTP_MAX_LISTING >> 20);
	else
		strbuf_addstr(why, call->errbuf[0] ? call->errbuf : curl_easy_strerror(call->code));
	if (call->code == CURLE_PEER_FAILED_VERIFICATION && o->cafile)
		strbuf_addf(why, " (no CA of '%s' vouches for it)", o->cafile);
	else if (call->code == CURLE_PEER_FAILED_VERIFICATION)
		strbuf_addstr(why, " (a server with a certificate of a private CA needs that "
			      "CA's certificate: --cafile, or cafile in [fleet])");
	if (tries > 1)
		strbuf_addf(why, " (%d tries)", tries);
	if (call->out_of_time && tries)
		strbuf_addf(why, "; gave up: the %ld s allowed have run out", o->total_s);
}

/* Make call until it answers one of the statuses ok (0-terminated), a
 * failure that will not pass, or the tries run out. Return 0 on success;
 * else -1 with why filled (nothing printed). */
static int perform(const struct http_options *opts, struct http_call *call, const long *ok,
		   struct strbuf *why)
{
	struct http_options o = {
		.attempts = opts && opts->attempts > 0 ? opts->attempts : HTTP_ATTEMPTS,
		.backoff_ms = opts && opts->backoff_ms > 0 ? opts->backoff_ms : HTTP_BACKOFF_MS,
		.timeout_s = opts && opts->timeout_s > 0 ? opts->timeout_s : HTTP_TIMEOUT_S,
		.connect_timeout_s = opts && opts->connect_timeout_s > 0 ?
			opts->connect_timeout_s : HTTP_CONNECT_TIMEOUT_S,
		.stall_s = opts && opts->stall_s > 0 ? opts->stall_s : HTTP_STALL_S,
		.total_s = opts ? opts->total_s : 0,
		.deadline = opts ? opts->deadline : 0,
		.cafile = opts ? opts->cafile : NULL,
	};
	long pause_ms = o.backoff_ms;
	int tries = 0;

	if (http_init()) {
		strbuf_addstr(why, "libcurl cannot start");
		return -1;
	}
	call->out_of_time = 0;
	for (;;) {
		if (o.deadline && monotonic_s() >= o.deadline) {
			call->out_of_time = 1;
			break;
		}
		try_once(&o, call);
		tries++;
		if (call->code == CURLE_OK && status_ok(call->status, ok))
			return 0;
		if (tries >= o.attempts || !transient(call))
			break;
		if (o.deadline && monotonic_s() + pause_ms / 1000.0 >= o.deadline) {
			call->out_of_time = 1;
			break;
		}
		sleep_ms(pause_ms);
		pause_ms *= 2;
	}
	if (o.deadline && monotonic_s() >= o.deadline)
		call->out_of_time = 1;
	describe_failure(&o, call, tries, why);
	return -1;
}

static void call_release(struct http_call *call)
{
	strbuf_release(&call->response);
}

/* The URL of the collection holding url's last segment ("a/b/c" -> "a/b/"). */
static void parent_url(struct strbuf *out, const char *url)
{
	const char *slash = strrchr(url, '/');

	strbuf_add(out, url, slash ? (size_t)(slash - url) + 1 : strlen(url));
}

/* ".NAME.part-PID" beside url. */
static void temporary_url(struct strbuf *out, const char *url)
{
	const char *slash = strrchr(url, '/');

	parent_url(out, url);
	strbuf_addf(out, ".%s.part-%ld", slash ? slash + 1 : url, (long)getpid());
}

int http_put_file(const struct http_options *o, const char *url, const char *path)
{
	static const long put_ok[] = { 200, 201, 204, 0 };
	static const long mkcol_ok[] = { 201, 0 };
	static const long move_ok[] = { 201, 204, 0 };
	static const long delete_ok[] = { 200, 204, 404, 0 };
	struct strbuf tmp = STRBUF_INIT, shown = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf parent = STRBUF_INIT, dest = STRBUF_INIT, redacted = STRBUF_INIT;
	struct http_call put = { .out_fd = -1, .response = STRBUF_INIT };
	struct http_call other = { .out_fd = -1, .response = STRBUF_INIT };
	struct curl_slist *headers = NULL;
	struct http_options once = { .attempts = 1 };
	struct stat st;
	int rc = -1;

	if (o)
		once = *o;
	once.attempts = 1;
	http_url_redact(&shown, url);
	put.upload = fopen(path, "rb");
	if (!put.upload || fstat(fileno(put.upload), &st)) {
		error("cannot upload '%s': %s", path, strerror(errno));
		goto out;
	}
	temporary_url(&tmp, url);
	put.url = tmp.buf;
	put.upload_bytes = (curl_off_t)st.st_size;
	/* The collection to put it in, made first where the server does not
	 * make it on PUT: one try, whatever the answer (405: it exists, or
	 * MKCOL is not allowed; the PUT says what matters). */
	parent_url(&parent, url);
	other.method = "MKCOL";
	other.url = parent.buf;
	perform(&once, &other, mkcol_ok, &why);
	strbuf_reset(&why);
	if (perform(o, &put, put_ok, &why))
		goto fail;
	/* Destination names the target without credentials. */
	http_url_redact(&redacted, url);
	strbuf_addf(&dest, "Destination: %s", redacted.buf);
	headers = curl_slist_append(headers, dest.buf);
	headers = headers ? curl_slist_append(headers, "Overwrite: T") : NULL;
	if (!headers) {
		strbuf_addstr(&why, "out of memory");
		goto fail_move;
	}
	other.method = "MOVE";
	other.url = tmp.buf;
	other.headers = headers;
	if (perform(o, &other, move_ok, &why))
		goto fail_move;
	rc = 0;
	goto out;
fail_move:
	other.method = "DELETE";
	other.headers = NULL;
	{
		struct strbuf ignored = STRBUF_INIT;

		perform(o, &other, delete_ok, &ignored);
		strbuf_release(&ignored);
	}
fail:
	error("cannot upload '%s' to '%s': %s", path, shown.buf, why.buf);
out:
	if (put.upload)
		fclose(put.upload);
	curl_slist_free_all(headers);
	call_release(&put);
	call_release(&other);
	strbuf_release(&tmp);
	strbuf_release(&shown);
	strbuf_release(&why);
	strbuf_release(&parent);
	strbuf_release(&dest);
	strbuf_release(&redacted);
	return rc;
}

int http_get_file(const struct http_options *o, const char *url, const char *path)
{
	static const long get_ok[] = { 200, 0 };
	struct strbuf shown = STRBUF_INIT, why = STRBUF_INIT;
	struct http_call get = { .url = url, .out_fd = -1, .response = STRBUF_INIT };
	int rc = -1;

	http_url_redact(&shown, url);
	get.out_fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (get.out_fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		goto out;
	}
	if (perform(o, &get, get_ok, &why)) {
		error("cannot download '%s': %s", shown.buf, why.buf);
		goto out;
	}
	if (fsync(get.out_fd)) {
		error("cannot write '%s': %s", path, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	if (get.out_fd >= 0) {
		if (close(get.out_fd) && !rc)
			rc = error("cannot write '%s': %s", path, strerror(errno));
		if (rc)
			unlink(path);
	}
	call_release(&get);
	strbuf_release(&shown);
	strbuf_release(&why);
	return rc;
}

/* ---- PROPFIND listings ---- */

/* The members of a multistatus answer being read. */
struct multistatus {
	struct strbuf href, modified, length;
	struct strbuf *text;	/* the element whose text is being read, or NULL */
	int collection;
	int in_response;
};

/* Append XML text s[0..len) to out with its entities decoded. */
static void add_xml_text(struct strbuf *out, const char *s, size_t len)
{
	static const struct {
		const char *name;
		char c;
	} entities[] = {
		{ "amp;", '&' }, { "lt;", '<' }, { "gt;", '>' }, { "quot;", '"' }, { "apos;", '\'' },
	};
	const char *end = s + len;

	while (s < end) {
		size_t i, n = (size_t)(end - s);

		if (*s != '&') {
			strbuf_addch(out, *s++);
			continue;
		}
		for (i = 0; i < sizeof(entities) / sizeof(entities[0]); i++) {
			size_t l = strlen(entities[i].name);

			if (n > l && !memcmp(s + 1, entities[i].name, l)) {
				strbuf_addch(out, entities[i].c);
				s += 1 + l;
				break;
			}
		}
		if (i < sizeof(entities) / sizeof(entities[0]))
			continue;
		if (n > 2 && s[1] == '#') {
			char *stop;
			int hex = s[2] == 'x' || s[2] == 'X';
			unsigned long v = strtoul(s + 2 + hex, &stop, hex ? 16 : 10);

			if (stop < end && *stop == ';' && v > 0 && v < 0x80) {
				strbuf_addch(out, (char)v);
				s = stop + 1;
				continue;
			}
		}
		strbuf_addch(out, *s++);
	}
}

static int hex_value(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* Percent-decode s into out. */
static void add_unescaped(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		int hi = *s == '%' ? hex_value(s[1]) : -1;
		int lo = hi >= 0 ? hex_value(s[2]) : -1;

		if (lo >= 0) {
			strbuf_addch(out, (char)(hi * 16 + lo));
			s += 2;
		} else {
			strbuf_addch(out, *s);
		}
	}
}

/* The path of an href (an absolute URL or a path), decoded, without a '/'
 * at the end. */
static void href_path(struct strbuf *out, const char *href)
{
	const char *scheme = strstr(href, "://");

	if (scheme) {
		href = strchr(scheme + 3, '/');
		if (!href)
			href = "/";
	}
	add_unescaped(out, href);
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		out->buf[--out->len] = '\0';
}

static void add_entry(struct multistatus *ms, const char *self, struct http_listing *out)
{
	struct strbuf path = STRBUF_INIT;
	struct http_entry *e;
	const char *name;
	char *stop;

	href_path(&path, ms->href.buf);
	name = strrchr(path.buf, '/');
	name = name ? name + 1 : path.buf;
	if (!ms->href.len || !strcmp(path.buf, self) || !*name)
		goto out;
	ALLOC_GROW(out->v, out->n + 1, out->alloc);
	e = &out->v[out->n++];
	e->name = xstrdup(name);
	e->is_collection = ms->collection;
	e->size_bytes = -1;
	e->modified = -1;
	if (ms->length.len) {
		long long v = strtoll(ms->length.buf, &stop, 10);

		if (!*stop && v >= 0)
			e->size_bytes = v;
	}
	if (ms->modified.len) {
		time_t t = curl_getdate(ms->modified.buf, NULL);

		if (t >= 0)
			e->modified = (int64_t)t;
	}
out:
	strbuf_release(&path);
}

/* Read the responses of a PROPFIND answer: a tolerant reader of the few
 * elements needed, whatever their namespace prefix. */
static void parse_multistatus(const char *xml, const char *self, struct http_listing *out)
{
	struct multistatus ms = { .href = STRBUF_INIT, .modified = STRBUF_INIT,
				  .length = STRBUF_INIT, .text = NULL };
	const char *p = xml;

	while (*p) {
		const char *lt = strchr(p, '<'), *gt, *name, *end, *local;
		int closing, empty;
		size_t len;

		if (!lt)
			break;
		if (ms.text)
			add_xml_text(ms.text, p, (size_t)(lt - p));
		gt = strchr(lt, '>');
		if (!gt)
			break;
		p = gt + 1;
		if (lt[1] == '?' || lt[1] == '!')
			continue;
		closing = lt[1] == '/';
		empty = gt[-1] == '/';
		name = lt + 1 + closing;
		end = name + strcspn(name, " \t\r\n/>");
		local = name;
		for (const char *q = name; q < end; q++)
			if (*q == ':')
				local = q + 1;
		len = (size_t)(end - local);
#define IS(s) (len == sizeof(s) - 1 && !memcmp(local, s, len))
		if (IS("response")) {
			if (!closing) {
				strbuf_reset(&ms.href);
				strbuf_reset(&ms.modified);
				strbuf_reset(&ms.length);
				ms.collection = 0;
				ms.in_response = 1;
			} else if (ms.in_response) {
				add_entry(&ms, self, out);
				ms.in_response = 0;
			}
			ms.text = NULL;
		} else if (IS("collection") && !closing) {
			ms.collection = 1;
		} else if (IS("href") || IS("getlastmodified") || IS("getcontentlength")) {
			struct strbuf *field = IS("href") ? &ms.href :
				IS("getlastmodified") ? &ms.modified : &ms.length;

			ms.text = closing || empty || !ms.in_response ? NULL : field;
			if (ms.text)
				strbuf_reset(field);
		}
#undef IS
	}
	strbuf_release(&ms.href);
	strbuf_release(&ms.modified);
	strbuf_release(&ms.length);
}

int http_list(const struct http_options *o, const char *url, struct http_listing *out)
{
	static const long propfind_ok[] = { 207, 0 };
	static const char body[] =
		"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n"
		"<D:propfind xmlns:D=\"DAV:\"><D:prop><D:resourcetype/><D:getcontentlength/>"
		"<D:getlastmodified/></D:prop></D:propfind>\n";
	struct strbuf shown = STRBUF_INIT, why = STRBUF_INIT, self = STRBUF_INIT;
	struct http_call call = { .method = "PROPFIND", .url = url, .body = body, .out_fd = -1,
				  .response = STRBUF_INIT };
	struct curl_slist *headers = NULL;
	CURLU *u = NULL;
	char *path = NULL;
	int rc = -1;

	http_url_redact(&shown, url);
	headers = curl_slist_append(headers, "Depth: 1");
	headers = headers ? curl_slist_append(headers, "Content-Type: application/xml") : NULL;
	if (!headers || http_init()) {
		error("cannot list '%s': libcurl cannot start", shown.buf);
		goto out;
	}
	u = curl_url();
	if (!u || curl_url_set(u, CURLUPART_URL, url, 0) != CURLUE_OK ||
	    curl_url_get(u, CURLUPART_PATH, &path, 0) != CURLUE_OK) {
		error("cannot list '%s': not a valid URL", shown.buf);
		goto out;
	}
	href_path(&self, path);
	call.headers = headers;
	if (perform(o, &call, propfind_ok, &why)) {
		if (call.code == CURLE_OK && call.status == 404)
			error("cannot list '%s': no such collection (HTTP 404)", shown.buf);
		else if (call.code == CURLE_OK && call.status == 405)
			error("cannot list '%s': the server does not list it (PROPFIND answered "
			      "HTTP 405: is WebDAV listing enabled there?)", shown.buf);
		else
			error("cannot list '%s': %s", shown.buf, why.buf);
		goto out;
	}
	parse_multistatus(call.response.buf, self.buf, out);
	rc = 0;
out:
	curl_free(path);
	curl_url_cleanup(u);
	curl_slist_free_all(headers);
	call_release(&call);
	strbuf_release(&shown);
	strbuf_release(&why);
	strbuf_release(&self);
	return rc;
}

void http_listing_release(struct http_listing *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].name);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}
