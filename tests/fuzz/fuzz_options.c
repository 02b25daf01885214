/*
 * libFuzzer target: the option tables of every command. The first word of the input names the
 * command (run, mark, sweep, diskspd, sqlio, fio, model, plan, explain, cost, catalog, history,
 * report, verify); when it names none, every word goes to `iorate run`. The words that follow
 * are its arguments (argv[0] is the command's name).
 *
 * run goes through cmd_run_parse(): the option table, targets, --emulate and the caps checks.
 * What follows the first blank line is a fio job file: every --job value is pointed at it (a
 * memfd), so no other file is ever opened. Every other command goes through options_parse()
 * with its own table, as its main function calls it: the command's own fields (mark's
 * --profile, history's --since, cost's prices...) are set in a zeroed block standing for its
 * state, which every offset in its tables must fit (checked once, before the first input).
 */
#include <stdalign.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_run.h"
#include "cmd/options.h"
#include "cmd/run_common.h"
#include "core/job.h"
#include "fuzz_util.h"

/* The state of any command: larger than each one's own structure. */
static alignas(max_align_t) unsigned char state[16384];

/* Every option a command keeps in its own state lies inside `state`. */
static void check_offsets(const struct command *cmd)
{
	for (unsigned g = 0; cmd->groups && cmd->groups[g]; g++)
		for (const struct opt *o = cmd->groups[g]->opts; o->name; o++)
			if (o->in == OPT_IN_CMD &&
			    o->off + sizeof(struct opt_strs) > sizeof(state))
				abort();
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_builtin_catalog_only();
	for (const struct command *const *c = iorate_commands; *c; c++)
		check_offsets(*c);
	return 0;
}

/* The command the first word names (its length in *len), or NULL. */
static const struct command *command_named(const uint8_t *data, size_t size, size_t *len)
{
	size_t n = 0;

	while (n < size && data[n] && !strchr(" \t\n", data[n]))
		n++;
	for (const struct command *const *c = iorate_commands; *c; c++)
		if (strlen((*c)->name) == n && !memcmp((*c)->name, data, n)) {
			*len = n;
			return *c;
		}
	return NULL;
}

static void parse_run(char **argv, int argc, const char *path)
{
	struct output_opts out;
	struct job j;
	bool help;

	/* As load_job_file() finds --job: that word and the next, or --job=FILE. */
	for (int i = 1; i < argc; i++) {
		if (!strncmp(argv[i], "--job=", 6))
			fuzz_argv_replace(argv, i, "--job=", path);
		else if (!strcmp(argv[i], "--job") && i + 1 < argc)
			fuzz_argv_replace(argv, i + 1, "", path);
	}
	job_init(&j);
	output_opts_init(&out);
	/* options_parse() starts glibc's getopt afresh (optind = 0), as a new process would. */
	cmd_run_parse(&cmd_run, argc, argv, &j, &out, &help);
	job_release(&j);
}

static void parse_other(const struct command *cmd, char **argv, int argc)
{
	struct output_opts out;
	struct job j;
	int first;

	memset(state, 0, sizeof(state));
	job_init(&j);
	output_opts_init(&out);
	struct opt_ctx c = {.cmd = cmd, .job = &j, .out = &out, .state = state};

	if (options_parse(&c, argc, argv, &first) == 0 && (first < 1 || first > argc))
		abort(); /* the words that are not options start inside argv */
	job_release(&j);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n\n", 2);
	size_t nargs = sep ? (size_t)(sep - data) : size, skip = 0;
	const struct command *cmd = command_named(data, nargs, &skip);
	char path[64];
	int argc, fd = sep ? fuzz_memfd(sep + 2, size - nargs - 2, path, sizeof(path))
			   : fuzz_memfd("", 0, path, sizeof(path));
	char **argv;

	if (!cmd)
		cmd = &cmd_run;
	argv = fuzz_argv(data + skip, nargs - skip, cmd->name, &argc);
	if (!argv || fd < 0)
		abort();
	if (cmd == &cmd_run)
		parse_run(argv, argc, path);
	else
		parse_other(cmd, argv, argc);
	close(fd);
	fuzz_argv_free(argv);
	return 0;
}
