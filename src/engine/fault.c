/*
 * fault: the sync engine with injected failures, for testing how a run ends when a device
 * fails or stalls. Configured by the environment, read once per worker:
 *   IORATE_FAULT=eio:N        the Nth I/O of each thread fails with EIO (N from 1)
 *   IORATE_FAULT=stall:N:MS   every Nth I/O of each thread takes MS milliseconds longer
 * Without IORATE_FAULT it behaves exactly like sync.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "core/worker.h"
#include "engine/engine.h"

struct fault {
	unsigned long long n, every, stall_ms, fail_at;
};

static int fault_init(struct worker *w, unsigned depth)
{
	const char *env = getenv("IORATE_FAULT");
	struct fault *f;
	int r = engine_sync.init(w, depth);

	if (r)
		return r;
	if (!(f = calloc(1, sizeof(*f))))
		return -ENOMEM;
	if (env && sscanf(env, "eio:%llu", &f->fail_at) != 1 &&
	    sscanf(env, "stall:%llu:%llu", &f->every, &f->stall_ms) != 2) {
		free(f);
		return -EINVAL;
	}
	w->eng = f;
	return 0;
}

static enum io_q fault_queue(struct worker *w, struct io_req *r)
{
	struct fault *f = w->eng;

	f->n++;
	if (f->fail_at && f->n == f->fail_at) {
		r->res = -EIO;
		return IO_Q_DONE;
	}
	if (f->every && f->n % f->every == 0) {
		struct timespec ts = {(time_t)(f->stall_ms / 1000), (long)(f->stall_ms % 1000) * 1000000};
		nanosleep(&ts, NULL);
	}
	return engine_sync.queue(w, r);
}

static void fault_cleanup(struct worker *w)
{
	free(w->eng);
	w->eng = NULL;
}

const struct engine_ops engine_fault = {
	.name = "fault",
	.flags = ENGINE_SYNC,
	.init = fault_init,
	.queue = fault_queue,
	.commit = sync_commit_none,
	.reap = sync_reap_none,
	.cleanup = fault_cleanup,
};
