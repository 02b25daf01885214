#ifndef IORATE_CMD_CMD_COMPAT_H
#define IORATE_CMD_CMD_COMPAT_H
#include <stdbool.h>

#include "cmd/run_common.h"
#include "compat/compat.h"
#include "core/job.h"

/*
 * iorate's own options, which may stand anywhere among the foreign ones since they all start
 * with "--": --json, --csv, --units si|iec, --quiet, --engine NAME, --allow-write-device,
 * --force, --size SIZE (sqlio: size of a missing file), --dry-run (translate, do not run),
 * --help. The remaining arguments (argv[0] kept) are left in fargc/fargv.
 */
struct opt_group;
struct compat_cli {
	struct output_opts out;
	const char *engine;
	const char *size;
	bool allow_write_device, force, dry_run, help;
	int fargc;
	char **fargv;
};

struct command;
/* iorate's own options of diskspd and sqlio (--engine, --size, --dry-run, ...). */
extern const struct opt_group compat_group;

/* 0, or the exit code (2) after printing the error. fargv is malloc'd: compat_cli_release(). */
int compat_cli_parse(struct compat_cli *c, const struct command *cmd, int argc, char **argv);
void compat_cli_release(struct compat_cli *c);

/*
 * Translates a foreign command line (argv as the translator takes it) into j: every setting
 * goes through the option table of 'iorate run' (options_set()), so a value is judged as
 * 'iorate run' judges it, and a refusal is "FLAG: WHY" in err. explain (may be NULL) gets the
 * lines of what each flag became. 0, or the translator's -errno.
 */
int compat_cli_translate(compat_translator tr, int argc, char **argv, struct job *j,
			 FILE *explain, char *err, size_t errlen);

/* The same for a translator of several jobs (DiskSpd), into jobs. */
int compat_cli_translate_jobs(compat_jobs_translator tr, int argc, char **argv,
			      struct job_list *jobs, FILE *explain, char *err, size_t errlen);

/*
 * The common tail of `iorate diskspd` and `iorate sqlio`: applies the --options to each job
 * (through the same table), records the command line, checks block-device writes, prints the
 * translation (held in `explained`) and the equivalent `iorate run` of each job, then runs the
 * jobs (cmd_run_jobs()) unless --dry-run. Returns the exit code.
 */
int compat_cli_run(struct compat_cli *c, struct job_list *jobs, int argc, char **argv,
		   const char *tool, const char *explained);

/*
 * The whole of `iorate sqlio` (one job) and `iorate diskspd` (_jobs: one or several): iorate's
 * options, the translation (printed only once complete, so a bad flag prints just the error),
 * then compat_cli_run().
 */
int compat_cli_main(int argc, char **argv, const struct command *cmd, compat_translator tr);
int compat_cli_main_jobs(int argc, char **argv, const struct command *cmd,
			 compat_jobs_translator tr);

#endif
