/* slurm: fleet jobs on a Slurm cluster: the nodes to run on, a job's batch
 * script, and sbatch, squeue, scancel and sacct run and their output
 * parsed (submitting, listing and cancelling jobs, the daily chain), and
 * the runs in a store that jobs made. */
#include "config.h"
#include "fleet/fleet.h"
#include "fleet/internal.h"
#include "fleet/http.h"
#include "db/store.h"
#include "lib/docs.h"
#include "lib/error.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

/* How long a Slurm command may take: sbatch retries an unreachable
 * controller for a while before it gives up. */
#define SLURM_TIMEOUT_S 120

static int names_have(const struct fleet_names *l, const char *s)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 1;
	return 0;
}

/* The lines of text, blanks at either end dropped, empty ones left out. */
static void split_lines(const char *text, struct fleet_names *out)
{
	while (*text) {
		size_t len = strcspn(text, "\n");
		const char *b = text, *e = text + len;

		while (b < e && isspace((unsigned char)*b))
			b++;
		while (e > b && isspace((unsigned char)e[-1]))
			e--;
		if (e > b) {
			char *line = xstrndup(b, (size_t)(e - b));

			ALLOC_GROW(out->v, out->n + 1, out->alloc);
			out->v[out->n++] = line;
		}
		text += len + (text[len] == '\n');
	}
}

/* ---- running Slurm's commands ---- */

/* Say that argv failed with status, and what it printed. Returns -1. */
static int command_failed(const char *const *argv, int status, const struct strbuf *out,
			  const struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_names lines = FLEET_NAMES_INIT;

	strbuf_addch(&msg, '\'');
	fleet_add_cmdline(&msg, argv);
	strbuf_addf(&msg, "' failed (exit status %d)", status);
	if (err)
		strbuf_addstr(&text, err->buf);
	if (out)
		strbuf_addstr(&text, out->buf);
	split_lines(text.buf, &lines);
	if (lines.n)
		strbuf_addch(&msg, ':');
	for (size_t i = 0; i < lines.n; i++)
		strbuf_addf(&msg, "\n  %s", lines.v[i]);
	error("%s", msg.buf);
	fleet_names_release(&lines);
	strbuf_release(&msg);
	strbuf_release(&text);
	return -1;
}

/* Run a Slurm command, its stdout into out; on failure say so. */
static int slurm(const char *const *argv, struct strbuf *out)
{
	struct strbuf err = STRBUF_INIT;
	int status = fleet_command(argv, SLURM_TIMEOUT_S, out, &err);

	if (status > 0)
		command_failed(argv, status, out, &err);
	strbuf_release(&err);
	return status ? -1 : 0;
}

/* ---- nodes ---- */

int fleet_nodes(const char *list, const char *partition, struct fleet_names *out)
{
	struct strbuf text = STRBUF_INIT;
	struct fleet_names lines = FLEET_NAMES_INIT;
	int rc = -1;

	if (list && strchr(list, '[')) {
		const char *argv[] = { "scontrol", "show", "hostnames", list, NULL };

		if (slurm(argv, &text))
			goto out;
		split_lines(text.buf, &lines);
	} else if (list) {
		for (const char *p = list; *p;) {
			size_t len = strcspn(p, ",");

			if (len) {
				char *name = xstrndup(p, len);

				fleet_names_add(&lines, name);
				free(name);
			}
			p += len + (p[len] == ',');
		}
	} else {
		const char *argv[] = { "sinfo", "-h", "-N", "-o", "%N", partition ? "-p" : NULL,
				       partition, NULL };

		if (slurm(argv, &text))
			goto out;
		split_lines(text.buf, &lines);
	}
	for (size_t i = 0; i < lines.n; i++)
		if (!names_have(out, lines.v[i]))
			fleet_names_add(out, lines.v[i]);
	if (!out->n) {
		if (list)
			error("no node named in '%s'", list);
		else if (partition)
			error("partition '%s' has no nodes (sinfo -p %s lists none)", partition,
			      partition);
		else
			error("Slurm knows no nodes (sinfo lists none)");
		goto out;
	}
	rc = 0;
out:
	fleet_names_release(&lines);
	strbuf_release(&text);
	return rc;
}

/* ---- the batch script ---- */

/* s as one shell word in single quotes. */
static void add_sq(struct strbuf *sb, const char *s)
{
	strbuf_addch(sb, '\'');
	for (; *s; s++)
		if (*s == '\'')
			strbuf_addstr(sb, "'\\''");
		else
			strbuf_addch(sb, *s);
	strbuf_addch(sb, '\'');
}

/* Whether s can stand in an #SBATCH line as it is. */
static int plain_word(const char *s)
{
	if (!*s)
		return 0;
	for (; *s; s++)
		if (!isgraph((unsigned char)*s) || strchr("\"'\\#", *s))
			return 0;
	return 1;
}

int fleet_valid_daily(const char *s)
{
	return strlen(s) == 5 && isdigit((unsigned char)s[0]) && isdigit((unsigned char)s[1]) &&
	       s[2] == ':' && isdigit((unsigned char)s[3]) && isdigit((unsigned char)s[4]) &&
	       (s[0] - '0') * 10 + (s[1] - '0') < 24 && s[3] < '6';
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* The part of a watch's job that runs it: its config written where the
 * node keeps it between jobs ($dir/watch/NAME, so that the watch keeps
 * one config name), then one cycle of it. */
static int watch_script(const struct fleet_job *job, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT;
	int e = strbuf_read_file(&text, job->watch);

	if (e) {
		error("cannot read watch config '%s': %s", job->watch, strerror(-e));
		strbuf_release(&text);
		return -1;
	}
	strbuf_addstr(out, "watch=$dir/watch/");
	add_sq(out, base_name(job->watch));
	strbuf_addstr(out, "\nmkdir -p \"$dir/watch\" || exit 1\nprintf '%s' ");
	add_sq(out, text.buf);
	strbuf_addstr(out, " >\"$watch\" || exit 1\n"
		      "\"$kbench\" --db \"$dir/kbench.db\" watch \"$watch\"\nstatus=$?\n");
	strbuf_release(&text);
	return 0;
}

int fleet_job_script(const struct fleet_job *job, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	int upload_s = job->upload_timeout_s > 0 ? job->upload_timeout_s : FLEET_UPLOAD_TIMEOUT_S;
	int rc = -1;

	strbuf_addstr(out, "#!/bin/sh\n");
	strbuf_addf(out, "#SBATCH --job-name=%s\n", job->job_name);
	strbuf_addstr(out, "#SBATCH --exclusive\n");
	/* The run's time, then the upload's worst case: its --timeout,
	 * rounded up to minutes, and one minute to spare. */
	if (job->run_minutes > 0)
		strbuf_addf(out, "#SBATCH --time=%d\n",
			    job->run_minutes + (upload_s + 59) / 60 + 1);
	if (job->partition)
		strbuf_addf(out, "#SBATCH --partition=%s\n", job->partition);
	if (job->results) {
		http_url_redact(&key, job->results);
		if (plain_word(key.buf))
			strbuf_addf(out, "#SBATCH --comment=%s\n", key.buf);
	}
	if (job->watch)
		docs_add_text(out,
			"# A kbench fleet job: one cycle of the watch below on this node, into a\n"
			"# store of its own, then export each run and the watch's records not\n"
			"# sent yet and upload their bundles to the results, with any an earlier\n"
			"# job could not send (docs/fleet.md).\n"
			"set -u\n");
	else
		docs_add_text(out,
			"# A kbench fleet job: run the configs below on this node into a store of\n"
			"# its own, then export each run not sent yet and upload its bundle to the\n"
			"# results, with any an earlier job could not send (docs/fleet.md).\n"
			"set -u\n");
	strbuf_addstr(out, "kbench=");
	add_sq(out, job->kbench);
	strbuf_addstr(out, "\nnode=${SLURMD_NODENAME:-$(hostname -s)}\ndir=");
	/* "%n" in the directory stands for the node. */
	for (const char *p = job->db_dir;;) {
		const char *n = strstr(p, "%n");
		char *part = xstrndup(p, n ? (size_t)(n - p) : strlen(p));

		if (*part || (!n && p == job->db_dir))
			add_sq(out, part);
		free(part);
		if (!n)
			break;
		strbuf_addstr(out, "\"$node\"");
		p = n + 2;
	}
	strbuf_addch(out, '\n');
	if (job->daily) {
		strbuf_addf(out,
			"# The next night's job is queued first, so that a night that fails or\n"
			"# is missed does not end the chain: 'kbench fleet unschedule' does.\n"
			"if next=$(sbatch --parsable --begin=%s --nodelist=\"$node\" \"$0\"); then\n"
			"\techo \"kbench fleet: queued job $next for the next %s on $node\"\n"
			"else\n"
			"\techo \"kbench fleet: cannot queue the next job of the chain\" >&2\n"
			"fi\n", job->daily, job->daily);
	}
	if (job->node_names)
		strbuf_addstr(out, "# Runs are recorded under the Slurm node name.\n"
			      "KBENCH_HOSTNAME=$node\nexport KBENCH_HOSTNAME\n");
	if (job->watch) {
		if (watch_script(job, out))
			goto out;
		goto upload;
	}
	strbuf_addstr(out, "work=$dir/job-${SLURM_JOB_ID:-$$}\n");
	for (size_t i = 0; i < job->nconfigs; i++)
		strbuf_addf(out, "%smkdir -p \"$work/%zu\"", i ? " &&\n\t" : "", i + 1);
	strbuf_addstr(out, " || exit 1\n");
	for (size_t i = 0; i < job->nconfigs; i++) {
		int e;

		strbuf_reset(&text);
		e = strbuf_read_file(&text, job->configs[i]);
		if (e) {
			error("cannot read config '%s': %s", job->configs[i], strerror(-e));
			goto out;
		}
		strbuf_addstr(out, "printf '%s' ");
		add_sq(out, text.buf);
		strbuf_addf(out, " >\"$work/%zu/\"", i + 1);
		add_sq(out, base_name(job->configs[i]));
		strbuf_addstr(out, " || exit 1\n");
	}
	strbuf_addstr(out, "\"$kbench\" --db \"$dir/kbench.db\" run --no-report");
	if (job->run_name) {
		strbuf_addstr(out, " -n ");
		add_sq(out, job->run_name);
	}
	strbuf_addstr(out, " \\\n\t--note \"kbench fleet: Slurm job ${SLURM_JOB_ID:-none} on node "
		      "$node\"");
	for (size_t i = 0; i < job->nconfigs; i++) {
		strbuf_addf(out, " \\\n\t-c \"$work/%zu/\"", i + 1);
		add_sq(out, base_name(job->configs[i]));
	}
	strbuf_addstr(out, "\nstatus=$?\nrm -rf \"$work\"\n");
upload:
	if (job->results) {
		strbuf_addstr(out, "results=");
		add_sq(out, job->results);
		strbuf_addf(out, "\n\"$kbench\" --db \"$dir/kbench.db\" fleet upload --timeout %d "
			    "\"$results\" ||\n\t[ \"$status\" -ne 0 ] || status=1\n",
			    upload_s);
	} else {
		strbuf_addstr(out, "echo \"kbench fleet: no results location given: the run stays "
			      "in $dir/kbench.db on $node\"\n");
	}
	strbuf_addstr(out, "exit \"$status\"\n");
	rc = 0;
out:
	strbuf_release(&text);
	strbuf_release(&key);
	return rc;
}

/* ---- submitting ---- */

void fleet_submit_cmdline(const char *node, const char *begin, const char *script_path,
			  struct strbuf *out)
{
	strbuf_addf(out, "sbatch --parsable --nodelist=%s", node);
	if (begin)
		strbuf_addf(out, " --begin=%s", begin);
	strbuf_addf(out, " %s", script_path);
}

int fleet_submit(const char *script, const char *node, const char *begin,
		 struct strbuf *job_id)
{
	const char *dir = getenv("TMPDIR");
	struct strbuf path = STRBUF_INIT, nodelist = STRBUF_INIT, begin_opt = STRBUF_INIT;
	struct strbuf out = STRBUF_INIT;
	int fd, rc = -1;

	strbuf_addf(&path, "%s/kbench-job-XXXXXX", dir && *dir ? dir : "/tmp");
	fd = mkstemp(path.buf);
	if (fd < 0) {
		error("cannot create a file in '%s': %s", dir && *dir ? dir : "/tmp", strerror(errno));
		strbuf_reset(&path);
		goto out;
	}
	if (write_full(fd, script, strlen(script)) || close(fd)) {
		error("cannot write '%s': %s", path.buf, strerror(errno));
		goto out;
	}
	strbuf_addf(&nodelist, "--nodelist=%s", node);
	if (begin)
		strbuf_addf(&begin_opt, "--begin=%s", begin);
	{
		const char *argv[] = { "sbatch", "--parsable", nodelist.buf,
				       begin ? begin_opt.buf : path.buf, begin ? path.buf : NULL,
				       NULL };
		size_t len;

		if (slurm(argv, &out))
			goto out;
		/* "ID" or "ID;CLUSTER" */
		strbuf_rtrim(&out);
		len = strcspn(out.buf, ";\n");
		if (!len || strspn(out.buf, "0123456789") != len) {
			error("'sbatch' printed no job id: '%s'", out.buf);
			goto out;
		}
		strbuf_add(job_id, out.buf, len);
	}
	rc = 0;
out:
	if (path.len)
		unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&nodelist);
	strbuf_release(&begin_opt);
	strbuf_release(&out);
	return rc;
}

void fleet_submissions_release(struct fleet_submissions *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].node);
		free(l->v[i].job_id);
		free(l->v[i].pending);
	}
	free(l->v);
	memset(l, 0, sizeof(*l));
}

int fleet_submit_each(const char *script, const char *job_name, int chain,
		      const struct fleet_names *nodes, const char *begin,
		      struct fleet_submissions *out)
{
	struct fleet_names pending = FLEET_NAMES_INIT, labels = FLEET_NAMES_INIT;
	struct fleet_names on_nodes = FLEET_NAMES_INIT;
	struct strbuf id = STRBUF_INIT;
	int rc = -1;

	/* A chain twice on a node would run twice a night: a node that has
	 * one keeps it, so that scheduling again mends the chain of a node
	 * that lost it and leaves the others alone. */
	if (chain && fleet_chain_jobs(job_name, "PENDING", &pending, &labels, &on_nodes))
		goto out;
	for (size_t i = 0; i < nodes->n; i++) {
		struct fleet_submitted *r;
		size_t k;

		ALLOC_GROW(out->v, out->n + 1, out->alloc);
		r = &out->v[out->n++];
		*r = (struct fleet_submitted){ .node = xstrdup(nodes->v[i]) };
		for (k = 0; k < on_nodes.n && strcmp(on_nodes.v[k], nodes->v[i]); k++)
			;
		if (k < on_nodes.n) {
			r->pending = xstrdup(pending.v[k]);
			continue;
		}
		strbuf_reset(&id);
		if (!fleet_submit(script, nodes->v[i], begin, &id))
			r->job_id = strbuf_detach(&id);
	}
	rc = 0;
out:
	strbuf_release(&id);
	fleet_names_release(&pending);
	fleet_names_release(&labels);
	fleet_names_release(&on_nodes);
	return rc;
}

/* ---- the jobs ---- */

static void job_state_release(struct fleet_job_state *j)
{
	free(j->id);
	free(j->name);
	free(j->state);
	free(j->nodes);
	free(j->start);
	free(j->end);
	free(j->exit_code);
	free(j->reason);
	free(j->comment);
}

void fleet_job_list_release(struct fleet_job_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		job_state_release(&l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

/* The '|'-separated fields of line into f[0..n-1] (pointers into line,
 * which is cut); 0 when it has exactly n fields. */
static int split_fields(char *line, char **f, size_t n)
{
	size_t i = 0;

	for (char *p = line;; p++) {
		if (i == n)
			return -1;
		f[i++] = p;
		p = strchr(p, '|');
		if (!p)
			break;
		*p = '\0';
	}
	return i == n ? 0 : -1;
}

static int has_id(const struct fleet_job_list *l, const char *id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].id, id))
			return 1;
	return 0;
}

/* "N/A", "Unknown", "None" and "(null)" read as nothing. */
static char *field_dup(const char *s)
{
	if (!strcmp(s, "N/A") || !strcmp(s, "Unknown") || !strcmp(s, "None") ||
	    !strcmp(s, "(null)"))
		s = "";
	return xstrdup(s);
}

static int queued_jobs(struct fleet_job_list *l)
{
	const char *argv[] = { "squeue", "-h", "-o", "%i|%j|%T|%N|%n|%S|%r|%k", NULL };
	struct fleet_names lines = FLEET_NAMES_INIT;
	struct strbuf out = STRBUF_INIT;
	int rc = -1;

	if (slurm(argv, &out))
		goto out;
	split_lines(out.buf, &lines);
	for (size_t i = 0; i < lines.n; i++) {
		char *f[8];
		struct fleet_job_state *j;

		if (split_fields(lines.v[i], f, 8) ||
		    strncmp(f[1], FLEET_JOB_PREFIX, strlen(FLEET_JOB_PREFIX)))
			continue;
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		j = &l->v[l->n++];
		*j = (struct fleet_job_state) {
			.id = xstrdup(f[0]), .name = xstrdup(f[1]), .state = xstrdup(f[2]),
			.nodes = field_dup(*f[3] ? f[3] : f[4]), .start = field_dup(f[5]),
			.end = xstrdup(""), .exit_code = xstrdup(""), .reason = field_dup(f[6]),
			.comment = field_dup(f[7]),
		};
	}
	rc = 0;
out:
	fleet_names_release(&lines);
	strbuf_release(&out);
	return rc;
}

/* sacct, from accounting or with -c from the jobcomp log; 1 when neither
 * answers (printed nothing). */
static int finished_jobs(const char *since, struct fleet_job_list *l)
{
	const char *argv[] = { "sacct", "-X", "-n", "-P", "-S", since, "-o",
			       "JobID,JobName,State,NodeList,Start,End,ExitCode", NULL };
	struct fleet_names lines = FLEET_NAMES_INIT;
	struct strbuf out = STRBUF_INIT, err = STRBUF_INIT;
	int status, rc = -1;

	status = fleet_command(argv, SLURM_TIMEOUT_S, &out, &err);
	if (status < 0)
		goto out;
	if (status) {
		/* No slurmdbd: the jobcomp text log, if it is kept. */
		argv[1] = "-c";
		strbuf_reset(&out);
		strbuf_reset(&err);
		status = fleet_command(argv, SLURM_TIMEOUT_S, &out, &err);
		if (status) {
			rc = status < 0 ? -1 : 1;
			goto out;
		}
		l->from_jobcomp = 1;
	}
	split_lines(out.buf, &lines);
	for (size_t i = 0; i < lines.n; i++) {
		char *f[7];
		struct fleet_job_state *j;

		if (split_fields(lines.v[i], f, 7) ||
		    strncmp(f[1], FLEET_JOB_PREFIX, strlen(FLEET_JOB_PREFIX)) || has_id(l, f[0]))
			continue;
		ALLOC_GROW(l->v, l->n + 1, l->alloc);
		j = &l->v[l->n++];
		*j = (struct fleet_job_state) {
			.id = xstrdup(f[0]), .name = xstrdup(f[1]), .state = xstrdup(f[2]),
			.nodes = field_dup(f[3]), .start = field_dup(f[4]), .end = field_dup(f[5]),
			.exit_code = field_dup(f[6]), .reason = xstrdup(""), .comment = xstrdup(""),
		};
	}
	rc = 0;
out:
	fleet_names_release(&lines);
	strbuf_release(&out);
	strbuf_release(&err);
	return rc;
}

static int by_job_id(const void *a, const void *b)
{
	const struct fleet_job_state *x = a, *y = b;
	long long i = strtoll(x->id, NULL, 10), j = strtoll(y->id, NULL, 10);

	if (i != j)
		return i < j ? -1 : 1;
	return strcmp(x->id, y->id);
}

int fleet_list_jobs(const char *since, struct fleet_job_list *out)
{
	int rc;

	if (queued_jobs(out))
		return -1;
	rc = finished_jobs(since, out);
	if (rc < 0)
		return -1;
	out->no_history = rc > 0;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_job_id);
	return 0;
}

int fleet_chain_jobs(const char *job_name, const char *state, struct fleet_names *ids,
		     struct fleet_names *labels, struct fleet_names *nodes)
{
	const char *argv[] = { "squeue", "-h", "-t", state, "-o", "%i|%j|%N|%n", NULL };
	struct fleet_names lines = FLEET_NAMES_INIT;
	struct strbuf out = STRBUF_INIT, label = STRBUF_INIT;
	int rc = -1;

	if (slurm(argv, &out))
		goto out;
	split_lines(out.buf, &lines);
	for (size_t i = 0; i < lines.n; i++) {
		char *f[4];

		if (split_fields(lines.v[i], f, 4))
			continue;
		if (job_name ? strcmp(f[1], job_name) :
		    strncmp(f[1], FLEET_DAILY_PREFIX, strlen(FLEET_DAILY_PREFIX)))
			continue;
		fleet_names_add(ids, f[0]);
		strbuf_reset(&label);
		strbuf_addf(&label, "%s on %s", f[1], *f[2] ? f[2] : *f[3] ? f[3] : "any node");
		fleet_names_add(labels, label.buf);
		if (nodes)
			fleet_names_add(nodes, *f[2] ? f[2] : f[3]);
	}
	rc = 0;
out:
	fleet_names_release(&lines);
	strbuf_release(&out);
	strbuf_release(&label);
	return rc;
}

static int cancel_once(const char *job_name, int dry_run, size_t *n)
{
	struct fleet_names ids = FLEET_NAMES_INIT, labels = FLEET_NAMES_INIT;
	const char **argv = NULL;
	int rc = -1;

	if (fleet_chain_jobs(job_name, "PENDING", &ids, &labels, NULL))
		goto out;
	if (ids.n && dry_run) {
		for (size_t i = 0; i < ids.n; i++)
			printf("would cancel job %s (%s)\n", ids.v[i], labels.v[i]);
		*n += ids.n;
	} else if (ids.n) {
		argv = xcalloc(ids.n + 2, sizeof(*argv));
		argv[0] = "scancel";
		for (size_t i = 0; i < ids.n; i++)
			argv[i + 1] = ids.v[i];
		if (slurm(argv, NULL))
			goto out;
		for (size_t i = 0; i < ids.n; i++)
			printf("cancelled job %s (%s)\n", ids.v[i], labels.v[i]);
		*n += ids.n;
	}
	rc = 0;
out:
	free(argv);
	fleet_names_release(&ids);
	fleet_names_release(&labels);
	return rc;
}

int fleet_cancel_pending(const char *job_name, int dry_run, size_t *n)
{
	struct fleet_names running = FLEET_NAMES_INIT, labels = FLEET_NAMES_INIT;
	int rc = -1;

	*n = 0;
	if (dry_run)
		return cancel_once(job_name, 1, n);
	if (cancel_once(job_name, 0, n) || fleet_chain_jobs(job_name, "RUNNING", &running, &labels, NULL))
		goto out;
	if (running.n) {
		/* A job of the chain that has just started may be queueing its
		 * successor right now: look once more, a moment later. */
		struct timespec ts = { .tv_sec = 2, .tv_nsec = 0 };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (cancel_once(job_name, 0, n))
			goto out;
	}
	rc = 0;
out:
	fleet_names_release(&running);
	fleet_names_release(&labels);
	return rc;
}

/* ---- the runs of jobs ---- */

static void add_job_run(struct fleet_job_runs *l, int64_t run_id, const char *job_id,
			size_t len)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].job_id = xstrndup(job_id, len);
	l->v[l->n].run_id = run_id;
	l->n++;
}

static int meta_job_run(int64_t run_id, const char *job_id, void *arg)
{
	add_job_run(arg, run_id, job_id, strlen(job_id));
	return 0;
}

/* A run stored before runs recorded their Slurm job holds it in the note
 * the job's script gives it alone: "kbench fleet: Slurm job ID on node
 * NODE". */
static int note_job_run(const struct run_info *r, void *arg)
{
	static const char prefix[] = "kbench fleet: Slurm job ";
	struct fleet_job_runs *l = arg;
	const char *p = r->notes ? strstr(r->notes, prefix) : NULL;
	size_t len;

	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].run_id == r->id)
			return 0;
	if (!p)
		return 0;
	p += sizeof(prefix) - 1;
	len = strspn(p, "0123456789");
	if (!len || strncmp(p + len, " on node ", 9))
		return 0;
	add_job_run(l, r->id, p, len);
	return 0;
}

void fleet_job_runs_read(struct store *s, struct fleet_job_runs *l)
{
	if (!store_each_run_with_meta(s, "", "slurm-job", meta_job_run, l))
		store_each_run(s, NULL, note_job_run, l);
}

const struct fleet_job_run *fleet_job_runs_find(const struct fleet_job_runs *l,
						const char *job_id)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i].job_id, job_id))
			return &l->v[i];
	return NULL;
}

void fleet_job_runs_release(struct fleet_job_runs *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i].job_id);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}
