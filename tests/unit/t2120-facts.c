/* t2120-facts: the facts of a comparison's header: the cksum of a config
 * (as cksum(1) prints it), the kernel parameters that changed, the config
 * lines that differ named by section, and a CPU model's blanks.
 * Covers: compare/facts.c compare/render_facts.c */
#include "config.h"
#include "compare/facts.h"
#include "lib/strbuf.h"
#include "tests/tap.h"

#include <string.h>

static void check_text(const struct strbuf *got, const char *want, const char *what)
{
	ok_text(got->buf, want, "%s", what);
}

static void cmdline(const char *a, const char *b, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;

	facts_cmdline_diff(a, b, &sb);
	check_text(&sb, want, what);
	strbuf_release(&sb);
}

/* facts_config_value of key order in section hb of text: want, or none. */
static void config_value(const char *text, const char *want, const char *what)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = facts_config_value(text, "hb", "order", &sb);

	ok(want ? !rc && !strcmp(sb.buf, want) : rc && !sb.len, "%s: '%s'", what, sb.buf);
	strbuf_release(&sb);
}

int main(void)
{
	struct strbuf sb = STRBUF_INIT;
	size_t n;

	/* printf '[a]\nloops = 10\n' | cksum: 1644355751 15 */
	ok(facts_cksum("[a]\nloops = 10\n", 15) == 1644355751u, "cksum of a config text");
	/* printf '' | cksum: 4294967295 0 */
	ok(facts_cksum("", 0) == 4294967295u, "cksum of nothing");

	cmdline("ro quiet", "quiet ro", "", "the same parameters in another order: no change");
	cmdline("ro -- --addr 0.0.0.0:2024", "ro", "-'-- --addr 0.0.0.0:2024'",
		"init's arguments after -- are one word, quoted after its mark");
	cmdline("ro -- --x", "ro -- --y", "-'-- --x' +'-- --y'",
		"init's arguments changed: the old and the new");
	cmdline("ro -- a", "ro -- a  ", "", "init's arguments the same but for blanks at the ends");
	cmdline("ro", "ro -x +y", "+'-x' +'+y'", "a word starting with a mark is quoted");
	cmdline("ro quiet mem=4G", "ro mem=8G mitigations=off",
		"-quiet mem=4G->8G +mitigations=off", "removed, changed and added parameters");
	cmdline("console=tty0 console=ttyS0", "console=tty0",
		"-console=ttyS0", "a parameter given twice: compared word by word");
	cmdline("init=\"/bin/sh -c x\" ro", "init=\"/bin/sh -c y\" ro",
		"init=\"/bin/sh -c x\"->\"/bin/sh -c y\"", "a quoted value with blanks is one word");

	n = facts_config_diff("[global]\niterations = 3\n# a comment\n\n[hb]\ngroups = 1 4\n",
			      "[global]\niterations = 5\n\n[hb]\ngroups = 1 4\n[pft]\nworkers = 2\n",
			      10, &sb);
	check_text(&sb, "-[global] iterations = 3\n+[global] iterations = 5\n+[pft]\n"
		   "+[pft] workers = 2\n",
		   "config lines that differ, named by their section; comments left out");
	ok(n == 4, "... 4 of them (%zu)", n);
	strbuf_reset(&sb);
	n = facts_config_diff("[a]\nx = 1\ny = 2\nz = 3\n", "[a]\nx = 9\ny = 9\nz = 9\n", 2, &sb);
	check_text(&sb, "-[a] x = 1\n-[a] y = 2\n... and 4 more\n",
		   "at most max_lines lines, then how many more");
	strbuf_reset(&sb);
	n = facts_config_diff("[a]\n# one\nx = 1\n", "[a]\n# two\nx = 1\n", 10, &sb);
	ok(n == 0 && !sb.len, "texts that differ in comments only have no line to show");

	strbuf_reset(&sb);
	config_value("[global]\norder = numeric\n[hb]\norder=config\n", "config",
		     "a section's own value wins over [global]'s");
	config_value("[global]\norder = config\n[hb]\ngroups = 1\n", "config",
		     "... else [global]'s counts");
	config_value("[hb]\norders = config\n[pft]\norder = config\n", NULL,
		     "another key or another section's does not");
	strbuf_reset(&sb);
	facts_cpu_model("  AMD EPYC 7713 64-Core Processor             ", &sb);
	check_text(&sb, "AMD EPYC 7713 64-Core Processor", "a CPU model's blanks trimmed");
	strbuf_reset(&sb);
	facts_cpu_model("Intel(R)  Xeon(R)\tGold", &sb);
	check_text(&sb, "Intel(R) Xeon(R) Gold", "... and its runs of blanks made one");
	strbuf_release(&sb);
	return done_testing();
}
