/*
 * libFuzzer target: the command line of `iorate run` (words of the input, after argv[0] "run")
 * goes through cmd_run_parse(): the option table, targets, --emulate and the caps checks. What
 * follows the first blank line is a fio job file: every --job value is pointed at it (a memfd),
 * so no other file is ever opened.
 */
#include <stdint.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/run_common.h"
#include "core/job.h"
#include "fuzz_util.h"

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	fuzz_builtin_catalog_only();
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n\n", 2);
	size_t nargs = sep ? (size_t)(sep - data) : size;
	char path[64];
	int argc, fd = sep ? fuzz_memfd(sep + 2, size - nargs - 2, path, sizeof(path))
			   : fuzz_memfd("", 0, path, sizeof(path));
	char **argv = fuzz_argv(data, nargs, "run", &argc);
	struct output_opts out;
	struct job j;
	bool help;

	if (!argv || fd < 0)
		abort();
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
	close(fd);
	fuzz_argv_free(argv);
	return 0;
}
