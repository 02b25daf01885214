/* The commands of iorate, in the order 'iorate --help', the man page and completion list them. */
#include "cmd/cmd.h"
#include "cmd/options.h"

const struct command *const iorate_commands[] = {
	&cmd_run,    &cmd_mark,   &cmd_sweep,   &cmd_diskspd, &cmd_sqlio,   &cmd_fio,
	&cmd_model,  &cmd_plan,   &cmd_explain, &cmd_cost,    &cmd_catalog, &cmd_history,
	&cmd_report, &cmd_verify, NULL,
};
