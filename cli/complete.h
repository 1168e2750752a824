/* complete: the candidates kbench __complete offers (completion/kbench.bash)
 * for what the option tables and usages describe: values by their argh
 * (FILE, DIR, RUN, HOST, CONFIG, KEY=VALUE, an --only REGEX), run names
 * as arguments, formats. */
#ifndef KBENCH_COMPLETE_H
#define KBENCH_COMPLETE_H

struct parse_opt_complete;

/* An option's values by its argh, for options without a completion of
 * their own (parse_options_complete()'s fallback). */
void cmd_complete_by_argh(struct parse_opt_complete *c);
/* Run names of the store, as arguments. */
void cmd_complete_runs(struct parse_opt_complete *c);
/* A run name as the first argument only (note, rename). */
void cmd_complete_first_run(struct parse_opt_complete *c);
/* The names of the stored experiments, for a command's first argument
 * (kbench experiments EXPERIMENT). */
void cmd_complete_first_experiment(struct parse_opt_complete *c);
/* File names, as arguments. */
void cmd_complete_files(struct parse_opt_complete *c);
/* The names of output formats (text, json, csv). */
void cmd_complete_output_formats(struct parse_opt_complete *c);

#endif
