#ifndef IORATE_CORE_WORKER_TRIM_H
#define IORATE_CORE_WORKER_TRIM_H
/*
 * Trims (discards), kept out of src/core/worker.c's hot loop: a job without trims has no
 * struct worker_trim and pays one untaken branch. A trim is done synchronously in the worker's
 * thread, as fio does: fallocate(PUNCH_HOLE | KEEP_SIZE) on a file, BLKDISCARD on a block
 * device. Engines never see one: the worker's engine_ops is a copy whose queue() is this
 * file's, doing the trims and handing reads and writes to the engine. Internal to the core.
 */
#include <stdbool.h>
#include <stdint.h>

#include "core/job.h"
#include "engine/engine.h"

struct worker;

struct worker_trim {
	struct engine_ops ops;          /* the engine's hooks, but queue() */
	const struct engine_ops *real;  /* the engine */
	uint64_t thresh;                /* a drawn read becomes a trim when a draw is below this */
	bool all;                       /* ... every drawn read does */
	bool first;                     /* every write trims its blocks first (trimwrite) */
	uint64_t rng;                   /* its own generator: the offsets stay the job's */
	bool *blockdev;                 /* per target of the worker (io.fds): BLKDISCARD */
};

/*
 * Gives w (its ops and targets set) what a job that trims needs: nfds flags, a block device
 * or not, in the order of w->io.fds. Nothing for a job without trims. 0 or -ENOMEM.
 */
int worker_trim_new(struct worker *w, const struct job *job, uint64_t seed,
		    const bool *blockdev, unsigned nfds);
void worker_trim_free(struct worker *w);
/* After the I/O is drawn: a read becomes a trim (io_req.write = IO_TRIM) by the job's share. */
void worker_trim_draw(struct worker *w, struct io_req *r);
/*
 * Whether the target can be trimmed, before the run: a hole punched past the end of a file
 * (nothing changes), a discard of no bytes on a device. 0, or -EOPNOTSUPP and the like.
 */
int worker_trim_probe(int fd, bool blockdev, uint64_t size);

#endif
