/*
 * The engines' error and edge paths: a kernel without io_uring's newer flags, a short or failed
 * submit, an interrupted wait, a full queue, a system out of memory or descriptors. The library
 * calls are wrapped at link time (ld --wrap, see the Makefile): each wrapper passes the call on
 * unless a test armed a failure for it, and the submits record what they hand to the kernel.
 */
#include <aio.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

#include <cmocka.h>

#ifdef HAVE_LIBURING
#include <liburing.h>
#endif
#ifdef HAVE_LIBAIO
#include <libaio.h>
#endif

#include "engine/engine.h"

#define DEPTH 4
#define BS 4096
#define BLOCKS 16

/* A failure armed for one wrapped call: the next `skip` calls pass, then `times` calls fail. */
struct fail {
	int skip, times, ret;
};

static bool failing(struct fail *f)
{
	if (f->skip > 0) {
		f->skip--;
		return false;
	}
	if (f->times > 0) {
		f->times--;
		return true;
	}
	return false;
}

static struct {
	struct fail calloc, dup;
	struct fail init_params, init, reg_files, reg_bufs, submit, submit_wait;
	struct fail io_setup, io_submit, io_getevents;
	struct fail aio_rw, aio_busy, aio_suspend; /* aio_busy: aio_error says EINPROGRESS */
	int io_submit_max;         /* > 0: io_submit takes at most this many (a short submit) */
	int submit_fake;           /* io_uring_submit returns this without submitting (> 0) */
	/* The last SQE / iocb handed to the kernel. */
	uint8_t sqe_opcode, sqe_flags;
	uint16_t sqe_ioprio;
	uint32_t sqe_rw_flags;
	uint16_t cb_reqprio;
	uint32_t cb_flags, cb_rw_flags;
	long getevents_max;        /* the max of the last io_getevents */
	int rwf;                   /* the flags of the last preadv2 or pwritev2 */
} fx;

void *__real_calloc(size_t n, size_t size);
void *__wrap_calloc(size_t n, size_t size)
{
	if (failing(&fx.calloc)) {
		errno = ENOMEM;
		return NULL;
	}
	return __real_calloc(n, size);
}

int __real_dup(int fd);
int __wrap_dup(int fd)
{
	if (failing(&fx.dup)) {
		errno = EMFILE;
		return -1;
	}
	return __real_dup(fd);
}

#ifdef HAVE_LIBURING
int __real_io_uring_queue_init_params(unsigned entries, struct io_uring *ring,
				      struct io_uring_params *p);
int __wrap_io_uring_queue_init_params(unsigned entries, struct io_uring *ring,
				      struct io_uring_params *p)
{
	return failing(&fx.init_params) ? fx.init_params.ret
					: __real_io_uring_queue_init_params(entries, ring, p);
}

int __real_io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags);
int __wrap_io_uring_queue_init(unsigned entries, struct io_uring *ring, unsigned flags)
{
	return failing(&fx.init) ? fx.init.ret : __real_io_uring_queue_init(entries, ring, flags);
}

int __real_io_uring_register_files(struct io_uring *ring, const int *files, unsigned n);
int __wrap_io_uring_register_files(struct io_uring *ring, const int *files, unsigned n)
{
	return failing(&fx.reg_files) ? fx.reg_files.ret
				      : __real_io_uring_register_files(ring, files, n);
}

int __real_io_uring_register_buffers(struct io_uring *ring, const struct iovec *iov, unsigned n);
int __wrap_io_uring_register_buffers(struct io_uring *ring, const struct iovec *iov, unsigned n)
{
	return failing(&fx.reg_bufs) ? fx.reg_bufs.ret
				     : __real_io_uring_register_buffers(ring, iov, n);
}

/* The newest SQE written and not yet submitted, as liburing keeps it. */
static void record_sqe(struct io_uring *ring)
{
	if (ring->sq.sqe_tail == ring->sq.sqe_head)
		return;
	const struct io_uring_sqe *s = &ring->sq.sqes[(ring->sq.sqe_tail - 1) & ring->sq.ring_mask];
	fx.sqe_opcode = s->opcode;
	fx.sqe_flags = s->flags;
	fx.sqe_ioprio = s->ioprio;
	fx.sqe_rw_flags = s->rw_flags;
}

int __real_io_uring_submit(struct io_uring *ring);
int __wrap_io_uring_submit(struct io_uring *ring)
{
	record_sqe(ring);
	if (fx.submit_fake) {
		int n = fx.submit_fake;
		fx.submit_fake = 0;
		return n;
	}
	return failing(&fx.submit) ? fx.submit.ret : __real_io_uring_submit(ring);
}

int __real_io_uring_submit_and_wait(struct io_uring *ring, unsigned n);
int __wrap_io_uring_submit_and_wait(struct io_uring *ring, unsigned n)
{
	record_sqe(ring);
	return failing(&fx.submit_wait) ? fx.submit_wait.ret
					: __real_io_uring_submit_and_wait(ring, n);
}
#endif

#ifdef HAVE_LIBAIO
int __real_io_setup(int n, io_context_t *ctx);
int __wrap_io_setup(int n, io_context_t *ctx)
{
	return failing(&fx.io_setup) ? fx.io_setup.ret : __real_io_setup(n, ctx);
}

int __real_io_submit(io_context_t ctx, long n, struct iocb **cbs);
int __wrap_io_submit(io_context_t ctx, long n, struct iocb **cbs)
{
	if (n > 0) {
		fx.cb_reqprio = (uint16_t)cbs[n - 1]->aio_reqprio;
		fx.cb_flags = cbs[n - 1]->u.c.flags;
		fx.cb_rw_flags = (uint32_t)cbs[n - 1]->aio_rw_flags;
	}
	if (failing(&fx.io_submit))
		return fx.io_submit.ret;
	if (fx.io_submit_max > 0 && n > fx.io_submit_max)
		n = fx.io_submit_max;
	return __real_io_submit(ctx, n, cbs);
}

int __real_io_getevents(io_context_t ctx, long min, long max, struct io_event *ev,
			struct timespec *t);
int __wrap_io_getevents(io_context_t ctx, long min, long max, struct io_event *ev,
			struct timespec *t)
{
	fx.getevents_max = max;
	return failing(&fx.io_getevents) ? fx.io_getevents.ret
					 : __real_io_getevents(ctx, min, max, ev, t);
}
#endif

ssize_t __real_preadv2(int fd, const struct iovec *iov, int n, off_t off, int flags);
ssize_t __wrap_preadv2(int fd, const struct iovec *iov, int n, off_t off, int flags)
{
	fx.rwf = flags;
	return __real_preadv2(fd, iov, n, off, flags);
}

ssize_t __real_pwritev2(int fd, const struct iovec *iov, int n, off_t off, int flags);
ssize_t __wrap_pwritev2(int fd, const struct iovec *iov, int n, off_t off, int flags)
{
	fx.rwf = flags;
	return __real_pwritev2(fd, iov, n, off, flags);
}

int __real_aio_read(struct aiocb *cb);
int __wrap_aio_read(struct aiocb *cb)
{
	if (failing(&fx.aio_rw)) {
		errno = fx.aio_rw.ret;
		return -1;
	}
	return __real_aio_read(cb);
}

int __real_aio_write(struct aiocb *cb);
int __wrap_aio_write(struct aiocb *cb)
{
	if (failing(&fx.aio_rw)) {
		errno = fx.aio_rw.ret;
		return -1;
	}
	return __real_aio_write(cb);
}

int __real_aio_error(const struct aiocb *cb);
int __wrap_aio_error(const struct aiocb *cb)
{
	return failing(&fx.aio_busy) ? EINPROGRESS : __real_aio_error(cb);
}

int __real_aio_suspend(const struct aiocb *const list[], int n, const struct timespec *t);
int __wrap_aio_suspend(const struct aiocb *const list[], int n, const struct timespec *t)
{
	if (failing(&fx.aio_suspend)) {
		errno = fx.aio_suspend.ret;
		return -1;
	}
	return __real_aio_suspend(list, n, t);
}

static char path[] = "/var/tmp/iorate-test-engine-errors-XXXXXX";

static int setup(void **state)
{
	int fd = mkstemp(path);

	if (fd < 0 || ftruncate(fd, BLOCKS * BS) < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	unlink(path);
	return 0;
}

/* Each test starts with nothing armed. */
static int reset(void **state)
{
	memset(&fx, 0, sizeof(fx));
	return 0;
}

struct rig {
	struct engine_io io;
	int fd;
	void *mem;
	struct io_req reqs[DEPTH];
	struct io_req *done[DEPTH];
};

/* The requests and buffers of a thread of `depth`, on the test file; the engine not yet set up. */
static void rig_open(struct rig *g, int flags)
{
	memset(g, 0, sizeof(*g));
	g->fd = open(path, flags);
	assert_true(g->fd >= 0);
	assert_int_equal(posix_memalign(&g->mem, 4096, (size_t)BS * DEPTH), 0);
	for (unsigned i = 0; i < DEPTH; i++)
		g->reqs[i] = (struct io_req){.buf = (char *)g->mem + (size_t)i * BS, .len = BS,
					     .idx = (uint16_t)i, .offset = (uint64_t)i * BS};
	g->io = (struct engine_io){.fd = g->fd, .fds = &g->fd, .nfds = 1, .bs = BS,
				   .reqs = g->reqs};
}

static void rig_close(struct rig *g, const struct engine_ops *ops)
{
	if (ops && ops->cleanup)
		ops->cleanup(&g->io);
	free(g->mem);
	close(g->fd);
}

/* Reaps until n requests are back; each read returned BS bytes of block idx + 1. */
static void reap_all(const struct engine_ops *ops, struct rig *g, unsigned n)
{
	for (unsigned got = 0; got < n;) {
		int k = ops->reap(&g->io, 1, g->done, DEPTH);
		assert_true(k > 0);
		for (int i = 0; i < k; i++)
			assert_int_equal(g->done[i]->res, BS);
		got += (unsigned)k;
	}
}

/* Blocks 0..DEPTH-1 of the file hold idx + 1 in every byte. */
static void fill_file(void)
{
	unsigned char b[BS];
	int fd = open(path, O_WRONLY);

	assert_true(fd >= 0);
	for (unsigned i = 0; i < DEPTH; i++) {
		memset(b, (int)i + 1, BS);
		assert_int_equal(pwrite(fd, b, BS, (off_t)i * BS), BS);
	}
	close(fd);
}

#ifdef HAVE_LIBURING
static const struct engine_ops *uring(void)
{
	const struct engine_ops *ops = engine_find("uring");

	assert_non_null(ops);
	if (engine_probe(ops)) {
		print_message("io_uring is not usable here\n");
		skip();
	}
	return ops;
}

/* Reads every block through a ring set up as the test armed it, and checks the bytes. */
static void uring_reads(const struct engine_ops *ops, unsigned opts)
{
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	g.io.opts = opts;
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	ops->start(&g.io);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(ops->queue(&g.io, &g.reqs[i]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	reap_all(ops, &g, DEPTH);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(((unsigned char *)g.reqs[i].buf)[BS - 1], i + 1);
	rig_close(&g, ops);
}

/* A kernel before 6.1 refuses SINGLE_ISSUER|DEFER_TASKRUN (EINVAL), one before 5.19
 * COOP_TASKRUN too: the ring is set up without them and moves the same bytes. */
static void uring_older_kernels(void **state)
{
	const struct engine_ops *ops = uring();

	fx.init_params = (struct fail){.times = 1, .ret = -EINVAL};
	uring_reads(ops, 0);
	assert_int_equal(fx.init_params.times, 0);
	fx.init_params = (struct fail){.times = 2, .ret = -EINVAL};
	uring_reads(ops, 0);
	assert_int_equal(fx.init_params.times, 0);
	/* SQPOLL's ring: a kernel thread takes the SQEs. */
	uring_reads(ops, ENGINE_OPT_SQPOLL);
}

/* Any other refusal is the engine's: init() returns it and keeps nothing. */
static void uring_setup_fails(void **state)
{
	const struct engine_ops *ops = uring();
	struct rig g;

	rig_open(&g, O_RDWR);
	fx.init_params = (struct fail){.times = 1, .ret = -ENOMEM};
	assert_int_equal(ops->init(&g.io, DEPTH), -ENOMEM);
	fx.init_params = (struct fail){.times = 2, .ret = -EINVAL};
	fx.init = (struct fail){.times = 1, .ret = -ENOSYS};
	assert_int_equal(ops->init(&g.io, DEPTH), -ENOSYS);
	fx.reg_files = (struct fail){.times = 1, .ret = -EBADF};
	assert_int_equal(ops->init(&g.io, DEPTH), -EBADF);
	fx.calloc = (struct fail){.times = 1};
	assert_int_equal(ops->init(&g.io, DEPTH), -ENOMEM);
	fx.calloc = (struct fail){.skip = 1, .times = 1};
	assert_int_equal(ops->init(&g.io, DEPTH), -ENOMEM);
	assert_null(g.io.eng);
	/* A kernel without io_uring (or one that forbids it): probe says so. */
	fx.init = (struct fail){.times = 1, .ret = -ENOSYS};
	assert_int_equal(engine_probe(ops), -ENOSYS);
	rig_close(&g, NULL);
}

/* Without registered buffers (RLIMIT_MEMLOCK), reads and writes are the plain opcodes; with
 * --atomic too, and only writes carry RWF_ATOMIC. An I/O's priority rides in its SQE. */
static void uring_sqes(void **state)
{
	const struct engine_ops *ops = uring();
	struct rig g;

	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	ops->start(&g.io);
	g.reqs[0].ioprio = 0x4003;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_READ_FIXED);
	assert_int_equal(fx.sqe_ioprio, 0x4003);
	assert_true(fx.sqe_flags & IOSQE_FIXED_FILE);
	reap_all(ops, &g, 1);
	g.reqs[0].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_WRITE_FIXED);
	reap_all(ops, &g, 1);
	ops->cleanup(&g.io);

	fx.reg_bufs = (struct fail){.times = 1, .ret = -ENOMEM};
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	ops->start(&g.io);
	g.reqs[0].write = 0;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_READ);
	assert_int_equal(fx.sqe_rw_flags, 0);
	reap_all(ops, &g, 1);
	g.reqs[0].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_WRITE);
	assert_int_equal(fx.sqe_rw_flags, 0);
	reap_all(ops, &g, 1);
	ops->cleanup(&g.io);

	/* --atomic: registration is not even tried. The kernel may refuse the write on this
	 * file system; what is checked is what was asked. */
	g.io.opts = ENGINE_OPT_ATOMIC;
	fx.reg_bufs = (struct fail){.times = 1, .ret = -ENOMEM};
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	assert_int_equal(fx.reg_bufs.times, 1);
	ops->start(&g.io);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_WRITE);
	assert_int_equal(fx.sqe_rw_flags, ENGINE_RWF_ATOMIC);
	assert_int_equal(ops->reap(&g.io, 1, g.done, DEPTH), 1);
	g.reqs[0].write = 0;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.sqe_opcode, IORING_OP_READ);
	assert_int_equal(fx.sqe_rw_flags, 0);
	reap_all(ops, &g, 1);
	rig_close(&g, ops);
}

/* A full ring has no room (IO_Q_BUSY); an interrupted or short submit goes on with the rest;
 * a kernel that takes nothing (0) or refuses (-errno) fails the commit. */
static void uring_submits(void **state)
{
	const struct engine_ops *ops = uring();
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	ops->start(&g.io);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(ops->queue(&g.io, &g.reqs[i]), IO_Q_QUEUED);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_BUSY);
	/* EINTR, then a submit of one that the next submit completes. */
	fx.submit = (struct fail){.times = 1, .ret = -EINTR};
	assert_int_equal(ops->commit(&g.io), 0);
	reap_all(ops, &g, DEPTH);

	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_QUEUED);
	fx.submit_fake = 1;
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.submit_fake, 0);
	reap_all(ops, &g, 2);

	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	fx.submit = (struct fail){.times = 1, .ret = 0};
	assert_int_equal(ops->commit(&g.io), -EIO);
	fx.submit = (struct fail){.times = 1, .ret = -EBUSY};
	assert_int_equal(ops->commit(&g.io), -EBUSY);
	/* What a failed commit left is handed over by the reap that waits. */
	reap_all(ops, &g, 1);
	rig_close(&g, ops);
}

/* A wait interrupted by a signal waits again; one that fails returns the kernel's -errno; a
 * poll that may return nothing (min 0) returns what completed, without waiting. */
static void uring_reaps(void **state)
{
	const struct engine_ops *ops = uring();
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	ops->start(&g.io);
	assert_int_equal(ops->reap(&g.io, 0, g.done, DEPTH), 0);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	fx.submit_wait = (struct fail){.times = 1, .ret = -EINTR};
	reap_all(ops, &g, 1);
	assert_int_equal(fx.submit_wait.times, 0);
	assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_QUEUED);
	fx.submit_wait = (struct fail){.times = 1, .ret = -EOWNERDEAD};
	assert_int_equal(ops->reap(&g.io, 1, g.done, DEPTH), -EOWNERDEAD);
	assert_int_equal(ops->commit(&g.io), 0);
	/* Polled until the read is back: each poll asks the kernel to post completions. */
	int k;
	while (!(k = ops->reap(&g.io, 0, g.done, DEPTH)))
		;
	assert_int_equal(k, 1);
	assert_int_equal(g.done[0]->res, BS);
	assert_int_equal(((unsigned char *)g.reqs[1].buf)[0], 2);
	ops->cleanup(&g.io);
	ops->cleanup(&g.io); /* a second cleanup finds nothing to free */
	rig_close(&g, NULL);
}
#else
static void uring_older_kernels(void **state) { skip(); }
static void uring_setup_fails(void **state) { skip(); }
static void uring_sqes(void **state) { skip(); }
static void uring_submits(void **state) { skip(); }
static void uring_reaps(void **state) { skip(); }
#endif

#ifdef HAVE_LIBAIO
static const struct engine_ops *aio(void)
{
	const struct engine_ops *ops = engine_find("aio");

	assert_non_null(ops);
	if (engine_probe(ops)) {
		print_message("libaio is not usable here\n");
		skip();
	}
	return ops;
}

/* io_setup's refusal (aio-max-nr reached) and a failed allocation fail init() with nothing
 * kept; probe() says so too. */
static void aio_setup_fails(void **state)
{
	const struct engine_ops *ops = aio();
	struct rig g;

	rig_open(&g, O_RDWR);
	fx.io_setup = (struct fail){.times = 1, .ret = -EAGAIN};
	assert_int_equal(ops->init(&g.io, DEPTH), -EAGAIN);
	for (int i = 0; i < 4; i++) {
		fx.calloc = (struct fail){.skip = i, .times = 1};
		assert_int_equal(ops->init(&g.io, DEPTH), -ENOMEM);
	}
	assert_null(g.io.eng);
	fx.io_setup = (struct fail){.times = 1, .ret = -ENOSYS};
	assert_int_equal(engine_probe(ops), -ENOSYS);
	rig_close(&g, ops); /* cleanup of an engine never set up */
}

/* A queue as deep as the thread is full; a short submit keeps the rest in order for the next
 * commit; EINTR submits again; a refusal or a submit of nothing fails the commit, and the I/Os
 * it kept still complete once a commit takes them. */
static void aio_submits(void **state)
{
	const struct engine_ops *ops = aio();
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(ops->queue(&g.io, &g.reqs[i]), IO_Q_QUEUED);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_BUSY);
	fx.io_submit_max = 2;
	fx.io_submit = (struct fail){.skip = 1, .times = 1, .ret = -EAGAIN};
	assert_int_equal(ops->commit(&g.io), -EAGAIN);
	fx.io_submit = (struct fail){.times = 1, .ret = 0};
	assert_int_equal(ops->commit(&g.io), -EIO);
	fx.io_submit = (struct fail){.times = 1, .ret = -EINTR};
	assert_int_equal(ops->commit(&g.io), 0);
	fx.io_submit_max = 0;
	unsigned seen = 0;
	for (unsigned got = 0; got < DEPTH;) {
		int k = ops->reap(&g.io, 1, g.done, DEPTH);
		assert_true(k > 0);
		for (int i = 0; i < k; i++) {
			assert_int_equal(g.done[i]->res, BS);
			seen |= 1u << g.done[i]->idx;
			assert_int_equal(((unsigned char *)g.done[i]->buf)[0], g.done[i]->idx + 1);
		}
		got += (unsigned)k;
	}
	assert_int_equal(seen, (1u << DEPTH) - 1);
	assert_int_equal(ops->commit(&g.io), 0); /* nothing left to submit */
	assert_int_equal(ops->reap(&g.io, 0, g.done, DEPTH), 0); /* and none submitted twice */
	rig_close(&g, ops);
}

/* io_getevents: EINTR waits again, another failure is returned; a max above the depth is
 * the depth. An I/O's priority and --atomic's flag ride in its iocb. */
static void aio_reaps(void **state)
{
	const struct engine_ops *ops = aio();
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	g.reqs[0].ioprio = 0x4003;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.cb_reqprio, 0x4003);
	assert_true(fx.cb_flags & (1 << 1));
	assert_int_equal(fx.cb_rw_flags, 0);
	fx.io_getevents = (struct fail){.times = 1, .ret = -EINTR};
	struct io_req *many[2 * DEPTH];
	assert_int_equal(ops->reap(&g.io, 1, many, 2 * DEPTH), 1);
	assert_int_equal(fx.getevents_max, DEPTH);
	assert_int_equal(many[0]->res, BS);
	fx.io_getevents = (struct fail){.times = 1, .ret = -EFAULT};
	assert_int_equal(ops->reap(&g.io, 1, g.done, DEPTH), -EFAULT);
	ops->cleanup(&g.io);

	g.io.opts = ENGINE_OPT_ATOMIC;
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	assert_int_equal(ops->commit(&g.io), 0);
	assert_int_equal(fx.cb_rw_flags, 0);
	reap_all(ops, &g, 1);
	/* The kernel may refuse RWF_ATOMIC on this file system: what is checked is the ask. */
	g.reqs[1].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_QUEUED);
	int r = ops->commit(&g.io);
	assert_int_equal(fx.cb_rw_flags, ENGINE_RWF_ATOMIC);
	assert_int_equal(fx.cb_flags & (1 << 1), 0);
	if (r == 0)
		assert_int_equal(ops->reap(&g.io, 1, g.done, DEPTH), 1);
	else
		assert_true(r == -EOPNOTSUPP || r == -EINVAL);
	rig_close(&g, ops);
}
#else
static void aio_setup_fails(void **state) { skip(); }
static void aio_submits(void **state) { skip(); }
static void aio_reaps(void **state) { skip(); }
#endif

/* posixaio: out of glibc's resources (EAGAIN) with requests in flight, a request waits its
 * turn (IO_Q_BUSY); with none, it is the I/O's error. Another refusal is the I/O's error. */
static void posixaio_queue_fails(void **state)
{
	const struct engine_ops *ops = engine_find("posixaio");
	struct rig g;

	fill_file();
	rig_open(&g, O_RDWR);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	fx.aio_rw = (struct fail){.times = 1, .ret = EAGAIN};
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(g.reqs[0].res, -EAGAIN);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_QUEUED);
	fx.aio_rw = (struct fail){.times = 1, .ret = EAGAIN};
	g.reqs[1].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_BUSY);
	fx.aio_rw = (struct fail){.times = 1, .ret = ENOSYS};
	assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_DONE);
	assert_int_equal(g.reqs[1].res, -ENOSYS);
	/* Still running at the first look: an interrupted wait waits again, a failed one is the
	 * reap's error. */
	fx.aio_busy = (struct fail){.times = 1};
	fx.aio_suspend = (struct fail){.times = 1, .ret = EINTR};
	reap_all(ops, &g, 1);
	assert_int_equal(fx.aio_suspend.times, 0);
	assert_int_equal(((unsigned char *)g.reqs[0].buf)[0], 1);
	assert_int_equal(ops->queue(&g.io, &g.reqs[2]), IO_Q_QUEUED);
	fx.aio_busy = (struct fail){.times = 1};
	fx.aio_suspend = (struct fail){.times = 1, .ret = EINVAL};
	assert_int_equal(ops->reap(&g.io, 1, g.done, DEPTH), -EINVAL);
	rig_close(&g, ops); /* the read may still be in flight: cleanup waits for it */
}

/* A reap returns at most max; what it leaves comes back with the next one. */
static void posixaio_reap_max(void **state)
{
	const struct engine_ops *ops = engine_find("posixaio");
	struct rig g;
	unsigned seen = 0;

	fill_file();
	rig_open(&g, O_RDONLY);
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(ops->queue(&g.io, &g.reqs[i]), IO_Q_QUEUED);
	for (unsigned got = 0; got < DEPTH;) {
		int k = ops->reap(&g.io, 1, g.done, 1);
		assert_int_equal(k, 1);
		assert_int_equal(g.done[0]->res, BS);
		seen |= 1u << g.done[0]->idx;
		got++;
	}
	assert_int_equal(seen, (1u << DEPTH) - 1);
	/* All back: none in flight, so glibc's EAGAIN is the I/O's error, not a wait. */
	fx.aio_rw = (struct fail){.times = 1, .ret = EAGAIN};
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(g.reqs[0].res, -EAGAIN);
	/* In flight at cleanup: waited for before the buffers go. */
	for (unsigned i = 0; i < DEPTH; i++)
		assert_int_equal(ops->queue(&g.io, &g.reqs[i]), IO_Q_QUEUED);
	rig_close(&g, ops);
}

/* Out of descriptors or memory, init() fails with nothing kept; a target without a descriptor
 * (-1) is not duplicated. */
static void posixaio_init_fails(void **state)
{
	const struct engine_ops *ops = engine_find("posixaio");
	struct rig g;
	int fds[2];

	rig_open(&g, O_RDWR);
	fx.dup = (struct fail){.times = 1};
	assert_int_equal(ops->init(&g.io, DEPTH), -EMFILE);
	fds[0] = g.fd;
	fds[1] = -1;
	g.io.fds = fds;
	g.io.nfds = 2;
	fx.dup = (struct fail){.skip = 1, .times = 1};
	assert_int_equal(ops->init(&g.io, DEPTH), 0);
	assert_int_equal(fx.dup.skip, 0);
	assert_int_equal(fx.dup.times, 1);
	ops->cleanup(&g.io);
	for (int i = 0; i < 5; i++) {
		fx.calloc = (struct fail){.skip = i, .times = 1};
		assert_int_equal(ops->init(&g.io, DEPTH), -ENOMEM);
	}
	assert_null(g.io.eng);
	g.io.fds = &g.fd;
	g.io.nfds = 1;
	rig_close(&g, ops);
}

/* pvsync and pvsync2 take one I/O at a time; a refused I/O is its result; pvsync2 asks for
 * RWF_ATOMIC on writes with --atomic, so the kernel's refusal or the bytes come back. */
static void pvsync_edges(void **state)
{
	const char *names[] = {"pvsync", "pvsync2"};

	for (int n = 0; n < 2; n++) {
		const struct engine_ops *ops = engine_find(names[n]);
		struct rig g;

		rig_open(&g, O_RDONLY);
		assert_int_equal(ops->init(&g.io, 2), -EINVAL);
		assert_int_equal(ops->init(&g.io, 1), 0);
		g.reqs[0].write = 1;
		assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
		assert_int_equal(g.reqs[0].res, -EBADF);
		g.reqs[0].write = 0;
		g.reqs[0].offset = (uint64_t)BLOCKS * BS;
		assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
		assert_int_equal(g.reqs[0].res, 0);
		rig_close(&g, ops);
	}
	const struct engine_ops *ops = engine_find("pvsync2");
	struct rig g;

	/* The kernel may refuse a flag on this file system: what is checked is the ask. */
	rig_open(&g, O_RDWR);
	g.io.opts = ENGINE_OPT_ATOMIC | ENGINE_OPT_HIPRI | ENGINE_OPT_NOWAIT | ENGINE_OPT_DONTCACHE;
	assert_int_equal(ops->init(&g.io, 1), 0);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(fx.rwf, ENGINE_RWF_HIPRI | ENGINE_RWF_NOWAIT | ENGINE_RWF_DONTCACHE);
	g.reqs[0].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(fx.rwf, ENGINE_RWF_HIPRI | ENGINE_RWF_NOWAIT | ENGINE_RWF_DONTCACHE |
			 ENGINE_RWF_ATOMIC);
	g.io.opts = 0;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(fx.rwf, 0);
	assert_int_equal(g.reqs[0].res, BS);
	rig_close(&g, ops);
}

/* sync with --atomic: writes through pwritev2 with RWF_ATOMIC (the bytes, or the kernel's
 * refusal as the result); reads as before. */
static void sync_atomic(void **state)
{
	const struct engine_ops *ops = engine_find("sync");
	struct rig g;

	fill_file();
	rig_open(&g, O_RDONLY);
	g.io.opts = ENGINE_OPT_ATOMIC;
	assert_int_equal(ops->init(&g.io, 1), 0);
	g.reqs[2].write = 1;
	/* A descriptor opened read-only: the write is refused whatever the flag. */
	assert_int_equal(ops->queue(&g.io, &g.reqs[2]), IO_Q_DONE);
	assert_int_equal(g.reqs[2].res, -EBADF);
	g.reqs[2].write = 0;
	assert_int_equal(ops->queue(&g.io, &g.reqs[2]), IO_Q_DONE);
	assert_int_equal(g.reqs[2].res, BS);
	assert_int_equal(((unsigned char *)g.reqs[2].buf)[0], 3);
	rig_close(&g, ops);
}

/* The fault engine: each IORATE_FAULT it knows, and its refusals. */
static const struct engine_ops *fault_init(struct rig *g, const char *env, int flags)
{
	const struct engine_ops *ops = engine_find("fault");

	setenv("IORATE_FAULT", env, 1);
	rig_open(g, flags);
	assert_int_equal(ops->init(&g->io, 1), 0);
	return ops;
}

/* The byte the file holds at `at`. */
static unsigned char stored(int fd, off_t at)
{
	unsigned char c = 0;

	assert_int_equal(pread(fd, &c, 1, at), 1);
	return c;
}

static void fault_engine(void **state)
{
	const struct engine_ops *ops = engine_find("fault");
	struct rig g;

	/* Refused: an unknown fault, an every of 0, a depth the sync engine refuses, memory. */
	rig_open(&g, O_RDWR);
	const char *bad[] = {"nonsense", "lost:0", "melt:2"};
	for (int i = 0; i < 3; i++) {
		setenv("IORATE_FAULT", bad[i], 1);
		assert_int_equal(ops->init(&g.io, 1), -EINVAL);
	}
	unsetenv("IORATE_FAULT");
	assert_int_equal(ops->init(&g.io, 2), -EINVAL);
	fx.calloc = (struct fail){.times = 1};
	assert_int_equal(ops->init(&g.io, 1), -ENOMEM);
	assert_null(g.io.eng);
	/* Without IORATE_FAULT: the sync engine. */
	assert_int_equal(ops->init(&g.io, 1), 0);
	g.reqs[0].write = 1;
	memset(g.reqs[0].buf, 0x33, BS);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(g.reqs[0].res, BS);
	assert_int_equal(stored(g.fd, BS - 1), 0x33);
	rig_close(&g, ops);

	/* eio:2: the second I/O fails, the others do not. */
	fault_init(&g, "eio:2", O_RDWR);
	int want[] = {BS, -EIO, BS};
	for (int i = 0; i < 3; i++) {
		assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
		assert_int_equal(g.reqs[0].res, want[i]);
	}
	rig_close(&g, ops);

	/* stall:2:1: every second I/O is slower, and still done in full. */
	fault_init(&g, "stall:2:1", O_RDWR);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
		assert_int_equal(g.reqs[0].res, BS);
	}
	rig_close(&g, ops);

	/* Hidden faults on every write, block 1 (0x77 in the buffer, 0 on the file). */
	struct {
		const char *env;
		off_t probe;
		unsigned char want;
	} hidden[] = {
		{"bitflip:1", BS + BS / 2, 0x77 ^ 0x10}, {"bitflip:1", BS, 0x77},
		{"torn:1", BS + 511, 0x77}, {"torn:1", BS + 512, 0},
		{"lost:1", BS, 0},
		{"misdirect:1", 0, 0x77}, {"misdirect:1", BS, 0},
	};
	for (size_t i = 0; i < sizeof(hidden) / sizeof(hidden[0]); i++) {
		int fd = open(path, O_WRONLY | O_TRUNC);
		assert_true(fd >= 0 && ftruncate(fd, BLOCKS * BS) == 0);
		close(fd);
		fault_init(&g, hidden[i].env, O_RDWR);
		g.reqs[1].write = 1;
		memset(g.reqs[1].buf, 0x77, BS);
		assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_DONE);
		assert_int_equal(g.reqs[1].res, BS);
		assert_int_equal(stored(g.fd, hidden[i].probe), hidden[i].want);
		/* The buffer is as it was: the flip was undone after the write. */
		assert_int_equal(((unsigned char *)g.reqs[1].buf)[BS / 2], 0x77);
		/* Reads are never faulted. */
		g.reqs[1].write = 0;
		assert_int_equal(ops->queue(&g.io, &g.reqs[1]), IO_Q_DONE);
		assert_int_equal(g.reqs[1].res, BS);
		rig_close(&g, ops);
	}
	/* At offset 0, a misdirected write lands one I/O higher. */
	fault_init(&g, "misdirect:1", O_RDWR);
	assert_int_equal(ftruncate(g.fd, 0), 0);
	assert_int_equal(ftruncate(g.fd, BLOCKS * BS), 0);
	g.reqs[0].write = 1;
	memset(g.reqs[0].buf, 0x44, BS);
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(stored(g.fd, BS), 0x44);
	assert_int_equal(stored(g.fd, 0), 0);
	rig_close(&g, ops);
	/* A hidden fault's write that fails is the I/O's error. */
	fault_init(&g, "torn:1", O_RDONLY);
	g.reqs[0].write = 1;
	assert_int_equal(ops->queue(&g.io, &g.reqs[0]), IO_Q_DONE);
	assert_int_equal(g.reqs[0].res, -EBADF);
	rig_close(&g, ops);
	unsetenv("IORATE_FAULT");
}

/* The synchronous engines complete each I/O in queue(): commit() and reap() have nothing. */
static void sync_engines_reap_nothing(void **state)
{
	const char *sync[] = {"sync", "pvsync", "pvsync2", "null", "fault"};
	struct io_req *done[1] = {NULL};

	for (int i = 0; i < 5; i++) {
		const struct engine_ops *ops = engine_find(sync[i]);

		assert_non_null(ops);
		assert_true(ops->flags & ENGINE_SYNC);
		assert_int_equal(ops->commit(NULL), 0);
		assert_int_equal(ops->reap(NULL, 1, done, 1), 0);
		assert_null(done[0]);
	}
}

/* The names: fio's aliases resolve to the engines built in, unknown names to nothing. */
static void names(void **state)
{
	assert_string_equal(engine_canonical("psync"), "sync");
	assert_string_equal(engine_canonical("sync"), "sync");
	assert_null(engine_canonical("splice"));
	assert_null(engine_find("splice"));
#if defined(HAVE_LIBURING) && defined(HAVE_LIBAIO)
	assert_string_equal(engine_canonical("libaio"), "aio");
	assert_string_equal(engine_canonical("io_uring"), "uring");
	assert_string_equal(engine_names(), "uring, sync, aio, posixaio, pvsync, pvsync2, null, "
			    "fault");
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(uring_older_kernels, reset),
		cmocka_unit_test_setup(uring_setup_fails, reset),
		cmocka_unit_test_setup(uring_sqes, reset),
		cmocka_unit_test_setup(uring_submits, reset),
		cmocka_unit_test_setup(uring_reaps, reset),
		cmocka_unit_test_setup(aio_setup_fails, reset),
		cmocka_unit_test_setup(aio_submits, reset),
		cmocka_unit_test_setup(aio_reaps, reset),
		cmocka_unit_test_setup(posixaio_queue_fails, reset),
		cmocka_unit_test_setup(posixaio_reap_max, reset),
		cmocka_unit_test_setup(posixaio_init_fails, reset),
		cmocka_unit_test_setup(pvsync_edges, reset),
		cmocka_unit_test_setup(sync_atomic, reset),
		cmocka_unit_test_setup(fault_engine, reset),
		cmocka_unit_test_setup(sync_engines_reap_nothing, reset),
		cmocka_unit_test_setup(names, reset),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
