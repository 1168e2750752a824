/* fleet: the batch script of a fleet job, Slurm's commands run and their
 * output parsed (sbatch, squeue, scancel, sacct, sinfo, scontrol), and
 * bundles put into, listed in and fetched from a results location (a
 * WebDAV URL or a shared directory); a node's outbox of bundles, collect
 * into the store and its report. */
#include "config.h"
#include "fleet/fleet.h"
#include "lib/child.h"
#include "db/store.h"
#include "lib/error.h"
#include "fleet/http.h"
#include "lib/io.h"
#include "lib/strbuf.h"
#include "lib/xalloc.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* How long a Slurm command may take: sbatch retries an unreachable
 * controller for a while before it gives up. */
#define SLURM_TIMEOUT_S 120

/* ---- lists ---- */

void fleet_names_add(struct fleet_names *l, const char *s)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = xstrdup(s);
}

void fleet_names_release(struct fleet_names *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

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

/* Whether prog can be run as execvp would find it. */
static int in_path(const char *prog)
{
	const char *path = getenv("PATH");
	struct strbuf sb = STRBUF_INIT;
	int found = 0;

	if (strchr(prog, '/'))
		return !access(prog, X_OK);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	while (!found) {
		size_t len = strcspn(path, ":");

		strbuf_reset(&sb);
		if (len)
			strbuf_add(&sb, path, len);
		else
			strbuf_addch(&sb, '.');
		strbuf_addf(&sb, "/%s", prog);
		found = !access(sb.buf, X_OK);
		if (!path[len])
			break;
		path += len + 1;
	}
	strbuf_release(&sb);
	return found;
}

struct exec_arg {
	const char *const *argv;
	int capture_stdout;
	int err_fd;		/* stderr goes here; -1: left as it is */
};

static int exec_command(void *arg, int fd)
{
	const struct exec_arg *x = arg;

	if (x->capture_stdout && dup2(fd, STDOUT_FILENO) < 0)
		return -1;
	if (x->err_fd >= 0 && dup2(x->err_fd, STDERR_FILENO) < 0)
		return -1;
	execvp(x->argv[0], (char *const *)x->argv);
	fprintf(stderr, "cannot run '%s': %s\n", x->argv[0], strerror(errno));
	return -1;
}

/* argv as one line, for messages. */
static void add_cmdline(struct strbuf *sb, const char *const *argv)
{
	for (size_t i = 0; argv[i]; i++)
		strbuf_addf(sb, "%s%s", i ? " " : "", argv[i]);
}

int fleet_command(const char *const *argv, double timeout_s, struct strbuf *out,
		  struct strbuf *err)
{
	const char *dir = getenv("TMPDIR");
	struct exec_arg x = { .argv = argv, .capture_stdout = out != NULL, .err_fd = -1 };
	struct strbuf tmp = STRBUF_INIT, cmd = STRBUF_INIT;
	struct child c;
	int rc = -1, end;

	add_cmdline(&cmd, argv);
	if (!in_path(argv[0])) {
		error("cannot run '%s': no such program in PATH", argv[0]);
		goto out;
	}
	if (err) {
		/* stderr apart from stdout, in an unlinked scratch file. */
		strbuf_addf(&tmp, "%s/kbench-stderr-XXXXXX", dir && *dir ? dir : "/tmp");
		x.err_fd = mkstemp(tmp.buf);
		if (x.err_fd < 0) {
			error("cannot create a file in '%s': %s", dir && *dir ? dir : "/tmp",
			      strerror(errno));
			goto out;
		}
		unlink(tmp.buf);
	}
	fflush(stdout);
	fflush(stderr);
	if (child_start(&c, exec_command, &x))
		goto out;
	end = child_finish(&c, timeout_s, NULL, out);
	if (end < 0)
		goto out;
	if (end == CHILD_TIMEOUT) {
		error("'%s' did not finish within %.0f s", cmd.buf, timeout_s);
		goto out;
	}
	if (err && x.err_fd >= 0) {
		char buf[4096];
		ssize_t n;

		lseek(x.err_fd, 0, SEEK_SET);
		while ((n = read(x.err_fd, buf, sizeof(buf))) > 0)
			strbuf_add(err, buf, (size_t)n);
	}
	if (WIFEXITED(c.status))
		rc = WEXITSTATUS(c.status);
	else if (WIFSIGNALED(c.status))
		rc = 128 + WTERMSIG(c.status);
	else
		rc = 128;
out:
	if (x.err_fd >= 0)
		close(x.err_fd);
	strbuf_release(&tmp);
	strbuf_release(&cmd);
	return rc;
}

/* Say that argv failed with status, and what it printed. Returns -1. */
static int command_failed(const char *const *argv, int status, const struct strbuf *out,
			  const struct strbuf *err)
{
	struct strbuf msg = STRBUF_INIT, text = STRBUF_INIT;
	struct fleet_names lines = FLEET_NAMES_INIT;

	strbuf_addch(&msg, '\'');
	add_cmdline(&msg, argv);
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

int fleet_job_script(const struct fleet_job *job, struct strbuf *out)
{
	struct strbuf text = STRBUF_INIT, key = STRBUF_INIT;
	int rc = -1;

	strbuf_addstr(out, "#!/bin/sh\n");
	strbuf_addf(out, "#SBATCH --job-name=%s\n", job->job_name);
	strbuf_addstr(out, "#SBATCH --exclusive\n");
	if (job->partition)
		strbuf_addf(out, "#SBATCH --partition=%s\n", job->partition);
	if (job->results) {
		http_url_redact(&key, job->results);
		if (plain_word(key.buf))
			strbuf_addf(out, "#SBATCH --comment=%s\n", key.buf);
	}
	strbuf_addstr(out,
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
	if (job->results) {
		strbuf_addstr(out, "results=");
		add_sq(out, job->results);
		strbuf_addstr(out, "\n\"$kbench\" --db \"$dir/kbench.db\" fleet upload \"$results\" ||\n"
			      "\t[ \"$status\" -ne 0 ] || status=1\n");
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

static int cancel_once(const char *job_name, size_t *n)
{
	struct fleet_names ids = FLEET_NAMES_INIT, labels = FLEET_NAMES_INIT;
	const char **argv = NULL;
	int rc = -1;

	if (fleet_chain_jobs(job_name, "PENDING", &ids, &labels, NULL))
		goto out;
	if (ids.n) {
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

int fleet_cancel_pending(const char *job_name, size_t *n)
{
	struct fleet_names running = FLEET_NAMES_INIT, labels = FLEET_NAMES_INIT;
	int rc = -1;

	*n = 0;
	if (cancel_once(job_name, n) || fleet_chain_jobs(job_name, "RUNNING", &running, &labels, NULL))
		goto out;
	if (running.n) {
		/* A job of the chain that has just started may be queueing its
		 * successor right now: look once more, a moment later. */
		struct timespec ts = { .tv_sec = 2, .tv_nsec = 0 };

		while (nanosleep(&ts, &ts) && errno == EINTR)
			;
		if (cancel_once(job_name, n))
			goto out;
	}
	rc = 0;
out:
	fleet_names_release(&running);
	fleet_names_release(&labels);
	return rc;
}

/* ---- results locations ---- */

int fleet_is_bundle_name(const char *name)
{
	static const char shape[] = "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx.kbench";

	if (strlen(name) != sizeof(shape) - 1)
		return 0;
	for (size_t i = 0; shape[i]; i++)
		if (shape[i] == 'x' ? !isxdigit((unsigned char)name[i]) || isupper((unsigned char)name[i]) :
		    name[i] != shape[i])
			return 0;
	return 1;
}

void fleet_bundle_list_release(struct fleet_bundle_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].host);
		free(l->v[i].file);
	}
	free(l->v);
	l->v = NULL;
	l->n = l->alloc = 0;
}

static void add_bundle(struct fleet_bundle_list *l, const char *host, const char *file,
		       int64_t size_bytes, int64_t modified)
{
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n++] = (struct fleet_bundle) {
		.host = xstrdup(host), .file = xstrdup(file),
		.size_bytes = size_bytes, .modified = modified,
	};
}

static int by_host_file(const void *a, const void *b)
{
	const struct fleet_bundle *x = a, *y = b;
	int c = strcmp(x->host, y->host);

	return c ? c : strcmp(x->file, y->file);
}

/* A host directory name that could be ours: not hidden, no '/'. */
static int host_name_ok(const char *name)
{
	return *name && *name != '.' && !strchr(name, '/');
}

static int list_url(const char *results, struct fleet_bundle_list *out)
{
	struct http_listing top = HTTP_LISTING_INIT;
	struct strbuf url = STRBUF_INIT, sub = STRBUF_INIT;
	int rc = -1;

	/* A collection's URL ends with '/': servers may not list it otherwise. */
	strbuf_addstr(&url, results);
	if (url.buf[url.len - 1] != '/')
		strbuf_addch(&url, '/');
	if (http_list(NULL, url.buf, &top))
		goto out;
	for (size_t i = 0; i < top.n; i++) {
		struct http_listing files = HTTP_LISTING_INIT;

		if (!top.v[i].is_collection || !host_name_ok(top.v[i].name))
			continue;
		strbuf_reset(&sub);
		http_url_join(&sub, url.buf, top.v[i].name);
		strbuf_addch(&sub, '/');
		if (http_list(NULL, sub.buf, &files))
			goto out;
		for (size_t k = 0; k < files.n; k++)
			if (!files.v[k].is_collection && fleet_is_bundle_name(files.v[k].name))
				add_bundle(out, top.v[i].name, files.v[k].name,
					   files.v[k].size_bytes, files.v[k].modified);
		http_listing_release(&files);
	}
	rc = 0;
out:
	http_listing_release(&top);
	strbuf_release(&url);
	strbuf_release(&sub);
	return rc;
}

static int list_dir(const char *dir, struct fleet_bundle_list *out)
{
	struct strbuf path = STRBUF_INIT;
	DIR *top = opendir(dir), *d = NULL;
	struct dirent *e, *f;
	struct stat st;
	int rc = -1;

	if (!top)
		return error("cannot list results directory '%s': %s", dir, strerror(errno));
	while ((e = readdir(top))) {
		if (!host_name_ok(e->d_name))
			continue;
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		if (stat(path.buf, &st) || !S_ISDIR(st.st_mode))
			continue;
		d = opendir(path.buf);
		if (!d) {
			error("cannot list '%s': %s", path.buf, strerror(errno));
			goto out;
		}
		while ((f = readdir(d))) {
			if (!fleet_is_bundle_name(f->d_name))
				continue;
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s/%s", dir, e->d_name, f->d_name);
			if (!stat(path.buf, &st) && S_ISREG(st.st_mode))
				add_bundle(out, e->d_name, f->d_name, (int64_t)st.st_size,
					   (int64_t)st.st_mtime);
		}
		closedir(d);
		d = NULL;
	}
	rc = 0;
out:
	if (d)
		closedir(d);
	closedir(top);
	strbuf_release(&path);
	return rc;
}

int fleet_list_bundles(const char *results, struct fleet_bundle_list *out)
{
	if (http_is_url(results) ? list_url(results, out) : list_dir(results, out))
		return -1;
	if (out->n)
		qsort(out->v, out->n, sizeof(*out->v), by_host_file);
	return 0;
}

/* Copy the file at from into a new file at to, synced. */
static int copy_file(const char *from, const char *to)
{
	char buf[65536];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = -1, rc = -1;
	ssize_t n;

	if (in < 0)
		return error("cannot open '%s': %s", from, strerror(errno));
	out = open(to, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	if (out < 0) {
		error("cannot create '%s': %s", to, strerror(errno));
		goto out;
	}
	while ((n = read(in, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot read '%s': %s", from, strerror(errno));
			goto out;
		}
		if (write_full(out, buf, (size_t)n)) {
			error("cannot write '%s': %s", to, strerror(errno));
			goto out;
		}
	}
	if (fsync(out)) {
		error("cannot write '%s': %s", to, strerror(errno));
		goto out;
	}
	rc = 0;
out:
	close(in);
	if (out >= 0 && close(out) && !rc)
		rc = error("cannot write '%s': %s", to, strerror(errno));
	if (rc && out >= 0)
		unlink(to);
	return rc;
}

int fleet_fetch_bundle(const char *results, const struct fleet_bundle *b, const char *path)
{
	struct strbuf src = STRBUF_INIT;
	int rc;

	if (http_is_url(results)) {
		http_url_join(&src, results, b->host);
		strbuf_addch(&src, '/');
		strbuf_addstr(&src, b->file);
		rc = http_get_file(NULL, src.buf, path);
	} else {
		strbuf_addf(&src, "%s/%s/%s", results, b->host, b->file);
		rc = copy_file(src.buf, path);
	}
	strbuf_release(&src);
	return rc;
}

int fleet_put_bundle(const char *results, const char *host, const char *file,
		     const char *path, int attempts)
{
	struct strbuf dst = STRBUF_INIT, tmp = STRBUF_INIT;
	struct http_options o = { .attempts = attempts };
	struct stat st;
	int rc = -1;

	if (http_is_url(results)) {
		http_url_join(&dst, results, host);
		strbuf_addch(&dst, '/');
		strbuf_addstr(&dst, file);
		rc = http_put_file(&o, dst.buf, path);
		goto out;
	}
	if (stat(results, &st)) {
		error("cannot upload '%s' to results directory '%s': %s", path, results,
		      strerror(errno));
		goto out;
	}
	if (!S_ISDIR(st.st_mode)) {
		error("cannot upload '%s': '%s' is not a directory", path, results);
		goto out;
	}
	strbuf_addf(&dst, "%s/%s", results, host);
	if (mkdir(dst.buf, 0755) && errno != EEXIST) {
		error("cannot create '%s': %s", dst.buf, strerror(errno));
		goto out;
	}
	/* Copied beside its final name, then renamed: never seen half written. */
	strbuf_addf(&tmp, "%s/.%s.part-%ld", dst.buf, file, (long)getpid());
	strbuf_addf(&dst, "/%s", file);
	unlink(tmp.buf);
	if (copy_file(path, tmp.buf))
		goto out;
	if (rename(tmp.buf, dst.buf)) {
		error("cannot rename '%s' to '%s': %s", tmp.buf, dst.buf, strerror(errno));
		unlink(tmp.buf);
		goto out;
	}
	rc = 0;
out:
	strbuf_release(&dst);
	strbuf_release(&tmp);
	return rc;
}

int fleet_results_key(const char *results, struct strbuf *out)
{
	char real[PATH_MAX];

	if (http_is_url(results)) {
		http_url_redact(out, results);
	} else {
		if (!realpath(results, real))
			return error("cannot use results directory '%s': %s", results,
				     strerror(errno));
		strbuf_addstr(out, real);
	}
	while (out->len > 1 && out->buf[out->len - 1] == '/')
		out->buf[--out->len] = '\0';
	return 0;
}

/* ---- outbox, collect and report ---- */

int fleet_self_path(struct strbuf *out)
{
	char buf[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", buf, sizeof(buf) - 1);

	if (n <= 0)
		return error("cannot find the kbench binary (/proc/self/exe): %s",
			     n < 0 ? strerror(errno) : "empty");
	strbuf_add(out, buf, (size_t)n);
	return 0;
}

/* A run to export: its id, uuid and host. */
struct pending_run {
	int64_t id;
	char uuid[40];
	char *host;
};

struct pending_runs {
	struct pending_run *v;
	size_t n, alloc;
};

/* A host name as a directory name: no '/', not hidden. */
static void host_dir(struct strbuf *out, const char *host)
{
	size_t start = out->len;

	strbuf_addstr(out, *host ? host : "unknown");
	if (out->buf[start] == '.')
		out->buf[start] = '_';
	for (size_t i = start; i < out->len; i++)
		if (out->buf[i] == '/')
			out->buf[i] = '_';
}

static int collect_run(const struct run_info *r, void *arg)
{
	struct pending_runs *l = arg;

	if (!strcmp(r->status, "running"))
		return 0;	/* exported once it has finished */
	ALLOC_GROW(l->v, l->n + 1, l->alloc);
	l->v[l->n].id = r->id;
	snprintf(l->v[l->n].uuid, sizeof(l->v[l->n].uuid), "%s", r->uuid);
	l->v[l->n].host = xstrdup(r->hostname);
	l->n++;
	return 0;
}

static int mkdir_p(const char *dir)
{
	struct strbuf sb = STRBUF_INIT;
	int rc = 0;

	strbuf_addstr(&sb, dir);
	for (char *p = sb.buf + 1;; p++) {
		char c = *p;

		if (c && c != '/')
			continue;
		*p = '\0';
		if (mkdir(sb.buf, 0755) && errno != EEXIST) {
			rc = error("cannot create directory '%s': %s", sb.buf, strerror(errno));
			break;
		}
		*p = c;
		if (!c)
			break;
	}
	strbuf_release(&sb);
	return rc;
}

int fleet_export_new_runs(struct store *s, const char *outbox, const char *sent)
{
	struct pending_runs runs = { .n = 0 };
	struct strbuf path = STRBUF_INIT, dir = STRBUF_INIT;
	struct stat st;
	int rc = 0;

	if (store_each_run(s, NULL, collect_run, &runs)) {
		rc = -1;
		goto out;
	}
	for (size_t i = 0; i < runs.n; i++) {
		const struct pending_run *r = &runs.v[i];

		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s", sent, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/", outbox);
		host_dir(&dir, r->host);
		strbuf_reset(&path);
		strbuf_addf(&path, "%s/%s.kbench", dir.buf, r->uuid);
		if (!lstat(path.buf, &st))
			continue;
		if (mkdir_p(dir.buf) || store_export(s, &r->id, 1, path.buf))
			rc = -1;
	}
out:
	for (size_t i = 0; i < runs.n; i++)
		free(runs.v[i].host);
	free(runs.v);
	strbuf_release(&path);
	strbuf_release(&dir);
	return rc;
}

/* Create the empty file path (or leave it as it is). */
static int touch(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);

	return fd < 0 || close(fd) ? -1 : 0;
}

int fleet_send_outbox(const char *outbox, const char *sent, const char *results, int tries,
		      void (*uploaded)(const char *host, const char *file, void *arg), void *arg)
{
	struct strbuf dir = STRBUF_INIT, path = STRBUF_INIT, mark = STRBUF_INIT;
	struct fleet_names hosts = FLEET_NAMES_INIT;
	DIR *top = opendir(outbox), *d;
	struct dirent *e;
	int rc = 0;

	if (!top)
		return errno == ENOENT ? 0 : error("cannot list '%s': %s", outbox, strerror(errno));
	while ((e = readdir(top)))
		if (e->d_name[0] != '.')
			fleet_names_add(&hosts, e->d_name);
	closedir(top);
	for (size_t i = 0; i < hosts.n; i++) {
		struct fleet_names files = FLEET_NAMES_INIT;

		strbuf_reset(&dir);
		strbuf_addf(&dir, "%s/%s", outbox, hosts.v[i]);
		d = opendir(dir.buf);
		if (!d)
			continue;
		while ((e = readdir(d)))
			if (fleet_is_bundle_name(e->d_name))
				fleet_names_add(&files, e->d_name);
		closedir(d);
		for (size_t k = 0; k < files.n; k++) {
			strbuf_reset(&path);
			strbuf_addf(&path, "%s/%s", dir.buf, files.v[k]);
			if (fleet_put_bundle(results, hosts.v[i], files.v[k], path.buf, tries)) {
				warning("kept '%s' for the next upload", path.buf);
				rc = -1;
				continue;
			}
			uploaded(hosts.v[i], files.v[k], arg);
			/* Remembered as sent before it leaves the outbox. */
			strbuf_reset(&mark);
			strbuf_addf(&mark, "%s/%.36s", sent, files.v[k]);
			if (mkdir_p(sent) || touch(mark.buf) || unlink(path.buf)) {
				error("cannot move '%s' out of the outbox: %s", path.buf,
				      strerror(errno));
				rc = -1;
			}
		}
		fleet_names_release(&files);
	}
	fleet_names_release(&hosts);
	strbuf_release(&dir);
	strbuf_release(&path);
	strbuf_release(&mark);
	return rc;
}

/* The counts of host in c, added if new. */
static struct fleet_host_count *host_count(struct fleet_collect *c, const char *host)
{
	for (size_t i = 0; i < c->nhosts; i++)
		if (!strcmp(c->hosts[i].host, host))
			return &c->hosts[i];
	ALLOC_GROW(c->hosts, c->nhosts + 1, c->alloc);
	memset(&c->hosts[c->nhosts], 0, sizeof(c->hosts[c->nhosts]));
	c->hosts[c->nhosts].host = xstrdup(host);
	return &c->hosts[c->nhosts++];
}

static void iso_time(char *buf, size_t len, int64_t t)
{
	time_t tt = (time_t)t;
	struct tm tm;

	gmtime_r(&tt, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Fetch, import and record one bundle. */
static int collect_one(struct store *s, const char *results, const char *key,
		       const char *scratch, const struct fleet_bundle *b, struct fleet_host_count *hc)
{
	struct strbuf path = STRBUF_INIT, rel = STRBUF_INIT, shown = STRBUF_INIT;
	struct bundle *bundle = NULL;
	struct import_counts c;
	char modified[32], now[32];
	struct fleet_collected rec;
	int rc = -1;

	strbuf_addf(&path, "%s/%s", scratch, b->file);
	strbuf_addf(&rel, "%s/%s", b->host, b->file);
	strbuf_addf(&shown, "%s/%s", key, rel.buf);
	if (fleet_fetch_bundle(results, b, path.buf) ||
	    bundle_open_as(path.buf, shown.buf, &bundle) ||
	    store_import(s, bundle, 0, NULL, NULL, &c)) {
		error("'%s/%s' not collected; a later collect tries it again", key, rel.buf);
		goto out;
	}
	if (b->modified >= 0)
		iso_time(modified, sizeof(modified), b->modified);
	iso_time(now, sizeof(now), (int64_t)time(NULL));
	rec = (struct fleet_collected) {
		.source = key,
		.path = rel.buf,
		.size_bytes = b->size_bytes,
		.modified_at = b->modified >= 0 ? modified : NULL,
		.collected_at = now,
		.runs_added = (int64_t)c.runs,
	};
	if (store_fleet_add_collected(s, &rec))
		goto out;
	hc->fetched++;
	hc->runs += c.runs;
	hc->present += c.present;
	hc->samples += c.samples;
	rc = 0;
out:
	bundle_close(bundle);
	unlink(path.buf);
	strbuf_release(&path);
	strbuf_release(&rel);
	strbuf_release(&shown);
	return rc;
}

int fleet_collect_bundles(struct store *s, const struct fleet_bundle_list *bundles,
			  struct fleet_collect *c)
{
	struct strbuf scratch = STRBUF_INIT;
	const char *tmpdir = getenv("TMPDIR");
	int rc = -1;

	strbuf_addf(&scratch, "%s/kbench-collect-XXXXXX", tmpdir && *tmpdir ? tmpdir : "/tmp");
	if (!c->dry_run && !mkdtemp(scratch.buf)) {
		error("cannot create a directory in '%s': %s", tmpdir && *tmpdir ? tmpdir : "/tmp",
		      strerror(errno));
		strbuf_reset(&scratch);
		goto out;
	}
	for (size_t i = 0; i < bundles->n; i++) {
		const struct fleet_bundle *b = &bundles->v[i];
		struct fleet_host_count *hc = host_count(c, b->host);
		struct strbuf rel = STRBUF_INIT;
		int have;

		if (c->since_set && b->modified >= 0 && b->modified < c->since)
			continue;
		hc->listed++;
		strbuf_addf(&rel, "%s/%s", b->host, b->file);
		have = 0;
		if (s && store_fleet_is_collected(s, c->key, rel.buf, &have)) {
			strbuf_release(&rel);
			goto out;
		}
		if (!have && c->dry_run)
			c->would_collect(rel.buf, c->arg);
		else if (!have && collect_one(s, c->results, c->key, scratch.buf, b, hc))
			hc->failed++;
		strbuf_release(&rel);
	}
	rc = 0;
out:
	if (scratch.len && !c->dry_run)
		rmdir(scratch.buf);
	strbuf_release(&scratch);
	return rc;
}

void fleet_collect_release(struct fleet_collect *c)
{
	for (size_t i = 0; i < c->nhosts; i++)
		free(c->hosts[i].host);
	free(c->hosts);
	c->hosts = NULL;
	c->nhosts = c->alloc = 0;
}

/* Whether r is newer than n: started later; in the same second (times are
 * stored to the second), finished later, an unfinished run last; on a
 * full tie, stored later (runs come in id order), so that the answer does
 * not depend on which of two such runs a collect happened to meet first. */
static int newer(const struct run_info *r, const struct fleet_newest *n)
{
	int c;

	if (!n->started_at)
		return 1;
	c = strcmp(r->started_at, n->started_at);
	if (c)
		return c > 0;
	if (!r->finished_at || !n->finished_at)
		return !r->finished_at;
	return strcmp(r->finished_at, n->finished_at) >= 0;
}

static int keep_newest(const struct run_info *r, void *arg)
{
	struct fleet_newest *n = arg;

	if (newer(r, n)) {
		free(n->name);
		free(n->started_at);
		free(n->finished_at);
		n->name = xstrdup(r->name);
		n->started_at = xstrdup(r->started_at);
		n->finished_at = r->finished_at ? xstrdup(r->finished_at) : NULL;
		n->id = r->id;
	}
	return 0;
}

void fleet_newest_release(struct fleet_newest *n)
{
	free(n->name);
	free(n->started_at);
	free(n->finished_at);
	n->name = n->started_at = n->finished_at = NULL;
	n->id = 0;
}

int fleet_newest_run(struct store *s, const char *host, const char *status,
		     struct fleet_newest *out)
{
	struct run_filter f = { .host = host, .status = status };

	return store_each_run(s, &f, keep_newest, out);
}

/* Run this kbench with args on the store (stdout and stderr passed
 * through); its exit status, or -1. */
static int run_kbench(struct store *s, const char *const *args)
{
	struct strbuf self = STRBUF_INIT;
	const char *argv[16];
	size_t n = 0;
	int status = -1;

	if (fleet_self_path(&self))
		goto out;
	argv[n++] = self.buf;
	argv[n++] = "--db";
	argv[n++] = store_path(s);
	for (; *args && n < 15; args++)
		argv[n++] = *args;
	argv[n] = NULL;
	status = fleet_command(argv, FLEET_KBENCH_TIMEOUT_S, NULL, NULL);
out:
	strbuf_release(&self);
	return status;
}

/* Whether this kbench's compare takes --per-host. */
static int compare_has_per_host(void)
{
	struct strbuf self = STRBUF_INIT, out = STRBUF_INIT;
	int has = 0;

	if (!fleet_self_path(&self)) {
		const char *argv[] = { self.buf, "compare", "--help", NULL };

		if (!fleet_command(argv, FLEET_KBENCH_TIMEOUT_S, &out, &out))
			has = strstr(out.buf, "--per-host") != NULL;
	}
	strbuf_release(&self);
	strbuf_release(&out);
	return has;
}

/* The hosts collected from key, in name order. */
static int add_host(const struct fleet_collected *c, void *arg)
{
	struct fleet_names *hosts = arg;
	const char *slash = strchr(c->path, '/');
	char *host = xstrndup(c->path, slash ? (size_t)(slash - c->path) : strlen(c->path));
	size_t i;

	for (i = 0; i < hosts->n && strcmp(hosts->v[i], host); i++)
		;
	if (i == hosts->n)
		fleet_names_add(hosts, host);
	free(host);
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The newest complete run not named `name` on any of hosts. */
struct other_name {
	const char *name;
	const struct fleet_names *hosts;
	char *found, *started_at;
};

static int keep_other_name(const struct run_info *r, void *arg)
{
	struct other_name *o = arg;
	size_t i;

	for (i = 0; i < o->hosts->n && strcmp(o->hosts->v[i], r->hostname); i++)
		;
	if (i == o->hosts->n || !strcmp(r->name, o->name) ||
	    (o->started_at && strcmp(r->started_at, o->started_at) <= 0))
		return 0;
	free(o->found);
	free(o->started_at);
	o->found = xstrdup(r->name);
	o->started_at = xstrdup(r->started_at);
	return 0;
}

/* Whether host has a complete run named name: 1, 0, or -1 after an error. */
static int has_run_named(struct store *s, const char *name, const char *host)
{
	int64_t *ids = NULL;
	size_t n = 0;

	if (store_runs_named_on(s, name, host, &ids, &n))
		return -1;
	free(ids);
	return n > 0;
}

int fleet_report(struct store *s, const char *key)
{
	struct fleet_names hosts = FLEET_NAMES_INIT;
	struct fleet_newest newest = { .name = NULL }, host_new = { .name = NULL };
	struct other_name base = { .name = NULL };
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	int rc = -1, found = 0;

	if (store_fleet_each_collected(s, key, add_host, &hosts))
		goto out;
	if (hosts.n)
		qsort(hosts.v, hosts.n, sizeof(*hosts.v), by_name);
	for (size_t i = 0; i < hosts.n; i++) {
		const char *args[] = { "regressions", "--host", hosts.v[i], NULL };
		int status;

		printf("\nRegressions on %s:\n", hosts.v[i]);
		status = run_kbench(s, args);
		if (status < 0 || status > 1)
			goto out;
		found |= status == 1;
		if (fleet_newest_run(s, hosts.v[i], "complete", &newest))
			goto out;
	}
	if (!newest.name) {
		printf("\nNo complete run to compare.\n");
		rc = found;
		goto out;
	}
	/* The newest name against the name run before it, per host. */
	base.name = newest.name;
	base.hosts = &hosts;
	if (store_each_run(s, NULL, keep_other_name, &base))
		goto out;
	if (base.found && compare_has_per_host()) {
		const char *args[] = { "compare", "--per-host", base.found, newest.name, NULL };

		printf("\n%s against %s on each host:\n", newest.name, base.found);
		if (run_kbench(s, args) < 0)
			goto out;
		rc = found;
		goto out;
	}
	for (size_t i = 0; i < hosts.n; i++) {
		int64_t prev = 0;
		int have_prev = 0, status;

		fleet_newest_release(&host_new);
		if (fleet_newest_run(s, hosts.v[i], "complete", &host_new))
			goto out;
		if (!host_new.name)
			continue;
		strbuf_reset(&a);
		strbuf_reset(&b);
		if (base.found) {
			/* Each host's latest run of both names, as --per-host does. */
			int both = has_run_named(s, base.found, hosts.v[i]);

			if (both > 0)
				both = has_run_named(s, newest.name, hosts.v[i]);
			if (both < 0)
				goto out;
			if (!both)
				continue;
			strbuf_addf(&a, "%s@%s", base.found, hosts.v[i]);
			strbuf_addf(&b, "%s@%s", newest.name, hosts.v[i]);
		} else {
			if (store_previous_run(s, host_new.id, &prev, &have_prev))
				goto out;
			if (!have_prev) {
				printf("\n%s: one complete run of its config, nothing to compare\n",
				       hosts.v[i]);
				continue;
			}
			strbuf_addf(&a, "#%lld", (long long)prev);
			strbuf_addf(&b, "#%lld", (long long)host_new.id);
		}
		printf("\n%s:\n", hosts.v[i]);
		{
			const char *args[] = { "compare", a.buf, b.buf, NULL };

			status = run_kbench(s, args);
		}
		if (status < 0)
			goto out;
	}
	rc = found;
out:
	fleet_names_release(&hosts);
	fleet_newest_release(&newest);
	fleet_newest_release(&host_new);
	free(base.found);
	free(base.started_at);
	strbuf_release(&a);
	strbuf_release(&b);
	return rc;
}
