#ifndef IORATE_CORE_RUNNER_H
#define IORATE_CORE_RUNNER_H
#include <signal.h>
#include <stdbool.h>

#include "core/job.h"
#include "core/result.h"

/* Where a run stands, handed to the tick callback about once a second. */
struct runner_progress {
	const char *phase;       /* "preparing", "warmup", "measuring", "cooldown" */
	double elapsed_s;        /* since the workload started (warmup included) */
	double total_s;          /* warmup + time + cooldown */
	double iops, mibps;      /* of the last interval */
	double prepare_done;     /* 0..1 while preparing test files */
};

struct runner_hooks {
	/* Called from the runner's own thread, never from a worker. May be NULL. */
	void (*tick)(void *arg, const struct runner_progress *p);
	void *arg;
	/* Set (by a signal handler) to stop early; results of what ran are kept. May be NULL. */
	volatile sig_atomic_t *stop;
	/*
	 * Called once every target is open (created and filled) and every worker is set up, just
	 * before the start instant is fixed: a caller that runs the job on several hosts waits here
	 * for the others. Returns 0, or -errno to call the run off (targets are cleaned up as on any
	 * failure). The workers start 50 ms after it returns, so callers that return at one agreed
	 * instant start together. May be NULL.
	 */
	int (*ready)(void *arg);
	void *ready_arg;
};

/*
 * Runs job (validated) and fills res (result_init'ed by the caller). Prepares targets (creating
 * and filling test files), runs threads x depth per target, and removes files it created unless
 * job->keep. Returns 0, or -errno when the run failed; in both cases res holds what ran, and
 * res->errmsg says why it failed. An early stop is not a failure: res->interrupted is set.
 */
int runner_run(const struct job *job, struct result *res, const struct runner_hooks *hooks);

/* The engine "auto" resolves to: "uring" where it probes, else "sync". */
const char *runner_default_engine(char *why, size_t whylen);

#endif
