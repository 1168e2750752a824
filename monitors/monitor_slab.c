/* monitor_slab: slab memory. Per sample, the totals of /proc/meminfo
 * (Slab, SReclaimable, SUnreclaim) before and after; per section, every
 * cache's objects, slabs and partial slabs before its first sample and
 * after its last, from /sys/kernel/slab (SLUB), else /proc/slabinfo
 * (objects and slabs only). Walking every cache takes milliseconds, which
 * is why it brackets sections rather than samples. */
#include "config.h"
#include "monitors/monitor.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MEMINFO_PATH "/proc/meminfo"
#define SYS_SLAB_DIR "/sys/kernel/slab"
#define SLABINFO_PATH "/proc/slabinfo"

static const char *const meminfo_keys[] = { "Slab", "SReclaimable", "SUnreclaim" };
#define NMEMINFO (sizeof(meminfo_keys) / sizeof(meminfo_keys[0]))

/* Per-cache files of /sys/kernel/slab/<cache>/ worth keeping; the fast-
 * and slow-path counts exist only with CONFIG_SLUB_STATS. */
static const char *const cache_files[] = {
	"objects", "slabs", "partial",
	"alloc_fastpath", "alloc_slowpath", "free_fastpath", "free_slowpath",
};
#define NCACHE_FILES (sizeof(cache_files) / sizeof(cache_files[0]))

struct slab_state {
	double before[NMEMINFO];	/* bytes */
	int valid;
	int warned_meminfo, warned_caches;
};

static int slab_init(const struct monitor_conf *conf, void **state, struct strbuf *err)
{
	(void)conf;
	(void)err;
	*state = xcalloc(1, sizeof(struct slab_state));
	return 0;
}

/* Read the meminfo totals in bytes; return 0, or -1 after one warning. */
static int read_meminfo(struct slab_state *ss, double out[NMEMINFO])
{
	struct strbuf sb = STRBUF_INIT;
	int ret = strbuf_read_file(&sb, MEMINFO_PATH), found = 0;

	if (ret) {
		if (!ss->warned_meminfo++)
			warning("cannot read %s: %s; the slab monitor records no totals",
				MEMINFO_PATH, strerror(-ret));
		strbuf_release(&sb);
		return -1;
	}
	for (size_t i = 0; i < NMEMINFO; i++) {
		size_t klen = strlen(meminfo_keys[i]);
		const char *p = sb.buf;

		/* Each key starts a line and is followed by a colon. */
		while ((p = strstr(p, meminfo_keys[i]))) {
			if ((p == sb.buf || p[-1] == '\n') && p[klen] == ':') {
				out[i] = strtod(p + klen + 1, NULL) * 1024;
				found++;
				break;
			}
			p += klen;
		}
	}
	strbuf_release(&sb);
	if (found != (int)NMEMINFO) {
		if (!ss->warned_meminfo++)
			warning("%s lacks Slab, SReclaimable or SUnreclaim; the slab monitor "
				"records no totals", MEMINFO_PATH);
		return -1;
	}
	return 0;
}

static void slab_before(void *state)
{
	struct slab_state *ss = state;

	ss->valid = !read_meminfo(ss, ss->before);
}

static void slab_after(void *state, const struct rusage *ru, struct monitor_values *out)
{
	struct slab_state *ss = state;
	double after[NMEMINFO];
	char key[MONITOR_KEY_LEN];

	(void)ru;
	if (!ss->valid || read_meminfo(ss, after))
		return;
	ss->valid = 0;
	for (size_t i = 0; i < NMEMINFO; i++) {
		snprintf(key, sizeof(key), "%s:before", meminfo_keys[i]);
		monitor_values_add(out, "slab", key, MONITOR_KIND_BEFORE, ss->before[i]);
		snprintf(key, sizeof(key), "%s:after", meminfo_keys[i]);
		monitor_values_add(out, "slab", key, MONITOR_KIND_AFTER, after[i]);
	}
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* SLUB's sysfs view: one directory (or alias link) per cache name; the
 * ":0000064"-style entries are the merged caches' own ids, which their
 * names link to, so they are skipped. Return the number of caches read,
 * or -1 when the directory cannot be listed. */
static int read_sys_slab(struct monitor_values *out, enum monitor_kind when)
{
	DIR *d = opendir(SYS_SLAB_DIR);
	struct dirent *de;
	char **names = NULL;
	size_t n = 0, alloc = 0;
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	int ncaches = 0;

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || de->d_name[0] == ':')
			continue;
		ALLOC_GROW(names, n + 1, alloc);
		names[n++] = xstrdup(de->d_name);
	}
	closedir(d);
	if (n)
		qsort(names, n, sizeof(*names), by_name);
	for (size_t i = 0; i < n; i++) {
		int got = 0;

		for (size_t f = 0; f < NCACHE_FILES; f++) {
			char key[MONITOR_KEY_LEN];

			strbuf_reset(&path);
			strbuf_reset(&text);
			strbuf_addf(&path, "%s/%s/%s", SYS_SLAB_DIR, names[i], cache_files[f]);
			/* "8 N0=5 N1=3": the total comes first. */
			if (strbuf_read_file(&text, path.buf) || !text.len)
				continue;
			snprintf(key, sizeof(key), "%s/%s", names[i], cache_files[f]);
			monitor_values_add(out, "slabcache", key, when, strtod(text.buf, NULL));
			got = 1;
		}
		ncaches += got;
		free(names[i]);
	}
	free(names);
	strbuf_release(&path);
	strbuf_release(&text);
	return ncaches;
}

/* /proc/slabinfo 2.1: name active_objs num_objs objsize objperslab
 * pagesperslab : tunables ... : slabdata active_slabs num_slabs ... */
static int read_slabinfo(struct monitor_values *out, enum monitor_kind when)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p;
	int ncaches = 0;

	if (strbuf_read_file(&sb, SLABINFO_PATH)) {
		strbuf_release(&sb);
		return -1;
	}
	for (p = sb.buf; *p; ) {
		const char *nl = strchr(p, '\n');
		const char *sd = strstr(p, ": slabdata");
		char name[64], key[MONITOR_KEY_LEN];
		double objs, slabs;

		if (*p != '#' && strncmp(p, "slabinfo", 8) && sd && (!nl || sd < nl) &&
		    sscanf(p, "%63s %*f %lf", name, &objs) == 2 &&
		    sscanf(sd, ": slabdata %*f %lf", &slabs) == 1) {
			snprintf(key, sizeof(key), "%s/objects", name);
			monitor_values_add(out, "slabcache", key, when, objs);
			snprintf(key, sizeof(key), "%s/slabs", name);
			monitor_values_add(out, "slabcache", key, when, slabs);
			ncaches++;
		}
		if (!nl)
			break;
		p = nl + 1;
	}
	strbuf_release(&sb);
	return ncaches;
}

/* when: MONITOR_KIND_BEFORE at the section's start, _AFTER at its end. */
static void snapshot_caches(struct slab_state *ss, struct monitor_values *out,
			    enum monitor_kind when)
{
	int n = read_sys_slab(out, when);

	if (n <= 0)
		n = read_slabinfo(out, when);
	if (n <= 0 && !ss->warned_caches++)
		warning("neither %s nor %s is readable; the slab monitor records no "
			"per-cache figures", SYS_SLAB_DIR, SLABINFO_PATH);
}

static void slab_section_begin(void *state, struct monitor_values *out)
{
	snapshot_caches(state, out, MONITOR_KIND_BEFORE);
}

static void slab_section_end(void *state, struct monitor_values *out)
{
	snapshot_caches(state, out, MONITOR_KIND_AFTER);
}

static void slab_free(void *state)
{
	free(state);
}

const struct monitor_ops monitor_slab = {
	.name = "slab",
	.summary = "slab memory: /proc/meminfo totals per sample, per-cache partial "
		   "slabs per section",
	.init = slab_init,
	.before = slab_before,
	.after = slab_after,
	.section_begin = slab_section_begin,
	.section_end = slab_section_end,
	.free = slab_free,
};
