#ifndef IORATE_CORE_WORKER_H
#define IORATE_CORE_WORKER_H
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdint.h>

#include "core/stats.h"
#include "core/verify.h"
#include "core/workload.h"
#include "engine/engine.h"

struct throttle;

/*
 * The threads of one flow (fio's flow_id): I/Os let go by all of them (from 1, as fio counts)
 * and the sum of their weights. A thread leaving takes its own off both.
 */
struct flow_group {
	uint64_t count;
	uint64_t weight;
	unsigned id;
} __attribute__((aligned(64)));

/*
 * One target of a thread that serves several (a job's shared threads: fio's nrfiles, DiskSpd's
 * -F). Counts only: the thread's latencies go to its own histograms, so ten thousand targets
 * cost a few hundred bytes each, not a histogram each.
 */
struct worker_target {
	struct workload wl;
	struct throttle *throttle;  /* its emulated cap, or NULL */
	uint64_t ios[3], bytes[3];  /* counted I/Os, [0] read, [1] write, [2] trim */
	uint64_t errors[3];
	uint64_t per_visit;         /* sequential service: I/Os before the next target */
};

/*
 * A verifying thread's own slice of its target (no other thread writes or reads there, so no
 * two I/Os race on a block): the generation of each block's last write, and which are in
 * flight (src/core/worker_verify.c).
 */
#define VERIFY_BUSY 0x80000000u      /* an I/O on the block is in flight */
#define VERIFY_FAILED 0x7fffffffu    /* its last write failed: its contents are unknown */
struct worker_verify {
	uint32_t *gen;              /* per block of the slice: 0 never written by this run */
	uint32_t *prev;             /* per request slot x blocks per I/O: gen before the I/O */
	uint64_t base, nblocks;     /* the slice's first byte and its blocks */
	uint32_t block, per_io;     /* bytes per block; blocks in the largest I/O */
	uint32_t next_gen;
	uint32_t claim_gen;         /* next_gen before the last claim: an I/O not issued gives
				     * its generations back, so a sweep's stay one apart */
	enum verify_sum sum;
	struct verify_id id;        /* seed, target, thread, block size */
	struct verify_result res;
};

/*
 * One thread's whole state: what it needs in the hot path sits in the first cache lines, and
 * nothing here is written by another thread. Workers are allocated cache-line aligned.
 */
struct worker {
	/* hot, read-mostly */
	struct engine_io io;        /* what the engine sees: its state, fd, block size, requests */
	const struct engine_ops *ops;
	unsigned depth;
	unsigned batch;             /* engines submit once this many are queued */
	struct io_req **freel;      /* requests not in flight */
	struct io_req **done;       /* reap() fills this */
	struct workload wl;
	struct worker_target *tg;   /* several targets (shared threads), or NULL: wl, io.fd */
	unsigned ntg, cur;          /* ... how many, and the one in use */
	uint64_t cur_left;          /* ... I/Os left on it before the next */
	unsigned fs_mode, fs_n;     /* ... enum job_file_service, and its N (0: none given) */
	uint64_t fs_rng;            /* ... random service's own generator */
	uint64_t t_start, t_meas_start, t_meas_end, t_end;
	uint64_t ios_left;          /* --ios: I/Os still to issue; UINT64_MAX = no limit */
	uint64_t bytes_left;        /* --io-size with a size mix: bytes still to issue; or UINT64_MAX */
	unsigned fsync_every, writes_since_fsync;
	unsigned fdatasync_every, writes_since_fdatasync;
	uint64_t think_ns;          /* pause after every think_blocks completions; 0 = none */
	unsigned think_blocks, think_count;
	uint64_t think_until;       /* no I/O is issued before this */
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
	unsigned err_target;        /* the target index of the first failure */
	uint64_t t_done;            /* set when the thread has drained and is about to exit */
	struct dir_stats st[3];     /* [0] read, [1] write, [2] trim (its histogram: trims only) */
	/* A job bounded by size with a warm-up: the warm-up's reads and writes, counted when the
	 * job ends before its warm-up does (fio's ramp_time then never ends); else NULL. */
	struct dir_stats *warm;

	/* setup */
	unsigned target, thread;
	int *fdv;                   /* several targets: their descriptors (io.fds) */
	struct worker_verify *vf;   /* --verify, or NULL */
	struct worker_extra *extra; /* what src/core/worker_extra.c keeps, or NULL */
	struct worker_trim *trim;   /* a job that trims (src/core/worker_trim.c), or NULL */
	struct worker_log *log;     /* fio's log files (src/core/worker_log.c), or NULL */
	struct worker_cmdprio *cp;  /* --cmdprio: src/core/worker_prio.c, or NULL */
	struct worker_lat *lt;      /* --latency-target: src/core/worker_lat.c, or NULL */
	struct flow_group *flow;    /* --flow: the group's shared counts, or NULL */
	struct zbd_view *zbd;       /* emulated zones (src/core/zbd.h), or NULL */
	struct sprandom *spr;       /* --sprandom's pass (src/core/sprandom.h), or NULL */
	uint64_t spr_base;          /* ... the region's first byte */
	bool per_io;                /* extra (writes' data), trim, cp or flow: before_issue() */
	uint64_t flow_count;        /* ... I/Os this thread let go */
	unsigned flow_weight;       /* ... its weight */
	uint64_t flow_sleep_ns;
	void *bufmem;               /* its slice of the job's buffers (run.bufs), not its own */
	size_t buflen;
	pthread_t tid;
	FILE *trace;                /* shared; written under its stdio lock */
} __attribute__((aligned(64)));

/* io_req.write of a trim: it indexes st[] and the targets' counts; engines never see one. */
#define IO_TRIM 2
/*
 * Priorities per I/O (src/core/worker_prio.c): the job's spec, the thread's own generator, and
 * the counts and latencies of the I/Os that carried a priority.
 */
struct job_cmdprio;
struct worker_cmdprio {
	const struct job_cmdprio *spec;
	uint16_t ioprio[2];         /* each direction's priority (the class's default applied) */
	uint64_t rng;
	struct dir_stats st[2];     /* [0] reads, [1] writes that carried one */
};
struct job;
struct result;
/* Sets w->cp up when the job has priorities per I/O. 0 or -ENOMEM. */
int worker_cmdprio_new(struct worker *w, const struct job *job, uint64_t seed);
void worker_cmdprio_free(struct worker *w);
/* The priority of the I/O drawn into r (0: the thread's). */
void cmdprio_pick(struct worker *w, struct io_req *r);
/* Accounts a counted I/O that carried one, completed at now. */
void cmdprio_done(struct worker *w, const struct io_req *r, uint64_t now);
/* Adds the thread's prioritized I/Os to the result's. 0 or -ENOMEM. */
int worker_cmdprio_fold(const struct worker *w, struct result *res);

/*
 * --latency-target (src/core/worker_lat.c): the thread's search for the deepest queue whose
 * I/Os keep within the target. Slots above the depth are parked (out of the free list).
 */
enum lat_step {
	LAT_NONE,                   /* the window goes on */
	LAT_UP,                     /* a deeper queue: unpark slots */
	LAT_DOWN,                   /* a shallower one: drain, park, start a window */
	LAT_FINAL,                  /* the depth holds: drain, start the final window */
	LAT_DONE,                   /* the final window is over: the thread ends */
	LAT_FATAL,                  /* an I/O over the target at depth 1 (percentile 100) */
};
struct worker_lat {
	uint64_t target_ns, window_ns;
	double pct;
	bool run;                   /* --latency-run: search until the run ends */
	unsigned qd, low, high, stable, max;
	uint64_t t_cycle, ios_cycle, done, failed;
	bool down_now;              /* an I/O over the target with a percentile of 100 */
	bool end_run, finished;     /* in the final window; it is over */
	bool started, fatal;        /* judging (from the measure's start); failed at depth 1 */
	uint64_t over_ns;           /* the last I/O over the target, and its target index */
	unsigned over_target;
	uint64_t t_fin, t_fin_end;
	uint64_t worst_ns;          /* the longest I/O over the target */
	struct io_req **parked;
	unsigned nparked;
	struct dir_stats fin;       /* the final window's I/Os, reads and writes together */
};
int worker_lat_new(struct worker *w, const struct job *job);
void worker_lat_free(struct worker *w);
/* Accounts a completion (any, in the window or not) at now. */
void lat_target_done(struct worker *w, const struct io_req *r, uint64_t now);
/* What the search does now; a new window starts with lat_target_cycle(). */
enum lat_step lat_target_step(struct worker_lat *lt, uint64_t now);
void lat_target_cycle(struct worker_lat *lt, uint64_t now);
/* Adds the thread's depth and final window to the result's. 0 or -ENOMEM. */
int worker_lat_fold(const struct worker *w, struct result *res);

/* The thread function of a worker (src/core/worker.c); returns NULL. */
void *worker_main(void *arg);

/*
 * --verify (src/core/worker_verify.c). Before an I/O is issued: false when a block of its range
 * is in flight (draw another), else the blocks are claimed and, for a write, the buffer made.
 * verify_cancel() gives back an I/O that was not issued; verify_done() accounts one that
 * completed (ok: it moved all its bytes), checking what a read found.
 */
bool verify_claim(struct worker *w, struct io_req *r);
void verify_cancel(struct worker *w, struct io_req *r);
void verify_done(struct worker *w, struct io_req *r, bool ok);
/* Sets a worker's slice up (blocks of its region [base, base + len)); seq: it sweeps the slice
 * in order (its headers say so, enum verify_flag). 0 or -ENOMEM. */
int verify_setup(struct worker *w, uint64_t base, uint64_t len, uint32_t block, uint32_t max_io,
		 enum verify_sum sum, uint64_t seed, unsigned target, bool seq);
void verify_free(struct worker *w);
/*
 * After the run: reads back every block the worker wrote (through fd, with a buffer aligned
 * for direct I/O) and checks it. 0, or -errno when a read failed.
 */
int verify_final(struct worker *w, int fd);
/* After the run: the blocks of its slice whose last write succeeded, added to out (its slice
 * must start at or after out's last range). 0 or -ENOMEM. */
int verify_written_collect(const struct worker *w, struct verify_written *out);

#endif
