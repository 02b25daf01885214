/*
 * libFuzzer target: a SQLIO command line and its -F parameter file are translated into a job,
 * through the option table of 'iorate run' as the command does, or refused with a message, never
 * a crash; a job it makes holds only what the table allows. The input is the command line's
 * words (after argv[0] "sqlio"), then, after the first blank line, the parameter file; every -F
 * word is pointed at that file (a memfd), so no other file is ever opened.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_compat.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t *sep = memmem(data, size, "\n\n", 2);
	size_t nargs = sep ? (size_t)(sep - data) : size;
	char path[64];
	FILE *ex = fopen("/dev/null", "w");
	int argc, fd;
	char **argv = fuzz_argv(data, nargs, "sqlio", &argc);

	if (!argv || !ex)
		abort();
	fd = sep ? fuzz_memfd(sep + 2, size - nargs - 2, path, sizeof(path))
		 : fuzz_memfd("", 0, path, sizeof(path));
	if (fd < 0)
		abort();
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-F", 2) && argv[i][2])
			fuzz_argv_replace(argv, i, "-F", path);
	fuzz_translate(compat_sqlio_parse, argc, argv, ex);
	close(fd);
	fclose(ex);
	fuzz_argv_free(argv);
	return 0;
}
