/*
 * pvsync and pvsync2: one I/O at a time per thread, as the sync engine, through the vector
 * calls fio's engines of those names make: preadv/pwritev, and preadv2/pwritev2 with the
 * flags a job asks for (RWF_HIPRI, RWF_NOWAIT, RWF_DONTCACHE, RWF_ATOMIC). Apart from sync.c
 * so that its hot path keeps its single branch.
 */
#include <errno.h>
#include <sys/uio.h>

#include "engine/engine.h"

static int pvsync_init(struct engine_io *w, unsigned depth)
{
	return depth == 1 ? 0 : -EINVAL;
}

static enum io_q pvsync_queue(struct engine_io *w, struct io_req *r)
{
	struct iovec iov = {.iov_base = r->buf, .iov_len = r->len};
	ssize_t n = r->write ? pwritev(w->fds[r->file], &iov, 1, (off_t)r->offset)
			     : preadv(w->fds[r->file], &iov, 1, (off_t)r->offset);

	r->res = (int32_t)(n < 0 ? -errno : n);
	return IO_Q_DONE;
}

/* The flags of a job's I/Os; the kernel refuses one it does not know (EOPNOTSUPP). */
static int rw_flags(unsigned opts, bool write)
{
	int f = 0;

	if (opts & ENGINE_OPT_HIPRI)
		f |= ENGINE_RWF_HIPRI;
	if (opts & ENGINE_OPT_NOWAIT)
		f |= ENGINE_RWF_NOWAIT;
	if (opts & ENGINE_OPT_DONTCACHE)
		f |= ENGINE_RWF_DONTCACHE;
	if (write && (opts & ENGINE_OPT_ATOMIC))
		f |= ENGINE_RWF_ATOMIC;
	return f;
}

static enum io_q pvsync2_queue(struct engine_io *w, struct io_req *r)
{
	struct iovec iov = {.iov_base = r->buf, .iov_len = r->len};
	int fd = w->fds[r->file], f = rw_flags(w->opts, r->write);
	ssize_t n = r->write ? pwritev2(fd, &iov, 1, (off_t)r->offset, f)
			     : preadv2(fd, &iov, 1, (off_t)r->offset, f);

	r->res = (int32_t)(n < 0 ? -errno : n);
	return IO_Q_DONE;
}

const struct engine_ops engine_pvsync = {
	.name = "pvsync",
	.flags = ENGINE_SYNC,
	.init = pvsync_init,
	.queue = pvsync_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
};

const struct engine_ops engine_pvsync2 = {
	.name = "pvsync2",
	.flags = ENGINE_SYNC | ENGINE_ATOMIC | ENGINE_RWF,
	.init = pvsync_init,
	.queue = pvsync2_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
};
