#ifndef IORATE_CMD_CMD_RUN_H
#define IORATE_CMD_CMD_RUN_H
#include <stdbool.h>

#include "cmd/run_common.h"
#include "core/job.h"

/*
 * Parses iorate run's command line (argv[0] = "run") into job and o: --job file, options,
 * targets, emulation and caps; cmd (cmd_run, or iorate-mpi's run) names the program in
 * messages and the recorded command line. Returns 0, or the exit code after printing why.
 * *help is set when --help was asked.
 */
struct command;
int cmd_run_parse(const struct command *cmd, int argc, char **argv, struct job *job,
		  struct output_opts *o, bool *help);

#endif
