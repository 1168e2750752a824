/* t1533-bisect-settings: a stopped bisection's stored settings read back
 * when it is resumed (settings_read, static in bisect/bisect_run.c, seen
 * through bisect_resume, the public function that calls it). Settings as
 * kbench bisect writes them, and none at all (the defaults), are read and
 * the resume goes on to the bisection's commits; a line without a value,
 * a key this kbench does not know and each value out of its key's range
 * refuse the resume, naming the bisection, the key and the value, before
 * anything is built, booted or stored. The bisections are recorded by a
 * child process that has exited, as a stopped kbench bisect leaves them;
 * their commits are left out, so that a resume whose settings were read
 * stops at them.
 * The table of settings itself (bisect/bisect_settings.h) is checked
 * first: its defaults (those of kernel/vm.h for the guests), settings
 * written and read back into the same values and the same text, and a
 * value out of its range refused, naming its key.
 * Covers: bisect/bisect_run.c bisect/bisect_settings.c db/bisect.c */
#include "config.h"
#include "db/bisect.h"
#include "db/store.h"
#include "bisect/bisect_run.h"
#include "bisect/bisect_settings.h"
#include "kernel/vm.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define GOOD "1111111111111111111111111111111111111111"
#define BAD "2222222222222222222222222222222222222222"

static char db[96], dir[] = "t1533.XXXXXX";

/* Whether lists a and b hold the same words. */
static int same_list(const struct argv_list *a, const struct argv_list *b)
{
	if (a->n != b->n)
		return 0;
	for (size_t i = 0; i < a->n; i++)
		if (strcmp(a->v[i], b->v[i]))
			return 0;
	return 1;
}

static int same_string(const char *a, const char *b)
{
	return a && b ? !strcmp(a, b) : a == b;
}

static void table_defaults(void)
{
	const struct vm_config vc = VM_CONFIG_INIT;
	struct bisect_settings s;
	struct strbuf out = STRBUF_INIT, off = STRBUF_INIT;

	bisect_settings_init(&s);
	ok(s.rounds == BISECT_DEFAULT_ROUNDS && s.max_rounds == BISECT_DEFAULT_MAX_ROUNDS &&
	   s.threshold_pct == BISECT_DEFAULT_THRESHOLD, "defaults: rounds %d, max-rounds %d, "
	   "threshold %g", s.rounds, s.max_rounds, s.threshold_pct);
	ok(s.vcpus == vc.vcpus && s.mem_mib == vc.mem_mib && !strcmp(s.accel, vc.accel) &&
	   s.boot_timeout_s == vc.boot_timeout_s && s.icount_shift == vc.icount_shift,
	   "defaults: the guests' are kernel/vm.h's");
	ok(!s.row && !s.only && !s.kconfig && !s.guest_fragment && !s.cache_dir && !s.append &&
	   !s.jobs && !s.build_timeout_s && !s.configs.n && !s.fragments.n,
	   "defaults: nothing else set");
	bisect_settings_write(&s, &out);
	ok_text(out.buf, "rounds=6\nmax-rounds=12\nthreshold=5\nvcpus=2\nmemory=512\naccel=auto\n"
	   "boot-timeout=60\n", "defaults: what is always written");
	for (size_t i = 0; i < bisect_settings_count; i++) {
		const struct bisect_setting *d = &bisect_settings_table[i];

		if (!bisect_setting_is_default(&s, d) || bisect_setting_find(d->key) != d)
			strbuf_addf(&off, " %s", d->key);
	}
	ok(!off.len, "defaults: every setting is at its default, found by its key (not:%s)",
	   off.buf);
	strbuf_release(&off);
	strbuf_release(&out);
	bisect_settings_release(&s);
}

static void table_round_trip(void)
{
	struct bisect_settings s, r;
	struct strbuf out = STRBUF_INIT, again = STRBUF_INIT, err = STRBUF_INIT;
	char frag[128];
	FILE *f;

	snprintf(frag, sizeof(frag), "%s/a.config", dir);
	f = fopen(frag, "w");
	if (f) {
		fputs("CONFIG_A=y\r\nCONFIG_B=\"x\\y\"\n", f);
		fclose(f);
	}
	bisect_settings_init(&s);
	argv_list_push(&s.configs, "/c/hb.conf");
	argv_list_push(&s.configs, "/c/more.conf");
	s.rounds = 4;
	s.max_rounds = 20;
	s.threshold_pct = 2.5;
	s.row = strdup("hb/1");
	argv_list_push(&s.overrides, "loops=20");
	argv_list_push(&s.overrides, "hb.groups=2");
	s.only = strdup("^hb");
	s.kconfig = strdup("tinyconfig");
	argv_list_push(&s.fragments, frag);
	argv_list_push(&s.fragments, "/gone/b.config");
	s.guest_fragment = strdup("/k/guest.config");
	s.cache_dir = strdup("/var/cache/k");
	s.jobs = 2;
	s.build_timeout_s = 600;
	s.vcpus = 1;
	s.mem_mib = 1024;
	free(s.accel);
	s.accel = strdup("tcg");
	s.append = strdup("quiet mitigations=off");
	s.icount_shift = 3;
	s.boot_timeout_s = 90.5;
	bisect_settings_write(&s, &out);
	strbuf_addf(&again, "config=/c/hb.conf\nconfig=/c/more.conf\nrounds=4\nmax-rounds=20\n"
		    "threshold=2.5\nrow=hb/1\noverride=loops=20\noverride=hb.groups=2\n"
		    "only=^hb\nkconfig=tinyconfig\nfragment=%s\n"
		    "fragment-text=CONFIG_A=y\\nCONFIG_B=\"x\\\\y\"\\n\n"
		    "fragment=/gone/b.config\nguest-fragment=/k/guest.config\n"
		    "cache=/var/cache/k\njobs=2\nbuild-timeout=600\nvcpus=1\nmemory=1024\n"
		    "accel=tcg\nappend=quiet mitigations=off\nicount=3\nboot-timeout=90.5\n",
		    frag);
	ok_text(out.buf, again.buf, "written: every setting, a fragment's text after it");
	bisect_settings_init(&r);
	ok(!bisect_settings_read(&r, out.buf, &err), "read back without an error: '%s'", err.buf);
	ok(same_list(&r.configs, &s.configs) && r.rounds == s.rounds &&
	   r.max_rounds == s.max_rounds && r.threshold_pct == s.threshold_pct &&
	   same_string(r.row, s.row) && same_list(&r.overrides, &s.overrides) &&
	   same_string(r.only, s.only) && same_string(r.kconfig, s.kconfig) &&
	   same_list(&r.fragments, &s.fragments) &&
	   same_string(r.guest_fragment, s.guest_fragment) &&
	   same_string(r.cache_dir, s.cache_dir) && r.jobs == s.jobs &&
	   r.build_timeout_s == s.build_timeout_s && r.vcpus == s.vcpus &&
	   r.mem_mib == s.mem_mib && same_string(r.accel, s.accel) &&
	   same_string(r.append, s.append) && r.icount_shift == s.icount_shift &&
	   r.boot_timeout_s == s.boot_timeout_s, "read back: the same settings");
	ok(r.fragment_texts.n == 1 &&
	   !strcmp(r.fragment_texts.v[0], "CONFIG_A=y\\nCONFIG_B=\"x\\\\y\"\\n"),
	   "read back: the fragment's text, as stored");
	strbuf_reset(&again);
	bisect_settings_write(&r, &again);
	ok_text(again.buf, out.buf, "written again: the same text");
	unlink(frag);
	strbuf_release(&out);
	strbuf_release(&again);
	strbuf_release(&err);
	bisect_settings_release(&s);
	bisect_settings_release(&r);
}

/* Reading text fails with err holding want, the settings read before
 * and after it kept. */
static void table_refuses(const char *text, const char *want)
{
	struct bisect_settings s;
	struct strbuf err = STRBUF_INIT;
	int rc;

	bisect_settings_init(&s);
	rc = bisect_settings_read(&s, text, &err);
	ok(rc == -1 && !strcmp(err.buf, want), "table refuses: %s", err.buf);
	bisect_settings_release(&s);
	strbuf_release(&err);
}

/* A bisection with these settings, recorded by a child that then exits:
 * its id, or -1. */
static int64_t stored(const char *settings)
{
	int fds[2];
	int64_t id = -1;
	pid_t pid;

	if (pipe(fds))
		return -1;
	pid = fork();
	if (pid == 0) {
		struct bisect_record r = { .uuid = NULL, .tree = dir, .good = GOOD, .bad = BAD,
					   .good_ref = "v1", .bad_ref = "v2",
					   .config_name = "hb",
					   .config_text = "[hackbench-process-pipes]\nloops = 10\n",
					   .settings = settings, .command = "kbench bisect",
					   .started_at = "2026-12-01T00:00:00Z" };
		struct store *s;
		char uuid[37];

		snprintf(uuid, sizeof(uuid), "dddddddd-0000-4000-8000-%012d", (int)getpid());
		r.uuid = uuid;
		if (store_open(db, &s) || store_begin_bisect(s, &r, &id))
			id = -1;
		store_close(s);
		if (write(fds[1], &id, sizeof(id)) != sizeof(id))
			_exit(1);
		_exit(0);
	}
	close(fds[1]);
	if (pid < 0 || read(fds[0], &id, sizeof(id)) != sizeof(id))
		id = -1;
	close(fds[0]);
	waitpid(pid, NULL, 0);
	return id;
}

/* bisect_resume of a bisection stored with settings: its status, its
 * stderr in err. */
static int resume(const char *settings, int64_t *id, struct strbuf *err)
{
	struct store *s;
	FILE *tmp = tmpfile();
	int saved, rc = -2;
	char buf[1024];
	size_t n;

	strbuf_reset(err);
	*id = stored(settings);
	if (*id < 0 || store_open(db, &s))
		return -2;
	saved = dup(2);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	rc = bisect_resume(s, *id);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	store_close(s);
	rewind(tmp);
	while ((n = fread(buf, 1, sizeof(buf), tmp)))
		strbuf_add(err, buf, n);
	fclose(tmp);
	strbuf_rtrim(err);
	return rc;
}

/* The settings were read: the resume stopped at the missing commits. */
static void read_back(const char *what, const char *settings)
{
	struct strbuf err = STRBUF_INIT, want = STRBUF_INIT;
	int64_t id;
	int rc = resume(settings, &id, &err);

	strbuf_addf(&want, "bisection @%lld: its stored commits do not run from %s to %s",
		    (long long)id, GOOD, BAD);
	ok(rc == -1 && strstr(err.buf, want.buf) && !strstr(err.buf, "setting"),
	   "%s: read, the resume goes on to the commits (rc %d): %s", what, rc, err.buf);
	strbuf_release(&err);
	strbuf_release(&want);
}

/* The settings refuse the resume with the message want (after
 * "bisection @ID: "). */
static void refused(const char *settings, const char *want)
{
	struct strbuf err = STRBUF_INIT, w = STRBUF_INIT, shown = STRBUF_INIT;
	struct bisect_info x;
	struct store *s;
	int64_t id;
	int rc = resume(settings, &id, &err), steps = -1, stopped = 0;

	for (const char *p = settings; *p; p++)
		if (*p == '\n')
			strbuf_addstr(&shown, "\\n");
		else
			strbuf_addch(&shown, *p);
	strbuf_addf(&w, "bisection @%lld: %s", (long long)id, want);
	ok(rc == -1 && strstr(err.buf, w.buf), "'%s' refused: %s", shown.buf, err.buf);
	if (!store_open(db, &s)) {
		if (!store_get_bisect(s, id, &x)) {
			steps = x.steps;
			stopped = !x.alive && !strcmp(x.status, "interrupted");
			bisect_info_release(&x);
		}
		store_close(s);
	}
	ok(steps == 0 && stopped, "  and it is left stopped, without a step (%d steps)", steps);
	strbuf_release(&err);
	strbuf_release(&w);
	strbuf_release(&shown);
}

int main(void)
{
	if (!mkdtemp(dir))
		return 1;
	snprintf(db, sizeof(db), "%s/k.db", dir);

	table_defaults();
	table_round_trip();
	table_refuses("rounds=4\njobs=0\nvcpus=3\n",
		      "the stored setting jobs = '0' is not one this kbench reads");
	table_refuses("colour=red", "the stored setting colour = 'red' is not one this kbench "
		      "reads");
	table_refuses("memory", "a stored setting 'memory' has no value");
	table_refuses("boot-timeout=0\nicount=11",
		      "the stored setting boot-timeout = '0' is not one this kbench reads");

	read_back("no settings (the defaults)", "");
	read_back("every setting kbench bisect writes",
		  "config=hb.conf\nrounds=4\nmax-rounds=12\nthreshold=2.5\nrow=hb/1\n"
		  "kconfig=tinyconfig\nfragment=a.config\nfragment=b.config\n"
		  "guest-fragment=guest.config\ncache=/var/cache/k\njobs=2\nbuild-timeout=600\n"
		  "vcpus=2\nmemory=512\naccel=tcg\nappend=quiet\nicount=3\nboot-timeout=300\n");
	read_back("the bounds of each range",
		  "rounds=3\nmax-rounds=1000\nthreshold=0\njobs=4096\nvcpus=288\nmemory=64\n"
		  "icount=0\nicount=10\n");

	refused("rounds", "a stored setting 'rounds' has no value");
	refused("colour=red", "the stored setting colour = 'red' is not one this kbench reads");
	refused("rounds=2", "the stored setting rounds = '2' is not one");
	refused("rounds=1001", "the stored setting rounds = '1001' is not one");
	refused("max-rounds=six", "the stored setting max-rounds = 'six' is not one");
	refused("threshold=-1", "the stored setting threshold = '-1' is not one");
	refused("threshold=5%", "the stored setting threshold = '5%' is not one");
	refused("jobs=0", "the stored setting jobs = '0' is not one");
	refused("build-timeout=1h", "the stored setting build-timeout = '1h' is not one");
	refused("vcpus=289", "the stored setting vcpus = '289' is not one");
	refused("memory=63", "the stored setting memory = '63' is not one");
	refused("boot-timeout=0", "the stored setting boot-timeout = '0' is not one");
	refused("icount=11", "the stored setting icount = '11' is not one");
	refused("rounds=4\nvcpus=2\njobs=-3\n", "the stored setting jobs = '-3' is not one");

	unlink(db);
	rmdir(dir);
	return done_testing();
}
