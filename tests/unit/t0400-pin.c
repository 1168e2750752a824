/* t0400-pin: pin policies computed on synthetic and XML topologies of large
 * machines (where binding is a no-op, so the computed PUs are checked),
 * and real binding on this machine (the bound child's sched_getcpu()).
 * Covers: machine/pin.c machine/bind.c */
#include "config.h"
#include "machine/pin.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define BIG "pack:2 numa:2 l3:2 core:8 pu:2"

static const char *srcdir(void)
{
	const char *s = getenv("srcdir");

	return s ? s : ".";
}

/* The plan's slots as "P#a P#b ..." (first n). */
static void slots_str(const struct pin_plan *p, int n, struct strbuf *out)
{
	strbuf_reset(out);
	for (int i = 0; i < n && i < p->nslots; i++)
		strbuf_addf(out, "%s%d", i ? " " : "", p->slots[i].os_index);
}

static void expect_pair(struct pin_topo *t, const char *policy, int a, int b,
			const char *what)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct pin_plan *p = NULL;
	char want[64];

	snprintf(want, sizeof(want), "%d %d", a, b);
	if (pin_plan_compute_on(t, policy, 0, &p, &err)) {
		ok(0, "%s: %s picks %s (error: %s)", what, policy, want, err.buf);
	} else {
		slots_str(p, 2, &got);
		ok(p->nslots == 2 && !strcmp(got.buf, want),
		       "%s: %s picks P#%s (got %s)", what, policy, want, got.buf);
	}
	pin_plan_free(p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void expect_error(struct pin_topo *t, const char *policy, const char *msg,
			 const char *what)
{
	struct strbuf err = STRBUF_INIT;
	struct pin_plan *p = NULL;
	int rc = pin_plan_compute_on(t, policy, 0, &p, &err);

	ok(rc == -1 && !p && !strcmp(err.buf, msg), "%s: %s refused: '%s'",
	       what, policy, err.buf);
	pin_plan_free(p);
	strbuf_release(&err);
}

static void expect_many(struct pin_topo *t, const char *policy, int n,
			const char *want, const char *what)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct pin_plan *p = NULL;

	if (pin_plan_compute_on(t, policy, n, &p, &err)) {
		ok(0, "%s: %s(%d): %s", what, policy, n, err.buf);
	} else {
		slots_str(p, p->nslots, &got);
		ok(!strcmp(got.buf, want), "%s: %s with %d workers is '%s' (got '%s')",
		       what, policy, n, want, got.buf);
	}
	pin_plan_free(p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static struct pin_topo *load(const char *synthetic, const char *xml);

/* policy, a preference list, picks used on t and says why it passed over
 * the policies before it (want; NULL: it passed over none). */
static void expect_passed_over(struct pin_topo *t, const char *policy, const char *used,
			       const char *want)
{
	struct strbuf err = STRBUF_INIT;
	struct pin_plan *p = NULL;

	if (pin_plan_compute_on(t, policy, 0, &p, &err)) {
		ok(0, "%s: %s (error: %s)", policy, used, err.buf);
	} else {
		const char *got = p->passed_over ? p->passed_over : "(none)";

		ok(!strcmp(p->policy, used) && !strcmp(got, want ? want : "(none)"),
		   "%s uses %s (got %s), passing over: %s", policy, used, p->policy, got);
	}
	pin_plan_free(p);
	strbuf_release(&err);
}

/* A list that falls back says which policies it passed over and why. */
static void check_passed_over(void)
{
	struct pin_topo *t = load("pack:1 l3:2 core:1 pu:1", NULL);

	if (!t) {
		ok(0, "load the two-LLC topology");
		return;
	}
	expect_passed_over(t, "cross-llc,cross-core", "cross-llc", NULL);
	expect_passed_over(t, "cross-core,cross-llc", "cross-llc",
			   "'cross-core' needs two cores sharing a last-level cache; this "
			   "topology has 1 package, 1 NUMA node, 2 LLCs (L3), 2 cores, 2 PUs");
	expect_passed_over(t, "cross-socket,cross-ht,same-pu", "same-pu",
			   "'cross-socket' needs two packages, 'cross-ht' needs a core with "
			   "two PUs (SMT); this topology has 1 package, 1 NUMA node, 2 LLCs "
			   "(L3), 2 cores, 2 PUs");
	pin_topo_free(t);
}

static struct pin_topo *load(const char *synthetic, const char *xml)
{
	struct strbuf err = STRBUF_INIT, path = STRBUF_INIT;
	struct pin_topo *t = NULL;

	if (xml)
		strbuf_addf(&path, "%s/tests/data/%s", srcdir(), xml);
	if (pin_topo_load(synthetic, xml ? path.buf : NULL, &t, &err))
		diag("cannot load %s: %s", synthetic ? synthetic : xml, err.buf);
	strbuf_release(&err);
	strbuf_release(&path);
	return t;
}

/* Two packages, two NUMA nodes each, two L3s per node, 8 SMT-2 cores per
 * L3: 128 PUs numbered in logical order. */
static void check_big(struct pin_topo *t, const char *what)
{
	struct strbuf err = STRBUF_INIT, got = STRBUF_INIT;
	struct pin_plan *p = NULL;
	int good = 1;

	expect_pair(t, "same-pu", 0, 0, what);
	expect_pair(t, "cross-ht", 0, 1, what);
	expect_pair(t, "cross-core", 0, 2, what);
	expect_pair(t, "cross-llc", 0, 16, what);
	expect_pair(t, "cross-node", 0, 32, what);
	expect_pair(t, "cross-socket", 0, 64, what);
	expect_many(t, "spread", 9, "0 64 32 96 16 80 48 112 2", what);
	expect_many(t, "compact", 5, "0 1 2 3 4", what);
	/* The first 64 spread slots are the 64 cores, one PU each. */
	if (pin_plan_compute_on(t, "spread", 0, &p, &err)) {
		ok(0, "%s: spread: %s", what, err.buf);
	} else {
		char seen[128] = { 0 };

		for (int i = 0; i < 64; i++) {
			int c = p->slots[i].os_index;

			if (c < 0 || c >= 128 || c % 2 || seen[c]++)
				good = 0;
		}
		for (int i = 64; i < 128; i++) {
			int c = p->slots[i].os_index;

			if (c < 0 || c >= 128 || !(c % 2) || seen[c]++)
				good = 0;
		}
		ok(p->nslots == 128 && good,
		       "%s: spread covers every core once before any SMT sibling", what);
	}
	pin_plan_free(p);
	strbuf_release(&err);
	strbuf_release(&got);
}

static void check_small_synthetic(void)
{
	struct pin_topo *t = load("pack:1 core:2 pu:1", NULL);
	const char *w = "pack:1 core:2 pu:1";

	if (!t) {
		ok(0, "load %s", w);
		return;
	}
	expect_pair(t, "same-pu", 0, 0, w);
	expect_pair(t, "cross-core", 0, 1, w);
	expect_error(t, "cross-ht", "pin policy 'cross-ht' needs a core with two PUs "
		     "(SMT); this topology has 1 package, 1 NUMA node, no cache "
		     "information, 2 cores, 2 PUs"
		     "; possible here: unbound, same-pu, cross-core", w);
	expect_error(t, "cross-llc", "pin policy 'cross-llc' needs two last-level "
		     "caches; this topology has 1 package, 1 NUMA node, no cache "
		     "information, 2 cores, 2 PUs"
		     "; possible here: unbound, same-pu, cross-core", w);
	expect_error(t, "cross-node", "pin policy 'cross-node' needs two NUMA nodes; "
		     "this topology has 1 package, 1 NUMA node, no cache information, "
		     "2 cores, 2 PUs"
		     "; possible here: unbound, same-pu, cross-core", w);
	expect_error(t, "cross-socket", "pin policy 'cross-socket' needs two packages; "
		     "this topology has 1 package, 1 NUMA node, no cache information, "
		     "2 cores, 2 PUs"
		     "; possible here: unbound, same-pu, cross-core", w);
	expect_error(t, "sideways", "unknown pin policy 'sideways': expected one of "
		     PIN_CHOICES_TWO "|spread|compact", w);
	expect_many(t, "spread", 5, "0 1 0 1 0", w);
	pin_topo_free(t);
}

/* SMT siblings numbered n and n+16, as on many Intel servers: the pair
 * must come from the tree, not from CPU numbers. */
static void check_intel_numbering(void)
{
	const char *w = "pack:2 core:8 pu:2 (siblings n, n+16)";
	struct pin_topo *t = load("pack:2 core:8 pu:2(indexes=2*16:16*1)", NULL);

	if (!t) {
		ok(0, "load %s", w);
		return;
	}
	expect_pair(t, "cross-ht", 0, 16, w);
	expect_pair(t, "cross-core", 0, 1, w);
	expect_pair(t, "cross-socket", 0, 8, w);
	expect_many(t, "compact", 4, "0 16 1 17", w);
	expect_many(t, "spread", 4, "0 8 1 9", w);
	pin_topo_free(t);
}

/* One package, one node, four L3s (a chiplet design). */
static void check_chiplets(void)
{
	const char *w = "topo-1pack-4llc-32pu.xml";
	struct pin_topo *t = load(NULL, w);
	struct strbuf d = STRBUF_INIT;

	if (!t) {
		ok(0, "load %s", w);
		return;
	}
	pin_topo_describe(t, &d);
	ok(!strcmp(d.buf, "1 package, 1 NUMA node, 4 LLCs (L3), 16 cores, 32 PUs"),
	       "%s: described as '%s'", w, d.buf);
	expect_pair(t, "cross-core", 0, 2, w);
	expect_pair(t, "cross-llc", 0, 8, w);
	expect_error(t, "cross-node", "pin policy 'cross-node' needs two NUMA nodes; "
		     "this topology has 1 package, 1 NUMA node, 4 LLCs (L3), "
		     "16 cores, 32 PUs; possible here: unbound, same-pu, cross-ht, "
		     "cross-core, cross-llc", w);
	expect_many(t, "spread", 6, "0 8 16 24 2 10", w);
	strbuf_release(&d);
	pin_topo_free(t);
}

static void check_describe(struct pin_topo *t)
{
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;
	struct pin_plan *p = NULL;

	if (!pin_plan_compute_on(t, "cross-llc", 0, &p, &err))
		pin_plan_describe(p, &d);
	ok(!strcmp(d.buf, "cross-llc: server P#0 (L#0), client P#16 (L#16)"),
	       "describe a two-party plan: '%s'", d.buf);
	pin_plan_free(p);
	p = NULL;
	strbuf_reset(&d);
	if (!pin_plan_compute_on(t, "compact", 3, &p, &err))
		pin_plan_describe(p, &d);
	ok(!strcmp(d.buf, "compact: P#0 P#1 P#2"), "describe a worker plan: '%s'", d.buf);
	pin_plan_free(p);
	p = NULL;
	strbuf_reset(&d);
	if (!pin_plan_compute_on(t, "unbound", 0, &p, &err))
		pin_plan_describe(p, &d);
	ok(p && p->nslots == 0 && pin_plan_cpu(p, 0) == -1 && !strcmp(d.buf, "unbound"),
	       "unbound is a plan without slots: '%s'", d.buf);
	pin_plan_free(p);
	strbuf_release(&err);
	strbuf_release(&d);
}

static void check_choices(void)
{
	struct strbuf two = STRBUF_INIT, many = STRBUF_INIT;

	for (const struct pin_policy *p = pin_policies; p->name; p++) {
		if (p->kind != PIN_MANY)
			strbuf_addf(&two, "%s%s", two.len ? "|" : "", p->name);
		if (p->kind != PIN_TWO)
			strbuf_addf(&many, "%s%s", many.len ? "|" : "", p->name);
	}
	ok(!strcmp(two.buf, PIN_CHOICES_TWO) && !strcmp(many.buf, PIN_CHOICES_MANY),
	       "PIN_CHOICES_* match the policy table (%s; %s)", two.buf, many.buf);
	strbuf_release(&two);
	strbuf_release(&many);
}

/* Fork, bind the child to slot, spin until it has been scheduled there,
 * and report sched_getcpu() and the affinity mask size through the exit
 * status. */
static int child_cpu(const struct pin_plan *p, int slot, int *nallowed)
{
	int st, fds[2], res[2] = { -1, -1 };
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (!pid) {
		struct strbuf err = STRBUF_INIT;
		cpu_set_t set;

		close(fds[0]);
		if (pin_apply(p, slot, &err) == 0) {
			sched_yield();
			res[0] = sched_getcpu();
			if (!sched_getaffinity(0, sizeof(set), &set))
				res[1] = CPU_COUNT(&set);
		}
		if (write(fds[1], res, sizeof(res)) != sizeof(res))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (read(fds[0], res, sizeof(res)) != sizeof(res))
		res[0] = -1;
	close(fds[0]);
	waitpid(pid, &st, 0);
	*nallowed = res[1];
	return res[0];
}

static void check_real_binding(void)
{
	struct strbuf err = STRBUF_INIT, d = STRBUF_INIT;
	static const char *const policies[] = { "same-pu", "cross-ht", "cross-core",
		"cross-llc", "cross-node", "cross-socket", "spread", "compact", NULL };

	for (int i = 0; policies[i]; i++) {
		struct pin_plan *p = NULL;

		strbuf_reset(&err);
		if (pin_plan_compute(policies[i], 0, &p, &err)) {
			strbuf_reset(&d);
			strbuf_addf(&d, "this machine: %s", err.buf);
			skip(d.buf);
			continue;
		}
		for (int s = 0; s < p->nslots && s < 4; s++) {
			int n = 0, cpu = child_cpu(p, s, &n);

			ok(cpu == p->slots[s].os_index && n == 1,
			       "this machine: %s slot %d bound to CPU %d (child runs on %d, "
			       "%d allowed)", policies[i], s, p->slots[s].os_index, cpu, n);
		}
		pin_plan_free(p);
	}
	strbuf_release(&err);
	strbuf_release(&d);
}

int main(void)
{
	struct pin_topo *t;

	check_choices();
	t = load(BIG, NULL);
	if (t) {
		check_big(t, "synthetic " BIG);
		check_describe(t);
		pin_topo_free(t);
	} else {
		ok(0, "load synthetic " BIG);
	}
	t = load(NULL, "topo-2pack-4node-8llc-128pu.xml");
	if (t) {
		struct strbuf d = STRBUF_INIT;

		pin_topo_describe(t, &d);
		ok(!strcmp(d.buf, "2 packages, 4 NUMA nodes, 8 LLCs (L3), 64 cores, 128 PUs"),
		       "XML topology described as '%s'", d.buf);
		strbuf_release(&d);
		check_big(t, "XML " BIG);
		pin_topo_free(t);
	} else {
		ok(0, "load XML topology");
	}
	check_small_synthetic();
	check_passed_over();
	check_intel_numbering();
	check_chiplets();
	check_real_binding();
	return done_testing();
}
