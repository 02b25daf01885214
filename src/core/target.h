#ifndef IORATE_CORE_TARGET_H
#define IORATE_CORE_TARGET_H
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/gate.h"
#include "core/job.h"

/*
 * A file or block device under test. target_open() decides whether iorate may touch it at all,
 * from what it opened (src/core/gate.h): files it creates are filled and later removed; block
 * devices are read-only unless writing was asked for, and never written while mounted, held or
 * holding a signature without --force; a link is followed only to a block device, or to a file
 * that is only read.
 */
struct target {
	char *path;
	char *opened;                /* what the path led to, when a link or a device: "/dev/loop3" */
	int fd;
	bool is_blockdev;
	bool created;                /* iorate made this file; target_close removes it */
	int dirfd;                   /* created: the directory it is in, and its name there */
	char *base;
	struct gate_id id;           /* what was opened */
	char *forced;                /* what --force overrode, or NULL */
	bool claimed;                /* gate_claim() holds claim: the device, or the loop device */
	dev_t claim;                 /* a written file backs */
	uint64_t size;
	uint64_t region_off, region_len;
	dev_t dev;                   /* the block device: st_rdev, or st_dev for a file */
	char devname[32];            /* kernel name from /sys/dev/block, or "" */
	unsigned logical_block;      /* O_DIRECT alignment of the device */
};

/* Progress of filling a new test file, 0..1; may be NULL. */
typedef void (*target_fill_cb)(void *arg, double done);

/*
 * Opens (creating and filling when missing) path for job. expect, when not NULL, is the file an
 * earlier run created there: anything else at the path is refused. Returns 0, or -errno with a
 * one-line reason in err. -EPERM: a safety refusal; -EDOM, -EINVAL, -EISDIR: the job does not fit
 * the target (a directory, a block larger than the region), which is bad usage; -EINTR: stop
 * was set while the file was being filled.
 */
int target_open(struct target *t, const char *path, const struct job *job,
		const struct gate_id *expect, target_fill_cb cb, void *cbarg,
		volatile sig_atomic_t *stop, char *err, size_t errlen);
/*
 * What can be said of path without opening it, before any target is touched: a directory, a
 * device node of the wrong kind, a missing parent directory are bad usage (-EINVAL).
 */
int target_precheck(const char *path, char *err, size_t errlen);
/* A target for an engine that moves no bytes: nothing is opened; the region is checked. */
int target_virtual(struct target *t, const char *path, const struct job *job, char *err,
		   size_t errlen);
/*
 * Closes, and removes a file iorate created unless keep, but only while its name still leads to
 * the file created: -ESTALE when something else replaced it (left alone). Accepts a target never
 * opened.
 */
int target_close(struct target *t, bool keep);

#endif
