/*
 * posixaio: POSIX asynchronous I/O through glibc (aio_read, aio_write, aio_suspend), as fio's
 * posixaio engine. glibc runs the requests on its own threads with pread64 and pwrite64, one
 * request at a time per file descriptor: that, not the kernel, is what such a run measures.
 */
#include <aio.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "engine/engine.h"

struct posixaio {
	struct aiocb *cbs;         /* one per request, indexed like engine_io.reqs */
	const struct aiocb **wait; /* the requests aio_suspend() waits on */
	uint8_t *busy;             /* submitted and not yet reaped */
	int *fds;                  /* this thread's own descriptors of its targets */
	unsigned depth, nfds, inflight;
};

static void posixaio_free(struct posixaio *p)
{
	for (unsigned i = 0; p->fds && i < p->nfds; i++)
		if (p->fds[i] >= 0)
			close(p->fds[i]);
	free(p->fds);
	free(p->cbs);
	free(p->wait);
	free(p->busy);
	free(p);
}

static int posixaio_init(struct engine_io *w, unsigned depth)
{
	struct posixaio *p = calloc(1, sizeof(*p));
	int r = -ENOMEM;

	if (!p)
		return -ENOMEM;
	p->depth = depth;
	p->cbs = calloc(depth, sizeof(*p->cbs));
	p->wait = calloc(depth, sizeof(*p->wait));
	p->busy = calloc(depth, sizeof(*p->busy));
	p->fds = calloc(w->nfds, sizeof(*p->fds));
	if (!p->cbs || !p->wait || !p->busy || !p->fds)
		goto fail;
	/* glibc queues the requests of one descriptor on one of its threads: a descriptor of the
	 * thread's own, as each fio job opens its files, keeps the threads of a target apart. */
	for (; p->nfds < w->nfds; p->nfds++) {
		unsigned i = p->nfds;
		p->fds[i] = -1;
		if (w->fds[i] >= 0 && (p->fds[i] = dup(w->fds[i])) < 0) {
			r = -errno;
			goto fail;
		}
	}
	w->eng = p;
	return 0;
fail:
	posixaio_free(p);
	return r;
}

/* Submitted at once, as fio's posixaio does: glibc has no batch to hand over. */
static enum io_q posixaio_queue(struct engine_io *w, struct io_req *r)
{
	struct posixaio *p = w->eng;
	struct aiocb *cb = &p->cbs[r->idx];

	memset(cb, 0, sizeof(*cb));
	cb->aio_fildes = p->fds[r->file];
	cb->aio_buf = r->buf;
	cb->aio_nbytes = r->len;
	cb->aio_offset = (off_t)r->offset;
	cb->aio_sigevent.sigev_notify = SIGEV_NONE;
	if ((r->write ? aio_write(cb) : aio_read(cb)) < 0) {
		/* Out of glibc's resources: a later try, once some complete (fio does the same). */
		if (errno == EAGAIN && p->inflight)
			return IO_Q_BUSY;
		r->res = -errno;
		return IO_Q_DONE;
	}
	p->busy[r->idx] = 1;
	p->inflight++;
	return IO_Q_QUEUED;
}

static int posixaio_commit(struct engine_io *w)
{
	return 0;
}

/* Every request in flight is asked for its state (aio_error), then those still running are
 * waited on together until `min` have completed. */
static int posixaio_reap(struct engine_io *w, unsigned min, struct io_req **done, unsigned max)
{
	struct posixaio *p = w->eng;
	unsigned n = 0;

	for (;;) {
		unsigned nwait = 0;
		for (unsigned i = 0; i < p->depth && n < max; i++) {
			if (!p->busy[i])
				continue;
			int e = aio_error(&p->cbs[i]);
			if (e == EINPROGRESS) {
				p->wait[nwait++] = &p->cbs[i];
				continue;
			}
			ssize_t got = aio_return(&p->cbs[i]);
			struct io_req *r = &w->reqs[i];
			r->res = (int32_t)(e ? -e : got);
			p->busy[i] = 0;
			p->inflight--;
			done[n++] = r;
		}
		if (n >= min || n >= max || !nwait)
			return (int)n;
		if (aio_suspend(p->wait, (int)nwait, NULL) < 0 && errno != EINTR && errno != EAGAIN)
			return -errno;
	}
}

/* Requests still in flight (a run that failed midway) end before their buffers are freed. */
static void posixaio_cleanup(struct engine_io *w)
{
	struct posixaio *p = w->eng;

	if (!p)
		return;
	for (unsigned i = 0; i < p->depth; i++) {
		if (!p->busy[i])
			continue;
		aio_cancel(p->cbs[i].aio_fildes, &p->cbs[i]);
		const struct aiocb *one[1] = {&p->cbs[i]};
		while (aio_error(&p->cbs[i]) == EINPROGRESS)
			aio_suspend(one, 1, NULL);
		aio_return(&p->cbs[i]);
	}
	posixaio_free(p);
	w->eng = NULL;
}

const struct engine_ops engine_posixaio = {
	.name = "posixaio",
	.init = posixaio_init,
	.queue = posixaio_queue,
	.commit = posixaio_commit,
	.reap = posixaio_reap,
	.cleanup = posixaio_cleanup,
};
