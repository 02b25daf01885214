/*
 * iorate: measure storage, emulate cloud caps, explain, plan and price.
 * main() only dispatches over the table of commands; each lives in src/cmd/.
 */
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "cmd/cmd.h"
#include "cmd/options.h"

#define commands iorate_commands

static void usage(FILE *f)
{
	fprintf(f, "usage: iorate COMMAND [options] [ARGS]\n\n"
		   "iorate tells what storage really delivers, why, and what the cheaper "
		   "configuration would be.\n\nCommands:\n");
	for (size_t i = 0; commands[i]; i++)
		fprintf(f, "  %-9s %s\n", commands[i]->name, commands[i]->summary);
	fprintf(f, "\n'iorate COMMAND --help' (or 'iorate help COMMAND') explains a command's\n"
		   "options with examples.\n"
		   "Examples:\n"
		   "  iorate run -b 4k -d 30s -t 2 -o 32 -r --size 1G /mnt/data/testfile\n"
		   "  iorate run --json -w 30 -b 8k /mnt/data/testfile > result.json\n"
		   "  iorate --version\n");
}

/* "diskspd.exe", "SQLIO": commands pasted from Windows runbooks name the same tools. */
static const struct command *find(const char *arg)
{
	char name[32];
	size_t n = strlen(arg);

	if (n >= sizeof(name))
		n = sizeof(name) - 1;
	for (size_t i = 0; i < n; i++)
		name[i] = (char)tolower((unsigned char)arg[i]);
	name[n] = '\0';
	if (n > 4 && !strcmp(name + n - 4, ".exe"))
		name[n - 4] = '\0';
	for (size_t i = 0; commands[i]; i++)
		if (!strcmp(name, commands[i]->name))
			return commands[i];
	return NULL;
}

/* iorate help [COMMAND | --man | --completion]: the last two write the generated files. */
static int help(int argc, char **argv)
{
	char near[120];
	const struct command *cmd;

	if (argc < 3) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[2], "--man")) {
		options_man(stdout, commands);
		return 0;
	}
	if (!strcmp(argv[2], "--completion")) {
		options_completion(stdout, commands);
		return 0;
	}
	if (!(cmd = find(argv[2])))
		return usage_error("'%s' is not a command%s (see 'iorate --help')", argv[2],
				   options_near_word(commands, NULL, argv[2], near, sizeof(near)));
	options_help(stdout, cmd);
	return 0;
}

int main(int argc, char **argv)
{
	char near[120];
	const struct command *cmd;
	int code;

	if (argc < 2) {
		usage(stderr);
		return EXIT_USAGE;
	}
	if ((code = cmd_stdout_check(argc, argv)))
		return code;
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		usage(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "help"))
		return help(argc, argv);
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("iorate %s (%s)\n", IORATE_VERSION, IORATE_GITREV);
		return 0;
	}
	if (!(cmd = find(argv[1])))
		return usage_error("'%s' is not a command%s (see 'iorate --help')", argv[1],
				   options_near_word(commands, NULL, argv[1], near, sizeof(near)));
	cmd_signals_install();
	return cmd_exit_code(cmd->fn(argc - 1, argv + 1));
}
