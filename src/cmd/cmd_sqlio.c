/*
 * 'iorate sqlio': the command entry of the SQLIO front end. src/compat/sqlio.c translates the
 * flags into settings; src/cmd/cmd_compat.c applies them through the option table of run.
 */
#include "cmd/cmd.h"
#include "cmd/cmd_compat.h"
#include "cmd/options.h"
#include "compat/compat.h"

static int sqlio_main(int argc, char **argv)
{
	cmd_set_speller(&compat_sqlio_spelling);
	return compat_cli_main(argc, argv, &cmd_sqlio, compat_sqlio_parse);
}

static const struct opt_group *const sqlio_groups[] = {
	&compat_group, &opt_output, &opt_output_csv, &opt_output_fio_json, &opt_output_result,
	&opt_output_units, &opt_output_brief, &opt_output_quiet, NULL,
};

const struct command cmd_sqlio = {
	.name = "sqlio",
	.summary = "run a SQLIO command line (-kR -s60 -o8 -b8 ...) unchanged",
	.synopsis = "[SQLIO flags] [FILE...] [iorate options]",
	.about = "Runs a SQLIO command line unchanged: prints what each flag became, then runs it\n"
		 "like 'iorate run'. Without a file, a test file is made in the current directory\n"
		 "under an unguessable name (SQLIO's testfile.dat) and removed afterwards.\n"
		 "\n"
		 "SQLIO flags: " SQLIO_FLAGS " (docs/compat.md says what each becomes).",
	.groups = sqlio_groups,
	.output = &result_formats,
	.examples = "  iorate sqlio -kR -s60 -o8 -b8 -frandom -BN -LS /mnt/data/testfile.dat\n"
		    "  iorate sqlio -kW -t4 -s60 -o8 -b64 -fsequential -Fparam.txt\n",
	.exit_status = "as 'iorate run'.",
	.fn = sqlio_main,
};
