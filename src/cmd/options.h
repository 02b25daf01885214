#ifndef IORATE_CMD_OPTIONS_H
#define IORATE_CMD_OPTIONS_H
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "cmd/run_common.h"
#include "core/job.h"

/*
 * The one option API. Every command is a `struct command` (src/main.c gathers them): its name,
 * summary, synopsis, description, examples and the groups of options it takes. An option is a
 * table entry: long name, letter, argument, help, example, setter and the field it sets. The
 * same tables parse argv, print --help, write the man page and the shell completion, and serve
 * the foreign front ends (DiskSpd, SQLIO, fio), which apply values through options_set() under
 * their own flag names.
 */

struct opt_ctx;
struct opt;

/* Where an option's field (off) lies. */
enum opt_in {
	OPT_IN_NONE,        /* the setter works on the context itself */
	OPT_IN_JOB,         /* struct job */
	OPT_IN_OUT,         /* struct output_opts */
	OPT_IN_CMD,         /* the command's own options (opt_ctx.state) */
};

/* Options of one exclusive group contradict each other: giving two is refused naming both. */
enum {
	EXCL_NONE,
	EXCL_FORMAT,        /* --json, --csv, --format */
	EXCL_PATTERN,       /* -r, -s */
	EXCL_CAP_MBPS,      /* --cap-mbps, --cap-mibps */
	EXCL_VM_CAP_MBPS,   /* --vm-cap-mbps, --vm-cap-mibps */
	EXCL_N
};

struct opt {
	const char *name;        /* long name without dashes; also the field's name in errors */
	char letter;             /* short option, or 0 */
	const char *arg;         /* the argument's name, or NULL for a flag */
	const char *help;
	const char *example;
	int (*set)(struct opt_ctx *c, const struct opt *o, const char *val);
	enum opt_in in;
	size_t off;
	uint64_t min, max;       /* bounds for the numeric setters (max 0: the type's maximum) */
	unsigned excl;           /* EXCL_* */
	const char *values;      /* the words it takes, space-separated, for completion */
};

/*
 * A table of options under one heading of --help ("Workload", "Output"). Every command that
 * lists a group takes every option of it: options only some commands take are a group of their
 * own. Groups listed one after another under the same title print under one heading.
 */
struct opt_group {
	const char *title;
	const struct opt *opts;  /* ends with {0} */
};

/*
 * A name a command does not take but users may try, from another command or an earlier
 * version: given, it is refused with what to use instead rather than as unknown.
 */
struct opt_moved {
	const char *name;        /* long name without dashes */
	const char *instead;     /* "the pause between tests is --pause" */
};

struct command {
	const char *prog;                     /* the program, when not "iorate" ("iorate-mpi") */
	const char *name;
	const char *summary;                  /* one line for 'iorate --help' */
	const char *synopsis;                 /* what follows "iorate NAME"; lines split by \n */
	/* the words that pick what the command does (catalog: list, show, ...), NULL-ended; or NULL */
	const char *const *subcommands;
	const char *about;                    /* paragraphs for --help and the man page */
	const struct opt_group *const *groups; /* ends with NULL */
	const struct opt_moved *moved;        /* ends with {0}; or NULL */
	/* the formats --format is checked against as it is parsed (report/format.h); NULL: the
	 * command checks it after parsing (its subcommand picks the table) */
	const struct report_formats *output;
	const char *examples;                 /* one per line */
	const char *exit_status;
	void (*more_help)(FILE *f);           /* what only the build knows (engines); may be NULL */
	int (*fn)(int argc, char **argv);
};

/*
 * The help of a long name that several tables have a row of, each setting a field of its own
 * command's (tests/unit/test_options.c holds every row of one name to one help text): what a
 * command does otherwise, and its default, are said in the one text.
 */
#define OPT_FORMAT_HELP                                                                          \
	"text (default; history show: the format the run printed), json, csv, fio-json, "      \
	"fio-json+ (with fio's histogram bins) or fio-terse (fio's terse lines), of those the " \
	"command prints"
#define OPT_UNITS_HELP                                                                           \
	"throughput in iec (MiB/s) or si (MB/s): default iec; history show: the run's; report: " \
	"si for marks whose table was in MB/s; mark: si, and also kdiskmark (fio's KiB/s / "   \
	"1000, as KDiskMark shows MB/s)"
#define OPT_DB_HELP                                                                              \
	"the history database (default $IORATE_HISTORY, else $XDG_DATA_HOME/iorate/history.db, " \
	"else ~/.local/share/iorate/history.db); run: implies --save"
#define OPT_DRY_RUN_HELP                                                                         \
	"print what would run and run nothing: the job, or what each of fio's (run --job, fio), " \
	"DiskSpd's or SQLIO's options became; run and fio: as text, or JSON with --json (other " \
	"formats are refused)"
#define OPT_SIZE_HELP                                                                            \
	"size of a test file to create when missing (default 1GiB; diskspd, sqlio: none, and "  \
	"the file is kept, as the tools do)"
#define OPT_ENGINE_HELP                                                                          \
	"sync (pread/pwrite), uring, aio (libaio), posixaio (glibc's aio_read/aio_write), "      \
	"pvsync (preadv/pwritev), pvsync2 (preadv2/pwritev2) or null (default: uring where it "  \
	"works, else sync)"
#define OPT_KEEP_HELP                                                                            \
	"keep a test file iorate created (normally removed at the end; fio: even with unlink=1)"
#define OPT_DISTRIBUTION_HELP                                                                    \
	"where random I/Os fall: uniform (default), zipf[:THETA], pareto[:H], normal[:PERCENT], " \
	"zoned:ACCESS%/SIZE%:..., zoned_abs:ACCESS%/SIZE:..., or sequence:INDEX,... (these "     \
	"blocks in this order, up to 64, repeated); model, plan: over the working set, any but " \
	"sequence"
#define OPT_SEED_HELP                                                                            \
	"seed for offsets and data: the same seed issues the same offsets; verify: the run's, "   \
	"whose blocks to check (params.seed of its result; default: the one most headers name)"
#define OPT_OFFSET_HELP "use (verify: check) the target from this byte on"
#define OPT_RANGE_HELP "use (verify: check) only this many bytes from --offset"

/* The index of word in cmd->subcommands, or -1 (also when word is NULL). */
int options_subcommand(const struct command *cmd, const char *word);

#define OPT_MAX_STRS 32
/* A repeatable option's values, kept in the order given. */
struct opt_strs {
	const char *v[OPT_MAX_STRS];
	unsigned n;
};

struct opt_ctx {
	const struct command *cmd;
	struct job *job;
	struct output_opts *out;
	void *state;              /* OPT_IN_CMD fields */
	const char *job_file;     /* --job FILE (fio job file), loaded by the command */
	const char *emulate;      /* --emulate PROFILE */
	bool dry_run;             /* --dry-run: the command prints what it would run, runs nothing */
	bool help;                /* --help was asked: the command prints options_help() */
	/*
	 * Called after each option is set, in command-line order, for a command that takes an
	 * option several times (sweep's --bs). 0, or an exit code to stop parsing. May be NULL.
	 */
	int (*on_set)(struct opt_ctx *c, const struct opt *o);
	char why[512];            /* a setter's reason for refusing a value */
	char given[EXCL_N][128];   /* the option of each exclusive group seen, as typed */
	const struct opt *seen[EXCL_N];
};

/*
 * Parses argv (argv[0] = the command's name) with the command's options into c; the words that
 * are not options (targets, parameters, subcommands) are moved to the end, from *first (all
 * after "--" are words). -h/--help sets c->help. Returns 0, or EXIT_USAGE after printing one line naming the option.
 */
int options_parse(struct opt_ctx *c, int argc, char **argv, int *first);

/*
 * Parses the iorate option at argv[*i] ("--name", "--name=VAL" or "--name VAL") among foreign
 * ones, advancing *i past its value. Returns 0, -ENOENT when it is not one of the command's
 * options (nothing printed), or EXIT_USAGE after printing why.
 */
int options_take(struct opt_ctx *c, int argc, char **argv, int *i);
/* "; did you mean run?" for a word no command of cmds (or subcommand of cmd) is, or "". */
const char *options_near_word(const struct command *const *cmds, const struct command *cmd,
			      const char *word, char *out, size_t len);
/* "; did you mean --bs?" for an unknown "--name[=VAL]" of cmd, or "" when none is close. */
const char *options_near(const struct command *cmd, const char *arg, char *out, size_t len);
/* Refuses an unknown "--name[=VAL]" with the closest options of cmd: EXIT_USAGE. */
int options_unknown(const struct command *cmd, const char *arg);

/*
 * Applies val to the option called name, for a front end that spells options its own way.
 * Returns 0, or -EINVAL (-ERANGE, -ENOMEM) with the reason, without the option's name, in
 * c->why; nothing is printed.
 */
int options_set(struct opt_ctx *c, const char *name, const char *val);

/* The command's option called name, or NULL. */
const struct opt *options_find(const struct command *cmd, const char *name);

/* --help of a command: synopsis, description, options by group, examples, exit status. */
void options_help(FILE *f, const struct command *cmd);
/* The man page's command sections (troff), for every command of iorate. */
void options_man(FILE *f, const struct command *const *cmds);
/* A line of a man page's SYNOPSIS that is not a command of the table: "help" "[COMMAND]". */
struct man_line {
	const char *words, *args;   /* args may be NULL */
};
/*
 * The same for any program: the SYNOPSIS (every command's, then more's, a list ending with
 * {0}; may be NULL) and the COMMANDS sections, each under its command's program name.
 */
void options_man_page(FILE *f, const struct command *const *cmds, const struct man_line *more);
/* A bash completion script for every command and option. */
void options_completion(FILE *f, const struct command *const *cmds);

/* Setters any table may use; the field is at o->off in the structure o->in names. */
int opt_set_true(struct opt_ctx *c, const struct opt *o, const char *val);
int opt_set_false(struct opt_ctx *c, const struct opt *o, const char *val);   /* bool */
int opt_set_string(struct opt_ctx *c, const struct opt *o, const char *val);  /* const char * */
int opt_set_strings(struct opt_ctx *c, const struct opt *o, const char *val); /* opt_strs */
int opt_set_size(struct opt_ctx *c, const struct opt *o, const char *val);    /* uint64_t */
int opt_set_count(struct opt_ctx *c, const struct opt *o, const char *val);   /* unsigned */
int opt_set_u64(struct opt_ctx *c, const struct opt *o, const char *val);     /* uint64_t */
int opt_set_percent(struct opt_ctx *c, const struct opt *o, const char *val); /* unsigned */
int opt_set_rate(struct opt_ctx *c, const struct opt *o, const char *val);    /* double > 0 */
int opt_set_duration(struct opt_ctx *c, const struct opt *o, const char *val); /* uint64_t ns */
int opt_set_help(struct opt_ctx *c, const struct opt *o, const char *val);
/*
 * The output options' setters (src/cmd/opt_job.c), for any table that has them, into c->out:
 * --format NAME and its aliases --json, --csv, --fio-json (the name checked; for run, sweep and
 * mark whether they print it too, else output_opts_format() after parsing), --brief, --units.
 */
int opt_set_format(struct opt_ctx *c, const struct opt *o, const char *val);
int opt_set_brief(struct opt_ctx *c, const struct opt *o, const char *val);
int opt_set_units(struct opt_ctx *c, const struct opt *o, const char *val);

/* A setter's refusal: "'VAL' WHY" into c->why; returns -EINVAL. */
int opt_refuse(struct opt_ctx *c, const char *val, const char *why);

/*
 * The groups the job commands share (src/cmd/opt_job.c), each taken whole by whoever lists it:
 * opt_bs (run, sweep, model, plan, cost), opt_write (run, sweep, model, plan), opt_queue: -r, -s,
 * --threads, --depth (run, sweep, model), opt_workload (run, sweep), opt_target (run, sweep,
 * mark), opt_jobs (run), opt_emulation (run, sweep). Output: opt_output, --json (every command
 * that prints a report), opt_output_csv (run, sweep, mark, fio, diskspd, sqlio, history),
 * opt_output_fio_json (run, fio, diskspd, sqlio, history), opt_output_result: run's --format
 * (run, fio, diskspd, sqlio), opt_output_table: sweep's and mark's, opt_output_units (run,
 * sweep, fio, diskspd, sqlio, history), opt_output_series (run, sweep, fio, history),
 * opt_output_interval (run, sweep, fio), opt_output_brief (run, fio, diskspd, sqlio, history),
 * opt_output_save and opt_output_dry_run (run, fio), opt_output_quiet (run, sweep, mark, fio,
 * diskspd, sqlio, verify).
 */
extern const struct opt_group opt_bs, opt_write, opt_queue, opt_workload, opt_target, opt_jobs,
	opt_emulation, opt_output, opt_output_csv, opt_output_fio_json, opt_output_result,
	opt_output_table, opt_output_units, opt_output_series, opt_output_interval,
	opt_output_brief, opt_output_save, opt_output_quiet, opt_output_dry_run;
/* run's option groups, and them as a command with no main (opt_job.c): what front ends parse by. */
extern const struct opt_group *const run_option_groups[];
extern const struct command cmd_run_options;

/*
 * Checks what the caps options say together (burst below base, a rate above every cap...).
 * Returns 0 or 2 after printing the error; prints warnings to stderr.
 */
int options_check_caps(const struct job *j);

/* --emulate PROFILE: fills the caps the command line left unset from the catalog. 0 or 2. */
int options_emulate(struct job *j, const char *profile);

#endif
