/* aio: Linux native asynchronous I/O (io_submit/io_getevents through libaio). */
#ifdef HAVE_LIBAIO
#include <errno.h>
#include <libaio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/engine.h"

/* The kernel's flag for aio_reqprio (linux/aio_abi.h; libaio does not name it). */
#ifndef IOCB_FLAG_IOPRIO
#define IOCB_FLAG_IOPRIO (1 << 1)
#endif

struct aio {
	io_context_t ctx;
	struct iocb *iocbs;      /* one per request, indexed like worker->reqs */
	struct iocb **batch;     /* queued since the last commit */
	struct io_event *events;
	unsigned nbatch, depth;
};

static int aio_probe(void)
{
	io_context_t ctx = 0;
	int r = io_setup(1, &ctx);

	if (r < 0)
		return r;
	io_destroy(ctx);
	return 0;
}

static int aio_init(struct engine_io *w, unsigned depth)
{
	struct aio *a = calloc(1, sizeof(*a));
	int r;

	if (!a)
		return -ENOMEM;
	a->depth = depth;
	a->iocbs = calloc(depth, sizeof(*a->iocbs));
	a->batch = calloc(depth, sizeof(*a->batch));
	a->events = calloc(depth, sizeof(*a->events));
	if (!a->iocbs || !a->batch || !a->events) {
		r = -ENOMEM;
		goto fail;
	}
	if ((r = io_setup((int)depth, &a->ctx)) < 0)
		goto fail;
	w->eng = a;
	return 0;
fail:
	free(a->iocbs);
	free(a->batch);
	free(a->events);
	free(a);
	return r;
}

static enum io_q aio_queue(struct engine_io *w, struct io_req *r)
{
	struct aio *a = w->eng;
	struct iocb *cb = &a->iocbs[r->idx];

	if (a->nbatch >= a->depth)
		return IO_Q_BUSY;
	if (r->write)
		io_prep_pwrite(cb, w->fds[r->file], r->buf, r->len, (long long)r->offset);
	else
		io_prep_pread(cb, w->fds[r->file], r->buf, r->len, (long long)r->offset);
	if (r->write && (w->opts & ENGINE_OPT_ATOMIC))
		cb->aio_rw_flags = ENGINE_RWF_ATOMIC;
	if (r->ioprio) {
		cb->aio_reqprio = (short)r->ioprio;
		cb->u.c.flags |= IOCB_FLAG_IOPRIO;
	}
	cb->data = r;
	a->batch[a->nbatch++] = cb;
	return IO_Q_QUEUED;
}

/* Submits the batch; a short submit keeps the rest at the front of it for the next call. */
static int aio_commit(struct engine_io *w)
{
	struct aio *a = w->eng;
	unsigned off = 0;
	int r = 0;

	while (off < a->nbatch) {
		r = io_submit(a->ctx, (long)(a->nbatch - off), a->batch + off);
		if (r == -EINTR)
			continue;
		if (r <= 0)
			break;
		off += (unsigned)r;
	}
	memmove(a->batch, a->batch + off, (a->nbatch - off) * sizeof(*a->batch));
	a->nbatch -= off;
	return a->nbatch ? (r < 0 ? r : -EIO) : 0;
}

static int aio_reap(struct engine_io *w, unsigned min, struct io_req **done, unsigned max)
{
	struct aio *a = w->eng;
	int n;

	if (max > a->depth)
		max = a->depth;
	do
		n = io_getevents(a->ctx, (long)min, (long)max, a->events, NULL);
	while (n == -EINTR);
	if (n < 0)
		return n;
	for (int i = 0; i < n; i++) {
		struct io_req *r = a->events[i].data;
		long res = (long)a->events[i].res;
		r->res = (int32_t)res;
		done[i] = r;
	}
	return n;
}

static void aio_cleanup(struct engine_io *w)
{
	struct aio *a = w->eng;

	if (!a)
		return;
	io_destroy(a->ctx);
	free(a->iocbs);
	free(a->batch);
	free(a->events);
	free(a);
	w->eng = NULL;
}

const struct engine_ops engine_aio = {
	.name = "aio",
	.flags = ENGINE_IOPRIO | ENGINE_ATOMIC,
	.probe = aio_probe,
	.init = aio_init,
	.queue = aio_queue,
	.commit = aio_commit,
	.reap = aio_reap,
	.cleanup = aio_cleanup,
};
#endif
