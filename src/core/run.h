#ifndef IORATE_CORE_RUN_H
#define IORATE_CORE_RUN_H
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/gate.h"
#include "core/iobuf.h"
#include "core/job.h"
#include "core/result.h"
#include "core/runner.h"
#include "core/stats.h"

/*
 * One job of a run as the runner drives it (src/core/run.c sets it up and tears it down,
 * src/core/supervise.c watches a group of them). Internal to the core: the API is runner.h.
 */
struct engine_ops;
struct target;
struct worker;
struct throttle_set;
struct workload_shape;
struct log_files;

struct run {
	const struct job *job;
	struct result *res;
	const struct engine_ops *ops;
	struct target *targets;
	struct worker **workers;
	unsigned nworkers, nstarted;
	volatile sig_atomic_t halt;    /* 1: user stop, 2: a worker failed */
	volatile sig_atomic_t *user_stop;
	uint64_t t_start, t_meas_start, t_meas_end, t_end;
	struct throttle_set *throttles;
	struct workload_shape *shape;
	struct iobuf bufs;             /* every worker's buffers, a slice each */
	struct gate_out trace;
	const struct log_files *logs;  /* fio's log files (src/core/joblog.h), or NULL */
	struct zbd_set **zbd_sets;     /* the run's emulated zones, per target (runner.c) */
	unsigned zbd_open;             /* zones this job holds open for writing */
	int rc;                        /* 0, or the -errno that ended this job */
	/* The per-second series (supervise.c). */
	struct hist snap_prev, snap_cur;
	uint64_t prev_ios[3], prev_bytes[3];   /* read, write, trim */
	uint64_t next_tick, last_tick, t_halted;
	bool measured_done;
	double last_iops, last_mibps;
	/* --exit-all (src/core/run_ends.c): its end has ended the others; it ended the run. */
	bool ended_others, ended_all;
	/* --steady (src/core/run_steady.c): whether it was judged, reached or not. */
	bool steady_judged;
};

#define NS 1000000000ull

/* Result frame, engine, targets (created and filled), caps, trace. 0 or -errno (message set). */
int run_prepare(struct run *run, const struct runner_hooks *hooks);
/* Every worker of the job, set up but not started. */
int run_workers_new(struct run *run);
/* The job's window from the group's start instant t0 (its start delay added). */
void run_set_start(struct run *run, uint64_t t0);
/* Starts the workers' threads; on failure the ones started are stopped and joined. */
int run_workers_start(struct run *run);
/* Joins the workers and folds their counters, cpu (the group's) and notes into the result. */
void run_finish(struct run *run, const struct cpu_usage *cpu);
/* Frees workers, closes (and removes) targets, finishes the trace. Returns the job's rc. */
int run_release(struct run *run);

/*
 * The main thread's part while the workers of a group run: a series point per second of each
 * job's window, stop requests passed on, the caller's progress ticks. Returns when every worker
 * of every job is done.
 */
void runs_supervise(struct run *runs, unsigned n, const struct runner_hooks *hooks);
/* After the workers joined: the last partial interval, and what completed after the last tick. */
void run_series_finish(struct run *run, uint64_t end);

#endif
