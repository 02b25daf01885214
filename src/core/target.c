#include "core/target.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/workload.h"
#include "util/parse.h"

#define FILL_CHUNK (1u << 20)

#define SAY(...) snprintf(err, errlen, __VA_ARGS__)

int target_devname(dev_t dev, char *name, size_t len)
{
	char link[64], buf[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	if ((n = readlink(link, buf, sizeof(buf) - 1)) < 0)
		return -errno;
	buf[n] = '\0';
	snprintf(name, len, "%s", basename(buf));
	return 0;
}

static int open_flags(const struct job *job)
{
	int f = (job->write_pct > 0 ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (job_direct(job))
		f |= O_DIRECT;
	if (job->cache == CACHE_WRITETHROUGH || job->cache == CACHE_DIRECTSYNC)
		f |= O_DSYNC;
	return f;
}

/* Opens with the run's flags, explaining the one failure users meet most: no O_DIRECT here. */
static int open_run(struct target *t, const struct job *job, int extra, char *err, size_t errlen)
{
	int fd = open(t->path, open_flags(job) | extra);

	if (fd >= 0) {
		t->fd = fd;
		return 0;
	}
	int e = errno;
	if (e == EINVAL && job_direct(job))
		SAY("%s: this filesystem does not support direct I/O (O_DIRECT); use --cache buffered",
		    t->path);
	else if (e == EBUSY)
		SAY("%s: device is busy (mounted or in use by the kernel); refusing to write to it",
		    t->path);
	else
		SAY("%s: cannot open: %s", t->path, strerror(e));
	return -e;
}

/* Writes size bytes of incompressible (or zero) data; stops early, and fails, on a signal. */
static int fill_file(int fd, uint64_t size, const struct job *job, target_fill_cb cb, void *cbarg,
		     volatile sig_atomic_t *stop)
{
	uint64_t *buf = malloc(FILL_CHUNK), done = 0;
	struct workload w;
	int r = 0;

	if (!buf)
		return -ENOMEM;
	workload_seed(&w, job->seed ^ 0x5eedf11eull);
	if (job->fill == FILL_ZERO)
		memset(buf, 0, FILL_CHUNK);
	while (done < size) {
		size_t n = size - done < FILL_CHUNK ? (size_t)(size - done) : FILL_CHUNK;
		if (stop && *stop) {
			r = -EINTR;
			break;
		}
		if (job->fill == FILL_RANDOM)
			workload_fill(&w, buf, FILL_CHUNK);
		ssize_t wr = pwrite(fd, buf, n, (off_t)done);
		if (wr < 0) {
			if (errno == EINTR)
				continue;
			r = -errno;
			break;
		}
		done += (uint64_t)wr;
		if (cb && (done % (64u << 20) == 0 || done == size))
			cb(cbarg, (double)done / (double)size);
	}
	if (!r && fdatasync(fd) < 0)
		r = -errno;
	free(buf);
	return r;
}

static int create_file(struct target *t, const struct job *job, target_fill_cb cb, void *cbarg,
		       volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	uint64_t size = job->size ? job->size : JOB_DEFAULT_FILE_SIZE;
	char dir[PATH_MAX], b1[32], b2[32];
	struct statvfs vfs;
	int fd, r;

	snprintf(dir, sizeof(dir), "%s", t->path);
	if (statvfs(dirname(dir), &vfs) == 0 &&
	    (uint64_t)vfs.f_bavail * vfs.f_frsize < size + (64u << 20)) {
		SAY("%s: not enough space for a %s test file (%s free)", t->path,
		    fmt_size(size, b1, sizeof(b1)),
		    fmt_size((uint64_t)vfs.f_bavail * vfs.f_frsize & ~1048575ull, b2, sizeof(b2)));
		return -ENOSPC;
	}
	if ((fd = open(t->path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0644)) < 0) {
		r = -errno;
		SAY("%s: cannot create: %s", t->path, strerror(errno));
		return r;
	}
	t->created = true;
	r = fill_file(fd, size, job, cb, cbarg, stop);
	close(fd);
	if (r) {
		if (r == -EINTR)
			SAY("%s: interrupted while creating the test file", t->path);
		else
			SAY("%s: cannot fill the test file: %s", t->path, strerror(-r));
		return r;
	}
	t->size = size;
	return 0;
}

/* Whether dev, or a partition of it, is mounted or used as swap. */
static bool dev_in_use(const struct target *t, char *why, size_t whylen)
{
	char line[4096], want[40];
	bool used = false;
	FILE *f = fopen("/proc/self/mountinfo", "r");

	snprintf(want, sizeof(want), "/%s/", t->devname);
	while (f && !used && fgets(line, sizeof(line), f)) {
		unsigned maj, min;
		char path[PATH_MAX], mnt[1024], link[64];
		if (sscanf(line, "%*u %*u %u:%u %*s %1023s", &maj, &min, mnt) != 3 || maj == 0)
			continue;
		snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", maj, min);
		if (!realpath(link, path))
			continue;
		if (strlen(path) + 2 > sizeof(path))
			continue;
		strcat(path, "/");
		if (makedev(maj, min) == t->dev || strstr(path, want)) {
			snprintf(why, whylen, "it is mounted (or has a mounted partition) at %s", mnt);
			used = true;
		}
	}
	if (f)
		fclose(f);
	if (!used && (f = fopen("/proc/swaps", "r"))) {
		char dev[PATH_MAX];
		struct stat st;
		while (!used && fscanf(f, "%4095s %*[^\n]", dev) == 1)
			if (stat(dev, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == t->dev) {
				snprintf(why, whylen, "it is in use as swap");
				used = true;
			}
		fclose(f);
	}
	return used;
}

/* A filesystem, RAID/LVM signature or partition table on the device, from libblkid. */
static bool dev_has_signature(const char *path, char *why, size_t whylen)
{
	blkid_probe pr = blkid_new_probe_from_filename(path);
	const char *v = NULL;
	bool found = false;

	if (!pr)
		return false;
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE);
	blkid_probe_enable_partitions(pr, 1);
	if (blkid_do_safeprobe(pr) == 0) {
		if (blkid_probe_lookup_value(pr, "TYPE", &v, NULL) == 0)
			snprintf(why, whylen, "it holds a %s filesystem or volume signature", v);
		else if (blkid_probe_lookup_value(pr, "PTTYPE", &v, NULL) == 0)
			snprintf(why, whylen, "it holds a %s partition table", v);
		else
			snprintf(why, whylen, "it holds a filesystem or partition signature");
		found = true;
	}
	blkid_free_probe(pr);
	return found;
}

static int open_device(struct target *t, const struct job *job, const struct stat *st, char *err,
		       size_t errlen)
{
	char why[PATH_MAX + 64];
	int r;

	t->is_blockdev = true;
	t->dev = st->st_rdev;
	target_devname(t->dev, t->devname, sizeof(t->devname));
	if (job->write_pct > 0) {
		if (!job->allow_write_device) {
			SAY("%s: refusing to write to a block device (its data would be destroyed); "
			    "add --allow-write-device to mean it",
			    t->path);
			return -EPERM;
		}
		if (!job->force && (dev_in_use(t, why, sizeof(why)) ||
				    dev_has_signature(t->path, why, sizeof(why)))) {
			SAY("%s: refusing to write: %s (add --force to overwrite it anyway)", t->path,
			    why);
			return -EPERM;
		}
	}
	/* O_EXCL on a block device: the kernel itself refuses while it is mounted. */
	if ((r = open_run(t, job, job->write_pct > 0 && !job->force ? O_EXCL : 0, err, errlen)))
		return r;
	if (ioctl(t->fd, BLKGETSIZE64, &t->size) < 0) {
		r = -errno;
		SAY("%s: cannot read the device size: %s", t->path, strerror(errno));
		return r;
	}
	int lbs = 512;
	if (ioctl(t->fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
		t->logical_block = (unsigned)lbs;
	return 0;
}

/*
 * The offset alignment direct I/O needs on a file: what the filesystem reports (statx
 * STATX_DIOALIGN, Linux 6.1), else 512, which suits most disks but not 4K-native ones.
 */
static unsigned file_dio_align(const char *path)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, STATX_DIOALIGN, &stx) == 0 && (stx.stx_mask & STATX_DIOALIGN) &&
	    stx.stx_dio_offset_align > 0)
		return stx.stx_dio_offset_align;
#endif
	return 512;
}

static int set_region(struct target *t, const struct job *job, char *err, size_t errlen)
{
	char b1[32], b2[32];
	bool direct = job_direct(job);
	unsigned need = direct ? t->logical_block : 1;

	if (job->offset >= t->size) {
		SAY("--offset: %s is beyond the end of %s (%s)", fmt_size(job->offset, b1, 32),
		    t->path, fmt_size(t->size, b2, 32));
		return -EDOM;
	}
	t->region_off = job->offset;
	t->region_len = job->range ? job->range : t->size - job->offset;
	if (t->region_len > t->size - t->region_off) {
		SAY("--range: the region ends beyond the end of %s (%s)", t->path,
		    fmt_size(t->size, b2, 32));
		return -EDOM;
	}
	if (job->bs > t->region_len) {
		SAY("--bs: the block size %s is larger than the target %s (%s)",
		    fmt_size(job->bs, b1, 32), t->path, fmt_size(t->region_len, b2, 32));
		return -EDOM;
	}
	if (need > 1 && (job->bs % need || t->region_off % need || (job->align && job->align % need))) {
		SAY("--bs: direct I/O on %s needs sizes and offsets in multiples of %u bytes", t->path,
		    need);
		return -EDOM;
	}
	return 0;
}

int target_open(struct target *t, const char *path, const struct job *job, target_fill_cb cb,
		void *cbarg, volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct stat st;
	char b1[32], b2[32];
	int r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->logical_block = 512;
	if (!(t->path = strdup(path)))
		return -ENOMEM;
	if (stat(path, &st) < 0) {
		if (errno != ENOENT) {
			r = -errno;
			SAY("%s: %s", path, strerror(errno));
			return r;
		}
		if ((r = create_file(t, job, cb, cbarg, stop, err, errlen)))
			return r;
		if (stat(path, &st) < 0)
			return -errno;
	} else if (S_ISDIR(st.st_mode)) {
		SAY("%s: is a directory; name a file in it (iorate creates it), e.g. %s/iorate.dat",
		    path, path);
		return -EISDIR;
	} else if (S_ISBLK(st.st_mode)) {
		if ((r = open_device(t, job, &st, err, errlen)))
			return r;
		return set_region(t, job, err, errlen);
	} else if (!S_ISREG(st.st_mode)) {
		SAY("%s: not a regular file or a block device", path);
		return -EINVAL;
	} else {
		t->size = (uint64_t)st.st_size;
		if (job->size > t->size) {
			SAY("%s: the file is %s, smaller than --size %s; remove it or drop --size "
			    "(iorate does not grow files it did not create)",
			    path, fmt_size(t->size, b1, 32), fmt_size(job->size, b2, 32));
			return -EDOM;
		}
		if (job->size)
			t->size = job->size;
	}
	t->dev = st.st_dev;
	t->logical_block = file_dio_align(path);
	target_devname(t->dev, t->devname, sizeof(t->devname));
	if ((r = open_run(t, job, 0, err, errlen)))
		return r;
	return set_region(t, job, err, errlen);
}

int target_virtual(struct target *t, const char *path, const struct job *job, char *err,
		   size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->logical_block = 1;
	if (!(t->path = strdup(path)))
		return -ENOMEM;
	t->size = job->size ? job->size : JOB_DEFAULT_FILE_SIZE;
	return set_region(t, job, err, errlen);
}

void target_close(struct target *t, bool keep)
{
	if (!t)
		return;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->created && !keep && t->path)
		unlink(t->path);
	free(t->path);
	t->path = NULL;
}
