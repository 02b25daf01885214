/*
 * libFuzzer target: a DiskSpd XML profile (-X) is read with libxml2, checked and translated into
 * jobs through the option table of 'iorate run', as the command does, or refused with a message,
 * never a crash; a job it makes holds only what the table allows. The input is the command
 * line's words (after argv[0] "diskspd": flags beside -X, targets for *1, *2, ...), then, after
 * the first blank line, the profile; every -X word is pointed at that profile (a memfd), so no
 * other file is ever read (the profile's own DTDs and entities are never loaded).
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
	size_t nargs = sep ? (size_t)(sep - data) : 0;
	char path[64];
	FILE *ex = fopen("/dev/null", "w");
	int argc, fd;
	char **argv = fuzz_argv(data, nargs, "diskspd", &argc);

	if (!argv || !ex)
		abort();
	fd = sep ? fuzz_memfd(sep + 2, size - nargs - 2, path, sizeof(path))
		 : fuzz_memfd(data, size, path, sizeof(path));
	if (fd < 0)
		abort();
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-X", 2))
			fuzz_argv_replace(argv, i, "-X", path);
	/* Without words, the whole input is the profile, run as -X<profile> alone. */
	if (argc == 1) {
		fuzz_argv_free(argv);
		argv = fuzz_argv((const uint8_t *)"-X", 2, "diskspd", &argc);
		fuzz_argv_replace(argv, 1, "-X", path);
	}
	fuzz_translate_jobs(compat_diskspd_jobs, argc, argv, ex, true);
	close(fd);
	fclose(ex);
	fuzz_argv_free(argv);
	return 0;
}
