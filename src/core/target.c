#include "core/target.h"

#include <blkid.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "core/device.h"
#include "core/workload.h"
#include "util/parse.h"
#include "util/field.h"
#include "util/err.h"

#define FILL_CHUNK (1u << 20)

#define SAY(...) ((void)err_set(err, errlen, 0, __VA_ARGS__))

static int open_flags(const struct job *job)
{
	int f = (job_writes(job) ? O_RDWR : O_RDONLY) | O_CLOEXEC;

	if (job_direct(job))
		f |= O_DIRECT;
	if (job->cache == CACHE_WRITETHROUGH || job->cache == CACHE_DIRECTSYNC)
		f |= O_DSYNC;
	return f;
}

/*
 * Opens what hold (a held or just created file) leads to with the run's flags, explaining the
 * failure users meet most: no O_DIRECT here.
 */
static int open_run(struct target *t, const struct job *job, int hold, struct stat *st,
		    int extra, char *err, size_t errlen)
{
	int fd = gate_reopen(hold, open_flags(job) | extra, st);

	if (fd >= 0) {
		t->fd = fd;
		t->id = (struct gate_id){.dev = st->st_dev, .ino = st->st_ino};
		return 0;
	}
	if (fd == -EINVAL && job_direct(job))
		SAY("%s: this filesystem does not support direct I/O (O_DIRECT); use " FIELD("cache") " buffered",
		    t->path);
	else if (fd == -EBUSY)
		SAY("%s: device is busy (mounted or in use by the kernel); refusing to write to it",
		    t->path);
	else if (fd == -ENOSYS)
		SAY("%s: cannot reopen it safely: /proc is not mounted", t->path);
	else
		SAY("%s: cannot open: %s", t->path, strerror(-fd));
	return fd;
}

/*
 * Writes incompressible (or zero) data from byte from up to size; stops early, and fails, on a
 * signal.
 */
static int fill_file(int fd, uint64_t from, uint64_t size, const struct job *job,
		     target_fill_cb cb, void *cbarg, volatile sig_atomic_t *stop)
{
	uint64_t *buf = malloc(FILL_CHUNK), done = from;
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
			cb(cbarg, (double)(done - from) / (double)(size - from));
	}
	if (!r && fdatasync(fd) < 0)
		r = -errno;
	free(buf);
	return r;
}

/*
 * --until-full: a file's region runs past its end over the space its filesystem has free, which
 * the run's writes take until the filesystem refuses them.
 */
static int until_full_size(struct target *t, int fd, uint64_t from)
{
	struct statvfs vfs;

	if (fstatvfs(fd, &vfs))
		return -errno;
	t->size = from + (uint64_t)vfs.f_bavail * vfs.f_frsize;
	return 0;
}

/* --until-full: a new file starts empty (its parent directory held in t->dirfd). */
static int create_empty(struct target *t)
{
	int fd = gate_create_at(t->dirfd, t->base, O_RDWR, 0644, &t->id), r;

	if (fd < 0)
		return fd == -EEXIST ? -EPERM : fd;
	t->created = true;
	if ((r = until_full_size(t, fd, 0))) {
		close(fd);
		return r;
	}
	return fd;
}

/* Space left free beside a test file iorate fills: the filesystem is never filled to its end. */
#define TARGET_SPACE_RESERVE (64ull << 20)

/*
 * Whether the filesystem of vfs has room for need bytes and the reserve; a sum or product that
 * would wrap (a --size near 2^64) is no room, never a small number that passes.
 */
static bool space_for(const struct statvfs *vfs, uint64_t need)
{
	uint64_t avail, want;

	if (__builtin_mul_overflow((uint64_t)vfs->f_bavail, (uint64_t)vfs->f_frsize, &avail))
		avail = UINT64_MAX;
	return !__builtin_add_overflow(need, TARGET_SPACE_RESERVE, &want) && avail >= want;
}

/*
 * Creates path (O_EXCL | O_NOFOLLOW: never a planted link or file) and fills it. Returns the
 * descriptor of the new file, or -errno. The file stays recorded in t for target_close.
 */
static int create_file(struct target *t, const struct job *job, target_fill_cb cb, void *cbarg,
		       volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	uint64_t size = job->size ? job->size : JOB_DEFAULT_FILE_SIZE;
	char b1[32], b2[32];
	struct statvfs vfs;
	int fd, r;

	if ((r = gate_open_parent(t->path, &t->dirfd, &t->base))) {
		SAY("%s: %s", t->path,
		    r == -ENOENT ? "its directory does not exist" : strerror(-r));
		return r == -ENOENT || r == -ENOTDIR || r == -EISDIR ? -EINVAL : r;
	}
	if (job->until_full)
		return create_empty(t);
	if (fstatvfs(t->dirfd, &vfs) == 0 && !space_for(&vfs, size)) {
		SAY("%s: not enough space for a %s test file (%s free)", t->path,
		    fmt_size(size, b1, sizeof(b1)),
		    fmt_size((uint64_t)vfs.f_bavail * vfs.f_frsize & ~1048575ull, b2, sizeof(b2)));
		return -ENOSPC;
	}
	if ((fd = gate_create_at(t->dirfd, t->base, O_RDWR, 0644, &t->id)) < 0) {
		SAY("%s: cannot create: %s", t->path,
		    fd == -EEXIST ? "something appeared at that name; refusing to use it"
				  : strerror(-fd));
		return fd == -EEXIST ? -EPERM : fd;
	}
	t->created = true;
	if ((r = fill_file(fd, 0, size, job, cb, cbarg, stop))) {
		close(fd);
		if (r == -EINTR)
			SAY("%s: interrupted while creating the test file", t->path);
		else
			SAY("%s: cannot fill the test file: %s", t->path, strerror(-r));
		return r;
	}
	t->size = size;
	return fd;
}

/*
 * Grows a regular file smaller than --size to it (job->grow: DiskSpd's -c), writing through the
 * inode held, as a new file is filled. A failure puts the file back at its old length.
 */
static int grow_file(struct target *t, const struct job *job, int hold, struct stat *st,
		     target_fill_cb cb, void *cbarg, volatile sig_atomic_t *stop, char *err,
		     size_t errlen)
{
	uint64_t from = (uint64_t)st->st_size, size = job->size;
	char b1[32], b2[32];
	struct statvfs vfs;
	int fd = gate_reopen(hold, O_WRONLY | O_CLOEXEC, st), r;

	if (fd < 0) {
		SAY("%s: cannot open it to grow it to " FIELD("size") ": %s", t->path,
		    strerror(-fd));
		return fd;
	}
	/* Called only to grow (size > from): the difference cannot wrap; space_for's sum might. */
	if (fstatvfs(fd, &vfs) == 0 && !space_for(&vfs, size - from)) {
		SAY("%s: not enough space to grow it from %s to %s", t->path,
		    fmt_size(from, b1, sizeof(b1)), fmt_size(size, b2, sizeof(b2)));
		close(fd);
		return -ENOSPC;
	}
	if ((r = fill_file(fd, from, size, job, cb, cbarg, stop))) {
		if (ftruncate(fd, (off_t)from) < 0)
			r = -errno;
		SAY("%s: %s while growing it to %s; it is back at %s", t->path,
		    r == -EINTR ? "interrupted" : strerror(-r), fmt_size(size, b1, sizeof(b1)),
		    fmt_size(from, b2, sizeof(b2)));
	}
	close(fd);
	return r;
}

/* Adds reason to what --force overrode (t->forced, the run's note). */
static int add_forced(struct target *t, const char *who, const char *reason)
{
	char *note;
	int n = t->forced ? asprintf(&note, "%s; %s", t->forced, reason)
			  : asprintf(&note, "forced: %s was written although %s", who, reason);

	if (n < 0)
		return -ENOMEM;
	free(t->forced);
	t->forced = note;
	return 0;
}

/*
 * Refuses to write to the block device dev, named who in messages, when it is mounted, held or
 * holds a signature (every reason named), unless --force. ro: the device opened read-only for
 * the signature probe, or -errno when it could not be.
 */
static int device_verdict(struct target *t, const struct job *job, dev_t dev, int ro,
			  const char *who, char *err, size_t errlen)
{
	char why[PATH_MAX + 64];
	/* A trim discards the blocks: it destroys data as a write does. */
	const char *what = job->write_pct ? "write to" : "trim";

	if (!job->allow_write_device) {
		SAY("%s: refusing to %s a block device (its data would be destroyed); "
		    "add " FIELD("allow-write-device") " to mean it",
		    who, what);
		return -EPERM;
	}
	int used = device_in_use(NULL, dev, ro, why, sizeof(why));
	if (ro < 0 && used >= 0) {
		device_add_reason(why, sizeof(why), "it cannot be opened to look for signatures (%s)",
				  strerror(-ro));
		used = 1;
	}
	if (used < 0)
		snprintf(why, sizeof(why), "it cannot be checked (%s)", strerror(-used));
	if (!used)
		return 0;
	if (job->force)
		return add_forced(t, who, why);
	SAY("%s: refusing to %s: %s (add " FIELD("force") " to overwrite it anyway)", who,
	    job->write_pct ? "write" : "trim", why);
	return -EPERM;
}

/* device_verdict on the block device held; the probe reads through that very inode. */
static int check_device(struct target *t, const struct job *job, int hold, struct stat *st,
			char *err, size_t errlen)
{
	struct stat rst = *st;

	if (!job_writes(job))
		return 0;
	if (!job->allow_write_device)
		return device_verdict(t, job, st->st_rdev, -1, t->opened, err, errlen);
	int ro = gate_reopen(hold, O_RDONLY, &rst);
	int r = device_verdict(t, job, st->st_rdev, ro, t->opened, err, errlen);
	if (ro >= 0)
		close(ro);
	return r;
}

/*
 * The loop device whose backing file is written, held with O_EXCL for the run: the kernel then
 * refuses to mount it, and iorate refuses while another process (a second iorate writing it,
 * a filesystem tool) holds it, since both would write the same blocks.
 */
static int hold_loop(struct target *t, const struct job *job, const char *node, dev_t loop,
		     const char *who, char *err, size_t errlen)
{
	struct stat st;
	int opath = open(node, O_PATH | O_NOFOLLOW | O_CLOEXEC), r;

	if (opath < 0)
		r = -errno;
	else if (fstat(opath, &st))
		r = -errno;
	else if (!S_ISBLK(st.st_mode) || st.st_rdev != loop)
		r = -ESTALE;
	else
		r = gate_claim(opath, &st);
	if (opath >= 0)
		close(opath);
	if (r == -EBUSY && job->force)
		return add_forced(t, who, "the kernel reports its loop device in exclusive use");
	if (r == -EBUSY) {
		SAY("%s: refusing to %s: the kernel reports %s in exclusive use (mounted, or held by "
		    "another program) (add " FIELD("force") " to overwrite it anyway)",
		    who, job->write_pct ? "write" : "trim", node);
		return -EPERM;
	}
	if (r == -ESTALE) {
		SAY("%s: %s changed while iorate looked at it", who, node);
		return -EPERM;
	}
	if (r) {
		SAY("%s: cannot hold %s: %s", who, node, strerror(-r));
		return r;
	}
	t->claim = loop;
	t->claimed = true;
	return 0;
}

/*
 * A regular file that backs an attached loop device: writing it writes that device, so the
 * device's rules apply to it, and messages name the device.
 */
static int check_backing(struct target *t, const struct job *job, const struct stat *st,
			 char *err, size_t errlen)
{
	char name[32], node[64], who[PATH_MAX + 128];
	struct stat lst;
	dev_t loop;
	int ro, r;

	if (!job_writes(job) || device_backing_loop(NULL, st->st_dev, st->st_ino, &loop, name,
						    sizeof(name)) != 1)
		return 0;
	snprintf(node, sizeof(node), "/dev/%s", name);
	snprintf(who, sizeof(who), "%s (the backing file of %s)", t->path, node);
	/* The probe reads the device itself, where its signatures are (the file may be offset). */
	ro = open(node, O_RDONLY | O_CLOEXEC);
	if (ro < 0)
		ro = -errno;
	else if (fstat(ro, &lst) || !S_ISBLK(lst.st_mode) || lst.st_rdev != loop) {
		close(ro);
		ro = -ESTALE;
	}
	r = device_verdict(t, job, loop, ro, who, err, errlen);
	if (ro >= 0)
		close(ro);
	return r ? r : hold_loop(t, job, node, loop, who, err, errlen);
}

/*
 * A regular file that is not iorate's own and holds a filesystem, partition table or RAID
 * signature is a disk image: writing it destroys what is in it, as on a device.
 */
static int check_image(struct target *t, const struct job *job, int hold, const struct stat *st,
		       char *err, size_t errlen)
{
	char why[PATH_MAX + 64] = "";
	struct stat rst = *st;
	int ro, found;

	if (!job_writes(job) || !st->st_size)
		return 0;
	if ((ro = gate_reopen(hold, O_RDONLY, &rst)) < 0) {
		SAY("%s: cannot open it to look for signatures: %s", t->path, strerror(-ro));
		return ro;
	}
	found = device_signature(ro, why, sizeof(why));
	close(ro);
	if (!found)
		return 0;
	if (job->force)
		return add_forced(t, t->path, why);
	SAY("%s: refusing to %s: %s, so it looks like a disk image (add " FIELD("force")
	    " to overwrite it anyway)", t->path, job->write_pct ? "write" : "trim", why);
	return -EPERM;
}

/*
 * Opens a device for writing under the run's claim on it (gate_claim(): one O_EXCL open per
 * process, which every job writing the device shares): the kernel itself refuses while it is
 * mounted or held outside the run. --force tries the claim as well, and when the kernel refuses,
 * says so in its note before opening without it.
 */
static int open_exclusive(struct target *t, const struct job *job, int hold, struct stat *st,
			  char *err, size_t errlen)
{
	int r;

	if (!job_writes(job))
		return open_run(t, job, hold, st, 0, err, errlen);
	if (!(r = gate_claim(hold, st))) {
		t->claim = st->st_rdev;
		t->claimed = true;
	} else if (r == -EBUSY && job->force) {
		/* --force overrides the kernel's exclusive use too, but says so; no other failure. */
		if ((r = add_forced(t, t->opened, "the kernel reports it in exclusive use (mounted, "
						  "swap, device-mapper or MD)")))
			return r;
	} else if (r == -EBUSY) {
		SAY("%s: device is busy (mounted or in use by the kernel); refusing to write to it",
		    t->path);
		return r;
	} else {
		SAY("%s: cannot open: %s", t->path, strerror(-r));
		return r;
	}
	return open_run(t, job, hold, st, 0, err, errlen);
}

static int open_device(struct target *t, const struct job *job, int hold, struct stat *st,
		       char *err, size_t errlen)
{
	int r;

	t->is_blockdev = true;
	t->dev = st->st_rdev;
	device_name(NULL, t->dev, t->devname, sizeof(t->devname));
	if (!t->opened && asprintf(&t->opened, "/dev/%s", t->devname[0] ? t->devname : "?") < 0)
		return -ENOMEM;
	if ((r = check_device(t, job, hold, st, err, errlen)))
		return r;
	if ((r = open_exclusive(t, job, hold, st, err, errlen)))
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
static unsigned file_dio_align(int fd)
{
#ifdef STATX_DIOALIGN
	struct statx stx;

	if (statx(fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &stx) == 0 &&
	    (stx.stx_mask & STATX_DIOALIGN) &&
	    stx.stx_dio_offset_align > 0)
		return stx.stx_dio_offset_align;
#endif
	return 512;
}

/*
 * --atomic: what the target says of torn-write protection (statx STATX_WRITE_ATOMIC, Linux
 * 6.11: the smallest and largest atomic write), and every write size of the job within it, a
 * power of two, direct. Debian 12's headers predate the fields: the kernel's layout is read
 * from a buffer of struct statx's size.
 */
#define STATX_WRITE_ATOMIC_ 0x00010000u
static int check_atomic(const struct target *t, const struct job *job, char *err, size_t errlen)
{
	uint32_t b[64] = {0};  /* 256 bytes: struct statx; mask at 0, units at 168 and 172 */
	uint32_t min, max;

	if (!job_direct(job)) {
		SAY(FIELD("atomic") ": atomic writes need direct I/O (" FIELD("cache") " direct)");
		return -EINVAL;
	}
	if (syscall(SYS_statx, t->fd, "", AT_EMPTY_PATH, STATX_WRITE_ATOMIC_, b) != 0 ||
	    !(b[0] & STATX_WRITE_ATOMIC_) || !(max = b[172 / 4])) {
		SAY("%s: %s no atomic writes (statx: no torn-write protection); " FIELD("atomic")
		    " needs a device or filesystem that has them (an NVMe or SCSI disk that "
		    "declares them, XFS with reflink, ...)", t->path,
		    t->is_blockdev ? "this device does" : "its filesystem has");
		return -EINVAL;
	}
	min = b[168 / 4];
	uint64_t maxw = 0;
	for (unsigned i = 0; i < (job->nbs_write ? job->nbs_write : 1); i++) {
		uint64_t bs = job->nbs_write ? job->bs_write[i].bs : job->bs;
		if (bs & (bs - 1) || bs < min || bs > max) {
			SAY(FIELD("atomic") ": %s writes atomically from %u to %u bytes, in powers of "
			    "two; %llu is not one of them", t->path, min, max,
			    (unsigned long long)bs);
			return -EINVAL;
		}
		maxw = bs > maxw ? bs : maxw;
	}
	/* The kernel also wants each atomic write at a multiple of its own length. */
	uint64_t align = job->align ? job->align : job_min_bs(job);
	if (t->region_off % maxw || job->skip % maxw || job->thread_stride % maxw ||
	    (job->pattern == PATTERN_RANDOM ? align % maxw
					    : (job->nbs_write || job->nbs_read) != 0)) {
		SAY(FIELD("atomic") ": every write must start at a multiple of its length (%llu "
		    "bytes): " FIELD("offset") ", " FIELD("align") " (or the smallest block size), "
		    FIELD("gap") " and " FIELD("thread-stride") " must be multiples of it, and "
		    "sequential I/O one size", (unsigned long long)maxw);
		return -EINVAL;
	}
	return 0;
}

static int set_region(struct target *t, const struct job *job, char *err, size_t errlen)
{
	char b1[32], b2[32];
	bool direct = job_direct(job);
	unsigned need = direct ? t->logical_block : 1;

	if (job->offset >= t->size) {
		SAY(FIELD("offset") ": %s is beyond the end of %s (%s)", fmt_size(job->offset, b1, 32),
		    t->path, fmt_size(t->size, b2, 32));
		return -EDOM;
	}
	t->region_off = job->offset;
	t->region_len = job->range ? job->range : t->size - job->offset;
	/* --until-full: the filesystem's free space bounds the region, whatever was asked. */
	if (job->until_full && t->region_len > t->size - t->region_off)
		t->region_len = t->size - t->region_off;
	if (t->region_len > t->size - t->region_off) {
		SAY(FIELD("range") ": the region ends beyond the end of %s (%s)", t->path,
		    fmt_size(t->size, b2, 32));
		return -EDOM;
	}
	if (job_max_bs(job) > t->region_len) {
		SAY(FIELD("bs") ": the block size %s is larger than the target %s (%s)",
		    fmt_size(job_max_bs(job), b1, 32), t->path, fmt_size(t->region_len, b2, 32));
		return -EDOM;
	}
	if (need > 1 && (job->bs % need || t->region_off % need || (job->align && job->align % need))) {
		SAY(FIELD("bs") ": direct I/O on %s needs sizes and offsets in multiples of %u bytes", t->path,
		    need);
		return -EDOM;
	}
	return job->atomic && job->write_pct ? check_atomic(t, job, err, errlen) : 0;
}

/*
 * A target is a regular file or a block device; anything else is bad usage. to: what path, a
 * symbolic link, says, when mode is of what it leads to; NULL when path itself has mode.
 */
static int target_kind(const char *path, const char *to, mode_t mode, char *err, size_t errlen)
{
	if (S_ISREG(mode) || S_ISBLK(mode))
		return 0;
	if (to)
		SAY("%s: is a symbolic link to %s, which is %s; a target is a regular file or a "
		    "block device",
		    path, to, gate_kind(mode));
	else if (S_ISDIR(mode))
		SAY("%s: is a directory; name a file in it (iorate creates it), e.g. %s/iorate.dat",
		    path, path);
	else
		SAY("%s: is %s; a target is a regular file or a block device", path,
		    gate_kind(mode));
	return -EINVAL;
}

int target_precheck(const char *path, char *err, size_t errlen)
{
	struct stat st;
	char *base, to[PATH_MAX];
	int dirfd, r;

	if (lstat(path, &st) == 0) {
		if (!S_ISLNK(st.st_mode))
			return target_kind(path, NULL, st.st_mode, err, errlen);
		/* What a link leads to is held to the same rule; target_open judges it again. */
		ssize_t n = readlink(path, to, sizeof(to) - 1);
		to[n > 0 ? n : 0] = '\0';
		if (stat(path, &st))
			return 0; /* a dangling link: target_open refuses it */
		return target_kind(path, to, st.st_mode, err, errlen);
	}
	if (errno != ENOENT)
		return 0; /* target_open says why */
	if ((r = gate_open_parent(path, &dirfd, &base))) {
		if (r == -ENOMEM)
			return r;
		SAY("%s: %s", path,
		    r == -ENOENT    ? "its directory does not exist"
		    : r == -EISDIR  ? "is a directory; name a file"
		    : r == -ENOTDIR ? "a component of the path is not a directory"
				    : strerror(-r));
		return -EINVAL;
	}
	close(dirfd);
	free(base);
	return 0;
}

/* A link as the last component: followed to a block device, or to a file only read. */
static int follow_link(struct target *t, const struct job *job, int *hold, struct stat *st,
		       char *err, size_t errlen)
{
	char to[PATH_MAX];
	/* The link held, not the name: a name swapped since says what was judged. */
	ssize_t n = readlinkat(*hold, "", to, sizeof(to) - 1);

	to[n > 0 ? n : 0] = '\0';
	close(*hold);
	if ((*hold = gate_hold(t->path, true, st)) < 0) {
		if (*hold == -ENOENT) {
			/* Not -ENOENT: that would have a new file made, which is writing through it. */
			SAY("%s: is a symbolic link to %s, which does not exist; refusing to create a "
			    "file through it",
			    t->path, to);
			return -EPERM;
		}
		SAY("%s: a link to %s: %s", t->path, to, strerror(-*hold));
		return *hold;
	}
	int r = target_kind(t->path, to, st->st_mode, err, errlen);
	if (r)
		return r;
	if (S_ISBLK(st->st_mode) || (S_ISREG(st->st_mode) && !job_writes(job))) {
		char proc[40];
		snprintf(proc, sizeof(proc), "/proc/self/fd/%d", *hold);
		if ((n = readlink(proc, to, sizeof(to) - 1)) > 0) {
			to[n] = '\0';
			if (!(t->opened = strdup(to)))
				return -ENOMEM;
		}
		return 0;
	}
	SAY("%s: is a symbolic link (to %s); refusing to write through it: name the file itself",
	    t->path, to);
	return -EPERM;
}

/*
 * The size of a regular file the user gave: all of it, or the first --size bytes. One smaller
 * than --size is refused, unless the job grows it (never through a link).
 */
static int file_size(struct target *t, const struct job *job, int hold, struct stat *st,
		     bool linked, target_fill_cb cb, void *cbarg, volatile sig_atomic_t *stop,
		     char *err, size_t errlen)
{
	char b1[32], b2[32];
	int r;

	t->size = (uint64_t)st->st_size;
	if (job->until_full)
		return until_full_size(t, hold, t->size);
	if (job->size <= t->size) {
		if (job->size)
			t->size = job->size;
		return 0;
	}
	if (job->grow && linked) {
		SAY("%s: is a symbolic link; refusing to grow a file through it: name the file "
		    "itself", t->path);
		return -EPERM;
	}
	if (job->grow) {
		if (!(r = grow_file(t, job, hold, st, cb, cbarg, stop, err, errlen)))
			t->size = job->size;
		return r;
	}
	SAY("%s: the file is %s, smaller than " FIELD("size") " %s; remove it or drop "
	    FIELD("size") " (iorate does not grow files it did not create)",
	    t->path, fmt_size(t->size, b1, 32), fmt_size(job->size, b2, 32));
	return -EDOM;
}

/* Holds what path names: the file to judge, or -ENOENT when a new one is to be made. */
static int hold_target(struct target *t, const struct job *job, const struct gate_id *expect,
		       int *hold, struct stat *st, bool *linked, char *err, size_t errlen)
{
	int r;

	if ((*hold = gate_hold(t->path, false, st)) < 0) {
		r = *hold;
		if (r == -ENOENT && expect) {
			SAY("%s: was removed since iorate created it", t->path);
			return -EPERM;
		}
		if (r != -ENOENT)
			SAY("%s: %s", t->path, strerror(-r));
		return r;
	}
	*linked = S_ISLNK(st->st_mode);
	if (*linked && job_is_made_name(job, t->path)) {
		SAY("%s: is a symbolic link where iorate makes its own file; refusing to follow it "
		    "(name the file itself to use it)",
		    t->path);
		return -EPERM;
	}
	if (*linked && (r = follow_link(t, job, hold, st, err, errlen)))
		return r;
	if (expect && (st->st_dev != expect->dev || st->st_ino != expect->ino)) {
		SAY("%s: was replaced since iorate created it; refusing to use it", t->path);
		return -EPERM;
	}
	return target_kind(t->path, NULL, st->st_mode, err, errlen);
}

int target_open(struct target *t, const char *path, const struct job *job,
		const struct gate_id *expect, target_fill_cb cb, void *cbarg,
		volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct stat st;
	bool linked = false;
	int hold = -1, r;

	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->dirfd = -1;
	t->logical_block = 512;
	if (!(t->path = strdup(path)))
		return -ENOMEM;
	r = hold_target(t, job, expect, &hold, &st, &linked, err, errlen);
	if (r == -ENOENT) {
		if ((hold = r = create_file(t, job, cb, cbarg, stop, err, errlen)) < 0)
			goto out;
		r = fstat(hold, &st) ? -errno : 0;
	} else if (!r && S_ISBLK(st.st_mode)) {
		if (!(r = open_device(t, job, hold, &st, err, errlen)))
			r = set_region(t, job, err, errlen);
		goto out;
	} else if (!r && !(r = check_backing(t, job, &st, err, errlen)) &&
		   !(r = check_image(t, job, hold, &st, err, errlen))) {
		r = file_size(t, job, hold, &st, linked, cb, cbarg, stop, err, errlen);
	}
	if (r)
		goto out;
	t->dev = st.st_dev;
	device_name(NULL, t->dev, t->devname, sizeof(t->devname));
	if (!(r = open_run(t, job, hold, &st, 0, err, errlen))) {
		t->logical_block = file_dio_align(t->fd);
		r = set_region(t, job, err, errlen);
	}
out:
	if (hold >= 0)
		close(hold);
	return r;
}

int target_virtual(struct target *t, const char *path, const struct job *job, char *err,
		   size_t errlen)
{
	memset(t, 0, sizeof(*t));
	t->fd = -1;
	t->dirfd = -1;
	t->logical_block = 1;
	if (!(t->path = strdup(path)))
		return -ENOMEM;
	t->size = job->size ? job->size : JOB_DEFAULT_FILE_SIZE;
	return set_region(t, job, err, errlen);
}

int target_close(struct target *t, bool keep)
{
	int r = 0;

	if (!t)
		return 0;
	if (t->fd >= 0)
		close(t->fd);
	t->fd = -1;
	if (t->claimed)
		gate_unclaim(t->claim);
	t->claimed = false;
	if (t->created && !keep && t->dirfd >= 0)
		r = gate_unlinkat_created(t->dirfd, t->base, &t->id);
	if (t->dirfd >= 0)
		close(t->dirfd);
	t->dirfd = -1;
	free(t->path);
	free(t->opened);
	free(t->base);
	free(t->forced);
	t->path = t->opened = t->base = t->forced = NULL;
	return r == -ENOENT ? 0 : r;
}
