/* experiment_stored: what an experiment stores of itself for a resume
 * (its arms with every file absolute, the guest's options it was given),
 * and reading it back (experiment/experiment_stored.h). */
#include "config.h"
#include "experiment/experiment_stored.h"
#include "lib/error.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"
#include "runner/conf.h"
#include "experiment/experiment.h"
#include "kernel/vm.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether key = value of an arm names a file: kernel, initrd, modules,
 * tree and fragment do; kconfig does when value is a file (else it is a
 * make target, defconfig say). */
static int path_key(const char *key, const char *value)
{
	if (!strcmp(key, "kconfig"))
		return strchr(value, '/') || !access(value, F_OK);
	return !strcmp(key, "kernel") || !strcmp(key, "initrd") || !strcmp(key, "modules") ||
	       !strcmp(key, "tree") || !strcmp(key, "fragment");
}

/* path made absolute into out: its real path when it exists, else the
 * working directory's path before it. Return 0, or -1 after an error. */
static int absolute(const char *path, struct strbuf *out)
{
	char buf[PATH_MAX];

	if (*path == '/') {
		strbuf_addstr(out, path);
		return 0;
	}
	if (realpath(path, buf)) {
		strbuf_addstr(out, buf);
		return 0;
	}
	if (!getcwd(buf, sizeof(buf)))
		return error("cannot read the working directory: %s", strerror(errno));
	strbuf_addf(out, "%s/%s", buf, path);
	return 0;
}

int experiment_absolute_paths(struct conf_section *cs)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < cs->n; i++) {
		struct conf_entry *c = &cs->entries[i];

		if (!*c->value || *c->value == '/' || !path_key(c->key, c->value))
			continue;
		strbuf_reset(&sb);
		if (absolute(c->value, &sb)) {
			strbuf_release(&sb);
			return -1;
		}
		free(c->value);
		c->value = strbuf_detach(&sb);
	}
	strbuf_release(&sb);
	return 0;
}

void experiment_format_arms(struct experiment *e)
{
	struct strbuf sb = STRBUF_INIT;

	for (size_t i = 0; i < e->narms; i++) {
		const struct conf_section *cs = e->arms[i].cs;

		strbuf_addf(&sb, "%s[%s]\n", i ? "\n" : "", cs->name);
		for (size_t k = 0; k < cs->n; k++)
			strbuf_addf(&sb, "%s = %s\n", cs->entries[k].key, cs->entries[k].value);
	}
	e->arms_text = strbuf_detach(&sb);
}

int experiment_format_guest(struct experiment *e, const struct vm_config *vm)
{
	struct strbuf sb = STRBUF_INIT;
	const char *const files[][2] = {
		{ "initrd", vm->initrd }, { "modules", vm->modules_dir },
	};

	strbuf_addf(&sb, "accel=%s\nvcpus=%d\nmemory=%d\nboot-timeout=%.17g\nicount=%d\n",
		    vm->accel, vm->vcpus, vm->mem_mib, vm->boot_timeout_s, vm->icount_shift);
	if (vm->vcpu_pin)
		strbuf_addf(&sb, "vcpu-pin=%s\n", vm->vcpu_pin);
	if (vm->cpu)
		strbuf_addf(&sb, "cpu=%s\n", vm->cpu);
	if (vm->modprobe)
		strbuf_addf(&sb, "modprobe=%s\n", vm->modprobe);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		if (!files[i][1])
			continue;
		strbuf_addf(&sb, "%s=", files[i][0]);
		if (absolute(files[i][1], &sb)) {
			strbuf_release(&sb);
			return -1;
		}
		strbuf_addch(&sb, '\n');
	}
	e->guest_text = strbuf_detach(&sb);
	return 0;
}

int experiment_parse_guest(const char *text, struct vm_config *vm, char **buf)
{
	static const struct vm_config init = VM_CONFIG_INIT;
	char *line, *next;

	*vm = init;
	*buf = xstrdup(text);
	for (line = *buf; line && *line; line = next) {
		char *eq, *end;
		double d;
		long v;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		if (!(eq = strchr(line, '=')))
			return error("the experiment's stored guest options: cannot read '%s'", line);
		*eq++ = '\0';
		errno = 0;
		if (!strcmp(line, "accel")) {
			vm->accel = eq;
		} else if (!strcmp(line, "vcpu-pin")) {
			vm->vcpu_pin = eq;
		} else if (!strcmp(line, "cpu")) {
			vm->cpu = eq;
		} else if (!strcmp(line, "modprobe")) {
			vm->modprobe = eq;
		} else if (!strcmp(line, "initrd")) {
			vm->initrd = eq;
		} else if (!strcmp(line, "modules")) {
			vm->modules_dir = eq;
		} else if (!strcmp(line, "boot-timeout")) {
			d = strtod(eq, &end);
			if (errno || end == eq || *end || !(d > 0))
				return error("the experiment's stored guest options: boot-timeout "
					     "'%s' is not a time", eq);
			vm->boot_timeout_s = d;
		} else if (!strcmp(line, "vcpus") || !strcmp(line, "memory") ||
			   !strcmp(line, "icount")) {
			v = strtol(eq, &end, 10);
			if (errno || end == eq || *end || v < (!strcmp(line, "icount") ? -1 : 1) ||
			    v > INT_MAX)
				return error("the experiment's stored guest options: %s '%s' is not "
					     "an integer", line, eq);
			*(!strcmp(line, "vcpus") ? &vm->vcpus : !strcmp(line, "memory") ?
			  &vm->mem_mib : &vm->icount_shift) = (int)v;
		}
	}
	return 0;
}

char *experiment_strip_arms(const char *config_text)
{
	struct strbuf sb = STRBUF_INIT;
	int in_arm = 0;

	for (const char *p = config_text; *p;) {
		size_t n = strcspn(p, "\n");
		const char *b = p;

		while (b < p + n && isspace((unsigned char)*b))
			b++;
		/* A section's header (its name trimmed, as the config reads
		 * it): the sections of the arms are left out. */
		if (b < p + n && *b == '[') {
			do
				b++;
			while (b < p + n && isspace((unsigned char)*b));
			in_arm = !strncmp(b, "arm:", 4);
		}
		if (!in_arm)
			strbuf_add(&sb, p, n + (p[n] == '\n'));
		p += n + (p[n] == '\n');
	}
	return strbuf_detach(&sb);
}
