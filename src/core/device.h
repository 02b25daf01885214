#ifndef IORATE_CORE_DEVICE_H
#define IORATE_CORE_DEVICE_H
#include <stddef.h>
#include <sys/types.h>

/*
 * Whether a block device holds something that writing would destroy: a mounted filesystem (on
 * it or on any of its partitions), active swap, a holder in the kernel (device-mapper, MD RAID,
 * LVM: /sys/block/X/holders), a signature libblkid finds (filesystem, RAID or LVM member,
 * partition table), or partitions the kernel lists, whatever its table now says (each probed
 * too). A probe libblkid cannot settle (two signatures: "ambivalent") or that fails
 * counts as holding something.
 */

/* Where the kernel's views are read from; NULL members mean the real ones. For tests. */
struct device_env {
	const char *sys;         /* "/sys" */
	const char *mountinfo;   /* "/proc/self/mountinfo" */
	const char *swaps;       /* "/proc/swaps" */
	const char *dev;         /* "/dev": where a listed partition's node is opened to probe it */
};

/*
 * Checks dev (fd: the device opened read-only, for the signature probe; -1 skips the probe).
 * Returns 1 with the reason in why when it holds something, 0 when it is free, or -errno.
 */
int device_in_use(const struct device_env *env, dev_t dev, int fd, char *why, size_t whylen);
/*
 * What libblkid finds on the open device or file fd (a filesystem, RAID or LVM member, swap,
 * partition table), said in why; 1 when something is there or the probe cannot tell, else 0.
 */
int device_signature(int fd, char *why, size_t len);
/* Appends a reason to why, after "; " when it holds one already; truncated to len. */
__attribute__((format(printf, 3, 4))) void device_add_reason(char *why, size_t len,
							     const char *fmt, ...);

/* Kernel name of the whole block device or partition dev ("sda1"), from sysfs. */
int device_name(const struct device_env *env, dev_t dev, char *name, size_t len);

/*
 * The loop device that the regular file (dev, ino) backs, when one is attached: writing the
 * file writes that device. Asks the kernel (LOOP_GET_STATUS64 through /dev/NAME) when the node
 * opens, else compares the file sysfs names (loop/backing_file). 1 with its number and kernel
 * name; 0 when the file backs none (or sysfs lists no block devices).
 */
int device_backing_loop(const struct device_env *env, dev_t dev, ino_t ino, dev_t *loop,
			char *name, size_t len);

#define DEVICE_STACK_MAX 64

/* How a device came to be under a target. */
enum device_role {
	DEVICE_TARGET,               /* a block target, or the device of a file's filesystem */
	DEVICE_DISK,                 /* the whole disk of a partition listed before it */
	DEVICE_MEMBER,               /* a member of a dm or md device listed before it */
};

/*
 * The block devices under a target: the device itself (a file's: its filesystem's), then, each
 * once, the whole disk of every partition among them and every member of a dm or md device
 * among them (sysfs slaves/), down to the bottom; of is the index of the node a disk or a
 * member is under.
 */
struct device_node {
	dev_t dev;
	char name[32];               /* as /proc/diskstats spells it ("cciss/c0d0", "dm-0") */
	enum device_role role;
	unsigned of;
};

struct device_stack {
	unsigned n;
	struct device_node node[DEVICE_STACK_MAX];
};

/*
 * The stack under dev: a block device's st_rdev, or a file's st_dev. A filesystem whose st_dev
 * is not a block device (btrfs: major 0) is looked up in mountinfo, and its source used when
 * that is a block device. 0; -ENODEV when there is no block device under it (tmpfs, NFS);
 * -ENOENT when sysfs does not list it.
 */
int device_stack(const struct device_env *env, dev_t dev, struct device_stack *s);

#endif
