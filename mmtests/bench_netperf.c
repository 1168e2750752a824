/* bench_netperf: mmtests' netperf-* directories (TCP_RR, UDP_RR,
 * TCP_STREAM, UDP_STREAM), read as kbench's netperf workload stores its
 * samples, in the units netperf printed converted to kbench's; and its
 * samples written back as netperf prints them. */
#include "config.h"
#include "mmtests/mmtests_bench.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/name.h"

#include <stdio.h>
#include <string.h>

/* The bits one unit of netperf's -f letter u stands for (its netlib.c:
 * k, m and g are powers of 1000 bits, K, M and G of 1024 bytes); 0 for
 * x (transactions) and any other letter. */
static double netperf_bits(char u)
{
	switch (u) {
	case 'b': return 1;
	case 'k': return 1e3;
	case 'm': return 1e6;
	case 'g': return 1e9;
	case 'B': return 8;
	case 'K': return 8.0 * 1024;
	case 'M': return 8.0 * 1024 * 1024;
	case 'G': return 8.0 * 1024 * 1024 * 1024;
	default: return 0;
	}
}

/* How netperf's header writes the unit of -f letter u. */
static const char *netperf_unit_name(char u)
{
	switch (u) {
	case 'x': return "per sec";
	case 'b': return "10^0bits/sec";
	case 'k': return "10^3bits/sec";
	case 'm': return "10^6bits/sec";
	case 'g': return "10^9bits/sec";
	case 'B': return "Bytes/sec";
	case 'K': return "KBytes/sec";
	case 'M': return "MBytes/sec";
	default: return "GBytes/sec";
	}
}

/* netperf: logs/protocols names the test; logs/PROTO-SIZE.N is one
 * invocation's output. RR rows are the size (always 1: mmtests passes no
 * -r), in transactions per second; STREAM rows the size, UDP_STREAM's
 * send-SIZE and recv-SIZE, in 10^6 bit/s. The unit netperf printed is
 * what a units-PROTO file says (mmtests' -f since 2024: k for RR, m for
 * STREAM), else what each log's header says (older mmtests passed -f m
 * to every test: RR in 10^6 bit/s too); figures in bits are converted,
 * an RR transaction of 1-byte request and response being 16 bits. A log
 * whose header names no unit, where no units file does, is refused: its
 * figure could be either. */
static int import_netperf(struct mm_ctx *c, struct mm_run *r, const char *bench,
			  const char *logs)
{
	static const struct {
		const char *proto, *section, *unit;
		enum mmtests_log kind;
	} protos[] = {
		{ "TCP_RR", "netperf-tcp-rr", "trans/s", MMTESTS_LOG_NETPERF },
		{ "UDP_RR", "netperf-udp-rr", "trans/s", MMTESTS_LOG_NETPERF },
		{ "TCP_STREAM", "netperf-tcp-stream", "Mbit/s", MMTESTS_LOG_NETPERF },
		{ "UDP_STREAM", "netperf-udp-stream", "Mbit/s", MMTESTS_LOG_UDP_STREAM },
	};
	static const struct mm_metric udp[] = { { "send", "Mbit/s", 1 }, { "recv", "Mbit/s", 1 } };
	struct strbuf path = STRBUF_INIT, label = STRBUF_INIT, proto = STRBUF_INIT;
	struct strbuf units = STRBUF_INIT;
	struct mm_names files = { 0 };
	struct mm_metric m = { "", NULL, 1 };
	char file_unit = 0;	/* the units file's letter; 0: no such file */
	const char *section;
	size_t p;
	int rc, rr;

	strbuf_addf(&path, "%s/protocols", logs);
	rc = mmtests_read_file(path.buf, &proto);
	if (rc) {
		if (rc > 0)
			mmtests_skip(r, bench, "no logs/protocols file names the netperf test");
		rc = rc < 0 ? -1 : 0;
		goto out;
	}
	strbuf_rtrim(&proto);
	if (strchr(proto.buf, '\n'))
		proto.buf[strcspn(proto.buf, "\n")] = '\0';
	for (p = 0; p < sizeof(protos) / sizeof(protos[0]) && strcmp(protos[p].proto, proto.buf);
	     p++)
		;
	if (p == sizeof(protos) / sizeof(protos[0])) {
		strbuf_reset(&label);
		strbuf_addf(&label, "netperf test '%s': kbench's netperf runs TCP_RR, UDP_RR, "
			    "TCP_STREAM and UDP_STREAM", name_printable(proto.buf));
		mmtests_skip(r, bench, label.buf);
		goto out;
	}
	/* mmtests' IPv6 runs keep their name: they are another section. */
	section = strstr(bench, "ipv6") ? bench : protos[p].section;
	m.unit = protos[p].unit;
	rr = !strcmp(m.unit, "trans/s");
	strbuf_addf(&units, "%s/units-%s", logs, protos[p].proto);
	rc = mmtests_read_file(units.buf, &label);
	if (rc < 0)
		goto out;
	if (!rc) {
		const char *t;

		strbuf_rtrim(&label);
		t = label.buf + strspn(label.buf, " \t");
		file_unit = *t;
		if (!*t || t[1] || !strchr(rr ? "kmgx" : "kmg", *t)) {
			rc = error("%s:1: expected netperf's units (k, m or g%s), found '%s'",
				   units.buf, rr ? ", or x" : "", name_printable(label.buf));
			goto out;
		}
	}
	rc = mmtests_list_dir(logs, &files);
	for (size_t i = 0; !rc && i < files.n; i++) {
		static const char *const dot[] = { "*.", NULL };
		const char *rest = NULL;
		long long size;
		char prefix[32], u;
		double bits, scale;

		snprintf(prefix, sizeof(prefix), "%s-", protos[p].proto);
		size = mmtests_name_number(files.v[i], prefix, dot, &rest);
		if (!size || !*rest || strspn(rest, "0123456789") != strlen(rest))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", logs, files.v[i]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%lld", size);
		rc = mmtests_parse_file(c, path.buf, protos[p].kind);
		if (rc)
			break;
		if (!c->vals.n) {
			warning("%s: no result line: a netperf that failed, no sample", path.buf);
			continue;
		}
		u = c->vals.unit;
		if (file_unit && u && u != file_unit) {
			rc = error("%s:%zu: netperf's header gives the result in %s, but %s says "
				   "'%c'", path.buf, c->vals.unit_line, netperf_unit_name(u),
				   units.buf, file_unit);
			break;
		}
		if (!file_unit && !u) {
			rc = error("%s:%zu: expected netperf's header naming the result's unit "
				   "('per sec', '10^6bits/sec' and the like) before it, found none "
				   "(and no %s says it)", path.buf, c->vals.result_line,
				   strrchr(units.buf, '/') + 1);
			break;
		}
		if (file_unit)
			u = file_unit;
		bits = netperf_bits(u);
		if (u == 'x' ? !rr : !bits) {
			rc = error("%s:%zu: expected a %s in netperf's header, found '%s'", path.buf,
				   c->vals.unit_line, rr ? "rate in transactions or bits per second" :
				   "rate in bits or bytes per second", netperf_unit_name(u));
			break;
		}
		scale = u == 'x' ? 1 : rr ? bits / 16 : bits / 1e6;
		for (size_t k = 0; k < c->vals.n; k++)
			c->vals.v[k] *= scale;
		rc = mmtests_add_set(r, path.buf, section, "netperf", label.buf,
			     protos[p].kind == MMTESTS_LOG_UDP_STREAM ? udp : &m, c->vals.v,
			     c->vals.per);
	}
	if (!rc)
		rc = mmtests_note_bench(r, logs, section, bench);
out:
	mmtests_names_release(&files);
	strbuf_release(&path);
	strbuf_release(&label);
	strbuf_release(&proto);
	strbuf_release(&units);
	return rc < 0 ? -1 : 0;
}

static int exports_netperf(const struct ex_sample *s)
{
	return !strcmp(s->workload, "netperf");
}

/* netperf: the test from the rows and unit; one output file per sample.
 * The benchmark is named as mmtests names it for that test (netperf-tcp
 * for TCP_STREAM), unless the run has that name already. */
static int export_netperf(const char *root, struct ex_run *r, const char *section,
			  const char **bench)
{
	static const struct {
		const char *proto, *bench;
	} names[] = {
		{ "TCP_RR", "netperf-tcp-rr" }, { "UDP_RR", "netperf-udp-rr" },
		{ "TCP_STREAM", "netperf-tcp" }, { "UDP_STREAM", "netperf-udp" },
	};
	struct strbuf w = STRBUF_INIT;
	const char *proto = NULL;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int rc = 0;

	for (size_t i = 0; i < r->n && !proto; i++) {
		if (strcmp(r->v[i].section, section))
			continue;
		if (mmtests_row_number(r->v[i].row, "send-") || mmtests_row_number(r->v[i].row, "recv-"))
			proto = "UDP_STREAM";
	}
	for (size_t i = 0; i < r->n && !proto; i++)
		if (!strcmp(r->v[i].section, section))
			proto = strcmp(r->v[i].unit, "trans/s") ? "TCP_STREAM" :
				strstr(section, "udp") ? "UDP_RR" : "TCP_RR";
	*bench = section;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		strbuf_reset(&w);
		strbuf_addf(&w, " %s ", names[i].bench);
		if (!strcmp(names[i].proto, proto) && !strstr(r->mmtests.buf, w.buf))
			*bench = names[i].bench;
	}
	strbuf_release(&w);
	mmtests_logs_dir(&path, root, r, 0, *bench);
	strbuf_addstr(&path, "/protocols");
	strbuf_addf(&text, "%s\n", proto);
	rc = mmtests_write_new(path.buf, &text);
	for (size_t i = 0; !rc && i < r->n; i++) {
		const struct ex_sample *s = &r->v[i];
		long long size = mmtests_row_number(s->row, "");
		int udp = !strcmp(proto, "UDP_STREAM");

		if (strcmp(s->section, section))
			continue;
		if (udp)
			size = mmtests_row_number(s->row, "send-");
		if (!size)
			continue;
		mmtests_logs_dir(&path, root, r, 0, *bench);
		strbuf_addf(&path, "/%s-%lld.%d", proto, size, mmtests_ordinal(r, i));
		strbuf_reset(&text);
		if (!strcmp(proto, "UDP_STREAM")) {
			struct strbuf recv_row = STRBUF_INIT;
			const struct ex_sample *recv = NULL;

			strbuf_addf(&recv_row, "recv-%lld", size);
			for (size_t j = 0; j < r->n && !recv; j++)
				if (!strcmp(r->v[j].section, section) &&
				    !strcmp(r->v[j].row, recv_row.buf) &&
				    r->v[j].iteration == s->iteration)
					recv = &r->v[j];
			strbuf_release(&recv_row);
			strbuf_addf(&text, "MIGRATED UDP STREAM TEST to 127.0.0.1 () port 0 AF_INET\n"
				    "Socket  Message  Elapsed      Messages\n"
				    "Size    Size     Time         Okay Errors   Throughput\n"
				    "bytes   bytes    secs            #      #   10^6bits/sec\n\n"
				    "0       %lld       %.2f         0      0      ", size,
				    s->duration_s);
			mmtests_add_exact(s->value, &text);
			strbuf_addf(&text, "\n0                %.2f         0             ",
				    s->duration_s);
			mmtests_add_exact(recv ? recv->value : 0, &text);
			strbuf_addch(&text, '\n');
		} else if (!strcmp(proto, "TCP_STREAM")) {
			strbuf_addf(&text, "MIGRATED TCP STREAM TEST to 127.0.0.1 () port 0 AF_INET\n"
				    "Recv   Send    Send\n"
				    "Socket Socket  Message  Elapsed\n"
				    "Size   Size    Size     Time     Throughput\n"
				    "bytes  bytes   bytes    secs.    10^6bits/sec\n\n"
				    "0      0       %lld    %.2f    ", size, s->duration_s);
			mmtests_add_exact(s->value, &text);
			strbuf_addch(&text, '\n');
		} else {
			strbuf_addf(&text, "MIGRATED %s REQUEST/RESPONSE TEST to 127.0.0.1 () port 0 "
				    "AF_INET\nLocal /Remote\n"
				    "Socket Size   Request  Resp.   Elapsed  Trans.\n"
				    "Send   Recv   Size     Size    Time     Rate\n"
				    "bytes  Bytes  bytes    bytes   secs.    per sec\n\n"
				    "0      0      %lld        %lld       %.2f    ",
				    proto[0] == 'U' ? "UDP" : "TCP", size, size, s->duration_s);
			mmtests_add_exact(s->value, &text);
			strbuf_addch(&text, '\n');
		}
		rc = mmtests_write_new(path.buf, &text);
	}
	strbuf_release(&path);
	strbuf_release(&text);
	return rc;
}

const struct mmtests_bench mmtests_netperf = {
	.name = "netperf-*",
	.import = import_netperf,
	.exports = exports_netperf,
	.export = export_netperf,
};
