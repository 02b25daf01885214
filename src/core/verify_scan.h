#ifndef IORATE_CORE_VERIFY_SCAN_H
#define IORATE_CORE_VERIFY_SCAN_H
#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#include "core/verify.h"

/* One target checked after the fact (`iorate verify`). */
struct verify_scan {
	uint32_t block;             /* bytes per block; 0: from the first header found */
	uint64_t seed;              /* the run the blocks must come from; 0: the first header's */
	unsigned target;            /* this target's index, for the bad blocks' records */
	uint64_t unwritten;         /* blocks without a header (never written by iorate) */
	struct verify_result res;   /* checked: blocks with a header; bad ones kept */
};

/*
 * Checks the blocks of [off, off + len) of fd. -ENOENT when block or seed had to be found and no
 * intact header was; -EINTR when *stop was set; -errno on a read error.
 */
int verify_scan_fd(int fd, uint64_t off, uint64_t len, struct verify_scan *s,
		   void (*progress)(void *arg, double done), void *arg,
		   volatile sig_atomic_t *stop);

/* The same for a path (a regular file or a block device, read only), range 0 meaning to its
 * end. On failure err says why ("PATH: ..."); -EINVAL for bad usage. */
int verify_scan_path(const char *path, uint64_t off, uint64_t range, struct verify_scan *s,
		     void (*progress)(void *arg, double done), void *arg,
		     volatile sig_atomic_t *stop, char *err, size_t errlen);

#endif
