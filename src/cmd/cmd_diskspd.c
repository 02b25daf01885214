/*
 * 'iorate diskspd': the command entry of the DiskSpd front end. src/compat/diskspd*.c translate
 * the flags (and -X profiles) into settings; src/cmd/cmd_compat.c applies them through the
 * option table of run and runs the jobs.
 */
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/cmd_compat.h"
#include "cmd/options.h"
#include "compat/compat.h"

static int diskspd_main(int argc, char **argv)
{
	bool xml = false;

	for (int i = 1; i < argc; i++)
		xml |= !strncmp(argv[i], "-X", 2);
	cmd_set_speller(xml ? &compat_diskspd_xml_spelling : &compat_diskspd_spelling);
	return compat_cli_main_jobs(argc, argv, &cmd_diskspd, compat_diskspd_jobs);
}

static const struct opt_group *const dspd_groups[] = {
	&compat_group, &opt_output, &opt_output_csv, &opt_output_fio_json, &opt_output_result,
	&opt_output_units, &opt_output_brief, &opt_output_quiet, NULL,
};

const struct command cmd_diskspd = {
	.name = "diskspd",
	.summary = "run a DiskSpd command line (-b64k -d30 -t8 -o8 ...) or XML profile unchanged",
	.synopsis = "[DiskSpd flags] TARGET... [iorate options]\n"
		    "-X<profile.xml> [-d -W -C -z] [TARGET...] [iorate options]",
	.about = "Runs a DiskSpd command line unchanged: prints what each flag became, then runs it\n"
		 "like 'iorate run'. Targets: a file, a block device, or #N for the Nth whole disk\n"
		 "in /sys/block (from #0). A flag iorate cannot do is refused as not supported by\n"
		 "iorate.\n"
		 "\n"
		 "-X<profile.xml> runs a DiskSpd XML profile: its TimeSpans one after another, and\n"
		 "in each its targets together, one job per set of parameters; the targets after\n"
		 "it replace the profile's *1, *2, ... Elements iorate cannot do are refused all\n"
		 "at once, each with its line. The profile is the only file read: no network, no\n"
		 "DTD, no external entity.\n"
		 "\n"
		 "DiskSpd flags: " DSPD_FLAGS " (docs/compat.md says what each becomes).",
	.groups = dspd_groups,
	.output = &result_formats,
	.examples = "  iorate diskspd -b64k -d30 -t8 -o8 #1\n"
		    "  iorate diskspd -b8k -d30 -t8 -o8 -r -w30 -Sh -L -c1G /mnt/data/testfile.dat\n"
		    "  iorate diskspd --dry-run -b4K -F8 -T1b -s8b -o32 -Sh /mnt/data/test.dat\n"
		    "  iorate diskspd -b8k -r -rs20 -rdpct90/10 -g500i -c1G /mnt/data/mixed.dat\n"
		    "  iorate diskspd -d60 -Xoltp.xml /mnt/data/data.dat /mnt/data/log.dat\n",
	.exit_status = "as 'iorate run'.",
	.fn = diskspd_main,
};
