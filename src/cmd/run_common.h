#ifndef IORATE_CMD_RUN_COMMON_H
#define IORATE_CMD_RUN_COMMON_H
#include <signal.h>
#include <stdbool.h>

#include "core/job.h"
#include "core/result.h"
#include "core/runner.h"
#include "report/report.h"

/* How a command that runs a workload prints it. */
struct output_opts {
	const struct report_ops *fmt;   /* text (default), json or csv */
	struct report_opts ropts;
	bool quiet;                     /* no progress line */
	bool save;                      /* --save: keep the result in the history database */
	const char *db;                 /* --db FILE: that database; NULL = the default */
};

void output_opts_init(struct output_opts *o);

/*
 * Installs SIGINT/SIGTERM handlers that set the returned flag (the first signal stops the run
 * gracefully; a second one during cleanup is ignored until files are removed).
 */
volatile sig_atomic_t *cmd_stop_flag(void);

/* Runner hooks that draw the live progress line on stderr when it is a terminal, else nothing. */
void cmd_progress_hooks(struct runner_hooks *h, bool quiet);

/*
 * Parses iorate run's command line (argv[0] = "run") into job and o: --job file, options,
 * targets, emulation and caps; prog names the program in messages and the recorded command
 * line. Returns 0, or the exit code after printing why. *help is set when --help was asked.
 */
int cmd_run_parse(const char *prog, int argc, char **argv, struct job *job,
		  struct output_opts *o, bool *help);

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

#endif
