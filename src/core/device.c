#include "core/device.h"

#include <blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/loop.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_PARTS 256

/* A device and its partitions: numbers, kernel names and sysfs directories. */
struct devset {
	unsigned n;
	unsigned parts;              /* the first of dev's own partitions (after its disk) */
	dev_t dev[MAX_PARTS + 1];
	char name[MAX_PARTS + 1][32];
	char *dir[MAX_PARTS + 1];
};

static const char *sys_root(const struct device_env *env)
{
	return env && env->sys ? env->sys : "/sys";
}

static int dev_dir(const struct device_env *env, dev_t dev, char *out)
{
	char link[PATH_MAX];

	snprintf(link, sizeof(link), "%s/dev/block/%u:%u", sys_root(env), major(dev), minor(dev));
	return realpath(link, out) ? 0 : -errno;
}

int device_name(const struct device_env *env, dev_t dev, char *name, size_t len)
{
	char dir[PATH_MAX];
	int r = dev_dir(env, dev, dir);

	if (r)
		return r;
	const char *slash = strrchr(dir, '/');
	snprintf(name, len, "%s", slash ? slash + 1 : dir);
	return 0;
}

static int devset_add(struct devset *s, dev_t dev, const char *dir)
{
	if (s->n > MAX_PARTS)
		return -E2BIG;
	if (!(s->dir[s->n] = strdup(dir)))
		return -ENOMEM;
	const char *slash = strrchr(dir, '/');
	snprintf(s->name[s->n], sizeof(s->name[0]), "%s", slash ? slash + 1 : dir);
	s->dev[s->n++] = dev;
	return 0;
}

static void devset_free(struct devset *s)
{
	for (unsigned i = 0; i < s->n; i++)
		free(s->dir[i]);
	s->n = 0;
}

static bool read_majmin(const char *path, dev_t *dev)
{
	unsigned ma, mi;
	FILE *f = fopen(path, "r");
	bool ok = f && fscanf(f, "%u:%u", &ma, &mi) == 2;

	if (f)
		fclose(f);
	if (ok)
		*dev = makedev(ma, mi);
	return ok;
}

/*
 * The whole disk of the partition whose sysfs directory is dir, added to s: writing a partition
 * writes that disk, and a filesystem, swap or holder of the whole disk may span the partition
 * (a partition table written over a mounted filesystem's device). The disk's other partitions
 * lie elsewhere on it and are left out.
 */
static int devset_add_disk(struct devset *s, const char *dir)
{
	char disk[PATH_MAX], sub[PATH_MAX + 16];
	const char *slash = strrchr(dir, '/');
	dev_t d;

	snprintf(sub, sizeof(sub), "%s/partition", dir);
	if (access(sub, F_OK) || !slash)
		return 0;
	/* A partition's directory is inside its disk's. */
	snprintf(disk, sizeof(disk), "%.*s", (int)(slash - dir), dir);
	snprintf(sub, sizeof(sub), "%s/dev", disk);
	if (!read_majmin(sub, &d))
		return -ENOENT;
	return devset_add(s, d, disk);
}

/*
 * dev, and each partition of it: the subdirectories of its sysfs node that hold "partition";
 * for a partition, its whole disk.
 */
static int devset_build(const struct device_env *env, dev_t dev, struct devset *s)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *de;
	DIR *d;
	int r;

	memset(s, 0, sizeof(*s));
	if ((r = dev_dir(env, dev, dir)) || (r = devset_add(s, dev, dir)) ||
	    (r = devset_add_disk(s, dir)))
		return r;
	s->parts = s->n;
	if (!(d = opendir(dir)))
		return 0;
	while ((de = readdir(d))) {
		dev_t part;
		if (de->d_name[0] == '.')
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/partition", dir, de->d_name);
		if (access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		if (!read_majmin(sub, &part))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if ((r = devset_add(s, part, sub)))
			break;
	}
	closedir(d);
	return r;
}

static int devset_find(const struct devset *s, dev_t dev)
{
	for (unsigned i = 0; i < s->n; i++)
		if (s->dev[i] == dev)
			return (int)i;
	return -1;
}

/* Appends a reason to why, after "; " when it holds one already; truncated to len. */
void device_add_reason(char *why, size_t len, const char *fmt, ...)
{
	size_t at = strnlen(why, len);
	va_list ap;

	if (at && at + 2 < len)
		at += (size_t)snprintf(why + at, len - at, "; ");
	if (at + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(why + at, len - at, fmt, ap);
	va_end(ap);
}

/* Every device of s that is mounted, at the first place mountinfo lists it. */
static bool mounted(const struct device_env *env, const struct devset *s, char *why, size_t len)
{
	const char *path = env && env->mountinfo ? env->mountinfo : "/proc/self/mountinfo";
	char line[4096], mnt[1024];
	bool seen[MAX_PARTS + 1] = {false}, used = false;
	FILE *f = fopen(path, "r");
	unsigned ma, mi;
	int k;

	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &ma, &mi, mnt) != 3)
			continue;
		if ((k = devset_find(s, makedev(ma, mi))) < 0 || seen[k])
			continue;
		device_add_reason(why, len, "%s is mounted at %s", s->name[k], mnt);
		seen[k] = used = true;
	}
	if (f)
		fclose(f);
	return used;
}

static bool swapping(const struct device_env *env, const struct devset *s, char *why, size_t len)
{
	const char *path = env && env->swaps ? env->swaps : "/proc/swaps";
	char dev[PATH_MAX];
	FILE *f = fopen(path, "r");
	struct stat st;
	bool used = false;
	int k;

	while (f && fscanf(f, "%4095s %*[^\n]", dev) == 1) {
		if (dev[0] != '/' || stat(dev, &st) || !S_ISBLK(st.st_mode))
			continue;
		if ((k = devset_find(s, st.st_rdev)) >= 0) {
			device_add_reason(why, len, "%s is in use as swap", s->name[k]);
			used = true;
		}
	}
	if (f)
		fclose(f);
	return used;
}

/*
 * A holder (dm, md, LVM) of any device of s, the first each has: the kernel stacks something
 * on it.
 */
static bool held(const struct devset *s, char *why, size_t len)
{
	char dir[PATH_MAX + 16];
	bool used = false;

	for (unsigned i = 0; i < s->n; i++) {
		struct dirent *de;
		DIR *d;

		snprintf(dir, sizeof(dir), "%s/holders", s->dir[i]);
		if (!(d = opendir(dir)))
			continue;
		while ((de = readdir(d)) && de->d_name[0] == '.')
			;
		if (de) {
			device_add_reason(why, len,
				   "%s is held by %s (device-mapper, MD RAID or LVM use it)",
				   s->name[i], de->d_name);
			used = true;
		}
		closedir(d);
	}
	return used;
}

/* A probe that failed: errno, or libblkid's negative errno in rc (-1 when it sets errno). */
static bool probe_failed(int rc, char *why, size_t len)
{
	int e = rc < -1 ? -rc : errno;

	device_add_reason(why, len, "the libblkid probe failed (%s), so it may hold data",
		   e ? strerror(e) : "no reason given");
	return true;
}

/*
 * What libblkid finds on fd, said of who ("it", or a partition's name). True when something is
 * there, or when the probe cannot tell.
 */
static bool signature(int fd, const char *who, char *why, size_t len)
{
	blkid_probe pr = blkid_new_probe();
	const char *v = NULL;
	bool found = true;
	int rc;

	if (!pr)
		return probe_failed(-ENOMEM, why, len);
	errno = 0;
	if (blkid_probe_set_device(pr, fd, 0, 0)) {
		probe_failed(-1, why, len);
		goto out;
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	rc = blkid_do_safeprobe(pr);
	if (rc == 1) {
		found = false;
	} else if (rc == -2) {
		device_add_reason(why, len, "libblkid finds more than one signature on %s (an "
				  "ambivalent probe), so it holds something", who);
	} else if (rc < 0) {
		probe_failed(rc, why, len);
	} else if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0) {
		device_add_reason(why, len, "%s holds a %s signature (filesystem, RAID or LVM member)",
				  who, v);
	} else if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0) {
		device_add_reason(why, len, "%s holds a %s partition table", who, v);
	} else {
		device_add_reason(why, len, "%s holds a filesystem or partition signature", who);
	}
out:
	blkid_free_probe(pr);
	return found;
}

int device_signature(int fd, char *why, size_t len)
{
	return signature(fd, "it", why, len);
}

/*
 * The partitions the kernel lists for the device (sysfs), whatever its partition table says
 * now: a table zeroed since they were read leaves them in place, each with its filesystem.
 * Each is probed through its node (dev_root/NAME, checked to be that device) when probe.
 */
static bool listed_partitions(const struct device_env *env, const struct devset *s, bool probe,
			      char *why, size_t len)
{
	const char *root = env && env->dev ? env->dev : "/dev";
	char names[256] = "", node[PATH_MAX];
	unsigned order[MAX_PARTS + 1], n = 0;
	size_t at = 0;

	if (s->parts >= s->n)
		return false;
	/* sysfs lists them in no set order: by name, p2 before p10, as a user numbers them. */
	for (unsigned i = s->parts; i < s->n; i++) {
		unsigned k = n++;
		for (; k && strverscmp(s->name[order[k - 1]], s->name[i]) > 0; k--)
			order[k] = order[k - 1];
		order[k] = i;
	}
	for (unsigned k = 0; k < n && at + 1 < sizeof(names); k++)
		at += (size_t)snprintf(names + at, sizeof(names) - at, "%s%s", at ? ", " : "",
				       s->name[order[k]]);
	device_add_reason(why, len, "the kernel lists partitions on it (%s)", names);
	for (unsigned k = 0; probe && k < n; k++) {
		unsigned i = order[k];
		struct stat st;
		int fd;

		snprintf(node, sizeof(node), "%s/%s", root, s->name[i]);
		fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd < 0 || fstat(fd, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != s->dev[i]) {
			device_add_reason(why, len, "%s cannot be opened to look for signatures",
					  s->name[i]);
		} else {
			signature(fd, s->name[i], why, len);
		}
		if (fd >= 0)
			close(fd);
	}
	return true;
}

int device_in_use(const struct device_env *env, dev_t dev, int fd, char *why, size_t whylen)
{
	struct devset s;
	int r = devset_build(env, dev, &s);

	if (whylen)
		why[0] = '\0';
	if (r) {
		/* A device the kernel does not list cannot be checked: it counts as in use. */
		snprintf(why, whylen, "its partitions and holders cannot be read from sysfs (%s)",
			 strerror(-r));
		devset_free(&s);
		return 1;
	}
	/* Every reason, not the first: --force names all it overrides. */
	r = mounted(env, &s, why, whylen);
	r |= swapping(env, &s, why, whylen);
	r |= held(&s, why, whylen);
	if (fd >= 0)
		r |= signature(fd, "it", why, whylen);
	r |= listed_partitions(env, &s, fd >= 0, why, whylen);
	devset_free(&s);
	return r;
}

/* Whether the loop device ldev, /dev/name, is backed by the file (dev, ino), as the kernel says. */
static int loop_status_backs(const char *name, dev_t ldev, dev_t dev, ino_t ino)
{
	char node[300];
	struct loop_info64 li;
	struct stat st;
	int fd, r = -1;

	snprintf(node, sizeof(node), "/dev/%s", name);
	if ((fd = open(node, O_RDONLY | O_CLOEXEC | O_NONBLOCK)) < 0)
		return -1;
	if (!fstat(fd, &st) && S_ISBLK(st.st_mode) && st.st_rdev == ldev &&
	    !ioctl(fd, LOOP_GET_STATUS64, &li)) {
		/* The kernel's encoding of a device number (new_encode_dev). */
		uint64_t v = li.lo_device;
		dev_t back = makedev((unsigned)(v & 0xfff00) >> 8,
				     (unsigned)((v & 0xff) | ((v >> 12) & 0xfff00)));
		r = back == dev && li.lo_inode == ino;
	}
	close(fd);
	return r;
}

/* Whether the file sysfs names as loop device dir's backing file is (dev, ino). */
static bool loop_file_backs(const char *dir, dev_t dev, ino_t ino)
{
	char path[PATH_MAX + 400], file[PATH_MAX];
	struct stat st;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "%s/loop/backing_file", dir);
	if (!(f = fopen(path, "r")))
		return false;
	ok = fgets(file, sizeof(file), f) != NULL;
	fclose(f);
	if (!ok)
		return false;
	file[strcspn(file, "\n")] = '\0';
	return !stat(file, &st) && S_ISREG(st.st_mode) && st.st_dev == dev && st.st_ino == ino;
}

int device_backing_loop(const struct device_env *env, dev_t dev, ino_t ino, dev_t *loop,
			char *name, size_t len)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent *de;
	int found = 0, r;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/block", sys_root(env));
	if (!(d = opendir(dir)))
		return 0;
	while (!found && (de = readdir(d))) {
		dev_t ldev;

		/* Only a loop device with a file attached has loop/backing_file. */
		snprintf(sub, sizeof(sub), "%s/%s/loop/backing_file", dir, de->d_name);
		if (de->d_name[0] == '.' || access(sub, F_OK))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s/dev", dir, de->d_name);
		if (!read_majmin(sub, &ldev))
			continue;
		snprintf(sub, sizeof(sub), "%s/%s", dir, de->d_name);
		if ((r = loop_status_backs(de->d_name, ldev, dev, ino)) < 0)
			r = loop_file_backs(sub, dev, ino);
		if (r) {
			*loop = ldev;
			snprintf(name, len, "%s", de->d_name);
			found = 1;
		}
	}
	closedir(d);
	return found;
}

/*
 * A filesystem without a block device of its own in st_dev (btrfs gives each subvolume an
 * anonymous one, major 0) is found in mountinfo: its source, when that is a block device.
 */
static int mount_source(const struct device_env *env, dev_t dev, dev_t *out)
{
	const char *path = env && env->mountinfo ? env->mountinfo : "/proc/self/mountinfo";
	char line[4096], src[1024];
	FILE *f = fopen(path, "r");
	struct stat st;
	unsigned ma, mi;
	int r = -ENODEV;

	while (f && r && fgets(line, sizeof(line), f)) {
		const char *sep = strstr(line, " - ");

		if (sscanf(line, "%*u %*u %u:%u", &ma, &mi) != 2 || makedev(ma, mi) != dev ||
		    !sep || sscanf(sep + 3, "%*s %1023s", src) != 1)
			continue;
		if (src[0] == '/' && !stat(src, &st) && S_ISBLK(st.st_mode)) {
			*out = st.st_rdev;
			r = 0;
		}
	}
	if (f)
		fclose(f);
	return r;
}

/* Appends dev unless the stack holds it; 0 also when sysfs does not list it (left out). */
static int stack_push(const struct device_env *env, struct device_stack *s, dev_t dev,
		      enum device_role role, unsigned of)
{
	struct device_node *n;
	char dir[PATH_MAX];

	for (unsigned i = 0; i < s->n; i++)
		if (s->node[i].dev == dev)
			return 0;
	if (dev_dir(env, dev, dir))
		return 0;
	if (s->n == DEVICE_STACK_MAX)
		return -E2BIG;
	n = &s->node[s->n++];
	n->dev = dev;
	n->role = role;
	n->of = of;
	const char *slash = strrchr(dir, '/');
	snprintf(n->name, sizeof(n->name), "%.31s", slash ? slash + 1 : dir);
	/* sysfs spells a '/' in a kernel name as '!' (cciss!c0d0); /proc/diskstats does not. */
	for (char *c = n->name; *c; c++)
		if (*c == '!')
			*c = '/';
	return 0;
}

/* Node i's whole disk (when it is a partition) and its members (slaves/), appended. */
static int stack_expand(const struct device_env *env, struct device_stack *s, unsigned i)
{
	char dir[PATH_MAX], sub[PATH_MAX + 300];
	struct dirent **list = NULL;
	int r, n;
	dev_t d;

	if ((r = dev_dir(env, s->node[i].dev, dir)))
		return r;
	snprintf(sub, sizeof(sub), "%s/partition", dir);
	if (!access(sub, F_OK)) {
		/* A partition's directory is inside its disk's. */
		int len = (int)(strrchr(dir, '/') - dir);
		snprintf(sub, sizeof(sub), "%.*s/dev", len, dir);
		if (read_majmin(sub, &d) && (r = stack_push(env, s, d, DEVICE_DISK, i)))
			return r;
	}
	snprintf(sub, sizeof(sub), "%s/slaves", dir);
	/* In name order, so that a run lists a stack's members the same way every time. */
	n = scandir(sub, &list, NULL, alphasort);
	for (int k = 0; k < n; k++) {
		snprintf(sub, sizeof(sub), "%s/slaves/%s/dev", dir, list[k]->d_name);
		if (!r && list[k]->d_name[0] != '.' && read_majmin(sub, &d))
			r = stack_push(env, s, d, DEVICE_MEMBER, i);
		free(list[k]);
	}
	free(list);
	return r;
}

int device_stack(const struct device_env *env, dev_t dev, struct device_stack *s)
{
	char dir[PATH_MAX];
	int r;

	s->n = 0;
	if (major(dev) == 0 && (r = mount_source(env, dev, &dev)))
		return r;
	if ((r = dev_dir(env, dev, dir)))
		return r;
	if ((r = stack_push(env, s, dev, DEVICE_TARGET, 0)))
		return r;
	for (unsigned i = 0; i < s->n; i++)
		if ((r = stack_expand(env, s, i)) && r != -ENOENT)
			return r;
	return 0;
}
