/*
 * libFuzzer target: a block read from a device is untrusted input. verify_check() never reads
 * past the block and classifies anything; verify_scan_fd() over the input (in a memfd) never
 * crashes, finds the layout only from a header that checks out, and counts what it checks
 * (lost writes among the bad blocks, suspicious ones among those without a header).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/verify.h"
#include "core/verify_scan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct verify_id want = {.offset = 0, .target = UINT32_MAX}, found;

	if (size >= VERIFY_MIN_BLOCK) {
		uint32_t block = (uint32_t)(size / 512 * 512);
		void *b = malloc(block);
		if (b) {
			memcpy(b, data, block);
			enum verify_why w = verify_check(b, block, &want, &found);
			if (w != VERIFY_UNWRITTEN && w != VERIFY_OK && !verify_why_name(w))
				abort();
			free(b);
		}
	}
	int fd = memfd_create("fuzz_verify", 0);
	if (fd < 0)
		return 0;
	if (write(fd, data, size) == (ssize_t)size) {
		struct verify_scan s = {0};
		int r = verify_scan_fd(fd, 0, size, &s, NULL, NULL, NULL);
		/* Lost writes are bad blocks; suspicious ones are blocks without a header. */
		if (!r && (s.res.bad > s.res.checked || (s.block && s.block % 512) ||
			   s.lost > s.res.bad || s.suspicious > s.unwritten))
			abort();
		verify_result_release(&s.res);
	}
	close(fd);
	return 0;
}
