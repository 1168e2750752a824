/* guest: the frames of the serial link, and kbench-sample as a guest's
 * init: no shell, no disk; it mounts /proc, /sys, /dev and /tmp, brings
 * up the loopback device (netperf's loopback tests), says what the guest
 * is, then runs each job kbench sends, one at a time, in a forked child
 * with the job's timeout, and sends back what it measured at once. */
#include "config.h"
#include "sampler/guest.h"
#include "sampler/sample.h"
#include "lib/clock.h"
#include "lib/io.h"
#include "lib/strbuf.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define WIRE_HEADER 7		/* "KB", type, length */

static uint32_t fnv1a(const unsigned char *p, size_t n, uint32_t h)
{
	for (size_t i = 0; i < n; i++)
		h = (h ^ p[i]) * 16777619u;
	return h;
}

static void put32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

static uint32_t get32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

void wire_frame(struct strbuf *out, int type, const void *payload, size_t len)
{
	unsigned char h[WIRE_HEADER], sum[4];
	uint32_t c;

	h[0] = 'K';
	h[1] = 'B';
	h[2] = (unsigned char)type;
	put32(h + 3, (uint32_t)len);
	c = fnv1a(h + 2, 5, 2166136261u);
	c = fnv1a(payload, len, c);
	put32(sum, c);
	strbuf_add(out, h, sizeof(h));
	strbuf_add(out, payload, len);
	strbuf_add(out, sum, sizeof(sum));
}

static void drop_front(struct strbuf *in, size_t n)
{
	memmove(in->buf, in->buf + n, in->len - n);
	in->len -= n;
	in->buf[in->len] = '\0';
}

int wire_take(struct strbuf *in, int *type, struct strbuf *payload, size_t *dropped)
{
	for (;;) {
		const unsigned char *b = (const unsigned char *)in->buf;
		char *k = in->len ? memchr(in->buf, 'K', in->len) : NULL;
		size_t len;

		if (!k) {
			*dropped += in->len;
			strbuf_reset(in);
			return 0;
		}
		if (k != in->buf) {
			*dropped += (size_t)(k - in->buf);
			drop_front(in, (size_t)(k - in->buf));
			continue;
		}
		if (in->len < 2)
			return 0;
		if (b[1] != 'B') {
			(*dropped)++;
			drop_front(in, 1);
			continue;
		}
		if (in->len < WIRE_HEADER)
			return 0;
		len = get32(b + 3);
		if (len > WIRE_MAX_PAYLOAD) {
			(*dropped)++;
			drop_front(in, 1);
			continue;
		}
		if (in->len < WIRE_HEADER + len + 4)
			return 0;
		if (fnv1a(b + WIRE_HEADER, len, fnv1a(b + 2, 5, 2166136261u)) !=
		    get32(b + WIRE_HEADER + len)) {
			(*dropped)++;
			drop_front(in, 1);
			continue;
		}
		*type = b[2];
		strbuf_reset(payload);
		strbuf_add(payload, b + WIRE_HEADER, len);
		drop_front(in, WIRE_HEADER + len + 4);
		return 1;
	}
}

/* ---- the guest's init ---- */

static int port = -1;		/* ttyS1, raw */

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("kbench-guest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static void send_frame(int type, const struct strbuf *payload)
{
	struct strbuf f = STRBUF_INIT;

	wire_frame(&f, type, payload->buf, payload->len);
	if (write_full(port, f.buf, f.len))
		say("cannot write to the host: %s", strerror(errno));
	strbuf_release(&f);
}

static void record(struct strbuf *sb, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void record(struct strbuf *sb, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	strbuf_vaddf(sb, fmt, ap);
	va_end(ap);
	strbuf_addch(sb, '\0');
}

static void power_off(void)
{
	sync();
	reboot(RB_POWER_OFF);
	/* The host kills QEMU when the guest goes quiet. */
	for (;;)
		pause();
}

/* The first line of path holding key, the text after its ':'. */
static void file_field(const char *path, const char *key, char *out, size_t len)
{
	char line[512];
	FILE *f = fopen(path, "r");

	*out = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (strncmp(line, key, strlen(key)) || !colon)
			continue;
		colon++;
		colon += strspn(colon, " \t");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(out, len, "%s", colon);
		break;
	}
	if (f)
		fclose(f);
}

/* What loading the modules of GUEST_MODULES_LIST gave: "module=NAME" or
 * "module_error=NAME: why" records, for the hello. */
static struct strbuf module_records = STRBUF_INIT;

/* finit_module(2)'s flag for a compressed file, which the kernel
 * decompresses itself (Linux 6.4, CONFIG_MODULE_DECOMPRESS). */
#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

/* Load the modules the host packed, in the order it listed them. */
static void load_modules(void)
{
	struct strbuf list = STRBUF_INIT;

	if (strbuf_read_file(&list, "/" GUEST_MODULES_LIST) < 0)
		return;
	for (char *s = list.buf, *path; (path = strsep(&s, "\n"));) {
		const char *base = strrchr(path, '/'), *name;
		size_t len;
		int fd, flags;

		if (!*path)
			continue;
		/* "NN-NAME.ko[.xz]" */
		name = base ? base + 1 : path;
		name += strcspn(name, "-") + 1;
		len = strcspn(name, ".");
		flags = strstr(name, ".ko.") ? MODULE_INIT_COMPRESSED_FILE : 0;
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd >= 0 && (!syscall(SYS_finit_module, fd, "", flags) || errno == EEXIST))
			record(&module_records, "module=%.*s", (int)len, name);
		else
			record(&module_records, "module_error=%.*s: %s", (int)len, name,
			       strerror(errno));
		if (fd >= 0)
			close(fd);
	}
	strbuf_release(&list);
}

static void send_hello(void)
{
	struct strbuf sb = STRBUF_INIT, text = STRBUF_INIT;
	struct utsname u;
	char buf[512];
	DIR *d;
	int nodes = 0;

	uname(&u);
	record(&sb, "release=%s", u.release);
	record(&sb, "version=%s", u.version);
	if (strbuf_read_file(&text, "/proc/cmdline") >= 0) {
		strbuf_rtrim(&text);
		record(&sb, "cmdline=%s", text.buf);
	}
	file_field("/proc/cpuinfo", "model name", buf, sizeof(buf));
	record(&sb, "cpu_model=%s", buf);
	record(&sb, "cpus=%ld", sysconf(_SC_NPROCESSORS_ONLN));
	if ((d = opendir("/sys/devices/system/node"))) {
		struct dirent *e;

		while ((e = readdir(d)))
			nodes += !strncmp(e->d_name, "node", 4) && e->d_name[4] >= '0' &&
				 e->d_name[4] <= '9';
		closedir(d);
	}
	record(&sb, "numa_nodes=%d", nodes ? nodes : 1);
	file_field("/proc/meminfo", "MemTotal", buf, sizeof(buf));
	record(&sb, "mem_bytes=%llu", strtoull(buf, NULL, 10) * 1024);
	strbuf_add(&sb, module_records.buf, module_records.len);
	send_frame(WIRE_HELLO, &sb);
	strbuf_release(&sb);
	strbuf_release(&text);
}

static void setup(void)
{
	struct ifreq ifr;
	struct termios t;
	int s;

	mkdir("/proc", 0555);
	mkdir("/sys", 0555);
	mkdir("/dev", 0755);
	mkdir("/tmp", 01777);
	mount("proc", "/proc", "proc", 0, NULL);
	mount("sysfs", "/sys", "sysfs", 0, NULL);
	/* The archive carries the nodes used below, should this fail. */
	mount("devtmpfs", "/dev", "devtmpfs", 0, NULL);
	mount("tmpfs", "/tmp", "tmpfs", 0, NULL);
	/* Bringing lo up gives it 127.0.0.1: netperf needs nothing more. */
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "lo");
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0 || ioctl(s, SIOCGIFFLAGS, &ifr) ||
	    (ifr.ifr_flags |= IFF_UP, ioctl(s, SIOCSIFFLAGS, &ifr)))
		say("cannot bring up the loopback device: %s", strerror(errno));
	if (s >= 0)
		close(s);
	port = open("/dev/ttyS1", O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (port < 0) {
		say("cannot open /dev/ttyS1, the link to the host: %s", strerror(errno));
		power_off();
	}
	/* Raw: no echo, no line discipline, 8 bits, no flow control. */
	if (!tcgetattr(port, &t)) {
		cfmakeraw(&t);
		t.c_cflag |= CLOCAL | CREAD;
		t.c_cc[VMIN] = 1;
		t.c_cc[VTIME] = 0;
		cfsetspeed(&t, B115200);
		tcsetattr(port, TCSANOW, &t);
	}
}

/* Read until one frame is whole. Return 0, or -1 when the port fails. */
static int recv_frame(struct strbuf *in, int *type, struct strbuf *payload)
{
	char buf[4096];
	size_t dropped = 0;

	while (!wire_take(in, type, payload, &dropped)) {
		ssize_t n = read(port, buf, sizeof(buf));

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		strbuf_add(in, buf, (size_t)n);
	}
	return 0;
}

/* In the forked child: run the job, write its struct sample_msg. */
static void job_child(const char *job, size_t len, int fd)
{
	struct strbuf err = STRBUF_INIT;
	struct sample_job sj;

	setpgid(0, 0);
	signal(SIGCHLD, SIG_DFL);
	if (sample_job_decode(job, len, &sj, &err)) {
		sample_fail(fd, err.buf);
		_exit(1);
	}
	_exit(sample_run(sj.params, sj.row, fd) ? 1 : 0);
}

static int64_t tv_ns(const struct timeval *tv)
{
	return (int64_t)tv->tv_sec * 1000000000 + (int64_t)tv->tv_usec * 1000;
}

/* Run one job: "timeout_ms=N\0" then the job's records. */
static void run_job(const struct strbuf *payload)
{
	struct strbuf out = STRBUF_INIT, got = STRBUF_INIT;
	const char *job = payload->buf + strlen(payload->buf) + 1;
	long long timeout_ms = 0;
	struct rusage ru = { 0 };
	int p[2], status = 0, timed_out = 0;
	int64_t t0 = clock_ns(CLOCK_MONOTONIC), deadline;
	pid_t pid;

	if (sscanf(payload->buf, "timeout_ms=%lld", &timeout_ms) != 1 || job > payload->buf +
	    payload->len) {
		record(&out, "rc=-1");
		record(&out, "err=the guest received a malformed job");
		goto send;
	}
	deadline = t0 + timeout_ms * 1000000;
	if (pipe2(p, O_CLOEXEC) || (pid = fork()) < 0) {
		record(&out, "rc=-1");
		record(&out, "err=the guest cannot start the sample: %s", strerror(errno));
		goto send;
	}
	if (pid == 0) {
		close(p[0]);
		job_child(job, (size_t)(payload->buf + payload->len - job), p[1]);
	}
	close(p[1]);
	for (;;) {
		struct pollfd pfd = { .fd = p[0], .events = POLLIN };
		int64_t left = (deadline - clock_ns(CLOCK_MONOTONIC)) / 1000000;
		char buf[4096];
		ssize_t n;

		if (left <= 0) {
			timed_out = 1;
			break;
		}
		if (poll(&pfd, 1, left > 1000 ? 1000 : (int)left) <= 0)
			continue;
		n = read(p[0], buf, sizeof(buf));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		strbuf_add(&got, buf, (size_t)n);
	}
	close(p[0]);
	/* Whatever it left behind goes with it. */
	kill(-pid, SIGKILL);
	while (wait4(pid, &status, 0, &ru) < 0 && errno == EINTR)
		;
	while (waitpid(-1, NULL, WNOHANG) > 0)
		;
	record(&out, "duration_ns=%lld", (long long)(clock_ns(CLOCK_MONOTONIC) - t0));
	record(&out, "user_ns=%lld", (long long)tv_ns(&ru.ru_utime));
	record(&out, "sys_ns=%lld", (long long)tv_ns(&ru.ru_stime));
	if (timed_out) {
		record(&out, "rc=-1");
		record(&out, "err=timed out after %g s (timeout = %g) in the guest; its process "
		       "group was killed", timeout_ms / 1e3, timeout_ms / 1e3);
	} else if (got.len != sizeof(struct sample_msg)) {
		record(&out, "rc=-1");
		if (WIFSIGNALED(status))
			record(&out, "err=the sample's process was killed by signal %d in the "
			       "guest before reporting a result", WTERMSIG(status));
		else
			record(&out, "err=the sample's process exited with status %d in the "
			       "guest before reporting a result", WEXITSTATUS(status));
	} else {
		const struct sample_msg *m = (const struct sample_msg *)got.buf;
		const struct wl_sample *s = &m->sample;

		record(&out, "rc=%d", m->rc);
		if (m->rc)
			record(&out, "err=%s", m->err);
		for (int i = 0; !m->rc && i < s->nresults && i < WL_MAX_RESULTS; i++)
			record(&out, "r=%d %.17g %s", s->results[i].metric, s->results[i].value,
			       s->results[i].row);
		for (int i = 0; !m->rc && i < s->nextras && i < WL_MAX_EXTRAS; i++)
			record(&out, "x=%.17g %s", s->extras[i].value, s->extras[i].key);
		if (!m->rc && s->flag[0])
			record(&out, "flag=%s", s->flag);
	}
send:
	send_frame(WIRE_RESULT, &out);
	strbuf_release(&out);
	strbuf_release(&got);
}

int guest_main(void)
{
	struct strbuf in = STRBUF_INIT, payload = STRBUF_INIT;
	int type;

	setup();
	load_modules();
	send_hello();
	while (!recv_frame(&in, &type, &payload)) {
		if (type == WIRE_QUIT)
			break;
		if (type == WIRE_JOB && payload.len && payload.buf[payload.len - 1] == '\0')
			run_job(&payload);
	}
	power_off();
	return 0;
}
