/*
 * Standard output of the commands that print a report (run, sweep, mark, history, verify and
 * the dry runs): one way to open it and one way to say it failed, so a full disk or a closed
 * pipe reads the same in each.
 */
#include <errno.h>
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
