/* monitor_perf: perf counters on the sample's processes only. Events are
 * named in `perf_events` and encoded by libpfm4; each is opened on the
 * held child (inherit, so everything it forks is counted too; the harness
 * never is) and read once the child is reaped. An event this machine
 * cannot count (no PMU, perf_event_paranoid) is found once per run,
 * reported once and stored as a fact; the others are still counted. */
#include "config.h"
#include "monitors/monitor.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <errno.h>
/* Also provides perf_event_open(), the syscall wrapper glibc lacks. */
#include <perfmon/pfmlib_perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define PERF_MAX_EVENTS 32

struct perf_event {
	char name[64];			/* as configured: "page-faults" */
	struct perf_event_attr attr;	/* encoded once, by libpfm4 */
	int available;			/* cleared by prepare() when it cannot open */
	int warned;			/* a failed open on a sample was reported */
	int fd;				/* the sample in flight, or -1 */
	int held;			/* its slot in held[], or -1 */
};

struct perf_state {
	struct perf_event ev[PERF_MAX_EVENTS];
	int n;
};

/* libpfm4's encoding of name for user and kernel level into a cleared
 * attr; returns a PFM_ code. */
static int pfm_encode(const char *name, struct perf_event_attr *attr)
{
	pfm_perf_encode_arg_t arg = { .attr = attr, .size = sizeof(arg) };

	memset(attr, 0, sizeof(*attr));
	return pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT, &arg);
}

/* Encode name for user and kernel level. Plain generic names ("cycles")
 * resolve only while libpfm4's perf PMU is the default one, so an unknown
 * name is retried as "perf::name", which works everywhere. */
static int encode(const char *name, struct perf_event_attr *attr, struct strbuf *err)
{
	char alt[80];
	int ret;

	ret = pfm_encode(name, attr);
	if (ret == PFM_ERR_NOTFOUND && !strstr(name, "::")) {
		snprintf(alt, sizeof(alt), "perf::%s", name);
		ret = pfm_encode(alt, attr);
	}
	if (ret != PFM_SUCCESS) {
		strbuf_addf(err, "unknown perf event '%s' in 'perf_events' (libpfm4: %s)",
			    name, pfm_strerror(ret));
		if (ret == PFM_ERR_NOTFOUND)
			strbuf_addstr(err, "; generic events such as task-clock, page-faults, "
				      "context-switches, cycles or instructions work everywhere");
		return -1;
	}
	attr->size = sizeof(*attr);
	attr->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
	return 0;
}

static int perf_init(const struct monitor_conf *conf, void **state, struct strbuf *err)
{
	struct perf_state *ps = xcalloc(1, sizeof(*ps));
	const char *p = conf->perf_events;
	char name[64];
	int ret;

	*state = ps;
	ret = pfm_initialize();
	if (ret != PFM_SUCCESS) {
		strbuf_addf(err, "cannot initialise libpfm4: %s", pfm_strerror(ret));
		return -1;
	}
	while (monitor_next_item(&p, name, sizeof(name))) {
		struct perf_event *e;
		int dup = 0;

		for (int i = 0; i < ps->n; i++)
			dup |= !strcmp(ps->ev[i].name, name);
		if (dup)
			continue;
		if (ps->n == PERF_MAX_EVENTS) {
			strbuf_addf(err, "too many perf events in 'perf_events' (at most %d)",
				    PERF_MAX_EVENTS);
			return -1;
		}
		e = &ps->ev[ps->n];
		snprintf(e->name, sizeof(e->name), "%s", name);
		if (encode(name, &e->attr, err))
			return -1;
		e->available = 1;
		e->fd = e->held = -1;
		ps->n++;
	}
	return 0;
}

static int paranoid_level(void)
{
	struct strbuf sb = STRBUF_INIT;
	int level = 99;

	if (!strbuf_read_file(&sb, "/proc/sys/kernel/perf_event_paranoid"))
		level = atoi(sb.buf);
	strbuf_release(&sb);
	return level;
}

void monitor_perf_reason(int err, struct strbuf *sb)
{
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		strbuf_addf(sb, "no PMU on this machine (%s)",
			    err == ENOENT ? "ENOENT" : err == ENODEV ? "ENODEV" : "EOPNOTSUPP");
		break;
	case EACCES:
	case EPERM: {
		int level = paranoid_level();

		if (level == 99)
			strbuf_addf(sb, "not permitted (%s)", err == EACCES ? "EACCES" : "EPERM");
		else
			strbuf_addf(sb, "not permitted by kernel.perf_event_paranoid = %d (%s); run as "
				    "root or lower it (sysctl kernel.perf_event_paranoid=1)",
				    level, err == EACCES ? "EACCES" : "EPERM");
		break;
	}
	case EINVAL:
		strbuf_addstr(sb, "the kernel rejects its encoding (EINVAL)");
		break;
	default:
		strbuf_addf(sb, "perf_event_open failed: %s", strerror(err));
		break;
	}
}

/* Probes held open on ourselves, one per event kind (type, config) however
 * many sections count it, each with the number of events that use it (0:
 * a free slot). */
static struct held_probe {
	uint32_t type;
	uint64_t config;
	int fd;
	int users;
} held[PERF_MAX_EVENTS];

/* Keep fd, a disabled probe of e's kind, unless one is held already (or
 * no slot is free); record the slot in e->held. */
static void hold_probe(struct perf_event *e, int fd)
{
	int i, free_slot = -1;

	for (i = 0; i < PERF_MAX_EVENTS; i++) {
		if (!held[i].users) {
			if (free_slot < 0)
				free_slot = i;
		} else if (held[i].type == e->attr.type && held[i].config == e->attr.config) {
			break;
		}
	}
	if (i < PERF_MAX_EVENTS || free_slot < 0) {
		close(fd);
		if (i == PERF_MAX_EVENTS)
			return;
	} else {
		i = free_slot;
		held[i].type = e->attr.type;
		held[i].config = e->attr.config;
		held[i].fd = fd;
	}
	held[i].users++;
	e->held = i;
}

static void release_probe(struct perf_event *e)
{
	if (e->held < 0)
		return;
	if (!--held[e->held].users)
		close(held[e->held].fd);
	e->held = -1;
}

/* Open every event once on ourselves, disabled: the same permission and
 * PMU checks as on the child, before anything is measured. Events that
 * fail the same way share one notice.
 *
 * One probe of each kind stays open until the last set that counts it is
 * freed. A software event's first open switches on its static key in the
 * kernel and its last close switches it off again, each time rewriting
 * kernel text on every CPU (IPIs, and a hypervisor's exits in a VM): with
 * the probe held, a sample's open and close leave the key alone. A
 * disabled event that does not inherit costs the children nothing and
 * the harness next to nothing. */
static void perf_prepare(void *state, struct monitor_facts *facts)
{
	struct perf_state *ps = state;
	int errs[PERF_MAX_EVENTS];

	for (int i = 0; i < ps->n; i++) {
		struct perf_event_attr a = ps->ev[i].attr;
		int fd;

		a.disabled = 1;
		a.inherit = 0;
		fd = perf_event_open(&a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
		errs[i] = fd < 0 ? errno : 0;
		release_probe(&ps->ev[i]);
		if (fd >= 0)
			hold_probe(&ps->ev[i], fd);
		ps->ev[i].available = fd >= 0;
	}
	for (int i = 0; i < ps->n; i++) {
		struct strbuf why = STRBUF_INIT, names = STRBUF_INIT, note = STRBUF_INIT;
		struct strbuf key = STRBUF_INIT, val = STRBUF_INIT;
		int first = 1, count = 0;

		if (!errs[i])
			continue;
		for (int j = 0; j < i; j++)
			first &= errs[j] != errs[i];
		if (!first)
			continue;
		monitor_perf_reason(errs[i], &why);
		for (int j = i; j < ps->n; j++)
			if (errs[j] == errs[i])
				strbuf_addf(&names, "%s'%s'", count++ ? ", " : "", ps->ev[j].name);
		strbuf_addf(&note, "perf event%s %s not counted: %s; the run goes on without %s",
			    count > 1 ? "s" : "", names.buf, why.buf, count > 1 ? "them" : "it");
		for (int j = i; j < ps->n; j++) {
			if (errs[j] != errs[i])
				continue;
			strbuf_reset(&key);
			strbuf_reset(&val);
			strbuf_addf(&key, "perf.%s", ps->ev[j].name);
			strbuf_addf(&val, "not counted: %s", why.buf);
			monitor_facts_add(facts, key.buf, val.buf, j == i ? note.buf : NULL);
		}
		strbuf_release(&why);
		strbuf_release(&names);
		strbuf_release(&note);
		strbuf_release(&key);
		strbuf_release(&val);
	}
}

static void perf_before(void *state)
{
	struct perf_state *ps = state;

	for (int i = 0; i < ps->n; i++)
		ps->ev[i].fd = -1;
}

/* The child is held: counting starts now, so its whole life is counted,
 * descendants included (inherit), and none of the harness. */
static void perf_attach(void *state, pid_t pid)
{
	struct perf_state *ps = state;

	for (int i = 0; i < ps->n; i++) {
		struct perf_event *e = &ps->ev[i];
		struct perf_event_attr a = e->attr;
		int fd;

		if (!e->available)
			continue;
		a.inherit = 1;
		a.disabled = 0;
		fd = perf_event_open(&a, pid, -1, -1, PERF_FLAG_FD_CLOEXEC);
		if (fd < 0) {
			if (!e->warned++) {
				struct strbuf why = STRBUF_INIT;

				monitor_perf_reason(errno, &why);
				warning("perf event '%s' could not be opened on a sample (%s); "
					"its value is missing where that happens", e->name, why.buf);
				strbuf_release(&why);
			}
			continue;
		}
		e->fd = fd;
	}
}

static void perf_after(void *state, const struct rusage *ru, struct monitor_values *out)
{
	struct perf_state *ps = state;

	(void)ru;
	for (int i = 0; i < ps->n; i++) {
		struct perf_event *e = &ps->ev[i];
		uint64_t v[3];		/* value, time enabled, time running */
		char key[MONITOR_KEY_LEN];
		double value;

		if (e->fd < 0)
			continue;
		if (read(e->fd, v, sizeof(v)) == (ssize_t)sizeof(v) && v[2]) {
			value = (double)v[0];
			/* Multiplexed: scale as perf stat does, and say by how much. */
			if (v[2] < v[1])
				value *= (double)v[1] / (double)v[2];
			monitor_values_add(out, "perf", e->name, MONITOR_KIND_DELTA, value);
			if (v[2] < v[1]) {
				snprintf(key, sizeof(key), "%s:running", e->name);
				monitor_values_add(out, "perf", key, MONITOR_KIND_FRACTION,
						   (double)v[2] / (double)v[1]);
			}
		}
		close(e->fd);
		e->fd = -1;
	}
}

static void perf_free(void *state)
{
	struct perf_state *ps = state;

	if (!ps)
		return;
	for (int i = 0; i < ps->n; i++) {
		if (ps->ev[i].fd >= 0)
			close(ps->ev[i].fd);
		release_probe(&ps->ev[i]);
	}
	free(ps);
}

const struct monitor_ops monitor_perf = {
	.name = "perf",
	.summary = "perf counters (perf_events, encoded by libpfm4) of the sample's processes",
	.init = perf_init,
	.prepare = perf_prepare,
	.before = perf_before,
	.attach = perf_attach,
	.after = perf_after,
	.free = perf_free,
};
