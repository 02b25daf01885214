/*
 * libFuzzer target: a DiskSpd command line (words of the input, after argv[0] "diskspd") is
 * translated into jobs through the option table of 'iorate run', as the command does, or
 * refused with a message, never a crash; a job it makes holds only what the table allows. A
 * -X word is pointed at an empty memfd, so no file is read (fuzz_diskspd_xml reads profiles).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fuzz_compat.h"
#include "fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *ex = fopen("/dev/null", "w");
	int argc, fd;
	char **argv = fuzz_argv(data, size, "diskspd", &argc), path[64];

	if (!argv || !ex || (fd = fuzz_memfd("", 0, path, sizeof(path))) < 0)
		abort();
	for (int i = 1; i < argc; i++)
		if (!strncmp(argv[i], "-X", 2))
			fuzz_argv_replace(argv, i, "-X", path);
	fuzz_translate_jobs(compat_diskspd_jobs, argc, argv, ex, false);
	close(fd);
	fclose(ex);
	fuzz_argv_free(argv);
	return 0;
}
