#ifndef IORATE_CORE_TARGET_H
#define IORATE_CORE_TARGET_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/job.h"

/*
 * A file or block device under test. target_open() decides whether iorate may touch it at all:
 * files it creates are filled and later removed; block devices are read-only unless writing was
 * asked for, and never written while mounted or holding a filesystem without --force.
 */
struct target {
	char *path;
	int fd;
	bool is_blockdev;
	bool created;                /* iorate made this file; target_close removes it */
	uint64_t size;
	uint64_t region_off, region_len;
	dev_t dev;                   /* the block device: st_rdev, or st_dev for a file */
	char devname[32];            /* kernel name from /sys/dev/block, or "" */
	unsigned logical_block;      /* O_DIRECT alignment of the device */
};

/* Progress of filling a new test file, 0..1; may be NULL. */
typedef void (*target_fill_cb)(void *arg, double done);

/*
 * Opens (creating and filling when missing) path for job. Returns 0, or -errno with a one-line
 * reason in err. -EPERM: a safety refusal; -EDOM: the job does not fit the target (block
 * larger than the region), which is bad usage rather than a failure.
 */
int target_open(struct target *t, const char *path, const struct job *job, target_fill_cb cb,
		void *cbarg, volatile sig_atomic_t *stop, char *err, size_t errlen);
/* A target for an engine that moves no bytes: nothing is opened; the region is checked. */
int target_virtual(struct target *t, const char *path, const struct job *job, char *err,
		   size_t errlen);
/* Closes, and removes a file iorate created unless keep. Accepts a target never opened. */
void target_close(struct target *t, bool keep);

/* Kernel name of the whole block device or partition dev ("sda1"), from /sys/dev/block. */
int target_devname(dev_t dev, char *name, size_t len);

#endif
