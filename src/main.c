/*
 * iorate: measure storage, emulate cloud caps, explain, plan and price.
 * main() only dispatches over the table of subcommands; each lives in src/cmd/.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"

static const struct command {
	const char *name;
	int (*fn)(int argc, char **argv);
	const char *summary;
} commands[] = {
	{"run", cmd_run, "generate an I/O workload against files or devices and report it exactly"},
	{"mark", cmd_mark, "CrystalDiskMark's test suite (SEQ1M Q8T1, RND4K Q32T1, ...)"},
	{"sweep", cmd_sweep, "vary one parameter (targets, threads, depth, bs, write) and tabulate"},
	{"diskspd", cmd_diskspd, "run a DiskSpd command line (-b64k -d30 -t8 -o8 ...) unchanged"},
	{"sqlio", cmd_sqlio, "run a SQLIO command line (-kR -s60 -o8 -b8 ...) unchanged"},
	{"model", cmd_model, "predict IOPS, MB/s and latency of a cloud VM and disks; name the limit"},
	{"plan", cmd_plan, "find the cheapest cloud configuration that meets a target"},
	{"explain", cmd_explain, "set a measured run beside the model's prediction"},
	{"cost", cmd_cost, "price uploads (transactions, storage) and configurations"},
	{"catalog", cmd_catalog, "list and show the disk, VM and price catalog with sources"},
	{"history", cmd_history, "list and query past runs kept in SQLite"},
	{"report", cmd_report, "write an HTML report with charts from stored or JSON results"},
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static void usage(FILE *f)
{
	fprintf(f, "usage: iorate COMMAND [options] [ARGS]\n\n"
		   "iorate tells what storage really delivers, why, and what the cheaper "
		   "configuration would be.\n\nCommands:\n");
	for (size_t i = 0; i < NCOMMANDS; i++)
		fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fprintf(f, "\n'iorate COMMAND --help' explains a command's options with examples.\n"
		   "Examples:\n"
		   "  iorate run -b 4k -d 30s -t 2 -o 32 -r --size 1G /mnt/data/testfile\n"
		   "  iorate run --json -w 30 -b 8k /mnt/data/testfile > result.json\n"
		   "  iorate --version\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") || !strcmp(argv[1], "help")) {
		if (argc > 2 && strcmp(argv[1], "help") == 0) {
			static char *sub[3];

			sub[0] = argv[2];
			sub[1] = "--help";
			argv = sub;
			argc = 2;
			goto dispatch;
		}
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("iorate %s (%s)\n", IORATE_VERSION, IORATE_GITREV);
		return 0;
	}
	argv++;
	argc--;
dispatch:;
	/* "diskspd.exe", "SQLIO": commands pasted from Windows runbooks name the same tools. */
	char name[32];
	size_t n = strlen(argv[0]);
	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)argv[0][i]);
	name[n] = '\0';
	if (n > 4 && !strcmp(name + n - 4, ".exe"))
		name[n - 4] = '\0';
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcmp(name, commands[i].name))
			return commands[i].fn(argc, argv);
	return usage_error("'%s' is not a command (see 'iorate --help')", argv[0]);
}
