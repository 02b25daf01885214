/*
 * uring: io_uring through liburing, with the target registered as a fixed file and the worker's
 * buffers registered once, so the kernel neither looks up the file nor pins pages per I/O.
 * The worker commits once --batch SQEs are queued (each one, by default: ENGINE_SUBMIT_EACH);
 * what is left, and the last one before a wait, is
 * handed to the kernel by reap() in the same io_uring_enter call that waits, and completions are
 * taken in batches.
 *
 * Where the kernel has them (6.1), the ring is SINGLE_ISSUER and DEFER_TASKRUN, as fio sets it:
 * completions are then run when the worker asks for them instead of interrupting it with task
 * work, and the kernel skips the locking a ring shared between tasks needs. Its one task must be
 * the worker's thread, so init() (in the main thread) creates it disabled and start() (in the
 * worker's thread) enables it, and registers the ring fd so that io_uring_enter skips the fd
 * table.
 */
#ifdef HAVE_LIBURING
#include <errno.h>
#include <liburing.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine/engine.h"

struct uring {
	struct io_uring ring;
	unsigned pending;      /* queued since the last submit */
	bool fixed_bufs;
	bool disabled;         /* created with IORING_SETUP_R_DISABLED: enable in the worker */
	bool defer;            /* DEFER_TASKRUN: completions appear only through io_uring_enter */
	uint32_t wflags;       /* rw_flags of every write: RWF_ATOMIC with --atomic, else 0 */
};

/* Rings before Linux 6.1 do not know these flags: fall back to COOP_TASKRUN (5.19), then none. */
static int uring_setup(struct uring *u, unsigned depth, unsigned opts)
{
	struct io_uring_params p = {.flags = IORING_SETUP_SINGLE_ISSUER |
					     IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED};
	int r;

	/* SQPOLL: the kernel's thread takes SQEs as they are written (liburing wakes it when it
	 * has gone idle); completions are posted as usual, so no deferred task running. */
	if (opts & ENGINE_OPT_SQPOLL) {
		p = (struct io_uring_params){.flags = IORING_SETUP_SQPOLL, .sq_thread_idle = 1000};
		return io_uring_queue_init_params(depth, &u->ring, &p);
	}
	r = io_uring_queue_init_params(depth, &u->ring, &p);

	if (r == 0) {
		u->disabled = u->defer = true;
		return 0;
	}
	if (r != -EINVAL)
		return r;
	p = (struct io_uring_params){.flags = IORING_SETUP_COOP_TASKRUN};
	r = io_uring_queue_init_params(depth, &u->ring, &p);
	return r == -EINVAL ? io_uring_queue_init(depth, &u->ring, 0) : r;
}

static void uring_start(struct engine_io *w)
{
	struct uring *u = w->eng;

	/* io_uring_enable_rings() is declared but not exported by liburing 2.3 (Debian 12). */
	if (u->disabled)
		syscall(__NR_io_uring_register, u->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0);
	io_uring_register_ring_fd(&u->ring);
}

static int uring_probe(void)
{
	struct io_uring ring;
	int r = io_uring_queue_init(2, &ring, 0);

	if (r < 0)
		return r;
	io_uring_queue_exit(&ring);
	return 0;
}

static int uring_init(struct engine_io *w, unsigned depth)
{
	struct uring *u = calloc(1, sizeof(*u));
	struct iovec *iov = NULL;
	int r;

	if (!u)
		return -ENOMEM;
	u->wflags = w->opts & ENGINE_OPT_ATOMIC ? ENGINE_RWF_ATOMIC : 0;
	if ((r = uring_setup(u, depth, w->opts)) < 0)
		goto fail;
	/* Every target of the thread, registered: an I/O names its target by index. */
	if ((r = io_uring_register_files(&u->ring, w->fds, w->nfds)) < 0)
		goto fail_ring;
	/* Registered buffers are an optimisation: without them (RLIMIT_MEMLOCK), run unregistered. */
	iov = calloc(depth, sizeof(*iov));
	if (!iov) {
		r = -ENOMEM;
		goto fail_ring;
	}
	for (unsigned i = 0; i < depth; i++) {
		iov[i].iov_base = w->reqs[i].buf;
		iov[i].iov_len = w->bs;
	}
	/* An atomic write must come from a plain user buffer (the kernel's
	 * generic_atomic_write_valid() refuses a registered one's bvecs with EINVAL). */
	u->fixed_bufs = !u->wflags && io_uring_register_buffers(&u->ring, iov, depth) == 0;
	free(iov);
	w->eng = u;
	return 0;
fail_ring:
	io_uring_queue_exit(&u->ring);
fail:
	free(u);
	return r;
}

static enum io_q uring_queue(struct engine_io *w, struct io_req *r)
{
	struct uring *u = w->eng;
	struct io_uring_sqe *sqe = io_uring_get_sqe(&u->ring);

	if (!sqe)
		return IO_Q_BUSY;
	if (u->fixed_bufs) {
		if (r->write)
			io_uring_prep_write_fixed(sqe, (int)r->file, r->buf, r->len, r->offset,
						  r->idx);
		else
			io_uring_prep_read_fixed(sqe, (int)r->file, r->buf, r->len, r->offset,
						 r->idx);
	} else {
		if (r->write)
			io_uring_prep_write(sqe, (int)r->file, r->buf, r->len, r->offset);
		else
			io_uring_prep_read(sqe, (int)r->file, r->buf, r->len, r->offset);
	}
	sqe->flags |= IOSQE_FIXED_FILE;
	sqe->ioprio = r->ioprio;
	/* --atomic: every write carries RWF_ATOMIC (wflags is 0 otherwise). */
	sqe->rw_flags = u->wflags & -(uint32_t)r->write;
	io_uring_sqe_set_data(sqe, r);
	u->pending++;
	return IO_Q_QUEUED;
}

/* Hands every prepared SQE to the kernel; what a short submit leaves stays pending. */
static int uring_commit(struct engine_io *w)
{
	struct uring *u = w->eng;

	while (u->pending) {
		int r = io_uring_submit(&u->ring);
		if (r == -EINTR)
			continue;
		if (r < 0)
			return r;
		if (r == 0)
			return -EIO;
		u->pending -= (unsigned)r < u->pending ? (unsigned)r : u->pending;
	}
	return 0;
}

static int uring_reap(struct engine_io *w, unsigned min, struct io_req **done, unsigned max)
{
	struct uring *u = w->eng;
	struct io_uring_cqe *cqes[64];
	unsigned got = 0;
	int r;

	if (u->pending || min) {
		do
			r = io_uring_submit_and_wait(&u->ring, min);
		while (r == -EINTR);
		if (r < 0)
			return r;
		u->pending = 0;
	} else if (u->defer) {
		/* A poll without waiting (open loop) must still ask the kernel to post completions. */
		io_uring_get_events(&u->ring);
	}
	while (got < max) {
		unsigned want = max - got < 64 ? max - got : 64;
		unsigned n = io_uring_peek_batch_cqe(&u->ring, cqes, want);
		if (!n)
			break;
		for (unsigned i = 0; i < n; i++) {
			struct io_req *req = io_uring_cqe_get_data(cqes[i]);
			req->res = cqes[i]->res;
			done[got++] = req;
		}
		io_uring_cq_advance(&u->ring, n);
	}
	return (int)got;
}

static void uring_cleanup(struct engine_io *w)
{
	struct uring *u = w->eng;

	if (!u)
		return;
	io_uring_queue_exit(&u->ring);
	free(u);
	w->eng = NULL;
}

const struct engine_ops engine_uring = {
	.name = "uring",
	.flags = ENGINE_REAP_SUBMITS | ENGINE_IOPRIO | ENGINE_ATOMIC | ENGINE_SUBMIT_EACH,
	.probe = uring_probe,
	.init = uring_init,
	.start = uring_start,
	.queue = uring_queue,
	.commit = uring_commit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
};
#endif
