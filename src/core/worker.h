#ifndef IORATE_CORE_WORKER_H
#define IORATE_CORE_WORKER_H
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>

#include "core/stats.h"
#include "core/workload.h"
#include "engine/engine.h"

struct throttle;

/*
 * One thread's whole state: what it needs in the hot path sits in the first cache lines, and
 * nothing here is written by another thread. Workers are allocated cache-line aligned.
 */
struct worker {
	/* hot, read-mostly */
	const struct engine_ops *ops;
	void *eng;                  /* engine private state */
	int fd;
	unsigned depth;
	unsigned batch;             /* engines submit once this many are queued */
	uint32_t bs;
	struct io_req *reqs;
	struct io_req **freel;      /* requests not in flight */
	struct io_req **done;       /* reap() fills this */
	struct workload wl;
	uint64_t t_start, t_meas_start, t_meas_end, t_end;
	uint64_t ios_left;          /* --ios: I/Os still to issue; UINT64_MAX = no limit */
	unsigned fsync_every, writes_since_fsync;
	int no_latency;
	struct throttle *throttle;  /* NULL when no cap applies */
	volatile sig_atomic_t *halt; /* set by the runner (stop request) or a failing worker */
	double rate_interval_ns;    /* open loop: mean time between this thread's I/Os; 0 = closed */
	int poisson;
	uint64_t next_due;          /* open loop: when the next I/O is due */
	uint64_t sched_late;        /* open loop: I/Os issued after their due time + slack */
	uint64_t sched_max_lag;     /* open loop: the furthest behind the schedule an I/O went */

	/* owned results */
	int err;                    /* first -errno */
	uint64_t err_offset;
	int err_write;
	uint64_t t_done;            /* set when the thread has drained and is about to exit */
	struct dir_stats st[2];     /* [0] read, [1] write */

	/* setup */
	unsigned target, thread;
	void *bufmem;
	size_t buflen;
	pthread_t tid;
	FILE *trace;                /* shared; written under its stdio lock */
} __attribute__((aligned(64)));

/* The thread function of a worker (src/core/worker.c); returns NULL. */
void *worker_main(void *arg);

#endif
