/* t1508-experiment-stored: what an experiment stores of itself for a
 * resume: the configs' text without its [arm:NAME] sections, the guest's
 * options as KEY=VALUE lines read back into a vm_config (a key it does
 * not know left out, a bad value refused), and the files of an arm made
 * absolute (a make target left as it is).
 *
 * Covers: experiment/experiment_stored.c. */
#include "config.h"
#include "../tap.h"
#include "runner/conf.h"
#include "experiment/experiment.h"
#include "experiment/experiment_stored.h"
#include "kernel/vm.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(void)
{
	struct vm_config in = VM_CONFIG_INIT, out;
	struct experiment e;
	struct config c;
	char *text, *buf = NULL, cwd[PATH_MAX], want[PATH_MAX + 64];

	text = experiment_strip_arms("[experiment]\nrounds = 2\n\n[arm:a]\nkernel = k/a\n"
				     "  [ arm:b ]\nappend = quiet\n[hackbench]\ngroups = 1\n");
	ok_text(text, "[experiment]\nrounds = 2\n\n[hackbench]\ngroups = 1\n",
		"the arms' sections are left out of the configs' text");
	free(text);
	text = experiment_strip_arms("[hackbench]\ngroups = 1");
	ok_text(text, "[hackbench]\ngroups = 1", "a text without arms is as it was");
	free(text);

	memset(&e, 0, sizeof(e));
	in.accel = "tcg";
	in.vcpus = 1;
	in.mem_mib = 256;
	in.icount_shift = 3;
	in.cpu = "max";
	in.modprobe = "vxlan,dummy";
	in.modules_dir = "/m";
	in.boot_timeout_s = 12.5;
	ok(!experiment_format_guest(&e, &in), "the guest's options are written");
	ok_text(e.guest_text, "accel=tcg\nvcpus=1\nmemory=256\nboot-timeout=12.5\nicount=3\n"
		"vcpu-pin=spread\ncpu=max\nmodprobe=vxlan,dummy\nmodules=/m\n", "... as lines");
	ok(!experiment_parse_guest(e.guest_text, &out, &buf) && !strcmp(out.accel, "tcg") &&
	   out.vcpus == 1 && out.mem_mib == 256 && out.icount_shift == 3 &&
	   out.boot_timeout_s == 12.5 && !strcmp(out.cpu, "max") &&
	   !strcmp(out.modprobe, "vxlan,dummy") && !strcmp(out.modules_dir, "/m") &&
	   !out.initrd && !strcmp(out.vcpu_pin, "spread"), "... and read back as they were");
	free(buf);
	free(e.guest_text);
	ok(!experiment_parse_guest("accel=kvm\nlater-key=1\n", &out, &buf) &&
	   !strcmp(out.accel, "kvm") && out.vcpus == 2, "a key it does not know is left out");
	free(buf);
	ok(experiment_parse_guest("vcpus=two\n", &out, &buf) < 0, "a bad value is refused");
	free(buf);
	ok(experiment_parse_guest("vcpus\n", &out, &buf) < 0, "a line without = is refused");
	free(buf);

	config_init(&c);
	ok(!config_load_string(&c, "t", "[arm:a]\nkernel = k/vmlinuz\nkconfig = defconfig\n"
			       "fragment = /f.config\nappend = a/b\n"), "an arm's config is read");
	ok(!experiment_absolute_paths(&c.sections[0]), "its files are made absolute");
	if (!getcwd(cwd, sizeof(cwd)))
		cwd[0] = '\0';
	snprintf(want, sizeof(want), "%s/k/vmlinuz", cwd);
	ok_text(c.sections[0].entries[0].value, want, "... a relative kernel");
	ok_text(c.sections[0].entries[1].value, "defconfig", "... not a make target");
	ok_text(c.sections[0].entries[2].value, "/f.config", "... an absolute one as it was");
	ok_text(c.sections[0].entries[3].value, "a/b", "... nor a command line");
	config_release(&c);
	return done_testing();
}
