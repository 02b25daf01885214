/*
 * Standard output of the commands that print a report (run, sweep, mark, history, verify and
 * the dry runs): one way to open it and one way to say it failed, so a full disk or a closed
 * pipe reads the same in each.
 */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "core/gate.h"

FILE *cmd_stdout_open(void)
{
	FILE *f = gate_stdout_open();

	if (!f)
		run_error("standard output: %s", strerror(ENOMEM));
	return f;
}

int cmd_stdout_close(FILE *f, int r)
{
	int w = gate_stdout_close(f);

	/*
	 * The stream's own error first: the writer's -EIO is what a failed write looks like. A
	 * writer's -ENOMEM with the stream sound is the report not made, not standard output.
	 */
	if (!w && r == -ENOMEM)
		return run_error("out of memory");
	if (w || r)
		return run_error("standard output: %s", strerror(-(w ? w : r)));
	return 0;
}

int cmd_stdout_check(int argc, char **argv)
{
	char err[PATH_MAX + 160];
	bool force = false;

	/* Before the options are parsed, so that no command does any work first. */
	for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
		force |= !strcmp(argv[i], "--force");
	if (gate_stdout_check(force, err, sizeof(err)))
		return run_error("%s", err);
	return 0;
}
