/* libFuzzer target: fio job files of any content are loaded or refused, never crash. */
#include <stdint.h>
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cmd/compat.h"
#include "core/job.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int fd = memfd_create("job.fio", 0);
	char path[64], err[512];
	struct job j;

	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		job_init(&j);
		compat_fio_load(path, &j, err, sizeof(err));
		job_release(&j);
	}
	close(fd);
	return 0;
}
