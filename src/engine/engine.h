#ifndef IORATE_ENGINE_ENGINE_H
#define IORATE_ENGINE_ENGINE_H
#include <stdbool.h>
#include <stdint.h>

/*
 * An engine moves bytes between a worker's buffers and its target. queue() either completes the
 * request at once (IO_Q_DONE, synchronous engines), takes it for a later commit() (IO_Q_QUEUED),
 * or has no room (IO_Q_BUSY: the runner commits and reaps, then tries again). reap() waits for at
 * least `min` completions and returns up to `max` of them. Engines return 0 or -errno; a failed
 * I/O is reported in its request's res, never by printing.
 */

struct io_req {
	uint64_t offset;
	uint64_t start_ns;       /* when it was issued (or, open loop, when it was due) */
	void *buf;
	uint32_t len;
	int32_t res;             /* set by the engine: bytes transferred or -errno */
	uint16_t idx;            /* index in worker->reqs, also the registered buffer index */
	uint8_t write;
	uint8_t counted;         /* issued inside the measured window */
};

struct worker;

enum io_q { IO_Q_DONE, IO_Q_QUEUED, IO_Q_BUSY };

#define ENGINE_SYNC 0x1          /* queue() always completes the I/O */
#define ENGINE_REAP_SUBMITS 0x2  /* reap() also submits what is queued (one system call) */
#define ENGINE_NO_IO 0x4         /* moves no bytes (the null engine): no file is needed */

struct engine_ops {
	const char *name;
	unsigned flags;
	int (*probe)(void);                /* 0, or -errno when unusable here; NULL: always usable */
	int (*init)(struct worker *w, unsigned depth);  /* in the runner's thread */
	void (*start)(struct worker *w);   /* once, in the worker's own thread; may be NULL */
	enum io_q (*queue)(struct worker *w, struct io_req *r);
	int (*commit)(struct worker *w);
	int (*reap)(struct worker *w, unsigned min, struct io_req **done, unsigned max);
	void (*cleanup)(struct worker *w); /* frees w->eng when init set it; may be NULL */
};

/* probe() where the engine has one: 0 when it can run here. */
static inline int engine_probe(const struct engine_ops *o)
{
	return o->probe ? o->probe() : 0;
}

/* commit() and reap() of engines whose queue() always completes (ENGINE_SYNC). */
int sync_commit_none(struct worker *w);
int sync_reap_none(struct worker *w, unsigned min, struct io_req **done, unsigned max);

/* NULL when unknown or not built in. */
const struct engine_ops *engine_find(const char *name);
/* Names of the engines built in, for --help: "sync, uring, aio, null". */
const char *engine_names(void);

extern const struct engine_ops engine_sync, engine_null, engine_fault;
#ifdef HAVE_LIBURING
extern const struct engine_ops engine_uring;
#endif
#ifdef HAVE_LIBAIO
extern const struct engine_ops engine_aio;
#endif

#endif
