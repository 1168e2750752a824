/* netperf: request/response (TCP_RR, UDP_RR) and stream (TCP_STREAM,
 * UDP_STREAM) tests over loopback, faithful to netperf's classic tests:
 * a server process and a client process, blocking sockets, the data
 * connection set up before a timed window ended by SIGALRM, one
 * transaction in flight. RR reports transactions per second; STREAM
 * reports 10^6 bit/s, from the bytes the receiver got over the sender's
 * timed window. */
#include "config.h"
#include "workloads/workload.h"
#include "lib/clock.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/worker.h"
#include "lib/xalloc.h"
#include "machine/pin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

enum np_test { TCP_RR, UDP_RR, TCP_STREAM, UDP_STREAM };
enum np_kind { NP_RR, NP_STREAM };
enum { NP_INET, NP_INET6 };		/* family */
enum { M_TRANS, M_STREAM, M_SEND, M_RECV };

#define NP_STREAM_SIZES "64 128 256 1024 2048 3312 4096 8192 16384"
#define NP_UDP_MAX 65507	/* largest UDP payload over IPv4 */

/* The tests, indexed by enum np_test: the one list of their names (the
 * choices of `test`, in its help and its messages), what each measures,
 * over which protocol, and the rows it runs when `sizes` is not given. */
static const struct np_test_info {
	const char *name;
	enum np_kind kind;
	int proto;		/* IPPROTO_TCP or IPPROTO_UDP */
	const char *sizes;	/* default rows, as config text */
} np_tests[] = {
	[TCP_RR] = { .name = "TCP_RR", .kind = NP_RR, .proto = IPPROTO_TCP, .sizes = "1" },
	[UDP_RR] = { .name = "UDP_RR", .kind = NP_RR, .proto = IPPROTO_UDP, .sizes = "1" },
	[TCP_STREAM] = { .name = "TCP_STREAM", .kind = NP_STREAM, .proto = IPPROTO_TCP,
			 .sizes = NP_STREAM_SIZES },
	[UDP_STREAM] = { .name = "UDP_STREAM", .kind = NP_STREAM, .proto = IPPROTO_UDP,
			 .sizes = NP_STREAM_SIZES },
	{ .name = NULL }
};

struct netperf_opts {
	int test;		/* enum np_test */
	struct wl_list sizes;	/* bytes */
	int size;		/* bytes; 0: not given */
	double duration_s;
	int family;		/* NP_INET or NP_INET6 */
	bool nodelay;
	int pin;		/* the policy's index; the plan is p->pin */
	double loss_timeout_s;
	int drop_every;		/* 0: none */
};

static const struct wl_metric np_metrics[] = {
	{ .name = "", .unit = "trans/s", .better = WL_HIGHER,
	  .help = "request/response transactions per second (RR)" },
	{ .name = "", .unit = "Mbit/s", .better = WL_HIGHER,
	  .help = "10^6 bit/s received (TCP_STREAM)" },
	{ .name = "send", .unit = "Mbit/s", .better = WL_HIGHER,
	  .help = "10^6 bit/s sent (UDP_STREAM)" },
	{ .name = "recv", .unit = "Mbit/s", .better = WL_HIGHER,
	  .help = "10^6 bit/s received (UDP_STREAM)" },
	{ .name = NULL }
};

static const struct wl_option np_options[] = {
	{ .name = "test", WL_ENUM_FIELD(struct netperf_opts, test), .def = "TCP_RR",
	  .help = "the netperf test",
	  .choice_names = &np_tests[0].name, .choice_stride = sizeof(np_tests[0]) },
	{ .name = "sizes", WL_LIST_FIELD(struct netperf_opts, sizes),
	  .help = "message sizes in bytes, one row each (RR: request and response size, "
		  "default 1; STREAM: send and receive size, default " NP_STREAM_SIZES ")",
	  .min = 1, .max = 64 << 20 },
	{ .name = "size", WL_INT_FIELD(struct netperf_opts, size),
	  .help = "one message size: the same as sizes = SIZE", .min = 1, .max = 64 << 20 },
	{ .name = "duration", WL_DOUBLE_FIELD(struct netperf_opts, duration_s), .def = "10",
	  .help = "seconds per sample (netperf -l)", .min = 0.01, .max = 86400 },
	{ .name = "family", WL_ENUM_FIELD(struct netperf_opts, family), .def = "inet",
	  .help = "inet: 127.0.0.1, inet6: ::1", .choices = "inet|inet6" },
	{ .name = "nodelay", WL_BOOL_FIELD(struct netperf_opts, nodelay), .def = "off",
	  .help = "set TCP_NODELAY on both ends (TCP tests only)" },
	{ .name = "pin", WL_ENUM_FIELD(struct netperf_opts, pin), .def = "unbound",
	  .help = "where the server and the client run", .choices = PIN_CHOICES_TWO,
	  .preference_list = 1 },
	{ .name = "loss_timeout", WL_DOUBLE_FIELD(struct netperf_opts, loss_timeout_s),
	  .def = "0.2", .help = "UDP_RR: seconds to wait for a response before counting it lost",
	  .min = 0.001, .max = 60 },
	{ .name = "drop_every", WL_INT_FIELD(struct netperf_opts, drop_every), .def = "0",
	  .help = "UDP_RR, for testing: the server ignores every Nth request (0: none)",
	  .min = 0, .max = 1000000000 },
	{ .name = NULL }
};

static const struct wl_flag np_flags[] = {
	{ .short_name = 't', .long_name = "test", .option = "test" },
	{ .short_name = 'l', .long_name = "duration", .option = "duration",
	  .help = "seconds (default 10)" },
	{ .short_name = 'r', .long_name = "size", .option = "sizes",
	  .help = "request/response or send size in bytes" },
	{ .short_name = '4', .long_name = "inet", .option = "family", .value = "inet",
	  .help = "over 127.0.0.1 (the default)" },
	{ .short_name = '6', .long_name = "inet6", .option = "family", .value = "inet6",
	  .help = "over ::1" },
	{ .short_name = 'D', .long_name = "nodelay", .option = "nodelay", .value = "on",
	  .help = "set TCP_NODELAY" },
	{ .long_name = "pin", .option = "pin",
	  .help = "where the server and the client run (policies below)" },
	{ .long_name = NULL }
};

/* One sample: the options, and what follows from them and the row. */
struct np_cfg {
	const struct netperf_opts *o;
	enum np_test test;
	int family;		/* AF_INET or AF_INET6 */
	size_t size;		/* bytes per send and per receive: the row */
	const struct pin_plan *pin;
};

/* What the server tells the client: a ready byte once it is bound and
 * connected, then this record when the test is over. */
struct np_report {
	int32_t failed;
	uint64_t bytes;		/* received */
	uint64_t msgs;		/* receive calls that returned data */
	char msg[200];
};

/* Set by SIGALRM (client) or SIGUSR1 (UDP receiver): the test is over.
 * Signal handlers can only reach file-scope state. */
static volatile sig_atomic_t np_stop;

static void np_on_signal(int sig)
{
	(void)sig;
	np_stop = 1;
}

static int is_udp(enum np_test t)
{
	return np_tests[t].proto == IPPROTO_UDP;
}

static void cfg_from(const struct wl_params *p, long long row, struct np_cfg *c)
{
	const struct netperf_opts *o = p->opts;

	*c = (struct np_cfg){
		.o = o,
		.test = (enum np_test)o->test,
		.family = o->family == NP_INET6 ? AF_INET6 : AF_INET,
		.size = (size_t)row,
		.pin = p->pin,
	};
}

/* The rows when `sizes` is not given: `size` as given, else netperf's
 * default for the test. */
static const char *np_row_default(const struct wl_params *p)
{
	const struct netperf_opts *o = p->opts;
	const char *size = wl_given(p, offsetof(struct netperf_opts, size));

	return size ? size : np_tests[o->test].sizes;
}

static int np_check(const struct wl_params *p, struct strbuf *err)
{
	const struct netperf_opts *o = p->opts;
	const struct np_test_info *t = &np_tests[o->test];

	if (wl_given(p, offsetof(struct netperf_opts, size)) &&
	    wl_given(p, offsetof(struct netperf_opts, sizes))) {
		strbuf_addstr(err, "give 'size' or 'sizes', not both");
		return -1;
	}
	for (size_t i = 0; t->proto == IPPROTO_UDP && i < o->sizes.n; i++) {
		if (o->sizes.v[i] > NP_UDP_MAX) {
			strbuf_addf(err, "size %lld is too large for %s: a UDP datagram "
				    "holds at most %d bytes", o->sizes.v[i], t->name, NP_UDP_MAX);
			return -1;
		}
	}
	if (o->drop_every && o->test != UDP_RR) {
		strbuf_addf(err, "'drop_every' applies to UDP_RR only, not %s", t->name);
		return -1;
	}
	return 0;
}

static socklen_t loopback(int family, uint16_t port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	if (family == AF_INET6) {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)ss;

		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		a->sin6_port = htons(port);
		return sizeof(*a);
	}
	struct sockaddr_in *a = (struct sockaddr_in *)ss;

	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	a->sin_port = htons(port);
	return sizeof(*a);
}

static const char *loopback_name(int family)
{
	return family == AF_INET6 ? "::1" : "127.0.0.1";
}

/* The server's socket, bound to an ephemeral loopback port (listening for
 * TCP); its address in ss. Return the fd, or -1 with err. */
static int server_socket(const struct np_cfg *c, struct sockaddr_storage *ss,
			 socklen_t *len, struct strbuf *err)
{
	int one = 1, fd;

	*len = loopback(c->family, 0, ss);
	fd = socket(c->family, is_udp(c->test) ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0) {
		strbuf_addf(err, "cannot create a socket: %s", strerror(errno));
		return -1;
	}
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)ss, *len) ||
	    getsockname(fd, (struct sockaddr *)ss, len) ||
	    (!is_udp(c->test) && listen(fd, 5))) {
		strbuf_addf(err, "cannot listen on %s: %s", loopback_name(c->family),
			    strerror(errno));
		close(fd);
		return -1;
	}
	return fd;
}

static int set_nodelay(const struct np_cfg *c, int fd)
{
	int one = 1;

	if (!c->o->nodelay || is_udp(c->test))
		return 0;
	return setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
}

static void set_timeout(int fd, double s)
{
	struct timeval tv = { .tv_sec = (time_t)s };

	tv.tv_usec = (suseconds_t)((s - (double)tv.tv_sec) * 1e6);
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
}

static int catch_signal(int sig, struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = np_on_signal;	/* no SA_RESTART: end blocked calls */
	sigemptyset(&sa.sa_mask);
	return sigaction(sig, &sa, old);
}

/* Server loops: run until the client is done, count what arrived. */
static int serve_tcp_rr(const struct np_cfg *c, int fd, char *buf, struct np_report *r)
{
	for (;;) {
		size_t got = 0;

		while (got < c->size) {
			ssize_t n = recv(fd, buf + got, c->size - got, 0);

			if (n == 0)
				return 0;
			if (n < 0) {
				if (errno == EINTR)
					continue;
				return -1;
			}
			got += (size_t)n;
		}
		r->bytes += got;
		r->msgs++;
		for (size_t sent = 0; sent < c->size;) {
			ssize_t n = send(fd, buf + sent, c->size - sent, 0);

			if (n < 0) {
				if (errno == EINTR)
					continue;
				/* The client may close mid-response at the end. */
				return (errno == EPIPE || errno == ECONNRESET) ? 0 : -1;
			}
			sent += (size_t)n;
		}
	}
}

static int serve_udp_rr(const struct np_cfg *c, int fd, char *buf, struct np_report *r)
{
	struct sockaddr_storage from;

	for (;;) {
		socklen_t len = sizeof(from);
		ssize_t n = recvfrom(fd, buf, c->size, 0, (struct sockaddr *)&from, &len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		r->msgs++;
		r->bytes += (uint64_t)n;
		if (c->o->drop_every && r->msgs % (uint64_t)c->o->drop_every == 0)
			continue;
		if (sendto(fd, buf, c->size, 0, (struct sockaddr *)&from, len) < 0 &&
		    errno != EINTR)
			return -1;
	}
}

static int serve_tcp_stream(const struct np_cfg *c, int fd, char *buf, struct np_report *r)
{
	for (;;) {
		ssize_t n = recv(fd, buf, c->size, 0);

		if (n == 0)
			return 0;
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		r->bytes += (uint64_t)n;
		r->msgs++;
	}
}

/* Receive until SIGUSR1, then take what is already queued. The receive
 * timeout only bounds the wait for a signal that landed just before a
 * blocking recv. */
static int serve_udp_stream(const struct np_cfg *c, int fd, char *buf, struct np_report *r)
{
	set_timeout(fd, 0.05);
	for (;;) {
		ssize_t n = recv(fd, buf, c->size, np_stop ? MSG_DONTWAIT : 0);

		if (n >= 0) {
			r->bytes += (uint64_t)n;
			r->msgs++;
			continue;
		}
		if (errno == EINTR)
			continue;
		if (errno != EAGAIN && errno != EWOULDBLOCK)
			return -1;
		if (np_stop)
			return 0;
	}
}

/* What the server process starts from. */
struct np_server {
	const struct np_cfg *c;
	int lfd;		/* listening (TCP) or bound (UDP) socket */
	int rep[2];		/* the report pipe; the server writes rep[1] */
};

/* The server process: bind to pin slot 0, take the connection, say ready
 * on the report pipe, serve, report. Return 0, or -1 after reporting
 * why. */
static int server_main(void *arg)
{
	const struct np_server *sv = arg;
	const struct np_cfg *c = sv->c;
	struct np_report r;
	struct strbuf err = STRBUF_INIT;
	char *buf = xmalloc(c->size);
	int lfd = sv->lfd, rep = sv->rep[1], fd = lfd, rc;

	memset(&r, 0, sizeof(r));
	close(sv->rep[0]);
	if (c->test == UDP_STREAM)
		catch_signal(SIGUSR1, NULL);
	if (pin_apply(c->pin, 0, &err))
		goto fail;
	if (!is_udp(c->test)) {
		fd = accept(lfd, NULL, NULL);
		if (fd < 0 || set_nodelay(c, fd)) {
			strbuf_addf(&err, "server: cannot accept the connection: %s",
				    strerror(errno));
			goto fail;
		}
		close(lfd);
	}
	write_full(rep, "R", 1);
	switch (c->test) {
	case TCP_RR: rc = serve_tcp_rr(c, fd, buf, &r); break;
	case UDP_RR: rc = serve_udp_rr(c, fd, buf, &r); break;
	case TCP_STREAM: rc = serve_tcp_stream(c, fd, buf, &r); break;
	default: rc = serve_udp_stream(c, fd, buf, &r); break;
	}
	if (rc) {
		strbuf_addf(&err, "server: receive failed: %s", strerror(errno));
		goto fail;
	}
	write_full(rep, &r, sizeof(r));
	rc = 0;
	goto out;
fail:
	r.failed = 1;
	snprintf(r.msg, sizeof(r.msg), "%s", err.buf);
	write_full(rep, "E", 1);
	write_full(rep, &r, sizeof(r));
	rc = -1;
out:
	free(buf);
	strbuf_release(&err);
	return rc;
}

static int read_report(int rep, struct np_report *r, struct strbuf *err)
{
	if (read_full(rep, r, sizeof(*r))) {
		strbuf_addstr(err, "the server ended without a report");
		return -1;
	}
	if (r->failed) {
		strbuf_addstr(err, r->msg);
		return -1;
	}
	return 0;
}

/* Client loops: run until SIGALRM sets np_stop; return the count of
 * completed transactions or sends, or -1 with errno. */
static long long client_tcp_rr(const struct np_cfg *c, int fd, char *buf)
{
	long long trans = 0;

	while (!np_stop) {
		size_t got = 0;

		if (send(fd, buf, c->size, 0) != (ssize_t)c->size) {
			if (errno == EINTR && np_stop)
				break;
			return -1;
		}
		while (got < c->size) {
			ssize_t n = recv(fd, buf + got, c->size - got, 0);

			if (n > 0) {
				got += (size_t)n;
			} else if (n < 0 && errno == EINTR) {
				if (np_stop)
					return trans;
			} else {
				if (n == 0)
					errno = ECONNRESET;
				return -1;
			}
		}
		trans++;
	}
	return trans;
}

/* Drop any response that arrived after its wait gave up, so the next
 * transaction is answered by its own response. */
static void drain(int fd, char *buf, size_t size)
{
	while (recv(fd, buf, size, MSG_DONTWAIT) >= 0)
		;
}

static long long client_udp_rr(const struct np_cfg *c, int fd, char *buf,
			       long long *lost)
{
	long long trans = 0;

	while (!np_stop) {
		ssize_t n;

		if (send(fd, buf, c->size, 0) < 0) {
			if (errno == EINTR)
				break;
			return -1;
		}
		do
			n = recv(fd, buf, c->size, 0);
		while (n < 0 && errno == EINTR && !np_stop);
		if (n >= 0) {
			trans++;
		} else if (errno == EAGAIN || errno == EWOULDBLOCK) {
			(*lost)++;
			drain(fd, buf, c->size);
		} else if (errno != EINTR) {
			return -1;
		}
	}
	return trans;
}

static long long client_tcp_stream(const struct np_cfg *c, int fd, char *buf)
{
	long long sends = 0;

	while (!np_stop) {
		if (send(fd, buf, c->size, 0) < 0) {
			if (errno == EINTR)
				break;
			return -1;
		}
		sends++;
	}
	return sends;
}

static long long client_udp_stream(const struct np_cfg *c, int fd, char *buf,
				   long long *errors)
{
	long long sends = 0;

	while (!np_stop) {
		if (send(fd, buf, c->size, 0) < 0) {
			if (errno == EINTR)
				break;
			if (errno != ENOBUFS && errno != EAGAIN)
				return -1;
			(*errors)++;	/* netperf counts these and goes on */
			continue;
		}
		sends++;
	}
	return sends;
}

static void record(const struct np_cfg *c, long long count, long long other,
		   double elapsed, const struct np_report *r, struct wl_sample *out)
{
	double mbit = 8.0 / elapsed / 1e6;

	switch (c->test) {
	case TCP_RR:
		wl_sample_add(out, M_TRANS, (double)count / elapsed, "%zu", c->size);
		break;
	case UDP_RR:
		wl_sample_add(out, M_TRANS, (double)count / elapsed, "%zu", c->size);
		wl_sample_extra(out, "lost", (double)other);
		if (other)
			wl_sample_flag(out, "UDP_RR lost %lld of %lld datagrams",
				       other, count + other);
		break;
	case TCP_STREAM:
		wl_sample_add(out, M_STREAM, (double)r->bytes * mbit, "%zu", c->size);
		break;
	case UDP_STREAM: {
		char key[WL_ROW_LEN];
		long long lost = count - (long long)r->msgs;

		wl_sample_add(out, M_SEND, (double)count * (double)c->size * mbit,
			      "send-%zu", c->size);
		wl_sample_add(out, M_RECV, (double)r->bytes * mbit, "recv-%zu", c->size);
		snprintf(key, sizeof(key), "lost-%zu", c->size);
		wl_sample_extra(out, key, (double)(lost > 0 ? lost : 0));
		snprintf(key, sizeof(key), "send-errors-%zu", c->size);
		wl_sample_extra(out, key, (double)other);
		break;
	}
	}
}

static int np_run_one(const struct wl_params *p, long long row,
		      struct wl_sample *out, struct strbuf *err)
{
	struct np_cfg c;
	struct sockaddr_storage ss;
	struct sigaction old_alrm;
	struct itimerval it;
	struct np_report r;
	struct np_server sv;
	struct worker server = { .running = 0 };
	socklen_t len;
	int lfd = -1, fd = -1, rep[2] = { -1, -1 }, alarm_set = 0, rc = -1;
	long long count, other = 0;
	int64_t t0;
	double elapsed;
	char *buf, ready = 0;

	cfg_from(p, row, &c);
	memset(&r, 0, sizeof(r));
	buf = xcalloc(1, c.size);
	lfd = server_socket(&c, &ss, &len, err);
	if (lfd < 0)
		goto out;
	if (pipe(rep)) {
		strbuf_addf(err, "cannot create a pipe: %s", strerror(errno));
		goto out;
	}
	/* A client gone from a TCP connection must not kill us mid-report. */
	signal(SIGPIPE, SIG_IGN);
	np_stop = 0;
	sv = (struct np_server){ .c = &c, .lfd = lfd, .rep = { rep[0], rep[1] } };
	if (worker_start(&server, server_main, &sv)) {
		strbuf_addf(err, "cannot fork the server: %s", strerror(errno));
		goto out;
	}
	/* The server holds its own copy of the listening or UDP socket. */
	close(rep[1]);
	rep[1] = -1;
	close(lfd);
	lfd = -1;
	if (pin_apply(c.pin, 1, err))
		goto out;
	fd = socket(c.family, is_udp(c.test) ? SOCK_DGRAM : SOCK_STREAM, 0);
	if (fd < 0 || set_nodelay(&c, fd) ||
	    connect(fd, (struct sockaddr *)&ss, len)) {
		strbuf_addf(err, "cannot connect to the server on %s: %s",
			    loopback_name(c.family), strerror(errno));
		goto out;
	}
	if (c.test == UDP_RR)
		set_timeout(fd, c.o->loss_timeout_s);
	if (read(rep[0], &ready, 1) != 1 || ready != 'R') {
		if (!read_report(rep[0], &r, err))
			strbuf_addstr(err, "the server did not start");
		goto out;
	}

	if (catch_signal(SIGALRM, &old_alrm)) {
		strbuf_addf(err, "cannot catch SIGALRM: %s", strerror(errno));
		goto out;
	}
	alarm_set = 1;
	memset(&it, 0, sizeof(it));
	it.it_value.tv_sec = (time_t)c.o->duration_s;
	it.it_value.tv_usec = (suseconds_t)((c.o->duration_s - (double)it.it_value.tv_sec) * 1e6);
	t0 = clock_ns(CLOCK_MONOTONIC);
	setitimer(ITIMER_REAL, &it, NULL);
	switch (c.test) {
	case TCP_RR: count = client_tcp_rr(&c, fd, buf); break;
	case UDP_RR: count = client_udp_rr(&c, fd, buf, &other); break;
	case TCP_STREAM: count = client_tcp_stream(&c, fd, buf); break;
	default: count = client_udp_stream(&c, fd, buf, &other); break;
	}
	elapsed = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	if (count < 0) {
		strbuf_addf(err, "%s on %s failed: %s", np_tests[c.test].name,
			    loopback_name(c.family), strerror(errno));
		goto out;
	}

	/* End the server: EOF for TCP, a signal for the UDP receiver, and
	 * the UDP_RR server has nothing to report. */
	if (c.test == UDP_RR) {
		worker_kill(&server);
	} else {
		if (c.test == UDP_STREAM)
			kill(server.pid, SIGUSR1);
		else
			shutdown(fd, SHUT_WR);
		if (read_report(rep[0], &r, err))
			goto out;
	}
	record(&c, count, other, elapsed, &r, out);
	rc = 0;
out:
	if (alarm_set) {
		memset(&it, 0, sizeof(it));
		setitimer(ITIMER_REAL, &it, NULL);
		sigaction(SIGALRM, &old_alrm, NULL);
	}
	if (fd >= 0)
		close(fd);
	if (lfd >= 0)
		close(lfd);
	if (rc)
		worker_kill(&server);
	else
		worker_wait(&server);
	if (rep[0] >= 0)
		close(rep[0]);
	if (rep[1] >= 0)
		close(rep[1]);
	free(buf);
	return rc;
}

/* A sample runs for its whole duration, whatever the row. */
static double np_min_sample_s(const struct wl_params *p, long long row, struct strbuf *why)
{
	const struct netperf_opts *o = p->opts;

	strbuf_addf(why, "duration = %g", o->duration_s);
	return o->duration_s;
}

static void np_format(const struct wl_params *p, long long row,
		      const struct wl_sample *s, struct strbuf *out)
{
	struct strbuf pin = STRBUF_INIT;
	struct np_cfg c;

	cfg_from(p, row, &c);
	pin_plan_describe(c.pin, &pin);
	strbuf_addf(out, "%s %s, %lld-byte %s, %.2f s, %s:", np_tests[c.test].name,
		    loopback_name(c.family), row,
		    np_tests[c.test].kind == NP_RR ? "request/response" :
		    is_udp(c.test) ? "datagrams" : "sends",
		    c.o->duration_s, pin.buf);
	for (int i = 0; i < s->nresults; i++) {
		const struct wl_result *res = &s->results[i];

		strbuf_addf(out, "%s %s%.2f %s", i ? "," : "",
			    res->metric == M_SEND ? "send " : res->metric == M_RECV ? "recv " : "",
			    res->value, np_metrics[res->metric].unit);
	}
	for (int i = 0; i < s->nextras; i++)
		if (s->extras[i].value > 0 && strncmp(s->extras[i].key, "send-errors", 11))
			strbuf_addf(out, ", %.0f datagram%s lost", s->extras[i].value,
				    s->extras[i].value == 1 ? "" : "s");
	strbuf_addch(out, '\n');
	strbuf_release(&pin);
}

const struct workload_ops netperf_ops = {
	.name = "netperf",
	.summary = "loopback TCP/UDP request/response and stream tests (netperf)",
	.options = np_options,
	.opts_size = sizeof(struct netperf_opts),
	.metrics = np_metrics,
	.row_option = "sizes",
	.row_default = np_row_default,
	.flags = np_flags,
	.check = np_check,
	.run_one = np_run_one,
	.format_direct = np_format,
	.min_sample_s = np_min_sample_s,
};
