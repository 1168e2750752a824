/* sysinfo: machine and kernel facts recorded with every run. */
#include "config.h"
#include "machine/sysinfo.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <hwloc.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

/* FNV-1a, enough to tell machines apart; not a security property. */
static uint64_t fnv1a(const char *s, uint64_t h)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ULL;
	}
	return h;
}

char *sysinfo_hostname(void)
{
	const char *env = getenv("KBENCH_HOSTNAME");
	char host[256] = "";

	if (env && *env)
		return xstrdup(env);
	gethostname(host, sizeof(host) - 1);
	return xstrdup(host);
}

int machine_info_load(struct machine_info *m)
{
	hwloc_topology_t t;
	hwloc_obj_t root, pkg;
	const char *model = NULL;
	char *xml = NULL;
	int xmllen = 0;

	memset(m, 0, sizeof(*m));
	if (hwloc_topology_init(&t) || hwloc_topology_load(t))
		return error("cannot load the hwloc topology of this machine");
	root = hwloc_get_root_obj(t);
	pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);
	if (pkg)
		model = hwloc_obj_get_info_by_name(pkg, "CPUModel");
	if (!model)
		model = hwloc_obj_get_info_by_name(root, "CPUModel");
	m->hostname = sysinfo_hostname();
	m->cpu_model = xstrdup(model ? model : "unknown");
	m->cpus = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PU);
	m->cores = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_CORE);
	m->packages = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_PACKAGE);
	m->numa_nodes = hwloc_get_nbobjs_by_type(t, HWLOC_OBJ_NUMANODE);
	m->mem_bytes = sysinfo_mem_total();
	if (!hwloc_topology_export_xmlbuffer(t, &xml, &xmllen, 0)) {
		m->topology_xml = xstrdup(xml);
		hwloc_free_xmlbuffer(t, xml);
	} else {
		m->topology_xml = xstrdup("");
	}
	hwloc_topology_destroy(t);
	machine_info_set_fingerprint(m);
	return 0;
}

void machine_info_set_fingerprint(struct machine_info *m)
{
	struct strbuf fp = STRBUF_INIT;

	strbuf_addf(&fp, "%s|%s|%d|%d|%d|%d|%llu", m->hostname, m->cpu_model,
		    m->cpus, m->cores, m->packages, m->numa_nodes,
		    (unsigned long long)(m->mem_bytes >> 20));
	free(m->fingerprint);
	m->fingerprint = xmalloc(17);
	snprintf(m->fingerprint, 17, "%016llx",
		 (unsigned long long)fnv1a(fp.buf, 0xcbf29ce484222325ULL));
	strbuf_release(&fp);
}

void machine_info_release(struct machine_info *m)
{
	free(m->hostname);
	free(m->cpu_model);
	free(m->topology_xml);
	free(m->fingerprint);
	memset(m, 0, sizeof(*m));
}

int kernel_info_load(struct kernel_info *k)
{
	struct utsname u;
	struct strbuf cmd = STRBUF_INIT;

	memset(k, 0, sizeof(*k));
	if (uname(&u))
		return error("uname failed");
	k->release = xstrdup(u.release);
	k->version = xstrdup(u.version);
	if (strbuf_read_file(&cmd, "/proc/cmdline") == 0)
		strbuf_rtrim(&cmd);
	k->cmdline = strbuf_detach(&cmd);
	return 0;
}

void kernel_info_release(struct kernel_info *k)
{
	free(k->release);
	free(k->version);
	free(k->cmdline);
	memset(k, 0, sizeof(*k));
}
