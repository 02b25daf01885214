/*
 * Trims: which I/Os of a worker are trims, and doing them (src/core/worker_trim.h).
 */
#include "core/worker_trim.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>

#include "core/worker.h"
#include "core/workload.h"
#include "util/clock.h"

/* The worker an engine_io belongs to: engines are handed &w->io. */
static struct worker *worker_of(struct engine_io *io)
{
	return (struct worker *)(void *)((char *)io - offsetof(struct worker, io));
}

/* 0 or -errno: discards the blocks of [off, off + len) of target file. */
static int trim_range(const struct worker *w, unsigned file, uint64_t off, uint64_t len)
{
	int fd = w->io.fds[file];

	if (w->trim->blockdev[file]) {
		uint64_t range[2] = {off, len};
		return ioctl(fd, BLKDISCARD, range) ? -errno : 0;
	}
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len)
		       ? -errno
		       : 0;
}

static void trace_trim(struct worker *w, const struct io_req *r)
{
	fprintf(w->trace, "%u %u T %llu %u\n", w->tg ? r->file : w->target, w->thread,
		(unsigned long long)r->offset, r->len);
}

/*
 * trimwrite: the write's blocks are trimmed first, counted as a trim of their own. The write's
 * latency leaves the trim's out. False when the trim failed: r is then that failed trim.
 */
static bool trim_first(struct worker *w, struct io_req *r)
{
	uint64_t t0 = clock_ns(), t1;
	int e = trim_range(w, r->file, r->offset, r->len);

	t1 = clock_ns();
	if (w->trace)
		trace_trim(w, r);
	if (e) {
		r->write = IO_TRIM;
		r->res = e;
		return false;
	}
	if (r->counted) {
		if (w->tg) {
			w->tg[r->file].ios[IO_TRIM]++;
			w->tg[r->file].bytes[IO_TRIM] += r->len;
		}
		if (w->no_latency)
			dir_stats_count(&w->st[IO_TRIM], r->len);
		else
			dir_stats_add(&w->st[IO_TRIM], r->len, clock_since(t1, t0));
	}
	r->start_ns += clock_since(t1, t0);
	return true;
}

/* The worker's queue(): a trim is done here and now; reads and writes go to the engine. */
static enum io_q trim_queue(struct engine_io *io, struct io_req *r)
{
	struct worker *w = worker_of(io);

	if (r->write == IO_TRIM) {
		/* A trim of emulated zones was their reset (zbd_adjust): nothing is punched. */
		int e = w->zbd ? 0 : trim_range(w, r->file, r->offset, r->len);
		r->res = e ? e : (int32_t)r->len;
		return IO_Q_DONE;
	}
	if (r->write && w->trim->first && !trim_first(w, r))
		return IO_Q_DONE;
	return w->trim->real->queue(io, r);
}

int worker_trim_new(struct worker *w, const struct job *job, uint64_t seed,
		    const bool *blockdev, unsigned nfds)
{
	struct worker_trim *t;
	unsigned reads = 100 - job->write_pct;

	if (!job_trims(job))
		return 0;
	if (!(t = calloc(1, sizeof(*t))) || !(t->blockdev = calloc(nfds, sizeof(bool)))) {
		free(t);
		return -ENOMEM;
	}
	memcpy(t->blockdev, blockdev, nfds * sizeof(bool));
	t->real = w->ops;
	t->ops = *w->ops;
	t->ops.queue = trim_queue;
	/* trim_pct of all I/Os are trims: that share of the reads the workload draws. */
	t->all = job->trim_pct && job->trim_pct == reads;
	if (job->trim_pct && !t->all)
		t->thresh = (uint64_t)(((unsigned __int128)job->trim_pct << 64) / reads);
	t->first = job->trim_write;
	t->rng = seed ^ ((uint64_t)w->target << 32 | w->thread) ^ 0x7f4a7c159e3779b9ull;
	w->trim = t;
	w->ops = &t->ops;
	return dir_stats_init_hist(&w->st[IO_TRIM]);
}

void worker_trim_free(struct worker *w)
{
	if (!w->trim)
		return;
	free(w->trim->blockdev);
	free(w->trim);
	w->trim = NULL;
}

void worker_trim_draw(struct worker *w, struct io_req *r)
{
	struct worker_trim *t = w->trim;

	if (!r->write && (t->all || splitmix64(&t->rng) < t->thresh)) {
		r->write = IO_TRIM;
		/* Done synchronously, not by the engine: it carries no priority of its own. */
		r->ioprio = 0;
	}
}

int worker_trim_probe(int fd, bool blockdev, uint64_t size)
{
	if (blockdev) {
		uint64_t range[2] = {0, 0};
		/* The kernel says EOPNOTSUPP before it looks at the range (EINVAL for none). */
		if (ioctl(fd, BLKDISCARD, range) < 0 && (errno == EOPNOTSUPP || errno == ENOTTY ||
							errno == EBADF))
			return -errno;
		return 0;
	}
	/* Past the end, with the size kept: a filesystem that punches holes changes nothing. */
	uint64_t end = (size + 4095) / 4096 * 4096;
	if (fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)end, 4096) < 0)
		return -errno;
	return 0;
}
