#include "cmd/run_common.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd/cmd.h"
#include "cmd/options.h"
#include "core/gate.h"
#include "report/progress.h"
#include "store/history.h"

void output_opts_init(struct output_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fmt = report_format_find(&result_formats, "text");
	o->ropts.units = UNITS_IEC;
}

int output_opts_format(struct output_opts *o, const struct report_formats *kind)
{
	char why[160];

	if ((o->fmt = report_format_find(kind, o->format ? o->format : "text")))
		return 0;
	return usage_error("%s", report_format_refusal(kind, o->format_given, why, sizeof(why)));
}

/*
 * --save of a run of one job or several: one entry of the history, with the output settings
 * it was printed with, so that 'history show' prints the same report. The run already happened
 * and was printed, so a history that cannot be written costs a warning, never the exit status.
 */
static void save_set(const struct result_set *s, const struct output_opts *o)
{
	struct history_output out = {.units = o->ropts.units, .series = o->ropts.series,
				     .brief = o->ropts.brief};
	struct history *h = NULL;
	char err[512] = "";
	int64_t id;

	snprintf(out.format, sizeof(out.format), "%s", o->fmt->name);
	if (history_open(o->db, &h, err, sizeof(err)) ||
	    history_save_printed(h, s, &out, &id, err, sizeof(err)))
		run_error("warning: the run was not saved: %s", err);
	else
		run_error("saved as run %lld in %s", (long long)id, history_path(h));
	history_close_unused(h); /* a new database whose first save failed is not left empty */
}

static void save_result(const struct result *r, const struct output_opts *o)
{
	struct result_set s;

	if (result_set_view(&s, r, 1))
		run_error("warning: the run was not saved: out of memory");
	else
		save_set(&s, o);
	result_set_release(&s);
}

void cmd_result_spell(struct result *r)
{
	char buf[sizeof(r->errmsg)];

	cmd_spell(buf, sizeof(buf), r->errmsg);
	memcpy(r->errmsg, buf, sizeof(buf));
}

int cmd_run_failed(int rc, const struct result *r, const char *label)
{
	run_error("%s%s%s", label ? label : "", label ? ": " : "",
		  r->errmsg[0] ? r->errmsg : strerror(-rc));
	return !r->started && (rc == -EDOM || rc == -EINVAL) ? EXIT_USAGE : 1;
}

/* The report on standard output (cmd_stdout_open()): 0, or 1 after saying it was lost. */
static int print_report(const struct output_opts *o, const struct result *r,
			const struct result_set *set)
{
	FILE *f = cmd_stdout_open();
	const struct report_format *fmt = o->fmt;
	int w = 0;

	if (!f)
		return 1;
	for (unsigned k = 0; fmt && !w; fmt = k < 2 ? o->also[k++] : NULL)
		w = set ? report_write_set(REPORT_WRITER(struct result_format, fmt)->ops, f, set,
					   &o->ropts)
			: REPORT_WRITER(struct result_format, fmt)->ops->write(f, r, &o->ropts);
	return cmd_stdout_close(f, w);
}

int cmd_print_result(const struct result *r, const struct output_opts *o, int rc)
{
	int w = print_report(o, r, NULL);

	/* A report that could not be written loses nothing kept: the run is still saved. */
	if (o->save)
		save_result(r, o);
	if (rc)
		run_error("%s", r->errmsg[0] ? r->errmsg : strerror(-rc));
	else if (r->interrupted && !w)
		fprintf(stderr, "iorate: interrupted: results cover the %.1f s that ran\n",
			r->seconds);
	return rc || w ? 1 : r->interrupted ? EXIT_INTERRUPTED : 0;
}

int output_opts_check(const struct output_opts *o)
{
	char path[PATH_MAX], err[PATH_MAX + 256];
	const char *db = o->db;
	int r;

	if (!o->save && !db)
		return 0;
	/* The default database's directories are made when it is first written. */
	if (!db && history_default_path(path, sizeof(path)) == 0 &&
	    faccessat(AT_FDCWD, path, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		db = path;
	if (db && (r = gate_check_db("--db", db, err, sizeof(err))))
		return r == -EINVAL ? usage_error("%s", err) : run_error("%s", err);
	/* No output (--trace) may replace the history. */
	if (db && gate_use(db, "the --db history", "--db"))
		return run_error("out of memory");
	return 0;
}

/*
 * Before anything runs: the jobs' targets are files no output may replace (--db included),
 * and a trace on standard output cannot share it with a report meant for a program.
 */
int cmd_jobs_uses(const struct job *jobs, unsigned n, const struct output_opts *o)
{
	bool machine = o->fmt->for_programs;

	for (unsigned i = 0; i < n; i++) {
		const struct job *j = &jobs[i];

		if (machine && j->trace_path && !strcmp(j->trace_path, "-"))
			return usage_error(FIELD("trace") " - and --%s both write to standard "
				"output; give " FIELD("trace") " a file", o->fmt->name);
	}
	return runner_note_targets(jobs, n) ? run_error("out of memory") : 0;
}

/*
 * A job whose engine runs in place of the one its front end named is said before the run,
 * --quiet or not: its figures are not that engine's. Once for the clones of a job (numjobs).
 */
static void engine_notes(const struct job *jobs, unsigned n)
{
	char label[96];

	for (unsigned i = 0; i < n; i++) {
		const struct job *j = &jobs[i];
		if (!j->engine_for[0] || (i && jobs[i - 1].name && j->name &&
					  !strcmp(jobs[i - 1].name, j->name) &&
					  !strcmp(jobs[i - 1].engine_for, j->engine_for)))
			continue;
		fprintf(stderr, "iorate: %s: %s engine runs as iorate's %s engine: %s\n",
			job_label(j, i, label, sizeof(label)), j->engine_for, j->engine,
			j->engine_differs);
	}
}

int cmd_check_failed(int rc, const char *fmt, ...)
{
	char *msg = NULL;
	va_list ap;
	int r;

	va_start(ap, fmt);
	r = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (r < 0)
		return run_error("out of memory");
	/* What the jobs ask is wrong: bad usage; what the system refused (a permission): failed. */
	r = rc == -EINVAL || rc == -EDOM ? usage_error("%s", msg) : run_error("%s", msg);
	free(msg);
	return r;
}

int cmd_jobs_judge(const struct job *jobs, unsigned n)
{
	char err[256], label[96];
	unsigned bad;
	int rc = runner_check_jobs(jobs, n, &bad, err, sizeof(err));

	if (rc == -ENOMEM)
		return run_error("out of memory");
	if (rc && n > 1 && bad < n)
		return cmd_check_failed(rc, "%s: %s", job_label(&jobs[bad], bad, label,
								sizeof(label)), err);
	return rc ? cmd_check_failed(rc, "%s", err) : 0;
}

/* How messages name job i: by its label, or not at all in a run of one job. */
static const char *label_of(const struct result_set *s, unsigned i, char *buf, size_t len)
{
	return s->njobs == 1 ? NULL : job_label(&s->jobs[i].job, i, buf, len);
}

/*
 * A run that ran (some jobs may have failed, or not started; rc the runner's): its report,
 * --save, then on stderr each job's failure, or rc's when no job holds one; the exit code as
 * cmd_print_result()'s.
 */
static int print_set(const struct result_set *s, const struct output_opts *o, int rc)
{
	bool said = false;
	int code = 0;

	if (print_report(o, NULL, s))
		code = 1;
	if (o->save)
		save_set(s, o);
	for (unsigned i = 0; i < s->njobs; i++) {
		const struct result *r = &s->jobs[i];
		char buf[96];
		const char *label = label_of(s, i, buf, sizeof(buf));

		if (!r->error)
			continue;
		run_error("%s%s%s", label ? label : "", label ? ": " : "",
			  r->errmsg[0] ? r->errmsg : strerror(-r->error));
		said = true;
		code = 1;
	}
	if (rc && !said)
		run_error("%s", s->jobs[0].errmsg[0] ? s->jobs[0].errmsg : strerror(-rc));
	if (rc)
		code = 1;
	/* One job is its own total (result_set_sum() adds up only several). */
	if (!code && (s->njobs == 1 ? s->jobs[0].interrupted : s->total.interrupted)) {
		fprintf(stderr, "iorate: interrupted: results cover the %.1f s that ran\n",
			s->njobs == 1 ? s->jobs[0].seconds : s->total.seconds);
		code = EXIT_INTERRUPTED;
	}
	return code;
}

/* Nothing started: the first failure (exit 2 when the jobs do not fit), else the stop. */
static int none_started(const struct result_set *s, int rc)
{
	for (unsigned i = 0; i < s->njobs; i++) {
		char buf[96];

		if (s->jobs[i].error)
			return cmd_run_failed(s->jobs[i].error, &s->jobs[i],
					      label_of(s, i, buf, sizeof(buf)));
	}
	if (rc)
		return cmd_run_failed(rc, &s->jobs[0], NULL);
	fprintf(stderr, "iorate: interrupted before the workload started\n");
	return 1;
}

int cmd_run_jobs(struct job_list *jobs, const struct output_opts *o)
{
	struct runner_hooks hooks;
	struct progress progress;
	struct result_set set;
	struct result *res;
	int rc, code;

	/* Every job is checked before the first touches a target: no file is made for nothing. */
	if ((rc = cmd_jobs_uses(jobs->jobs, jobs->n, o)) || (rc = output_opts_check(o)) ||
	    (rc = cmd_jobs_judge(jobs->jobs, jobs->n)))
		return rc;
	if (!(res = calloc(jobs->n, sizeof(*res))))
		return run_error("out of memory");
	engine_notes(jobs->jobs, jobs->n);
	for (unsigned i = 0; i < jobs->n; i++)
		result_init(&res[i]);
	progress_init(&progress, o->quiet);
	progress_hooks(&progress, &hooks, cmd_stop_flag());
	rc = runner_run_jobs(jobs->jobs, jobs->n, res, &hooks);
	progress_clear(&progress);
	for (unsigned i = 0; i < jobs->n; i++)
		cmd_result_spell(&res[i]);
	/* The set takes the results, and sums them (the sums are lost only out of memory). */
	if (result_set_take(&set, res, jobs->n))
		code = run_error("out of memory");
	else if (set.njobs == 1 ? !set.jobs[0].started : !set.total.nstarted)
		code = none_started(&set, rc);
	else
		code = print_set(&set, o, rc);
	result_set_release(&set);
	return code;
}

int cmd_run_job(struct job *job, const struct output_opts *o)
{
	struct job_list one = {.jobs = job, .n = 1};

	return cmd_run_jobs(&one, o);
}
