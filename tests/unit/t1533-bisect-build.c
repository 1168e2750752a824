/* t1533-bisect-build: the kernel of a commit as kbench bisect builds it,
 * on a git tree whose Makefile has the kernel's targets (defconfig,
 * olddefconfig, bzImage, with O=) and whose scripts/kconfig/
 * merge_config.sh appends fragments: the commit exported (the work tree
 * left as it is), the config file or target, the fragments merged, the
 * image and config kept in the cache under (commit, config hash,
 * compiler), a second build a cache hit, another config another entry,
 * and a build that fails an error with its log's end and no entry. */
#include "config.h"
#include "../tap.h"
#include "runner/bisect_build.h"
#include "lib/strbuf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static char dir[] = "/tmp/t1533-XXXXXX";

static int sh(const char *fmt, const char *arg)
{
	struct strbuf cmd = STRBUF_INIT;
	int rc;

	strbuf_addf(&cmd, fmt, arg, arg, arg, arg);
	rc = system(cmd.buf);
	strbuf_release(&cmd);
	return rc;
}

static char *file_text(const char *path)
{
	struct strbuf sb = STRBUF_INIT;

	if (strbuf_read_file(&sb, path) < 0)
		strbuf_addstr(&sb, "(unreadable)");
	return strbuf_detach(&sb);
}

static char *commit_of(const char *rev)
{
	struct strbuf cmd = STRBUF_INIT;
	char buf[64] = "";
	FILE *f;

	strbuf_addf(&cmd, "git -C %s/tree rev-parse %s", dir, rev);
	f = popen(cmd.buf, "r");
	if (f && fgets(buf, sizeof(buf), f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		pclose(f);
	strbuf_release(&cmd);
	return strdup(buf);
}

int main(void)
{
	struct strbuf tree = STRBUF_INIT, cache = STRBUF_INIT, frag = STRBUF_INIT;
	struct strbuf kconf = STRBUF_INIT, err = STRBUF_INIT, path = STRBUF_INIT;
	struct bisect_kernel k, again, other, bad;
	char *good, *broken, *text;
	const char *frags[1];
	struct stat st;

	if (!mkdtemp(dir)) {
		ok(0, "a scratch directory");
		return 1;
	}
	strbuf_addf(&tree, "%s/tree", dir);
	strbuf_addf(&cache, "%s/cache", dir);
	setenv("KBENCH_KERNEL_CACHE", cache.buf, 1);
	ok(!sh("set -e; git init -q %s/tree; cd %s/tree; mkdir -p scripts/kconfig\n"
	       "printf 'O ?= .\\ndefconfig tinyconfig:\\n\\tmkdir -p $(O) && echo CONFIG_$@=y > $(O)/.config\\n"
	       "olddefconfig:\\n\\techo CONFIG_OLD=y >> $(O)/.config\\n"
	       "bzImage:\\n\\t@test ! -f broken || { echo broken here >&2; exit 2; }\\n"
	       "\\tmkdir -p $(O)/arch/x86/boot && cat kernel $(O)/.config > $(O)/arch/x86/boot/bzImage\\n' > Makefile\n"
	       "printf 'while [ $# -gt 0 ]; do case $1 in -m) shift;; -O) o=$2; shift 2;; *) f=\"$f $1\"; shift;; esac; done\\n"
	       "set -- $f; c=$1; shift; cat \"$@\" >> $c\\n' > scripts/kconfig/merge_config.sh\n"
	       "echo image-1 > kernel; git add -A; git -c user.name=T -c user.email=t@example.org commit -q -m 'one: the kernel'\n"
	       "touch broken; git add -A; git -c user.name=T -c user.email=t@example.org commit -q -m 'two: broken'\n"
	       "echo left > kernel", dir),
	   "a tree of two commits, the second one broken, and a change in its work tree");
	good = commit_of("HEAD~1");
	broken = commit_of("HEAD");
	strbuf_addf(&frag, "%s/frag.config", dir);
	strbuf_addf(&kconf, "%s/my.config", dir);
	ok(!sh("echo CONFIG_FRAGMENT=y > %s/frag.config && echo CONFIG_MINE=y > %s/my.config", dir),
	   "a fragment and a config file");

	{
		struct bisect_build_request r = { .tree = tree.buf, .ref = good };

		ok(!bisect_build(&r, &k, &err), "the default config (defconfig) builds");
		if (err.len)
			diag("%s", err.buf);
	}
	ok(k.image && !stat(k.image, &st) && !strncmp(k.image, cache.buf, cache.len),
	   "the image is in the cache: %s", k.image ? k.image : "(none)");
	text = file_text(k.image);
	ok_text(text, "image-1\nCONFIG_defconfig=y\n",
		"... built from the commit, not the work tree, with its config");
	free(text);
	ok(!k.cache_hit && !strcmp(k.commit, good) && !strcmp(k.subject, "one: the kernel") &&
	   !strcmp(k.author, "T <t@example.org>") && strlen(k.config_hash) == 16 &&
	   *k.compiler && *k.describe,
	   "commit, subject, author, describe, config hash and compiler are said");
	{
		struct bisect_build_request r = { .tree = tree.buf, .ref = good };

		ok(!bisect_build(&r, &again, &err) && again.cache_hit &&
		   !strcmp(again.image, k.image), "built again: a cache hit, the same image");
	}
	frags[0] = frag.buf;
	{
		struct bisect_build_request r = { .tree = tree.buf, .ref = good,
						  .kconfig = kconf.buf, .fragments = frags,
						  .nfragments = 1 };

		ok(!bisect_build(&r, &other, &err) && !other.cache_hit &&
		   strcmp(other.config_hash, k.config_hash) && strcmp(other.image, k.image),
		   "another config: another entry of the cache");
		if (err.len)
			diag("%s", err.buf);
	}
	text = other.image ? file_text(other.image) : strdup("");
	ok_text(text, "image-1\nCONFIG_MINE=y\nCONFIG_OLD=y\nCONFIG_FRAGMENT=y\nCONFIG_OLD=y\n",
		"... the config file, olddefconfig, the fragment merged, olddefconfig");
	free(text);
	strbuf_reset(&err);
	{
		struct bisect_build_request r = { .tree = tree.buf, .ref = broken };

		ok(bisect_build(&r, &bad, &err) == -1, "a commit that does not build: an error");
	}
	ok(strstr(err.buf, "failed: 'make ... bzImage' exited with status 2") &&
	   strstr(err.buf, "\n    broken here"), "... saying which step, with the log's end");
	diag("%s", err.buf);
	strbuf_addf(&path, "%s/%s-", cache.buf, broken);
	ok(sh("ls -d %s*[0-9a-f] 2>/dev/null | grep -q .", path.buf) != 0,
	   "... and no entry of it in the cache");
	ok(sh("ls %s*.failed.log >/dev/null", path.buf) == 0, "... its log kept beside them");
	strbuf_reset(&path);
	strbuf_addf(&path, "%s/tree/kernel", dir);
	text = file_text(path.buf);
	ok_text(text, "left\n", "the work tree is left as it was");
	free(text);
	ok(sh("test -z \"$(ls -a %s | grep '^\\.build-')\"", cache.buf) == 0,
	   "no build directory left behind");

	bisect_kernel_release(&k);
	bisect_kernel_release(&again);
	bisect_kernel_release(&other);
	free(good);
	free(broken);
	sh("rm -rf %s", dir);
	strbuf_release(&tree);
	strbuf_release(&cache);
	strbuf_release(&frag);
	strbuf_release(&kconf);
	strbuf_release(&err);
	strbuf_release(&path);
	done_testing();
	return 0;
}
