/* kmod: modules asked for by name, and what they depend on, from a
 * modules tree (see kmod.h). */
#include "config.h"
#include "kernel/kmod.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Deeper than any kernel's modules tree (kernel/drivers/net/ethernet/x/y). */
#define KMOD_MAX_DEPTH 12
/* A module's .modinfo is a few KiB; a larger one is not a module's. */
#define KMOD_MAX_MODINFO (1 << 20)

struct entry {
	char *name;
	char *rel;	/* path below the release directory */
	int compressed;
	int state;	/* 0 not visited, 1 being visited, 2 in the set */
};

struct tree {
	const char *root;
	struct entry *e;
	size_t n, alloc;
	struct strbuf dep;	/* modules.dep, when the tree has one */
	int has_dep;
};

static int exists(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	int ok;

	strbuf_addf(&p, "%s/%s", dir, name);
	ok = !access(p.buf, F_OK);
	strbuf_release(&p);
	return ok;
}

static int is_release_dir(const char *dir)
{
	return exists(dir, "modules.order") || exists(dir, "modules.dep") ||
	       exists(dir, "kernel");
}

/* The one release directory below parent, into out; the count found. */
static int one_release_below(const char *parent, struct strbuf *out)
{
	DIR *d = opendir(parent);
	struct dirent *e;
	struct strbuf p = STRBUF_INIT;
	int found = 0;

	while (d && (e = readdir(d))) {
		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&p);
		strbuf_addf(&p, "%s/%s", parent, e->d_name);
		if (path_is_dir(p.buf) && is_release_dir(p.buf) && !found++) {
			strbuf_reset(out);
			strbuf_addstr(out, p.buf);
		}
	}
	if (d)
		closedir(d);
	strbuf_release(&p);
	return found;
}

static int find_release_dir(const char *dir, struct strbuf *out, struct strbuf *err)
{
	struct strbuf lm = STRBUF_INIT;
	int n = 0;

	if (!path_is_dir(dir)) {
		strbuf_addf(err, "'%s' is not a directory: --modules takes a modules tree", dir);
		return -1;
	}
	if (is_release_dir(dir)) {
		strbuf_addstr(out, dir);
		return 0;
	}
	strbuf_addf(&lm, "%s/lib/modules", dir);
	if (path_is_dir(lm.buf))
		n = one_release_below(lm.buf, out);
	else
		n = one_release_below(dir, out);
	if (n == 1) {
		strbuf_release(&lm);
		return 0;
	}
	if (n > 1)
		strbuf_addf(err, "'%s' holds modules for %d kernel releases: name one "
			    "(DIR/lib/modules/RELEASE)", path_is_dir(lm.buf) ? lm.buf : dir, n);
	else
		strbuf_addf(err, "'%s' holds no kernel modules: expected a release directory "
			    "(with kernel/ or modules.order in it), or a directory holding "
			    "lib/modules/RELEASE as make modules_install writes under "
			    "INSTALL_MOD_PATH", dir);
	strbuf_release(&lm);
	return -1;
}

/* "drivers/net/dummy.ko.xz" -> "dummy", and whether it is compressed; NULL
 * for a file that is not a module. */
static char *module_name(const char *file, int *compressed)
{
	static const char *const ext[] = { ".ko", ".ko.xz", ".ko.zst", ".ko.gz" };
	const char *base = strrchr(file, '/');
	size_t len;

	base = base ? base + 1 : file;
	len = strlen(base);
	for (size_t i = 0; i < sizeof(ext) / sizeof(ext[0]); i++) {
		size_t el = strlen(ext[i]);
		char *name;

		if (len <= el || strcmp(base + len - el, ext[i]))
			continue;
		name = xstrndup(base, len - el);
		for (char *c = name; *c; c++)
			if (*c == '-')
				*c = '_';
		*compressed = i > 0;
		return name;
	}
	return NULL;
}

static void walk(struct tree *t, const char *rel, int depth)
{
	struct strbuf p = STRBUF_INIT, r = STRBUF_INIT;
	struct dirent *e;
	DIR *d;

	strbuf_addf(&p, "%s%s%s", t->root, *rel ? "/" : "", rel);
	d = depth <= KMOD_MAX_DEPTH ? opendir(p.buf) : NULL;
	while (d && (e = readdir(d))) {
		unsigned char type = e->d_type;
		int compressed = 0;
		char *name;

		if (e->d_name[0] == '.')
			continue;
		strbuf_reset(&r);
		strbuf_addf(&r, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		if (type == DT_UNKNOWN) {
			struct stat st;
			struct strbuf f = STRBUF_INIT;

			/* lstat: the build and source links of an installed
			 * tree lead into the kernel's source, not modules. */
			strbuf_addf(&f, "%s/%s", t->root, r.buf);
			type = lstat(f.buf, &st) ? DT_UNKNOWN : S_ISDIR(st.st_mode) ? DT_DIR :
			       S_ISREG(st.st_mode) ? DT_REG : DT_UNKNOWN;
			strbuf_release(&f);
		}
		if (type == DT_DIR) {
			walk(t, r.buf, depth + 1);
			continue;
		}
		if (type != DT_REG)
			continue;
		if (!(name = module_name(e->d_name, &compressed)))
			continue;
		if (t->n == t->alloc) {
			t->alloc = t->alloc ? 2 * t->alloc : 256;
			t->e = xrealloc(t->e, t->alloc * sizeof(*t->e));
		}
		t->e[t->n++] = (struct entry){ .name = name, .rel = xstrdup(r.buf),
					       .compressed = compressed };
	}
	if (d)
		closedir(d);
	strbuf_release(&p);
	strbuf_release(&r);
}

static struct entry *by_name(struct tree *t, const char *name)
{
	for (size_t i = 0; i < t->n; i++)
		if (!strcmp(t->e[i].name, name))
			return &t->e[i];
	return NULL;
}

static struct entry *by_rel(struct tree *t, const char *rel, size_t len)
{
	for (size_t i = 0; i < t->n; i++)
		if (strlen(t->e[i].rel) == len && !strncmp(t->e[i].rel, rel, len))
			return &t->e[i];
	return NULL;
}

/* The names m depends on, space-separated, into deps: from modules.dep
 * ("kernel/a.ko: kernel/b.ko kernel/c.ko") or m's .modinfo. */
static int dependencies(struct tree *t, const struct entry *m, struct strbuf *deps,
			struct strbuf *err);

static int deps_from_modules_dep(struct tree *t, const struct entry *m, struct strbuf *deps,
				 struct strbuf *err)
{
	size_t rl = strlen(m->rel);

	for (const char *l = t->dep.buf; *l;) {
		size_t len = strcspn(l, "\n");

		if (len > rl && !strncmp(l, m->rel, rl) && l[rl] == ':') {
			const char *s = l + rl + 1, *end = l + len;

			while (s < end) {
				size_t w;
				const struct entry *d;

				s += strspn(s, " \t");
				w = strcspn(s, " \t\n");
				if (!w)
					break;
				if (!(d = by_rel(t, s, w))) {
					strbuf_addf(err, "modules.dep names '%.*s' for %s, which is not "
						    "in '%s'", (int)w, s, m->name, t->root);
					return -1;
				}
				strbuf_addf(deps, "%s ", d->name);
				s += w;
			}
			return 0;
		}
		l += len + (l[len] == '\n');
	}
	return 0;	/* not listed: depends on nothing */
}

/* The "depends=" of an uncompressed module's .modinfo section. */
static int deps_from_modinfo(struct tree *t, const struct entry *m, struct strbuf *deps,
			     struct strbuf *err)
{
	struct strbuf file = STRBUF_INIT, p = STRBUF_INIT;
	const Elf64_Ehdr *eh;
	const Elf64_Shdr *sh;
	int rc = -1;

	if (m->compressed) {
		strbuf_addf(err, "module %s is compressed (%s) and '%s' has no modules.dep to "
			    "say what it depends on: run depmod -b on the tree, or give it "
			    "uncompressed modules", m->name, m->rel, t->root);
		return -1;
	}
	strbuf_addf(&p, "%s/%s", t->root, m->rel);
	if (strbuf_read_file(&file, p.buf) < 0) {
		strbuf_addf(err, "cannot read '%s': %s", p.buf, strerror(errno));
		goto out;
	}
	eh = (const Elf64_Ehdr *)file.buf;
	if (file.len < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 || eh->e_shentsize != sizeof(Elf64_Shdr) ||
	    eh->e_shoff > file.len || eh->e_shnum > (file.len - eh->e_shoff) / sizeof(*sh) ||
	    eh->e_shstrndx >= eh->e_shnum) {
		strbuf_addf(err, "'%s' is not a 64-bit ELF kernel module", p.buf);
		goto out;
	}
	sh = (const Elf64_Shdr *)(file.buf + eh->e_shoff);
	for (unsigned i = 0; i < eh->e_shnum; i++) {
		const Elf64_Shdr *names = &sh[eh->e_shstrndx];
		const char *info;

		if (names->sh_offset >= file.len || sh[i].sh_name >= file.len - names->sh_offset ||
		    strncmp(file.buf + names->sh_offset + sh[i].sh_name, ".modinfo", 9))
			continue;
		if (sh[i].sh_offset > file.len || sh[i].sh_size > file.len - sh[i].sh_offset ||
		    sh[i].sh_size > KMOD_MAX_MODINFO)
			break;
		info = file.buf + sh[i].sh_offset;
		for (size_t at = 0; at < sh[i].sh_size;) {
			const char *s = info + at;
			size_t len = strnlen(s, sh[i].sh_size - at);

			if (!strncmp(s, "depends=", 8))
				for (const char *d = s + 8; d < s + len;) {
					size_t w = strcspn(d, ",");

					if (w > (size_t)(s + len - d))
						w = (size_t)(s + len - d);
					if (w) {
						strbuf_add(deps, d, w);
						strbuf_addch(deps, ' ');
					}
					d += w + 1;
				}
			at += len + 1;
		}
		rc = 0;
		goto out;
	}
	strbuf_addf(err, "'%s' has no .modinfo section: not a kernel module", p.buf);
out:
	strbuf_release(&file);
	strbuf_release(&p);
	return rc;
}

static int dependencies(struct tree *t, const struct entry *m, struct strbuf *deps,
			struct strbuf *err)
{
	return t->has_dep ? deps_from_modules_dep(t, m, deps, err) :
			    deps_from_modinfo(t, m, deps, err);
}

/* Is name built into the kernel, as the tree's modules.builtin says? */
static int builtin(struct tree *t, const char *name)
{
	struct strbuf text = STRBUF_INIT, p = STRBUF_INIT;
	int found = 0;

	strbuf_addf(&p, "%s/modules.builtin", t->root);
	if (strbuf_read_file(&text, p.buf) >= 0)
		for (const char *l = text.buf; *l && !found;) {
			size_t len = strcspn(l, "\n");
			struct strbuf line = STRBUF_INIT;
			int compressed;
			char *n;

			strbuf_add(&line, l, len);
			n = module_name(line.buf, &compressed);
			found = n && !strcmp(n, name);
			free(n);
			strbuf_release(&line);
			l += len + (l[len] == '\n');
		}
	strbuf_release(&text);
	strbuf_release(&p);
	return found;
}

static void add(struct kmod_set *set, const struct tree *t, const struct entry *e)
{
	struct strbuf p = STRBUF_INIT;

	strbuf_addf(&p, "%s/%s", t->root, e->rel);
	set->mods = xrealloc(set->mods, (set->n + 1) * sizeof(*set->mods));
	set->mods[set->n++] = (struct kmod){ .name = xstrdup(e->name),
					     .path = strbuf_detach(&p),
					     .compressed = e->compressed };
}

/* Put m in set after everything it depends on; via names the chain that
 * led to it, for the message about a loop. */
static int visit(struct tree *t, struct entry *m, struct kmod_set *set, const char *via,
		 struct strbuf *err)
{
	struct strbuf deps = STRBUF_INIT, chain = STRBUF_INIT;
	int rc = -1;

	if (m->state == 2)
		return 0;
	if (m->state == 1) {
		strbuf_addf(err, "the modules depend on each other in a loop: %s -> %s", via,
			    m->name);
		return -1;
	}
	m->state = 1;
	if (dependencies(t, m, &deps, err))
		goto out;
	strbuf_addf(&chain, "%s%s%s", via, *via ? " -> " : "", m->name);
	for (char *s = deps.buf, *tok; (tok = strsep(&s, " "));) {
		struct entry *d;

		if (!*tok)
			continue;
		for (char *c = tok; *c; c++)
			if (*c == '-')
				*c = '_';
		if (!(d = by_name(t, tok))) {
			strbuf_addf(err, "module %s depends on %s, which is not in '%s'", m->name,
				    tok, t->root);
			goto out;
		}
		if (visit(t, d, set, chain.buf, err))
			goto out;
	}
	add(set, t, m);
	m->state = 2;
	rc = 0;
out:
	strbuf_release(&deps);
	strbuf_release(&chain);
	return rc;
}

int kmod_resolve(const char *dir, const char *names, struct kmod_set *set, struct strbuf *err)
{
	struct strbuf root = STRBUF_INIT, p = STRBUF_INIT;
	struct tree t = { .dep = STRBUF_INIT };
	char *list = xstrdup(names ? names : ""), *s = list, *tok;
	int rc = -1, asked = 0;

	*set = (struct kmod_set)KMOD_SET_INIT;
	if (find_release_dir(dir, &root, err))
		goto out;
	t.root = root.buf;
	walk(&t, "", 0);
	strbuf_addf(&p, "%s/modules.dep", root.buf);
	t.has_dep = strbuf_read_file(&t.dep, p.buf) >= 0;
	while ((tok = strsep(&s, ", \t"))) {
		struct entry *m;

		if (!*tok)
			continue;
		asked++;
		for (char *c = tok; *c; c++)
			if (*c == '-')
				*c = '_';
		if ((m = by_name(&t, tok))) {
			if (visit(&t, m, set, "", err))
				goto out;
		} else if (builtin(&t, tok)) {
			set->builtin = xrealloc(set->builtin, (set->nbuiltin + 1) * sizeof(char *));
			set->builtin[set->nbuiltin++] = xstrdup(tok);
		} else {
			strbuf_addf(err, "no module '%s' in '%s' (%zu modules there)", tok,
				    root.buf, t.n);
			goto out;
		}
	}
	if (!asked) {
		strbuf_addstr(err, "no module named to load");
		goto out;
	}
	{
		const char *slash = strrchr(root.buf, '/');

		set->release = xstrdup(slash ? slash + 1 : root.buf);
	}
	set->release_dir = strbuf_detach(&root);
	rc = 0;
out:
	if (rc)
		kmod_set_release(set);
	for (size_t i = 0; i < t.n; i++) {
		free(t.e[i].name);
		free(t.e[i].rel);
	}
	free(t.e);
	free(list);
	strbuf_release(&t.dep);
	strbuf_release(&root);
	strbuf_release(&p);
	return rc;
}

void kmod_set_release(struct kmod_set *set)
{
	for (size_t i = 0; i < set->n; i++) {
		free(set->mods[i].name);
		free(set->mods[i].path);
	}
	for (size_t i = 0; i < set->nbuiltin; i++)
		free(set->builtin[i]);
	free(set->mods);
	free(set->builtin);
	free(set->release_dir);
	free(set->release);
	*set = (struct kmod_set)KMOD_SET_INIT;
}
