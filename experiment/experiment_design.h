/* experiment_design: what experiment_design.c (reading the design) and
 * experiment.c (running it) share beside experiment/experiment.h. */
#ifndef KBENCH_EXPERIMENT_DESIGN_H
#define KBENCH_EXPERIMENT_DESIGN_H

struct arm;

/* The facts of a->built (a kernel built from a tree, or found in the
 * cache) into a->build_facts, and its image as a's kernel: when the
 * design is read (a resumed arm) and after the build (experiment_run). */
void experiment_arm_set_built(struct arm *a);

#endif
