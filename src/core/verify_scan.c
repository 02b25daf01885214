/*
 * `iorate verify`: a whole target checked after the fact, block by block, from the headers the
 * blocks carry (src/core/verify.h). Without the run's memory of which write came last, it tells
 * corrupted, torn, misplaced and foreign blocks apart from intact ones; a stale block of the
 * same run looks intact here (the run's own read-back catches those).
 */
#include "core/verify_scan.h"

#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "util/field.h"

#define CHUNK (1u << 20)

static int read_full(int fd, void *buf, size_t len, uint64_t off, size_t *got)
{
	*got = 0;
	while (*got < len) {
		ssize_t n = pread(fd, (char *)buf + *got, len - *got, (off_t)(off + *got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		*got += (size_t)n;
	}
	return 0;
}

/* The first header in [off, off + len), at any 512-byte boundary: its block size and run. */
static int discover(int fd, char *buf, uint64_t off, uint64_t len, struct verify_scan *s)
{
	for (uint64_t at = off; at < off + len; at += CHUNK) {
		size_t got;
		int r = read_full(fd, buf, CHUNK, at, &got);
		if (r)
			return r;
		for (size_t i = 0; i + VERIFY_MIN_BLOCK <= got; i += 512) {
			const struct verify_id any = {.offset = at + i, .target = UINT32_MAX};
			struct verify_id found;
			if (memcmp(buf + i, "iorateV1", 8))
				continue;
			/* A header whose own size field checks out names the layout. */
			uint32_t size = 0;
			memcpy(&size, buf + i + 36, 4);
			size = le32toh(size);
			if (size < VERIFY_MIN_BLOCK || size % 512 || size > CHUNK || i + size > got)
				continue;
			if (verify_check(buf + i, size, &any, &found) != VERIFY_OK)
				continue;
			if (!s->block)
				s->block = size;
			if (!s->seed)
				s->seed = found.seed;
			s->res.sum = (enum verify_sum)(unsigned char)buf[i + 40];
			return 0;
		}
		if (got < CHUNK)
			break;
	}
	return -ENOENT;
}

/* Checks the blocks of one chunk read at off. */
static void check_chunk(struct verify_scan *s, const char *buf, size_t got, uint64_t off)
{
	for (size_t i = 0; i + s->block <= got; i += s->block) {
		struct verify_id want = {.seed = s->seed, .offset = off + i, .target = UINT32_MAX},
				 found = {0};
		enum verify_why why = verify_check(buf + i, s->block, &want, &found);
		if (why == VERIFY_UNWRITTEN) {
			s->unwritten++;
			continue;
		}
		s->res.checked++;
		if (why == VERIFY_OK)
			continue;
		struct verify_bad b = {.target = s->target, .offset = off + i, .why = why,
				       .has_found = true, .found = found};
		verify_result_add(&s->res, &b);
	}
}

int verify_scan_fd(int fd, uint64_t off, uint64_t len, struct verify_scan *s,
		   void (*progress)(void *arg, double done), void *arg,
		   volatile sig_atomic_t *stop)
{
	char *buf;
	int r;

	if (posix_memalign((void **)&buf, 4096, CHUNK))
		return -ENOMEM;
	if ((!s->block || !s->seed) && (r = discover(fd, buf, off, len, s))) {
		free(buf);
		return r;
	}
	/* iorate writes blocks at multiples of their size: whole blocks from the first such
	 * boundary at or after off. */
	uint64_t at = (off + s->block - 1) / s->block * s->block;
	uint64_t per = CHUNK / s->block * s->block, end = off + len;
	r = 0;
	while (at + s->block <= end && !r) {
		size_t got, want = (size_t)(end - at < per ? (end - at) / s->block * s->block : per);
		if (stop && *stop) {
			r = -EINTR;
			break;
		}
		if ((r = read_full(fd, buf, want, at, &got)))
			break;
		check_chunk(s, buf, got, at);
		if (got < want)
			break;
		at += got;
		if (progress)
			progress(arg, (double)(at - off) / (double)len);
	}
	free(buf);
	return r;
}

int verify_scan_path(const char *path, uint64_t off, uint64_t range, struct verify_scan *s,
		     void (*progress)(void *arg, double done), void *arg,
		     volatile sig_atomic_t *stop, char *err, size_t errlen)
{
	struct stat st;
	uint64_t size = 0;
	int fd, r;

	/* Read-only, never through a link, never waiting on a FIFO; direct where it works, so
	 * that what is checked is what the device holds, not the page cache. */
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_DIRECT | O_CLOEXEC);
	if (fd < 0 && errno == EINVAL)
		fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		r = -errno;
		snprintf(err, errlen, "%s: cannot open: %s", path,
			 r == -ELOOP ? "it is a symbolic link; name what it points to" : strerror(-r));
		return r == -ENOENT || r == -ELOOP ? -EINVAL : r;
	}
	if (fstat(fd, &st) || !(S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))) {
		snprintf(err, errlen, "%s: not a regular file or a block device", path);
		close(fd);
		return -EINVAL;
	}
	if (S_ISBLK(st.st_mode))
		r = ioctl(fd, BLKGETSIZE64, &size) ? -errno : 0;
	else
		size = (uint64_t)st.st_size, r = 0;
	if (!(fcntl(fd, F_GETFL) & O_DIRECT))
		(void)posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!r && off >= size) {
		snprintf(err, errlen, FIELD("offset") ": %s is only %llu bytes", path,
			 (unsigned long long)size);
		r = -EINVAL;
	} else if (!r) {
		uint64_t len = range && range < size - off ? range : size - off;
		r = verify_scan_fd(fd, off, len, s, progress, arg, stop);
		if (r == -ENOENT)
			snprintf(err, errlen, "%s: no block written by iorate " FIELD("verify") " was "
				 "found; name " FIELD("block") " and " FIELD("seed") " to check anyway",
				 path);
		else if (r)
			snprintf(err, errlen, "%s: %s", path, strerror(-r));
	} else {
		snprintf(err, errlen, "%s: cannot read its size: %s", path, strerror(-r));
	}
	close(fd);
	return r;
}
