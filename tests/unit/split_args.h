/* Shared by the unit tests of the foreign syntaxes: a command line as an argv. */
#ifndef IORATE_TESTS_SPLIT_ARGS_H
#define IORATE_TESTS_SPLIT_ARGS_H

#include <string.h>

/* Splits copy on spaces (no quoting needed in these tests) into argv after tool: argc. */
static inline int split(char *copy, const char *tool, char **argv)
{
	char *save = NULL;
	int argc = 0;

	argv[argc++] = (char *)tool;
	for (char *p = strtok_r(copy, " ", &save); p && argc < 63; p = strtok_r(NULL, " ", &save))
		argv[argc++] = p;
	argv[argc] = NULL;
	return argc;
}

#endif
