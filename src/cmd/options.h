#ifndef IORATE_CMD_OPTIONS_H
#define IORATE_CMD_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "cmd/run_common.h"
#include "core/job.h"

/*
 * The options of the commands that run a workload, as one table: each entry has its long name,
 * DiskSpd letter (where there is one), argument, help, example and setter. The same table
 * prints --help, the man page's option list, and parses argv.
 */

struct opt;

struct opt_ctx {
	struct job *job;
	struct output_opts *out;
	const char *job_file;    /* --job FILE (fio job file), loaded by the command */
	const char *emulate;     /* --emulate PROFILE */
	bool help;
	/*
	 * Called after each option is set, in command-line order, for a command that takes an
	 * option several times (sweep's --bs): it reads the value the setter just wrote. 0, or an
	 * exit code to stop parsing. May be NULL; cmd is the command's own state.
	 */
	int (*on_set)(struct opt_ctx *c, const struct opt *o);
	void *cmd;
};

struct opt {
	const char *name;        /* long name, without the dashes */
	char letter;             /* short option, or 0 */
	const char *arg;         /* argument's name, or NULL for a flag */
	const char *help;
	const char *example;
	int (*set)(struct opt_ctx *c, const struct opt *o, const char *val);
	size_t off;              /* field of struct job the generic setters write */
	unsigned groups;
};

/* Which commands take an option. */
#define OPT_RUN 0x1      /* iorate run */
#define OPT_SWEEP 0x2    /* iorate sweep */
#define OPT_MARK 0x4     /* iorate mark */

extern const struct opt run_options[];

/*
 * Parses argv (argv[0] = command name) with the options of `group` into c; the remaining
 * arguments (targets, sweep parameters) are returned through *first (index into argv).
 * Returns 0 or the exit code 2 after printing the one-line error.
 */
int options_parse(struct opt_ctx *c, unsigned group, int argc, char **argv, int *first);

/* The option list of --help for `group`. */
void options_help(FILE *f, unsigned group);
/* The same list as man page (troff) paragraphs. */
void options_man(FILE *f, unsigned group);

/*
 * Checks what the caps options say together (burst below base, a rate above every cap...).
 * Returns 0 or 2 after printing the error; prints warnings to stderr.
 */
int options_check_caps(const struct job *j);

/* --emulate PROFILE: fills the caps the command line left unset from the catalog. 0 or 2. */
int options_emulate(struct job *j, const char *profile);


#endif
