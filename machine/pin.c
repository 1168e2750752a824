/* pin: pin policies computed from the hwloc topology, and binding to them.
 * Expects topologies from one PU (a laptop in a container) to thousands;
 * pair search is quadratic in cores, which is milliseconds at 1024 PUs. */
#include "config.h"
#include "machine/pin.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <assert.h>
#include <errno.h>
#include <hwloc.h>
#include <stdlib.h>
#include <string.h>

struct pin_topo {
	hwloc_topology_t t;
	int thissystem;		/* binding is real */
};

const struct pin_policy pin_policies[] = {
	{ .name = "unbound", .kind = PIN_ANY,
	  .help = "no binding: the scheduler places every task" },
	{ .name = "same-pu", .kind = PIN_TWO, .help = "server and client on one PU" },
	{ .name = "cross-ht", .kind = PIN_TWO,
	  .help = "server and client on two PUs of one core (SMT siblings)" },
	{ .name = "cross-core", .kind = PIN_TWO, .help = "two cores sharing the last-level cache" },
	{ .name = "cross-llc", .kind = PIN_TWO,
	  .help = "two last-level caches, same NUMA node or package if possible" },
	{ .name = "cross-node", .kind = PIN_TWO, .help = "two NUMA nodes, same package if possible" },
	{ .name = "cross-socket", .kind = PIN_TWO, .help = "two packages" },
	{ .name = "spread", .kind = PIN_MANY,
	  .help = "one worker per core round-robin over the tree, then per PU" },
	{ .name = "compact", .kind = PIN_MANY, .help = "PUs in logical order, SMT siblings first" },
	{ .name = NULL }
};

const struct pin_policy *pin_policy_find(const char *name)
{
	for (const struct pin_policy *p = pin_policies; p->name; p++)
		if (!strcmp(p->name, name))
			return p;
	return NULL;
}

/* The most PUs a synthetic topology may describe: more than any machine
 * has, few enough that hwloc builds it at once (it grows with the product
 * of the levels: pack:100 core:100 pu:10 took 42 s and 2.4 GB). */
#define PIN_SYNTHETIC_MAX_PUS 65536

/* The PUs of a synthetic description: the product of its levels' counts
 * ("pack:2 core:8 pu:2" is 32), or 0 past PIN_SYNTHETIC_MAX_PUS. */
static unsigned long synthetic_pus(const char *desc)
{
	unsigned long pus = 1;

	for (const char *p = strchr(desc, ':'); p; p = strchr(p + 1, ':')) {
		char *end;
		unsigned long n = strtoul(p + 1, &end, 10);

		if (end == p + 1)
			continue;
		if (n && pus > PIN_SYNTHETIC_MAX_PUS / n)
			return 0;
		pus *= n ? n : 1;
	}
	return pus;
}

int pin_topo_load(const char *synthetic, const char *xml_path,
		  struct pin_topo **out, struct strbuf *err)
{
	struct pin_topo *pt;
	int rc = -1;

	if (synthetic && !synthetic_pus(synthetic)) {
		strbuf_addf(err, "synthetic topology '%s' has more than %d PUs", synthetic,
			    PIN_SYNTHETIC_MAX_PUS);
		return -1;
	}
	pt = xcalloc(1, sizeof(*pt));
	if (hwloc_topology_init(&pt->t)) {
		strbuf_addf(err, "cannot initialise hwloc: %s", strerror(errno));
		free(pt);
		return -1;
	}
	if (synthetic && hwloc_topology_set_synthetic(pt->t, synthetic)) {
		strbuf_addf(err, "invalid synthetic topology '%s'", synthetic);
		goto out;
	}
	if (xml_path && hwloc_topology_set_xml(pt->t, xml_path)) {
		strbuf_addf(err, "cannot read topology XML '%s': %s", xml_path,
			    strerror(errno));
		goto out;
	}
	if (hwloc_topology_load(pt->t)) {
		strbuf_addf(err, "cannot load the hwloc topology: %s", strerror(errno));
		goto out;
	}
	pt->thissystem = hwloc_topology_is_thissystem(pt->t);
	*out = pt;
	rc = 0;
out:
	if (rc) {
		hwloc_topology_destroy(pt->t);
		free(pt);
	}
	return rc;
}

void pin_topo_free(struct pin_topo *t)
{
	if (!t)
		return;
	hwloc_topology_destroy(t->t);
	free(t);
}

void *pin_topo_hwloc(struct pin_topo *t)
{
	return t->t;
}

/* The last-level cache above pu: its topmost data or unified cache. */
static hwloc_obj_t llc_of(hwloc_obj_t pu)
{
	hwloc_obj_t llc = NULL;

	for (hwloc_obj_t o = pu->parent; o; o = o->parent)
		if (hwloc_obj_type_is_dcache(o->type))
			llc = o;
	return llc;
}

static hwloc_obj_t ancestor_or_root(hwloc_topology_t t, hwloc_obj_type_t type,
				    hwloc_obj_t pu)
{
	hwloc_obj_t o = hwloc_get_ancestor_obj_by_type(t, type, pu);

	return o ? o : hwloc_get_root_obj(t);
}

static hwloc_obj_t node_of(hwloc_topology_t t, hwloc_obj_t pu)
{
	hwloc_obj_t node = NULL;

	while ((node = hwloc_get_next_obj_by_type(t, HWLOC_OBJ_NUMANODE, node)))
		if (node->cpuset && hwloc_bitmap_isset(node->cpuset, pu->os_index))
			return node;
	return hwloc_get_root_obj(t);
}

static int count_type(hwloc_topology_t t, hwloc_obj_type_t type)
{
	int n = hwloc_get_nbobjs_by_type(t, type);

	return n > 0 ? n : 0;
}

/* Number of distinct last-level caches, and their type name ("L3"). */
static int count_llcs(hwloc_topology_t t, char *name, size_t len)
{
	hwloc_obj_t pu0 = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0);
	hwloc_obj_t llc = pu0 ? llc_of(pu0) : NULL;

	if (!llc) {
		snprintf(name, len, "LLC");
		return 0;
	}
	hwloc_obj_type_snprintf(name, len, llc, 0);
	return hwloc_get_nbobjs_by_depth(t, (unsigned)llc->depth);
}

static void plural(struct strbuf *out, int n, const char *one, const char *many)
{
	strbuf_addf(out, "%d %s", n, n == 1 ? one : many);
}

void pin_topo_describe(struct pin_topo *pt, struct strbuf *out)
{
	hwloc_topology_t t = pt->t;
	char llc[32];
	int nllc = count_llcs(t, llc, sizeof(llc));

	plural(out, count_type(t, HWLOC_OBJ_PACKAGE), "package", "packages");
	strbuf_addstr(out, ", ");
	plural(out, count_type(t, HWLOC_OBJ_NUMANODE), "NUMA node", "NUMA nodes");
	strbuf_addstr(out, ", ");
	if (nllc) {
		plural(out, nllc, "LLC", "LLCs");
		strbuf_addf(out, " (%s)", llc);
	} else {
		strbuf_addstr(out, "no cache information");
	}
	strbuf_addstr(out, ", ");
	plural(out, count_type(t, HWLOC_OBJ_CORE), "core", "cores");
	strbuf_addstr(out, ", ");
	plural(out, count_type(t, HWLOC_OBJ_PU), "PU", "PUs");
}

/* What a PU shares with others, from the PU up: PU, core, LLC, NUMA node,
 * package. A missing level (no cache information, no core objects) falls
 * back to the next one up, so it never separates two PUs on its own. */
enum { LVL_PU, LVL_CORE, LVL_LLC, LVL_NODE, LVL_PACKAGE, NLVL };

struct pu_keys {
	hwloc_obj_t pu;
	const void *key[NLVL];
};

static void pu_keys_fill(hwloc_topology_t t, hwloc_obj_t pu, struct pu_keys *k)
{
	hwloc_obj_t core = hwloc_get_ancestor_obj_by_type(t, HWLOC_OBJ_CORE, pu);
	hwloc_obj_t pkg = ancestor_or_root(t, HWLOC_OBJ_PACKAGE, pu);
	hwloc_obj_t llc = llc_of(pu);

	k->pu = pu;
	k->key[LVL_PU] = pu;
	k->key[LVL_CORE] = core ? core : (hwloc_obj_t)pu;
	k->key[LVL_LLC] = llc ? llc : pkg;
	k->key[LVL_NODE] = node_of(t, pu);
	k->key[LVL_PACKAGE] = pkg;
}

/* 0: same PU; 1: SMT siblings; 2: two cores under one LLC; 3: two LLCs in
 * one NUMA node; 4: two NUMA nodes in one package; 5: two packages. The
 * highest level that differs decides, so an odd hierarchy (NUMA nodes
 * inside an LLC) still classifies by what the pair does not share. */
static int pair_rank(const struct pu_keys *a, const struct pu_keys *b)
{
	for (int l = NLVL - 1; l >= 0; l--)
		if (a->key[l] != b->key[l])
			return l + 1;
	return 0;
}

/* Every PU (all = 1) or the first PU of each core, in logical order. */
static int collect_pus(hwloc_topology_t t, int all, struct pu_keys **out)
{
	int npu = count_type(t, HWLOC_OBJ_PU), n = 0;
	struct pu_keys *k = xcalloc(npu ? (size_t)npu : 1, sizeof(*k));

	for (int i = 0; i < npu; i++) {
		hwloc_obj_t pu = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, (unsigned)i);

		pu_keys_fill(t, pu, &k[n]);
		if (!all && n && k[n - 1].key[LVL_CORE] == k[n].key[LVL_CORE])
			continue;
		n++;
	}
	*out = k;
	return n;
}

/* The first pair in logical order with rank in [lo, hi] and the lowest
 * such rank. Return 0 and the pair, or -1 when none exists. */
static int find_pair(const struct pu_keys *k, int n, int lo, int hi,
		     hwloc_obj_t *a, hwloc_obj_t *b)
{
	int best = hi + 1;

	for (int i = 0; i < n && best > lo; i++) {
		for (int j = i + 1; j < n; j++) {
			int r = pair_rank(&k[i], &k[j]);

			if (r >= lo && r < best) {
				best = r;
				*a = k[i].pu;
				*b = k[j].pu;
				if (r == lo)
					break;
			}
		}
	}
	return best <= hi ? 0 : -1;
}

static void slot_set(struct pin_slot *s, hwloc_obj_t pu)
{
	s->os_index = (int)pu->os_index;
	s->logical_index = (int)pu->logical_index;
}

static int topo_is_this_system(const struct pin_topo *pt)
{
	return pt->thissystem;
}

static void cannot(struct pin_topo *pt, const char *policy, const char *needs,
		   struct strbuf *err)
{
	strbuf_addf(err, "pin policy '%s' needs %s; %s has ", policy, needs,
		    pt->thissystem ? "this machine" : "this topology");
	pin_topo_describe(pt, err);
}

static int plan_two(struct pin_topo *pt, struct pin_plan *plan, struct strbuf *err)
{
	hwloc_topology_t t = pt->t;
	struct pu_keys *k = NULL;
	hwloc_obj_t a = NULL, b = NULL;
	const char *p = plan->policy, *needs = NULL;
	int n, rc = -1;

	if (!strcmp(p, "same-pu")) {
		a = b = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, 0);
		if (!a)
			needs = "a PU";
	} else if (!strcmp(p, "cross-ht")) {
		n = collect_pus(t, 1, &k);
		if (find_pair(k, n, 1, 1, &a, &b))
			needs = "a core with two PUs (SMT)";
	} else {
		n = collect_pus(t, 0, &k);
		if (!strcmp(p, "cross-core")) {
			if (find_pair(k, n, 2, 2, &a, &b))
				needs = "two cores sharing a last-level cache";
		} else if (!strcmp(p, "cross-llc")) {
			if (find_pair(k, n, 3, 5, &a, &b))
				needs = "two last-level caches";
		} else if (!strcmp(p, "cross-node")) {
			if (find_pair(k, n, 4, 5, &a, &b))
				needs = "two NUMA nodes";
		} else if (!strcmp(p, "cross-socket")) {
			if (find_pair(k, n, 5, 5, &a, &b))
				needs = "two packages";
		} else {
			strbuf_addf(err, "bug: two-party policy '%s' has no rule", p);
			goto out;
		}
	}
	if (needs) {
		cannot(pt, p, needs, err);
		goto out;
	}
	plan->nslots = 2;
	plan->slots = xcalloc(2, sizeof(*plan->slots));
	slot_set(&plan->slots[0], a);
	slot_set(&plan->slots[1], b);
	rc = 0;
out:
	free(k);
	return rc;
}

/* Append the PUs under o, interleaving its children round-robin, so that
 * consecutive entries land as far apart in the tree as possible. */
static void spread_order(hwloc_obj_t o, hwloc_obj_t *list, int *n)
{
	int nchild = (int)o->arity, total = 0, left;
	hwloc_obj_t *buf;
	int *start, *len, *pos;

	if (o->type == HWLOC_OBJ_PU) {
		list[(*n)++] = o;
		return;
	}
	if (!nchild)
		return;
	buf = xcalloc((size_t)hwloc_bitmap_weight(o->cpuset) + 1, sizeof(*buf));
	start = xcalloc((size_t)nchild * 3, sizeof(*start));
	len = start + nchild;
	pos = len + nchild;
	for (int i = 0; i < nchild; i++) {
		start[i] = total;
		spread_order(o->children[i], buf + total, &len[i]);
		total += len[i];
	}
	for (left = total; left > 0;)
		for (int i = 0; i < nchild; i++)
			if (pos[i] < len[i]) {
				list[(*n)++] = buf[start[i] + pos[i]++];
				left--;
			}
	free(start);
	free(buf);
}

static int plan_many(struct pin_topo *pt, int nworkers, struct pin_plan *plan,
		     struct strbuf *err)
{
	hwloc_topology_t t = pt->t;
	int npu = count_type(t, HWLOC_OBJ_PU), n = 0;
	hwloc_obj_t *order;

	if (!npu) {
		cannot(pt, plan->policy, "a PU", err);
		return -1;
	}
	order = xcalloc((size_t)npu, sizeof(*order));
	if (!strcmp(plan->policy, "spread")) {
		spread_order(hwloc_get_root_obj(t), order, &n);
	} else {
		for (n = 0; n < npu; n++)
			order[n] = hwloc_get_obj_by_type(t, HWLOC_OBJ_PU, (unsigned)n);
	}
	assert(n > 0 && n <= npu);	/* the slots below take order[i % n] */
	plan->nslots = nworkers > 0 ? nworkers : n;
	plan->slots = xcalloc((size_t)plan->nslots, sizeof(*plan->slots));
	for (int i = 0; i < plan->nslots; i++)
		slot_set(&plan->slots[i], order[i % n]);
	free(order);
	return 0;
}

/* Say in err that policy (one name) is none, naming those there are. */
static int unknown_policy(const char *policy, struct strbuf *err)
{
	strbuf_addf(err, "unknown pin policy '%s': expected one of ", policy);
	for (const struct pin_policy *q = pin_policies; q->name; q++)
		strbuf_addf(err, "%s%s", q == pin_policies ? "" : "|", q->name);
	return -1;
}

int pin_policies_check(const char *policies, struct strbuf *err)
{
	struct strbuf name = STRBUF_INIT;
	int rc = 0;

	for (const char *p = policies; !rc;) {
		size_t len = strcspn(p, ",");

		strbuf_reset(&name);
		strbuf_add(&name, p, len);
		if (!pin_policy_find(name.buf))
			rc = unknown_policy(name.buf, err);
		if (!p[len])
			break;
		p += len + 1;
	}
	strbuf_release(&name);
	return rc;
}

/* policy (one name) on topo, as pin_plan_compute_on. */
static int compute_one(struct pin_topo *topo, const char *policy,
		       int nworkers, struct pin_plan **out, struct strbuf *err)
{
	const struct pin_policy *pol = pin_policy_find(policy);
	struct pin_plan *plan;
	int rc = 0;

	if (!pol)
		return unknown_policy(policy, err);
	plan = xcalloc(1, sizeof(*plan));
	plan->policy = pol->name;
	plan->kind = pol->kind;
	plan->topo = topo;
	plan->binds = topo_is_this_system(topo);
	if (pol->kind == PIN_TWO)
		rc = plan_two(topo, plan, err);
	else if (pol->kind == PIN_MANY)
		rc = plan_many(topo, nworkers, plan, err);
	if (rc) {
		pin_plan_free(plan);
		return -1;
	}
	*out = plan;
	return 0;
}

/* "; possible here: a, b": the policies of kind that topo allows. */
static void add_possible(struct pin_topo *topo, enum pin_kind kind, int nworkers,
			 struct strbuf *err)
{
	struct strbuf ignored = STRBUF_INIT;
	int n = 0;

	for (const struct pin_policy *pol = pin_policies; pol->name; pol++) {
		struct pin_plan *plan = NULL;

		if (pol->kind != kind && pol->kind != PIN_ANY)
			continue;
		strbuf_reset(&ignored);
		if (compute_one(topo, pol->name, nworkers, &plan, &ignored))
			continue;
		strbuf_addf(err, "%s%s", n++ ? ", " : "; possible here: ", pol->name);
		pin_plan_free(plan);
	}
	strbuf_release(&ignored);
}

/* A policy of a list that was not possible: "'x' needs ..." added to
 * skipped, what the machine has (the same for each) kept in topo_why. */
static void pass_over(struct strbuf *skipped, struct strbuf *why, struct strbuf *topo_why)
{
	static const char prefix[] = "pin policy ";
	const char *p = why->buf, *has = strstr(p, "; this ");

	if (!strncmp(p, prefix, sizeof(prefix) - 1))
		p += sizeof(prefix) - 1;
	strbuf_addf(skipped, "%s%.*s", skipped->len ? ", " : "",
		    (int)(has ? (size_t)(has - p) : strlen(p)), p);
	if (has) {
		strbuf_reset(topo_why);
		strbuf_addstr(topo_why, has);
	}
	strbuf_reset(why);
}

int pin_plan_compute_on(struct pin_topo *topo, const char *policy,
			int nworkers, struct pin_plan **out, struct strbuf *err)
{
	struct strbuf item = STRBUF_INIT, why = STRBUF_INIT;
	struct strbuf skipped = STRBUF_INIT, topo_why = STRBUF_INIT;
	const struct pin_policy *pol = NULL;
	const char *p = policy;
	int rc = -1;

	do {
		size_t len = strcspn(p, ",");

		if (why.len)
			pass_over(&skipped, &why, &topo_why);
		strbuf_reset(&item);
		strbuf_add(&item, p, len);
		p += len;
		strbuf_reset(&why);
		if (!compute_one(topo, item.buf, nworkers, out, &why)) {
			if (skipped.len) {
				strbuf_add(&skipped, topo_why.buf, topo_why.len);
				(*out)->passed_over = strbuf_detach(&skipped);
			}
			rc = 0;
			goto out;
		}
		if (!(pol = pin_policy_find(item.buf))) {
			strbuf_add(err, why.buf, why.len);
			goto out;
		}
	} while (*p && *++p);
	/* Nothing in the list is possible: say why for a single policy, and
	 * name what is possible either way. */
	if (strchr(policy, ',')) {
		strbuf_addf(err, "none of the pin policies '%s' is possible on %s ", policy,
			    topo_is_this_system(topo) ? "this machine" : "this topology");
		strbuf_addch(err, '(');
		pin_topo_describe(topo, err);
		strbuf_addch(err, ')');
	} else {
		strbuf_add(err, why.buf, why.len);
	}
	add_possible(topo, pol->kind, nworkers, err);
out:
	strbuf_release(&item);
	strbuf_release(&why);
	strbuf_release(&skipped);
	strbuf_release(&topo_why);
	return rc;
}

int pin_plan_compute(const char *policy, int nworkers,
		     struct pin_plan **out, struct strbuf *err)
{
	struct pin_topo *topo;

	if (pin_topo_load(NULL, NULL, &topo, err))
		return -1;
	if (pin_plan_compute_on(topo, policy, nworkers, out, err)) {
		pin_topo_free(topo);
		return -1;
	}
	(*out)->owns_topo = 1;
	return 0;
}

void pin_plan_free(struct pin_plan *plan)
{
	if (!plan)
		return;
	if (plan->owns_topo)
		pin_topo_free(plan->topo);
	free(plan->slots);
	free(plan->passed_over);
	free(plan);
}
