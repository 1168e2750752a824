/* schedule: kbench fleet submit and schedule's work: the name of a job
 * or chain, the defaults of where it runs, its script submitted to each
 * node (or shown, for a dry run) and what each node did with it. */
#include "config.h"
#include "fleet/fleet.h"
#include "fleet/http.h"
#include "lib/error.h"
#include "lib/strbuf.h"

#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* The length of base, a file name, without a ".conf" at its end. */
static size_t conf_base_len(const char *base)
{
	size_t len = strlen(base);

	if (len > 5 && !strcmp(base + len - 5, ".conf"))
		len -= 5;
	return len;
}

static const char *file_base(const char *path)
{
	const char *base = strrchr(path, '/');

	return base ? base + 1 : path;
}

void fleet_job_label(const char *name, const char *watch, const char *const *configs,
		     size_t nconfigs, struct strbuf *out)
{
	size_t start = out->len;

	if (name) {
		strbuf_addstr(out, name);
	} else if (watch) {
		const char *base = file_base(watch);

		strbuf_addstr(out, "watch-");
		strbuf_add(out, base, conf_base_len(base));
	} else {
		for (size_t i = 0; i < nconfigs; i++) {
			const char *base = file_base(configs[i]);

			if (i)
				strbuf_addch(out, '+');
			strbuf_add(out, base, conf_base_len(base));
		}
	}
	for (size_t i = start; i < out->len; i++) {
		char c = out->buf[i];

		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      strchr("._+-", c)))
			out->buf[i] = '_';
	}
}

/* The nodes' directory when --db-dir gives none: one a user, so that
 * two users' jobs on a node keep apart. */
static void default_db_dir(struct strbuf *out)
{
	const struct passwd *pw = getpwuid(geteuid());

	strbuf_addstr(out, "/var/tmp/kbench-fleet");
	if (pw && pw->pw_name && *pw->pw_name)
		strbuf_addf(out, "-%s", pw->pw_name);
}

/* A dry run asks Slurm nothing: the nodes of a plain --nodes list are
 * shown each; those only Slurm can name (every node, a partition's,
 * n[1-4]) as one line with NODE, and said so. */
static int show_dry_run(const char *script, const struct fleet_job *job, const char *nodes,
			const char *begin)
{
	struct fleet_names names = FLEET_NAMES_INIT;
	struct strbuf cmdline = STRBUF_INIT;
	int rc = 1;

	fputs(script, stdout);
	if (nodes && !strchr(nodes, '[')) {
		if (fleet_nodes(nodes, NULL, &names))
			goto out;
	} else {
		fleet_names_add(&names, "NODE");
		if (nodes)
			printf("# for each node of %s", nodes);
		else if (job->partition)
			printf("# for each node of partition %s", job->partition);
		else
			printf("# for each node Slurm knows");
		printf(" (a dry run asks Slurm nothing: --nodes n1,n2 names them)\n");
	}
	for (size_t i = 0; i < names.n; i++) {
		strbuf_reset(&cmdline);
		fleet_submit_cmdline(names.v[i], begin, "SCRIPT", &cmdline);
		printf("# %s\n", cmdline.buf);
	}
	rc = fflush(stdout) ? 1 : 0;
out:
	fleet_names_release(&names);
	strbuf_release(&cmdline);
	return rc;
}

/* What each node did with the job (submitted, or its chain left
 * pending), said; label names the chain for unschedule. Return the
 * exit status: 1 when a submission failed or every node had the chain
 * already. */
static int say_submitted(const struct fleet_job *job, const char *label, const char *begin,
			 const struct fleet_submissions *done)
{
	struct strbuf ids = STRBUF_INIT;
	size_t failed = 0, skipped = 0;
	int rc;

	for (size_t i = 0; i < done->n; i++) {
		const struct fleet_submitted *r = &done->v[i];

		if (r->pending) {
			warning("chain '%s' is scheduled on %s already (job %s is pending): left as it is",
				job->job_name, r->node, r->pending);
			skipped++;
		} else if (!r->job_id) {
			failed++;
		} else {
			printf("submitted job %s (%s) to %s\n", r->job_id, job->job_name, r->node);
			strbuf_addf(&ids, "%s%s", ids.len ? ", " : "", r->job_id);
		}
	}
	if (job->daily && ids.len)
		printf("chain '%s' runs daily at %s%s%s; 'kbench fleet unschedule %s' ends it\n",
		       job->job_name, job->daily, begin ? ", first at " : "", begin ? begin : "",
		       label);
	if (skipped == done->n)
		error("chain '%s' is scheduled on every node given already: 'kbench fleet "
		      "unschedule %s' ends it", job->job_name, label);
	rc = failed || skipped == done->n ? 1 : 0;
	if (fflush(stdout))
		rc = 1;
	strbuf_release(&ids);
	return rc;
}

int fleet_schedule(const struct fleet_job *given, const char *nodes, const char *begin,
		   int dry_run)
{
	struct fleet_job job = *given;
	struct strbuf label = STRBUF_INIT, job_name = STRBUF_INIT, script = STRBUF_INIT;
	struct strbuf kbench = STRBUF_INIT, db_dir = STRBUF_INIT, redacted = STRBUF_INIT;
	struct fleet_names names = FLEET_NAMES_INIT;
	struct fleet_submissions done = FLEET_SUBMISSIONS_INIT;
	const char *first = begin ? begin : job.daily;
	int rc = 1;

	if (job.results) {
		http_url_redact(&redacted, job.results);
		if (strcmp(redacted.buf, job.results))
			warning("the credentials in '--results' go into the job's script, which "
				"Slurm keeps: give them to the nodes in ~/.netrc instead");
	}
	fleet_job_label(job.run_name, job.watch, job.configs, job.nconfigs, &label);
	strbuf_addf(&job_name, "%s%s", job.daily ? FLEET_DAILY_PREFIX : FLEET_JOB_PREFIX,
		    label.buf);
	job.job_name = job_name.buf;
	if (job.kbench)
		strbuf_addstr(&kbench, job.kbench);
	else if (fleet_self_path(&kbench))
		goto out;
	job.kbench = kbench.buf;
	if (job.db_dir)
		strbuf_addstr(&db_dir, job.db_dir);
	else
		default_db_dir(&db_dir);
	job.db_dir = db_dir.buf;
	if (fleet_job_script(&job, &script))
		goto out;
	if (dry_run) {
		rc = show_dry_run(script.buf, &job, nodes, first);
		goto out;
	}
	if (fleet_nodes(nodes, job.partition, &names) ||
	    fleet_submit_each(script.buf, job.job_name, !!job.daily, &names, first, &done))
		goto out;
	rc = say_submitted(&job, label.buf, begin, &done);
out:
	strbuf_release(&label);
	strbuf_release(&job_name);
	strbuf_release(&script);
	strbuf_release(&kbench);
	strbuf_release(&db_dir);
	strbuf_release(&redacted);
	fleet_names_release(&names);
	fleet_submissions_release(&done);
	return rc;
}
