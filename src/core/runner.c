/*
 * The runner: a run is one job or several; the jobs of one group run together from one start
 * instant, the groups one after another. Each job is a struct run (src/core/run.c); the group's
 * supervision is src/core/supervise.c.
 */
#include "core/runner.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cpu.h"
#include "core/diskstats.h"
#include "core/gate.h"
#include "core/joblog.h"
#include "core/run.h"
#include "core/target.h"
#include "core/verify_jobs.h"
#include "core/worker.h"
#include "core/worker_extra.h"
#include "core/zbd.h"
#include "engine/engine.h"
#include "util/clock.h"
#include "util/err.h"
#include "util/field.h"
#include "util/suggest.h"

#define START_DELAY_NS (50ull * 1000000ull)

/*
 * The block devices under the group's targets are watched from before the first I/O of its
 * window, so the kernel's counts miss none of it; when a job warms up first, from the window's
 * start (group_measure). A device that cannot be watched only goes unshown.
 */
static void group_watch(struct run *runs, unsigned n, struct disk_watch *w)
{
	uint64_t first = UINT64_MAX, start = UINT64_MAX;

	for (unsigned i = 0; i < n; i++) {
		first = runs[i].t_meas_start < first ? runs[i].t_meas_start : first;
		start = runs[i].t_start < start ? runs[i].t_start : start;
	}
	if (start >= first)
		(void)disk_watch_start(w);
}

/*
 * --flow: the group's threads of one flow_id share a flow_group; each adds its job's weight
 * as it starts (worker.c), as fio's does. *out holds the groups (NULL when no job has a flow);
 * 0 or -ENOMEM.
 */
static int flow_attach(struct run *runs, unsigned n, struct flow_group **out)
{
	struct flow_group *g = NULL;
	unsigned ng = 0;

	*out = NULL;
	for (unsigned i = 0; i < n; i++) {
		const struct job *j = runs[i].job;
		unsigned k = 0;
		if (!j->flow)
			continue;
		if (!g && !(g = *out = aligned_alloc(64, sizeof(*g) * n)))
			return -ENOMEM;
		while (k < ng && g[k].id != j->flow_id)
			k++;
		if (k == ng)
			g[ng++] = (struct flow_group){.count = 1, .id = j->flow_id};
		for (unsigned t = 0; t < runs[i].nworkers; t++) {
			struct worker *w = runs[i].workers[t];
			w->flow = &g[k];
			w->per_io = true;
			w->flow_weight = j->flow;
			w->flow_sleep_ns = j->flow_sleep_ns;
		}
	}
	return 0;
}

/* Sets every job of the group up, then starts them all from one instant. 0 or the failure. */
static int group_start(struct run *runs, unsigned n, const struct runner_hooks *hooks,
		       struct disk_watch *w, struct flow_group **flows)
{
	int r = 0;

	for (unsigned i = 0; i < n && !r; i++)
		if ((r = runs[i].rc = run_prepare(&runs[i], hooks)) ||
		    (r = runs[i].rc = run_workers_new(&runs[i])))
			return r;
	if ((r = flow_attach(runs, n, flows)))
		return runs[0].rc = r;
	for (unsigned i = 0; i < n; i++)
		(void)disk_watch_add(w, runs[i].res, runs[i].targets, runs[i].job->ntargets);
	/* However long the set-up took (or a caller's ready hook waited for other hosts), every
	 * worker of the group starts at the same instant, shortly after. */
	if (hooks && hooks->ready && (r = hooks->ready(hooks->ready_arg))) {
		if (!runs[0].res->errmsg[0])
			snprintf(runs[0].res->errmsg, sizeof(runs[0].res->errmsg),
				 "the run was called off: %s", strerror(-r));
		return runs[0].rc = r;
	}
	uint64_t t0 = clock_ns() + START_DELAY_NS;
	for (unsigned i = 0; i < n; i++)
		run_set_start(&runs[i], t0);
	group_watch(runs, n, w);
	for (unsigned i = 0; i < n && !r; i++)
		r = runs[i].rc = run_workers_start(&runs[i]);
	if (r)
		for (unsigned i = 0; i < n; i++)
			__atomic_store_n(&runs[i].halt, 2, __ATOMIC_RELAXED);
	return r;
}

/* The group's measured window, for its CPU figures: from the earliest start to the last end. */
static void group_measure(struct run *runs, unsigned n, const struct runner_hooks *hooks,
			  struct disk_watch *w)
{
	uint64_t first = UINT64_MAX;
	struct cpu_snap c0, c1;
	struct cpu_usage cpu;

	for (unsigned i = 0; i < n; i++) {
		runs[i].res->started = true;
		first = runs[i].t_meas_start < first ? runs[i].t_meas_start : first;
	}
	clock_sleep_until(first);
	if (!w->started)
		(void)disk_watch_start(w);
	cpu_snap_take(&c0);
	runs_supervise(runs, n, hooks);
	cpu_snap_take(&c1);
	(void)disk_watch_end(w);
	cpu_usage_between(&c0, &c1, &cpu);
	for (unsigned i = 0; i < n; i++)
		run_finish(&runs[i], &cpu);
	disk_watch_fill(w);
}

/* One group: its jobs set up, run together, and released. The first failure, or 0. */
static int run_group(struct run *runs, unsigned n, const struct runner_hooks *hooks)
{
	struct disk_watch w;
	struct flow_group *flows = NULL;
	int rc = 0;

	/* A failure is kept in its job's rc, which run_release() returns (a stop while the
	 * targets were prepared is not one). */
	disk_watch_init(&w);
	if (!group_start(runs, n, hooks, &w, &flows))
		group_measure(runs, n, hooks, &w);
	disk_watch_release(&w);
	for (unsigned i = 0; i < n; i++) {
		int r = run_release(&runs[i]);
		if (r && !rc)
			rc = r;
	}
	free(flows);
	return rc;
}

/*
 * A job that never ran (its group came after a failure, a stop, or a refusal of another job)
 * still names itself in the result: its name, group and settings, as the reports list them.
 * A result whose job has no target was never set up (a job has one at least).
 */
static int describe_unrun(const struct job *jobs, unsigned n, struct result *res)
{
	for (unsigned i = 0; i < n; i++)
		if (!res[i].job.ntargets && job_copy(&res[i].job, &jobs[i]))
			return -ENOMEM;
	return 0;
}

int runner_run_jobs(const struct job *jobs, unsigned n, struct result *res,
		    const struct runner_hooks *hooks)
{
	struct run *runs = calloc(n ? n : 1, sizeof(*runs));
	struct zbd_set *zones = NULL;   /* every group's jobs share a target's emulated zones */
	unsigned done = 0, group = 0, first;
	struct log_set logs = {0};
	char err[sizeof(res->errmsg)];
	int rc = 0, r;

	if (!runs)
		return -ENOMEM;
	/* Before any target is touched: verifying jobs that would write each other's blocks
	 * (the refusal is the first of the two jobs' failure, named by it). */
	if ((rc = verify_jobs_check(jobs, n, &first, err, sizeof(err)))) {
		struct result *r = &res[first];
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", err);
		r->error = job_copy(&r->job, &jobs[first]) ? -ENOMEM : rc;
		free(runs);
		return describe_unrun(jobs, n, res) ? -ENOMEM : r->error;
	}
	/* fio's logs, every job's, before any target is touched; committed after the last group. */
	if ((rc = log_set_open(&logs, jobs, n, &first, err, sizeof(err)))) {
		struct result *r = &res[first];
		snprintf(r->errmsg, sizeof(r->errmsg), "%s", err);
		r->error = job_copy(&r->job, &jobs[first]) ? -ENOMEM : rc;
		free(runs);
		return describe_unrun(jobs, n, res) ? -ENOMEM : r->error;
	}
	/* Set before any group runs, so a job of a group that never ran says its interval too. */
	for (unsigned i = 0; i < n; i++)
		res[i].interval_ns = job_interval(jobs, n, jobs[i].group);
	/* Groups in increasing order; a failure or a stop ends the run after its group. */
	while (done < n && !rc) {
		unsigned k = 0, next = UINT32_MAX;
		for (unsigned i = 0; i < n; i++) {
			if (jobs[i].group == group)
				runs[k++] = (struct run){.job = &jobs[i], .res = &res[i],
							 .user_stop = hooks ? hooks->stop : NULL,
							 .trace = {.dirfd = -1}, .zbd_sets = &zones,
							 .logs = logs.jobs ? &logs.jobs[i] : NULL};
			else if (jobs[i].group > group && jobs[i].group < next)
				next = jobs[i].group;
		}
		if (k)
			rc = run_group(runs, k, hooks);
		if (k && runs_ended_all(runs, k))
			break;
		done += k;
		if (hooks && hooks->stop && *hooks->stop)
			break;
		group = next;
	}
	zbd_sets_free(&zones);
	free(runs);
	/* A log that cannot be written fails the run, as a --trace does. */
	if (logs.jobs && (r = log_set_commit(&logs, err, sizeof(err))) && !rc) {
		snprintf(res[0].errmsg, sizeof(res[0].errmsg), "%s", err);
		rc = res[0].error = r;
	}
	if (describe_unrun(jobs, n, res) && !rc)
		rc = -ENOMEM;
	return rc;
}

int runner_run(const struct job *job, struct result *res, const struct runner_hooks *hooks)
{
	return runner_run_jobs(job, 1, res, hooks);
}
