/* t2130-work: run_work_differs, the one decision of compare's Warning line
 * and of history's series: asked for other work (options, config text)
 * and a value both runs stored differs; scoped to a section; keys one run
 * lacks do not count; runs with no values stored are told apart by their
 * options alone. Runs of different kinds (native, a guest under TCG or
 * KVM, with icount or not, other vCPUs or memory) always differ, and
 * run_kind_describe names each kind.
 * Covers: compare/work.c */
#include "config.h"
#include "compare/work.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

static const char *const conf = "[s]\nloops = 5\n";
static const char *const conf50 = "[s]\nloops = 50\n";
static const char *const values5 = "s.groups=1\ns.loops=5\nt.loops=7\n";
static const char *const values50 = "s.groups=1\ns.loops=50\nt.loops=7\n";

static const char *const tcg2 = "vm.accel=tcg\nvm.memory_mib=512\nvm.vcpus=2";
static const char *const tcg1 = "vm.accel=tcg\nvm.memory_mib=512\nvm.vcpus=1";
static const char *const icount = "vm.accel=tcg\nvm.icount=3\nvm.memory_mib=512\nvm.vcpus=1";
static const char *const kvm = "vm.accel=kvm\nvm.memory_mib=2048\nvm.vcpus=4";

static void describes(const char *kind, const char *want)
{
	struct strbuf sb = STRBUF_INIT;

	run_kind_describe(kind, &sb);
	ok_text(sb.buf, want, "kind described: %s", want);
	strbuf_release(&sb);
}

static void expect(const struct run_work *a, const struct run_work *b, const char *section,
		   unsigned want, const char *what)
{
	unsigned got = run_work_differs(a, b, section);

	ok(got == want, "%s (got %u, want %u)", what, got, want);
}

int main(void)
{
	const struct run_work plain = { conf, "", values5, NULL, 0 };
	const struct run_work same_override = { conf, "loops=5", values5, NULL, 0 };
	const struct run_work override50 = { conf, "loops=50", values50, NULL, 0 };
	const struct run_work edited50 = { conf50, NULL, values50, NULL, 0 };
	const struct run_work commented = { "# note\n[s]\nloops = 5\n", "", values5, NULL, 0 };
	const struct run_work t_only = { conf, "t.loops=8", "s.groups=1\ns.loops=5\nt.loops=8\n",
					 NULL, 0 };
	const struct run_work lacks_loops = { conf, "loops=6", "s.groups=1\nt.loops=7\n", NULL, 0 };
	const struct run_work old5 = { conf, "loops=5", "", NULL, 0 };
	const struct run_work old50 = { conf, "loops=50", NULL, NULL, 0 };
	const struct run_work old_edited = { conf50, "", "", NULL, 0 };

	expect(&plain, &plain, NULL, 0, "a run against itself: the same work");
	expect(&plain, &same_override, NULL, 0,
	       "an override equal to the config's value changes nothing");
	expect(&plain, &override50, NULL, WORK_OPTIONS, "an override to another value: options");
	expect(&plain, &edited50, NULL, WORK_CONFIG, "a config edited to another value: config");
	expect(&override50, &edited50, NULL, 0,
	       "a config edited to what an override gave changes nothing");
	expect(&same_override, &edited50, NULL, WORK_OPTIONS | WORK_CONFIG,
	       "options and config differ, and a value: both named");
	expect(&plain, &commented, NULL, 0, "a comment edited changes nothing");
	expect(&plain, &t_only, NULL, WORK_OPTIONS, "a value of another section: in any section");
	expect(&plain, &t_only, "s", 0, "... not in section s");
	expect(&plain, &t_only, "t", WORK_OPTIONS, "... in section t");
	expect(&plain, &override50, "t", 0, "section t's values are the same");
	expect(&plain, &lacks_loops, NULL, 0, "a key one run lacks does not count");
	expect(&old5, &old50, NULL, WORK_OPTIONS, "no values stored: the options decide");
	expect(&old5, &override50, NULL, WORK_OPTIONS, "... when one run has none");
	expect(&old5, &old5, NULL, 0, "... the same options: the same work");
	expect(&plain, &old_edited, NULL, 0, "... a config edit alone does not count then");
	expect(&plain, &override50, "u", WORK_OPTIONS,
	       "a section neither run stored: the options decide");

	{
		const struct run_work native = { conf, "", values5, "", 0 };
		const struct run_work guest = { conf, "", values5, tcg2, 0 };
		const struct run_work guest1 = { conf, "", values5, tcg1, 0 };
		const struct run_work guest_ic = { conf, "", values5, icount, 0 };
		const struct run_work guest_kvm = { conf, "", values5, kvm, 0 };
		const struct run_work guest50 = { conf, "loops=50", values50, tcg2, 0 };

		expect(&plain, &native, NULL, 0, "no kind stored is native");
		expect(&native, &guest, NULL, WORK_KIND, "native against a guest: kind");
		expect(&guest, &guest, NULL, 0, "the same guest: the same work");
		expect(&guest, &guest1, NULL, WORK_KIND, "another vCPU count: kind");
		expect(&guest1, &guest_ic, NULL, WORK_KIND, "icount or not: kind");
		expect(&guest, &guest_kvm, "s", WORK_KIND, "KVM against TCG: kind, in any section");
		expect(&native, &guest50, NULL, WORK_KIND | WORK_OPTIONS,
		       "another kind and other options: both named");
		ok(!run_kinds_differ(NULL, ""), "NULL reads as native");
		describes(NULL, "native");
		describes("", "native");
		describes(tcg2, "guest (TCG, 2 vCPUs, 512 MiB)");
		describes(icount, "guest (TCG icount shift 3, 1 vCPU, 512 MiB)");
		describes(kvm, "guest (KVM, 4 vCPUs, 2048 MiB)");
	}
	return done_testing();
}
