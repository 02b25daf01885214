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

/*
 * Runs the n jobs (validated) into res[0..n) (each result_init'ed): the jobs of one group
 * together, from one start instant (each after its startdelay), the groups in increasing order.
 * A failure, or a stop request, ends the run after the group it happened in: the results of
 * groups that did not run are left as result_init made them (started false). Returns 0 or the
 * first failure's -errno; each result says its own.
 */
int runner_run_jobs(const struct job *jobs, unsigned n, struct result *res,
		    const struct runner_hooks *hooks);

/*
 * Refuses, before any target is touched, what is bad usage whatever happens next: a target that
 * is a directory or whose directory is missing, a --trace that is not a regular file or would
 * replace a file the command uses (its targets are recorded with gate_use()). Returns 0
 * or -EINVAL with "<what>: <why>" in err. runner_run() calls it; sweep and mark call it for every
 * job before the first one runs.
 */
int runner_precheck(const struct job *job, char *err, size_t errlen);
/* The jobs' targets, as files no output may replace (gate_use): 0 or -ENOMEM. */
int runner_note_targets(const struct job *jobs, unsigned n);
/*
 * Every check a run makes of its jobs before it touches a target (the run and a dry run judge
 * alike): each job's own, then the group's series and verifying jobs. 0, or -errno with the
 * reason in err and *bad the job (UINT32_MAX: none alone).
 */
int runner_check_jobs(const struct job *jobs, unsigned n, unsigned *bad, char *err, size_t errlen);

/* The engines of this build, for front ends (which do not see the engine layer). */
const char *runner_engines(void);          /* "sync, uring, aio, null, fault" */
bool runner_has_engine(const char *name);
/* iorate's name of an engine given by its own or fio's name ("libaio": "aio"), or NULL;
 * else "; did you mean uring?" in near (or ""). */
const char *runner_engine_name(const char *name, char *near, size_t nearlen);
/* Whether the engine moves no bytes (null): its targets are only names. */
bool runner_engine_no_io(const char *name);

/* The engine "auto" resolves to: "uring" where it probes, else "sync". */
const char *runner_default_engine(char *why, size_t whylen);

#endif
