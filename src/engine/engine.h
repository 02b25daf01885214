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
	uint16_t idx;            /* index in engine_io.reqs, also the registered buffer index */
	uint8_t write;
	uint8_t counted;         /* issued inside the measured window */
	uint32_t file;           /* index in engine_io.fds: the target (0 with one) */
	uint16_t ioprio;         /* its own I/O priority (ioprio_set's value), 0: the thread's */
};

/*
 * What an engine sees of the thread that drives it: the core sets it up and owns it, the
 * engine reads it and keeps its own state in eng. Engines know nothing else of the core.
 */
struct engine_io {
	void *eng;               /* engine private state, set by init() */
	int fd;                  /* the target, opened by the core (the first, with several) */
	const int *fds;          /* the thread's targets, indexed by io_req.file; nfds >= 1 */
	unsigned nfds;
	uint32_t bs;             /* bytes per I/O */
	struct io_req *reqs;     /* depth requests; reqs[i].buf are the registered buffers */
	unsigned opts;           /* ENGINE_OPT_*, set by the core before init() */
};

/* A kernel thread polls the submission queue (io_uring's SQPOLL; uring only). */
#define ENGINE_OPT_SQPOLL 0x1u
/* Writes carry RWF_ATOMIC (engines with ENGINE_ATOMIC). */
#define ENGINE_OPT_ATOMIC 0x2u
/* The kernel's flag (Linux 6.11; linux/fs.h of Debian 12 predates it). */
#define ENGINE_RWF_ATOMIC 0x40
/* Reads and writes carry RWF_HIPRI, RWF_NOWAIT, RWF_DONTCACHE (engines with ENGINE_RWF). */
#define ENGINE_OPT_HIPRI 0x4u
#define ENGINE_OPT_NOWAIT 0x8u
#define ENGINE_OPT_DONTCACHE 0x10u
/* The kernel's values (linux/fs.h); RWF_DONTCACHE is Linux 6.14, after Debian 12's headers. */
#define ENGINE_RWF_HIPRI 0x1
#define ENGINE_RWF_NOWAIT 0x8
#define ENGINE_RWF_DONTCACHE 0x80

enum io_q { IO_Q_DONE, IO_Q_QUEUED, IO_Q_BUSY };

#define ENGINE_SYNC 0x1          /* queue() always completes the I/O */
#define ENGINE_REAP_SUBMITS 0x2  /* reap() also submits what is queued (one system call) */
#define ENGINE_NO_IO 0x4         /* moves no bytes (the null engine): no file is needed */
#define ENGINE_IOPRIO 0x8        /* issues io_req.ioprio with each I/O */
#define ENGINE_ATOMIC 0x10       /* can issue writes with RWF_ATOMIC (ENGINE_OPT_ATOMIC) */
#define ENGINE_RWF 0x20          /* passes ENGINE_OPT_HIPRI, _NOWAIT, _DONTCACHE to the kernel */
/* Unless --batch says, each I/O is submitted as it is ready (the kernel's workers start it while
 * the next is prepared); other engines submit what is ready in one call. */
#define ENGINE_SUBMIT_EACH 0x40

struct engine_ops {
	const char *name;
	unsigned flags;
	int (*probe)(void);                /* 0, or -errno when unusable here; NULL: always usable */
	int (*init)(struct engine_io *w, unsigned depth);  /* in the runner's thread */
	void (*start)(struct engine_io *w);   /* once, in the worker's own thread; may be NULL */
	enum io_q (*queue)(struct engine_io *w, struct io_req *r);
	int (*commit)(struct engine_io *w);
	int (*reap)(struct engine_io *w, unsigned min, struct io_req **done, unsigned max);
	void (*cleanup)(struct engine_io *w); /* frees w->eng when init set it; may be NULL */
};

/* probe() where the engine has one: 0 when it can run here. */
static inline int engine_probe(const struct engine_ops *o)
{
	return o->probe ? o->probe() : 0;
}

/* commit() and reap() of engines whose queue() always completes (ENGINE_SYNC). */
int sync_commit_none(struct engine_io *w);
int sync_reap_none(struct engine_io *w, unsigned min, struct io_req **done, unsigned max);

/* NULL when unknown or not built in. */
const struct engine_ops *engine_find(const char *name);
/* Names of the engines built in, for --help: "sync, uring, aio, null". */
const char *engine_names(void);
/* The engine name is, or fio's name for one ("io_uring", "libaio", "psync"): its own name
 * ("uring"), or NULL when unknown or not built in. */
const char *engine_canonical(const char *name);
struct suggest;
/* Offers every engine built in, by both names, to a "did you mean" (util/suggest.h). */
void engine_suggest(struct suggest *s);

extern const struct engine_ops engine_sync, engine_null, engine_fault;
extern const struct engine_ops engine_posixaio, engine_pvsync, engine_pvsync2;
#ifdef HAVE_LIBURING
extern const struct engine_ops engine_uring;
#endif
#ifdef HAVE_LIBAIO
extern const struct engine_ops engine_aio;
#endif

#endif
