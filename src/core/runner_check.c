/*
 * What the runner judges before it runs (runner.h): its engines by name, the targets a run
 * uses, and every check of a job list a run and a dry run make alike (runner_check_jobs()).
 */
#include "core/runner.h"

#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "core/gate.h"
#include "core/target.h"
#include "core/verify_jobs.h"
#include "engine/engine.h"
#include "util/err.h"
#include "util/field.h"
#include "util/suggest.h"

const char *runner_engines(void)
{
	return engine_names();
}

bool runner_has_engine(const char *name)
{
	return engine_find(name) != NULL;
}

const char *runner_engine_name(const char *name, char *near, size_t nearlen)
{
	const char *ours = engine_canonical(name);
	struct suggest s;

	if (near && nearlen)
		near[0] = '\0';
	if (ours || !near)
		return ours;
	suggest_init(&s, name);
	engine_suggest(&s);
	suggest_tail(&s, NULL, near, nearlen);
	return NULL;
}

bool runner_engine_no_io(const char *name)
{
	const struct engine_ops *e = engine_find(name);

	return e && (e->flags & ENGINE_NO_IO);
}

const char *runner_default_engine(char *why, size_t whylen)
{
	const struct engine_ops *uring = engine_find("uring");
	int r = uring ? engine_probe(uring) : -ENOSYS;

	if (r == 0) {
		snprintf(why, whylen, "default: io_uring is available");
		return "uring";
	}
	if (uring)
		snprintf(why, whylen, "default: io_uring unavailable (%s)", strerror(-r));
	else
		snprintf(why, whylen, "default: built without liburing");
	return "sync";
}

int runner_note_targets(const struct job *jobs, unsigned n)
{
	int r;

	for (unsigned i = 0; i < n; i++)
		for (unsigned t = 0; t < jobs[i].ntargets; t++)
			if ((r = gate_use(jobs[i].targets[t], "a target", NULL)))
				return r;
	return 0;
}

int runner_precheck(const struct job *job, char *err, size_t errlen)
{
	int r;

	for (unsigned i = 0; i < job->ntargets; i++)
		if ((r = target_precheck(job->targets[i], err, errlen)))
			return r;
	if ((r = runner_note_targets(job, 1)))
		return err_set(err, errlen, r, "out of memory");
	if (job->trace_path && (r = gate_check_output(FIELD("trace"), job->trace_path, err, errlen)))
		return r;
	return 0;
}

int runner_check_jobs(const struct job *jobs, unsigned n, unsigned *bad, char *err, size_t errlen)
{
	int r;

	*bad = UINT32_MAX;
	for (unsigned i = 0; i < n; i++)
		if ((r = job_validate(&jobs[i], err, errlen)) ||
		    (r = runner_precheck(&jobs[i], err, errlen))) {
			*bad = i;
			return r;
		}
	if ((r = jobs_check_interval(jobs, n, err, errlen)))
		return r;
	return verify_jobs_check(jobs, n, bad, err, errlen);
}
