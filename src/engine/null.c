/*
 * null: completes every I/O at once without moving a byte, so a run measures only iorate itself
 * (offsets, mix, clock reads, histograms): the tool's overhead per I/O.
 */
#include "engine/engine.h"

static int null_init(struct engine_io *w, unsigned depth)
{
	return 0;
}

static enum io_q null_queue(struct engine_io *w, struct io_req *r)
{
	r->res = (int32_t)r->len;
	return IO_Q_DONE;
}

const struct engine_ops engine_null = {
	.name = "null",
	.flags = ENGINE_SYNC | ENGINE_NO_IO,
	.init = null_init,
	.queue = null_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
};
