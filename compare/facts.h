/* facts: what the compared runs were (kernel, host, CPU, machine size,
 * cmdline, config) and what they share and where they differ: the facts
 * that differ between columns, for every format, and the facts the header
 * block of the text formats shows, computed for its renderer. */
#ifndef KBENCH_FACTS_H
#define KBENCH_FACTS_H

#include <stddef.h>
#include <stdint.h>

struct strbuf;

/* What is known of one compared run; strings are never NULL ("" when not
 * known), numbers 0 when not known. */
struct run_facts {
	char *hostname, *cpu_model, *kernel_release, *kernel_cmdline;
	char *config_name, *config_text;
	/* Effective options the config text does not hold and that change
	 * the work (overrides, an A/B arm's keys), "KEY=VALUE" a line; NULL
	 * or "" when none. */
	char *options;
	/* The effective values that change the work, "SECTION.KEY=VALUE\n"
	 * each (store_run_work_values); NULL when not read. */
	char *work;
	int cpus;
	int cores, nodes;
	uint64_t mem_bytes;
	char *vm;		/* how a guest ran it ("TCG, 2 vCPUs, 512 MiB"); "": natively */
	char *kind;		/* where it measured (store_run_kind); "": natively */
	/* A run in a guest whose own facts are stored: cpu_model, cpus,
	 * cores, nodes and mem_bytes above are the guest's, these the
	 * host's. host_cpu_model is NULL for any other run. */
	char *host_cpu_model;
	int host_cpus, host_cores, host_nodes;
	uint64_t host_mem_bytes;
	char *note;		/* the run's note (kbench note, run --note); "": none */
};

/* Free what f holds. */
void run_facts_release(struct run_facts *f);

/* A fact that is not the same in every column. */
struct cmp_fact {
	const char *what;	/* "machine", "CPU count", ... */
	char **values;		/* one per column */
};

/* The facts that are not the same in every one of the n runs, in a
 * malloc'd array (*out; NULL when none): kernel release, kind ("native",
 * "guest (TCG, 2 vCPUs, 512 MiB)": run_kind_describe), machine (host
 * and CPU model), CPU count, kernel cmdline, config text (where each
 * departs from the baseline's, runs[0]) and effective options. Returns how many; the caller
 * owns them and frees each one's values (n of them) with it. */
size_t facts_differing(const struct run_facts *const *runs, size_t n, struct cmp_fact **out);

/* The facts of the header block, each with a value per run. */
enum facts_item {
	FACTS_KERNEL,		/* the kernel release */
	FACTS_HOST,		/* the hostname; for a guest's run, "HOST: CPU, MACHINE"
				 * of the host */
	FACTS_CPU,		/* the CPU model, as facts_cpu_model makes it (the
				 * guest's for a guest's run whose facts say) */
	FACTS_MACHINE,		/* "8 CPUs, 4 cores, 1 node, 15.5 GiB": what is known
				 * (the guest's, as FACTS_CPU) */
	FACTS_VM,		/* how kbench vm's guest ran; "" for a native run */
	FACTS_CONFIG,		/* "NAME, cksum N" */
	FACTS_OPTIONS,		/* effective options beyond the config text */
	FACTS_NOTE,		/* the run's note, tabs as blanks */
	FACTS_NITEMS
};

struct facts_value {
	char **values;		/* one per run; "" when not known */
	int shared;		/* every run has the same value */
	int known;		/* some run has a value */
};

/* The config lines recorded per run that changed, at most. */
#define FACTS_CONFIG_LINES 12

/* What the header block says about n runs, the first the baseline. */
struct facts_header {
	size_t n;
	struct facts_value items[FACTS_NITEMS];
	/* Per run, against the baseline (NULL for the baseline itself): the
	 * kernel parameters it changed (facts_cmdline_diff; "" when none),
	 * and the lines its config text changed (facts_config_diff, at most
	 * FACTS_CONFIG_LINES, one a line; NULL when its text is the
	 * baseline's, "(comments or blank lines only)\n" when those are all
	 * that differ). */
	char **cmdline_diff;
	char **config_diff;
};

/* Compute the header's facts of runs[0..n-1] into h; release it with
 * facts_header_release. */
void facts_header_build(struct facts_header *h, const struct run_facts *const *runs, size_t n);
void facts_header_release(struct facts_header *h);

/* The CPU model as shown: blanks trimmed at both ends and each run of
 * blanks inside made one space. Appended to out. */
void facts_cpu_model(const char *model, struct strbuf *out);

/* The kernel parameters of cmdline b that are not those of cmdline a,
 * separated by spaces and appended to out: "-quiet" (only in a),
 * "+mitigations=off" (only in b), "mem=4G->8G" (a parameter given once on
 * each side, with another value). Nothing when both hold the same words
 * in any order. A lone "--" and what follows (init's arguments) are one
 * word; a word that holds a blank or starts with '-' or '+' is quoted
 * after its mark (-'-- --addr 0.0.0.0:2024'). */
void facts_cmdline_diff(const char *a, const char *b, struct strbuf *out);

/* The lines of config text b that are not in config text a, after a
 * longest-common-subsequence match of their lines (blank and comment lines
 * left out), appended to out one a line, each named by its section:
 * "-[hackbench] loops = 10" (a's), "+[hackbench] loops = 20" (b's). At
 * most max_lines lines; then "... and N more". Returns the number of lines
 * that differ. */
size_t facts_config_diff(const char *a, const char *b, size_t max_lines, struct strbuf *out);

/* The value of key in section of config text (the last one given), else
 * in its [global] section, appended to out; returns 0, or -1 when neither
 * sets it. */
int facts_config_value(const char *text, const char *section, const char *key,
		       struct strbuf *out);

/* The POSIX cksum of len bytes (CRC-32 with the length appended), as
 * cksum(1) prints it for the same bytes: `kbench show --config RUN | cksum`
 * gives a run's config checksum. */
uint32_t facts_cksum(const char *text, size_t len);

#endif
