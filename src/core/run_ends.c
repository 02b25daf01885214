/*
 * A job whose end ends others (fio's exitall and exit_what): the main thread, watching a group,
 * sees a job with --exit-all end, and stops the jobs it names as a stop request would, without
 * calling them interrupted. With `all`, no later group starts either. --exit-on-error (fio's
 * exitall_on_error) does the same when the job fails.
 */
#include <stdbool.h>

#include "core/run.h"
#include "core/worker.h"
#include "core/worker_extra.h"

static bool ended(const struct run *run)
{
	for (unsigned i = 0; i < run->nworkers; i++)
		if (!__atomic_load_n(&run->workers[i]->t_done, __ATOMIC_ACQUIRE))
			return false;
	return run->nworkers > 0;
}

static const char *const scope_name[] = {
	[EXIT_REPORT_GROUP] = "its reporting group",
	[EXIT_GROUP] = "its group",
	[EXIT_ALL] = "the run",
};

/* a's end (or failure) ends b (another job of the group, still running), in scope. */
static void end_one(const struct run *a, struct run *b, enum job_exit scope, bool failed,
		    uint64_t now)
{
	const struct job *ja = a->job;

	if (scope == EXIT_REPORT_GROUP && b->job->report_group != ja->report_group)
		return;
	if (b->halt || ended(b))
		return;
	b->t_halted = now;
	__atomic_store_n(&b->halt, 3, __ATOMIC_RELAXED);
	result_add_note(b->res, "ended early: job %s %s, and its %s ends %s",
			ja->name ? ja->name : "(unnamed)", failed ? "failed" : "ended",
			failed ? "failure" : "end", scope_name[scope]);
}

void runs_check_ends(struct run *runs, unsigned n, uint64_t now)
{
	for (unsigned i = 0; i < n; i++) {
		struct run *a = &runs[i];
		/* A worker's failure sets halt 2 at once; its end waits for every worker. */
		bool failed = a->job->exit_error != EXIT_NONE &&
			      __atomic_load_n(&a->halt, __ATOMIC_RELAXED) == 2;
		enum job_exit scope = failed ? a->job->exit_error : a->job->exit_what;
		if (a->ended_others || (!failed && (scope == EXIT_NONE || !ended(a))))
			continue;
		a->ended_others = true;
		a->ended_all = scope == EXIT_ALL;
		for (unsigned k = 0; k < n; k++)
			if (k != i)
				end_one(a, &runs[k], scope, failed, now);
	}
}

bool runs_ended_all(const struct run *runs, unsigned n)
{
	for (unsigned i = 0; i < n; i++)
		if (runs[i].ended_all)
			return true;
	return false;
}
