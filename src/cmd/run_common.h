#ifndef IORATE_CMD_RUN_COMMON_H
#define IORATE_CMD_RUN_COMMON_H
#include <signal.h>
#include <stdbool.h>

#include "cmd/cmd.h"
#include "core/job.h"
#include "core/result.h"
#include "core/runner.h"
#include "report/format.h"
#include "report/report.h"

/* How a command that runs a workload prints it. */
struct output_opts {
	const struct report_format *fmt; /* text (default), json or csv: report/format.h */
	/* printed after it, in order (fio's --output-format=json,normal); NULL: none */
	const struct report_format *also[2];
	const char *format;             /* the format named (--format, --json...); NULL: none */
	char format_given[48];          /* that option as typed: "--format csv", "--json" */
	struct report_opts ropts;
	bool units_given;               /* --units was given */
	bool quiet;                     /* no progress line */
	bool save;                      /* --save: keep the result in the history database */
	const char *db;                 /* --db FILE: that database; NULL = the default */
};

void output_opts_init(struct output_opts *o);

/*
 * The format named (text when none) in the table kind, into o->fmt: 0, or EXIT_USAGE after
 * saying that the command does not print it ("--csv: 'iorate history compare' prints text or
 * json").
 */
int output_opts_format(struct output_opts *o, const struct report_formats *kind);

/*
 * Checks the side outputs o names (--db) before any I/O: a device, link or missing directory
 * is bad usage. Returns 0 or the exit code after printing why.
 */
int output_opts_check(const struct output_opts *o);
/*
 * The jobs' targets are files no output may replace (call before output_opts_check()); a
 * --trace on standard output beside a machine format is refused. 0 or the exit code.
 */
int cmd_jobs_uses(const struct job *jobs, unsigned n, const struct output_opts *o);
/* A refusal of runner_check_jobs() (rc) printed: exit 2 for -EINVAL or -EDOM, else 1. */
int cmd_check_failed(int rc, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* runner_check_jobs(), its refusal printed (naming the job when there are several): 0 or the exit
 * code. What a run, a dry run and a run of a job file judge alike. */
int cmd_jobs_judge(const struct job *jobs, unsigned n);

/* The runner's message with its fields spelled as the front end in use spells them. */
void cmd_result_spell(struct result *r);

/*
 * A run that failed: prints "iorate: [label: ]why" (the runner's message, else strerror) and
 * returns the exit code: 2 when nothing ran because job and target do not fit (-EINVAL,
 * -EDOM), else 1.
 */
int cmd_run_failed(int rc, const struct result *r, const char *label);

/*
 * A run that ran (rc: 0 or the -errno that ended it): prints it in o's format on stdout, keeps
 * it in the history with --save, says on stderr why it ended early, and returns the exit code
 * (0, 1, or EXIT_INTERRUPTED).
 */
int cmd_print_result(const struct result *r, const struct output_opts *o, int rc);

/*
 * Validates job, runs it, prints the result in o's format on stdout, and returns the exit code:
 * 0, 1 when the run failed (the partial results are still printed), 2 when the job is invalid.
 */
int cmd_run_job(struct job *job, const struct output_opts *o);

/*
 * The same for a run of several jobs (fio job files, DiskSpd per-target parameters): each job
 * validated (a refusal names the job), the groups run in order, and the run printed as one
 * report in o's format (each job, each group, the total) and saved as one entry of the history
 * with --save; each job's failure is named on stderr. One job is cmd_run_job().
 */
int cmd_run_jobs(struct job_list *jobs, const struct output_opts *o);

#endif
