/* cmd_topology: `kbench topology`, the machine as hwloc sees it (packages,
 * NUMA nodes, last-level caches, cores, PUs) and the PUs every pin policy
 * picks on it, or on a synthetic or XML topology given instead. */
#include "config.h"
#include "cli/cmd.h"
#include "lib/error.h"
#include "lib/parse-options.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "machine/pin.h"

#include <hwloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct parse_opt_usage topology_usage = {
	.synopsis = "kbench topology [--synthetic DESC | --xml FILE] [--workers N]\n"
		    "                       [--cpus POLICY]",
	.description = "Show the machine as hwloc sees it and the PUs each pin policy picks.\n"
		       "P# is the CPU number the kernel uses, L# hwloc's logical order.",
	.help_column = 20,
};

static int mib(hwloc_uint64_t bytes)
{
	return (int)(bytes >> 20);
}

/* The depth of the last-level cache above PU 0, or -1. */
static int llc_depth(hwloc_topology_t t)
{
	hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0);
	int depth = -1;

	for (hwloc_obj_t o = pu ? pu->parent : NULL; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			depth = o->depth;
	return depth;
}

static void print_obj(hwloc_obj_t o, int indent)
{
	char type[64];

	hwloc_obj_type_snprintf(type, sizeof(type), o, 0);
	printf("%*s%s L#%u", indent, "", type, o->logical_index);
	if (o->os_index != HWLOC_UNKNOWN_INDEX)
		printf(" P#%u", o->os_index);
}

static void print_tree(hwloc_topology_t t, hwloc_obj_t o, int indent, int llc)
{
	int shown = 0;

	if (o->type == HWLOC_OBJ_PACKAGE || o->depth == llc) {
		print_obj(o, indent);
		if (hwloc_obj_type_is_cache(o->type))
			printf(" (%d MiB)", mib(o->attr->cache.size));
		putchar('\n');
		shown = 1;
	} else if (o->type == HWLOC_OBJ_CORE ||
		   (o->type == HWLOC_OBJ_PU && (!o->parent || o->parent->type != HWLOC_OBJ_CORE))) {
		print_obj(o, indent);
		if (o->type == HWLOC_OBJ_CORE) {
			const char *sep = ":";

			for (unsigned i = 0; i < o->arity; i++) {
				if (o->children[i]->type != HWLOC_OBJ_PU)
					continue;
				printf("%s PU L#%u P#%u", sep, o->children[i]->logical_index,
				       o->children[i]->os_index);
				sep = ",";
			}
		}
		putchar('\n');
		return;
	}
	for (hwloc_obj_t m = o->memory_first_child; m; m = m->next_sibling) {
		if (m->type != HWLOC_OBJ_NUMANODE)
			continue;
		print_obj(m, indent + 2 * shown);
		printf(" (%d MiB)\n", mib(m->attr->numanode.local_memory));
	}
	for (unsigned i = 0; i < o->arity; i++)
		print_tree(t, o->children[i], indent + 2 * shown, llc);
}

/* The "needs ..." part of a refusal, without the machine summary. */
static void print_refusal(const char *msg)
{
	const char *needs = strstr(msg, "needs ");
	const char *end = needs ? strchr(needs, ';') : NULL;

	if (needs && end)
		printf("not possible: %.*s\n", (int)(end - needs), needs);
	else
		printf("not possible: %s\n", msg);
}

static void print_policies(struct pin_topo *topo, enum pin_kind kind, int workers)
{
	for (const struct pin_policy *pol = pin_policies; pol->name; pol++) {
		struct strbuf err = STRBUF_INIT;
		struct pin_plan *plan = NULL;

		if (pol->kind != kind && pol->kind != PIN_ANY)
			continue;
		printf("  %-13s ", pol->name);
		if (pol->kind == PIN_ANY) {
			printf("%s\n", pol->help);
		} else if (pin_plan_compute_on(topo, pol->name, workers, &plan, &err)) {
			print_refusal(err.buf);
		} else if (kind == PIN_TWO) {
			printf("server P#%d, client P#%d\n", plan->slots[0].os_index,
			       plan->slots[1].os_index);
		} else {
			for (int i = 0; i < plan->nslots; i++)
				printf("%sP#%d", i ? " " : "", plan->slots[i].os_index);
			putchar('\n');
		}
		pin_plan_free(plan);
		strbuf_release(&err);
	}
}

/* --cpus: a pin policy, or a preference list of them, each a policy of
 * the table (checked as it is parsed), into the const char * opt->value. */
static int parse_cpus(const struct parse_opt *opt, const char *value)
{
	struct strbuf err = STRBUF_INIT;

	if (pin_policies_check(value, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		return -1;
	}
	*(const char **)opt->value = value;
	return 0;
}

static int print_cpus(struct pin_topo *topo, const char *policy, int workers)
{
	struct strbuf err = STRBUF_INIT;
	struct pin_plan *plan = NULL;

	if (pin_plan_compute_on(topo, policy, workers, &plan, &err)) {
		error("%s", err.buf);
		strbuf_release(&err);
		/* Every name is a policy (parse_cpus): the topology cannot
		 * honour them, a failure. */
		return 1;
	}
	for (int i = 0; i < plan->nslots; i++)
		printf("%s%d", i ? " " : "", plan->slots[i].os_index);
	putchar('\n');
	pin_plan_free(plan);
	return 0;
}

int cmd_topology(int argc, char **argv)
{
	const char *synthetic = NULL, *xml = NULL, *cpus = NULL;
	int workers = 0, rc = 1;
	const struct parse_opt options[] = {
		OPT_STRING(0, "synthetic", &synthetic, "DESC",
			   "a made-up topology instead of this machine, in hwloc's\n"
			   "synthetic syntax, e.g. \"pack:2 numa:2 l3:2 core:8 pu:2\""),
		OPT_STRING(0, "xml", &xml, "FILE", "a topology exported by lstopo or hwloc"),
		OPT_INT_RANGE(0, "workers", &workers, "N",
			      "many-worker plans for N workers (default: one per PU)", 1, 1000000),
		OPT_CALLBACK(0, "cpus", &cpus, "POLICY",
			     "print only the CPU numbers (P#) POLICY picks, in slot\n"
			     "order (server first for two-party policies); an error\n"
			     "when the topology cannot honour it", parse_cpus),
		OPT_HELP(NULL),
		OPT_END(),
	};
	struct strbuf err = STRBUF_INIT, desc = STRBUF_INIT;
	struct pin_topo *topo = NULL;
	hwloc_topology_t t;
	hwloc_obj_t root;
	const char *model;

	if (cmd_parse_options(&argc, argv, options, &topology_usage, &rc))
		return rc;
	if (argc > 0) {
		error("unexpected argument '%s'", argv[0]);
		return EXIT_USAGE;
	}
	if (synthetic && xml) {
		error("give '--synthetic' or '--xml', not both");
		return EXIT_USAGE;
	}
	if (pin_topo_load(synthetic, xml, &topo, &err)) {
		error("%s", err.buf);
		goto out;
	}
	if (cpus) {
		rc = print_cpus(topo, cpus, workers);
		goto out;
	}
	t = pin_topo_hwloc(topo);
	root = hwloc_get_root_obj(t);
	pin_topo_describe(topo, &desc);
	printf("Machine: %s\n", desc.buf);
	model = hwloc_obj_get_info_by_name(root, "CPUModel");
	if (!model) {
		hwloc_obj_t pkg = hwloc_get_obj_by_type(t, HWLOC_OBJ_PACKAGE, 0);

		model = pkg ? hwloc_obj_get_info_by_name(pkg, "CPUModel") : NULL;
	}
	if (model)
		printf("CPU model: %s\n", model);
	if (synthetic || xml)
		printf("Source: %s %s (binding on it is a no-op)\n",
		       synthetic ? "synthetic" : "XML", synthetic ? synthetic : xml);
	putchar('\n');
	print_tree(t, root, 0, llc_depth(t));
	printf("\nTwo-party policies (netperf: server, client):\n");
	print_policies(topo, PIN_TWO, workers);
	printf("\nMany-worker policies (hackbench, pft: worker 0, 1, ...):\n");
	print_policies(topo, PIN_MANY, workers);
	rc = 0;
out:
	pin_topo_free(topo);
	strbuf_release(&err);
	strbuf_release(&desc);
	return rc;
}
