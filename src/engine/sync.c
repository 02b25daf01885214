/* sync: pread/pwrite, one I/O at a time per thread. */
#include <errno.h>
#include <unistd.h>

#include "core/worker.h"
#include "engine/engine.h"

static int sync_probe(void)
{
	return 0;
}

static int sync_init(struct worker *w, unsigned depth)
{
	return depth == 1 ? 0 : -EINVAL;
}

static enum io_q sync_queue(struct worker *w, struct io_req *r)
{
	ssize_t n = r->write ? pwrite(w->fd, r->buf, r->len, (off_t)r->offset)
			     : pread(w->fd, r->buf, r->len, (off_t)r->offset);

	r->res = n < 0 ? -errno : (int32_t)n;
	return IO_Q_DONE;
}

/* Synchronous engines complete in queue(): nothing to commit or reap. */
int sync_commit_none(struct worker *w)
{
	return 0;
}

int sync_reap_none(struct worker *w, unsigned min, struct io_req **done, unsigned max)
{
	return 0;
}

static void sync_cleanup(struct worker *w)
{
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.flags = ENGINE_SYNC,
	.probe = sync_probe,
	.init = sync_init,
	.queue = sync_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
	.cleanup = sync_cleanup,
};
