/* experiment_stored: what an experiment stores of itself so that kbench
 * ab --resume runs it as it ran (the arms, every file in them absolute,
 * and the guest's options of kbench vm's command line), and reading it
 * back. experiment_design.c and experiment_resume.c use it. */
#ifndef KBENCH_EXPERIMENT_STORED_H
#define KBENCH_EXPERIMENT_STORED_H

struct conf_section;
struct experiment;
struct vm_config;

/* The files arm section cs names (kernel, initrd, modules, tree,
 * fragment, a kconfig that is a file, not a make target) made absolute
 * in place (from the working directory), so that the experiment, stored
 * so, resumes from any directory. Return 0, or -1 after an error. */
int experiment_absolute_paths(struct conf_section *cs);

/* e's arms as it runs them, [arm:NAME] sections, into e->arms_text
 * (the fact experiment-arms). */
void experiment_format_arms(struct experiment *e);

/* What a kernel arm's guest starts from (vm, kbench vm's command line),
 * KEY=VALUE lines, into e->guest_text (the fact experiment-guest); its
 * files absolute. Return 0, or -1 after an error. */
int experiment_format_guest(struct experiment *e, const struct vm_config *vm);

/* The guest options a resumed experiment stored (experiment_format_
 * guest's text) into vm, from VM_CONFIG_INIT; its strings point into
 * *buf, which the caller frees (also after an error). A key it does not
 * know is left out (a later kbench's). Return 0, or -1 after saying
 * why. */
int experiment_parse_guest(const char *text, struct vm_config *vm, char **buf);

/* config_text without its [arm:NAME] sections (a resumed experiment
 * runs the arms it stored): a new string, the caller's to free. */
char *experiment_strip_arms(const char *config_text);

#endif
